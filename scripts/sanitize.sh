#!/usr/bin/env bash
# Builds sched with AddressSanitizer + UndefinedBehaviorSanitizer into
# ${BUILD_DIR:-build-asan} and runs what can run sanitized: the GoogleTests
# (IR, schedule, passes, simulator, runtime) and the lit tests driven by
# sched-opt (the .ir files). Tests that load the plugin into clang++-19 are left out: an
# instrumented plugin cannot load into an uninstrumented compiler.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build-asan}
bash "$root/scripts/setup.sh"
cmake -S "$root" -B "$build" -DCMAKE_CXX_COMPILER=clang++-19 -DCMAKE_C_COMPILER=clang-19 \
  -DSCHED_SANITIZE=ON >/dev/null
cmake --build "$build" -j"$(nproc)"
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
"$build/bin/sched-unittests"
"$build/bin/sched-launch-plan-tests"
python3 /usr/lib/llvm-19/build/utils/lit/lit.py "$build/test" --filter 'lit/(schedule|lowering|sync|promote|tensorcore|vta|driver|codegen|reduction)/.*\.ir$'
