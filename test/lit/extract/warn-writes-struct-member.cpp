// A nest that writes a scalar member of a struct declared outside it is not
// scheduled, like one that writes a scalar variable.
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

struct In {
  float v[16];
  int n;
};
struct Outer {
  In in;
};

void writes(Outer &o) {
#pragma sched target(gpu)
  for (int i = 0; i < 4; ++i)
    o.in.n = i; // expected-warning {{cannot schedule this nest: nest writes member 'o.in.n' declared outside it; the loop stays as written}}
}
