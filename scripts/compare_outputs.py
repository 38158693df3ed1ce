#!/usr/bin/env python3
"""Compares the output of a plugin-built program with its plain (reference) build.

Both outputs must have the same words in the same order; numbers may differ by a
relative tolerance (a GPU's fused multiply-add rounds differently from the CPU).
Prints `matches the reference` and exits 0, or says where they differ and exits 1.
"""
import argparse
import sys

# The default tolerance (bench/gpu-check uses it too).
DEFAULT_RTOL = 1e-5
DEFAULT_ATOL = 1e-4


def is_number(word):
    try:
        float(word)
        return True
    except ValueError:
        return False


def close(a, b, rtol, atol):
    return abs(a - b) <= atol + rtol * max(abs(a), abs(b))


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("reference")
    p.add_argument("candidate")
    p.add_argument("--rtol", type=float, default=DEFAULT_RTOL)
    p.add_argument("--atol", type=float, default=DEFAULT_ATOL)
    args = p.parse_args()
    ref = open(args.reference).read().split()
    got = open(args.candidate).read().split()
    if not ref:
        print("the reference printed nothing", file=sys.stderr)
        return 1
    if len(ref) != len(got):
        print(f"outputs differ in length: {len(ref)} vs {len(got)} words", file=sys.stderr)
        return 1
    for n, (r, g) in enumerate(zip(ref, got)):
        if is_number(r) and is_number(g):
            if not close(float(r), float(g), args.rtol, args.atol):
                print(f"word {n}: reference {r}, got {g}", file=sys.stderr)
                return 1
        elif r != g:
            print(f"word {n}: reference '{r}', got '{g}'", file=sys.stderr)
            return 1
    print("matches the reference")
    return 0


if __name__ == "__main__":
    sys.exit(main())
