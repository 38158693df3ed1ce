#!/usr/bin/env python3
"""Static report of GPU kernels: registers and spills from `ptxas -v`, and
what the hot loop of the PTX spends per FMA/MMA. No GPU needed, only nvcc.
The one PTX analysis of bench/: bench/codegen-report.sh and
bench/tensorcore-static-report.py are entry points to it.

Usage:
  python3 bench/codegen_report.py [--arch=ARCH ...] [--build=DIR] [SOURCE ...]
  python3 bench/codegen_report.py --ptx FILE.ptx ...   (the PTX analysis only)

A SOURCE ending in .cu is compiled as it is (a hand-written kernel, e.g.
bench/reference/*.cu); any other is compiled by clang++-19 with the plugin's
emit-dir and each .cu it emits for a GPU nest is reported. Without SOURCE:
every example in examples/ (those with no GPU nest emit nothing) and every
bench/reference/*.cu. Each .cu is compiled by `nvcc -arch=ARCH -ptx`, the PTX
by `ptxas -arch=ARCH -v` (registers, spill stores and loads in bytes), one
table per ARCH (default: sm_80 and sm_90). A reference whose text says
`mirrors: examples/X.cpp` is listed right after the kernels of that example
(after all other rows when that example is not reported, e.g. not written
yet).

The hot loop. Loops are the backward branches of the PTX (branches to one
label are one loop, up to the last of them). The candidates are the
innermost loops that do arithmetic: those holding FMA/MMA instructions and
no other loop that holds some (a shared-memory fill loop nested in the k
loop is deeper but is not where the arithmetic is; when the compiler
unrolls everything inside the k-tile loop, that loop, with its fetch and
barriers, is the hot loop); where some of them hold tensor-core (mma)
instructions, only those (a tensor-core kernel whose edge blocks run an
ordinary copy reports its tensor-core loop). Of those the one with the most FMA/MMA
instructions is the hot loop (a kernel split into a full-tile path and a
guarded remainder reports the loop doing the most work per iteration),
ties going to the one with fewer instructions (the full-tile twin of a
guarded copy), then the first. A kernel whose loops hold no FMA/MMA reports
its innermost loop, a kernel without loops the whole kernel.

Per hot loop: its instructions, FMA/MMA instructions (fma.*, mma.*,
wmma.mma*) and their share, instructions per FMA/MMA, shared-memory loads
(ld.shared*, ldmatrix*, wmma.load* from .shared) per FMA/MMA and their widths
(ld.shared by bits per thread, e.g. 128b:32 for 32 ld.shared.v4.f32;
ldmatrix and wmma.load by name), and global loads (ld.global*, cp.async
copies, wmma.load* from .global) per FMA/MMA; for tensor-core kernels,
ldmatrix* and cp.async copies per tensor-core instruction (mma.*,
wmma.mma*; three decimals; "-" when the hot loop has none).

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
DEFAULT_ARCHS = ["sm_80", "sm_90"]
LABEL = re.compile(r"^([$\w]+):$")
BRANCH = re.compile(r"^(?:@!?%\w+\s+)?bra(?:\.uni)?\s+([$\w]+)\s*;$")
ENTRY = re.compile(r"\.entry\s+([$\w]+)")
MIRRORS = re.compile(r"mirrors:\s*(\S+)")
TYPE_BITS = re.compile(r"\.[bfsu](8|16|32|64)\b")


def opcode_of(instr):
    return re.sub(r"^@!?%\w+\s+", "", instr).split()[0].rstrip(";")


def is_mma(opcode):
    """A tensor-core instruction."""
    return opcode.startswith(("mma.", "wmma.mma", "wgmma.mma_async"))


def is_fma_or_mma(opcode):
    return opcode.startswith("fma.") or is_mma(opcode)


def shared_load_kind(opcode):
    """How a shared-memory load shows in the widths column ("128b" for an
    ld.shared of 128 bits per thread), or None for any other instruction."""
    if re.match(r"ld\.shared\b", opcode):
        bits = TYPE_BITS.search(opcode)
        vec = re.search(r"\.v(2|4|8)\b", opcode)
        width = (int(bits.group(1)) if bits else 32) * (int(vec.group(1)) if vec else 1)
        return "%db" % width
    if opcode.startswith("ldmatrix"):
        return "ldmatrix"
    if opcode.startswith("wmma.load") and ".shared" in opcode:
        return "wmma.load"
    return None


def is_cp_async_copy(opcode):
    return opcode.startswith("cp.async") and not re.search(r"commit|wait|fence", opcode)


def is_global_load(opcode):
    if re.match(r"ld\.global\b", opcode):
        return True
    if opcode.startswith("wmma.load") and ".global" in opcode:
        return True
    return is_cp_async_copy(opcode)


def entries(ptx_text):
    """[(name, instructions in order, label -> index of the instruction that
    follows it)] for each .entry of the PTX."""
    result, instrs, labels, name = [], None, None, None
    depth = 0
    for raw in ptx_text.splitlines():
        line = raw.split("//")[0].strip()
        m = ENTRY.search(line)
        if m:
            name, instrs, labels, depth = m.group(1), [], {}, 0
            continue
        if instrs is None or not line:
            continue
        # Braces: the body's, and scopes inside it (`{ .reg ...; }`).
        if line == "{":
            depth += 1
            continue
        if line == "}":
            depth -= 1
            if depth == 0:
                result.append((name, instrs, labels))
                instrs = None
            continue
        if depth == 0 or line.startswith("."):
            continue
        m = LABEL.match(line)
        if m:
            labels[m.group(1)] = len(instrs)
        elif line.endswith(";"):
            instrs.append(line)
    return result


def fma_count(instrs):
    return sum(1 for ins in instrs if is_fma_or_mma(opcode_of(ins)))


def loops_of(instrs, labels):
    """[(first, last)] instruction indices of each loop: a label some later
    branch jumps back to, up to the last such branch."""
    ends = {}
    for i, instr in enumerate(instrs):
        m = BRANCH.match(instr)
        if m and m.group(1) in labels and labels[m.group(1)] <= i:
            start = labels[m.group(1)]
            ends[start] = max(ends.get(start, i), i)
    return sorted(ends.items())


def hottest_loop(instrs, labels):
    """(first, last) of the hot loop (see the module's docstring); None
    without a loop."""
    loops = loops_of(instrs, labels)
    if not loops:
        return None

    def inside(inner, outer):
        return inner != outer and outer[0] <= inner[0] and inner[1] <= outer[1]

    def fmas(loop):
        return fma_count(instrs[loop[0]:loop[1] + 1])

    arithmetic = [l for l in loops if fmas(l) > 0]
    if not arithmetic:
        def depth(loop):
            return sum(1 for o in loops if inside(loop, o))
        return max(loops, key=lambda l: (depth(l), l[1] - l[0]))
    innermost = [l for l in arithmetic if not any(inside(o, l) for o in arithmetic)]

    def mmas(loop):
        return sum(1 for ins in instrs[loop[0]:loop[1] + 1] if is_mma(opcode_of(ins)))

    # A kernel with tensor-core loops reports one of them (a tensor-core
    # kernel's ordinary-kernel copy for edge blocks may hold more FMAs).
    if any(mmas(l) for l in innermost):
        innermost = [l for l in innermost if mmas(l)]
    return min(innermost, key=lambda l: (-fmas(l), l[1] - l[0], l[0]))


def analyze_body(name, instrs, labels):
    loop = hottest_loop(instrs, labels)
    body = instrs if loop is None else instrs[loop[0]:loop[1] + 1]
    opcodes = [opcode_of(i) for i in body]
    widths = {}
    for op in opcodes:
        kind = shared_load_kind(op)
        if kind:
            widths[kind] = widths.get(kind, 0) + 1
    return {"kernel": name, "loop": "none (whole kernel)" if loop is None else "%d..%d" % loop,
            "instrs": len(body), "fma": sum(1 for op in opcodes if is_fma_or_mma(op)),
            "shared": sum(widths.values()), "widths": widths,
            "global": sum(1 for op in opcodes if is_global_load(op)),
            "mma": sum(1 for op in opcodes if is_mma(op)),
            "ldmatrix": widths.get("ldmatrix", 0),
            "cp.async": sum(1 for op in opcodes if is_cp_async_copy(op))}


def analyze_ptx(ptx_text):
    """One row per kernel (.entry) of the PTX."""
    return [analyze_body(*e) for e in entries(ptx_text)]


def ptxas_usage(text):
    """Kernel -> (registers, (spill store bytes, spill load bytes)) from
    `ptxas -v`."""
    usage = {}
    for part in re.split(r"Compiling entry function '", text)[1:]:
        name = part.split("'")[0]
        regs = re.search(r"Used (\d+) registers", part)
        spills = re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads", part)
        usage[name] = (int(regs.group(1)) if regs else None,
                       (int(spills.group(1)), int(spills.group(2))) if spills else None)
    return usage


def width_order(kind):
    m = re.match(r"(\d+)b$", kind)
    return (0, int(m.group(1))) if m else (1, kind)


def per_fma(count, row, of="fma", digits=2):
    return "%.*f" % (digits, float(count) / row[of]) if row[of] else "-"


HEADER = ("source", "kernel", "regs", "spill st/ld B", "hot loop", "instrs",
          "fma/mma", "share", "instrs/fma", "shared ld/fma", "shared widths", "global ld/fma",
          "ldmatrix/mma", "cp.async/mma")


def print_table(rows, arch):
    table = [HEADER]
    for r in rows:
        regs = r.get("regs")
        spills = r.get("spills")
        widths = " ".join("%s:%d" % (k, r["widths"][k])
                          for k in sorted(r["widths"], key=width_order)) or "-"
        table.append((
            r.get("source", "-"), r["kernel"], "-" if regs is None else str(regs),
            "-" if spills is None else "%d/%d" % spills, r["loop"], str(r["instrs"]),
            str(r["fma"]), "%.2f" % (float(r["fma"]) / r["instrs"]) if r["instrs"] else "-",
            per_fma(r["instrs"], r), per_fma(r["shared"], r), widths, per_fma(r["global"], r),
            per_fma(r["ldmatrix"], r, "mma", 3), per_fma(r["cp.async"], r, "mma", 3)))
    widths = [max(len(row[c]) for row in table) for c in range(len(HEADER))]
    if arch:
        print("architecture: %s" % arch)
    for row in table:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip())


def find_nvcc():
    found = shutil.which("nvcc")
    if found:
        return found
    home = os.environ.get("CUDA_HOME", "/usr/local/cuda")
    candidate = os.path.join(home, "bin", "nvcc")
    return candidate if os.access(candidate, os.X_OK) else None


def read(path):
    with open(path) as f:
        return f.read()


def run(cmd):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def relative(path):
    path = os.path.abspath(path)
    return os.path.relpath(path, ROOT) if path.startswith(ROOT + os.sep) else path


def default_sources():
    examples = os.path.join(ROOT, "examples")
    refs = os.path.join(ROOT, "bench", "reference")
    return ([os.path.join(examples, f) for f in sorted(os.listdir(examples))
             if f.endswith((".cpp", ".c"))] +
            [os.path.join(refs, f) for f in sorted(os.listdir(refs)) if f.endswith(".cu")])


def order_rows(rows):
    """Each reference's rows right after the rows of the example it mirrors
    (`mirrors:`; at the end when that example has no rows), the others in
    the order given."""
    placed = [r for r in rows if not r.get("mirrors")]
    sources = set(r["source"] for r in placed)
    for ref in [r for r in rows if r.get("mirrors")]:
        if ref["mirrors"] not in sources:
            placed.append(ref)
            continue
        last = max(i for i, r in enumerate(placed) if r["source"] == ref["mirrors"])
        placed.insert(last + 1, ref)
    return placed


def report(sources, arch, build, nvcc, tmp):
    """The rows for one architecture, or an error message."""
    ptxas = os.path.join(os.path.dirname(nvcc), "ptxas")
    if not os.access(ptxas, os.X_OK):
        ptxas = shutil.which("ptxas") or ptxas
    plugin = os.path.join(build, "lib", "SchedPlugin.so")
    rows = []
    for n, src in enumerate(sources):
        if src.endswith(".cu"):
            kernels = [src]
            mirrors = MIRRORS.search(read(src))
            mirrors = mirrors.group(1) if mirrors else None
        else:
            if not os.path.exists(plugin):
                return "no plugin at %s: build the project first" % plugin
            emit = os.path.join(tmp, "%s-%d" % (arch, n))
            # -I: the benchmarks tensorcore-vs-cublas.sh instantiates include
            # their driver from there.
            r = run(["clang++-19", "-std=c++17", "-fsyntax-only", "-fplugin=" + plugin,
                     "-I" + os.path.join(ROOT, "bench", "tensorcore"),
                     "-fplugin-arg-sched-arch=" + arch, "-fplugin-arg-sched-emit-dir=" + emit,
                     src])
            if r.returncode != 0:
                return "%s does not compile with the plugin:\n%s" % (src, r.stderr)
            kernels = ([os.path.join(emit, f) for f in sorted(os.listdir(emit)) if f.endswith(".cu")]
                       if os.path.isdir(emit) else [])
            mirrors = None
        for cu in kernels:
            ptx = os.path.join(tmp, "%s-%d-%s.ptx" % (arch, n, os.path.basename(cu)))
            compiled = run([nvcc, "-arch=" + arch, "-ptx", cu, "-o", ptx])
            if compiled.returncode != 0:
                return "nvcc -arch=%s -ptx %s failed:\n%s" % (arch, cu, compiled.stderr)
            assembled = run([ptxas, "-arch=" + arch, "-v", ptx, "-o", os.devnull])
            if assembled.returncode != 0:
                return "ptxas -arch=%s %s failed:\n%s" % (arch, ptx, assembled.stderr)
            usage = ptxas_usage(assembled.stdout + assembled.stderr)
            for row in analyze_ptx(read(ptx)):
                row["regs"], row["spills"] = usage.get(row["kernel"], (None, None))
                row["source"] = relative(src)
                row["mirrors"] = mirrors
                rows.append(row)
    return order_rows(rows)


def main(argv, default=None, default_archs=None):
    """`default`: the sources without SOURCE arguments (default_sources());
    `default_archs`: the architectures without --arch (DEFAULT_ARCHS)."""
    archs, build, sources, ptx_files = [], os.path.join(ROOT, "build"), [], []
    args = iter(argv)
    for a in args:
        if a.startswith("--arch="):
            archs.append(a[len("--arch="):])
        elif a.startswith("--build="):
            build = a[len("--build="):]
        elif a in ("--build", "--arch", "--ptx"):
            value = next(args, None)
            if value is None:
                print(__doc__, file=sys.stderr)
                return 2
            if a == "--build":
                build = value
            elif a == "--arch":
                archs.append(value)
            else:
                ptx_files.append(value)
        elif a.startswith("-"):
            print(__doc__, file=sys.stderr)
            return 2
        else:
            sources.append(a)
    if ptx_files:
        rows = []
        for p in ptx_files:
            for row in analyze_ptx(read(p)):
                row["source"] = os.path.basename(p)
                rows.append(row)
        print_table(rows, None)
        return 0

    nvcc = find_nvcc()
    if not nvcc:
        print("skip: nvcc not found (not on PATH, nor under $CUDA_HOME/bin); "
              "the static report needs it to run ptxas")
        return 0
    sources = [os.path.abspath(s) for s in sources] or (default or default_sources())
    for i, arch in enumerate(archs or default_archs or DEFAULT_ARCHS):
        with tempfile.TemporaryDirectory() as tmp:
            rows = report(sources, arch, build, nvcc, tmp)
        if isinstance(rows, str):
            print("error: " + rows, file=sys.stderr)
            return 1
        if i:
            print()
        print_table(rows, arch)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
