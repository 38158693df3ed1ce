#!/usr/bin/env bash
# Compile time of the plugin against plain clang: the examples with a GPU nest
# and generated files of 1, 5 and 20 GEMM nests, side by side, as ratios (and
# callgrind instruction counts with --callgrind). See bench/compile_time.py.
#
#   bash bench/compile-time.sh [--build DIR] [--runs N] [--callgrind] [--no-nvrtc] [--only REGEX]
set -euo pipefail
exec python3 "$(dirname "$0")/compile_time.py" "$@"
