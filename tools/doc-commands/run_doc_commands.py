#!/usr/bin/env python3
"""Runs the shell commands of documentation pages as written.

Usage: run_doc_commands.py --root REPO --build BUILD PAGE.md [PAGE.md ...]

Every ```sh block of a page is a command a reader types from the repository
root after building. The blocks of one page run in order in one bash session
(`set -e`, so a variable set in one block is there for the next), in a fresh
directory that holds links to the repository's folders, so outputs such as
`-o softmax` stay out of the repository; `build` links to BUILD (the build
the tests use). Prints each page's commands and exits non-zero on the first
page whose commands fail.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

BLOCK = re.compile(r"^```sh\n(.*?)^```", re.S | re.M)


def commands(page):
    with open(page) as f:
        return [b for b in BLOCK.findall(f.read())]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", required=True)
    ap.add_argument("--build", required=True)
    ap.add_argument("pages", nargs="+")
    args = ap.parse_args()
    root, build = os.path.abspath(args.root), os.path.abspath(args.build)
    for page in args.pages:
        blocks = commands(page)
        if not blocks:
            print("%s: no sh blocks" % page)
            return 1
        with tempfile.TemporaryDirectory() as work:
            for name in os.listdir(root):
                if name in (".git", "build"):
                    continue
                os.symlink(os.path.join(root, name), os.path.join(work, name))
            os.symlink(build, os.path.join(work, "build"))
            script = "set -e\n" + "\n".join(blocks)
            print("== %s (%d blocks)" % (os.path.relpath(page, root), len(blocks)))
            sys.stdout.flush()
            r = subprocess.run(["bash", "-c", script], cwd=work)
            if r.returncode != 0:
                print("%s: the commands failed (exit %d)" % (page, r.returncode))
                return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
