// A nest kept as written has its directives checked against all its loops,
// those whose counter is declared before the nest (`for (i = 0; ...)`)
// included, named as the extractor names them (a second loop over `j` is
// `j_1`): a correct name is no error, a misspelt one is (issue 17, item 5).
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

void gather(int n, float *a, const float *b, const int *idx) {
  int i, j;
  // expected-error@+1 {{no loop named 'jj'; did you mean 'j'?}}
#pragma sched bind(i, blockIdx.x) bind(j_1, threadIdx.x) bind(jj, threadIdx.y)
  for (i = 0; i < n; ++i) {
    for (j = 0; j < 4; ++j)
      a[i * 8 + j] = b[idx[i]]; // expected-warning {{indirect index 'idx[i]'}}
    for (j = 4; j < 8; ++j)
      a[i * 8 + j] = 0.f;
  }
}
