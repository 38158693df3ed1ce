"""The schedule oracle: what a `#pragma sched` schedule does to a nest, and
whether it is legal.

A Model is the loop tree of one nest as the schedule transforms it, built by
applying the directives in order exactly as docs/pragma.md defines them
(split, fuse, reorder with loop distribution, bind, cache stages, ...). Each
loop knows its value as a function of the ORIGINAL loop variables
(split: x -> x // F, x % F; fuse: f = a * Eb + b), so every statement
instance of the original nest has a position in the new tree: the tuple
(child index, loop value, child index, loop value, ...) along its path,
compared lexicographically.

Legality (check_legal): for every dependence of the original nest, found by
running the reference (nest.Trace: same location, one a write), the source
instance must still come first, and the first point where the two positions
differ must not be the value of a parallel loop (bound to blockIdx,
threadIdx, vthread or cthread, or vectorized): different iterations of such a
loop are unordered. Additive updates of one location (+=, -=) commute with
each other, so only the parallel rule applies among them. Documented
structural rules (one tag per path, blocks outermost, constant stage
regions, ...) are checked while directives are applied: a ModelError means
the generator must not emit that directive. `bind` is the plugin's: it binds
the copies reorder's distribution made of the loop (and copies of those),
leaves a loop already bound to the tag alone, and never binds a reduction
loop (the extractor's flag); rules that depend on binds are checked again
once every bind is made (check_structure).
"""
from .poly import Poly
from . import nest as N

BLOCK_TAGS = ("blockIdx.x", "blockIdx.y", "blockIdx.z")
THREAD_TAGS = ("threadIdx.x", "threadIdx.y", "threadIdx.z")
VIRTUAL_TAGS = ("vthread", "cthread")
THREAD_LIMIT = {"threadIdx.x": 1024, "threadIdx.y": 1024, "threadIdx.z": 64}
MAX_STAGE_ELEMS = 4096


class ModelError(Exception):
    """The directive is not legal by the documented rules (or the model
    cannot tell): the generator must not use it."""


# --------------------------------------------------------------------------
# Extents: Poly over size parameters, ceil-divisions and products


class Ext:
    def __init__(self, kind, a, b=None):
        self.kind, self.a, self.b = kind, a, b  # 'poly' | 'ceil' (a, int) | 'mul'

    @staticmethod
    def poly(p):
        return Ext("poly", Poly.of(p))

    @staticmethod
    def const(c):
        return Ext("poly", Poly.const(c))

    def ceil(self, d):
        if self.is_const():
            return Ext.const(-(-self.value() // d))
        return Ext("ceil", self, d)

    def mul(self, other):
        if self.is_const() and other.is_const():
            return Ext.const(self.value() * other.value())
        return Ext("mul", self, other)

    def is_const(self):
        if self.kind == "poly":
            return self.a.is_const()
        if self.kind == "ceil":
            return self.a.is_const()
        return self.a.is_const() and self.b.is_const()

    def value(self):
        assert self.is_const()
        return self.eval({})

    def eval(self, cfg):
        if self.kind == "poly":
            return self.a.eval(cfg)
        if self.kind == "ceil":
            return -(-self.a.eval(cfg) // self.b)
        return self.a.eval(cfg) * self.b.eval(cfg)

    def __repr__(self):
        if self.kind == "poly":
            return self.a.to_c()
        if self.kind == "ceil":
            return "ceil(%r/%d)" % (self.a, self.b)
        return "(%r*%r)" % (self.a, self.b)


# --------------------------------------------------------------------------
# Loop values as functions of the original loop variables


class Val:
    """('var', name, lo) | ('div', Val, Ext) | ('mod', Val, Ext) |
    ('fuse', Val a, Val b, Ext extent_b) | ('stage',) (a stage loop: no
    original statement lies inside it)."""

    def __init__(self, kind, *args):
        self.kind, self.args = kind, args

    def py(self, cfg):
        k, a = self.kind, self.args
        if k == "var":
            return "(%s-%d)" % (a[0], a[1]) if a[1] else a[0]
        if k == "div":
            return "(%s//%d)" % (a[0].py(cfg), max(1, a[1].eval(cfg)))
        if k == "mod":
            return "(%s%%%d)" % (a[0].py(cfg), max(1, a[1].eval(cfg)))
        if k == "fuse":
            return "(%s*%d+%s)" % (a[0].py(cfg), a[2].eval(cfg), a[1].py(cfg))
        raise ModelError("stage loop value")

    def orig_vars(self):
        k, a = self.kind, self.args
        if k == "var":
            return {a[0]}
        if k in ("div", "mod"):
            return a[0].orig_vars()
        if k == "fuse":
            return a[0].orig_vars() | a[1].orig_vars()
        return set()


class MLoop:
    def __init__(self, name, val, ext, children, red=False):
        self.name, self.val, self.ext = name, val, ext
        self.children = children
        self.kind = "serial"  # serial | bound | unroll | vector
        self.tag = None
        self.red = red  # the plugin's reduction flag (inherited by splits)
        # A reduction loop bound to threadIdx: its iterations' commuting
        # updates are combined across the block (issue 23), not raced.
        self.combine = False
        self.stage = None  # name of the stage whose copy loop this is
        # The loops reorder's distribution made of this one (and of those):
        # bind binds them with it.
        self.copies = []
        # Its bounds use an enclosing loop's variable (a triangular loop,
        # nest.Loop.tri), as do the loops split from it: the plugin does not
        # fuse such a loop.
        self.tri = False

    def parallel(self):
        return self.kind in ("bound", "vector")


class MGroup:
    """A transparent grouping node: an `if` of the original nest, or the
    scope of a declaration (kind 'alloc', name)."""

    def __init__(self, kind, children, name=None):
        self.kind, self.children, self.name = kind, children, name


class MStmt:
    """A leaf: an original statement (sid) or a stage's copy (stage)."""

    def __init__(self, sid=None, stage=None):
        self.sid, self.stage = sid, stage
        self.children = []


class Stage:
    def __init__(self, name, tensor, scope, is_write, rank):
        self.name, self.tensor, self.scope, self.is_write = name, tensor, scope, is_write
        self.rank = rank
        self.attach = None  # loop name after compute_at
        self.double = False
        self.aligned = False


def predicted_rank(nest, arr):
    """How many dimensions the extractor gives a parameter array: its
    declared rank for fixed arrays; for flat pointers, the length of the
    stride chain when every access splits cleanly (see
    clang-plugin/ExtractLayout.cpp), else 1. None when unsure."""
    if arr.kind != "flat":
        return len(arr.dims)
    accs = [a for _, a, _ in nest.accesses_of(arr.name)]
    loops = {l.var: l for l in nest.loops()}
    strides = set()
    for a in accs:
        flat = arr.flat(a.idx)
        for v in flat.names() & set(loops):
            c = flat.coef_of(v)
            if len(c.terms) != 1:
                return 1
            (mono, coef), = c.terms.items()
            strides.add((mono, abs(coef)))
    strides.add(((), 1))
    if len(strides) == 1:
        return 1
    # The chain must be the array's own strides, each index inside its dim.
    own = []
    for s in arr.strides():
        if len(s.terms) != 1:
            return None
        (mono, coef), = s.terms.items()
        own.append((mono, coef))
    # (two dimensions with one stride, a dimension of extent 1: the
    # extractor's chain is shorter than the declared rank)
    if set(own) != strides or len(set(own)) != len(own) or len(own) != len(arr.dims):
        return None
    for a in accs:
        for d in range(1, len(arr.dims)):
            e = a.idx[d]
            # index = one loop variable (min 0) whose extent is the dim
            names = e.names()
            if len(e.terms) != 1 or len(names) != 1:
                return None
            v = next(iter(names))
            if v not in loops or e.coef_of(v) != Poly.const(1):
                return None
            if loops[v].lo != 0 or loops[v].hi != arr.dims[d]:
                return None
        if any(v not in loops and v not in nest.params for v in a.idx[0].names()):
            return None
    return len(arr.dims)


def _is_self(e, lhs):
    """Whether expression e reads exactly the element lhs writes."""
    if isinstance(lhs, str):
        return isinstance(e, N.ScalarRd) and e.name == lhs
    return (isinstance(e, N.Load) and e.acc.arr is lhs.arr and
            [str(p) for p in e.acc.idx] == [str(p) for p in lhs.idx])


def _reads_name(e, name):
    """Whether expression or condition e reads scalar or array `name`."""
    if e is None:
        return False
    if isinstance(e, N.ScalarRd):
        return e.name == name
    if isinstance(e, N.Load):
        return e.acc.arr.name == name
    for attr in ("a", "b", "cond"):
        sub = getattr(e, attr, None)
        if sub is not None and not isinstance(sub, (str, int, float)) and _reads_name(sub, name):
            return True
    return False


def _reads_scalar(e, name):
    if isinstance(e, N.ScalarRd):
        return e.name == name
    if isinstance(e, N.Bin):
        return _reads_scalar(e.a, name) or _reads_scalar(e.b, name)
    if isinstance(e, N.Sel):
        return _reads_scalar(e.a, name) or _reads_scalar(e.b, name)
    return False


class Model:
    def __init__(self, nest, directives=()):
        self.nest = nest
        self.names = {p for p in nest.params} | {a.name for a in nest.all_arrays()}
        self.stages = {}
        self.cached = set()  # tensors a stage already took over
        self.sid_info = {}
        # Loops bound to a thread anywhere in the schedule (compute_at of a
        # shared stage relaxes them even before their bind), as the plugin's
        # pre-scan does.
        self.thread_bound_later = set()
        self.any_bind = False
        self.partial_reorder = False
        self.atomic = set()  # arrays atomic(C) named
        self.made_shared = set()  # arrays set_scope made shared
        self.pipelined = set()  # loops pipeline(x, stages=S) marked
        for d in directives:
            if d[0] == "bind":
                self.any_bind = True
                if d[2] in THREAD_TAGS or d[2] in VIRTUAL_TAGS:
                    self.thread_bound_later.add(d[1])
        self.root = self._build(nest.body, [])

    # ---- construction from the nest
    def _build(self, body, loops):
        out = []
        i = 0
        while i < len(body):
            n = body[i]
            if isinstance(n, N.Loop):
                self.names.add(n.var)
                red = self._is_reduction(n)
                out.append(MLoop(n.var, Val("var", n.var, n.lo), Ext.poly(n.extent()),
                                 self._build(n.body, loops + [n]), red))
                tri = getattr(n, "tri", None)
                out[-1].tri = tri is not None and bool(tri.names())
            elif isinstance(n, N.If):
                out.append(MGroup("if", self._build(n.body, loops)))
                out[-1].cond = n.cond
            elif isinstance(n, (N.DeclScalar, N.DeclArray)):
                # A declaration scopes the rest of its block, like the
                # plugin's allocate node.
                name = n.name if isinstance(n, N.DeclScalar) else n.arr.name
                self.names.add(name)
                rest = []
                if isinstance(n, N.DeclScalar):
                    rest.append(MStmt(n.sid))
                    self.sid_info[n.sid] = (n, tuple(l.var for l in loops))
                rest += self._build(body[i + 1:], loops)
                out.append(MGroup("alloc", rest, name))
                return out
            elif isinstance(n, N.Assign):
                out.append(MStmt(n.sid))
                self.sid_info[n.sid] = (n, tuple(l.var for l in loops))
            i += 1
        return out

    def _is_reduction(self, loop):
        """The plugin's reduction flag (clang-plugin/Extractor.cpp,
        ReductionFinder): the body stores to an element whose index does not
        use the loop, of an array not declared inside it, with a value that
        reads that element (`C[i] += ..`, `acc *= ..`, `C[i] = C[i] + ..`)."""
        private = set()

        def reads_target(n):
            if n.op != "=":
                return True
            if isinstance(n.lhs, str):
                return _reads_scalar(n.rhs, n.lhs)
            return any(a.arr is n.lhs.arr and a.idx == n.lhs.idx for a in N.expr_loads(n.rhs))

        def visit(body):
            for n in body:
                if isinstance(n, (N.DeclScalar, N.DeclArray)):
                    private.add(n.name if isinstance(n, N.DeclScalar) else n.arr.name)
                if isinstance(n, (N.Loop, N.If)):
                    if visit(n.body):
                        return True
                if isinstance(n, N.Assign) and reads_target(n):
                    if isinstance(n.lhs, str):
                        if n.lhs not in private:
                            return True
                    elif n.lhs.arr.name not in private and loop.var not in n.lhs.names():
                        return True
            return False

        return visit(loop.body)

    def _reduction_targets(self, M, for_blocks=False):
        """(None, targets) when reduction loop M may be bound to threads as a
        cross-thread reduction (ir/Reduction.h, reductionUpdatesOf), else
        why not: a constant extent from 0 (threads only: a loop bound to
        blocks keeps its partial in one local, whatever its extent and start,
        schedule/Bind.cpp); everything M writes outside itself
        is `X op= e` / `X = X op e` (op + - or *, e not reading X) of one
        element per array, whose index uses no loop from M inward; X read
        nowhere else in M (conditions included); no stage inside M."""
        if M.tri:
            # (a triangular loop's extent depends on another loop)
            return "run-time extent", {}
        if not for_blocks and not M.ext.is_const():
            return "run-time extent", {}
        if not for_blocks and M.val.kind == "var" and M.val.args[1]:
            return ("does not start at 0"), {}
        inner_vars = set(M.val.orig_vars())
        private, stmts, conds = set(), [], []

        def walk(nodes):
            for n in nodes:
                if isinstance(n, MLoop):
                    if n.stage is not None:
                        return False
                    inner_vars.update(n.val.orig_vars())
                elif isinstance(n, MGroup):
                    if n.kind == "alloc":
                        private.add(n.name)
                    if n.kind == "if":
                        conds.append(n.cond)
                elif isinstance(n, MStmt):
                    if n.sid is None:
                        return False
                    stmts.append(self.sid_info[n.sid][0])
                if not walk(n.children):
                    return False
            return True

        if not walk(M.children):
            return ("a stage inside it"), {}
        targets = {}  # name -> (index key, op class)
        for n in stmts:
            if not isinstance(n, N.Assign):
                continue
            name = n.lhs if isinstance(n.lhs, str) else n.lhs.arr.name
            if name in private:
                continue
            idx = () if isinstance(n.lhs, str) else tuple(str(p) for p in n.lhs.idx)
            used = set() if isinstance(n.lhs, str) else set().union(
                *[set(p.names()) for p in n.lhs.idx])
            if used & inner_vars:
                return ("the element of %s moves with the loop" % name), {}
            op = {"+=": "+", "-=": "+", "*=": "*"}.get(n.op)
            rest = n.rhs
            if n.op == "=":
                b = n.rhs
                if isinstance(b, N.Bin) and b.op in ("+", "*") and _is_self(b.a, n.lhs):
                    op, rest = b.op, b.b
                elif isinstance(b, N.Bin) and b.op in ("+", "*") and _is_self(b.b, n.lhs):
                    op, rest = b.op, b.a
                elif isinstance(b, N.Bin) and b.op == "-" and _is_self(b.a, n.lhs):
                    op, rest = "+", b.b
                else:
                    return ("%s is assigned, not updated" % name), {}
            if op is None or _reads_name(rest, name):
                return ("%s is not a commutative update" % name), {}
            if targets.setdefault(name, (idx, op)) != (idx, op):
                return ("%s is updated at two elements or with two operations" % name), {}
        if not targets:
            return ("it writes nothing outside itself"), {}
        # A local that distribution expanded is indexed by the distributed
        # loop, which may lie inside M: the plugin then sees an element that
        # moves (refused, not modelled further).
        for g, _ in self.iter_nodes():
            if isinstance(g, MGroup) and getattr(g, "expanded", False) and g.name in targets:
                return ("%s was expanded by a distributed loop" % g.name), {}
        for n in stmts:
            reads, own = [], None
            if isinstance(n, N.Assign):
                reads = [n.rhs]
                own = n.lhs if isinstance(n.lhs, str) else n.lhs.arr.name
            elif isinstance(n, N.DeclScalar):
                reads = [n.init] if n.init is not None else []
            for e in reads:
                for name in targets:
                    # an update's own self-read is its update (the rest of
                    # it was checked above)
                    if name != own and _reads_name(e, name):
                        return ("%s is read besides its update" % name), {}
        for c in conds:
            for name in targets:
                if _reads_name(c, name):
                    return ("%s is read besides its update" % name), {}
        return None, targets

    # ---- tree helpers
    def iter_nodes(self, nodes=None, path=()):
        for n in self.root if nodes is None else nodes:
            yield n, path
            yield from self.iter_nodes(n.children, path + (n,))

    def loops(self):
        return [n for n, _ in self.iter_nodes() if isinstance(n, MLoop)]

    def find(self, name):
        found = [(n, p) for n, p in self.iter_nodes() if isinstance(n, MLoop) and n.name == name]
        if len(found) != 1:
            raise ModelError("no unique loop %s" % name)
        return found[0]

    def parent_list(self, node):
        if any(c is node for c in self.root):
            return self.root
        for n, _ in self.iter_nodes():
            if any(c is node for c in n.children):
                return n.children
        raise ModelError("lost node")

    def replace(self, node, new_nodes):
        lst = self.parent_list(node)
        k = next(i for i, c in enumerate(lst) if c is node)
        lst[k:k + 1] = new_nodes

    def fresh(self, name):
        if name in self.names:
            raise ModelError("name %s exists" % name)
        self.names.add(name)

    def leaves(self):
        return [(n, p) for n, p in self.iter_nodes() if isinstance(n, MStmt)]

    def in_tree(self, node):
        return any(n is node for n, _ in self.iter_nodes())

    def bound_later(self, L):
        """Whether L is bound to a thread or virtual tag by a bind of the
        schedule, now or later: by name, or as a copy of a loop bound so."""
        if L.name in self.thread_bound_later:
            return True
        return any(any(c is L for c in O.copies) for O in self.loops()
                   if O.name in self.thread_bound_later)

    def taken_names(self):
        """The names a new loop may not have now (the plugin's isFreshName):
        loops, declarations and stages in the nest, parameters."""
        names = set(self.nest.params) | {a.name for a in self.nest.arrays}
        for n, _ in self.iter_nodes():
            if isinstance(n, MLoop) or (isinstance(n, MGroup) and n.kind == "alloc"):
                names.add(n.name)
        return names

    # ---- directives
    def apply(self, d):
        getattr(self, "d_" + d[0])(*d[1:])

    def d_target(self, t):
        pass

    def d_rfactor(self, k, ki, r):
        # schedule/RFactor.cpp: the reduction k carries into one element,
        # factored by ki into partials R[ki] (loop R.init sets them, R.r
        # reduces them afterwards). ki's updates then go to elements of
        # their own, so its iterations' commuting updates are combined, not
        # raced ("rfactored", like a cross-thread reduction's loop).
        K, _ = self.find(k)
        KI, _ = self.find(ki)
        if K.kind != "serial" or not K.red:
            raise ModelError("rfactor of a loop that carries no reduction")
        if KI is not K and not any(n is KI for n, _ in self.iter_nodes(K.children)):
            raise ModelError("rfactor by a loop outside the reduction loop")
        if (KI.kind != "serial" or not KI.ext.is_const() or KI.tri or
                (KI.val.kind == "var" and KI.val.args[1])):
            raise ModelError("rfactor by a loop of no constant extent from 0")
        why, targets = self._reduction_targets(K)
        if why or len(targets) != 1:
            raise ModelError("rfactor: %s" % (why or "not one reduced element"))
        for name in (r, r + ".init", r + ".r"):
            self.fresh(name)
        KI.red = False
        KI.rfactored = True
        init = MLoop(r + ".init", Val("stage"), KI.ext, [MStmt(stage=r)])
        final = MLoop(r + ".r", Val("stage"), KI.ext, [MStmt(stage=r)], red=True)
        init.stage = final.stage = r
        final.rfactor_final = True
        self.replace(K, [MGroup("alloc", [init, K, final], r)])

    def d_atomic(self, c):
        # schedule/Atomic.cpp: a parameter array of the nest (global)
        arr = next((a for a in self.nest.arrays if a.name == c), None)
        if arr is None or arr.kind == "local":
            raise ModelError("atomic of no parameter array")
        self.atomic.add(c)

    def d_tensorcore(self, mode):
        # tensorcore(auto) changes how the kernel computes, never what: the
        # plugin either tensorizes the same computation or keeps it.
        pass

    def d_split(self, x, xo, xi, factor):
        L, _ = self.find(x)
        if L.kind != "serial":
            raise ModelError("split of a non-serial loop")
        self.fresh(xo)
        self.fresh(xi)
        if isinstance(factor, str) and factor.startswith("nparts="):
            p = int(factor[7:])
            outer_ext, inner_ext = Ext.const(p), L.ext.ceil(p)
        else:
            f = int(factor)
            outer_ext, inner_ext = L.ext.ceil(f), Ext.const(f)
        inner = MLoop(xi, Val("mod", L.val, inner_ext), inner_ext, L.children, L.red)
        outer = MLoop(xo, Val("div", L.val, inner_ext), outer_ext, [inner], L.red)
        inner.stage = outer.stage = L.stage
        inner.tri = outer.tri = L.tri
        self.replace(L, [outer])

    def d_tile(self, x, y, xo, yo, xi, yi, fx, fy):
        self.d_split(x, xo, xi, fx)
        self.d_split(y, yo, yi, fy)
        self.d_reorder(xo, yo, xi, yi)

    def d_fuse(self, a, b, f):
        A, _ = self.find(a)
        B, _ = self.find(b)
        if len(A.children) != 1 or A.children[0] is not B:
            raise ModelError("fuse: %s is not the only child of %s" % (b, a))
        if A.kind != "serial" or B.kind != "serial":
            raise ModelError("fuse of a non-serial loop")
        if A.red != B.red:
            raise ModelError("fuse of a reduction with a spatial loop")
        if A.tri or B.tri:
            raise ModelError("fuse of a loop whose bounds depend on another loop")
        self.fresh(f)
        F = MLoop(f, Val("fuse", A.val, B.val, B.ext), A.ext.mul(B.ext), B.children, A.red)
        F.stage = A.stage
        self.replace(A, [F])

    def d_bind(self, x, tag):
        # Binding a loop binds the copies reorder's distribution made of it
        # (pragma.md, Legality; schedule/Bind.cpp); a loop already bound to
        # the tag is left as it is, so naming a bound copy again with its tag
        # is a no-op and with another tag an error. A reduction loop is never
        # bindable, to any tag.
        L = self.find(x)[0]
        loops = [L] + [C for C in L.copies if self.in_tree(C)]
        loops = [M for k, M in enumerate(loops) if all(M is not P for P in loops[:k])]
        loops = [M for M in loops if not (M.kind == "bound" and M.tag == tag)]
        for M in loops:
            if M.kind != "serial":
                raise ModelError("bind of a non-serial loop")
            if M.red and getattr(M, "rfactor_final", False):
                # R.r { y = y op R[R.r] }: a cross-thread reduction of one
                # element, always legal on threads
                if tag not in THREAD_TAGS:
                    raise ModelError("bind of a reduction loop")
                continue
            if M.red:
                if tag not in THREAD_TAGS + BLOCK_TAGS or len(loops) > 1:
                    raise ModelError("bind of a reduction loop")
                why, targets = self._reduction_targets(M, for_blocks=tag in BLOCK_TAGS)
                if why:
                    raise ModelError("bind of a reduction loop: " + why)
                if tag in BLOCK_TAGS:
                    # schedule/Bind.cpp, checkAcrossBlocks: parameter arrays
                    # updated with + (the fuzzer's only operation with an
                    # atomic form), on int (exact in any order), float and
                    # double (atomically where atomic() names the array,
                    # else added up in block order by the last block)
                    for name, (_, op) in targets.items():
                        arr = next((a for a in self.nest.arrays if a.name == name), None)
                        if arr is None or arr.kind == "local":
                            raise ModelError("bind of a reduction loop to blocks: %s is local"
                                             % name)
                        if op != "+" or arr.ty.name not in ("int", "float", "double"):
                            raise ModelError("bind of a reduction loop to blocks: no atomic %s"
                                             % op)
        for M in loops:
            M.kind, M.tag = "bound", tag
            M.combine = M.red

    def d_unroll(self, x):
        L, _ = self.find(x)
        if L.kind != "serial":
            raise ModelError("unroll of a non-serial loop")
        L.kind = "unroll"

    def d_vectorize(self, x):
        L, _ = self.find(x)
        if L.kind != "serial" or not L.ext.is_const() or L.red:
            raise ModelError("vectorize needs a serial, constant, non-reduction loop")
        L.kind = "vector"

    # ---- reorder: the named loops permuted in the positions they occupy
    def d_reorder(self, *names):
        if len(set(names)) != len(names) or len(names) < 2:
            raise ModelError("reorder names")
        found = [self.find(n) for n in names]
        found.sort(key=lambda lp: len(lp[1]))
        for k in range(1, len(found)):
            if not any(p is found[k - 1][0] for p in found[k][1]):
                raise ModelError("reorder: loops not on one path")
        outer, inner = found[0][0], found[-1][0]
        # Loops between the named ones keep their positions (pragma.md).
        path = [n for n in found[-1][1] if isinstance(n, MLoop)] + [inner]
        k0 = next(i for i, n in enumerate(path) if n is outer)
        path = path[k0:]
        named = {n: i for i, n in enumerate(names)}
        slots = [i for i, L in enumerate(path) if L.name in named]
        target = list(path)
        for slot, nm in zip(slots, names):
            target[slot] = next(L for L in path if L.name == nm)
        if len(path) > len(names):
            self.partial_reorder = True
        current = list(path)
        for t in range(len(target)):
            pos = next(i for i, L in enumerate(current) if L is target[t])
            while pos > t:
                self._interchange(current[pos - 1], current[pos])
                current[pos - 1], current[pos] = current[pos], current[pos - 1]
                pos -= 1

    def _interchange(self, A, B):
        for _ in range(100):
            cur = A.children
            chain = []
            while True:
                if len(cur) == 1 and isinstance(cur[0], MLoop):
                    if cur[0] is not B:
                        raise ModelError("model: a loop lies between")
                    return self._swap(A, B, chain)
                if len(cur) == 1 and isinstance(cur[0], MGroup):
                    chain.append(cur[0])
                    cur = cur[0].children
                    continue
                if len(cur) > 1:
                    self._distribute(A, chain, cur, B)
                    break
                raise ModelError("not perfectly nested")
        raise ModelError("reorder did not converge")

    def _swap(self, A, B, chain):
        if any(g.kind == "alloc" for g in chain):
            raise ModelError("an allocation lies between the loops")
        # Guards are transparent for the order: keep them below A.
        inner = B.children
        for g in reversed(chain):
            g.children = inner
            inner = [g]
        A.children = inner
        B.children = [A]
        self.replace(A, [B])

    def _distribute(self, A, chain, seq, B):
        if A.kind != "serial":
            raise ModelError("distribution of a non-serial loop")
        if any(g.kind == "alloc" for g in chain) and not A.ext.is_const():
            raise ModelError("expanding a local by a loop of symbolic extent")
        if any(g.kind == "alloc" for g in chain) and A.ext.value() <= 0:
            raise ModelError("expanding a local by an empty loop")
        # Guards are copied into every copy of A; local allocations are
        # hoisted above the copies (expanded by A's extent: each iteration
        # keeps its own element, which the trace's per-declaration locations
        # already model).
        guards = [g for g in chain if g.kind != "alloc"]
        allocs = [g for g in chain if g.kind == "alloc"]
        taken = self.taken_names()
        copies = []
        for item in seq:
            node = item
            for g in reversed(guards):
                node = MGroup(g.kind, [node], g.name)
            on_path = any(n is B for n, _ in self.iter_nodes([item]))
            if on_path:
                L = A
            else:
                # A_1, A_2, ...: the first name nothing in the nest has now
                # (schedule/Reorder.cpp, freshCopyName).
                k = 1
                while "%s_%d" % (A.name, k) in taken:
                    k += 1
                L = MLoop("%s_%d" % (A.name, k), A.val, A.ext, None, A.red)
                taken.add(L.name)
                self.names.add(L.name)
                L.stage = A.stage
            copies.append((L, [node]))
        for L, ch in copies:
            L.children = ch
        # Remember the copies: bind applies to them too (a copy of a copy is a
        # copy of the original).
        made = [L for L, _ in copies if L is not A]
        for O in self.loops():
            if any(c is A for c in O.copies):
                O.copies.extend(made)
        A.copies.extend(made)
        result = [L for L, _ in copies]
        for g in reversed(allocs):
            result = [MGroup("alloc", result, g.name)]
            result[0].expanded = True  # one element per iteration of A now
        self.replace(A, result)

    # ---- cache stages
    def _tensor(self, name):
        arr = next((a for a in self.nest.arrays if a.name == name), None)
        if arr is None:
            raise ModelError("no parameter array %s" % name)
        return arr

    def _stage_loops(self, st, extents):
        leaf = MStmt(stage=st.name)
        body = [leaf]
        for d in reversed(range(st.rank)):
            L = MLoop("%s.ax%d" % (st.name, d), Val("stage"), extents[d], body)
            L.stage = st.name
            self.names.add(L.name)
            body = [L]
        return body[0]

    def _cache(self, t, scope, s, is_write):
        arr = self._tensor(t)
        if t in self.cached:
            raise ModelError("%s is already cached" % t)
        self.cached.add(t)
        if scope not in ("global", "shared", "local"):
            raise ModelError("scope")
        accs = self.nest.accesses_of(t)
        written = any(w for _, _, w in accs)
        if not accs or (is_write and not written) or (not is_write and written):
            raise ModelError("cache_%s of %s" % ("write" if is_write else "read", t))
        rank = predicted_rank(self.nest, arr)
        if rank is None:
            raise ModelError("unsure of the rank of %s" % t)
        self.fresh(s)
        st = Stage(s, arr, scope, is_write, rank)
        self.stages[s] = st
        loops = self._stage_loops(st, [Ext.poly(d) for d in arr.dims] if rank == len(arr.dims)
                                  else [Ext.poly(0)] * rank)
        self.root = [MGroup("alloc", self.root + [loops] if is_write else [loops] + self.root, s)]

    def d_cache_read(self, t, scope, s):
        self._cache(t, scope, s, False)

    def d_cache_write(self, t, scope, s):
        self._cache(t, scope, s, True)

    def _sids_using(self, t):
        """The statements that access tensor t (a stage's uses)."""
        return {s.sid for s, _, _ in self.nest.accesses_of(t)}

    def d_compute_at(self, s, x):
        st = self.stages.get(s)
        if st is None or st.attach is not None:
            raise ModelError("compute_at of %s" % s)
        # Take the root form out.
        grp = next((n for n, _ in self.iter_nodes() if isinstance(n, MGroup)
                    and n.kind == "alloc" and n.name == s), None)
        if grp is None:
            raise ModelError("stage lost its root form")
        rest = [c for c in grp.children if not (isinstance(c, MLoop) and c.stage == s)]
        if len(rest) != len(grp.children) - 1:
            raise ModelError("stage loops transformed before compute_at")
        self.replace(grp, rest)
        X, path = self.find(x)
        if X.stage is not None:
            raise ModelError("compute_at at a stage loop")
        users = self._sids_using(st.tensor.name)
        inside = {n.sid for n, _ in self.iter_nodes(X.children) if isinstance(n, MStmt)}
        if not users <= inside:
            raise ModelError("%s does not enclose every use of %s" % (x, s))
        # Scope rules (see module docs): a local stage serves one thread, so
        # no bound loop lies inside it; a global stage only in kernels
        # without bindings (CUDA and sim disagree on what it is otherwise).
        bound_inside = [n for n, _ in self.iter_nodes(X.children)
                        if isinstance(n, MLoop) and (n.kind == "bound" or self.bound_later(n))]
        if st.scope == "local" and bound_inside:
            raise ModelError("a local stage above bound loops")
        if st.scope == "global" and self.any_bind:
            raise ModelError("a global stage in a kernel with bound loops")
        relaxed = set(l.name for l in self._subtree_loops(X))
        if st.scope == "shared":
            for L in list(path) + [X]:
                if isinstance(L, MLoop) and ((L.kind == "bound" and L.tag not in BLOCK_TAGS)
                                             or self.bound_later(L)):
                    relaxed.add(L.name)
        extents = self._region(st, X, path, relaxed)
        loops = self._stage_loops(st, [Ext.const(e) for e in extents])
        X.children = [MGroup("alloc", X.children + [loops] if st.is_write else
                             [loops] + X.children, s)]
        st.attach = x

    def _subtree_loops(self, X):
        return [n for n, _ in self.iter_nodes(X.children) if isinstance(n, MLoop)]

    def _region(self, st, X, path, relaxed):
        """Constant extents of the region of st's tensor touched below X
        with the `relaxed` loops ranging (an upper bound per dimension);
        ModelError when a dimension has no constant size."""
        loops = [L for L in list(path) + [X] if isinstance(L, MLoop)] + self._subtree_loops(X)
        carriers = {}
        for L in loops:
            if L.stage is not None:
                continue
            for v in L.val.orig_vars():
                lst = carriers.setdefault(v, [])
                # Copies made by distribution share their value.
                if all(M.val is not L.val for M in lst):
                    lst.append(L)
        out = []
        for d in range(st.rank):
            # Each access covers [F + lo, F + hi]: F is the part fixed by
            # the loops that do not range (a symbol per original variable,
            # and the size parameters), lo..hi what the ranging loops add.
            # The union has a constant size only when every access has the
            # same symbolic F.
            fixed_sym = None
            lo_all, hi_all = None, None
            for idx in self._stage_dims(st):
                e = idx[d]
                F = Poly.const(e.const_value())
                lo = hi = 0
                for mono, c in e.terms.items():
                    if mono == ():
                        continue
                    loopvars = [n for n in mono if n not in self.nest.params]
                    if not loopvars:
                        F = F + Poly({mono: c})
                        continue
                    if len(loopvars) > 1:
                        raise ModelError("region of %s: product of loop variables" % st.name)
                    v = loopvars[0]
                    coef = Poly({tuple(n for n in mono if n != v): c})
                    F = F + coef * Poly.var("fix:" + v)
                    r = self._span(v, relaxed, carriers.get(v, []))
                    if r is None:
                        raise ModelError("region of %s: %s has no constant range" % (st.name, v))
                    if r > 1:
                        if not coef.is_const():
                            raise ModelError("region of %s: symbolic stride" % st.name)
                        k = coef.const_value() * (r - 1)
                        lo, hi = lo + min(0, k), hi + max(0, k)
                sym = F - F.const_value()
                if fixed_sym is None:
                    fixed_sym = sym
                elif sym != fixed_sym:
                    raise ModelError("region of %s: accesses at symbolic distance" % st.name)
                lo += F.const_value()
                hi += F.const_value()
                lo_all = lo if lo_all is None else min(lo_all, lo)
                hi_all = hi if hi_all is None else max(hi_all, hi)
            out.append(hi_all - lo_all + 1)
        total = 1
        for e in out:
            total *= e
        if total > MAX_STAGE_ELEMS:
            raise ModelError("stage too large")
        return out

    def _stage_dims(self, st):
        """Per access of the stage's tensor, its index per predicted dim."""
        arr = st.tensor
        out = []
        for _, acc, _ in self.nest.accesses_of(arr.name):
            if st.rank == len(arr.dims):
                out.append(acc.idx)
            else:
                out.append([arr.flat(acc.idx)])
        return out

    def _orig_extent(self, v):
        L = next(l for l in self.nest.loops() if l.var == v)
        return L.extent()

    def _span(self, v, relaxed, carriers):
        """How many values original variable v takes when the relaxed loops
        range and the others stay fixed (an upper bound), or None when that
        is not a constant."""
        moving = [L for L in carriers if L.name in relaxed]
        if not moving:
            return 1
        total = 0
        for L in moving:
            w = self._weight(L.val, v)
            if w is None:
                # Fused with another loop: v may take all its values.
                e = self._orig_extent(v)
                return e.const_value() if e.is_const() else None
            if not L.ext.is_const():
                return None
            total += w * (L.ext.value() - 1)
        return total + 1

    def _weight(self, val, v):
        """The weight of a loop's value in original variable v (x = xo*F + xi:
        xo weighs F, xi 1); None when v is not a plain mixed-radix digit of
        it (a fused loop, a symbolic factor)."""
        if val.kind == "var":
            return 1 if val.args[0] == v else None
        if val.kind == "mod":
            return self._weight(val.args[0], v)
        if val.kind == "div":
            f = val.args[1]
            if not f.is_const():
                return None
            w = self._weight(val.args[0], v)
            return None if w is None else w * f.value()
        return None

    def d_set_scope(self, a, scope):
        arr = next((x for x in self.nest.local_arrays() if x.name == a), None)
        if arr is None or scope not in ("global", "shared", "local"):
            raise ModelError("set_scope of %s" % a)
        grp, path = next(((n, p) for n, p in self.iter_nodes()
                          if isinstance(n, MGroup) and n.kind == "alloc" and n.name == a),
                         (None, None))
        if grp is None:
            raise ModelError("lost the declaration of %s" % a)
        # Shared: not declared inside a loop bound to threadIdx.*, by the
        # binds so far here and by every bind at the end (check_structure),
        # as schedule/SetScope.cpp does.
        if scope == "shared":
            self._check_shared_outside_threads(a)
            self.made_shared.add(a)
        else:
            self.made_shared.discard(a)
        if scope == "global" and self.any_bind:
            raise ModelError("a global array in a kernel with bound loops")

    def _check_shared_outside_threads(self, a):
        path = next((p for n, p in self.iter_nodes()
                     if isinstance(n, MGroup) and n.kind == "alloc" and n.name == a), ())
        for L in path:
            if isinstance(L, MLoop) and L.kind == "bound" and L.tag in THREAD_TAGS:
                raise ModelError("shared array declared inside a thread loop")

    def d_storage_align(self, s, axis, factor, offset):
        st = self.stages.get(s)
        if st is None or st.attach is None or st.rank < 2:
            raise ModelError("storage_align of %s" % s)
        if axis != "%s.ax%d" % (s, st.rank - 2) or int(offset) >= int(factor):
            raise ModelError("storage_align axis/offset")
        st.aligned = True

    def d_pipeline(self, x, stages):
        # Changes how a loop's stages are filled, never what the nest
        # computes; the loop must be serial and marked once.
        L, _ = self.find(x)
        if L.kind != "serial" or x in self.pipelined or not stages.startswith("stages="):
            raise ModelError("pipeline of %s" % x)
        if not 2 <= int(stages[len("stages="):]) <= 8:
            raise ModelError("pipeline stages")
        self.pipelined.add(x)

    def d_double_buffer(self, s):
        st = self.stages.get(s)
        if st is None or st.attach is None or st.double:
            raise ModelError("double_buffer of %s" % s)
        st.double = True

    # ---- structural rules of a finished schedule
    def check_structure(self, configs):
        # The rules that depend on binds, with every bind made (a loop bound
        # with the copies of it that distribution made).
        for a in self.made_shared:
            self._check_shared_outside_threads(a)
        for st in self.stages.values():
            grp = next((n for n, _ in self.iter_nodes() if isinstance(n, MGroup)
                        and n.kind == "alloc" and n.name == st.name), None)
            # (a stage's own loop bound inside runs on the same threads: a
            # cooperative fetch, see the tag rule below)
            if st.scope == "local" and grp is not None and any(
                    isinstance(n, MLoop) and n.kind == "bound" and n.stage is None
                    for n, _ in self.iter_nodes([grp])):
                raise ModelError("a local stage above bound loops")
        # Every cache stage is computed at a loop enclosing its uses (a root
        # stage would run outside every bound loop).
        if any(st.attach is None for st in self.stages.values()):
            raise ModelError("a cache stage without compute_at")
        # Blocks outermost: a single chain from the root.
        blocks = [L for L in self.loops() if L.kind == "bound" and L.tag in BLOCK_TAGS]
        cur, seen = self.root, 0
        while len(cur) == 1 and isinstance(cur[0], MLoop) and cur[0].kind == "bound" \
                and cur[0].tag in BLOCK_TAGS:
            seen += 1
            cur = cur[0].children
        if seen != len(blocks):
            raise ModelError("block loops must be the outermost chain")
        for leaf, path in self.leaves():
            tags = [L.tag for L in path if isinstance(L, MLoop) and L.kind == "bound"]
            for t in set(tags):
                if tags.count(t) > 1 and t in BLOCK_TAGS:
                    raise ModelError("tag %s twice on a path" % t)
                if tags.count(t) > 1:
                    # Only a stage loop may reuse its compute's thread tag.
                    inner = [L for L in path if isinstance(L, MLoop) and L.tag == t]
                    if any(L.stage is None for L in inner[1:]):
                        raise ModelError("tag %s twice on a path" % t)
        for L in self.loops():
            if L.kind == "bound" and L.tag in BLOCK_TAGS + THREAD_TAGS and L.red and not L.combine:
                raise ModelError("bound reduction loop")
            if L.kind == "bound" and L.tag in VIRTUAL_TAGS and not L.ext.is_const():
                raise ModelError("virtual thread of symbolic extent")
        for cfg in configs:
            per_tag = {}
            for L in self.loops():
                if L.kind == "bound":
                    per_tag[L.tag] = max(per_tag.get(L.tag, 0), L.ext.eval(cfg))
            threads = 1
            for t in THREAD_TAGS:
                if per_tag.get(t, 1) > THREAD_LIMIT[t]:
                    raise ModelError("too many threads")
                threads *= max(1, per_tag.get(t, 1))
            if threads > 1024:
                raise ModelError("too many threads")
            for t in BLOCK_TAGS:
                if per_tag.get(t, 1) > 65535:
                    raise ModelError("too many blocks")
        # A stage loop bound to a thread tag never exceeds the block's.
        for L in self.loops():
            if L.stage is not None and L.kind == "bound" and L.tag in THREAD_TAGS:
                if not L.ext.is_const():
                    raise ModelError("symbolic stage thread loop")
                comp = [M for M in self.loops() if M.kind == "bound" and M.tag == L.tag
                        and M.stage is None]
                for cfg in configs:
                    if comp and L.ext.value() > max(M.ext.eval(cfg) for M in comp):
                        raise ModelError("stage thread loop wider than the block")

    # ---- positions of statement instances
    def position_functions(self, cfg):
        """sid -> (function ivec -> position tuple, parallel flag per slot)."""
        out = {}
        for leaf, path in self.leaves():
            if leaf.sid is None:
                continue
            _, loops = self.sid_info[leaf.sid]
            parts, par = [], []
            parent = self.root
            for node in list(path) + [leaf]:
                k = next(i for i, c in enumerate(parent) if c is node)
                parts.append(str(k))
                par.append(False)
                if isinstance(node, MLoop):
                    parts.append(node.val.py(cfg))
                    # "combine": parallel, but its commuting updates are
                    # combined (a cross-thread reduction)
                    combined = node.combine or getattr(node, "rfactored", False)
                    par.append("combine" if combined and node.kind == "bound"
                               else node.parallel())
                parent = node.children
            src = "lambda %s: (%s,)" % (", ".join(loops), ", ".join(parts))
            out[leaf.sid] = (eval(src), par)
        return out


class Violation(Exception):
    pass


def split_needs(model):
    """Per original loop variable, the extent at which every loop the
    schedule split from it takes two values or more: one more than the
    product of the constant factors along its value (xo of x = xo*16 + xi
    needs 17, the outer loop of a tile of that tile by 4 needs 65; the parts
    of a fused loop count on their own)."""
    need = {}

    def walk(v, prod):
        if v.kind == "var":
            if prod > 1:
                need[v.args[0]] = max(need.get(v.args[0], 0), prod + 1)
        elif v.kind == "div":
            walk(v.args[0], prod * v.args[1].value() if v.args[1].is_const() else prod)
        elif v.kind == "mod":
            walk(v.args[0], prod)
        elif v.kind == "fuse":
            walk(v.args[0], 1)
            walk(v.args[1], 1)

    for L in model.loops():
        if L.stage is None:
            walk(L.val, 1)
    return need


def dependences(trace):
    """What the schedule must keep, per location: the access sequence cut
    into epochs (a run of reads, a run of commuting updates, one write), each
    instance of an epoch before each of the next (transitivity covers the
    rest); and groups of commuting updates, which may run in any order but
    not in parallel. Returns (transitions: [(epoch, next epoch)], groups)."""
    transitions = []
    groups = []
    for seq in trace.locs.values():
        epochs = []
        for inst, kind in seq:
            if epochs and ((kind == "R" and epochs[-1][0] == "R") or
                           (kind == "U" and epochs[-1][0] == "U")):
                epochs[-1][1].append(inst)
            else:
                epochs.append((kind, [inst]))
        for k in range(1, len(epochs)):
            transitions.append((epochs[k - 1][1], epochs[k][1]))
        for kind, insts in epochs:
            if kind == "U" and len(insts) > 1:
                groups.append(insts)
            if kind in ("W", "X") and len(insts) > 1:
                raise AssertionError("epoch")
    return transitions, groups


def _first_diff(pa, pb):
    n = min(len(pa), len(pb))
    for k in range(n):
        if pa[k] != pb[k]:
            return k
    return n


def check_legal(model, nest, traces, configs):
    """Raises Violation (with a reason) when the schedule breaks a
    dependence for one of the configurations."""
    for cfg, (trace, deps) in zip(configs, traces):
        pos = model.position_functions(cfg)
        sids = trace.sids
        # Every instance's position, and per statement the slots of its
        # position that are values of parallel loops.
        P = [pos[sid][0](*iv) for sid, iv in zip(sids, trace.ivecs)]
        pslots = {sid: tuple(k for k, f in enumerate(par) if f) for sid, (_, par) in pos.items()}

        def violation(a, b, what=None):
            """The reason a must run before b fails (None: it holds)."""
            pa, pb, para = P[a], P[b], pos[sids[a]][1]
            k = _first_diff(pa, pb)
            if k >= len(pa) or k >= len(pb):
                return "instances %d and %d share a position" % (a, b)
            if para[k]:
                return _describe(model, trace, a, b, what or "runs in parallel with", cfg)
            if pa[k] > pb[k] and what is None:
                return _describe(model, trace, a, b, "now runs after", cfg)
            return None

        def keep_order(a, b):
            # Fast path: b after a, neither a prefix of the other, and the
            # first difference at no parallel slot (at slot k both share the
            # prefix, hence the loop there: a's slots suffice).
            pa, pb = P[a], P[b]
            if pa < pb and pb[:len(pa)] != pa and not any(
                    pa[k] != pb[k] and pa[:k] == pb[:k] for k in pslots[sids[a]]
                    if k < len(pb)):
                return
            why = violation(a, b)
            if why:
                raise Violation(why)

        transitions, groups = deps
        for A, B in transitions:
            if len(A) == 1 or len(B) == 1:
                for a in A:
                    for b in B:
                        if a != b:
                            keep_order(a, b)
                continue
            # Every a before every b: the last of A before the first of B;
            # then a cross pair may not first differ at a parallel slot k:
            # no prefix [:k] shared by an a and a b with other values at k.
            last = max(A, key=P.__getitem__)
            first = min(B, key=P.__getitem__)
            keep_order(last, first)
            for k in set(x for i in A for x in pslots[sids[i]]):
                at = {}
                for a in A:
                    pa = P[a]
                    if k in pslots[sids[a]]:
                        at.setdefault(pa[:k], {}).setdefault(pa[k], a)
                for b in B:
                    pb = P[b]
                    vals = at.get(pb[:k]) if len(pb) > k else None
                    if vals and (len(vals) > 1 or pb[k] not in vals):
                        a = next(x for v, x in vals.items() if v != pb[k])
                        raise Violation(violation(a, b, "runs in parallel with"))
        for g in groups:
            ps = sorted((P[i], i) for i in g)
            for (pa, a), (pb, b) in zip(ps, ps[1:]):
                k = _first_diff(pa, pb)
                flag = pos[sids[a]][1][k] if k < len(pa) and k < len(pb) else False
                if flag and flag != "combine":
                    raise Violation(_describe(model, trace, a, b,
                                              "updates in parallel with", cfg))


def _describe(model, trace, a, b, what, cfg):
    def one(i):
        s, loops = model.sid_info[trace.sids[i]]
        return "S%d%s" % (s.sid, dict(zip(loops, trace.ivecs[i])))
    return "%s %s %s (sizes %s)" % (one(b), what, one(a), cfg)
