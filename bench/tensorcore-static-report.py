#!/usr/bin/env python3
"""Static report of the kernels the plugin emits: registers and spills from
`ptxas -v`, and the share of FMA/MMA instructions in the hottest loop of
the PTX. No GPU needed, only nvcc.

Usage:
  python3 bench/tensorcore-static-report.py [--arch=sm_80] [--build=DIR] [SOURCE.cpp ...]
  python3 bench/tensorcore-static-report.py --ptx FILE.ptx ...   (the PTX analysis only)

Each SOURCE (default: examples/wmma_gemm.cpp and examples/matmul.cpp) is
compiled with the plugin's emit-dir; every emitted .cu is then compiled by
`nvcc -arch=ARCH -cubin -Xptxas -v` (registers, spill stores and loads) and
`nvcc -arch=ARCH -ptx`. The hottest loop is the innermost one (the loop,
found as a backward branch in the PTX) that holds FMA/MMA instructions
and is nested in the most others (ties: more of them, then the longest; a
kernel whose loops hold none reports its innermost loop); a kernel without
a loop (fully unrolled) is reported whole. FMA/MMA instructions are fma.*, mma.* and wmma.mma*; their share
is of all instructions of that loop body.

Without nvcc (on PATH or under $CUDA_HOME/bin) the report is skipped with
the reason and the exit status is 0.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_SOURCES = [os.path.join(ROOT, "examples", "wmma_gemm.cpp"),
                   os.path.join(ROOT, "examples", "matmul.cpp")]
LABEL = re.compile(r"^([$\w]+):$")
BRANCH = re.compile(r"^(?:@!?%\w+\s+)?bra(?:\.uni)?\s+([$\w]+)\s*;$")
ENTRY = re.compile(r"\.entry\s+([$\w]+)")


def is_fma_or_mma(opcode):
    return opcode.startswith(("fma.", "mma.", "wmma.mma"))


def opcode_of(instr):
    return re.sub(r"^@!?%\w+\s+", "", instr).split()[0].rstrip(";")


def instructions(ptx_text):
    """The entry's name, its instructions in order, and label -> the index
    of the instruction that follows it."""
    name, instrs, labels = "?", [], {}
    in_body = False
    for raw in ptx_text.splitlines():
        line = raw.split("//")[0].strip()
        m = ENTRY.search(line)
        if m:
            name = m.group(1)
            in_body = False
            continue
        if not line:
            continue
        if line == "{" and not in_body:
            in_body = True
            continue
        if not in_body or line in ("{", "}") or line.startswith("."):
            continue
        m = LABEL.match(line)
        if m:
            labels[m.group(1)] = len(instrs)
        elif line.endswith(";"):
            instrs.append(line)
    return name, instrs, labels


def fma_count(instrs):
    return sum(1 for ins in instrs if is_fma_or_mma(opcode_of(ins)))


def hottest_loop(instrs, labels):
    """(first, last) instruction indices of the hottest loop: the innermost
    loop that does arithmetic (a shared-memory fill loop nested in the k loop
    is deeper, but the MMAs sit in the k loop); None without a loop."""
    loops = []
    for i, instr in enumerate(instrs):
        m = BRANCH.match(instr)
        if m and m.group(1) in labels and labels[m.group(1)] <= i:
            loops.append((labels[m.group(1)], i))
    if not loops:
        return None

    def depth(loop):
        return sum(1 for o in loops if o != loop and o[0] <= loop[0] and loop[1] <= o[1])

    def fmas(loop):
        return fma_count(instrs[loop[0]:loop[1] + 1])

    candidates = [l for l in loops if fmas(l) > 0] or loops
    return max(candidates, key=lambda l: (depth(l), fmas(l), l[1] - l[0]))


def analyze_ptx(ptx_text):
    name, instrs, labels = instructions(ptx_text)
    loop = hottest_loop(instrs, labels)
    body = instrs if loop is None else instrs[loop[0]:loop[1] + 1]
    fma = fma_count(body)
    return {"kernel": name, "loop": "none (whole kernel)" if loop is None else
            "%d..%d" % loop, "instrs": len(body), "fma": fma,
            "share": 100.0 * fma / len(body) if body else 0.0}


def find_nvcc():
    found = shutil.which("nvcc")
    if found:
        return found
    home = os.environ.get("CUDA_HOME", "/usr/local/cuda")
    candidate = os.path.join(home, "bin", "nvcc")
    return candidate if os.access(candidate, os.X_OK) else None


def ptxas_usage(stderr):
    regs = re.search(r"Used (\d+) registers", stderr)
    spills = re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads", stderr)
    return (int(regs.group(1)) if regs else None,
            (int(spills.group(1)), int(spills.group(2))) if spills else None)


def run(cmd):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def print_table(rows, arch):
    header = ("kernel", "regs", "spill st/ld B", "hot loop (PTX instrs)", "instrs",
              "fma/mma", "share")
    table = [header] + [(
        r["kernel"], str(r.get("regs", "-")), r.get("spills", "-"), r["loop"],
        str(r["instrs"]), str(r["fma"]), "%.1f%%" % r["share"]) for r in rows]
    widths = [max(len(row[c]) for row in table) for c in range(len(header))]
    if arch:
        print("architecture: %s" % arch)
    for row in table:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip())


def main(argv):
    arch, build, sources, ptx_files = "sm_80", os.path.join(ROOT, "build"), [], []
    args = iter(argv)
    for a in args:
        if a.startswith("--arch="):
            arch = a[len("--arch="):]
        elif a.startswith("--build="):
            build = a[len("--build="):]
        elif a == "--ptx":
            ptx_files.append(next(args))
        elif a.startswith("-"):
            print(__doc__, file=sys.stderr)
            return 2
        else:
            sources.append(a)
    if ptx_files:
        print_table([analyze_ptx(open(p).read()) for p in ptx_files], None)
        return 0

    nvcc = find_nvcc()
    if not nvcc:
        print("skip: nvcc not found (not on PATH, nor under $CUDA_HOME/bin); "
              "the static report needs it to run ptxas")
        return 0
    plugin = os.path.join(build, "lib", "SchedPlugin.so")
    if not os.path.exists(plugin):
        print("error: no plugin at %s: build the project first" % plugin, file=sys.stderr)
        return 1
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        emit = os.path.join(tmp, "emit")
        for src in sources or DEFAULT_SOURCES:
            # -I: the benchmarks tensorcore-vs-cublas.sh instantiates include
            # their driver from there.
            r = run(["clang++-19", "-std=c++17", "-fsyntax-only", "-fplugin=" + plugin,
                     "-I" + os.path.join(ROOT, "bench", "tensorcore"),
                     "-fplugin-arg-sched-arch=" + arch, "-fplugin-arg-sched-emit-dir=" + emit,
                     src])
            if r.returncode != 0:
                sys.stderr.write(r.stderr)
                return 1
        for cu in sorted(f for f in os.listdir(emit) if f.endswith(".cu")):
            path = os.path.join(emit, cu)
            cubin = run([nvcc, "-arch=" + arch, "-cubin", "-Xptxas", "-v", path,
                         "-o", path + ".cubin"])
            ptx = run([nvcc, "-arch=" + arch, "-ptx", path, "-o", path + ".ptx"])
            if cubin.returncode != 0 or ptx.returncode != 0:
                sys.stderr.write(cubin.stderr + ptx.stderr)
                return 1
            row = analyze_ptx(open(path + ".ptx").read())
            regs, spills = ptxas_usage(cubin.stderr + cubin.stdout)
            row["regs"] = "-" if regs is None else regs
            row["spills"] = "-" if spills is None else "%d/%d" % spills
            rows.append(row)
    print_table(rows, arch)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
