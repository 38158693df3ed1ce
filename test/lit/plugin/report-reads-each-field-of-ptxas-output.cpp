// The report runs $SCHED_PTXAS when it is set, with -arch= of each embedded
// architecture on the kernel's PTX, and reads registers, spill stores, spill
// loads, stack and shared bytes from what it prints (a stand-in ptxas here,
// printing a kernel that spills).
// REQUIRES: nvrtc
// RUN: rm -f %t.log
// RUN: env SCHED_PTXAS=%S/Inputs/fake_ptxas.sh FAKE_PTXAS_LOG=%t.log %sched_cc -fplugin-arg-sched-report -fplugin-arg-sched-embed-archs=sm_80,sm_90a -fsyntax-only %s 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=LOG < %t.log

void scale(float *x, int n) {
#pragma sched target(gpu) split(i, bi, ti, 64) bind(bi, blockIdx.x) bind(ti, threadIdx.x)
  for (int i = 0; i < n; ++i)
    x[i] *= 2.f;
}

// CHECK: :12:3: remark: sched: kernel 'fake_kernel' for sm_80: 255 registers, 40 bytes spill stores, 36 bytes spill loads, 48 bytes stack, 2048 bytes shared
// CHECK: :12:3: remark: sched: kernel 'fake_kernel' for sm_90a: 255 registers, 40 bytes spill stores, 36 bytes spill loads, 48 bytes stack, 2048 bytes shared

// LOG:      args: -arch=sm_80 -v {{.*}}.ptx -o /dev/null
// LOG-NEXT: .entry sched_report_reads_each_field_of_ptxas_output_12
// LOG-NEXT: args: -arch=sm_90a -v {{.*}}.ptx -o /dev/null
// LOG-NEXT: .entry sched_report_reads_each_field_of_ptxas_output_12
