"""Builds and runs batches of cases and classifies each case.

Per batch: one plain build (`clang++-19 -std=c++17 -O1 -Wno-unknown-pragmas`)
and one plugin build; a plugin error in one case removes that case's pragmas
and the batch is compiled again (the case is `refused`); a compiler crash
splits the batch to find the case. Both binaries run; the plugin one under
SCHED_BACKEND=sim SCHED_VERBOSE=1. A run that stops (a sim error, a race
report, a signal, a timeout) is blamed on one case: the one whose kernel the
fatal runtime message names, else the one running; the program then runs
again without it for every case that did not finish (run_all). A case is
judged by its own fatal message or by how its run ended, never by a note
(`ran on sim`, `ran the original loop on host: ...`). A launch that failed
before touching the program's data says so (`...; ran the original loop
instead`) and the run goes on: that case is a crash too, though it finished.

Classes: ok, refused, fallback, wrong, race, uninit (a read of shared or
local memory nothing wrote, the simulator's initialization check), crash,
timeout (and generator-error when the PLAIN build or run fails: a bug of the
fuzzer).

The plugin binary of a GPU batch also runs under SCHED_BACKEND=emu (the
emitted CUDA compiled for the CPU, runtime/emu), compared with the plain
build the same way (compare_emu): sim checks the IR, emu the CUDA text. A
difference there is `wrong`, a stop `crash` or `timeout`, each message
starting with "emu: ".
"""
import os
import re
import subprocess
import tempfile

from .program import build_program

CLANG = os.environ.get("SCHED_FUZZ_CXX", "clang++-19")
# empty: every launch of the case had no iterations (a loop that runs zero
# times at every size tried), so the launcher ran the original loop, which does
# the same nothing; neither a schedule that ran nor one the plugin gave up on.
CLASSES = ["ok", "empty", "refused", "fallback", "wrong", "race", "uninit", "crash", "timeout",
           "generator-error"]
FAILING = ("wrong", "race", "uninit", "crash", "timeout", "generator-error")

DIAG_RE = re.compile(r"^(?P<file>[^:\s]+\.cpp):(?P<line>\d+):(?P<col>\d+): "
                     r"(?P<sev>error|warning|fatal error|remark|note): (?P<msg>.*)$")
WHERE_RE = re.compile(r"^sched: (?P<kernel>\S+) \((?P<file>[^:]+):(?P<line>\d+)\): (?P<msg>.*)$")
# A kernel that ran on a backend (not the original loop): the simulated GPU,
# or for target(vta) the VTA runtime.
RAN_RE = re.compile(r": ran on (sim|the VTA runtime)\b")
EMPTY_LAUNCH_RE = re.compile(r"^the (grid|block) has extent 0 in ")
ICE_MARKERS = ("PLEASE submit a bug report", "Stack dump:", "clang frontend command failed",
               "UNREACHABLE executed", "Assertion `")


class Result:
    def __init__(self, seed):
        self.seed = seed
        self.cls = None
        self.message = ""  # the reason, one line
        self.compile_msgs = []  # plugin diagnostics of this case
        self.runtime_msgs = []
        self.diff = ""
        self.ran_on_sim = 0

    def set(self, cls, message=""):
        # The worst class wins: crash > uninit > race > wrong > timeout >
        # fallback > refused > ok.
        order = ["ok", "empty", "refused", "fallback", "timeout", "wrong", "race", "uninit", "crash",
                 "generator-error"]
        if self.cls is None or order.index(cls) > order.index(self.cls):
            self.cls = cls
            self.message = message


class Runner:
    def __init__(self, build_dir, workdir, timeout=60, emu=True):
        self.build = os.path.abspath(build_dir)
        self.plugin = os.path.join(self.build, "lib", "SchedPlugin.so")
        self.libdir = os.path.join(self.build, "lib")
        self.workdir = workdir
        self.timeout = timeout
        self.emu = emu
        if not os.path.exists(self.plugin):
            raise SystemExit("sched-fuzz: no plugin at %s (build first, or pass --build)" %
                             self.plugin)

    # ---- compiling
    def compile(self, src_path, exe, plugin, arch=None):
        if plugin:
            cmd = [CLANG, "-std=c++17", "-O1", "-fplugin=" + self.plugin, src_path,
                   "-L" + self.libdir, "-Wl,-rpath," + self.libdir, "-lsched_runtime", "-o", exe]
            if arch:
                cmd.insert(3, "-fplugin-arg-sched-arch=" + arch)
        else:
            cmd = [CLANG, "-std=c++17", "-O1", "-Wno-unknown-pragmas", src_path, "-o", exe]
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        except subprocess.TimeoutExpired:
            return -999, "compiler timeout"
        return p.returncode, p.stderr

    @staticmethod
    def is_ice(rc, err):
        return rc < 0 or any(m in err for m in ICE_MARKERS)

    # ---- running
    def run(self, exe, first, plugin, full=False, skip=(), backend="sim", kernels=0):
        """Runs cases first.. of a program, leaving out the indices in skip.
        Under emu, each of the (at most) `kernels` kernels is compiled on its
        first launch, into this run's cache (a rerun of the rest of a batch
        finds them there): the timeout grows by 10 s a kernel, as compiling
        is not running."""
        env = dict(os.environ)
        timeout = self.timeout
        if plugin:
            env["SCHED_BACKEND"] = backend
            env["SCHED_VERBOSE"] = "1"
        if plugin and backend == "emu":
            env["SCHED_EMU_CACHE"] = os.path.join(self.workdir, "emu-cache")
            timeout += 10 * kernels
        mask = "".join("1" if k in skip else "0" for k in range(max(skip, default=-1) + 1))
        try:
            p = subprocess.run([exe, str(first), "1" if full else "0", mask or "-"],
                               capture_output=True, text=True, timeout=timeout, env=env,
                               errors="replace")
            return p.returncode, p.stdout, p.stderr, False
        except subprocess.TimeoutExpired as e:
            out = e.stdout or ""
            err = e.stderr or ""
            if isinstance(out, bytes):
                out = out.decode(errors="replace")
            if isinstance(err, bytes):
                err = err.decode(errors="replace")
            return -9, out, err, True

    def run_all(self, exe, cases, plugin, backend="sim"):
        """Per seed: {"lines": its output, "done": whether it finished,
        "err": the stderr lines that are its own, "end": how the run it
        stopped ended, "fatal": the fatal runtime message that stopped it}.

        A run that stops is blamed on one case: the one whose kernel the
        fatal message names (`sched: <kernel> (<file>:<line>): ...`, what
        the runtime prints before it aborts), else the case that was running
        (a signal, a timeout). That case is left out and the program runs
        again for every case that did not finish, so one failure never
        stops or colours another case."""
        outputs = {}
        index = {c.seed: k for k, c in enumerate(cases)}
        skip = set()  # indices that finished or stopped a run
        first = 0
        for _ in range(len(cases) + 1):
            rc, out, err, timed_out = self.run(exe, first, plugin, skip=skip, backend=backend,
                                               kernels=len(cases) - first)
            current = None
            for line in out.splitlines():
                if line.startswith("@begin "):
                    current = int(line.split()[1])
                    outputs[current] = new_output()
                elif line.startswith("@end "):
                    outputs[current]["done"] = True
                    current = None
                elif current is not None:
                    outputs[current]["lines"].append(line)
            fatal = None  # (seed it names or None, message)
            for line in err.splitlines():
                m = WHERE_RE.match(line)
                seed = case_named(cases, m) if m else current
                if m and not is_note(m.group("msg")) and not is_recovered(m.group("msg")):
                    fatal = (seed, m.group("msg"))
                elif not m and line.startswith("sched: ") and not is_note(line[7:]):
                    fatal = (current, line[7:])
                if seed is not None and seed in outputs:
                    outputs[seed]["err"].append(line)
            if current is None and rc == 0 and not timed_out:
                break
            culprit = current
            if not timed_out and fatal is not None and fatal[0] is not None \
                    and index[fatal[0]] not in skip:
                culprit = fatal[0]
            if culprit is None:
                # died outside every case (startup, exit) with no message
                # naming one: blame the first case that did not finish
                left = [k for k in range(first, len(cases))
                        if k not in skip and not outputs.get(cases[k].seed, {}).get("done")]
                if not left:
                    break
                culprit = cases[left[0]].seed
            o = outputs.setdefault(culprit, new_output())
            o["done"] = False
            o["end"] = ("timeout" if timed_out else
                        "signal %d" % -rc if rc < 0 else "exit %d" % rc)
            if fatal is not None and fatal[0] in (culprit, None) and not timed_out:
                o["fatal"] = fatal[1]
            else:
                # what the process said last, for the report (never a
                # runtime note: those are not why it stopped)
                o["err"] += [l for l in err.splitlines()[-5:]
                             if l not in o["err"] and not is_note_line(l)]
            skip.add(index[culprit])
            skip.update(index[s] for s, v in outputs.items() if v["done"])
            left = [k for k in range(len(cases)) if k not in skip]
            if not left:
                break
            first = left[0]
        return outputs

    # ---- a batch
    def run_batch(self, cases, tag):
        # Odd seeds compile for sm_80 or sm_90a (mma.sync, wgmma, cp.async,
        # pipeline), even ones for no architecture: a batch holds one kind, so a case runs
        # the same alone (minimizing) as in any batch.
        archs = {}
        for c in cases:
            archs.setdefault(case_arch(c), []).append(c)
        if len(archs) > 1:
            out = {}
            for arch, group in archs.items():
                out.update(self.run_batch(group, tag + "-" + (arch or "any")))
            return out
        arch = case_arch(cases[0])
        results = {c.seed: Result(c.seed) for c in cases}
        d = tempfile.mkdtemp(prefix="batch-%s-" % tag, dir=self.workdir)
        src = os.path.join(d, "fuzz.cpp")
        plain_exe = os.path.join(d, "plain")
        sched_exe = os.path.join(d, "sched")

        with open(src, "w") as f:
            f.write(build_program(cases))
        rc, err = self.compile(src, plain_exe, plugin=False)
        if rc != 0:
            if len(cases) == 1:
                results[cases[0].seed].set("generator-error", "plain build failed: " +
                                           first_error(err))
                return results
            # find the bad case(s) one by one
            out = {}
            for c in cases:
                out.update(self.run_batch([c], tag + "-%d" % c.seed))
            return out

        keep = set(c.seed for c in cases)
        sched_err = ""
        for _ in range(len(cases) + 1):
            with open(src, "w") as f:
                f.write(build_program(cases, keep))
            rc, err = self.compile(src, sched_exe, plugin=True, arch=arch)
            if self.is_ice(rc, err):
                if len(cases) == 1:
                    results[cases[0].seed].set("crash", "compiler crash: " + ice_summary(err))
                    results[cases[0].seed].compile_msgs = err.splitlines()[-40:]
                    return results
                out = {}
                for c in cases:
                    out.update(self.run_batch([c], tag + "-%d" % c.seed))
                return out
            diags = parse_diags(err)
            refused = set()
            for dg in diags:
                c = case_of_line(cases, dg["line"])
                if c is None:
                    continue
                r = results[c.seed]
                text = "%s: %s" % (dg["sev"], dg["msg"])
                if text not in r.compile_msgs:
                    r.compile_msgs.append(text)
                if dg["sev"] in ("error", "fatal error") and c.seed in keep:
                    refused.add(c.seed)
                    if not r.message:
                        r.set("refused", dg["msg"])
            if rc == 0:
                sched_err = err
                break
            if not refused:
                # an error we cannot attribute: plugin breaks the program
                for c in cases:
                    results[c.seed].set("crash", "plugin build failed: " + first_error(err))
                return results
            keep -= refused
        else:
            for c in cases:
                results[c.seed].set("crash", "plugin build does not converge")
            return results

        plain = self.run_all(plain_exe, cases, plugin=False)
        sched = self.run_all(sched_exe, cases, plugin=True)
        compare(cases, results, keep, plain, sched)
        if self.emu:
            emu = self.run_all(sched_exe, cases, plugin=True, backend="emu")
            compare_emu(cases, results, keep, plain, emu)
        for r in results.values():
            if r.cls is None:
                r.set("ok")
        results["__dir__"] = d
        return results


def case_arch(case):
    """The -fplugin-arg-sched-arch a case compiles with: sm_80 for seeds
    1 mod 4, sm_90a (wgmma where a block is one warpgroup, else the sm_80
    paths) for 3 mod 4, none for even ones (GPU cases; VTA cases take
    none)."""
    vta = any("target(vta)" in d for d in case.schedule)
    if vta or case.seed % 2 == 0:
        return None
    return "sm_90a" if case.seed % 4 == 3 else "sm_80"


def compare(cases, results, keep, plain, sched):
    """Classifies each case from the outputs of both programs (run_all):
    the plugin build against the plain one."""
    for c in cases:
        r = results[c.seed]
        p = plain.get(c.seed)
        s = sched.get(c.seed)
        if p is None or not p["done"]:
            r.set("generator-error", "plain run failed: %s" % (p and p["end"]))
            continue
        if c.seed not in keep:
            continue  # refused: no schedule to compare
        if s is None:
            r.set("crash", "plugin binary never reached the case")
            continue
        r.runtime_msgs = s["err"]
        r.ran_on_sim = sum(1 for l in s["err"] if RAN_RE.search(l))
        # The plugin compiles each kernel with NVRTC when the toolkit is here
        # (-Wsched-embed): one NVRTC refuses is an emitter bug.
        rejected = next((m for m in r.compile_msgs if "when it first runs" in m), None)
        if rejected:
            r.set("crash", "NVRTC rejected the emitted CUDA: " + rejected)
            continue
        if not s["done"]:
            classify_stop(r, s)
            continue
        recovered = [m.group("msg") for m in map(WHERE_RE.match, s["err"])
                     if m and is_recovered(m.group("msg"))]
        if recovered:
            # the launch failed and the original loop ran: the answer is
            # right, but the backend could not run the kernel sched made
            r.set("crash", recovered[0])
            continue
        if p["lines"] != s["lines"]:
            r.set("wrong", first_difference(p["lines"], s["lines"]))
            r.diff = "\n".join(diff_lines(p["lines"], s["lines"]))
            continue
        if r.ran_on_sim == 0:
            why = next((m for m in r.compile_msgs if "cannot" in m), None)
            if why:
                r.set("fallback", why.split(": ", 1)[1])
                continue
            host = [l.split("ran the original loop on host: ", 1)[1] for l in s["err"]
                    if "ran the original loop on host: " in l]
            real = [h for h in host if not EMPTY_LAUNCH_RE.search(h)]
            if host and not real:
                r.set("empty", host[0])
            else:
                r.set("fallback", "never ran on sim" + (": " + real[0] if real else ""))
            continue
        if r.cls is None:
            r.set("ok")


def compare_emu(cases, results, keep, plain, emu):
    """The plugin build under SCHED_BACKEND=emu against the plain build: a
    difference is `wrong`, a stop is classified as under sim (a crash, a
    timeout); either message starts with "emu: ". A case keeps the worse of
    its sim and emu classes."""
    for c in cases:
        r = results[c.seed]
        p = plain.get(c.seed)
        e = emu.get(c.seed)
        if c.seed not in keep or p is None or not p["done"]:
            continue
        if e is None:
            r.set("crash", "emu: plugin binary never reached the case")
            continue
        if not e["done"]:
            stop = Result(c.seed)
            classify_stop(stop, e)
            r.set(stop.cls, "emu: " + stop.message)
            continue
        if p["lines"] != e["lines"]:
            message = "emu: " + first_difference(p["lines"], e["lines"])
            r.set("wrong", message)
            if r.message == message:
                r.diff = "\n".join(diff_lines(p["lines"], e["lines"]))


def parse_diags(err):
    out = []
    for line in err.splitlines():
        m = DIAG_RE.match(line)
        if m:
            out.append({"line": int(m.group("line")), "sev": m.group("sev"),
                        "msg": m.group("msg")})
    return out


def case_of_line(cases, line):
    for c in cases:
        if c.lines[0] <= line <= c.lines[1]:
            return c
    return None


def first_error(err):
    for line in err.splitlines():
        if "error" in line:
            return line.strip()
    return (err.strip().splitlines() or ["?"])[-1]


def ice_summary(err):
    for line in err.splitlines():
        for m in ("UNREACHABLE", "Assertion", "Segmentation", "error:"):
            if m in line:
                return line.strip()
    lines = [l for l in err.splitlines() if l.strip()]
    return lines[0].strip() if lines else "crash"


def new_output():
    return {"lines": [], "done": False, "err": [], "end": None, "fatal": None}


# What SCHED_VERBOSE=1 prints for a kernel that ran (or fell back to the
# original loop): never why a program stopped.
NOTES = ("ran on ", "ran the original loop on host")


def is_note(msg):
    return msg.startswith(NOTES)


# What the runtime prints for a launch that failed before touching the
# program's data, after which the original loop runs (runtime/Launch.cpp).
RECOVERED = "; ran the original loop instead"


def is_recovered(msg):
    return msg.endswith(RECOVERED)


def is_note_line(line):
    m = WHERE_RE.match(line)
    return bool(m) and is_note(m.group("msg"))


KERNEL_LINE_RE = re.compile(r"_(\d+)$")


def case_named(cases, m):
    """The case whose kernel a runtime message names: the kernel is
    sched_<file>_<line of its for>; else the case holding <line>."""
    k = KERNEL_LINE_RE.search(m.group("kernel"))
    if k:
        line = int(k.group(1))
        for c in cases:
            if c.for_line == line:
                return c.seed
    c = case_of_line(cases, int(m.group("line")))
    return c.seed if c else None


def classify_stop(r, s):
    """A case that did not finish: by the fatal message blamed on it, else
    by how the run ended (never by a note it printed before)."""
    if s["end"] == "timeout":
        r.set("timeout", "run timed out")
    elif s["fatal"] is not None:
        msg = s["fatal"]
        cls = "race" if "race on " in msg else \
            "uninit" if msg.startswith("uninitialized read of ") else "crash"
        r.set(cls, msg if cls != "crash" else "%s (%s)" % (msg, s["end"]))
    else:
        last = [l for l in s["err"] if l.strip() and not is_note_line(l)]
        r.set("crash", "stopped (%s)%s" % (s["end"], (": " + last[-1].strip()) if last else ""))


def first_difference(a, b):
    cfg = "?"
    for k in range(max(len(a), len(b))):
        x = a[k] if k < len(a) else "<none>"
        y = b[k] if k < len(b) else "<none>"
        if x.startswith("@cfg"):
            cfg = x.split()[1]
        if x != y:
            return "config %s: expected '%s', got '%s'" % (cfg, x, y)
    return "?"


def diff_lines(a, b):
    out = []
    for k in range(max(len(a), len(b))):
        x = a[k] if k < len(a) else "<none>"
        y = b[k] if k < len(b) else "<none>"
        if x != y:
            out.append("- " + x)
            out.append("+ " + y)
    return out[:40]
