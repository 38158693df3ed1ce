"""Delta-debugging of one failing case (--minimize SEED).

Greedy passes, repeated until none shrinks the case: keep one size
configuration, drop directives (a whole cache stage at once, then one by
one), drop statements, guards and loops (a loop becomes its body with the
variable at its lower bound), shrink sizes and constant extents, drop
unused arrays and parameters. A candidate is kept when the oracle still
finds its schedule legal (a minimized case must stay a legal schedule) and
the plugin build still fails the same way (same class, and for everything
but `wrong` the same normalized message).
"""
import copy
import os
import sys
import tempfile

from . import nest as N
from .cases import load_case, make_case
from .gen import GenFailed, guard_loads, prepare
from .poly import Poly
from .program import Case, build_program
from .report import normalize, write_case
from .runner import case_arch
from .runner import Runner
from .schedgen import Oracle, fmt


# ---- structural edits: each returns a list of candidate bodies

def _edits(body):
    """(description, new body) for every single-node edit of body."""
    for k, n in enumerate(body):
        rest = body[:k] + body[k + 1:]
        if isinstance(n, (N.Assign, N.DeclScalar, N.If, N.Loop)):
            yield "drop %s" % _desc(n), rest
        if isinstance(n, N.If):
            yield "unguard", body[:k] + n.body + body[k + 1:]
        if isinstance(n, N.Loop):
            inner = N.map_body(n.body, lambda p, v=n.var, lo=n.lo: p.subst({v: Poly.const(lo)}))
            yield "unwrap loop %s" % n.var, body[:k] + inner + body[k + 1:]
            if n.hi.is_const() and n.hi.const_value() - n.lo > 1:
                for hi in sorted({n.lo + 1, (n.hi.const_value() + n.lo) // 2,
                                  n.hi.const_value() - 1}):
                    if hi < n.hi.const_value():
                        yield "loop %s to %d" % (n.var, hi), \
                            body[:k] + [N.Loop(n.var, n.lo, Poly.const(hi), n.body)] + body[k + 1:]
        if isinstance(n, (N.Loop, N.If)):
            for what, sub in _edits(n.body):
                if isinstance(n, N.Loop):
                    new = N.Loop(n.var, n.lo, n.hi, sub)
                else:
                    new = N.If(n.cond, sub)
                yield what, body[:k] + [new] + body[k + 1:]


def _desc(n):
    if isinstance(n, N.Loop):
        return "loop %s" % n.var
    if isinstance(n, N.If):
        return "if"
    return "S%d" % n.sid


def _prune(nest):
    """Drops arrays and parameters nothing uses."""
    names = set()

    def collect(p):
        names.update(p.names())
        return p
    N.map_body(nest.body, collect)
    used = set()
    for st, _ in nest.statements():
        loads = N.expr_loads(st.rhs if isinstance(st, N.Assign) else st.init)
        if isinstance(st, N.Assign) and not isinstance(st.lhs, str):
            loads.append(st.lhs)
        used.update(a.arr.name for a in loads)
    used.update(a.arr.name for a in guard_loads(nest))
    nest.arrays = [a for a in nest.arrays if a.name in used]
    for a in nest.arrays:
        if a.kind == "flat":
            for d in a.dims:
                names.update(d.names())
    kinds = getattr(nest, "param_kinds", {})
    for p, k in kinds.items():
        if k[0] == "ld" and p in names:
            names.update(k[1].names())
    nest.params = [p for p in nest.params if p in names]
    nest.configs = [{p: c[p] for p in nest.params} for c in nest.configs]
    dedup = []
    for c in nest.configs:
        if c not in dedup:
            dedup.append(c)
    nest.configs = dedup


class Minimizer:
    def __init__(self, runner, seed, log):
        self.runner = runner
        self.seed = seed
        self.log = log
        self.tries = 0

    def outcome(self, nest, dirs):
        """(class, key) of a candidate, or None when it is not a legal
        case (generator-level problems are not failures of the plugin)."""
        nest = copy.deepcopy(nest)
        if not any(isinstance(s, N.Assign) for s, _ in nest.statements()):
            return None  # keep at least one store: a reproduction shows something
        try:
            _prune(nest)
            if not nest.configs:
                return None
            prepare(nest)
            oracle = Oracle(nest)
            if oracle.check(dirs) is not None:
                return None
        except (GenFailed, N.Overflow, Exception) as e:  # noqa: B014
            if not isinstance(e, (GenFailed, N.Overflow, NameError, KeyError)):
                self.log("  (candidate rejected: %s: %s)" % (type(e).__name__, e))
            return None
        case = Case(self.seed, nest, [fmt(d) for d in dirs])
        case.directives = dirs
        self.tries += 1
        res = self.runner.run_batch([case], "min%d" % self.tries)
        res.pop("__dir__", None)
        r = res[self.seed]
        return r.cls, self.key(r), case, r

    @staticmethod
    def key(r):
        if r.cls == "wrong":
            return "wrong"
        return " ".join(normalize(r.message).split()[:8])

    def run(self, case):
        nest, dirs = copy.deepcopy(case.nest), list(case.directives)
        first = self.outcome(nest, dirs)
        if first is None:
            raise SystemExit("seed %d: the generated case is not legal?" % self.seed)
        cls, key, best_case, best_res = first
        self.log("seed %d: %s: %s" % (self.seed, cls, best_res.message))
        if cls == "ok":
            return best_case, best_res
        target = (cls, key)

        def accept(n2, d2, what):
            nonlocal nest, dirs, best_case, best_res
            o = self.outcome(n2, d2)
            if o is None or (o[0], o[1]) != target:
                return False
            nest, dirs = n2, d2
            best_case, best_res = o[2], o[3]
            self.log("  kept: %s" % what)
            return True

        progress = True
        while progress:
            progress = False
            # one configuration
            if len(nest.configs) > 1:
                for c in list(nest.configs):
                    n2 = copy.deepcopy(nest)
                    n2.configs = [c]
                    if accept(n2, dirs, "sizes %s only" % c):
                        progress = True
                        break
            # cache stages as a whole, then each directive
            stages = [d[3] for d in dirs if d[0] in ("cache_read", "cache_write")]
            for s in stages:
                d2 = [d for d in dirs if s not in d[1:] and
                      not any(str(a).startswith(s + ".") for a in d[1:])]
                if d2 != dirs and accept(nest, d2, "drop stage %s" % s):
                    progress = True
            for k in range(len(dirs) - 1, 0, -1):
                if k < len(dirs) and accept(nest, dirs[:k] + dirs[k + 1:],
                                            "drop %s" % fmt(dirs[k])):
                    progress = True
            # statements, guards, loops, constant extents
            changed = True
            while changed:
                changed = False
                for what, body in _edits(nest.body):
                    if not body or not isinstance(body[0], N.Loop) or len(body) != 1:
                        continue
                    n2 = copy.deepcopy(nest)
                    n2.body = copy.deepcopy(body)
                    if accept(n2, dirs, what):
                        changed = progress = True
                        break
            # sizes
            for ci, c in enumerate(nest.configs):
                for p in list(c):
                    if getattr(nest, "param_kinds", {}).get(p, ("size",))[0] != "size":
                        continue
                    for v in sorted({c[p] // 2, c[p] - 1, 1}):
                        if 0 <= v < nest.configs[ci][p]:
                            n2 = copy.deepcopy(nest)
                            n2.configs[ci][p] = v
                            for q, kind in getattr(n2, "param_kinds", {}).items():
                                if kind[0] == "ld" and q in n2.configs[ci]:
                                    n2.configs[ci][q] = kind[1].eval(n2.configs[ci])
                            if accept(n2, dirs, "%s=%d" % (p, v)):
                                progress = True
                                break
        return best_case, best_res


def explain(runner, case):
    """Element-level differences (plain vs plugin under sim) of a wrong case."""
    d = tempfile.mkdtemp(prefix="explain-", dir=runner.workdir)
    src = os.path.join(d, "case.cpp")
    with open(src, "w") as f:
        f.write(build_program([case]))
    runner.compile(src, os.path.join(d, "plain"), False)
    runner.compile(src, os.path.join(d, "sched"), True, arch=case_arch(case))
    _, a, _, _ = runner.run(os.path.join(d, "plain"), 0, False, full=True)
    _, b, _, _ = runner.run(os.path.join(d, "sched"), 0, True, full=True)
    out = []
    cfg = "?"
    for x, y in zip(a.splitlines(), b.splitlines()):
        if x.startswith("@cfg"):
            cfg = x.split()[1]
        if x != y and "[" in x:
            out.append("config %s: %s (plain)  vs  %s (plugin)" % (cfg, x, y.split()[-1]))
    return out


def write_repro(out_dir, case, res, runner, log_lines):
    lines, _, _ = case.nest.to_c([" ".join(case.schedule)])
    how = ["clang++-19 -std=c++17 -O1 -Wno-unknown-pragmas repro.cpp -o plain && ./plain > plain.out",
           "clang++-19 -std=c++17 -O1 -fplugin=<build>/lib/SchedPlugin.so repro.cpp "
           "-L<build>/lib -Wl,-rpath,<build>/lib -lsched_runtime -o sched",
           "SCHED_BACKEND=sim SCHED_VERBOSE=1 ./sched > sched.out; diff plain.out sched.out",
           "(./plain 0 1 and ./sched 0 1 print every element)"]
    after = []
    if res.cls == "wrong":
        after.append(("elements that differ", explain(runner, case)[:30]))
    after.append(("minimization log", log_lines))
    write_case(out_dir, case, res, "sched-fuzz seed %d, minimized (family %s)" %
               (case.seed, case.nest.family), "repro.cpp",
               before=[("nest", lines), ("reproduce", how)], after=after)


def minimize(args):
    runner = Runner(args.build, tempfile.mkdtemp(prefix="sched-fuzz-min-"), timeout=args.timeout,
                    emu=getattr(args, "family", None) != "vta")
    lines = []

    def log(m):
        lines.append(m)
        if not args.quiet:
            sys.stderr.write(m + "\n")

    if args.minimize.isdigit():
        case = make_case(int(args.minimize), getattr(args, "family", None))
    else:
        case = load_case(os.path.join(args.minimize, "case.pkl"))
    if getattr(case, "spec", None) is not None:  # a VTA case: shrink its spec
        from .vta import minimize_vta
        tries = [0]

        def outcome(c):
            tries[0] += 1
            res = runner.run_batch([c], "vmin%d" % tries[0])
            res.pop("__dir__", None)
            r = res.get(c.seed)
            return None if r is None else (r.cls, Minimizer.key(r), r)

        best, res = minimize_vta(case, outcome, log)
    else:
        m = Minimizer(runner, case.seed, log)
        best, res = m.run(case)
    sys.stdout.write(build_program([best]))
    sys.stdout.write("// class: %s: %s\n" % (res.cls, res.message))
    if args.out:
        write_repro(args.out, best, res, runner, lines)
        sys.stderr.write("reproduction written to %s\n" % args.out)
    return 0 if res.cls == "ok" else 1
