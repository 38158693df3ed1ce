"""The summary of a fuzz run: classes, grouped reasons, per-directive
failure counts."""
import os
import re

from .cases import save_case
from .program import build_program
from .runner import CLASSES

DIRECTIVES = ["target", "split", "split-nparts", "tile", "reorder", "reorder-partial", "fuse",
              "bind-block", "bind-thread", "bind-reduction", "atomic", "rfactor", "bind-vthread", "unroll", "vectorize", "cache_read",
              "cache_write", "compute_at", "scope-shared", "scope-local", "scope-global",
              "set_scope", "storage_align", "double_buffer", "pipeline",
              # target(vta) (--family vta)
              "bind-cthread", "tensorize", "pragma-dma_copy", "pragma-alu", "scope-vta.inp",
              "scope-vta.wgt", "scope-vta.acc"]


def directive_keys(case):
    """Which directive kinds a schedule uses (a few split by variant)."""
    keys = set()
    stages = {}
    for d in case.directives:
        name = d[0]
        keys.add(name)
        if name == "split" and str(d[4]).startswith("nparts="):
            keys.add("split-nparts")
        if name == "bind":
            tag = d[2]
            keys.add("bind-cthread" if tag == "cthread" else
                     "bind-block" if tag.startswith("blockIdx") else
                     "bind-thread" if tag.startswith("threadIdx") else "bind-vthread")
        if name in ("cache_read", "cache_write", "set_scope"):
            keys.add("scope-" + d[2])
        if name == "pragma":
            keys.add("pragma-" + d[2])
        if name == "reorder" and getattr(case, "partial_reorder", False):
            keys.add("reorder-partial")
    if getattr(case, "cross_thread", False):
        keys.add("bind-reduction")  # a reduction loop bound to threadIdx
    keys.discard("bind")
    return keys


def normalize(msg):
    """A message with names and numbers stripped, for grouping."""
    m = msg
    m = re.sub(r"'[^']*'", "'_'", m)
    m = re.sub(r"\(sizes \{[^}]*\}\)", "", m)
    m = re.sub(r"\b\d+\b", "N", m)
    m = re.sub(r"\b[A-Za-z_][A-Za-z_0-9]*\.(ax|f|o|t)\w*\b", "S.ax", m)
    m = re.sub(r"block \([^)]*\)", "block (..)", m)
    m = re.sub(r"thread \([^)]*\)", "thread (..)", m)
    m = re.sub(r"\s+", " ", m).strip()
    return m[:220]


def summarize(cases, results, out):
    n = len(results)
    counts = {c: 0 for c in CLASSES}
    for r in results.values():
        counts[r.cls] += 1
    out.write("sched-fuzz: %d cases\n" % n)
    for c in CLASSES:
        if counts[c] or c in ("ok", "refused", "fallback", "wrong", "race", "uninit", "crash"):
            out.write("  %-16s %6d  %5.1f%%\n" % (c, counts[c], 100.0 * counts[c] / max(1, n)))
    for cls in ("empty", "refused", "fallback", "wrong", "race", "uninit", "crash", "timeout",
                "generator-error"):
        groups = {}
        for seed, r in sorted(results.items()):
            if r.cls != cls:
                continue
            key = normalize(r.message)
            groups.setdefault(key, []).append(seed)
        if not groups:
            continue
        out.write("\n%s reasons (normalized; count, example seed):\n" % cls)
        for key, seeds in sorted(groups.items(), key=lambda kv: -len(kv[1])):
            out.write("  %5d  seed %-7d %s\n" % (len(seeds), seeds[0], key))
    out.write("\nper directive: cases using it, and their classes\n")
    out.write("  %-16s %6s %7s %7s %8s %6s %6s %6s %6s %7s\n" % (
        "directive", "cases", "ok", "refused", "fallback", "wrong", "race", "uninit", "crash",
        "timeout"))
    for key in DIRECTIVES:
        row = {c: 0 for c in CLASSES}
        total = 0
        for seed, r in results.items():
            c = cases[seed]
            if key in directive_keys(c):
                total += 1
                row[r.cls] += 1
        if total:
            out.write("  %-16s %6d %7d %7d %8d %6d %6d %6d %6d %7d\n" % (
                key, total, row["ok"], row["refused"], row["fallback"], row["wrong"],
                row["race"], row["uninit"], row["crash"], row["timeout"]))
    fam = {}
    for seed, r in results.items():
        f = cases[seed].nest.family
        fam.setdefault(f, {c: 0 for c in CLASSES})
        fam[f][r.cls] += 1
    out.write("\nper nest family:\n")
    for f, row in sorted(fam.items()):
        out.write("  %-18s %s\n" % (f, " ".join("%s=%d" % (c, v) for c, v in row.items() if v)))
    return counts


def ok_floor_failure(counts, total, min_ok):
    """The message when the share of ok cases is below min_ok (a fraction),
    else None. A run with nothing wrong can still show that the plugin
    schedules less than it did: a case that falls back or is refused prints
    the plain build's output too, so only the ok share sees it."""
    if min_ok is None or total == 0:
        return None
    ok = counts.get("ok", 0)
    if ok >= min_ok * total:
        return None
    return ("sched-fuzz: FAIL: %d of %d cases ok (%.1f%%), below the floor --min-ok %g (%.1f%%): "
            "fewer cases ran scheduled on the backend than before; see the fallback and refused "
            "reasons above" % (ok, total, 100.0 * ok / total, min_ok, 100.0 * min_ok))


def write_case(d, case, result, title, program="case.cpp", before=(), after=()):
    """A directory describing one case: the program, the pickled case and a
    text report (class, reason, schedule, sizes, `before`, the plugin's
    messages, `after`; both lists of (heading, lines))."""
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, program), "w") as f:
        f.write(build_program([case]))
    save_case(case, os.path.join(d, "case.pkl"))
    name = "README.txt" if program != "case.cpp" else "report.txt"
    with open(os.path.join(d, name), "w") as f:
        f.write("%s\n\nclass: %s\nwhat happened: %s\n" % (title, result.cls, result.message))
        parts = [("schedule", case.schedule),
                 ("sizes (one run each; the int arguments after the arrays)",
                  [str(c) for c in case.nest.configs])]
        parts += list(before)
        parts += [("plugin diagnostics", result.compile_msgs),
                  ("runtime (SCHED_BACKEND=sim SCHED_VERBOSE=1)", result.runtime_msgs)]
        parts += list(after)
        for heading, lines in parts:
            if lines:
                f.write("\n%s:\n" % heading)
                for line in lines:
                    f.write("  %s\n" % line)
