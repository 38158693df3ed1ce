#!/usr/bin/env bash
# The main demo: builds sched, compiles examples/matmul.cpp twice - plain (the
# reference) and with the plugin - runs the plugin build under the simulator
# (or CUDA where a GPU is present: SCHED_BACKEND=cuda) and compares.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
bash "$root/scripts/setup.sh"
BUILD_DIR=$build bash "$root/scripts/build.sh"
out=$(mktemp -d)
example=${1:-$root/examples/matmul.cpp}
clang++-19 -std=c++17 -O2 -Wno-unknown-pragmas "$example" -o "$out/reference"
clang++-19 -std=c++17 -O2 -fplugin="$build/lib/SchedPlugin.so" "$example" \
  -L"$build/lib" -Wl,-rpath,"$build/lib" -lsched_runtime -o "$out/scheduled"
"$out/reference" > "$out/reference.txt"
SCHED_BACKEND=${SCHED_BACKEND:-sim} SCHED_VERBOSE=1 "$out/scheduled" > "$out/scheduled.txt"
cat "$out/scheduled.txt"
python3 "$root/scripts/compare_outputs.py" "$out/reference.txt" "$out/scheduled.txt"
