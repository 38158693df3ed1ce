// -ffile-prefix-map (and -fmacro-prefix-map / -fdebug-prefix-map) rewrite
// the source path the plugin writes into the object, as they rewrite __FILE__
// and debug info: the emitted CUDA's #line directives and the launch
// descriptor's path (which the runtime's messages name) say /src/..., and the
// object holds the real directory nowhere.
// RUN: %sched_cc -ffile-prefix-map=%S=/src -fsyntax-only -fplugin-arg-sched-dump=cuda %s | FileCheck %s --check-prefix=CUDA
// RUN: %sched_cc -fdebug-prefix-map=%S=/dbg -fsyntax-only -fplugin-arg-sched-dump=cuda %s | FileCheck %s --check-prefix=DEBUG
// RUN: %sched_cc -ffile-prefix-map=%S=/src -O1 %s %sched_link -o %t
// RUN: not grep -a -q -F %S %t
// RUN: env SCHED_BACKEND=sim SCHED_VERBOSE=1 %t 2>&1 | FileCheck %s --check-prefix=RAN

#include <cstdio>

static void twice(float *y, int n) {
#pragma sched target(gpu) split(i, bx, tx, 32) bind(bx, blockIdx.x) bind(tx, threadIdx.x)
  for (int i = 0; i < n; ++i)
    y[i] = 2.0f * y[i];
}

int main() {
  float y[64];
  for (int i = 0; i < 64; ++i)
    y[i] = i;
  twice(y, 64);
  std::printf("%g\n", y[63]);
}

// CUDA: #line 16 "/src/file-prefix-map-rewrites-the-source-path-in-the-object.cpp"
// DEBUG: #line 16 "/dbg/file-prefix-map-rewrites-the-source-path-in-the-object.cpp"
// RAN: sched_{{.*}} (/src/file-prefix-map-rewrites-the-source-path-in-the-object.cpp:16): ran on sim
