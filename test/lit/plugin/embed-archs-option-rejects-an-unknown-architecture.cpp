// embed-archs= takes a comma-separated list of the arch= names.
// RUN: not %sched_cc -fplugin-arg-sched-embed-archs=sm_80,sm_99 -fsyntax-only %s 2>&1 | FileCheck %s
// RUN: not %sched_cc -fplugin-arg-sched-embed=yes -fsyntax-only %s 2>&1 | FileCheck %s --check-prefix=BOOL
// CHECK: error: unknown sched plugin option 'embed-archs=sm_80,sm_99'; valid options: {{.*}}embed-archs=ARCH,ARCH...
// BOOL: error: unknown sched plugin option 'embed=yes'
void f() {}
