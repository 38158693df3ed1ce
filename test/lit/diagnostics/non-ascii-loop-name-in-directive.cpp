// Loop variables with non-ASCII names are ordinary identifiers in directives,
// and a misspelt one still gets its caret and suggestion.
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

void copy(int n, float *a, const float *b) {
#pragma sched split(α, αo, αi, 4) bind(αo, blockIdx.x) bind(αi, threadIdx.x)
  for (int α = 0; α < n; ++α)
    a[α] = b[α];
}

void typo(int n, float *a, const float *b) {
  // expected-error@+1 {{no loop named 'β'; did you mean 'βγ'?}}
#pragma sched bind(β, blockIdx.x)
  for (int βγ = 0; βγ < n; ++βγ)
    a[βγ] = b[βγ];
}
