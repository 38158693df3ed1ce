#!/usr/bin/env python3
"""Compile time of the plugin against plain clang (bench/compile-time.sh).

For each example with a GPU nest, and for generated files holding 1, 5 and 20
copies of the scheduled function of examples/gemm_vthread.cpp (a shared-memory
GEMM) and examples/matmul.cpp, it compiles the file `-c -O2` three ways, side
by side and interleaved run by run (this machine is shared and noisy, so only
ratios measured together mean anything):

  plain     clang++-19 without the plugin (`-Wno-unknown-pragmas`)
  plugin    with the plugin, `-fplugin-arg-sched-embed=0` (the plugin's own work:
            extraction, scheduling, lowering, emission)
  +nvrtc    with the plugin and kernels embedded (issue 21): NVRTC compiles each
            kernel to PTX, here from an empty kernel cache each run

and prints the median CPU time (user + sys of the compiler process) of each,
the ratios plugin/plain and +nvrtc/plain, and the plugin's time per nest.
With --callgrind it adds, for each file, the instructions clang -cc1 executes
plain and with the plugin (embed=0), a stable measure on a noisy machine
(valgrind cannot read clang 19's DWARF 5 in the plugin, so a stripped copy
of the plugin is profiled).
"""
import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CLANGXX = "clang++-19"
# The generated files: the function of the example that carries the nest.
GENERATED = {"gemm_vthread": "gemm", "matmul": "matmul"}
COPIES = (1, 5, 20)


def function_text(source, name):
    """The text of `static void NAME(...) { ... }` in SOURCE, braces balanced."""
    text = source.read_text()
    start = re.search(r"^static void " + name + r"\(", text, re.M)
    if not start:
        sys.exit(f"error: no 'static void {name}(' in {source}")
    depth, i = 0, text.index("{", start.start())
    for j in range(i, len(text)):
        depth += {"{": 1, "}": -1}.get(text[j], 0)
        if depth == 0:
            return text[start.start():j + 1]
    sys.exit(f"error: unbalanced braces in {source}")


def generated_file(folder, example, copies):
    """A file with COPIES renamed copies of EXAMPLE's nest function, each
    called once, so no copy is dead code."""
    fn = GENERATED[example]
    body = function_text(ROOT / "examples" / (example + ".cpp"), fn)
    params = re.search(r"\((.*?)\)", body).group(1)
    args = ", ".join(p.split()[-1].lstrip("*") for p in params.split(","))
    out = ["#include <cstdio>", "#include <cstdlib>", "#include <vector>", ""]
    for k in range(copies):
        out.append(re.sub(r"^static void " + fn + r"\(", f"void {fn}_{k}(", body, flags=re.M))
        out.append("")
    decl = "void run_all(" + params + ") {"
    out.append(decl)
    out += [f"  {fn}_{k}({args});" for k in range(copies)]
    out.append("}")
    path = folder / f"{example}_x{copies}.cpp"
    path.write_text("\n".join(out) + "\n")
    return path


def cpu_seconds(cmd, env):
    """The CPU time (user + sys) of CMD and its children."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    r = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if r.returncode != 0:
        sys.exit(f"error: {' '.join(cmd)} failed:\n{r.stderr[-2000:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def instructions(cmd, env, folder):
    """Instructions clang -cc1 executes for CMD (callgrind)."""
    job = subprocess.run(cmd + ["-###"], env=env, capture_output=True, text=True)
    cc1 = [l for l in job.stderr.splitlines() if '"-cc1"' in l][-1]
    import shlex
    args = shlex.split(cc1)
    out = folder / "cg.out"
    r = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}"] + args,
                       env=env, capture_output=True, text=True)
    if r.returncode != 0:
        return None
    m = re.search(r"^summary: (\d+)", out.read_text(), re.M) or \
        re.search(r"^totals: (\d+)", out.read_text(), re.M)
    return int(m.group(1)) if m else None


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--build", default=str(ROOT / "build"), help="the built sched (default: build)")
    p.add_argument("--runs", type=int, default=5, help="runs of each compile (default 5)")
    p.add_argument("--callgrind", action="store_true", help="add callgrind instruction counts")
    p.add_argument("--no-nvrtc", action="store_true", help="leave out the +nvrtc column")
    p.add_argument("--only", metavar="REGEX",
                   help="only the files whose name matches (callgrind of a 20-nest file takes minutes)")
    args = p.parse_args()
    plugin = Path(args.build) / "lib" / "SchedPlugin.so"
    if not plugin.exists():
        sys.exit(f"error: no {plugin}: build sched first (bash scripts/build.sh)")
    if not shutil.which(CLANGXX):
        sys.exit(f"error: {CLANGXX} not found")
    folder = Path(tempfile.mkdtemp(prefix="sched-compile-time-"))
    stripped = folder / "SchedPlugin.stripped.so"
    files = [f for f in sorted((ROOT / "examples").glob("*.cpp"))
             if "target(gpu)" in f.read_text()]
    files += [generated_file(folder, e, n) for e in GENERATED for n in COPIES]
    if args.only:
        files = [f for f in files if re.search(args.only, f.name)]
    base = [CLANGXX, "-std=c++17", "-O2", "-c", "-o", str(folder / "out.o")]
    ways = {"plain": base + ["-Wno-unknown-pragmas"],
            "plugin": base + [f"-fplugin={plugin}", "-fplugin-arg-sched-embed=0"]}
    if not args.no_nvrtc:
        ways["+nvrtc"] = base + [f"-fplugin={plugin}"]
    env = dict(os.environ)
    print(f"compile time, {args.runs} runs each, median CPU seconds (user + sys); "
          f"plugin: {plugin}")
    head = f"{'file':34} {'nests':>5} {'plain':>7} {'plugin':>7} {'ratio':>6} {'ms/nest':>8}"
    if "+nvrtc" in ways:
        head += f" {'+nvrtc':>7} {'ratio':>6}"
    if args.callgrind:
        head += f" {'Ir plain':>14} {'Ir plugin':>14} {'ratio':>6}"
        shutil.copy(plugin, stripped)
        subprocess.run(["objcopy", "--strip-debug", str(stripped)], check=True)
    print(head)
    for f in files:
        nests = f.read_text().count("#pragma sched target(")
        times = {w: [] for w in ways}
        for run in range(args.runs):
            for w, cmd in ways.items():
                run_env = env
                if w == "+nvrtc":  # an empty kernel cache: NVRTC compiles every kernel
                    run_env = dict(env, XDG_CACHE_HOME=str(folder / f"cache-{run}"))
                times[w].append(cpu_seconds(cmd + [str(f)], run_env))
        med = {w: statistics.median(t) for w, t in times.items()}
        name = f.name if f.parent == folder else str(f.relative_to(ROOT))
        per = (med["plugin"] - med["plain"]) * 1000 / max(nests, 1)
        line = (f"{name:34} {nests:5d} {med['plain']:7.3f} {med['plugin']:7.3f} "
                f"{med['plugin'] / med['plain']:6.2f} {per:8.1f}")
        if "+nvrtc" in med:
            line += f" {med['+nvrtc']:7.3f} {med['+nvrtc'] / med['plain']:6.2f}"
        if args.callgrind:
            plain = instructions(ways["plain"] + [str(f)], env, folder)
            plug = instructions(base + [f"-fplugin={stripped}", "-fplugin-arg-sched-embed=0",
                                        str(f)], env, folder)
            if plain and plug:
                line += f" {plain:14,d} {plug:14,d} {plug / plain:6.2f}"
        print(line, flush=True)
    shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
