"""One C++ translation unit holding several fuzz cases.

Each case (one seed: a nest and its schedule) is a function `nest_<seed>`
with its `#pragma sched` lines, and a driver `run_<seed>` that, for each
size configuration, allocates and fills the arrays with the deterministic
pattern (nest.fill_value), calls the nest and prints a hash and sum of every
array (`full` prints every element). main() runs cases [first, count) and
brackets each with `@begin <seed>` / `@end <seed>` (flushed), so a crash or
a sim error names its case and the rest can run again without it: argv
is `first full skip`, skip a string of 0/1 per case ('1': leave it out).
No heavy headers: compile time dominates a fuzz run.
"""

PRELUDE = r"""// sched-fuzz generated program
#include <cstdio>
#include <cstdlib>

static unsigned fz_fillv(unsigned salt, unsigned idx) {
  unsigned x = idx * 2654435761u + salt * 40503u + 12345u;
  x ^= x >> 13;
  x *= 0x5bd1e995u;
  x ^= x >> 15;
  return x % 7u;
}
template <class T> static T *fz_alloc(long n, unsigned salt) {
  T *a = (T *)std::calloc(n > 0 ? n : 1, sizeof(T));
  for (long i = 0; i < n; ++i)
    a[i] = (T)((int)fz_fillv(salt, (unsigned)i) - 3);
  return a;
}
template <class T> static void fz_dump(const char *nm, const T *a, long n, int full) {
  unsigned long long h = 1469598103934665603ull;
  double s = 0;
  for (long i = 0; i < n; ++i) {
    double v = (double)a[i] + 0.0;
    unsigned long long q;
    if (v != v)
      q = 0x7ff8000000000000ull;
    else if (v > 9e18 || v < -9e18)
      q = 0x7ff0000000000001ull;
    else {
      long long w = (long long)v;
      q = (unsigned long long)w;
      if ((double)w != v)
        q ^= 0x5a5a5a5a5a5a5a5aull ^ (unsigned long long)(long long)((v - (double)w) * 1048576.0);
    }
    h = (h ^ q) * 1099511628211ull;
    h ^= (unsigned long long)i * 0x9E3779B97F4A7C15ull;
    s += v;
    if (full)
      std::printf("%s[%ld] %.17g\n", nm, i, v);
  }
  std::printf("%s n=%ld h=%016llx s=%.17g\n", nm, n, h, s);
}
"""

PAD = 8  # extra elements after every flat array: stray writes show up


class Case:
    """A nest with its schedule, placed in a program."""

    def __init__(self, seed, nest, schedule):
        self.seed = seed
        self.nest = nest
        self.schedule = schedule  # list of directive strings
        self.lines = (0, 0)  # [first pragma line, last line] (1-based)
        self.for_line = 0


def pragma_lines(schedule, per_line=3):
    out = []
    for k in range(0, len(schedule), per_line):
        out.append(" ".join(schedule[k:k + per_line]))
    return out


def driver(case, lines):
    n = case.nest
    lines.append("static void run_%d(int full) {" % case.seed)
    for c, cfg in enumerate(n.configs):
        alloc = n.alloc[c]
        lines.append("  { // sizes %s" % " ".join("%s=%d" % (p, cfg[p]) for p in n.params))
        lines.append('    std::printf("@cfg %d\\n");' % c)
        args = []
        for a in n.arrays:
            cnt = alloc[a.name] + (PAD if a.kind == "flat" else 0)
            lines.append("    %s *%s_ = fz_alloc<%s>(%d, %du);" % (a.ty.cname, a.name, a.ty.cname,
                                                                  cnt, a.salt))
            if a.kind == "flat":
                args.append("%s_" % a.name)
            else:
                inner = "".join("[%d]" % d.const_value() for d in a.dims[1:])
                args.append("(%s%s %s)%s_" % ("const " if a.readonly else "", a.ty.cname,
                                              "(*)" + inner if inner else "*", a.name))
        args += [str(cfg[p]) for p in n.params]
        counters = n.c89_counters() if hasattr(n, "c89_counters") else []
        if getattr(n, "c89", None):
            lines.append("    long fz_ctr_[%d];" % (len(counters) + 1))
            lines.append("    for (int k = 0; k < %d; ++k)" % (len(counters) + 1))
            lines.append("      fz_ctr_[k] = -99;")
            args.append("fz_ctr_")
        lines.append("    %s(%s);" % (n.name, ", ".join(args)))
        for a in n.arrays:
            cnt = alloc[a.name] + (PAD if a.kind == "flat" else 0)
            lines.append('    fz_dump("%s", %s_, %d, full);' % (a.name, a.name, cnt))
        if getattr(n, "c89", None):
            lines.append('    fz_dump("counters", fz_ctr_, %d, 1);' % (len(counters) + 1))
        for a in n.arrays:
            lines.append("    std::free(%s_);" % a.name)
        lines.append("  }")
    lines.append("}")


def build_program(cases, with_pragmas=None):
    """C++ source for the cases; sets each case's line range. with_pragmas:
    the seeds whose pragmas are kept (default all); the others get a
    comment in place of each pragma line so line numbers do not move."""
    lines = PRELUDE.rstrip("\n").split("\n")
    for case in cases:
        lines.append("")
        lines.append("// ---- seed %d (%s)" % (case.seed, case.nest.family))
        prag = pragma_lines(case.schedule)
        body, for_idx, first_pragma = case.nest.to_c(prag)
        keep = with_pragmas is None or case.seed in with_pragmas
        if not keep:
            body = [("// (pragmas removed) " + l[len("#pragma sched "):])
                    if l.startswith("#pragma sched") else l for l in body]
        start = len(lines) + 1
        case.lines = (start + first_pragma, start + len(body) - 1)
        case.for_line = start + for_idx
        lines += body
        getattr(case.nest, "driver", lambda c, l: driver(c, l))(case, lines)
    lines.append("")
    lines.append("int main(int argc, char **argv) {")
    lines.append("  int first = argc > 1 ? std::atoi(argv[1]) : 0;")
    lines.append("  int full = argc > 2 ? std::atoi(argv[2]) : 0;")
    lines.append("  static void (*const runs[])(int) = {%s};" %
                 ", ".join("run_%d" % c.seed for c in cases))
    lines.append("  static const int seeds[] = {%s};" % ", ".join(str(c.seed) for c in cases))
    lines.append("  const char *skip = argc > 3 ? argv[3] : \"\";")
    lines.append("  int nskip = 0;")
    lines.append("  while (skip[nskip])")
    lines.append("    ++nskip;")
    lines.append("  for (int n = first; n < %d; ++n) {" % len(cases))
    lines.append("    if (n < nskip && skip[n] == '1')")
    lines.append("      continue;")
    lines.append('    std::printf("@begin %d\\n", seeds[n]);')
    lines.append("    std::fflush(stdout);")
    lines.append("    runs[n](full);")
    lines.append('    std::printf("@end %d\\n", seeds[n]);')
    lines.append("    std::fflush(stdout);")
    lines.append("  }")
    lines.append("  return 0;")
    lines.append("}")
    return "\n".join(lines) + "\n"
