#!/usr/bin/env python3
"""The directive examples of docs/pragma.md ("Each directive by example"):
every example there is an IR input (an ```ir block), the schedule it is given
(a line `sched-opt --schedule='...' --print-scheduled`) and the scheduled IR
sched-opt prints (the ```text block after it).

  directive_examples.py --check PAGE --sched-opt BIN   each printed IR is what sched-opt prints now
  directive_examples.py --write PAGE --sched-opt BIN   rewrite every ```text block with it

A change of the output makes --check fail (test/e2e/directive-examples-print-what-the-docs-show.test):
rerun --write and read the difference.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

EXAMPLE = re.compile(
    r"```ir\n(?P<ir>.*?)```\n\n`sched-opt --schedule='(?P<sched>[^']*)' --print-scheduled`:\n\n"
    r"```text\n(?P<out>.*?)```", re.S)


def scheduled(sched_opt, ir, schedule):
    with tempfile.NamedTemporaryFile("w", suffix=".ir", delete=False) as f:
        f.write(ir)
        path = f.name
    try:
        r = subprocess.run([sched_opt, path, "--schedule=" + schedule, "--print-scheduled"],
                           capture_output=True, text=True)
    finally:
        os.unlink(path)
    if r.returncode != 0:
        return None, r.stderr
    return r.stdout, ""


def main():
    ap = argparse.ArgumentParser()
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", metavar="PAGE")
    mode.add_argument("--write", metavar="PAGE")
    ap.add_argument("--sched-opt", required=True)
    args = ap.parse_args()
    page = args.check or args.write
    text = open(page).read()
    bad, count = 0, 0
    pieces, last = [], 0
    for m in EXAMPLE.finditer(text):
        count += 1
        out, err = scheduled(args.sched_opt, m.group("ir"), m.group("sched"))
        if out is None:
            print("example %d (%s): sched-opt failed:\n%s" % (count, m.group("sched"), err))
            bad += 1
            continue
        if args.check and out != m.group("out"):
            print("example %d (%s): the page shows\n%s\nbut sched-opt prints\n%s" %
                  (count, m.group("sched"), m.group("out"), out))
            bad += 1
        pieces.append(text[last:m.start("out")] + out)
        last = m.end("out")
    if args.write:
        pieces.append(text[last:])
        open(page, "w").write("".join(pieces))
    print("%d examples, %d differ or fail" % (count, bad))
    return 1 if bad or not count else 0


if __name__ == "__main__":
    sys.exit(main())
