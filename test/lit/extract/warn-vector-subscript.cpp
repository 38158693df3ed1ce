// Subscripts through operator[] (std::vector) are calls, not accesses.
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s
#include <vector>

void fill(std::vector<float> &v, int n) {
#pragma sched target(gpu)
  for (int i = 0; i < n; ++i)
    v[i] = 1.f; // expected-warning {{cannot schedule this nest: subscript through 'operator[]'}}
}
