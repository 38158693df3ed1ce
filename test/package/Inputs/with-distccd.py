#!/usr/bin/env python3
"""with-distccd.py WORKDIR COMPILER -- COMMAND...

Runs COMMAND with a distcc server on loopback: starts distccd (in the
foreground, as a child) on a free port of 127.0.0.1, serving only COMPILER
(an absolute path, through DISTCC_CMDLIST: what a node's administrator
allows), points the distcc client at it with local fallback off (a compile
the server refuses fails instead of quietly running here), runs COMMAND,
stops the server, and exits with COMMAND's status. The server's log is
WORKDIR/distccd.log."""
import os
import socket
import subprocess
import sys
import time


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main():
    work, compiler = sys.argv[1], sys.argv[2]
    command = sys.argv[sys.argv.index("--") + 1:]
    os.makedirs(work, exist_ok=True)
    cmdlist = os.path.join(work, "cmdlist")
    with open(cmdlist, "w") as f:
        f.write(compiler + "\n")
    log = os.path.join(work, "distccd.log")
    port = free_port()
    # The server drops root for its own user: its working and temporary
    # directories must be ones that user can use (lit's TMPDIR is not).
    server_env = dict(os.environ, DISTCC_CMDLIST=cmdlist, TMPDIR="/tmp")
    # Its log goes to stderr, which this script writes.
    log_file = open(log, "w")
    server = subprocess.Popen(
        ["distccd", "--daemon", "--no-detach", "--listen", "127.0.0.1", "--port", str(port),
         "--allow", "127.0.0.1", "--jobs", "1", "--log-stderr", "--log-level", "info"],
        env=server_env, stderr=log_file, cwd="/")
    try:
        for _ in range(100):  # wait until it listens
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
                break
            except OSError:
                time.sleep(0.05)
        os.makedirs(os.path.join(work, "client"), exist_ok=True)
        client_env = dict(os.environ, DISTCC_HOSTS="127.0.0.1:%d/1" % port, DISTCC_FALLBACK="0",
                          DISTCC_SKIP_LOCAL_RETRY="1", DISTCC_IO_TIMEOUT="120",
                          DISTCC_DIR=os.path.join(work, "client"))
        status = subprocess.call(command, env=client_env)
        # The server's child writes a job's summary after the client has its
        # answer: wait (a while at most) until each connection has one, so
        # the log is whole when it is read.
        for _ in range(200):
            with open(log) as f:
                text = f.read()
            if text.count("(dcc_job_summary)") >= text.count("(dcc_check_client) connection"):
                break
            time.sleep(0.05)
        return status
    finally:
        server.terminate()
        server.wait()
        log_file.close()


if __name__ == "__main__":
    sys.exit(main())
