#!/usr/bin/env python3
"""run-doc-example.py DOC PREFIX

Runs the example of a documentation page as a user would, outside sched's
repository: every fenced block after a `<!-- file: PATH -->` line is written
to PATH under a new temporary directory (not inside the repository), then
the block after `<!-- run: ... -->` is run there as a shell command, with
`P/` meaning PREFIX/. Prints the command's output; exits with its status."""
import os
import re
import shutil
import subprocess
import sys
import tempfile


def blocks(text):
    """(marker kind, marker value, block text) for each marked fenced block."""
    pattern = re.compile(r"<!-- (file|run): (\S+) -->\n```[a-z+]*\n(.*?)```", re.S)
    return [(m.group(1), m.group(2), m.group(3)) for m in pattern.finditer(text)]


def main():
    doc, prefix = sys.argv[1], os.path.abspath(sys.argv[2])
    repo = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
    work = tempfile.mkdtemp(prefix="sched-doc-example-")
    if os.path.commonpath([work, repo]) == repo:
        sys.exit("error: %s is inside the repository %s" % (work, repo))
    try:
        commands = []
        with open(doc) as f:
            for kind, value, body in blocks(f.read()):
                if kind == "file":
                    path = os.path.join(work, value)
                    os.makedirs(os.path.dirname(path), exist_ok=True)
                    with open(path, "w") as out:
                        out.write(body)
                    print("wrote", value)
                else:
                    commands.append(body.strip().replace("P/", prefix + "/"))
        if not commands:
            sys.exit("error: %s has no <!-- run: --> block" % doc)
        status = 0
        for command in commands:
            print("$", command, flush=True)
            status |= subprocess.call(command, shell=True, cwd=work, stderr=subprocess.STDOUT)
        return status
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
