// An unknown plugin option is an error that lists the valid ones, and the
// compile fails.
// RUN: not %sched_cc -fplugin-arg-sched-foo -fsyntax-only %s 2>&1 | FileCheck %s
// CHECK: error: unknown sched plugin option 'foo'; valid options: dump=ir|scheduled|lowered|cuda|vta, print-after-all, verify-each, emit-dir=DIR, arch=sm_75|sm_80|sm_86|sm_89|sm_90|sm_90a, embed=0|1, embed-archs=ARCH,ARCH..., report
void f() {}
