// emit-dir=DIR writes each nest's -Rpass=sched remarks as DIR/<nest>.opt.yaml
// in LLVM's optimization-record format (what -fsave-optimization-record
// writes, which the plugin's remarks cannot reach: they are Clang diagnostics
// given before CodeGen), so opt-viewer and llvm-remarkutil read it: a
// !Passed remark NestBecameKernel at the loop, with the same text as the
// -Rpass=sched remark, and the path as -ffile-prefix-map writes it.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %sched_cc -fsyntax-only -Rpass=sched -ffile-prefix-map=%S=/src -fplugin-arg-sched-emit-dir=%t.dir %s 2> %t.err
// RUN: FileCheck %s --check-prefix=REMARK < %t.err
// RUN: FileCheck %s < %t.dir/sched_emit_dir_writes_remarks_as_an_optimization_record_16.opt.yaml
// RUN: llvm-remarkutil yaml2bitstream %t.dir/sched_emit_dir_writes_remarks_as_an_optimization_record_16.opt.yaml -o %t.bitstream
// RUN: llvm-remarkutil bitstream2yaml %t.bitstream -o - | FileCheck %s --check-prefix=PARSED

void twice(float *y, int n) {
#pragma sched target(gpu) split(i, bx, tx, 32) bind(bx, blockIdx.x) bind(tx, threadIdx.x)
  for (int i = 0; i < n; ++i)
    y[i] = 2.0f * y[i];
}

// REMARK: remark: sched: nest became kernel 'sched_emit_dir_writes_remarks_as_an_optimization_record_16': grid

// CHECK:      --- !Passed
// CHECK-NEXT: Pass:            sched
// CHECK-NEXT: Name:            NestBecameKernel
// CHECK-NEXT: DebugLoc:        { File: '/src/emit-dir-writes-remarks-as-an-optimization-record.cpp', Line: 16, Column: 3 }
// CHECK-NEXT: Function:        'twice'
// CHECK-NEXT: Args:
// CHECK-NEXT:   - String:          'sched: nest became kernel ''sched_emit_dir_writes_remarks_as_an_optimization_record_16'': grid
// CHECK:      ...

// PARSED:      --- !Passed
// PARSED-NEXT: Pass:            sched
// PARSED-NEXT: Name:            NestBecameKernel
// PARSED-NEXT: DebugLoc:        { File: '/src/emit-dir-writes-remarks-as-an-optimization-record.cpp',
// PARSED-NEXT:                    Line: 16, Column: 3 }
// PARSED-NEXT: Function:        twice
// PARSED-NEXT: Args:
// PARSED-NEXT:   - String:          'sched: nest became kernel
