#!/usr/bin/env bash
# Benchmark: wall time of examples/matmul.cpp (the DESIGN section 2 schedule)
# under the simulator at SIZE^3 (default 256), against issue 3's target of "a
# few seconds" for 256x256x256. Checks the result against the plain build too,
# so a fast wrong simulator does not pass. Usage: bash bench/sim-matmul.sh [SIZE]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
size=${1:-256}
budget_s=${SCHED_BENCH_BUDGET_S:-5}
out=$(mktemp -d)
clang++-19 -std=c++17 -O2 -Wno-unknown-pragmas "$root/examples/matmul.cpp" -o "$out/reference"
clang++-19 -std=c++17 -O2 -fplugin="$build/lib/SchedPlugin.so" "$root/examples/matmul.cpp" \
  -L"$build/lib" -Wl,-rpath,"$build/lib" -lsched_runtime -o "$out/scheduled"
"$out/reference" "$size" "$size" "$size" > "$out/reference.txt"
start=$(date +%s.%N)
SCHED_BACKEND=sim "$out/scheduled" "$size" "$size" "$size" > "$out/scheduled.txt"
end=$(date +%s.%N)
python3 "$root/scripts/compare_outputs.py" "$out/reference.txt" "$out/scheduled.txt"
elapsed=$(python3 -c "print(f'{$end - $start:.2f}')")
echo "sim matmul ${size}^3: ${elapsed} s (budget ${budget_s} s)"
python3 -c "import sys; sys.exit(0 if $elapsed <= $budget_s else 1)" || { echo "over budget"; exit 1; }
