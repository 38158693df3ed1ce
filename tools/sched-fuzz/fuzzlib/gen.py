"""Random loop nests (deterministic from a seed).

Families of affine nests of depth 1 to 5, within docs/pragma.md "What a nest
may contain": elementwise maps, in-place and scalar-accumulator reductions
(with and without init, beta=1), GEMMs with run-time sizes and leading
dimensions, recurrences carried by one loop, stencils with offsets, strided
and guarded accesses, block-local arrays, producer/consumer pairs, and fully
random imperfect trees. Data are small integers so that every order of a
sum gives the same float result; the reference run (nest.run_reference)
rejects a nest whose values could overflow.
"""
from .poly import Poly
from . import nest as N

LOOP_NAMES = ["i", "j", "k", "l", "m", "n", "p", "q", "r", "h", "w", "c", "u", "v", "z"]
ARRAY_NAMES = ["A", "B", "C", "D", "E", "G", "H", "X", "Y", "Z", "S", "T", "U", "V", "W"]
PARAM_NAMES = ["M", "N", "K", "L", "P", "Q", "R", "NB"]


class GenFailed(Exception):
    pass


class NestGen:
    def __init__(self, rng, name):
        self.rng = rng
        self.name = name
        self.params = {}  # name -> spec: ('size',) | ('ld', base Poly)
        self.param_order = []
        self.arrays = []
        self.reads = []  # input accesses made so far (reused now and then)
        self.sid = 0
        self.used = set()
        self.loop_pool = list(LOOP_NAMES)
        r = rng.random()
        self.ty = N.TYPES["float" if r < 0.5 else "int" if r < 0.78 else "double"
                          if r < 0.88 else "float"]
        # narrow input types now and then (converted on read)
        self.narrow = r >= 0.88

    # ---- names and parameters
    def fresh(self, pool):
        for n in pool:
            if n not in self.used:
                self.used.add(n)
                return n
        k = 0
        while "%s%d" % (pool[0], k) in self.used:
            k += 1
        self.used.add("%s%d" % (pool[0], k))
        return "%s%d" % (pool[0], k)

    def param(self):
        p = self.fresh(PARAM_NAMES)
        self.params[p] = ("size",)
        self.param_order.append(p)
        return Poly.var(p)

    def ld_param(self, base):
        p = self.fresh(["ld", "lda", "ldb", "ldc"])
        self.params[p] = ("ld", Poly.of(base))
        self.param_order.append(p)
        return Poly.var(p)

    def extent(self, const_p=0.4, consts=(1, 2, 3, 4, 5, 6, 8, 8, 12, 16)):
        if self.rng.random() < const_p:
            return Poly.const(self.rng.choice(consts))
        # reuse a size parameter half the time
        sizes = [p for p, s in self.params.items() if s[0] == "size"]
        if sizes and self.rng.random() < 0.4:
            return Poly.var(self.rng.choice(sizes))
        return self.param()

    def loop(self, hi=None, lo=0, **kw):
        return N.Loop(self.fresh(self.loop_pool), lo, hi if hi is not None else self.extent(**kw), [])

    def next_sid(self):
        self.sid += 1
        return self.sid

    # ---- arrays
    def array(self, ty, kind, dims, readonly):
        name = self.fresh(ARRAY_NAMES)
        arr = N.Array(name, ty, kind, dims, readonly, restrict=self.rng.random() < 0.3)
        arr.salt = self.rng.randrange(1, 1 << 20)
        self.arrays.append(arr)
        return arr

    def in_type(self):
        if self.narrow and self.rng.random() < 0.6:
            return N.TYPES[self.rng.choice(["int8", "int16"])]
        if self.ty.is_float and self.rng.random() < 0.1:
            return N.TYPES["int"]
        return self.ty

    def dim_index(self, loop, coef=1, off=0):
        """Index c*v + off and the dimension size that holds it."""
        e = Poly.var(loop.var) * coef + off
        size = loop.hi * coef - coef + off + 1
        if coef == 1 and off == 0 and loop.lo == 0:
            size = loop.hi
        return e, size

    def access(self, loops, readonly, ty=None, fixed_p=0.15, odd_p=0.25, ld_p=0.1,
               perm_p=0.2, arr_kind=None):
        """A new array indexed by `loops` (one dimension each, outermost
        first unless permuted) and its access. Odd indexing (strides,
        offsets) with probability odd_p per dimension."""
        loops = list(loops)
        if perm_p and len(loops) > 1 and self.rng.random() < perm_p:
            self.rng.shuffle(loops)
        idx, dims = [], []
        for L in loops:
            coef, off = 1, 0
            if self.rng.random() < odd_p:
                choice = self.rng.random()
                if choice < 0.4:
                    off = self.rng.choice([1, 2])
                elif choice < 0.8:
                    coef = 2
                else:
                    coef, off = 2, 1
            e, size = self.dim_index(L, coef, off)
            idx.append(e)
            dims.append(size)
        if not loops:
            idx, dims = [Poly.const(0)], [Poly.const(1)]
        kind = arr_kind or ("fixed" if self.rng.random() < fixed_p else "flat")
        if kind == "flat" and len(dims) == 2 and self.rng.random() < ld_p:
            dims[1] = self.ld_param(dims[1])
        arr = self.array(ty or (self.in_type() if readonly else self.ty), kind, dims, readonly)
        return N.Access(arr, idx)

    # ---- values
    def value(self, loops, nreads=2, extra=None, allow_mul=True, reads=None):
        """A random expression of `nreads` fresh input reads (indexed by
        random subsets of `loops`), plus `extra` atoms."""
        atoms = list(extra or [])
        names = {L.var for L in loops} | set(self.params)
        for _ in range(nreads):
            if reads:
                atoms.append(N.Load(self.rng.choice(reads)))
                continue
            old = [a for a in self.reads if a.names() <= names]
            if old and self.rng.random() < 0.35:
                atoms.append(N.Load(self.rng.choice(old)))
                continue
            k = self.rng.randint(1, max(1, min(3, len(loops))))
            sub = sorted(self.rng.sample(list(loops), k), key=lambda L: list(loops).index(L)) \
                if loops else []
            acc = self.access(sub, True)
            self.reads.append(acc)
            atoms.append(N.Load(acc))
        r = self.rng.random()
        if r < 0.25:
            atoms.append(N.Const(self.rng.choice([1, 2, 3, -1])))
        elif r < 0.35 and loops:
            L = self.rng.choice(list(loops))
            atoms.append(N.IVal(Poly.var(L.var) - L.lo))
        if not atoms:
            atoms.append(N.Const(1))
        self.rng.shuffle(atoms)
        e = atoms[0]
        muls = 0
        for a in atoms[1:]:
            op = self.rng.choice(["+", "-", "*"] if allow_mul and muls < 1 else ["+", "-"])
            muls += op == "*"
            e = N.Bin(op, e, a)
        if self.rng.random() < 0.08:
            z = N.Const(0)
            e = N.Sel(N.CondV(">", e, z), e, z)  # relu
        return e

    def guard(self, loops):
        """A condition over loop variables (sometimes reading an input)."""
        loops = list(loops)
        r = self.rng.random()
        L = self.rng.choice(loops)
        if r < 0.35:
            return N.CondMod(Poly.var(L.var), 2, self.rng.choice([0, 1]))
        if r < 0.6 and len(loops) > 1:
            a, b = self.rng.sample(loops, 2)
            return N.CondP(self.rng.choice(["<", "<=", "!="]), Poly.var(a.var), Poly.var(b.var))
        if r < 0.8:
            return N.CondP("<", Poly.var(L.var), L.hi - 1)
        acc = self.access([L], True, arr_kind="flat", odd_p=0)
        return N.CondV(">", N.Load(acc), N.Const(0))

    def stmt(self, lhs, op, rhs, ty=None):
        return N.Assign(self.next_sid(), lhs, op, rhs, ty or self.ty)

    # ---- families
    def nest_elementwise(self):
        depth = self.rng.choice([1, 1, 2, 2, 2, 3])
        loops = [self.loop() for _ in range(depth)]
        for a, b in zip(loops, loops[1:]):
            a.body.append(b)
        body = loops[-1].body
        nst = self.rng.choice([1, 1, 2, 3])
        prev = None
        for _ in range(nst):
            out = self.access(loops, False, odd_p=0.15, perm_p=0.15)
            if self.rng.random() < 0.15 and not self.ty.is_float:
                out.arr.ty = N.TYPES["int16"]
            reads = None
            extra = []
            if prev is not None and self.rng.random() < 0.5:
                extra.append(N.Load(prev))  # consumes the previous statement
            rhs = self.value(loops, self.rng.choice([1, 2, 2, 3]), extra)
            op = "="
            if self.rng.random() < 0.15:
                op = "+="  # accumulate onto the filled output
            s = self.stmt(out, op, rhs, out.arr.ty)
            if self.rng.random() < 0.25:
                s = N.If(self.guard(loops), [s])
            body.append(s)
            prev = out
        return loops[0]

    def nest_strided(self):
        """C[2*i] = ..., x[i+1]: writes only every other element."""
        L = self.loop()
        out = self.access([L], False, odd_p=0)
        out.idx = [Poly.var(L.var) * 2 + self.rng.choice([0, 1])]
        out.arr.dims = [L.hi * 2 + 1]
        rhs = self.value([L], 2)
        L.body.append(self.stmt(out, "=", rhs))
        if self.rng.random() < 0.5:
            inner = self.loop(const_p=0.7)
            L.body = [inner]
            out.idx = [Poly.var(L.var) * 2 + 0]
            x = self.access([L, inner], True)
            inner.body.append(self.stmt(out, "+=", N.Load(x)))
        return L

    def spatial_and_reduction(self, nsp, nred):
        sp = [self.loop() for _ in range(nsp)]
        red = [self.loop(const_p=0.5) for _ in range(nred)]
        return sp, red

    def nest_reduce_inplace(self):
        nsp = self.rng.choice([1, 1, 2, 2, 3])
        nred = self.rng.choice([1, 1, 1, 2])
        sp, red = self.spatial_and_reduction(nsp, nred)
        out = self.access(sp, False, odd_p=0.1, perm_p=0.1)
        init = self.rng.random() < 0.6
        red_outer = nsp >= 1 and self.rng.random() < 0.15 and not init
        if red_outer:
            # for k: for i: C[i] += ...
            order = red + sp
        else:
            order = sp + red
        for a, b in zip(order, order[1:]):
            a.body.append(b)
        rhs = self.value(sp + red, self.rng.choice([1, 2, 2]))
        upd = self.stmt(out, self.rng.choice(["+=", "+=", "+=", "-="]), rhs)
        order[-1].body.append(upd)
        if not red_outer:
            host = sp[-1].body
            if init:
                host.insert(0, self.stmt(out, "=", N.Const(self.rng.choice([0, 0, 1]))))
            if self.rng.random() < 0.25:
                host.append(self.stmt(out, "=", N.Bin("*", N.Load(out), N.Const(2))))
        return order[0]

    def nest_reduce_scalar(self):
        nsp = self.rng.choice([1, 1, 2, 2, 3])
        nred = self.rng.choice([1, 1, 1, 2])
        sp, red = self.spatial_and_reduction(nsp, nred)
        for a, b in zip(sp + red, (sp + red)[1:]):
            a.body.append(b)
        out = self.access(sp, False, odd_p=0.1, perm_p=0.1)
        acc = self.fresh(["acc", "sum", "s"])
        r = self.rng.random()
        if r < 0.6:
            init = N.Const(0)
        elif r < 0.85:
            init = N.Load(out)  # beta = 1
        else:
            init = N.Load(self.access(sp[:1], True))
        decl = N.DeclScalar(self.next_sid(), acc, self.ty, init)
        rhs = self.value(sp + red, self.rng.choice([1, 2, 2]))
        red[-1].body.append(self.stmt(acc, "+=", rhs))
        host = sp[-1].body
        host.remove(red[0])
        host.append(decl)
        host.append(red[0])
        r = self.rng.random()
        fin = N.ScalarRd(acc, self.ty)
        if r < 0.7:
            host.append(self.stmt(out, "=", fin))
        elif r < 0.85:
            host.append(self.stmt(out, "=", N.Bin("*", fin, N.Const(2))))
        else:
            host.append(self.stmt(out, "+=", fin))
        return sp[0]

    def nest_gemm(self):
        const_p = 0.25
        Mi, Nj, Kk = (self.loop(const_p=const_p, consts=(8, 16, 12, 32)) for _ in range(3))
        Mi.body.append(Nj)
        kind = "flat" if self.rng.random() < 0.85 else "fixed"
        tb = self.rng.random() < 0.2
        A = self.access([Mi, Kk], True, arr_kind=kind, odd_p=0, perm_p=0, ld_p=0.2)
        B = self.access([Nj, Kk] if tb else [Kk, Nj], True, arr_kind=kind, odd_p=0, perm_p=0,
                        ld_p=0.2)
        C = self.access([Mi, Nj], False, arr_kind=kind, odd_p=0, perm_p=0, ld_p=0.2)
        prod = N.Bin("*", N.Load(A), N.Load(B))
        form = self.rng.choice(["acc", "acc", "beta1", "inplace", "noinit"])
        if form in ("acc", "beta1"):
            acc = self.fresh(["acc"])
            init = N.Const(0) if form == "acc" else N.Load(C)
            Nj.body.append(N.DeclScalar(self.next_sid(), acc, self.ty, init))
            Nj.body.append(Kk)
            Kk.body.append(self.stmt(acc, "+=", prod))
            Nj.body.append(self.stmt(C, "=", N.ScalarRd(acc, self.ty)))
        else:
            if form == "inplace":
                Nj.body.append(self.stmt(C, "=", N.Const(0)))
            Nj.body.append(Kk)
            Kk.body.append(self.stmt(C, "+=", prod))
        return Mi

    def nest_recurrence(self):
        rows = self.loop()
        width = self.loop(lo=1)
        carried_outer = self.rng.random() < 0.3
        if carried_outer:
            rows, width = self.loop(lo=1), self.loop()
        rows.body.append(width)
        host = width
        extra = None
        if self.rng.random() < 0.25:
            extra = self.loop(const_p=0.7, consts=(2, 3, 4))
            width.body.append(extra)
            host = extra
        dims_loops = [rows, width] + ([extra] if extra else [])
        # a[rows][width+1][extra]: index j, read j-1 (or i-1)
        W = width.hi
        dims = [rows.hi, W] + ([extra.hi] if extra else [])
        arr = self.array(self.ty, "flat", dims, False)
        idx = [Poly.var(L.var) for L in dims_loops]
        prev = list(idx)
        if carried_outer:
            prev[0] = prev[0] - 1
        else:
            prev[1] = prev[1] - 1
        rhs = N.Bin("+", N.Load(N.Access(arr, prev)), self.value(dims_loops, 1, allow_mul=False))
        host.body.append(self.stmt(N.Access(arr, idx), "=", rhs))
        return rows

    def nest_stencil(self):
        depth = self.rng.choice([1, 2])
        loops = [self.loop() for _ in range(depth)]
        for a, b in zip(loops, loops[1:]):
            a.body.append(b)
        # padded input: x[(i + di) * (N + 2) + j + dj]
        dims = [L.hi + 2 for L in loops]
        x = self.array(self.in_type(), "flat", dims, True)
        out = self.access(loops, False, odd_p=0, perm_p=0)
        e = None
        for _ in range(self.rng.choice([2, 3, 4])):
            idx = [Poly.var(L.var) + self.rng.choice([0, 1, 2]) for L in loops]
            t = N.Load(N.Access(x, idx))
            e = t if e is None else N.Bin(self.rng.choice(["+", "-"]), e, t)
        loops[-1].body.append(self.stmt(out, "=", e))
        return loops[0]

    def nest_local_array(self):
        b = self.loop()
        K = self.rng.choice([4, 8, 16, 32])
        ty = self.ty
        t = N.Array(self.fresh(["tile", "buf", "tmp"]), ty, "local", [K])
        q = self.loop(hi=Poly.const(K))
        u = self.loop(hi=Poly.const(K))
        src = self.access([], True)
        src.arr.dims = [b.hi * K]
        src.idx = [Poly.var(b.var) * K + Poly.var(q.var)]
        q.body.append(self.stmt(N.Access(t, [Poly.var(q.var)]), "=",
                                N.Bin("*", N.Load(src), N.Const(2))))
        out = self.array(ty, "flat", [b.hi * K], False)
        form = self.rng.random()
        if form < 0.6:
            rev = N.Access(t, [Poly.const(K - 1) - Poly.var(u.var)])
            u.body.append(self.stmt(N.Access(out, [Poly.var(b.var) * K + Poly.var(u.var)]), "=",
                                    N.Bin(self.rng.choice(["-", "+"]), N.Load(rev),
                                          N.Load(N.Access(t, [Poly.var(u.var)])))))
        else:
            v = self.loop(hi=Poly.const(K))
            acc = self.fresh(["s", "acc"])
            w = self.access([u, v], True, arr_kind="flat", odd_p=0, perm_p=0)
            u.body += [N.DeclScalar(self.next_sid(), acc, ty, N.Const(0)), v,
                       self.stmt(N.Access(out, [Poly.var(b.var) * K + Poly.var(u.var)]), "=",
                                 N.ScalarRd(acc, ty))]
            v.body.append(self.stmt(acc, "+=", N.Bin("*", N.Load(N.Access(t, [Poly.var(v.var)])),
                                                     N.Load(w))))
        b.body = [N.DeclArray(t), q, u]
        return b

    def nest_producer_consumer(self):
        i = self.loop()
        j1 = self.loop()
        j2 = N.Loop(self.fresh(self.loop_pool), 0, j1.hi, [])
        tmp = self.access([i, j1], False, odd_p=0, perm_p=0)
        j1.body.append(self.stmt(tmp, "=", self.value([i, j1], 2)))
        rev = self.rng.random() < 0.5
        jj = (j1.hi - 1 - Poly.var(j2.var)) if rev else Poly.var(j2.var)
        use = N.Access(tmp.arr, [Poly.var(i.var), jj])
        out = self.access([i, j2], False, odd_p=0, perm_p=0)
        j2.body.append(self.stmt(out, "=", N.Bin("+", N.Load(use), self.value([i, j2], 1))))
        i.body = [j1, j2]
        if self.rng.random() < 0.3:
            i.body.insert(0, self.stmt(self.access([i], False, odd_p=0), "=", self.value([i], 1)))
        return i

    def nest_random(self):
        depth = self.rng.choice([2, 3, 3, 4, 4, 5])
        outputs = []
        root = self._tree([], depth, outputs)
        return root

    def _tree(self, enclosing, depth_left, outputs):
        L = self.loop(const_p=0.5 if len(enclosing) >= 2 else 0.35,
                      consts=(1, 2, 3, 4, 5, 6, 8))
        loops = enclosing + [L]
        items = []
        nchild = 1 if depth_left <= 1 else self.rng.choice([1, 1, 1, 2])
        if depth_left > 1:
            for _ in range(nchild):
                items.append(("loop", None))
        for _ in range(self.rng.choice([0, 1, 1, 2]) if depth_left > 1 else self.rng.choice([1, 2])):
            items.insert(self.rng.randrange(len(items) + 1), ("stmt", None))
        if not items:
            items.append(("stmt", None))
        for kind, _ in items:
            if kind == "loop":
                L.body.append(self._tree(loops, depth_left - 1, outputs))
            else:
                L.body.append(self._random_stmt(loops, outputs))
        return L

    def _random_stmt(self, loops, outputs):
        r = self.rng.random()
        reads = None
        extra = []
        # consume something written earlier at an index we know is valid
        usable = [o for o, ls in outputs if all(x in loops for x in ls)]
        if usable and self.rng.random() < 0.4:
            extra.append(N.Load(self.rng.choice(usable)))
        if r < 0.55:
            out = self.access(loops, False, odd_p=0.1, perm_p=0.1)
            outputs.append((out, list(loops)))
            s = self.stmt(out, "=", self.value(loops, self.rng.choice([1, 2]), extra))
        elif r < 0.85 and len(loops) > 1:
            # reduce over a suffix of the enclosing loops
            keep = self.rng.randint(1, len(loops) - 1)
            out = self.access(loops[:keep], False, odd_p=0.05, perm_p=0.1)
            s = self.stmt(out, "+=", self.value(loops, self.rng.choice([1, 2]), extra))
        elif usable:
            tgt = self.rng.choice(usable)
            s = self.stmt(tgt, self.rng.choice(["+=", "="]), self.value(loops, 1, [N.Load(tgt)]))
        else:
            out = self.access(loops, False, odd_p=0.1)
            outputs.append((out, list(loops)))
            s = self.stmt(out, "=", self.value(loops, 1, extra))
        if self.rng.random() < 0.12:
            s = N.If(self.guard(loops), [s])
        return s

    FAMILIES = [
        ("elementwise", 14), ("strided", 4), ("reduce_inplace", 13), ("reduce_scalar", 12),
        ("gemm", 14), ("recurrence", 9), ("stencil", 5), ("local_array", 9),
        ("producer_consumer", 6), ("random", 17),
    ]

    def build(self, family=None):
        if family is None:
            total = sum(w for _, w in self.FAMILIES)
            x = self.rng.random() * total
            for family, w in self.FAMILIES:
                x -= w
                if x < 0:
                    break
        root = getattr(self, "nest_" + family)()
        arrays = list(self.arrays)
        # arrays first in order of creation, sizes after
        nest = N.Nest(self.name, list(self.param_order), arrays, [root], family)
        nest.param_kinds = dict(self.params)
        return nest


# --------------------------------------------------------------------------
# Sizes


def instance_count(body, cfg):
    total = 0
    for n in body:
        if isinstance(n, N.Loop):
            ext = max(0, n.hi.eval(cfg) - n.lo)
            total += 1 + ext * (1 + instance_count(n.body, cfg))
        elif isinstance(n, N.If):
            total += instance_count(n.body, cfg)
        else:
            total += 1
    return total


def choose_configs(rng, gen, nest, budget=6000):
    """Three run-time size configurations: one of multiples of 8 and 4, one
    of odd sizes, one tiny (1 to 3, sometimes 0)."""
    sizes = [p for p in nest.params if gen.params[p][0] == "size"]
    styles = [[8, 12, 16, 24, 32, 4, 6], [5, 7, 9, 11, 13, 17, 3], [1, 2, 3, 2, 1, 0]]
    configs = []
    for style in styles:
        for attempt in range(30):
            cfg = {p: rng.choice(style) for p in sizes}
            if style[-1] == 0 and sizes and rng.random() < 0.7:
                cfg = {p: v if v > 0 else 1 for p, v in cfg.items()}
            # scale down until the run is small
            for p in sizes:
                if attempt > 10:
                    cfg[p] = max(min(cfg[p], 6 if attempt > 20 else 10), 1 if cfg[p] else 0)
            for p in nest.params:
                if gen.params[p][0] == "ld":
                    cfg[p] = gen.params[p][1].eval(cfg) + rng.choice([0, 0, 1, 3])
            if instance_count(nest.body, cfg) <= budget:
                break
        configs.append(cfg)
    return configs


CHECK_BUDGET = 20000  # statement instances of a size configuration only checked
CHEAP_CHECK = 5000  # ... and of a second one, checked when that cheap


def _non_dividing(v):
    """The least value >= v that no factor the schedules use (2, 3, 4, 8,
    16, nparts 2..4) divides."""
    while v % 2 == 0 or v % 3 == 0:
        v += 1
    return v


def general_configs(nest, budget=CHECK_BUDGET):
    """Larger size configurations, checked for legality but never run: a
    schedule may be legal at the run sizes only (a tile loop with a single
    iteration there carries nothing). Every run-time size doubled and made
    non-dividing (2n+1 up to the next size no factor divides), and every
    size just doubled where that run is cheap; above the largest run size,
    within the budget where the nest allows (the growth shrinks towards +1;
    a nest too large even then is not checked). [] without run-time sizes."""
    kinds = getattr(nest, "param_kinds", {})
    sizes = [p for p in nest.params if kinds.get(p, ("size",))[0] == "size"]
    if not sizes:
        return []
    top = {p: max([c.get(p, 0) for c in nest.configs] + [1]) for p in sizes}

    def make(grow, pad):
        cfg = {p: grow(top[p]) for p in sizes}
        for p in nest.params:
            if kinds.get(p, ("size",))[0] == "ld":
                cfg[p] = kinds[p][1].eval(cfg) + pad
        return cfg, instance_count(nest.body, cfg)

    out = []
    for f in (2.0, 1.5, 1.25, 1.0):
        cfg, count = make(lambda v: _non_dividing(max(v + 1, int(v * f) + 1)), 3)
        if count <= budget:
            break
    if count <= 4 * budget:
        out.append(cfg)
    cfg, count = make(lambda v: 2 * v, 1)
    if count <= CHEAP_CHECK:
        out.append(cfg)
    return [c for k, c in enumerate(out) if c not in out[:k] and c not in nest.configs]


def finalize(rng, gen, nest):
    """Chooses sizes, then prepare()s the nest."""
    configs = choose_configs(rng, gen, nest)
    # identical configurations (no size parameters) run once
    nest.configs = [c for k, c in enumerate(configs) if c not in configs[:k]]
    return prepare(nest)


def prepare(nest):
    """Sizes fixed arrays for the configurations, runs the reference and
    records the allocation sizes; GenFailed when a value overflows or an
    index goes negative."""
    loops = {L.var: L for L in nest.loops()}
    for arr in nest.all_arrays():
        if arr.kind != "fixed":
            continue
        accs = [a for _, a, _ in nest.accesses_of(arr.name)]
        accs += [a for a in guard_loads(nest) if a.arr is arr]
        dims = []
        for d in range(len(arr.dims)):
            hi = 0
            for a in accs:
                e = a.idx[d]
                for cfg in nest.configs:
                    v = e.const_value()
                    for name in e.names():
                        if name in loops:
                            L = loops[name]
                            top = max(L.lo, L.hi.eval(cfg) - 1)
                            c = e.coef_of(name).eval(cfg)
                            v += max(c * L.lo, c * top)
                        else:
                            v += e.coef_of(name).eval(cfg) * cfg[name]
                    hi = max(hi, v)
            dims.append(Poly.const(hi + 1))
        arr.dims = dims
    src = nest.compile_py()
    nest.alloc = []
    for cfg in nest.configs:
        try:
            tr, _ = N.run_reference(nest, cfg, compiled=src)
        except (N.Overflow, ZeroDivisionError) as e:
            raise GenFailed(str(e))
        alloc = {}
        for arr in nest.arrays:
            if arr.kind == "flat":
                alloc[arr.name] = tr.maxidx.get(arr.name, -1) + 1
            else:
                n = 1
                for d in arr.dims:
                    n *= d.const_value()
                alloc[arr.name] = n
        nest.alloc.append(alloc)
    return nest


def guard_loads(nest):
    """The loads in `if` conditions (not part of any statement)."""
    out = []

    def visit(body):
        for n in body:
            if isinstance(n, N.If):
                out.extend(N.cond_loads(n.cond))
                visit(n.body)
            elif isinstance(n, N.Loop):
                visit(n.body)
    visit(nest.body)
    return out


def generate_nest(rng, name, family=None):
    for _ in range(20):
        gen = NestGen(rng, name)
        nest = gen.build(family)
        try:
            return finalize(rng, gen, nest), gen
        except GenFailed:
            continue
    raise GenFailed("no valid nest")
