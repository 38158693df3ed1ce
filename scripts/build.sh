#!/usr/bin/env bash
# Configures and builds sched into ${BUILD_DIR:-build} with clang++-19.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
cmake -S "$root" -B "$build" -DCMAKE_CXX_COMPILER=clang++-19 -DCMAKE_C_COMPILER=clang-19 >/dev/null
cmake --build "$build" -j"$(nproc)"
