#!/usr/bin/env python3
"""sched-fuzz: differential fuzzer of the sched plugin.

Random affine loop nests with random legal `#pragma sched` schedules, built
plain and with the plugin, run natively and under SCHED_BACKEND=sim and (GPU
nests) emu, outputs compared. Each seed gives one case (nest, sizes, schedule), deterministic
from random.Random(seed). See README.md ("Fuzzing") and fuzzlib/*.py.

  sched_fuzz.py N [START]          run seeds START..START+N-1, print a summary
  sched_fuzz.py --minimize SEED    shrink one failing case, print it
  sched_fuzz.py --show SEED        print the case's program
  sched_fuzz.py --family vta N     the target(vta) cases (their own seeds)
  sched_fuzz.py N --min-ok 0.95    also fail when under 95% of the cases are ok
"""
import argparse
import concurrent.futures
import os
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from fuzzlib.cases import make_case  # noqa: E402
from fuzzlib.program import build_program  # noqa: E402
from fuzzlib.report import ok_floor_failure, summarize, write_case  # noqa: E402
from fuzzlib.runner import Runner, FAILING, Result  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def make_cases(seeds, family=None):
    cases = {}
    for s in seeds:
        try:
            cases[s] = make_case(s, family)
        except Exception as e:  # a generator bug must not stop the run
            cases[s] = e
    return cases


def keep_case(keep_dir, case, result):
    write_case(os.path.join(keep_dir, "%s-%d" % (result.cls, case.seed)), case, result,
               "seed %d, family %s" % (case.seed, case.nest.family),
               after=[("output difference (- plain, + plugin under sim, or emu when the "
                        "message says so)",
                       result.diff.splitlines())])


def run_fuzz(args):
    seeds = list(range(args.start, args.start + args.count))
    runner = Runner(args.build, tempfile.mkdtemp(prefix="sched-fuzz-"), timeout=args.timeout,
                    emu=args.family != "vta")
    t0 = time.time()
    results = {}
    cases = {}
    batches = [seeds[k:k + args.batch] for k in range(0, len(seeds), args.batch)]

    def work(batch):
        made = make_cases(batch, args.family)
        good = [c for c in made.values() if not isinstance(c, Exception)]
        res = runner.run_batch(good, "%d" % batch[0]) if good else {}
        d = res.pop("__dir__", None) if res else None
        for s, c in made.items():
            if isinstance(c, Exception):
                r = Result(s)
                r.set("generator-error", "generator: %s: %s" % (type(c).__name__, c))
                res[s] = r
        if d and not args.keep_temps:
            shutil.rmtree(d, ignore_errors=True)
        return made, res

    done = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as ex:
        for made, res in ex.map(work, batches):
            cases.update(made)
            results.update(res)
            done += len(made)
            if not args.quiet:
                bad = [s for s, r in res.items() if r.cls in FAILING]
                sys.stderr.write("\r[%d/%d] %.0fs%s" % (done, len(seeds), time.time() - t0,
                                                         (" failing: %s" % bad) if bad else ""))
                if bad:
                    sys.stderr.write("\n")
                sys.stderr.flush()
    if not args.quiet:
        sys.stderr.write("\n")
    shutil.rmtree(runner.workdir, ignore_errors=True)
    real = {s: c for s, c in cases.items() if not isinstance(c, Exception)}
    for s, c in cases.items():
        if isinstance(c, Exception):
            class Dummy:
                directives = []
                nest = type("N", (), {"family": "?"})()
            real[s] = Dummy()
    counts = summarize(real, results, sys.stdout)
    print("\n%d cases in %.0f s (build %s)" % (len(results), time.time() - t0, args.build))
    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
        for s, r in results.items():
            if r.cls != "ok" and not isinstance(cases[s], Exception):
                keep_case(args.keep, cases[s], r)
        print("non-OK cases written to %s" % args.keep)
    fail = [c for c in args.fail_on.split(",") if c]
    bad = sum(counts.get(c, 0) for c in fail)
    floor = ok_floor_failure(counts, len(results), args.min_ok)
    if floor:
        print(floor)
    return 1 if bad or floor else 0


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("count", nargs="?", type=int, default=100, help="number of seeds")
    p.add_argument("start", nargs="?", type=int, default=0, help="first seed")
    p.add_argument("--build", default=os.path.join(ROOT, "build"),
                   help="sched build directory (default: the repository's build/)")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--batch", type=int, default=10, help="cases per compiled program")
    p.add_argument("--timeout", type=int, default=60, help="seconds per program run")
    p.add_argument("--keep", metavar="DIR", help="write every non-OK case to DIR")
    p.add_argument("--keep-temps", action="store_true")
    p.add_argument("--fail-on", default="wrong,race,uninit,crash,timeout,generator-error",
                   help="classes that make the exit status 1")
    p.add_argument("--quiet", action="store_true")
    p.add_argument("--min-ok", type=float, metavar="FRACTION",
                   help="exit 1 when fewer than this share of the cases are ok (0..1): a change that "
                        "makes the plugin fall back more fails the run even where nothing is wrong")
    p.add_argument("--minimize", metavar="SEED|DIR",
                   help="a seed, or a directory --keep wrote (its case.pkl: the case as it was "
                        "generated, even if the generator changed since)")
    p.add_argument("--out", metavar="DIR", help="with --minimize: write the reproduction here")
    p.add_argument("--show", type=int, metavar="SEED")
    p.add_argument("--family", choices=["vta"],
                   help="vta: the target(vta) cases (fuzzlib/vta.py), seeds of their own; "
                        "default: the GPU nests")
    args = p.parse_args()
    if args.min_ok is not None and not 0 <= args.min_ok <= 1:
        p.error("--min-ok takes a fraction between 0 and 1")
    if args.minimize is not None and not args.minimize.isdigit() and \
            not os.path.isdir(args.minimize):
        p.error("--minimize takes a seed or a --keep directory")
    if args.show is not None:
        c = make_case(args.show, args.family)
        sys.stdout.write(build_program([c]))
        return 0
    if args.minimize is not None:
        from fuzzlib.minimize import minimize
        return minimize(args)
    return run_fuzz(args)


if __name__ == "__main__":
    sys.exit(main())
