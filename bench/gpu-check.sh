#!/usr/bin/env bash
# The GPU check (issue 19): every end-to-end example under SCHED_BACKEND=cuda
# against the plain build, the fp32 GEMM examples timed against cublasSgemm,
# and bench/tensorcore-vs-cublas.sh, in one table. Two halves, because the
# GPU machine has no clang 19:
#
#   bash bench/gpu-check.sh --build DIR   # here: clang++-19 and a built sched
#   bash bench/gpu-check.sh --run DIR     # there: a GPU, the CUDA toolkit's
#                                         # NVRTC and cuBLAS, python3
#   bash bench/gpu-check.sh --list        # the checks and where each comes from
#
# Without a GPU, --run prints `skip: no GPU (<why>)` and exits 0. Options
# (--only REGEX, --backend sim, --jobs N, --budget S, --tests DIR):
# bench/gpu-check/gpu_check.py --help, and bench/README.md.
set -euo pipefail
command -v python3 > /dev/null 2>&1 ||
  { echo "error: bench/gpu-check.sh needs python3 (3.7 or newer)" >&2; exit 1; }
exec python3 "${BASH_SOURCE[0]%/*}/gpu-check/gpu_check.py" "$@"
