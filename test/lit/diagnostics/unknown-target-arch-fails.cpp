// An architecture the plugin does not target (too old for its tensor-core
// code, a typo, or a bare number) is an error that lists the valid ones, and
// the compile fails.
// RUN: not %sched_cc -fplugin-arg-sched-arch=sm_70 -fsyntax-only %s 2>&1 | FileCheck %s --check-prefix=OLD
// RUN: not %sched_cc -fplugin-arg-sched-arch=90 -fsyntax-only %s 2>&1 | FileCheck %s --check-prefix=BARE
// RUN: not %sched_cc -fplugin-arg-sched-arch= -fsyntax-only %s 2>&1 | FileCheck %s --check-prefix=EMPTY
// OLD: error: unknown sched plugin option 'arch=sm_70'; valid options: {{.*}}, arch=sm_75|sm_80|sm_86|sm_89|sm_90|sm_90a
// BARE: error: unknown sched plugin option 'arch=90'; valid options: {{.*}}arch=sm_75|
// EMPTY: error: unknown sched plugin option 'arch='; valid options: {{.*}}arch=sm_75|
void f() {}
