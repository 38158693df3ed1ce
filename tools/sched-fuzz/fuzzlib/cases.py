"""A fuzz case from its seed: nest, sizes and a legal schedule, all drawn
from random.Random(seed)."""
import random

from .gen import generate_nest
from .program import Case
from .schedgen import Oracle, SchedGen, fmt, replay


def make_case(seed, family=None):
    rng = random.Random(seed)
    nest, _ = generate_nest(rng, "nest_%d" % seed, family)
    oracle = Oracle(nest)
    dirs, _ = SchedGen(rng, nest, oracle).generate()
    case = Case(seed, nest, [fmt(d) for d in dirs])
    case.directives = dirs
    case.oracle = oracle
    case.partial_reorder = replay(nest, dirs).partial_reorder
    return case
