"""Prints, for each check in a gpu-check folder's manifest, whether every
binary it names is there and executable (the lit test of --build)."""
import json
import os
import sys
from pathlib import Path

folder = Path(sys.argv[1])
checks = json.loads((folder / "manifest.json").read_text())["checks"]
binaries, missing = set(), 0
for c in checks:
    names = [n for n in (c["ref"], c["sched"]) if n]
    ok = names and all(os.access(folder / n, os.X_OK) for n in names)
    missing += not ok
    binaries.update(names)
    print(f"{c['name']} {c['size']}: {'ok' if ok else 'MISSING ' + ' '.join(names)}")
print(f"{len(checks)} checks, {len(binaries)} binaries, " +
      ("all present" if not missing else f"{missing} checks missing binaries"))
