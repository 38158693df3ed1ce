"""The loop nests the fuzzer generates: an IR, its C++ form and its reference
interpreter.

A Nest is one C++ function holding one `#pragma sched` nest. Arrays are its
pointer or fixed-size array parameters (or arrays declared inside the nest),
sizes are `int` parameters. The same IR is

  * printed as C++ (what both the plain and the plugin build compile), and
  * compiled to a Python function that runs the nest for concrete sizes on
    the same deterministic data the C++ program fills in, recording every
    statement instance in execution order with the memory locations it
    reads and writes. The schedule oracle (model.py) computes dependences
    from that trace; the value checks here keep the reference free of signed
    overflow and of float rounding (integer values below 2^24).
"""
from .poly import Poly


class Ty:
    def __init__(self, name, cname, is_float, lo, hi):
        self.name, self.cname, self.is_float = name, cname, is_float
        self.lo, self.hi = lo, hi  # representable values we allow (exact)

    def lit(self, v):
        if self.name == "float":
            return "%d.f" % v if v >= 0 else "-%d.f" % -v
        if self.name == "double":
            return "%d.0" % v if v >= 0 else "-%d.0" % -v
        return str(v)


TYPES = {
    "float": Ty("float", "float", True, -(1 << 24), 1 << 24),
    "double": Ty("double", "double", True, -(1 << 50), 1 << 50),
    "int": Ty("int", "int", False, -(1 << 31), (1 << 31) - 1),
    "int16": Ty("int16", "short", False, -(1 << 15), (1 << 15) - 1),
    "int8": Ty("int8", "signed char", False, -128, 127),
}


def arith_type(a, b):
    """The C++ type of a binary operation (usual arithmetic conversions,
    restricted to the types used here)."""
    for name in ("double", "float"):
        if a.name == name or b.name == name:
            return TYPES[name]
    return TYPES["int"]


class Overflow(Exception):
    """A value left the exactly representable range of its type."""


# --------------------------------------------------------------------------
# Arrays and accesses


class Array:
    """kind: 'flat' (T *A, indexed A[flat]), 'fixed' (T A[d0][d1] parameter),
    'local' (T t[d0] declared inside the nest). dims: logical dimensions, a
    Poly each (flat: the strides are products of the later dims; fixed and
    local: constants)."""

    def __init__(self, name, ty, kind, dims, readonly=False, restrict=False):
        self.name, self.ty, self.kind = name, ty, kind
        self.dims = [Poly.of(d) for d in dims]
        self.readonly, self.restrict = readonly, restrict
        self.salt = 0  # fill seed, set by the generator

    def param_c(self):
        if self.kind == "flat":
            return "%s%s *%s%s" % ("const " if self.readonly else "", self.ty.cname,
                                   "__restrict " if self.restrict else "", self.name)
        return "%s%s %s%s" % ("const " if self.readonly else "", self.ty.cname, self.name,
                              "".join("[%d]" % d.const_value() for d in self.dims))

    def strides(self):
        out, s = [], Poly.const(1)
        for d in reversed(self.dims):
            out.append(s)
            s = s * d
        return list(reversed(out))

    def flat(self, idx):
        total = Poly()
        for e, s in zip(idx, self.strides()):
            total = total + e * s
        return total


class Access:
    def __init__(self, arr, idx):
        self.arr, self.idx = arr, [Poly.of(e) for e in idx]

    def to_c(self):
        if self.arr.kind == "flat":
            return "%s[%s]" % (self.arr.name, self.arr.flat(self.idx).to_c())
        return self.arr.name + "".join("[%s]" % e.to_c() for e in self.idx)

    def flat_py(self):
        return self.arr.flat(self.idx).to_py()

    def names(self):
        out = set()
        for e in self.idx:
            out |= e.names()
        return out


# --------------------------------------------------------------------------
# Value expressions and conditions


class Const:
    def __init__(self, v):
        self.v = v


class Load:
    def __init__(self, acc):
        self.acc = acc


class ScalarRd:
    def __init__(self, name, ty):
        self.name, self.ty = name, ty


class IVal:
    """An integer expression of loop variables used as a value."""

    def __init__(self, poly):
        self.poly = Poly.of(poly)


class Bin:
    def __init__(self, op, a, b):
        self.op, self.a, self.b = op, a, b


class Sel:
    def __init__(self, cond, a, b):
        self.cond, self.a, self.b = cond, a, b


class CondP:
    """Comparison of two integer polynomials (loop variables, sizes)."""

    def __init__(self, op, a, b):
        self.op, self.a, self.b = op, Poly.of(a), Poly.of(b)


class CondMod:
    def __init__(self, p, m, r):
        self.p, self.m, self.r = Poly.of(p), m, r


class CondV:
    """Comparison of two values (may read memory)."""

    def __init__(self, op, a, b):
        self.op, self.a, self.b = op, a, b


class CondAnd:
    def __init__(self, a, b):
        self.a, self.b = a, b


def expr_type(e, ctx):
    """The C++ type of a value expression; ctx is the statement's type (for
    literals and IVal casts)."""
    if isinstance(e, Const) or isinstance(e, IVal):
        return ctx
    if isinstance(e, Load):
        return e.acc.arr.ty
    if isinstance(e, ScalarRd):
        return e.ty
    if isinstance(e, Bin):
        return arith_type(expr_type(e.a, ctx), expr_type(e.b, ctx))
    if isinstance(e, Sel):
        return arith_type(expr_type(e.a, ctx), expr_type(e.b, ctx))
    raise TypeError(e)


def expr_c(e, ctx):
    if isinstance(e, Const):
        return ctx.lit(e.v)
    if isinstance(e, Load):
        return e.acc.to_c()
    if isinstance(e, ScalarRd):
        return e.name
    if isinstance(e, IVal):
        return "(%s)(%s)" % (ctx.cname, e.poly.to_c())
    if isinstance(e, Bin):
        return "(%s %s %s)" % (expr_c(e.a, ctx), e.op, expr_c(e.b, ctx))
    if isinstance(e, Sel):
        return "(%s ? %s : %s)" % (cond_c(e.cond, ctx), expr_c(e.a, ctx), expr_c(e.b, ctx))
    raise TypeError(e)


def cond_c(c, ctx):
    if isinstance(c, CondP):
        return "%s %s %s" % (c.a.to_c(), c.op, c.b.to_c())
    if isinstance(c, CondMod):
        return "(%s) %% %d == %d" % (c.p.to_c(), c.m, c.r)
    if isinstance(c, CondV):
        return "%s %s %s" % (expr_c(c.a, ctx), c.op, expr_c(c.b, ctx))
    if isinstance(c, CondAnd):
        return "(%s) && (%s)" % (cond_c(c.a, ctx), cond_c(c.b, ctx))
    raise TypeError(c)


def expr_loads(e):
    if isinstance(e, Load):
        return [e.acc]
    if isinstance(e, Bin):
        return expr_loads(e.a) + expr_loads(e.b)
    if isinstance(e, Sel):
        return cond_loads(e.cond) + expr_loads(e.a) + expr_loads(e.b)
    return []


def cond_loads(c):
    if isinstance(c, CondV):
        return expr_loads(c.a) + expr_loads(c.b)
    if isinstance(c, CondAnd):
        return cond_loads(c.a) + cond_loads(c.b)
    return []


def map_expr(e, fp):
    """e with every integer polynomial p in it (indices, IVal, conditions)
    replaced by fp(p)."""
    if isinstance(e, Load):
        return Load(Access(e.acc.arr, [fp(p) for p in e.acc.idx]))
    if isinstance(e, IVal):
        return IVal(fp(e.poly))
    if isinstance(e, Bin):
        return Bin(e.op, map_expr(e.a, fp), map_expr(e.b, fp))
    if isinstance(e, Sel):
        return Sel(map_cond(e.cond, fp), map_expr(e.a, fp), map_expr(e.b, fp))
    return e


def map_cond(c, fp):
    if isinstance(c, CondP):
        return CondP(c.op, fp(c.a), fp(c.b))
    if isinstance(c, CondMod):
        return CondMod(fp(c.p), c.m, c.r)
    if isinstance(c, CondV):
        return CondV(c.op, map_expr(c.a, fp), map_expr(c.b, fp))
    if isinstance(c, CondAnd):
        return CondAnd(map_cond(c.a, fp), map_cond(c.b, fp))
    return c


def map_body(body, fp):
    """A copy of a statement list with fp applied to every polynomial
    (loop bounds included)."""
    out = []
    for n in body:
        if isinstance(n, Loop):
            out.append(Loop(n.var, n.lo, fp(n.hi), map_body(n.body, fp),
                            fp(n.tri) if n.tri is not None else None))
        elif isinstance(n, If):
            out.append(If(map_cond(n.cond, fp), map_body(n.body, fp)))
        elif isinstance(n, Assign):
            lhs = n.lhs if isinstance(n.lhs, str) else Access(n.lhs.arr, [fp(p) for p in n.lhs.idx])
            out.append(Assign(n.sid, lhs, n.op, map_expr(n.rhs, fp), n.ty))
        elif isinstance(n, DeclScalar):
            out.append(DeclScalar(n.sid, n.name, n.ty, map_expr(n.init, fp)))
        else:
            out.append(n)
    return out


# --------------------------------------------------------------------------
# Statements


class Assign:
    """lhs: Access or a scalar name (str); op: '=', '+=', '-=', '*='."""

    def __init__(self, sid, lhs, op, rhs, ty):
        self.sid, self.lhs, self.op, self.rhs, self.ty = sid, lhs, op, rhs, ty

    def lhs_c(self):
        return self.lhs if isinstance(self.lhs, str) else self.lhs.to_c()


class DeclScalar:
    def __init__(self, sid, name, ty, init):
        self.sid, self.name, self.ty, self.init = sid, name, ty, init


class DeclArray:
    def __init__(self, arr):
        self.arr = arr


class If:
    def __init__(self, cond, body):
        self.cond, self.body = cond, body


class Loop:
    """`for (var = lo; var < hi; ++var)`; with tri (a Poly of the enclosing
    loops' variables, cases.triangular_bounds) the bound is min(hi, tri),
    written `var < (hi < tri ? hi : tri)`: a triangular loop (`j <= i` where
    tri = i + 1) that stays inside hi, so hi is its hull (extent() and every
    size computed from hi cover it)."""

    def __init__(self, var, lo, hi, body, tri=None):
        self.var, self.lo, self.hi, self.body = var, lo, Poly.of(hi), body
        self.tri = Poly.of(tri) if tri is not None else None

    def extent(self):
        return self.hi - self.lo

    def hi_c(self):
        if self.tri is None:
            return self.hi.to_c()
        h, t = self.hi.to_c(), self.tri.to_c()
        return "(%s < %s ? %s : %s)" % (h, t, h, t)

    def hi_py(self):
        if self.tri is None:
            return self.hi.to_py()
        return "min(%s, %s)" % (self.hi.to_py(), self.tri.to_py())


class Nest:
    def __init__(self, name, params, arrays, body, family=""):
        self.name = name
        self.params = params  # int size parameters, in order
        self.arrays = arrays  # parameter arrays, in order
        self.body = body  # [Loop]
        self.family = family
        self.configs = []  # [{param: value}]
        self.alloc = {}  # flat array name -> elements to allocate (max over configs)

    # ---- traversal helpers
    def walk(self, fn, body=None, loops=()):
        """Calls fn(node, enclosing loops) for every statement-level node."""
        for n in self.body if body is None else body:
            fn(n, loops)
            if isinstance(n, Loop):
                self.walk(fn, n.body, loops + (n,))
            elif isinstance(n, If):
                self.walk(fn, n.body, loops)

    def loops(self):
        out = []
        self.walk(lambda n, _: out.append(n) if isinstance(n, Loop) else None)
        return out

    def statements(self):
        """(statement, enclosing loops) for Assign and DeclScalar."""
        out = []
        self.walk(lambda n, ls: out.append((n, ls))
                  if isinstance(n, (Assign, DeclScalar)) else None)
        return out

    def local_arrays(self):
        out = []
        self.walk(lambda n, _: out.append(n.arr) if isinstance(n, DeclArray) else None)
        return out

    def all_arrays(self):
        return self.arrays + self.local_arrays()

    def accesses_of(self, name):
        """(statement, access, is_write) of array `name` (guards excluded)."""
        out = []
        for s, _ in self.statements():
            if isinstance(s, Assign):
                if not isinstance(s.lhs, str) and s.lhs.arr.name == name:
                    out.append((s, s.lhs, True))
                for a in expr_loads(s.rhs):
                    if a.arr.name == name:
                        out.append((s, a, False))
            else:
                for a in expr_loads(s.init):
                    if a.arr.name == name:
                        out.append((s, a, False))
        return out

    # ---- C++
    # ---- C89 style (self.c89, drawn by cases.c89_style): with "scalars",
    # each scalar the nest declares once (`float acc = 0;`) is declared at
    # the top of the function instead (`float acc;`) and assigned where the
    # nest declared it (`acc = 0;`): a temporary the plugin must privatise.
    def c89_scalars(self):
        """{name: C type} of the scalars declared at the top."""
        style = getattr(self, "c89", None)
        if not style or not style.get("scalars"):
            return {}
        seen = {}

        def visit(body):
            for n in body:
                if isinstance(n, DeclScalar):
                    seen.setdefault(n.name, []).append(n.ty.cname)
                elif isinstance(n, (Loop, If)):
                    visit(n.body)
        visit(self.body)
        return {k: v[0] for k, v in seen.items() if len(v) == 1}

    # Every loop counter
    # declared before the nest (initialised to -7, or not at all), `i = lo`
    # in each loop, and the counters read after the nest into fz_ctr, whose
    # values the plain and the plugin build must agree on. An uninitialised
    # counter is read only where C defines its value: its loop is under no
    # `if` and the loops around its first loop ran.
    def c89_counters(self):
        """[(var, condition C text or None: always)] in first-loop order;
        the counters read after the nest."""
        style = getattr(self, "c89", None)
        if not style:
            return []
        first, guarded, in_tri = {}, set(), set()

        def visit(body, loops, under_if):
            for n in body:
                if isinstance(n, Loop):
                    if under_if:
                        guarded.add(n.var)
                    # Inside a triangular loop, which of its iterations ran
                    # a counter last is not a condition on the sizes (the
                    # plugin falls back on such a read): not read.
                    if any(l.tri is not None for l in loops):
                        in_tri.add(n.var)
                    if n.var not in first:
                        first[n.var] = loops
                    visit(n.body, loops + (n,), under_if)
                elif isinstance(n, If):
                    visit(n.body, loops, True)
        visit(self.body, (), False)
        out = []
        for var, loops in first.items():
            if var in in_tri:
                continue
            if style["init"]:
                out.append((var, None))
            elif var not in guarded:
                conds = ["(%s) > %d" % (l.hi.to_c(), l.lo) for l in loops]
                out.append((var, " && ".join(conds) if conds else None))
        return out

    def to_c(self, pragmas):
        """The function; returns (lines, index of the `for` line, index of
        the first pragma line)."""
        style = getattr(self, "c89", None)
        args = [a.param_c() for a in self.arrays] + ["int %s" % p for p in self.params]
        if style:
            args.append("long *fz_ctr")
        lines = ["static void %s(%s) {" % (self.name, ", ".join(args))]
        if style:
            names = []
            for l in self.loops():
                if l.var not in names:
                    names.append(l.var)
            init = " = -7" if style["init"] else ""
            lines.append("  int %s;" % ", ".join(v + init for v in names))
            for name, cname in self.c89_scalars().items():
                lines.append("  %s %s;" % (cname, name))
        first_pragma = len(lines)
        for p in pragmas:
            lines.append("#pragma sched " + p)
        for_line = len(lines)
        self._emit(self.body, 1, lines)
        for k, (var, cond) in enumerate(self.c89_counters()):
            store = "fz_ctr[%d] = %s;" % (k, var)
            if cond:
                lines.append("  if (%s)" % cond)
                lines.append("    " + store)
            else:
                lines.append("  " + store)
        lines.append("}")
        return lines, for_line, first_pragma

    def _emit(self, body, ind, out):
        pad = "  " * ind
        style = getattr(self, "c89", None)
        for n in body:
            if isinstance(n, Loop):
                if style:
                    inc = ("%s++" if style["post"] else "++%s") % n.var
                    out.append("%sfor (%s = %d; %s < %s; %s) {" % (
                        pad, n.var, n.lo, n.var, n.hi_c(), inc))
                else:
                    out.append("%sfor (int %s = %d; %s < %s; ++%s) {" % (
                        pad, n.var, n.lo, n.var, n.hi_c(), n.var))
                self._emit(n.body, ind + 1, out)
                out.append(pad + "}")
            elif isinstance(n, If):
                out.append("%sif (%s) {" % (pad, cond_c(n.cond, TYPES["int"])))
                self._emit(n.body, ind + 1, out)
                out.append(pad + "}")
            elif isinstance(n, Assign):
                out.append("%s%s %s %s;" % (pad, n.lhs_c(), n.op, expr_c(n.rhs, n.ty)))
            elif isinstance(n, DeclScalar):
                if n.name in self.c89_scalars():
                    out.append("%s%s = %s;" % (pad, n.name, expr_c(n.init, n.ty)))
                else:
                    out.append("%s%s %s = %s;" % (pad, n.ty.cname, n.name,
                                                  expr_c(n.init, n.ty)))
            elif isinstance(n, DeclArray):
                out.append("%s%s %s%s;" % (pad, n.arr.ty.cname, n.arr.name,
                                           "".join("[%d]" % d.const_value() for d in n.arr.dims)))
            else:
                raise TypeError(n)

    # ---- reference interpreter
    def compile_py(self, general=False):
        """Python source of `run(P, M, T)`: P sizes, M memory (name -> dict
        flat index -> value), T the tracer (see Trace). general: every `if`
        whose condition reads memory is taken (the instances any data could
        run), for the legality checks at sizes that are not run (see
        GeneralTrace)."""
        g = _PyGen(self, general)
        return g.source()


def fill_value(salt, idx):
    """The deterministic small integer the C++ program stores in element idx
    of an array with this salt (fz_fill in the program prelude)."""
    x = (idx * 2654435761 + salt * 40503 + 12345) & 0xFFFFFFFF
    x ^= x >> 13
    x = (x * 0x5BD1E995) & 0xFFFFFFFF
    x ^= x >> 15
    return (x % 7) - 3


class Memory(dict):
    """An array's elements: unwritten ones hold the fill pattern."""

    def __init__(self, salt):
        super().__init__()
        self.salt = salt

    def __missing__(self, k):
        if self.salt is None:
            raise Overflow("read of an uninitialized local element %d" % k)
        v = fill_value(self.salt, k)
        self[k] = v
        return v


class _PyGen:
    """Generates the reference interpreter of a nest."""

    def __init__(self, nest, general=False):
        self.nest = nest
        self.general = general
        self.lines = []
        self.tmp = 0

    def fresh(self):
        self.tmp += 1
        return "_t%d" % self.tmp

    def source(self):
        n = self.nest
        L = self.lines
        L.append("def run(_P, _M, _T):")
        for p in n.params:
            L.append("    %s = _P[%r]" % (p, p))
        for a in n.arrays:
            L.append("    %s = _M[%r]" % (a.name, a.name))
        L.append("    _inst = _T.inst")
        L.append("    _deck = ()")
        self.body(n.body, 1, [], {})
        L.append("    return")
        return "\n".join(L)

    def body(self, body, ind, loops, scalars):
        pad = "    " * ind
        scalars = dict(scalars)
        for node in body:
            if isinstance(node, Loop):
                self.lines.append("%sfor %s in range(%d, %s):" % (pad, node.var, node.lo,
                                                                   node.hi_py()))
                self.body(node.body, ind + 1, loops + [node.var], scalars)
                self.lines.append("%s    pass" % pad)
            elif isinstance(node, If):
                c = self.cond(node.cond, [], pad, guard=True)
                self.lines.append("%sif %s:" % (pad, c))
                self.body(node.body, ind + 1, loops, scalars)
                self.lines.append("%s    pass" % pad)
            elif isinstance(node, DeclArray):
                # A fresh array per execution of the declaration.
                key = "(%r, (%s))" % (node.arr.name, "".join(v + ", " for v in loops))
                self.lines.append("%s%s = _T.local(%s)" % (pad, node.arr.name, key))
                self.lines.append("%s_key_%s = %s" % (pad, node.arr.name, key))
            elif isinstance(node, DeclScalar):
                key = "(%r, (%s))" % (node.name, "".join(v + ", " for v in loops))
                self.lines.append("%s_key_%s = %s" % (pad, node.name, key))
                reads = []
                v = self.expr(node.init, node.ty, reads, pad)
                if not self.general:  # (values do not matter there)
                    self.lines.append("%s%s = _T.store(%s, %r)" % (pad, node.name, v,
                                                                    node.ty.name))
                scalars[node.name] = node.ty
                self.emit_inst(pad, node.sid, loops, reads, "_key_%s" % node.name, "W")
            elif isinstance(node, Assign):
                self.assign(node, pad, loops)
            else:
                raise TypeError(node)

    def loc(self, acc):
        """Python expression of the location key of an access, and the
        expression of its flat index."""
        arr = acc.arr
        idx = acc.flat_py()
        if arr.kind == "local":
            return "(_key_%s, %s)" % (arr.name, idx), idx
        if arr.kind == "fixed" and self.general:
            # Its declared dimensions hold the run sizes only: at larger
            # sizes an element is its tuple of indices, as if each dimension
            # grew with them (the plugin assumes indices within bounds).
            idx = "(%s,)" % ", ".join(e.to_py() for e in acc.idx)
        return "(%r, %s)" % (arr.name, idx), idx

    def assign(self, node, pad, loops):
        reads = []
        v = self.expr(node.rhs, node.ty, reads, pad)
        if isinstance(node.lhs, str):
            key = "_key_%s" % node.lhs
            cur = node.lhs
            target = node.lhs
        else:
            key, idx = self.loc(node.lhs)
            ktmp = self.fresh()
            self.lines.append("%s%s = %s" % (pad, ktmp, key))
            key = ktmp
            arr = node.lhs.arr
            # bounds for the allocation
            if not self.general:
                self.lines.append("%s_T.touch(%r, %s[1])" % (pad, arr.name, key))
            cur = "%s[%s[1]]" % (arr.name, key)
            target = cur
        if node.op == "=":
            if not self.general:
                self.lines.append("%s%s = _T.store(%s, %r)" % (pad, target, v, node.ty.name))
            kind = "W"
        else:
            op = node.op[0]
            ty = node.ty
            if not self.general:
                self.lines.append("%s%s = _T.store(_T.chk(%s %s %s, %r), %r)" % (
                    pad, target, cur, op, v, ty.name if ty.is_float else "int", ty.name))
            kind = "U" if op in "+-" else "X"
        self.emit_inst(pad, node.sid, loops, reads, key, kind)

    def emit_inst(self, pad, sid, loops, reads, wkey, wkind):
        rlist = "(%s)" % "".join(r + ", " for r in reads)
        self.lines.append("%s_inst((%d, (%s), %s, %s, %r))" % (
            pad, sid, "".join(v + ", " for v in loops), rlist, wkey, wkind))

    def expr(self, e, ctx, reads, pad):
        if isinstance(e, Const):
            return str(e.v)
        if isinstance(e, IVal):
            return "_T.chk(%s, %r)" % (e.poly.to_py(), ctx.name if ctx.is_float else "int")
        if isinstance(e, ScalarRd):
            reads.append("_key_%s" % e.name)
            return e.name
        if isinstance(e, Load):
            # Loads are hoisted into temporaries so the trace sees each once.
            key, _ = self.loc(e.acc)
            t = self.fresh()
            self.lines.append("%s%sk = %s" % (pad, t, key))
            if not self.general:
                if e.acc.arr.kind != "local":
                    self.lines.append("%s_T.touch(%r, %sk[1])" % (pad, e.acc.arr.name, t))
                self.lines.append("%s%s = %s[%sk[1]]" % (pad, t, e.acc.arr.name, t))
            reads.append(t + "k")
            return t
        if isinstance(e, Bin):
            a = self.expr(e.a, ctx, reads, pad)
            b = self.expr(e.b, ctx, reads, pad)
            ty = arith_type(expr_type(e.a, ctx), expr_type(e.b, ctx))
            return "_T.chk(%s %s %s, %r)" % (a, e.op, b, ty.name if ty.is_float else "int")
        if isinstance(e, Sel):
            # Both arms are evaluated up front: the C++ ?: reads only one, but
            # the extra reads are of valid elements and only make the
            # dependence set larger (conservative).
            c = self.cond(e.cond, reads, pad)
            a = self.expr(e.a, ctx, reads, pad)
            b = self.expr(e.b, ctx, reads, pad)
            return "(%s if %s else %s)" % (a, c, b)
        raise TypeError(e)

    def cond(self, c, reads, pad, guard=False):
        if guard and self.general and isinstance(c, CondV):
            return "True"
        if isinstance(c, CondP):
            return "(%s %s %s)" % (c.a.to_py(), c.op, c.b.to_py())
        if isinstance(c, CondMod):
            return "((%s) %% %d == %d)" % (c.p.to_py(), c.m, c.r)
        if isinstance(c, CondV):
            return "(%s %s %s)" % (self.expr(c.a, TYPES["int"], reads, pad), c.op,
                                   self.expr(c.b, TYPES["int"], reads, pad))
        if isinstance(c, CondAnd):
            # Evaluated eagerly (both sides), like Sel above.
            a = self.cond(c.a, reads, pad, guard)
            b = self.cond(c.b, reads, pad, guard)
            return "(%s and %s)" % (a, b)
        raise TypeError(c)


class Trace:
    """What the reference run records: statement instances in execution
    order and, per memory location, the sequence of (instance, kind) with
    kind R (read), W (write), U (additive update: += / -=, commutes with
    other U), X (read-modify-write that does not commute)."""

    def __init__(self):
        # (sid, ivec, reads, written location, kind) per instance, in order:
        # the run only appends (it is the hot path), index() sorts it out
        self.records = []
        self.inst = self.records.append
        self.maxidx = {}
        self.locals = {}
        self._index = None

    def index(self):
        """(sids, ivecs, locs): per instance its statement and loop values,
        per location its sequence of (instance, kind)."""
        if self._index is None:
            sids, ivecs, locs = [], [], {}
            for n, (sid, ivec, reads, wkey, wkind) in enumerate(self.records):
                sids.append(sid)
                ivecs.append(ivec)
                for r in (set(reads) if len(reads) > 1 else reads):
                    if r != wkey:
                        seq = locs.get(r)
                        if seq is None:
                            locs[r] = [(n, "R")]
                        else:
                            seq.append((n, "R"))
                # An update whose value reads its own target (C += C + x)
                # does not commute with another update of it.
                if wkey in reads:
                    wkind = "X"
                seq = locs.get(wkey)
                if seq is None:
                    locs[wkey] = [(n, wkind)]
                else:
                    seq.append((n, wkind))
            self._index = (sids, ivecs, locs)
        return self._index

    @property
    def sids(self):
        return self.index()[0]

    @property
    def ivecs(self):
        return self.index()[1]

    @property
    def locs(self):
        return self.index()[2]

    def touch(self, name, idx):
        if idx < 0:
            raise Overflow("negative index %d of %s" % (idx, name))
        if idx > self.maxidx.get(name, -1):
            self.maxidx[name] = idx

    def local(self, key):
        m = Memory(None)
        self.locals[key] = m
        return m

    @staticmethod
    def chk(v, tyname):
        ty = TYPES[tyname]
        if not ty.lo <= v <= ty.hi:
            raise Overflow("value %d overflows %s" % (v, tyname))
        return v

    @staticmethod
    def store(v, tyname):
        ty = TYPES[tyname]
        if not ty.lo <= v <= ty.hi:
            raise Overflow("stored value %d overflows %s" % (v, tyname))
        return v


class GeneralTrace(Trace):
    """The trace of a run whose values do not matter (sizes that are only
    checked, never run, with nest.compile_py(general=True)): no value is
    computed at all, only the accesses count; elements of fixed-size arrays
    are index tuples."""

    def local(self, key):
        return None


def run_reference(nest, config, compiled=None, general=False):
    """Runs the nest for one configuration; returns the Trace and memory.
    general: a GeneralTrace of compile_py(general=True)."""
    src = compiled or nest.compile_py(general)
    scope = {}
    exec(src, scope)
    mem = {a.name: None if general else Memory(a.salt) for a in nest.arrays}
    tr = GeneralTrace() if general else Trace()
    scope["run"](config, mem, tr)
    return tr, mem
