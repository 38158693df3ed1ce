"""A fuzz case from its seed: nest, sizes and a legal schedule, all drawn
from random.Random(seed)."""
import random

from .gen import generate_nest
from .program import Case
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


def make_case(seed, family=None):
    if family == "vta":  # its own seed space: fuzzlib/vta.py
        from .vta import make_vta_case
        return make_vta_case(seed)
    rng = random.Random(seed)
    nest, _ = generate_nest(rng, "nest_%d" % seed, family)
    nest.c89 = c89_style(seed)
    oracle = Oracle(nest)
    dirs, _ = SchedGen(rng, nest, oracle).generate()
    case = Case(seed, nest, [fmt(d) for d in dirs])
    case.directives = dirs
    case.oracle = oracle
    case.partial_reorder = replay(nest, dirs).partial_reorder
    return case


def save_case(case, path):
    """Pickles what makes the case (not the oracle's traces), so that a case
    can be minimized later even when the generator has changed since."""
    import pickle
    with open(path, "wb") as f:
        pickle.dump({"seed": case.seed, "nest": case.nest, "directives": case.directives,
                     "partial_reorder": getattr(case, "partial_reorder", False)}, f)


def load_case(path):
    import pickle
    with open(path, "rb") as f:
        d = pickle.load(f)
    case = Case(d["seed"], d["nest"], [fmt(x) for x in d["directives"]])
    case.directives = d["directives"]
    case.partial_reorder = d["partial_reorder"]
    case.oracle = Oracle(case.nest)
    return case
