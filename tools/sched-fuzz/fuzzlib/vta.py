"""The VTA family (`--family vta`): random int8 GEMMs and ALU vector ops on
target(vta), each with a random schedule drawn from the legal forms of
docs/tutorials/vta.md.

A case is a spec (a dict of choices, all drawn from random.Random(seed) in
its own seed space: seed N of the GPU families is unaffected) from which the
nest, its schedule and its driver are written:

- gemm: C = int8(epilogue(init + sum_k A*W)), M 1..8, N 16..64 and K
  16..128 (multiples of 16), int8 data over the whole range; init 0 (a GEMM
  reset), an int32 bias per output column `Bias[j]` (an ACC LOAD broadcast
  over the rows) or the output itself `C[..]` (C += ..., an ACC_8BIT
  LOAD). Layout `2d` (A[i*K+k], W[j*K+k] row-major [N][K], repacked by the
  launcher when K > 16, or k-major W[k*N+j] [K][N], the stage stored
  transposed and the tiles packed transposed; C[i*N+j]) with the batch
  loop absent (tensorize over {ji, ki}),
  split off (split(i, io, ii, 1), ii at a random place in the region) or
  present (M = 1, the region {i, ji, ki}); or layout `4d`, the tutorial's
  packed A[M][K/16][1][16], B[N/16][K/16][16][16], C[M][N/16][1][16]
  (region {bi, ci, ki}). The loops outside the region are in a random
  order; Ab and Wb are computed at the reduction loop ko or at any outer
  loop (everything fits in SRAM at these sizes; a 2-D weight stage outside
  ko only when K is one block: it keeps W's layout, a tile's rows K apart,
  which VTA cannot read), Cb at an outer loop that
  encloses ko, or whole. Optional cthread (split(jo, ct, jo2, nparts=2)
  bind(ct, cthread), ct outermost, compute_at(Cb, ct)) when N/16 is even.
  Optional epilogue `min(max(acc >> s, lo), hi)` (s in 0..10, either
  bound or both may be absent) with pragma(<its loop>, alu): the epilogue
  is the loop nest split off by the reorder that moves the reduction out
  of the output loops, named <loop>_2 after the outermost output loop of
  the source nest (<loop>_1 when the accumulator starts from C: there is
  no initialisation statement).
- alu: C[i] = int8(A[i] op B[i]) on int32 A, B in vta.acc stages, op one
  of + min max * (the data int8, int16 or 21-bit, at most int16 for *: no
  overflow), length L (a multiple of 16), split(i, io, ii, 16) and an
  optional split of io by a random factor, pragma(alu) on io or on one of
  its parts, the stages whole or at the outer part (then the pragma is on
  the inner part: an ALU region holds no stage).

A case passes only when its kernel ran on the VTA runtime (SCHED_VERBOSE=1
says `ran on the VTA runtime`) and printed what the plain build printed.
"""
import random

from .program import Case

FAMILY = "vta"


def _perm(rng, xs):
    xs = list(xs)
    rng.shuffle(xs)
    return xs


def gen_spec(rng):
    if rng.random() < 0.2:
        L = 16 * rng.choice([1, 2, 3, 4, 6, 8, 16, 32, 64])
        io = L // 16
        divs = [f for f in range(2, io + 1) if io % f == 0 and f < io]
        split2 = rng.choice(divs) if divs and rng.random() < 0.6 else None
        spec = {"kind": "alu", "L": L, "op": rng.choice(["+", "min", "max", "*"]),
                "range": rng.choice([127, 32767, 1 << 20]),
                "split2": split2,
                "alu_at": rng.choice(["ioo", "ioi"]) if split2 else "io",
                "stages_at_ioo": bool(split2) and rng.random() < 0.5,
                "data": rng.randrange(1 << 30)}
        if spec["op"] == "*":
            spec["range"] = min(spec["range"], 32767)  # no signed overflow
        if spec["stages_at_ioo"]:
            spec["alu_at"] = "ioi"  # an ALU region holds no stage allocation
        return spec
    layout = "4d" if rng.random() < 0.25 else "2d"
    form = "present4d" if layout == "4d" else rng.choice(["absent", "split", "present"])
    M = 1 if form == "present" else rng.randint(1, 8)
    N = 16 * rng.randint(1, 4)
    K = 16 * rng.choice([1, 1, 2, 3, 4, 8])
    cthread = (N // 16) % 2 == 0 and rng.random() < 0.3
    jo = "co" if layout == "4d" else "jo"
    if layout == "4d":
        outer = ["bo", jo, "ko"]
        region = ["bi", "ci", "ki"]
    elif form == "absent":
        outer = ["i", jo, "ko"]
        region = ["ji", "ki"]
    elif form == "split":
        outer = ["io", jo, "ko"]
        region = ["ji", "ii", "ki"]
    else:
        outer = [jo, "ko"]
        region = ["i", "ji", "ki"]
    if cthread:
        outer = [jo + "2" if x == jo else x for x in outer]
    outer = _perm(rng, outer) if rng.random() < 0.6 else outer
    region = _perm(rng, region) if rng.random() < 0.6 else region
    if cthread:
        outer = ["ct"] + outer
    kpos = outer.index("ko")
    ab = rng.choice(["ko", "ko", rng.choice(outer)])
    # A weight stage keeps the weights' layout: outside ko, a stage of a 2-D
    # W holds all of K, a tile's rows K apart, which VTA cannot read when K
    # spans several blocks (refused, docs/tutorials/vta.md "What the VTA
    # fuzzer does not generate"): then at ko or inside it.
    wb_outer = outer if layout == "4d" or K == 16 else outer[kpos:]
    wb = rng.choice(["ko", "ko", rng.choice(wb_outer)])
    cb_choices = [x for x in outer[:kpos]]
    cb = "ct" if cthread else (rng.choice(cb_choices + [None, None]) if cb_choices else None)
    epi = None
    if rng.random() < 0.45:
        shift = rng.randint(0, 10)
        lo = rng.randint(-128, 127) if rng.random() < 0.7 else None
        hi = rng.randint(-128, 127) if rng.random() < 0.7 else None
        if lo is not None and hi is not None and rng.random() < 0.7 and lo > hi:
            lo, hi = hi, lo
        if rng.random() < 0.15:  # bounds beyond int8: the narrowing wraps
            lo = None if lo is None else lo * 64
            hi = None if hi is None else hi * 64
        epi = (shift, lo, hi)
    spec = {"kind": "gemm", "layout": layout, "form": form, "M": M, "N": N, "K": K,
            "cthread": cthread, "outer": outer, "region": region, "ab": ab, "wb": wb,
            "cb": cb, "epi": epi, "data": rng.randrange(1 << 30)}
    # Drawn last, so the choices above stay those of the seed before.
    # The accumulator's start: 0 (a GEMM reset), an int32 bias per output
    # column (an ACC LOAD, broadcast over the rows), or C itself (C += ...,
    # an ACC_8BIT LOAD); 2-D weights k-major W[k*N + j] (the stage stored
    # transposed, the tiles packed transposed).
    spec["init"] = rng.choice(["zero", "zero", "bias", "inplace"])
    spec["kmajor"] = layout == "2d" and rng.random() < 0.3
    return spec


def _epi_expr(epi, acc):
    if epi is None:
        return acc
    shift, lo, hi = epi
    e = "(%s >> %d)" % (acc, shift)
    if lo is not None:
        e = "std::max(%s, %d)" % (e, lo)
    if hi is not None:
        e = "std::min(%s, %d)" % (e, hi)
    return e


def _bias_param(spec):
    return ", const int *Bias" if spec.get("init") == "bias" else ""


def _init_expr(spec, column, output):
    """The accumulator's start: 0, the bias of the output column, or the
    output itself (C += ...)."""
    init = spec.get("init", "zero")
    return {"zero": "0", "bias": "Bias[%s]" % column, "inplace": output}[init]


def directives_of(spec):
    """The schedule as tuples (the shape report.directive_keys reads)."""
    d = [("target", "vta")]
    if spec["kind"] == "alu":
        d.append(("cache_read", "A", "vta.acc", "Ab"))
        d.append(("cache_read", "B", "vta.acc", "Bb"))
        d.append(("cache_write", "C", "vta.acc", "Cb"))
        d.append(("split", "i", "io", "ii", 16))
        if spec["split2"]:
            d.append(("split", "io", "ioo", "ioi", spec["split2"]))
            if spec["stages_at_ioo"]:
                for s in ("Ab", "Bb", "Cb"):
                    d.append(("compute_at", s, "ioo"))
        for s in ("Ab", "Bb", "Cb"):
            d.append(("pragma", s + ".ax0", "dma_copy"))
        d.append(("pragma", spec["alu_at"], "alu"))
        return d
    two = spec["layout"] == "2d"
    W = "W" if two else "B"
    Wb = W + "b"
    jo = "jo" if two else "co"
    if two:
        if spec["form"] == "split":
            d.append(("split", "i", "io", "ii", 1))
        d.append(("split", "j", "jo", "ji", 16))
        d.append(("split", "k", "ko", "ki", 16))
    if spec["cthread"]:
        d.append(("split", jo, "ct", jo + "2", "nparts=2"))
        d.append(("bind", "ct", "cthread"))
    d.append(("cache_read", "A", "vta.inp", "Ab"))
    d.append(("cache_read", W, "vta.wgt", Wb))
    d.append(("cache_write", "C", "vta.acc", "Cb"))
    d.append(("reorder",) + tuple(spec["outer"] + spec["region"]))
    d.append(("compute_at", "Ab", spec["ab"]))
    d.append(("compute_at", Wb, spec["wb"]))
    if spec["cb"]:
        d.append(("compute_at", "Cb", spec["cb"]))
    for s in ("Ab", Wb, "Cb"):
        d.append(("pragma", s + ".ax0", "dma_copy"))
    if spec["epi"] is not None:
        # The reorder splits the initialisation off as <loop>_1 and the
        # epilogue as <loop>_2; an accumulator that starts from C itself has
        # no initialisation statement (the stage starts from C's values).
        suffix = "_1" if spec.get("init") == "inplace" else "_2"
        d.append(("pragma", epilogue_loop(spec) + suffix, "alu"))
    d.append(("tensorize", spec["region"][0], "vta.gemm"))
    return d


def epilogue_loop(spec):
    """The outermost loop of the epilogue: the reorder that moves the
    reduction ko out of output loops splits the statements around the
    reduction into loop nests of their own (the reset <loop>_1, the
    epilogue <loop>_2) over the output loops inside ko, in source order."""
    after = spec["outer"][spec["outer"].index("ko") + 1:] + spec["region"]
    if spec["layout"] == "4d":
        order = ["bo", "co", "co2", "bi", "ci"]
    else:
        order = ["i", "io", "ii", "jo", "jo2", "ji"]
    return next(x for x in order if x in after)


def fmt_directive(d):
    if d[0] == "reorder":
        return "reorder(%s)" % ", ".join(d[1:])
    return "%s(%s)" % (d[0], ", ".join(str(x) for x in d[1:]))


class VtaNest:
    """What program.build_program needs of a nest: family, to_c, driver."""

    def __init__(self, name, spec):
        self.name = name
        self.spec = spec
        self.family = "vta-" + (spec["kind"] if spec["kind"] == "alu" else
                                spec["layout"] + "-" + spec["form"] if spec["layout"] == "2d"
                                else "4d")
        if spec.get("kmajor"):
            self.family += "-kmajor"
        if spec.get("init", "zero") != "zero":
            self.family += "-" + spec["init"]
        self.configs = [dict(spec)]
        self.params = []

    def to_c(self, pragmas):
        """(lines, index of the outermost for, index of the first pragma)."""
        s = self.spec
        L = ["#include <algorithm>"]
        if s["kind"] == "alu":
            L.append("static void %s(const int *A, const int *B, signed char *C) {" % self.name)
        elif s["layout"] == "2d":
            L.append("static void %s(const signed char *A, const signed char *W, "
                     "signed char *C%s) {" % (self.name, _bias_param(s)))
        else:
            M, NB, KB = s["M"], s["N"] // 16, s["K"] // 16
            L.append("static void %s(const signed char A[%d][%d][1][16], "
                     "const signed char B[%d][%d][16][16], signed char C[%d][%d][1][16]%s) {" %
                     (self.name, M, KB, NB, KB, M, NB, _bias_param(s)))
        first = len(L)
        for p in pragmas:
            L.append("#pragma sched " + p)
        for_idx = len(L)
        if s["kind"] == "alu":
            a, b = "A[i]", "B[i]"
            op = s["op"]
            e = ("%s %s %s" % (a, op, b)) if op in "+*" else "std::%s(%s, %s)" % (op, a, b)
            L.append("  for (int i = 0; i < %d; ++i)" % s["L"])
            L.append("    C[i] = (signed char)(%s);" % e)
        elif s["layout"] == "2d":
            M, N, K = s["M"], s["N"], s["K"]
            L.append("  for (int i = 0; i < %d; ++i)" % M)
            L.append("    for (int j = 0; j < %d; ++j) {" % N)
            L.append("      int acc = %s;" % _init_expr(s, "j", "C[i * %d + j]" % N))
            L.append("      for (int k = 0; k < %d; ++k)" % K)
            if s.get("kmajor"):
                L.append("        acc += A[i * %d + k] * W[k * %d + j];" % (K, N))
            else:
                L.append("        acc += A[i * %d + k] * W[j * %d + k];" % (K, K))
            L.append("      C[i * %d + j] = (signed char)%s;" % (N, _epi_expr(s["epi"], "acc")))
            L.append("    }")
        else:
            M, NB, KB = s["M"], s["N"] // 16, s["K"] // 16
            L.append("  for (int bo = 0; bo < %d; ++bo)" % M)
            L.append("    for (int co = 0; co < %d; ++co)" % NB)
            L.append("      for (int bi = 0; bi < 1; ++bi)")
            L.append("        for (int ci = 0; ci < 16; ++ci) {")
            L.append("          int acc = %s;" % _init_expr(s, "co * 16 + ci",
                                                         "C[bo][co][bi][ci]"))
            L.append("          for (int ko = 0; ko < %d; ++ko)" % KB)
            L.append("            for (int ki = 0; ki < 16; ++ki)")
            L.append("              acc += A[bo][ko][bi][ki] * B[co][ko][ci][ki];")
            L.append("          C[bo][co][bi][ci] = (signed char)%s;" %
                     _epi_expr(s["epi"], "acc"))
            L.append("        }")
        L.append("}")
        return L, for_idx, first

    def driver(self, case, lines):
        s = self.spec
        lines.append("static void run_%d(int full) {" % case.seed)
        lines.append('  std::printf("@cfg 0\\n");')
        lines.append("  unsigned st = %du;" % s["data"])
        if s["kind"] == "alu":
            n = s["L"]
            r = s["range"]
            lines.append("  static int A[%d], B[%d];" % (n, n))
            lines.append("  static signed char C[%d + 8];" % n)
            lines.append("  for (int x = 0; x < %d + 8; ++x) C[x] = (signed char)(x * 7 + 1);" % n)
            for a in "AB":
                lines.append("  for (int x = 0; x < %d; ++x) { st = st * 1103515245u + 12345u; "
                             "%s[x] = (int)((st >> 1) %% %du) - %d; }" % (n, a, 2 * r + 1, r))
            lines.append("  %s(A, B, C);" % self.name)
            out = n + 8
        else:
            M, N, K = s["M"], s["N"], s["K"]
            lines.append("  static signed char A[%d], W[%d], C[%d + 8];" % (M * K, N * K, M * N))
            lines.append("  for (int x = 0; x < %d + 8; ++x) C[x] = (signed char)(x * 7 + 1);" %
                         (M * N))
            for a, n in (("A", M * K), ("W", N * K)):
                lines.append("  for (int x = 0; x < %d; ++x) { st = st * 1103515245u + 12345u; "
                             "%s[x] = (signed char)(st >> 16); }" % (n, a))
            bias = ""
            if s.get("init") == "bias":
                lines.append("  static int Bias[%d];" % N)
                lines.append("  for (int x = 0; x < %d; ++x) { st = st * 1103515245u + 12345u; "
                             "Bias[x] = (int)((st >> 1) %% 2000001u) - 1000000; }" % N)
                bias = ", Bias"
            if s["layout"] == "2d":
                lines.append("  %s(A, W, C%s);" % (self.name, bias))
            else:
                NB, KB = N // 16, K // 16
                lines.append("  %s((const signed char (*)[%d][1][16])A, "
                             "(const signed char (*)[%d][16][16])W, "
                             "(signed char (*)[%d][1][16])C%s);" % (self.name, KB, KB, NB, bias))
            out = M * N + 8
        lines.append("  unsigned long long h = 1469598103934665603ull;")
        lines.append("  long sum = 0;")
        lines.append("  for (int x = 0; x < %d; ++x) {" % out)
        lines.append("    h = (h ^ (unsigned char)C[x]) * 1099511628211ull;")
        lines.append("    sum += C[x];")
        lines.append('    if (full || x %% 16 == 15 || x == %d) std::printf("C[%%d..%%d] h=%%016llx '
                     's=%%ld\\n", x - x %% 16, x, h, sum);' % (out - 1))
        lines.append("  }")
        lines.append("}")


def make_vta_case(seed):
    rng = random.Random(("vta", seed).__repr__())
    spec = gen_spec(rng)
    return case_of_spec(seed, spec)


def case_of_spec(seed, spec):
    nest = VtaNest("nest_%d" % seed, spec)
    dirs = directives_of(spec)
    case = Case(seed, nest, [fmt_directive(d) for d in dirs])
    case.directives = dirs
    case.partial_reorder = False
    case.spec = spec
    return case


def _spec_edits(spec):
    """Smaller specs than `spec`, one choice simpler each, largest step
    first: what minimize_vta tries. A spec an edit makes inconsistent is
    left out (case_of_spec accepts every spec given here)."""
    s = spec
    out = []

    def edit(what, **changes):
        t = dict(s, **changes)
        if t != s:
            out.append((what, t))

    if s["kind"] == "alu":
        io = s["L"] // 16
        for L in sorted({16, 16 * (io // 2)}):
            if 16 <= L < s["L"] and (s["split2"] is None or (L // 16) % s["split2"] == 0):
                edit("L=%d" % L, L=L)
        if s["split2"] is not None:
            edit("no second split", split2=None, alu_at="io", stages_at_ioo=False)
        edit("range 127", range=127)
        return out
    if s["epi"] is not None:
        edit("no epilogue", epi=None)
        shift, lo, hi = s["epi"]
        if lo is not None or hi is not None:
            edit("epilogue shift only", epi=(shift, None, None))
    if s["cthread"]:
        jo = "co" if s["layout"] == "4d" else "jo"
        outer = [jo if x == jo + "2" else x for x in s["outer"] if x != "ct"]
        kpos = outer.index("ko")
        cb = s["cb"] if s["cb"] in outer[:kpos] else None
        ab = s["ab"] if s["ab"] in outer else "ko"
        wb = s["wb"] if s["wb"] in outer else "ko"
        edit("no cthread", cthread=False, outer=outer, cb=cb, ab=ab, wb=wb)
    if s.get("init", "zero") != "zero":
        edit("accumulator from zero", init="zero")
    if s.get("kmajor"):
        edit("row-major weights", kmajor=False)
    if s["form"] != "present" and s["M"] > 1:
        edit("M=1", M=1)
    if s["K"] > 16:
        edit("K=16", K=16)
    min_n = 32 if s["cthread"] else 16
    if s["N"] > min_n:
        edit("N=%d" % min_n, N=min_n)
    if s["ab"] != "ko":
        edit("Ab at ko", ab="ko")
    if s["wb"] != "ko":
        edit("Wb at ko", wb="ko")
    if s["cb"] is not None and not s["cthread"]:
        edit("Cb whole", cb=None)
    return out


def minimize_vta(case, outcome, log):
    """Shrinks a failing VTA case by its spec: the smallest spec _spec_edits
    reaches whose case fails the same way (outcome(case) gives (class, key,
    result), None for a case that does not build). Returns (case, result)."""
    spec = dict(case.spec)
    first = outcome(case)
    if first is None:
        raise SystemExit("vta seed %d: the generated case does not run?" % case.seed)
    cls, key, res = first
    log("vta seed %d: %s: %s" % (case.seed, cls, res.message))
    if cls == "ok":
        return case, res
    best = case
    progress = True
    while progress:
        progress = False
        for what, t in _spec_edits(spec):
            try:
                c2 = case_of_spec(case.seed, t)
            except Exception as e:  # noqa: B014 (an edit the generator cannot write)
                log("  (edit '%s' not writable: %s)" % (what, e))
                continue
            o = outcome(c2)
            if o is not None and (o[0], o[1]) == (cls, key):
                spec, best, res = t, c2, o[2]
                log("  kept: %s" % what)
                progress = True
                break
    return best, res
