// An integer local used as an index that is not a name for its initializer
// gets a warning that says why, not "indirect index".
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

void assigned(const float *x, float *y, int n) {
#pragma sched target(gpu)
  for (int i = 1; i < n; ++i) {
    int p = i;
    p -= 1;
    y[i] = x[p]; // expected-warning {{cannot schedule this nest: index 'p' reads local 'p', which is assigned after its declaration (an integer local is substituted into an index only when it is initialized from loop variables and parameters and never assigned again)}}
  }
}

void incremented(const float *x, float *y, int n) {
#pragma sched target(gpu)
  for (int i = 0; i < n; ++i) {
    int p = i;
    y[i] = x[p]; // expected-warning {{index 'p' reads local 'p', which is assigned after its declaration}}
    ++p;
  }
}

void fromMemory(const int *idx, const float *x, float *y, int n) {
#pragma sched target(gpu)
  for (int i = 0; i < n; ++i) {
    int p = idx[i];
    y[i] = x[p + 1]; // expected-warning {{index 'p + 1' reads local 'p', which is computed from memory (an indirect index)}}
  }
}

void withoutInitializer(const float *x, float *y, int n) {
#pragma sched target(gpu)
  for (int i = 0; i < n; ++i) {
    int p;
    p = i;
    y[i] = x[p]; // expected-warning {{index 'p' reads local 'p', which is declared without an initializer}}
  }
}
