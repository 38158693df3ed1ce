// With no ptxas to run, -fplugin-arg-sched-report warns at the nest under
// -Wsched-report (which -Wno-sched-report silences and -Werror makes an
// error) and the nest is still replaced; a failing ptxas warns the same way.
// REQUIRES: nvrtc
// RUN: env SCHED_PTXAS=/nonexistent/ptxas %sched_cc -fplugin-arg-sched-report -fsyntax-only %s 2>&1 | FileCheck %s
// RUN: env SCHED_PTXAS=/nonexistent/ptxas %sched_cc -fplugin-arg-sched-report -Wno-unknown-warning-option -Wno-sched-report -fsyntax-only %s 2>&1 | count 0
// RUN: env SCHED_PTXAS=/nonexistent/ptxas not %sched_cc -fplugin-arg-sched-report -Werror -fsyntax-only %s 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: env SCHED_PTXAS=/bin/false %sched_cc -fplugin-arg-sched-report -fsyntax-only %s 2>&1 | FileCheck %s --check-prefix=FAILS

void scale(float *x, int n) {
#pragma sched target(gpu) split(i, bi, ti, 64) bind(bi, blockIdx.x) bind(ti, threadIdx.x)
  for (int i = 0; i < n; ++i)
    x[i] *= 2.f;
}

// CHECK: :12:3: warning: sched: no kernel report for nest '{{.*}}': SCHED_PTXAS names '/nonexistent/ptxas', which is not a program [-Wsched-report]
// ERR: :12:3: error: sched: no kernel report for nest '{{.*}}': SCHED_PTXAS names '/nonexistent/ptxas', which is not a program [-Werror,-Wsched-report]
// FAILS: :12:3: warning: sched: no kernel report for nest '{{.*}}': {{.*}}false -arch=sm_75 failed [-Wsched-report]
