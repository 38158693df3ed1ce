#!/usr/bin/env python3
"""The GPU check behind bench/gpu-check.sh (bench/README.md, "gpu-check.sh").

Two halves, because the GPU machine has no clang 19:

  --build DIR   (a machine with clang++-19 and a built sched) compiles every
                binary the check runs into DIR, with DIR/manifest.json
                naming them;
  --run DIR     (the GPU machine: no compiler needed) runs them and prints
                one table, or `skip: no GPU (...)` and exits 0 without one.
  --list        prints the checks and where each comes from, building nothing.

The checks:
  e2e     every program an end-to-end test (test/e2e/*.test) builds with the
          plugin, runs under sim or emu and compares with the plain build, at
          the same flags and arguments: run here under SCHED_BACKEND=cuda and
          compared with the plain build the same way (byte for byte: `match`;
          numbers within compare_outputs.py's tolerance: `close`); plus the
          fp32 GEMM examples at dividing and non-dividing sizes, n = 1 and
          n = 0. target(vta) programs are listed as skipped (no VTA device;
          their e2e tests run them on the VTA simulator).
  time    the fp32 GEMM examples (matmul, gemm_vthread) at square sizes on
          device arrays against cublasSgemm (time_example_gemm.cpp): our
          kernel's device time from the runtime's SCHED_TIME=1 lines,
          cuBLAS's from CUDA events, both the median per call.
  scope   the stencil of test/e2e/Inputs/stencil_steps.cpp, 2^24 floats and
          10 steps, built without and with a data scope (its e2e checks'
          binaries): each program's wall time (median of 3) and whether the
          two print the same, i.e. what keeping the arrays on the device saves.
  tensorcore  bench/tensorcore-vs-cublas.sh (the wmma GEMMs, explicit and
          tensorcore(auto), against cublasGemmEx), built here with
          --build-only and timed there with --run-only, its rows in the table.

Relies on: the e2e tests' RUN lines having the shapes they have today
(`%sched_cc ... -o %t.X`, `env SCHED_BACKEND=sim %t.X ARGS > OUT`,
`diff A B` / `compare_outputs.py A B`); a test the parser cannot map is
listed by --list as not checked, with the reason.
"""
import argparse
import concurrent.futures
import hashlib
import json
import math
import os
import re
import shlex
import shutil
import signal
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field, asdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import compare_outputs  # noqa: E402  (the e2e tests' tolerance)

MANIFEST = "manifest.json"
# The fp32 GEMM examples: the function each schedules, and the sizes they
# are checked at beyond the tests' (dividing by every tile, dividing by none,
# n = 1, n = 0, an empty k) and timed at against cublasSgemm.
GEMM_EXAMPLES = {"examples/matmul.cpp": "matmul", "examples/gemm_vthread.cpp": "gemm",
                 # gemm_vthread's schedule with both stages double-buffered (prefetched)
                 "test/e2e/Inputs/gemm_double_buffer.cpp": "gemm"}
GEMM_CHECK_SIZES = ["128 128 128", "257 129 65", "1 1 1", "0 0 0", "64 64 0"]
GEMM_TIME_SIZES = [256, 1024, 2048, 4096]
# tensorcore-vs-cublas.sh: its own shapes, plus these squares in fp16.
TENSORCORE_SQUARES = "256,1024,2048"
# Flags that only print or check at compile time: a check builds without them.
DROPPED_FLAG_PREFIXES = ("-fplugin-arg-sched-dump=", "-fplugin-arg-sched-emit-dir=",
                         "-fplugin-arg-sched-print-after-all", "-fplugin-arg-sched-verify-each",
                         "-Rpass", "-Werror", "-Wno-unknown-pragmas")
SEPARATORS = {"|", "||", "&&", ";"}
REDIRECTS = {">", "2>", "<", "2>&1", "&>", ">>", "2>>"}


# ----------------------------------------------------------------------------
# The checks, from the e2e tests.

@dataclass(frozen=True)
class Build:
    lang: str      # "c++" or "c"
    plugin: bool
    source: str    # relative to ROOT
    flags: tuple   # the test's flags, less DROPPED_FLAG_PREFIXES

    def key(self):
        # Flag order aside: `-O2 -DTA=1` and `-DTA=1 -O2` build the same program.
        return (self.lang, self.plugin, self.source, tuple(sorted(self.flags)))


@dataclass
class Check:
    name: str
    kind: str                 # "e2e", "time" or "tensorcore"
    size: str = "default"
    args: list = field(default_factory=list)
    compare: str = "exact"    # e2e: "exact" (the test diffs) or "tolerance"
    origin: str = ""          # the test (or the rule) it comes from
    skip: str = ""            # why it never runs (target(vta), no toolkit)
    caveat: str = ""          # e2e: what its test accepts instead of the same output
    ref: str = ""             # binaries, relative to the folder
    sched: str = ""
    warmup: int = 0
    iters: int = 0


def _run_commands(test):
    """The RUN commands of a lit test, continuation lines joined, and a
    `for V in A B; do BODY; done` unrolled into BODY once per value."""
    commands, pending = [], ""
    for line in test.read_text(encoding="utf-8").splitlines():
        m = re.match(r"\s*RUN:\s?(.*)$", line)
        if not m:
            continue
        text = pending + m.group(1)
        if text.endswith("\\"):
            pending = text[:-1]
            continue
        pending = ""
        loop = re.match(r"^\s*for (\w+) in ([^;]+); do (.*); done\s*$", text)
        if loop:
            var, values, body = loop.groups()
            for v in values.split():
                commands.append(re.sub(r"\$\{?" + var + r"\b\}?", v, body))
        else:
            commands.append(text)
    return commands


def _substitute(command, test):
    """lit's %S and %s (not the %sched_cc they begin), and %examples."""
    test = test.resolve()
    command = re.sub(r"%S(?![A-Za-z_])", lambda _: str(test.parent), command)
    command = re.sub(r"%s(?![A-Za-z_])", lambda _: str(test), command)
    return command.replace("%examples", str(ROOT / "examples"))


def _segments(tokens):
    seg = []
    for tok in tokens:
        if tok in SEPARATORS:
            if seg:
                yield seg
            seg = []
        else:
            seg.append(tok)
    if seg:
        yield seg


def _until_redirect(tokens):
    out = []
    for tok in tokens:
        if tok in REDIRECTS or tok.startswith(("2>", ">")):
            break
        out.append(tok)
    return out


def _redirect_target(tokens, op):
    for i, tok in enumerate(tokens[:-1]):
        if tok == op:
            return tokens[i + 1]
    return None


def _relative(path):
    p = Path(path).resolve()
    try:
        return str(p.relative_to(ROOT))
    except ValueError:
        return str(p)


def _parse_build(seg):
    """A Build for a compile command that links a program, "compile-only" for
    one that does not (-c, -fsyntax-only, ...), None for anything else."""
    compilers = {"%clangxx": ("c++", False), "%clang_c": ("c", False),
                 "%sched_cc": ("c++", True), "%sched_c": ("c", True)}
    if seg[0] not in compilers:
        return None
    lang, plugin = compilers[seg[0]]
    args = _until_redirect(seg[1:])
    sources = [a for a in args if a.endswith((".cpp", ".c", ".cc")) and not a.startswith("-")]
    if len(sources) != 1:
        return None
    flags, skip_next = [], False
    for a in args:
        if skip_next:
            skip_next = False
        elif a == "-o":
            skip_next = True
        elif a in sources or a == "%sched_link" or a.startswith(DROPPED_FLAG_PREFIXES):
            continue
        else:
            flags.append(a)
    if any(a in ("-fsyntax-only", "-shared", "-E", "-S") for a in args) or "-o" not in args:
        return None
    if "-c" in args:  # an object only: the emitted-CUDA tests (emit-dir, then nvcc)
        return ("compile-only", Build(lang, plugin, _relative(sources[0]),
                                      tuple(f for f in flags if f != "-c")))
    return (args[args.index("-o") + 1], Build(lang, plugin, _relative(sources[0]), tuple(flags)))


def _parse_run(seg):
    """(binary, args, env, stdout) of `[env V=X ...] %t.B ARGS > OUT ...`."""
    env, i = {}, 0
    if seg[0] == "env":
        i = 1
        while i < len(seg):
            if seg[i] == "-u":
                i += 2
            elif "=" in seg[i] and not seg[i].startswith("%"):
                k, v = seg[i].split("=", 1)
                env[k] = v
                i += 1
            else:
                break
    rest = seg[i:]
    if not rest or not rest[0].startswith("%t"):
        return None
    out = _redirect_target(rest, ">")
    return rest[0], _until_redirect(rest[1:]), env, out


def _parse_compare(seg):
    if seg[0] == "diff" and len(seg) >= 3:
        return "exact", seg[-2], seg[-1]
    if seg[0].startswith("python") and len(seg) >= 4 and seg[1].endswith("compare_outputs.py"):
        files, options, rest = [], {}, iter(seg[2:])
        for a in rest:
            if a.startswith("--"):
                name, _, value = a[2:].partition("=")
                options[name] = value if value else next(rest, "")
            else:
                files.append(a)
        exact = all(_number(options.get(t, "1")) == 0 for t in ("rtol", "atol"))
        if len(files) >= 2:
            return "exact" if exact else "tolerance", files[0], files[1]
    return None


def _name(build):
    """`matmul`, `wmma_vthread -DNV=2`, `tensorcore_auto -DTA=1 arch=sm_80`."""
    src = Path(build.source)
    stem = src.stem if src.suffix == ".cpp" else src.name
    if src.parent.name == "c89_suite":
        stem = "c89_suite/" + stem
    extra = []
    for f in build.flags:
        if f in ("-O2", "-std=c++17", "-std=c99"):
            continue
        extra.append(f.replace("-fplugin-arg-sched-", ""))
    return " ".join([stem] + extra)


def _is_vta(source):
    return "target(vta)" in (ROOT / source).read_text(encoding="utf-8", errors="replace")


def derive_checks(tests_dir):
    """The e2e checks of every test in tests_dir, and the tests that gave
    none: [(test, reason)]."""
    checks, unchecked, compiled = {}, [], []
    for test in sorted(Path(tests_dir).glob("*.test")):
        builds, runs, compares, compiled_only = {}, {}, [], []
        for command in _run_commands(test):
            try:
                tokens = shlex.split(_substitute(command, test))
            except ValueError:
                continue
            accepts = ""  # `grep -q "race on ..." ERR || compare`: the test accepts that
            for seg in _segments(tokens):
                if seg[0] == "not":
                    break  # an expected failure: nothing to compare
                if seg[0] == "grep":
                    accepts = next((a for a in seg[1:] if not a.startswith("-")), "")
                    continue
                parsed = _parse_build(seg)
                if parsed:
                    target, build = parsed
                    if target == "compile-only":
                        compiled_only.append(build)
                    else:
                        builds[target] = build
                    continue
                run = _parse_run(seg)
                if run:
                    binary, args, env, out = run
                    if out and binary in builds:
                        runs[out] = (builds[binary], args, env)
                    continue
                cmp = _parse_compare(seg)
                if cmp:
                    compares.append(cmp + (accepts,))
        found = 0
        for mode, a, b, accepts in compares:
            ra, rb = runs.get(a), runs.get(b)
            if not ra or not rb:
                continue
            plain = ra if not ra[0].plugin else rb if not rb[0].plugin else None
            sched = rb if plain is ra else ra
            if plain is None or not sched[0].plugin or sched[0].source != plain[0].source:
                continue
            if sched[2].get("SCHED_BACKEND") not in ("sim", "emu") or "LD_LIBRARY_PATH" in sched[2]:
                continue
            if sched[1] != plain[1]:
                continue
            key = (plain[0].key(), sched[0].key(), tuple(sched[1]))
            found += 1
            if key in checks:
                if mode == "exact":
                    checks[key][2] = "exact"
                continue
            checks[key] = [plain[0], sched[0], mode, list(sched[1]), test.name, accepts]
        compiled.extend((build, test.name) for build in compiled_only if build.plugin)
        if not found and any(b.plugin for b in builds.values()):
            unchecked.append((test.name, "no run under sim or emu compared with the plain build"
                              " at the same arguments"))
    for build, test in compiled:
        # A program a test only compiles (the emitted CUDA, for nvcc): run at
        # its own defaults too, when no check runs that build.
        if any(k[1] == build.key() for k in checks):
            continue
        plain = Build(build.lang, False, build.source,
                      tuple(f for f in build.flags if not f.startswith("-fplugin"))
                      + (("-std=c++17",) if build.lang == "c++" else ()))
        checks[(plain.key(), build.key(), ())] = [plain, build, "tolerance", [], test, ""]
    # The fp32 GEMM examples beyond the tests' sizes (their data are not small
    # integers: compared within the tolerance, as their tests do).
    for source in GEMM_EXAMPLES:
        plain = Build("c++", False, source, ("-std=c++17", "-O2"))
        sched = Build("c++", True, source, ("-O2",))
        for size in GEMM_CHECK_SIZES:
            key = (plain.key(), sched.key(), tuple(size.split()))
            checks.setdefault(key, [plain, sched, "tolerance", size.split(), "gpu-check sizes", ""])
    out = []
    for plain, sched, mode, args, origin, accepts in checks.values():
        c = Check(_name(sched), "e2e", " ".join(args) or "default", args, mode, origin)
        if accepts:
            c.caveat = (f"its e2e test accepts the simulator's report '{accepts}' instead "
                        "(a race or an uninitialized read: a GPU may answer wrong silently)")
        c.skip = "target(vta): no VTA device here; its e2e test runs it on the VTA simulator" \
            if _is_vta(sched.source) else ""
        c._builds = (plain, sched)  # not in the manifest
        out.append(c)
    out.sort(key=lambda c: (c.name, c.origin))
    return out, unchecked


def timing_checks():
    out = []
    for source, fn in GEMM_EXAMPLES.items():
        stem = Path(source).stem
        for s in GEMM_TIME_SIZES:
            iters = 20 if s <= 1024 else 10 if s <= 2048 else 5
            c = Check(f"time {stem}", "time", f"{s}x{s}x{s}", [str(s)] * 3, origin=source,
                      warmup=2, iters=iters)
            out.append(c)
    out.append(Check("tensorcore-vs-cublas", "tensorcore", origin="bench/tensorcore-vs-cublas.sh"))
    return out


def all_checks(args):
    checks, unchecked = derive_checks(args.tests)
    checks += timing_checks()
    if args.only:
        checks = [c for c in checks if re.search(args.only, c.name)]
    return checks, unchecked


# ----------------------------------------------------------------------------
# --build

def _cuda_home():
    home = os.environ.get("CUDA_HOME")
    if home:
        return Path(home)
    if Path("/usr/local/cuda").exists():
        return Path("/usr/local/cuda")
    nvcc = shutil.which("nvcc")
    return Path(nvcc).resolve().parent.parent if nvcc else Path("/usr/local/cuda")


def _slug(build):
    stem = Path(build.source).stem
    flags = "".join(re.sub(r"[^A-Za-z0-9_]", "", f.replace("-fplugin-arg-sched-", ""))
                    for f in build.flags if f not in ("-O2", "-std=c++17", "-std=c99"))
    digest = hashlib.sha1(repr(build.key()).encode()).hexdigest()[:6]
    return f"{stem}.{flags + '.' if flags else ''}{digest}"


def _link_flags(folder):
    """How every plugin-built binary links the runtime: the folder's shared
    libsched_runtime.so, found through an rpath relative to the binary (one
    copy of the runtime instead of one per binary: the folder must stay well
    under 64 MiB); libstdc++ stays dynamic (its static archive from GCC 12
    needs glibc 2.36's arc4random, newer than the C++ library needs)."""
    return ["-L" + str(folder / "lib"), "-lsched_runtime",
            "-Wl,-rpath,$ORIGIN/../lib", "-lm", "-ldl", "-lpthread", "-s"]


def _compile(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        return f"{' '.join(shlex.quote(c) for c in cmd)}\n{p.stderr.strip()}"
    return None


def build(args):
    build_dir = Path(os.environ.get("BUILD_DIR", ROOT / "build")).resolve()
    plugin = build_dir / "lib" / "SchedPlugin.so"
    archive = build_dir / "lib" / "libsched_runtime_impl.a"
    if not plugin.exists() or not archive.exists():
        print("error: build sched first (bash scripts/build.sh): no plugin or runtime in "
              f"{build_dir}",
              file=sys.stderr)
        return 1
    clangxx = shutil.which("clang++-19")
    clang = shutil.which("clang-19")
    if not clangxx or not clang:
        print("error: --build needs clang++-19 and clang-19 on PATH", file=sys.stderr)
        return 1
    folder = Path(args.build).resolve()
    for sub in ("bin", "lib", "tensorcore"):
        shutil.rmtree(folder / sub, ignore_errors=True)
        (folder / sub).mkdir(parents=True, exist_ok=True)
    checks, _ = all_checks(args)
    started = time.time()

    # The runtime, once, as a shared library beside the binaries.
    err = _compile([clangxx, "-shared", "-o", str(folder / "lib" / "libsched_runtime.so"),
                    "-Wl,--whole-archive", str(archive), "-Wl,--no-whole-archive",
                    "-ldl", "-lpthread", "-s"])
    if err:
        print(f"error: linking the shared runtime failed:\n{err}", file=sys.stderr)
        return 1
    link = _link_flags(folder)

    jobs = {}  # output -> command
    for c in checks:
        if c.kind != "e2e" or c.skip:
            continue
        plain, sched = c._builds
        c.ref = f"bin/{_slug(plain)}.ref"
        c.sched = f"bin/{_slug(sched)}.sched"
        if c.ref not in jobs:
            cc = clangxx if plain.lang == "c++" else clang
            jobs[c.ref] = [cc, *plain.flags, "-Wno-unknown-pragmas", str(ROOT / plain.source),
                           "-s", "-o", str(folder / c.ref)] + (["-lm"] if plain.lang == "c" else [])
        if c.sched not in jobs:
            if sched.lang == "c++":
                pre = [clangxx, "-std=c++17", "-fplugin=" + str(plugin)]
            else:
                pre = [clang, "-fplugin=" + str(plugin)]
            jobs[c.sched] = pre + [*sched.flags, str(ROOT / sched.source), *link,
                                   "-o", str(folder / c.sched)]

    cuda = _cuda_home()
    have_cublas = (cuda / "include" / "cublas_v2.h").exists() and \
        any((cuda / "lib64").glob("libcublas.so*"))
    cuda_link = ["-L" + str(cuda / "lib64"), "-lcublas", "-lcudart"]
    for c in checks:
        if c.kind != "time":
            continue
        if not have_cublas:
            c.skip = f"built without the CUDA toolkit (no cuBLAS under {cuda}; set CUDA_HOME)"
            continue
        source = c.origin
        c.sched = f"bin/time_{Path(source).stem}"
        if c.sched not in jobs:
            jobs[c.sched] = [clangxx, "-std=c++17", "-O2", "-fplugin=" + str(plugin),
                             "-DSCHED_BENCH_CUDA=1", "-I" + str(cuda / "include"),
                             "-I" + str(ROOT / "bench"),
                             f'-DEXAMPLE_FILE="{ROOT / source}"',
                             "-DEXAMPLE_GEMM=" + GEMM_EXAMPLES[source],
                             str(ROOT / "bench" / "gpu-check" / "time_example_gemm.cpp"),
                             *link, *cuda_link, "-o", str(folder / c.sched)]

    print(f"building {len(jobs)} binaries into {folder} ({args.jobs} jobs)", flush=True)
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        failures = [err for err in pool.map(_compile, jobs.values()) if err]
    if failures:
        for f in failures:
            print(f"error: {f}", file=sys.stderr)
        print(f"error: {len(failures)} of {len(jobs)} builds failed", file=sys.stderr)
        return 1

    for c in checks:
        if c.kind != "tensorcore":
            continue
        # Its binaries sit in DIR/tensorcore: the same rpath finds DIR/lib.
        env = dict(os.environ, SCHED_BENCH_OUT=str(folder / "tensorcore"), BUILD_DIR=str(build_dir),
                   CUDA_HOME=str(cuda), SCHED_BENCH_LINK=" ".join(link))
        p = subprocess.run(["bash", str(ROOT / "bench" / "tensorcore-vs-cublas.sh"), "--build-only",
                            "--no-sim-check", "--square=" + TENSORCORE_SQUARES],
                           env=env, capture_output=True, text=True)
        if p.returncode != 0:
            print("error: bench/tensorcore-vs-cublas.sh --build-only failed:\n"
                  f"{p.stdout}{p.stderr}",
                  file=sys.stderr)
            return 1
        c.sched = "tensorcore"
        if not have_cublas:
            c.skip = f"built without the CUDA toolkit (no cuBLAS under {cuda}; set CUDA_HOME)"

    manifest = {
        "built": time.strftime("%Y-%m-%d %H:%M:%S"),
        "source": str(ROOT),
        "requires": _requirements(folder),
        "checks": [asdict(c) for c in checks],
    }
    (folder / MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n")
    size = sum(f.stat().st_size for f in folder.rglob("*") if f.is_file())
    print(f"built {len(jobs)} binaries for {len(checks)} checks in {time.time() - started:.0f} s; "
          f"{folder}: {size / 2**20:.1f} MiB")
    print("needs on the GPU machine: " + ", ".join(manifest["requires"]))
    return 0


def _requirements(folder):
    """The newest GLIBC and GLIBCXX symbol versions any binary needs."""
    newest = {}
    for f in folder.rglob("*"):
        if not f.is_file() or not os.access(f, os.X_OK) or f.suffix in (".cpp", ".remarks"):
            continue
        p = subprocess.run(["objdump", "-T", str(f)], capture_output=True, text=True)
        for lib, ver in re.findall(r"\((GLIBCXX|GLIBC)_([0-9.]+)\)", p.stdout):
            v = tuple(int(x) for x in ver.split("."))
            newest[lib] = max(newest.get(lib, v), v)
    return [f"{lib} >= {'.'.join(map(str, v))}" for lib, v in sorted(newest.items())]


# ----------------------------------------------------------------------------
# --run

def no_gpu_reason():
    smi = shutil.which("nvidia-smi")
    if not smi:
        return "nvidia-smi not found on PATH"
    try:
        p = subprocess.run([smi, "-L"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError) as e:
        return f"nvidia-smi -L: {e}"
    gpus = [l for l in p.stdout.splitlines() if l.startswith("GPU ")]
    if p.returncode != 0 or not gpus:
        said = (p.stdout + p.stderr).strip().splitlines()
        return "nvidia-smi -L: " + (said[0] if said else
                                    f"exit status {p.returncode}, no GPU listed")
    return None


def _number(word):
    try:
        return float(word)
    except ValueError:
        try:
            return float.fromhex(word)
        except ValueError:
            return None


def compare_outputs_of(ref, got, backend):
    """("match" | "close" | "MISMATCH", note): byte for byte, else word by
    word with compare_outputs.py's tolerance (hexadecimal floats too)."""
    if ref == got:
        return "match", ""
    r, g = ref.split(), got.split()
    if len(r) != len(g):
        return "MISMATCH", f"{len(r)} words from the plain build, {len(g)} on {backend}"
    worst, nan_signs, numbers = 0.0, 0, 0
    for n, (a, b) in enumerate(zip(r, g)):
        if a == b:
            continue
        x, y = _number(a), _number(b)
        # IEEE 754 leaves the sign of the NaN an invalid operation makes (inf - inf,
        # 0 * inf) to the hardware: x86 gives -nan, NVIDIA GPUs nan.
        if x is not None and y is not None and math.isnan(x) and math.isnan(y):
            nan_signs += 1
            continue
        if x is None or y is None or not compare_outputs.close(
                x, y, compare_outputs.DEFAULT_RTOL, compare_outputs.DEFAULT_ATOL):
            return "MISMATCH", f"word {n}: plain {a}, {backend} {b}"
        numbers += 1
        worst = max(worst, abs(x - y) / max(abs(x), abs(y)))
    notes = [f"within tolerance (largest relative difference {worst:.1e})"] if numbers else []
    if nan_signs:
        notes.append(f"{nan_signs} NaN{'s' if nan_signs > 1 else ''} of the other sign "
                     "(IEEE 754 leaves it to the hardware)")
    return "close", "; ".join(notes)


def _run(cmd, env, timeout):
    """(exit status or None on a timeout, stdout, stderr), as text."""
    try:
        p = subprocess.run(cmd, env=env, capture_output=True, timeout=timeout)
        return (p.returncode, p.stdout.decode(errors="replace"),
                p.stderr.decode(errors="replace"))
    except subprocess.TimeoutExpired:
        return None, "", f"timed out after {timeout} s"
    except OSError as e:  # not executable here (another architecture, a missing file)
        return 126, "", str(e)


def _exit_note(rc, err):
    """Why a program failed: its status and its last message (not the
    runtime's `ran on` and `kernel time` lines)."""
    lines = [l for l in err.splitlines() if l.strip() and not re.search(INFORMATIONAL, l)]
    why = (lines or [""])[-1][:200]
    if rc is None:
        return why
    if rc < 0:
        try:
            status = f"killed by {signal.Signals(-rc).name}"
        except ValueError:
            status = f"killed by signal {-rc}"
    else:
        status = f"exit status {rc}"
    return f"{status}: {why}" if why else status


KERNEL_TIME = re.compile(r"^sched: .*: kernel time ([0-9.]+) ms on (\w+)$", re.M)
INFORMATIONAL = r"^sched: .*: (ran on |kernel time |ran the original loop on host)"


@dataclass
class Row:
    name: str
    size: str
    result: str
    ms: str = "-"
    gflops: str = "-"
    vs: str = "-"
    note: str = ""
    details: str = ""  # for --details: the command, its outputs and stderr


def _details(cmd, ref, got, err):
    """What --details keeps of a failed or mismatching run (clipped)."""
    clip = lambda text, n: text if len(text) <= n else text[:n] + f"\n... ({len(text) - n} more)"
    return (f"$ {' '.join(cmd)}\n--- plain build's output\n{clip(ref, 2000)}\n"
            f"--- its output\n{clip(got, 2000)}\n--- its stderr\n{clip(err, 6000)}\n")


def run_e2e(c, folder, env, backend):
    cmd = [str(folder / c.ref), *c.args]
    rc, ref, err = _run(cmd, env, 120)
    if rc != 0:
        return Row(c.name, c.size, "fail", note="plain build: " + _exit_note(rc, err),
                   details=_details(cmd, ref, "", err))
    cmd = [str(folder / c.sched), *c.args]
    rc, got, err = _run(cmd, env, 120)
    if rc != 0:
        return Row(c.name, c.size, "fail", note=_exit_note(rc, err),
                   details=_details(cmd, ref, got, err))
    failed = [l for l in err.splitlines() if l.endswith("ran the original loop instead")]
    times = [float(t) for t, b in KERNEL_TIME.findall(err) if b == backend]
    ran = err.count(f": ran on {backend}")
    host = err.count(": ran the original loop on host")
    notes = [f"{ran} kernel{'s' if ran != 1 else ''} on {backend}"]
    if host:
        notes.append(f"{host} original loop{'s' if host != 1 else ''} (the launcher's checks)")
    ms = f"{sum(times):.4f}" if times else "-"
    if failed:
        return Row(c.name, c.size, "fail", ms, note=failed[0][:200],
                   details=_details(cmd, ref, got, err))
    result, why = compare_outputs_of(ref, got, backend)
    if why:
        notes.append(why)
    if result == "close" and c.compare == "exact":
        notes.append("its e2e test compares exactly")
    if result == "MISMATCH" and c.caveat:
        notes.append(c.caveat)
    return Row(c.name, c.size, result, ms, note="; ".join(notes),
               details=_details(cmd, ref, got, err) if result == "MISMATCH" else "")


def run_time(c, folder, env):
    m, n, k = (int(x) for x in c.args)
    cmd = [str(folder / c.sched), *c.args, str(c.warmup), str(c.iters)]
    rc, out, err = _run(cmd, env, 240)
    if rc == 77:
        return Row(c.name, c.size, "skip", note=out.strip())
    if rc != 0:
        return Row(c.name, c.size, "fail", note=_exit_note(rc, err),
                   details=_details(cmd, "", out, err))
    times = [float(t) for t, b in KERNEL_TIME.findall(err) if b == "cuda"]
    if len(times) != c.warmup + c.iters:
        return Row(c.name, c.size, "fail",
                   note=f"{len(times)} kernel times for {c.warmup + c.iters} calls "
                        f"(SCHED_TIME=1 under cuda): {_exit_note(0, err)}")
    ours = statistics.median(times[c.warmup:])
    if ours <= 0:
        return Row(c.name, c.size, "fail", note=f"a kernel time of {ours} ms")
    said = out.split()
    if len(said) < 4 or said[0] != "cublas":
        return Row(c.name, c.size, "fail", f"{ours:.4f}", note="unreadable: " + " ".join(said))
    if not said[1].replace(".", "").isdigit():
        return Row(c.name, c.size, "fail", f"{ours:.4f}", note=f"cuBLAS {said[1]}")
    theirs, diff = float(said[1]), said[3]
    gflops = 2.0 * m * n * k / (ours * 1e-3) / 1e9
    result = "match" if _number(diff) == 0 else "MISMATCH"
    return Row(c.name, c.size, result, f"{ours:.4f}", f"{gflops:.0f}", f"{theirs / ours:.2f}x",
               f"cublasSgemm {theirs:.4f} ms; max |ours - cuBLAS| {diff}; median of {c.iters}")


def run_tensorcore(c, folder, env, timeout):
    cmd = ["bash", str(ROOT / "bench" / "tensorcore-vs-cublas.sh"),
           "--run-only=" + str(folder / c.sched), "--iters=20"]
    try:
        p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return [Row("tensorcore", "-", "fail", note=f"timed out after {timeout:.0f} s")]
    rows = []
    for line in p.stdout.splitlines():
        if line.startswith("skip:"):
            rows.append(Row("tensorcore", "-", "skip", note=line[len("skip:"):].strip()))
            continue
        w = line.split()
        if len(w) != 7 or w[0] == "kernel" or not re.match(r"^\d+x\d+x\d+$", w[2]):
            continue
        variant, typ, shape, ours_us, theirs_us, ratio, diff = w
        m, n, k = (int(x) for x in shape.split("x"))
        ours_ms = float(ours_us) / 1000
        gflops = 2.0 * m * n * k / (ours_ms * 1e-3) / 1e9 if ours_ms > 0 else 0.0
        name = f"tensorcore {variant} {typ}"
        if theirs_us.startswith("cublas-status"):
            rows.append(Row(name, shape, "fail", f"{ours_ms:.4f}", f"{gflops:.0f}",
                            note=theirs_us))
            continue
        rows.append(Row(name, shape, "match" if _number(diff) == 0 else "MISMATCH",
                        f"{ours_ms:.4f}", f"{gflops:.0f}", ratio,
                        f"cublasGemmEx {float(theirs_us) / 1000:.4f} ms; max diff {diff}; "
                        "host-timed per call"))
    # Its exit status is 1 after a MISMATCH row too: a fail row only for
    # what no row says.
    if not rows or (p.returncode != 0 and not any(r.result == "MISMATCH" for r in rows)):
        rows.append(Row("tensorcore", "-", "fail",
                        note=_exit_note(p.returncode, p.stderr or p.stdout)))
    return rows


def _run_env(backend):
    env = dict(os.environ, SCHED_BACKEND=backend, SCHED_VERBOSE="1", SCHED_TIME="1")
    cuda = _cuda_home()
    if cuda.exists():
        # NVRTC (dlopen'ed by the runtime) and cuBLAS (the timers) from the
        # toolkit; NVRTC's headers from <SCHED_CUDA_HOME>/include.
        libs = [str(cuda / "lib64"), str(cuda / "targets" / "x86_64-linux" / "lib")]
        old = env.get("LD_LIBRARY_PATH")
        env["LD_LIBRARY_PATH"] = ":".join(libs + ([old] if old else []))
        env["SCHED_CUDA_HOME"] = str(cuda)
    return env, cuda


def _preflight(folder, checks, env):
    """An error when the binaries cannot start here (glibc or libstdc++ too
    old), before a table of failures says it 200 times."""
    c = next((c for c in checks if c.kind == "e2e" and not c.skip), None)
    if not c:
        return None
    rc, _, err = _run([str(folder / c.sched), *c.args], dict(env, SCHED_BACKEND="host"), 60)
    if rc != 0:
        return f"{c.sched} does not run here (under SCHED_BACKEND=host): {_exit_note(rc, err)}"
    return None


def run(args):
    backend = args.backend
    if backend == "cuda":
        reason = no_gpu_reason()
        if reason:
            print(f"skip: no GPU ({reason})")
            return 0
    folder = Path(args.run).resolve()
    if not (folder / MANIFEST).exists():
        print(f"error: no {MANIFEST} in {folder}: run bench/gpu-check.sh --build {args.run} "
              "on a machine with clang++-19 first", file=sys.stderr)
        return 1
    manifest = json.loads((folder / MANIFEST).read_text())
    checks = [Check(**c) for c in manifest["checks"]]
    if args.only:
        checks = [c for c in checks if re.search(args.only, c.name)]
    env, cuda = _run_env(backend)
    problem = _preflight(folder, checks, env)
    if problem:
        print(f"error: {problem}\nthe binaries need {', '.join(manifest['requires'])}",
              file=sys.stderr)
        return 1
    started = time.time()
    deadline = started + args.budget
    device = ""
    if backend == "cuda":
        smi = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True)
        device = smi.stdout.splitlines()[0] if smi.stdout else ""
    print(f"gpu-check: backend {backend}{'; ' + device if device else ''}; CUDA toolkit "
          f"{cuda if cuda.exists() else 'not found (set CUDA_HOME)'}; built {manifest['built']}",
          flush=True)

    def skipped(c, why):
        return Row(c.name, c.size, "skip", note=why)

    rows = [None] * len(checks)

    def one_e2e(i):
        c = checks[i]
        if c.skip:
            return skipped(c, c.skip)
        if time.time() > deadline:
            return skipped(c, f"out of time (--budget {args.budget} s)")
        return run_e2e(c, folder, env, backend)

    e2e = [i for i, c in enumerate(checks) if c.kind == "e2e"]
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for i, row in zip(e2e, pool.map(one_e2e, e2e)):
            rows[i] = row
    # Timing: one at a time, alone on the device.
    extra = []
    for i, c in enumerate(checks):
        if c.kind == "e2e":
            continue
        if backend != "cuda":
            rows[i] = skipped(c, f"timing needs SCHED_BACKEND=cuda (this run: {backend})")
        elif c.skip:
            rows[i] = skipped(c, c.skip)
        elif time.time() > deadline:
            rows[i] = skipped(c, f"out of time (--budget {args.budget} s)")
        elif c.kind == "time":
            rows[i] = run_time(c, folder, env)
        else:
            extra = run_tensorcore(c, folder, env, max(deadline - time.time(), 30))
    rows = [r for r in rows if r and not (r.name == "tensorcore-vs-cublas" and extra)] + extra
    if backend == "cuda" and time.time() < deadline:
        rows += run_scope(checks, folder, env)
    print_table(rows)
    bad = [r for r in rows if r.result in ("MISMATCH", "fail")]
    if args.details:
        Path(args.details).write_text("".join(f"=== {r.name} {r.size}: {r.result}: {r.note}\n"
                                              f"{r.details}\n" for r in bad))
    counts = {k: sum(r.result == k for r in rows) for k in ("match", "close", "MISMATCH", "fail",
                                                            "skip")}
    print(f"{len(rows)} checks: " + ", ".join(f"{v} {k}" for k, v in counts.items()) +
          f"; {time.time() - started:.0f} s")
    return 1 if bad else 0


SCOPE_ARGS = ["16777216", "10"]


def run_scope(checks, folder, env):
    """The stencil without and with a data scope (their e2e checks' binaries)
    at SCOPE_ARGS: wall times, median of 3, and whether they agree."""
    stencils = [c for c in checks if c.kind == "e2e" and c.name.startswith("stencil_steps")
                and c.size == "default"]
    each = next((c for c in stencils if "-DSCOPE=1" not in c.name), None)
    scoped = next((c for c in stencils if "-DSCOPE=1" in c.name), None)
    if not each or not scoped:
        return []
    name, size = "time stencil_steps data scope", " x ".join(SCOPE_ARGS) + " steps"
    outs, walls = [], []
    for c in (each, scoped):
        times = []
        for _ in range(3):
            start = time.time()
            rc, out, err = _run([str(folder / c.sched), *SCOPE_ARGS], env, 120)
            times.append((time.time() - start) * 1000)
            if rc != 0:
                return [Row(name, size, "fail", note=_exit_note(rc, err))]
        outs.append(out)
        walls.append(statistics.median(times))
    result = "match" if outs[0] == outs[1] else "MISMATCH"
    return [Row(name, size, result, f"{walls[1]:.1f}",
                note=f"program wall time with a data scope; {walls[0]:.1f} ms without "
                     f"({walls[0] / walls[1]:.2f}x)")]


def print_table(rows):
    heads = ("check", "size", "result", "ms", "GFLOP/s", "vs cuBLAS", "note")
    cells = [heads] + [(r.name, r.size, r.result, r.ms, r.gflops, r.vs, r.note) for r in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(heads) - 1)]
    for row in cells:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths)) + "  " + row[-1])


# ----------------------------------------------------------------------------

def list_checks(args):
    checks, unchecked = all_checks(args)
    for c in checks:
        how = {"exact": "byte for byte", "tolerance": "within tolerance"}.get(c.compare, "")
        extra = f"; skip: {c.skip}" if c.skip else f"; {c.caveat}" if c.caveat else ""
        print(f"{c.kind:10} {c.name:44} {c.size:16} {how if c.kind == 'e2e' else '':16} "
              f"from {c.origin}{extra}")
    for test, why in unchecked:
        print(f"not checked: {test}: {why}")
    print(f"{len(checks)} checks")
    return 0


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    mode = p.add_mutually_exclusive_group(required=True)
    mode.add_argument("--build", metavar="DIR", help="build every binary of the check into DIR")
    mode.add_argument("--run", metavar="DIR", help="run the check from DIR and print the table")
    mode.add_argument("--list", action="store_true", help="print the checks; build nothing")
    p.add_argument("--only", metavar="REGEX", help="only the checks whose name matches")
    p.add_argument("--tests", default=str(ROOT / "test" / "e2e"),
                   help="the end-to-end tests to derive the checks from (default test/e2e)")
    p.add_argument("--backend", default="cuda", choices=("cuda", "sim", "emu", "host"),
                   help="--run: SCHED_BACKEND of the plugin builds (default cuda; sim, emu and"
                        " host test the harness without a GPU: no GPU probe, no timing)")
    p.add_argument("--jobs", type=int, default=None,
                   help="parallel builds (default 2) or e2e runs (default min(8, CPUs))")
    p.add_argument("--details", metavar="FILE",
                   help="--run: write each failing or mismatching check's command, outputs and"
                        " stderr to FILE")
    p.add_argument("--budget", type=float, default=420,
                   help="--run: seconds after which the remaining checks are skipped (default 420)")
    args = p.parse_args()
    if args.list:
        return list_checks(args)
    if args.build:
        args.jobs = args.jobs or 2
        return build(args)
    args.jobs = args.jobs or min(8, os.cpu_count() or 1)
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
