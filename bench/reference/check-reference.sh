#!/usr/bin/env bash
# Checks the hand-written reference kernels of bench/reference/ (NAME.cu,
# kernel NAME; float or half inputs, the launch its `check-reference:` line
# declares, check/check_reference.h) against a CPU GEMM, with what this
# machine has (the drivers are in check/):
#  1. nvcc: each compiles for sm_80 and sm_90 (`nvcc -cubin`);
#  2. clang++-19 and a built runtime (BUILD_DIR/lib/libsched_runtime.a, the archive: the
#     driver calls the emu backend's internals, which the shared runtime does not export):
#     each runs on the emu backend (the CUDA text as host C++, every thread
#     of every block, real barriers) at the shapes of check_reference.h
#     (full tiles, k remainders, nothing dividing, 1x1x1, K = 0, M = 0),
#     which must match the CPU GEMM exactly (small-integer data) and touch
#     nothing outside A, B and C (they lie against inaccessible pages);
#  3. nvcc and a GPU: each runs on the GPU at those shapes and larger ones,
#     must match exactly, and is timed at 1024^3, 2048^3 and 4096^3.
# A step this machine cannot do prints `skip: <why>`; the exit status is 1
# when a step that ran failed, else 0. --steps picks some of them (the lit
# test runs the emu step only: nvcc takes long on the small test machine).
#
#   bash bench/reference/check-reference.sh [--build DIR] [--steps=nvcc,emu,gpu]
#   (the build: BUILD_DIR, else build/)
set -u
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
BUILD="${BUILD_DIR:-$ROOT/build}"
STEPS=nvcc,emu,gpu
while [ $# -gt 0 ]; do
  case "$1" in
    --build) BUILD="$2"; shift 2 ;;
    --build=*) BUILD="${1#--build=}"; shift ;;
    --steps=*) STEPS="${1#--steps=}"; shift ;;
    *) echo "usage: $0 [--build DIR] [--steps=nvcc,emu,gpu]" >&2; exit 2 ;;
  esac
done
CUDA_HOME="${CUDA_HOME:-/usr/local/cuda}"
NVCC="$(command -v nvcc || true)"
[ -z "$NVCC" ] && [ -x "$CUDA_HOME/bin/nvcc" ] && NVCC="$CUDA_HOME/bin/nvcc"
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
REFS=("$HERE"/*.cu)
status=0
step() { case ",$STEPS," in *,$1,*) return 0 ;; esac; return 1; }

# 1. Compiles for both architectures.
if ! step nvcc; then
  :
elif [ -n "$NVCC" ]; then
  for ref in "${REFS[@]}"; do
    for arch in sm_80 sm_90; do
      if "$NVCC" -arch=$arch -cubin "$ref" -o "$OUT/ref.cubin" 2> "$OUT/nvcc.log"; then
        echo "nvcc $arch $(basename "$ref"): ok"
      else
        echo "nvcc $arch $(basename "$ref"): failed"; cat "$OUT/nvcc.log"; status=1
      fi
    done
  done
else
  echo "skip: nvcc not found (not on PATH, nor under \$CUDA_HOME/bin): the references are not compiled for sm_80/sm_90"
fi

# 2. On the emu backend.
if ! step emu; then
  :
elif ! command -v clang++-19 > /dev/null; then
  echo "skip: the emu check needs clang++-19"
elif [ ! -e "$BUILD/lib/libsched_runtime.a" ]; then
  echo "skip: the emu check needs the runtime: no $BUILD/lib/libsched_runtime.a (build the project, or --build DIR)"
elif ! clang++-19 -std=c++17 -O1 -I"$ROOT/runtime" -I"$ROOT/lowering" "$HERE/check/check_reference_emu.cpp" \
        -L"$BUILD/lib" -l:libsched_runtime.a -o "$OUT/check_reference_emu" 2> "$OUT/emu-build.log"; then
  echo "emu: the driver does not build:"; cat "$OUT/emu-build.log"; status=1
else
  SCHED_EMU_CACHE="${SCHED_EMU_CACHE:-$OUT/emu-cache}" "$OUT/check_reference_emu" "${REFS[@]}" || status=1
fi

# 3. On a GPU.
if ! step gpu; then
  :
elif [ -z "$NVCC" ]; then
  echo "skip: the GPU check needs nvcc"
else
  for ref in "${REFS[@]}"; do
    name="$(basename "$ref" .cu)"
    launch="$(grep -m1 -o 'check-reference:.*' "$ref" || true)"
    if ! "$NVCC" -O2 -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 \
           -gencode arch=compute_90,code=compute_90 -I"$HERE/check" -DREFERENCE_FILE="\"$ref\"" \
           -DREFERENCE_KERNEL="$name" -DREFERENCE_LAUNCH="\"$launch\"" \
           "$HERE/check/check_reference_gpu.cu" -o "$OUT/$name-gpu" 2> "$OUT/gpu-build.log"; then
      echo "gpu $name: the driver does not build:"; cat "$OUT/gpu-build.log"; status=1
      continue
    fi
    "$OUT/$name-gpu" || status=1
  done
fi
exit $status
