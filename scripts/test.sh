#!/usr/bin/env bash
# Every test: installs what is missing, builds, then runs the GoogleTest unit
# tests and the lit suite (FileCheck, clang -verify, end-to-end examples under
# the simulator against their plain builds) through ctest.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
bash "$root/scripts/setup.sh"
BUILD_DIR=$build bash "$root/scripts/build.sh"
ctest --test-dir "$build" --output-on-failure
