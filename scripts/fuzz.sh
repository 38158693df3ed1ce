#!/usr/bin/env bash
# Differential fuzzing of the plugin: random nests x random legal schedules,
# plain build vs plugin build under SCHED_BACKEND=sim.
#   bash scripts/fuzz.sh N [START] [options]   seeds START..START+N-1 (default 0)
# Options (see tools/sched-fuzz/sched_fuzz.py --help): --jobs J (default 2),
# --keep DIR (write every non-OK case), --build DIR (default ./build),
# --minimize SEED (shrink one case). Exit status 1 on wrong/race/crash/timeout.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
exec python3 "$root/tools/sched-fuzz/sched_fuzz.py" "$@"
