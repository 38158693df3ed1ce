// A call to a function that is not a known pure math function may have side
// effects.
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

float f(float);

void apply(float *y, int n) {
#pragma sched target(gpu)
  for (int i = 0; i < n; ++i)
    // expected-warning@+1 {{cannot schedule this nest: call to 'f' may have side effects}}
    y[i] = f(y[i]);
}
