// A scalar declared outside the nest and written inside it cannot become a
// by-value kernel parameter.
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

float total(const float *x, int n) {
  float sum = 0.f;
#pragma sched target(gpu)
  for (int i = 0; i < n; ++i)
    sum += x[i]; // expected-warning {{cannot schedule this nest: nest writes scalar 'sum' declared outside it}}
  return sum;
}
