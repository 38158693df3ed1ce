// Where NVRTC loads at compile time, the plugin compiles each kernel to PTX and
// puts it in the launch descriptor (an `image` section per architecture), so
// the program never starts NVRTC: by default for the oldest architecture the
// kernel runs on (sm_75 at least), for arch= when given, for each of
// embed-archs=; embed=0 embeds nothing. The PTX carries line information
// (.loc), which profilers and compute-sanitizer map back to the .cu.
// REQUIRES: nvrtc
// RUN: rm -rf %t.def %t.arch %t.fat %t.off
// RUN: %sched_cc -fplugin-arg-sched-emit-dir=%t.def -fsyntax-only %s
// RUN: FileCheck %s --check-prefix=DEF < %t.def/sched_*.desc
// RUN: %sched_cc -fplugin-arg-sched-arch=sm_86 -fplugin-arg-sched-emit-dir=%t.arch -fsyntax-only %s
// RUN: FileCheck %s --check-prefix=ARCH < %t.arch/sched_*.desc
// RUN: %sched_cc -fplugin-arg-sched-embed-archs=sm_80,sm_90a -fplugin-arg-sched-emit-dir=%t.fat -fsyntax-only %s
// RUN: FileCheck %s --check-prefix=FAT < %t.fat/sched_*.desc
// RUN: %sched_cc -fplugin-arg-sched-embed=0 -fplugin-arg-sched-emit-dir=%t.off -fsyntax-only %s
// RUN: FileCheck %s --check-prefix=OFF < %t.off/sched_*.desc

void scale(float *x, int n) {
#pragma sched target(gpu) split(i, bi, ti, 64) bind(bi, blockIdx.x) bind(ti, threadIdx.x)
  for (int i = 0; i < n; ++i)
    x[i] *= 2.f;
}

// DEF:      {{^}}image compute_75 {{[0-9]+}}
// DEF:      .target sm_75
// DEF:      .entry sched_
// DEF:      .loc 1 {{[0-9]+}} {{[0-9]+}}
// DEF-NOT:  {{^}}image
// DEF:      {{^}}end

// ARCH:     {{^}}image compute_86 {{[0-9]+}}
// ARCH:     .target sm_86
// ARCH-NOT: {{^}}image

// FAT:      {{^}}image compute_80 {{[0-9]+}}
// FAT:      .target sm_80
// FAT:      {{^}}image compute_90a {{[0-9]+}}
// FAT:      .target sm_90a

// OFF-NOT:  {{^}}image
