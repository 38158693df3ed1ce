"""Random legal schedules for a nest.

A schedule is a list of directive tuples, e.g. ('split', 'i', 'io', 'ii', '4').
Candidates are built step by step on a Model (each step is replayed from
scratch, so a directive the model refuses leaves no trace), mixing random
compositions (splits, tiles, fuses, reorders, binds, annotations, cache
stages) with the classic GPU recipes (tiled GEMM with shared stages, the
DESIGN section 2 GEMM with run-time sizes, elementwise fuse+split+bind,
row-parallel recurrences). A candidate is kept only when the oracle
(model.check_legal) accepts it for every size configuration, those the
program runs and larger ones it does not (gen.general_configs); the oracle
decides legality itself and never asks the plugin.
"""
import zlib

from . import model as M
from . import nest as N
from .gen import CHECK_BUDGET, general_configs, instance_count


def factor_expr(a):
    """A split/tile factor k written as an expression of the same value
    (`2*4`, `(3+1)-1`, `nparts=2*2`), as engineers write `TS*2`."""
    key, _, k = str(a).rpartition("=")
    if not k.isdigit():
        return a
    k = int(k)
    expr = "2*%d" % (k // 2) if k % 2 == 0 else "(%d+1)-1" % k
    return (key + "=" if key else "") + expr


def fmt(d):
    # One directive in four (chosen from its text, so the generator's random
    # stream and every seed's case stay as they were) writes its factors as
    # expressions: the plugin must give them the same values.
    args = [str(a) for a in d[1:]]
    if d[0] in ("split", "tile") and zlib.crc32(repr(d).encode()) % 4 == 0:
        n = 1 if d[0] == "split" else 2
        args = args[:-n] + [factor_expr(a) for a in args[-n:]]
    return "%s(%s)" % (d[0], ", ".join(args))


def replay(nest, dirs):
    """The model after dirs, or raises ModelError."""
    m = M.Model(nest, dirs)
    for d in dirs:
        m.apply(d)
    return m


class Oracle:
    """Dependences of a nest for its configurations, computed once, and for
    larger configurations that are not run, computed when a schedule first
    passes the run sizes: the nest's (gen.general_configs) and the
    schedule's own (every loop it splits long enough for each part to
    iterate, sized_config). A schedule is legal when it keeps the
    dependences at every one of them, so that the plugin, which decides for
    every size, is never blamed for refusing a schedule that is legal only
    at the sizes the program happens to run."""

    def __init__(self, nest, general=True):
        self.nest = nest
        src = nest.compile_py()
        self.traces = []
        for cfg in nest.configs:
            tr, _ = N.run_reference(nest, cfg, compiled=src)
            self.traces.append((tr, M.dependences(tr)))
        self.general = general
        self.general_configs = general_configs(nest) if general else []
        self._general_src = None
        self._at = {}  # sizes -> (trace, dependences), None if not valid

    def trace_at(self, cfg):
        """(trace, dependences) at sizes that are not run, or None when the
        nest is not valid there (a negative index)."""
        key = tuple(sorted(cfg.items()))
        if key not in self._at:
            if self._general_src is None:
                self._general_src = self.nest.compile_py(general=True)
            try:
                tr, _ = N.run_reference(self.nest, cfg, compiled=self._general_src,
                                        general=True)
                self._at[key] = (tr, M.dependences(tr))
            except (N.Overflow, ZeroDivisionError, KeyError, NameError):
                # (a nest the minimizer cut down may use a scalar it no
                # longer declares where the run sizes never go)
                self._at[key] = None
        return self._at[key]

    def sized_config(self, m):
        """Sizes at which every loop the schedule m split from a run-time
        extent iterates in each of its parts (model.split_needs), the other
        sizes as run; None when the run sizes already do, or too large."""
        kinds = getattr(self.nest, "param_kinds", {})
        sizes = [p for p in self.nest.params if kinds.get(p, ("size",))[0] == "size"]
        if not sizes:
            return None
        cfg = {p: max([c.get(p, 0) for c in self.nest.configs] + [1]) for p in sizes}
        base = dict(cfg)
        loops = {L.var: L for L in self.nest.loops()}
        for v, need in M.split_needs(m).items():
            ext = loops[v].extent()
            grow = [p for p in ext.names() if p in cfg]
            for _ in range(4 * need):
                if not grow or ext.eval(cfg) >= need:
                    break
                for p in grow:
                    cfg[p] += 1
        if cfg == base:
            return None
        for p in self.nest.params:
            if kinds.get(p, ("size",))[0] == "ld":
                cfg[p] = kinds[p][1].eval(cfg) + 1
        if instance_count(self.nest.body, cfg) > 4 * CHECK_BUDGET:
            return None
        return cfg

    def check(self, dirs):
        """None when legal, else the reason. The plugin checks each directive
        when it applies it, so every reorder (and tile) must keep the
        dependences where it stands, not only the whole schedule."""
        try:
            m = replay(self.nest, dirs)
            m.check_structure(self.nest.configs)
        except M.ModelError as e:
            return "model: %s" % e
        steps = [k + 1 for k, d in enumerate(dirs[:-1]) if d[0] in ("reorder", "tile")]
        for k in steps + [len(dirs)]:
            why = self.check_legal(replay(self.nest, dirs[:k]) if k < len(dirs) else m)
            if why:
                return why if k == len(dirs) else "%s (after %s)" % (why, fmt(dirs[k - 1]))
        return None

    def check_legal(self, m):
        """None when schedule state m keeps every dependence, at the run
        sizes and at the larger ones, else the reason."""
        try:
            M.check_legal(m, self.nest, self.traces, self.nest.configs)
        except M.Violation as e:
            return "dependence: %s" % e
        if not self.general:
            return None
        cfgs = list(self.general_configs)
        sized = self.sized_config(m)
        if sized is not None and sized not in cfgs:
            cfgs.append(sized)
        for cfg in cfgs:
            at = self.trace_at(cfg)
            if at is None:
                continue
            try:
                M.check_legal(m, self.nest, [at], [cfg])
            except M.Violation as e:
                return "dependence at sizes not run: %s" % e
        return None


class SchedGen:
    def __init__(self, rng, nest, oracle):
        self.rng = rng
        self.nest = nest
        self.oracle = oracle
        self.dirs = []
        self.m = None

    # ---- helpers
    def try_add(self, *ds):
        try:
            m = replay(self.nest, self.dirs + list(ds))
        except M.ModelError:
            return False
        self.dirs += list(ds)
        self.m = m
        return True

    def name(self, base):
        k = 0
        cand = base
        taken = self.m.names if self.m else set()
        while cand in taken or any(cand in d[1:] for d in self.dirs):
            k += 1
            cand = "%s%d" % (base, k)
        return cand

    def compute_loops(self):
        return [L for L in self.m.loops() if L.stage is None]

    def serial(self, loops):
        return [L for L in loops if L.kind == "serial"]

    def paths(self):
        """Loop paths (outermost first) to each original statement."""
        out = []
        for leaf, path in self.m.leaves():
            if leaf.sid is not None:
                out.append([L for L in path if isinstance(L, M.MLoop) and L.stage is None])
        return out

    def root_chain(self):
        chain, cur = [], self.m.root
        while len(cur) == 1 and isinstance(cur[0], M.MLoop):
            chain.append(cur[0])
            cur = cur[0].children
        return chain

    def factor(self, L):
        r = self.rng.random()
        if r < 0.2:
            return "nparts=%d" % self.rng.choice([2, 3, 4])
        if L.ext.is_const():
            e = L.ext.value()
            divs = [f for f in (2, 3, 4, 8, 16) if f < e and e % f == 0]
            if divs and self.rng.random() < 0.6:
                return str(self.rng.choice(divs))
        return str(self.rng.choice([2, 3, 4, 4, 8, 8, 16]))

    # ---- random loop transformations
    def op_split(self):
        cands = self.serial(self.compute_loops())
        if not cands:
            return
        L = self.rng.choice(cands)
        self.try_add(("split", L.name, self.name(L.name + "o"), self.name(L.name + "i"),
                      self.factor(L)))

    def op_tile(self):
        ps = [p for p in self.paths() if len(p) >= 2]
        if not ps:
            return
        p = self.rng.choice(ps)
        k = self.rng.randrange(len(p) - 1)
        x = p[k]
        y = p[k + 1] if self.rng.random() < 0.8 else self.rng.choice(p[k + 1:])
        fx = self.factor(x)
        fy = self.factor(y)
        if "=" in fx or "=" in fy:
            fx, fy = str(self.rng.choice([2, 4, 8])), str(self.rng.choice([2, 4, 8]))
        self.try_add(("tile", x.name, y.name, self.name(x.name + "o"), self.name(y.name + "o"),
                      self.name(x.name + "i"), self.name(y.name + "i"), fx, fy))

    def op_fuse(self):
        cands = [L for L in self.serial(self.compute_loops())
                 if len(L.children) == 1 and isinstance(L.children[0], M.MLoop)
                 and L.children[0].kind == "serial" and L.children[0].red == L.red]
        if not cands:
            return
        L = self.rng.choice(cands)
        B = L.children[0]
        self.try_add(("fuse", L.name, B.name, self.name(L.name + B.name)))

    def op_reorder(self):
        ps = [p for p in self.paths() if len(p) >= 2]
        if not ps:
            return
        p = self.rng.choice(ps)
        if self.rng.random() < 0.7:
            a = self.rng.randrange(len(p) - 1)
            b = self.rng.randrange(a + 2, len(p) + 1)
            sub = p[a:b]
        else:
            sub = sorted(self.rng.sample(p, self.rng.randint(2, len(p))), key=p.index)
        names = [L.name for L in sub]
        for _ in range(5):
            perm = list(names)
            self.rng.shuffle(perm)
            if perm != names:
                break
        if perm == names:
            return
        self.try_add(("reorder",) + tuple(perm))

    # ---- binding
    def plan_binds(self, max_blocks=2):
        """Binds: a prefix of the root chain to blocks, one or two loops
        below to threads, maybe a virtual thread. Returns the directives."""
        binds = []
        chain = [L for L in self.root_chain() if L.stage is None]
        nb = 0
        r = self.rng.random()
        if chain and r < 0.8:
            nb = 1 if r < 0.5 or len(chain) < 2 else min(len(chain), self.rng.choice([2, 2, 3]),
                                                         max_blocks + (r > 0.78))
        tags = ["blockIdx.x", "blockIdx.y", "blockIdx.z"]
        if nb >= 2 and self.rng.random() < 0.7:
            tags = ["blockIdx.y", "blockIdx.x", "blockIdx.z"]
        blocks = []
        for L in chain[:nb]:
            if L.red or L.kind != "serial":
                break
            binds.append(("bind", L.name, tags[len(blocks)]))
            blocks.append(L)
        # threads: on a random statement path, below the blocks
        ps = self.paths()
        if not ps or self.rng.random() < 0.15:
            return binds
        p = self.rng.choice(ps)
        below = [L for L in p if L not in blocks and L.kind == "serial" and not L.red]
        below = [L for L in below if L.ext.is_const() or self.rng.random() < 0.5]
        if not below:
            return binds
        nt = min(len(below), self.rng.choice([1, 1, 2, 2]))
        picked = sorted(self.rng.sample(below, nt), key=p.index)
        ttags = ["threadIdx.x"] if nt == 1 else ["threadIdx.y", "threadIdx.x"]
        if nt == 1 and self.rng.random() < 0.15:
            ttags = [self.rng.choice(["threadIdx.y", "threadIdx.z"])]
        used = set(L.name for L, in [(b,) for b in blocks])
        for L, t in zip(picked, ttags):
            binds.append(("bind", L.name, t))
            used.add(L.name)
        # sibling paths (distributed loops) may reuse threadIdx.x
        if self.rng.random() < 0.4:
            for q in ps:
                if q is p:
                    continue
                cands = [L for L in q if L.name not in used and L not in blocks
                         and L.kind == "serial" and not L.red
                         and not any(L is x for x in p)]
                if cands:
                    L = self.rng.choice(cands)
                    binds.append(("bind", L.name, "threadIdx.x"))
                    used.add(L.name)
                    break
        # a virtual thread (an existing small loop, or the outer part of a
        # split made for it)
        if self.rng.random() < 0.3:
            cands = [L for L in p if L.name not in used and L not in blocks and L.kind == "serial"
                     and not L.red and L.ext.is_const() and 2 <= L.ext.value() <= 4]
            tag = self.rng.choice(["vthread", "vthread", "cthread"])
            if cands:
                binds.append(("bind", self.rng.choice(cands).name, tag))
            else:
                cands = [L for L in p if L.name not in used and L not in blocks
                         and L.kind == "serial" and not L.red]
                if cands:
                    L = self.rng.choice(cands)
                    vo, vi = self.name(L.name + "v"), self.name(L.name + "r")
                    if self.try_add(("split", L.name, vo, vi, "nparts=2")):
                        binds.append(("bind", vo, tag))
        return binds

    # ---- cache stages
    def tensors(self, write):
        out = []
        for arr in self.nest.arrays:
            accs = self.nest.accesses_of(arr.name)
            if not accs:
                continue
            written = any(w for _, _, w in accs)
            if written == write and M.predicted_rank(self.nest, arr) is not None:
                out.append(arr)
        return out

    def declare_stage(self, write, scope=None, tensor=None):
        cands = self.tensors(write)
        if tensor is not None:
            cands = [a for a in cands if a.name == tensor]
        if not cands:
            return None
        arr = self.rng.choice(cands)
        if scope is None:
            scope = self.rng.choice(["shared", "shared", "local", "local", "global"] if not write
                                    else ["local", "local", "shared", "global"])
        s = self.name(arr.name + ("s" if scope == "shared" else "l" if scope == "local" else "g"))
        if not self.try_add(("cache_write" if write else "cache_read", arr.name, scope, s)):
            return None
        return s

    def attach_stage(self, s, at=None, binds=()):
        """compute_at(s, loop) at a loop enclosing every use, checked with
        the binds that will follow (they relax shared stages); drops the
        stage when no loop works."""
        st = self.m.stages[s]
        users = self.m._sids_using(st.tensor.name)
        cands = []
        for L in self.compute_loops():
            inside = {n.sid for n, _ in self.m.iter_nodes(L.children) if isinstance(n, M.MStmt)}
            if users <= inside:
                cands.append(L)
        if at is not None:
            cands = [L for L in cands if L.name == at] or cands
        else:
            self.rng.shuffle(cands)
        for L in cands[:4]:
            try:
                m = replay(self.nest, self.dirs + [("compute_at", s, L.name)] + list(binds))
                m.check_structure(self.nest.configs)
            except M.ModelError:
                continue
            self.dirs.append(("compute_at", s, L.name))
            self.m = replay(self.nest, self.dirs)
            return s
        self.dirs = [d for d in self.dirs if not (d[0].startswith("cache_") and d[3] == s)]
        self.m = replay(self.nest, self.dirs)
        return None

    def add_stage(self, write, scope=None, at=None, binds=(), tensor=None):
        s = self.declare_stage(write, scope, tensor)
        return s and self.attach_stage(s, at, binds)

    def stage_extras(self, s, binds):
        st = self.m.stages[s]
        if st.rank >= 2 and self.rng.random() < 0.3:
            self.try_add(("storage_align", s, "%s.ax%d" % (s, st.rank - 2),
                          self.rng.choice([8, 16, 32]), self.rng.choice([0, 1, 2])))
        if self.rng.random() < 0.3:
            self.try_add(("double_buffer", s))
        # a ring of copies filled ahead by cp.async (sm_80 cases; a warning
        # and no change for the others)
        if st.scope == "shared" and st.attach and self.rng.random() < 0.25:
            self.try_add(("pipeline", st.attach, "stages=%d" % self.rng.choice([2, 3, 4])))
        # cooperative fetch written out: fuse the axes, split by the
        # block's threadIdx.x extent, bind the inner part
        if st.scope == "shared" and self.rng.random() < 0.4:
            tx = [b for b in binds if b[2] == "threadIdx.x"]
            comp = [L for L in self.compute_loops() if tx and L.name == tx[0][1]]
            if comp and comp[0].ext.is_const():
                T = comp[0].ext.value()
                cur = "%s.ax0" % s
                ok = True
                for d in range(1, st.rank):
                    nxt = self.name("%s.f%d" % (s, d))
                    ok = ok and self.try_add(("fuse", cur, "%s.ax%d" % (s, d), nxt))
                    cur = nxt
                o, t = self.name(s + ".o"), self.name(s + ".t")
                if ok and self.try_add(("split", cur, o, t, str(T))):
                    binds.append(("bind", t, "threadIdx.x"))

    # ---- recipes
    def recipe_gemm(self):
        """DESIGN section 2: tiles to blocks, threads, k split, shared
        stages, local accumulator; run-time sizes welcome."""
        ps = [p for p in self.paths() if len(p) == 3]
        if not ps:
            return False
        i, j, k = ps[0]
        if i.red or j.red or not k.red:
            return False
        T = self.rng.choice([8, 16, 16, 32])
        t = self.rng.choice([2, 4]) if T > 8 else 2
        KT = self.rng.choice([2, 4, 8])
        io, jo, ii, ji = (self.name(x) for x in ("io", "jo", "ii", "ji"))
        ko, ki, ty, tx, ii2, ji2 = (self.name(x) for x in ("ko", "ki", "ty", "tx", "ii2", "ji2"))
        ok = self.try_add(("tile", i.name, j.name, io, jo, ii, ji, T, T),
                          ("split", k.name, ko, ki, KT))
        vt = self.rng.random() < 0.25
        if vt:
            vy, vx, ii1, ji1 = (self.name(x) for x in ("vy", "vx", "ii1", "ji1"))
            ok = ok and self.try_add(("split", ii, vy, ii1, "nparts=2"),
                                     ("split", ji, vx, ji1, "nparts=2"),
                                     ("split", ii1, ty, ii2, "nparts=%d" % (T // t // 2)),
                                     ("split", ji1, tx, ji2, "nparts=%d" % (T // t // 2)),
                                     ("reorder", io, jo, vy, vx, ty, tx, ko, ki, ii2, ji2))
        else:
            ok = ok and self.try_add(("split", ii, ty, ii2, "nparts=%d" % (T // t)),
                                     ("split", ji, tx, ji2, "nparts=%d" % (T // t)),
                                     ("reorder", io, jo, ty, tx, ko, ki, ii2, ji2))
        if not ok:
            return False
        binds = [("bind", io, "blockIdx.y"), ("bind", jo, "blockIdx.x"),
                 ("bind", ty, "threadIdx.y"), ("bind", tx, "threadIdx.x")]
        if vt:
            binds[2:2] = [("bind", vy, "vthread"), ("bind", vx, "vthread")]
        early = self.rng.random() < 0.5
        if early:
            self.dirs += binds
            self.m = replay(self.nest, self.dirs)
        stages = []
        reads = [a.name for a in self.tensors(False)]
        for t in reads[:2]:
            if self.rng.random() < 0.75:
                s = self.add_stage(False, "shared", ko, [] if early else binds, tensor=t)
                if s:
                    stages.append(s)
        if self.rng.random() < 0.3:
            self.add_stage(True, "local", tx, [] if early else binds)
        for s in stages:
            self.stage_extras(s, binds if not early else [])
        if not early:
            self.dirs += binds
        if self.rng.random() < 0.3:
            self.try_add(("unroll", ki))
        return True

    def recipe_elementwise(self):
        chain = self.root_chain()
        cur = chain[0] if chain else None
        if cur is None or cur.red:
            return False
        # fuse the perfect prefix
        k = 1
        while k < len(chain) and self.rng.random() < 0.7:
            nxt = chain[k]
            if nxt.red or not self.try_add(("fuse", cur.name, nxt.name,
                                            self.name(cur.name + nxt.name))):
                break
            cur = self.m.find(self.dirs[-1][3])[0]
            k += 1
        bx, tx = self.name("bx"), self.name("tx")
        if not self.try_add(("split", cur.name, bx, tx, self.rng.choice(["32", "64", "128", "8",
                                                                        "nparts=4"]))):
            return False
        self.dirs += [("bind", bx, "blockIdx.x"), ("bind", tx, "threadIdx.x")]
        return True

    def recipe_rows(self):
        chain = self.root_chain()
        if not chain or chain[0].red:
            return False
        L = chain[0]
        if self.rng.random() < 0.5:
            self.dirs.append(("bind", L.name, "blockIdx.x"))
            return True
        bo, ti = self.name(L.name + "o"), self.name(L.name + "t")
        if not self.try_add(("split", L.name, bo, ti, self.rng.choice(["2", "4", "nparts=3"]))):
            return False
        self.dirs += [("bind", bo, "blockIdx.x"), ("bind", ti, "threadIdx.x")]
        return True

    # ---- one candidate
    def candidate(self):
        self.dirs = [("target", "gpu")]
        self.m = replay(self.nest, self.dirs)
        fam = self.nest.family
        r = self.rng.random()
        if fam in ("gemm",) and r < 0.5:
            if self.recipe_gemm():
                return self.finish_annotations()
            self.dirs = [("target", "gpu")]
            self.m = replay(self.nest, self.dirs)
        if r < 0.12:
            if self.recipe_elementwise():
                return self.finish_annotations()
        elif r < 0.22:
            if self.recipe_rows():
                return self.finish_annotations()
        self.dirs = [("target", "gpu")]
        self.m = replay(self.nest, self.dirs)
        early_stage = None
        if self.rng.random() < 0.1:
            # a root stage declared first, computed at a loop later
            early_stage = self.declare_stage(self.rng.random() < 0.4)
        ops = self.rng.choice([0, 1, 1, 2, 2, 3, 3, 4, 5])
        for _ in range(ops):
            x = self.rng.random()
            if x < 0.42:
                self.op_split()
            elif x < 0.55:
                self.op_tile()
            elif x < 0.78:
                self.op_reorder()
            else:
                self.op_fuse()
        if early_stage and not self.attach_stage(early_stage):
            early_stage = None
        if early_stage:
            self.stage_extras(early_stage, [])
        binds = self.plan_binds() if self.rng.random() < 0.85 else []
        early = self.rng.random() < 0.4
        if early:
            for b in binds:
                self.try_add(b)
            binds = []
        if self.rng.random() < 0.45:
            s = self.add_stage(self.rng.random() < 0.5, binds=binds)
            if s:
                self.stage_extras(s, binds)
        for b in binds:
            self.try_add(b)
        self.local_scopes()
        return self.finish_annotations()

    def local_scopes(self):
        for arr in self.nest.local_arrays():
            if self.rng.random() < 0.75:
                scope = self.rng.choice(["shared", "shared", "shared", "local", "global"])
                self.try_add(("set_scope", arr.name, scope))

    def finish_annotations(self):
        if self.rng.random() < 0.25:
            c = self.serial(self.compute_loops())
            if c:
                self.try_add(("unroll", self.rng.choice(c).name))
        if self.rng.random() < 0.2:
            c = [L for L in self.serial(self.compute_loops()) if L.ext.is_const() and not L.red]
            if c:
                self.try_add(("vectorize", self.rng.choice(c).name))
        return list(self.dirs)

    def maybe_tensorcore(self, dirs):
        """Sometimes asks for tensorcore(auto) as well (after target): it
        must never change the results, whether it applies or not. The last
        draw of the case, so the rest of the schedule is what it was."""
        if self.rng.random() < 0.3:
            return dirs[:1] + [("tensorcore", "auto")] + dirs[1:]
        return dirs

    def generate(self, attempts=12):
        """A legal schedule: the first candidate the oracle accepts that does
        more than target(gpu); (schedule, rejected reasons)."""
        rejected = []
        for _ in range(attempts):
            dirs = self.candidate()
            # the plugin sees the directives in this order
            if len(dirs) <= 1:
                continue
            why = self.oracle.check(dirs)
            if why is None:
                return self.maybe_tensorcore(dirs), rejected
            rejected.append(why)
            # try the same candidate without its binds and annotations
            core = [d for d in dirs if d[0] not in ("bind", "unroll", "vectorize")]
            if len(core) > 1 and self.oracle.check(core) is None and self.rng.random() < 0.3:
                return core, rejected
        return [("target", "gpu")], rejected
