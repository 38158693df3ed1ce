#!/usr/bin/env bash
# Benchmark: our tensor-core GEMMs against cuBLAS on the same device, at the
# shapes of the Auto TensorCore CodeGen RFC (TVM RFC 4105): M x N x K =
# 512x64x512, 512x32x512, 512x16x512 in fp16 (fp32 accumulators) and int8
# (int32 accumulators), and 4096^3 in fp16.
#
# Usage: bash bench/tensorcore-vs-cublas.sh [--arch=sm_XY] [--iters=N] [--no-sim-check]
#                                          [--square=S,...] [--build-only | --run-only=DIR]
#
# Two kernels per shape, each checked and timed on its own:
#   explicit  bench/tensorcore/gemm_wmma.cpp.in: the explicit wmma schedule
#             of examples/wmma_gemm.cpp (fragments, tensorize) with tile
#             sizes per shape;
#   auto      bench/tensorcore/gemm_auto.cpp.in: an ordinary CUDA schedule
#             (threads over outputs, accumulators per thread) with
#             `tensorcore(auto)`; its -Rpass=sched remark, printed here, says
#             whether auto fired or why not (then the kernel is the ordinary
#             one, and the table marks it).
# Tile sizes are in the SHAPES table below. Each kernel is instantiated
# (driver.inc is the program around it), built with the plugin (and, when
# the CUDA toolkit is present, against cuBLAS), and then:
#   1. without a GPU too: the small shapes run under SCHED_BACKEND=sim and
#      must equal the plain loop exactly (4096^3 is too large to simulate);
#   2. with a GPU: each binary times its kernel and cublasGemmEx on device
#      arrays, and checks that both give the same C.
# Without the toolkit or without a GPU, step 2 is skipped with the reason,
# and the script still exits 0 when everything it could run passed.
#
# --arch=sm_XY is passed to the plugin (-fplugin-arg-sched-arch): NVRTC then
# compiles for exactly that architecture and a device older than it fails
# the run with an error instead of timing something else.
#
# Split across two machines (bench/gpu-check.sh does; the GPU machine has no
# clang 19): --build-only builds (and sim-checks) into $SCHED_BENCH_OUT and
# lists the benchmarks in benchmarks.list there; --run-only=DIR times the
# binaries a --build-only left in DIR, building nothing. --square=S,... adds
# fp16 S x S x S with the 4096^3 row's tiles. SCHED_BENCH_LINK replaces how
# the benchmarks link the runtime (default -L$BUILD_DIR/lib -lsched_runtime).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
cuda_home=${CUDA_HOME:-/usr/local/cuda}
arch=""
iters=50
sim_check=1
squares=""
build_only=0
run_only=""
for arg in "$@"; do
  case "$arg" in
    --arch=*) arch=${arg#--arch=} ;;
    --iters=*) iters=${arg#--iters=} ;;
    --no-sim-check) sim_check=0 ;;
    --square=*) squares=${arg#--square=} ;;
    --build-only) build_only=1 ;;
    --run-only=*) run_only=${arg#--run-only=} ;;
    *) echo "usage: $0 [--arch=sm_XY] [--iters=N] [--no-sim-check] [--square=S,...]" \
            "[--build-only | --run-only=DIR]" >&2; exit 2 ;;
  esac
done
if [ -z "$run_only" ] &&
   { [ ! -f "$build/lib/SchedPlugin.so" ] || [ ! -f "$build/lib/libsched_runtime.a" ]; }; then
  echo "error: build the project first (bash scripts/build.sh): no plugin or runtime in $build" >&2
  exit 1
fi

# type M N K | explicit: BM BN WM WN KS | B layout | auto: BM BN threads
# (block tile BM x BN, warp tile WM x WN, k staged KS at a time; int8 needs
# column-major B and KS 16: see gemm_wmma.cpp.in; threads: see gemm_auto.cpp.in)
SHAPES="
fp16 512 64 512    32 64 16 32 32      row  32 32 cols
fp16 512 32 512    32 32 16 16 32      row  32 32 cols
fp16 512 16 512    32 16 16 16 32      row  32 16 rows16
int8 512 64 512    32 64 16 32 16      col  32 32 cols
int8 512 32 512    32 32 16 16 16      col  32 32 cols
int8 512 16 512    32 16 16 16 16      col  32 16 rows
fp16 4096 4096 4096 128 128 64 64 32   row  32 32 cols
"
for sq in ${squares//,/ }; do
  SHAPES+="fp16 $sq $sq $sq 128 128 64 64 32   row  32 32 cols
"
done
THREADS_cols="split(ii, ty, ir, 16) reorder(io, jo, ty, ji, ko, ki, ir) bind(ty, threadIdx.y) bind(ji, threadIdx.x)"
THREADS_rows="split(ji, ty, jr, 8) reorder(io, jo, ty, ii, ko, ki, jr) bind(ty, threadIdx.y) bind(ii, threadIdx.x)"
THREADS_rows16="split(ji, ty, jr, 16) reorder(io, jo, ty, ii, ko, ki, jr) bind(ty, threadIdx.y) bind(ii, threadIdx.x)"

out=${run_only:-${SCHED_BENCH_OUT:-$(mktemp -d)}}
mkdir -p "$out"
cuda_flags=(-DSCHED_BENCH_CUDA=0)
cuda_why=""
if [ -n "$run_only" ]; then
  # Time what a --build-only left in DIR, built with or without cuBLAS.
  [ -f "$out/benchmarks.list" ] ||
    { echo "error: no benchmarks.list in $out (run --build-only first)" >&2; exit 1; }
  mapfile -t bins < "$out/benchmarks.list"
  cuda_why=$(cat "$out/cuda-skip" 2> /dev/null || true)
elif [ -f "$cuda_home/include/cublas_v2.h" ] && [ -f "$cuda_home/include/cuda_runtime.h" ] &&
   ls "$cuda_home"/lib64/libcublas.so* > /dev/null 2>&1; then
  cuda_flags=(-DSCHED_BENCH_CUDA=1 -I"$cuda_home/include")
  cuda_libs=(-L"$cuda_home/lib64" -Wl,-rpath,"$cuda_home/lib64" -lcublas -lcudart)
else
  cuda_libs=()
  cuda_why="no CUDA toolkit with cuBLAS under $cuda_home (set CUDA_HOME)"
fi
read -r -a runtime_link <<< "${SCHED_BENCH_LINK:--L$build/lib -Wl,-rpath,$build/lib -lsched_runtime}"
plugin_args=(-fplugin="$build/lib/SchedPlugin.so")
[ -n "$arch" ] && plugin_args+=(-fplugin-arg-sched-arch="$arch")

# build NAME: compiles $out/NAME.cpp; -Werror: a schedule the plugin could
# not apply (a fallback warning) must not be timed as if it were ours.
build() {
  clang++-19 -std=c++17 -O2 -Werror -Rpass=sched "${plugin_args[@]}" "${cuda_flags[@]}" \
    -I"$root/bench/tensorcore" -I"$root/bench" "$out/$1.cpp" "${runtime_link[@]}" "${cuda_libs[@]}" \
    -o "$out/$1" 2> "$out/$1.remarks" || { cat "$out/$1.remarks" >&2; exit 1; }
}

# sim_check NAME: the kernel on the simulator (not the host fallback) gives
# the plain loop's numbers.
sim_check() {
  local said
  said=$(SCHED_BACKEND=sim SCHED_VERBOSE=1 "$out/$1" check 2> "$out/$1.sim.err") ||
    { echo "$said" >&2; cat "$out/$1.sim.err" >&2; exit 1; }
  echo "${1%%_*} $said"
  grep -q "ran on sim" "$out/$1.sim.err" ||
    { echo "error: $1 did not run on the simulator:" >&2; cat "$out/$1.sim.err" >&2; exit 1; }
}

[ -n "$run_only" ] || bins=()
[ -n "$run_only" ] || while read -r type m n k bm bn wm wn ks layout abm abn threads; do
  [ -z "$type" ] && continue
  case $type in
    fp16) in=_Float16 acc=float ;;
    int8) in="signed char" acc=int ;;
  esac
  shape=${m}x${n}x${k}
  colb=false bidx="k * N + j"
  [ "$layout" = col ] && colb=true bidx="j * K + k"
  threads_var=THREADS_$threads
  common=(-e "s/@IN@/$in/; s/@ACC@/$acc/; s/@TYPE@/$type/g; s/@M@/$m/; s/@N@/$n/; s/@K@/$k/"
          -e "s/@COLB@/$colb/; s/@BLAYOUT@/$layout-major/; s/@BIDX@/$bidx/g")
  sed "${common[@]}" -e "s/@BM@/$bm/; s/@BN@/$bn/; s/@WM@/$wm/; s/@WN@/$wn/; s/@KS@/$ks/" \
    "$root/bench/tensorcore/gemm_wmma.cpp.in" > "$out/explicit_${type}_$shape.cpp"
  sed "${common[@]}" -e "s/@BM@/$abm/; s/@BN@/$abn/; s/@LAYOUT@/$threads/" \
    -e "s/@THREADS@/${!threads_var}/" \
    "$root/bench/tensorcore/gemm_auto.cpp.in" > "$out/auto_${type}_$shape.cpp"
  for variant in explicit auto; do
    name=${variant}_${type}_$shape
    build "$name"
    bins+=("$name")
    if [ "$sim_check" = 1 ] && [ $((m * n * k)) -le $((1 << 25)) ]; then
      sim_check "$name"
    fi
  done
  # What auto made of the ordinary schedule, in its own words.
  said=$(grep -o "tensorcore(auto).*" "$out/auto_${type}_$shape.remarks" | head -n1 || true)
  echo "auto $type $shape: ${said:-no tensorcore(auto) remark}"
done <<< "$SHAPES"
if [ -z "$run_only" ]; then
  echo "built ${#bins[@]} benchmarks in $out"
  printf '%s\n' "${bins[@]}" > "$out/benchmarks.list"
  if [ -n "$cuda_why" ]; then echo "$cuda_why" > "$out/cuda-skip"; else rm -f "$out/cuda-skip"; fi
  if [ "$build_only" = 1 ]; then exit 0; fi
fi

if [ -n "$cuda_why" ]; then
  echo "skip: timing against cuBLAS: $cuda_why"
  exit 0
fi
set +e
probe=$("$out/${bins[0]}" time 1 2>&1)
rc=$?
set -e
if [ $rc = 77 ]; then
  echo "skip: timing against cuBLAS needs a GPU: $probe"
  exit 0
fi
[ $rc = 0 ] || { echo "$probe" >&2; exit 1; }

printf '%-9s %-5s %-15s %12s %12s %12s %9s\n' kernel type MxNxK "ours (us)" "cuBLAS (us)" \
  "cuBLAS/ours" "max diff"
status=0
for name in "${bins[@]}"; do
  variant=${name%%_*}
  # An auto kernel whose remark is a fallback is the ordinary kernel.
  if [ "$variant" = auto ] && ! grep -q "tensorcore(auto): a warp computes" "$out/$name.remarks"; then
    variant="auto(off)"
  fi
  line=$(SCHED_BACKEND=cuda "$out/$name" time "$iters")
  read -r type shape ours theirs diff <<< "$line"
  if [[ $theirs == cublas-status-* ]]; then
    printf '%-9s %-5s %-15s %12s %12s %12s %9s\n' "$variant" "$type" "$shape" "$ours" "$theirs" - -
    continue
  fi
  ratio=$(python3 -c "print(f'{$theirs / $ours:.2f}x')")
  printf '%-9s %-5s %-15s %12s %12s %12s %9s\n' "$variant" "$type" "$shape" "$ours" "$theirs" \
    "$ratio" "$diff"
  [ "$diff" = 0 ] || { echo "error: $name: our C differs from cuBLAS's by $diff" >&2; status=1; }
done
echo "cuBLAS/ours > 1: our kernel is faster (both synchronized after every call; $iters calls);"
echo "auto(off): tensorcore(auto) did not fire (its remark above says why): the ordinary kernel"
exit $status
