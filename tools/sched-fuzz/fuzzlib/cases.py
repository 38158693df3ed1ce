"""A fuzz case from its seed: nest, sizes and a legal schedule, all drawn
from random.Random(seed)."""
import random

from . import nest as N
from .gen import GenFailed, generate_nest, prepare
from .poly import Poly
from .program import Case
from . import model as M
from .schedgen import Oracle, SchedGen, fmt, replay


def c89_style(seed):
    """Whether case `seed` is written in C89 style (nest.py, Nest.c89): about
    a third of the cases, drawn from a stream of its own so that the nest and
    schedule of every seed stay what they were."""
    rng = random.Random(seed * 7919 + 0xC89)
    if rng.random() >= 0.35:
        return None
    style = {"init": rng.random() < 0.5, "post": rng.random() < 0.5}
    # Scalars declared at the top too, assigned where the nest declared them.
    style["scalars"] = rng.random() < 0.5
    return style


def triangular_bounds(seed, nest):
    """Makes some inner loops of case `seed` triangular (nest.Loop.tri:
    `j < min(hi, i + c)` for an enclosing loop i, c in 0..2, or the clamp
    `min(hi, c)`), in about a quarter of the cases, drawn from a stream of
    its own so that every other case stays what it was. The iterations are
    a subset of the rectangular nest's, so its sizes and allocations still
    hold; a nest whose reference run then fails keeps its bounds."""
    rng = random.Random(seed * 104729 + 0x7121)
    if rng.random() >= 0.25:
        return
    cands = []

    def visit(body, loops):
        for n in body:
            if isinstance(n, N.Loop):
                outer = [l for l in loops if l.tri is None]
                if outer and n.lo == 0:
                    cands.append((n, outer))
                visit(n.body, loops + [n])
            elif isinstance(n, N.If):
                visit(n.body, loops)
    visit(nest.body, [])
    if not cands:
        return
    chosen = []
    for n, outer in rng.sample(cands, min(len(cands), rng.choice([1, 1, 2]))):
        if rng.random() < 0.15:
            n.tri = Poly.const(rng.choice([2, 3, 5]))
        else:
            o = rng.choice(outer)
            n.tri = Poly.var(o.var) + (rng.choice([0, 1, 1, 2]) - o.lo)
        chosen.append(n)
    try:
        prepare(nest)
    except GenFailed:
        for n in chosen:
            n.tri = None
        prepare(nest)


def reduction_bind(seed, nest, oracle, dirs):
    """Binds a reduction loop of case `seed` (or the inner part of a split
    of it) to threadIdx.x, a cross-thread reduction, in about half of the
    cases where the oracle finds one legal; drawn from a stream of its own,
    after the rest of the schedule, so every other case stays what it
    was."""
    rng = random.Random(seed * 15485863 + 0x23D)
    if rng.random() >= 0.5:
        return dirs
    try:
        m = replay(nest, dirs)
    except Exception:
        return dirs
    cands = [L for L in m.loops() if L.red and L.kind == "serial" and L.stage is None]
    rng.shuffle(cands)
    taken = set(m.names) | set(x for d in dirs for x in d[1:] if isinstance(x, str))
    # Across blocks too (atomic(C)): a reduction loop on the root chain,
    # below only block loops.
    chain, cur = [], m.root
    while len(cur) == 1 and isinstance(cur[0], M.MLoop):
        chain.append(cur[0])
        cur = cur[0].children
    used = set(L.tag for L in chain if L.kind == "bound")
    free = [t for t in ("blockIdx.x", "blockIdx.y", "blockIdx.z") if t not in used]
    for L in cands[:3]:
        tries = []
        # the loops above L on the chain: bound to blocks already, or bound now
        pre, tags, ok = [], list(free), L in chain
        for P in chain[:chain.index(L)] if ok else []:
            if P.kind == "bound" and P.tag in M.BLOCK_TAGS:
                continue
            if P.kind != "serial" or P.red or not tags:
                ok = False
                break
            pre.append(("bind", P.name, tags.pop()))
        if ok and tags and rng.random() < 0.5:
            why, targets = m._reduction_targets(L, for_blocks=True)
            atomics = [("atomic", t) for t in sorted(targets)] if rng.random() < 0.5 else []
            tag = tags[0]
            tries.append(atomics + pre + [("bind", L.name, tag)])
            f = rng.choice([16, 32, 64])
            o, i = L.name + "_bo", L.name + "_bi"
            if o not in taken and i not in taken:
                tries.append([("split", L.name, o, i, str(f))] + atomics + pre +
                             [("bind", o, tag), ("bind", i, "threadIdx.x")])
        if rng.random() < 0.35:
            # rfactor: the partials by the inner part of a split, each
            # thread one; then the partials reduced across the threads
            f = rng.choice([8, 32, 64])
            o, i, r = L.name + "_fo", L.name + "_fi", L.name + "_rf"
            if not taken & {o, i, r, r + ".init", r + ".r"}:
                init = [("bind", r + ".init", "threadIdx.x")] if rng.random() < 0.5 else []
                tries.insert(0, [("split", L.name, o, i, str(f)), ("rfactor", o, i, r),
                                 ("bind", i, "threadIdx.x")] + init +
                             [("bind", r + ".r", "threadIdx.x")])
        if L.ext.is_const() and L.ext.value() <= 256:
            tries.append([("bind", L.name, "threadIdx.x")])
        for f in rng.sample([8, 32, 48, 64, 96], 2):
            o, i = L.name + "_ro", L.name + "_ri"
            if o in taken or i in taken:
                continue
            tries.append([("split", L.name, o, i, str(f)), ("bind", i, "threadIdx.x")])
        for extra in tries:
            if oracle.check(dirs + extra) is None:
                return dirs + extra
    return dirs


def atomic_reduction(seed, nest, oracle, dirs):
    """In about a third of the cases whose nest has a reduction loop under
    only spatial loops (a perfect chain from the root, updating a parameter
    array), replaces the schedule by one that reduces it across blocks with
    blocks: the loops above bound to blocks, the reduction loop bound to a
    block dimension, or split with its inner part on threadIdx.x; with
    atomic(C) in half of them (a float sum is then added up as the blocks
    finish, else in block order by the last block). The
    generated schedules rarely leave such a chain (its loops get tiled and
    bound to threads), so this is where atomic() is exercised. Its own RNG
    stream; a case it does not change stays what it was."""
    rng = random.Random(seed * 32452843 + 0xA70)
    if rng.random() >= 0.35:
        return None
    try:
        m = replay(nest, dirs[:1])
    except Exception:
        return None
    chain, cur = [], m.root
    while len(cur) == 1 and isinstance(cur[0], M.MLoop):
        chain.append(cur[0])
        cur = cur[0].children
    for k, L in enumerate(chain):
        if not L.red or L.kind != "serial":
            continue
        above = chain[:k]
        if len(above) > 2 or any(P.red or P.kind != "serial" for P in above):
            break
        why, targets = m._reduction_targets(L, for_blocks=True)
        if why or not targets:
            break
        tags = ["blockIdx.z", "blockIdx.y", "blockIdx.x"]
        pre = [("bind", P.name, tags.pop(0)) for P in above]
        atomics = [("atomic", t) for t in sorted(targets)] if rng.random() < 0.5 else []
        tag = tags[-1]
        f = rng.choice([16, 32, 64])
        o, i = L.name + "_bo", L.name + "_bi"
        tries = [dirs[:1] + atomics + pre + [("split", L.name, o, i, str(f)), ("bind", o, tag),
                                              ("bind", i, "threadIdx.x")],
                 dirs[:1] + atomics + pre + [("bind", L.name, tag)]]
        if rng.random() < 0.5:
            tries.reverse()
        for t in tries:
            if oracle.check(t) is None:
                return t
        break
    return None


def make_case(seed, family=None):
    if family == "vta":  # its own seed space: fuzzlib/vta.py
        from .vta import make_vta_case
        return make_vta_case(seed)
    rng = random.Random(seed)
    nest, _ = generate_nest(rng, "nest_%d" % seed, family)
    nest.c89 = c89_style(seed)
    triangular_bounds(seed, nest)
    oracle = Oracle(nest)
    dirs, _ = SchedGen(rng, nest, oracle).generate()
    dirs = atomic_reduction(seed, nest, oracle, dirs) or reduction_bind(seed, nest, oracle, dirs)
    case = Case(seed, nest, [fmt(d) for d in dirs])
    case.directives = dirs
    case.oracle = oracle
    m = replay(nest, dirs)
    case.partial_reorder = m.partial_reorder
    case.cross_thread = any(L.combine for L in m.loops())
    return case


def save_case(case, path):
    """Pickles what makes the case (not the oracle's traces), so that a case
    can be minimized later even when the generator has changed since."""
    import pickle
    with open(path, "wb") as f:
        pickle.dump({"seed": case.seed, "nest": case.nest, "directives": case.directives,
                     "partial_reorder": getattr(case, "partial_reorder", False),
                     "spec": getattr(case, "spec", None)}, f)


def load_case(path):
    import pickle
    with open(path, "rb") as f:
        d = pickle.load(f)
    if d.get("spec") is not None:  # a VTA case: its spec writes it again
        from .vta import case_of_spec
        return case_of_spec(d["seed"], d["spec"])
    case = Case(d["seed"], d["nest"], [fmt(x) for x in d["directives"]])
    case.directives = d["directives"]
    case.partial_reorder = d["partial_reorder"]
    case.oracle = Oracle(case.nest)
    return case
