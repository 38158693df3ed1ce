// A factor that names something other than an integer constant is an error at
// the name that says what it is: an unknown name, a variable that is not
// constant, a macro that expands to something other than a constant
// expression.
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

#define TWICE(x) (2 * x)
#define EXPR sizeof(int)
void f(float *y, int n) {
  int ts = 8;
#pragma sched target(gpu) split(i, io, ii, ts) bind(ii, threadIdx.x) // expected-error {{'ts' in 'split' is not an integer constant: a variable whose value is not known at compile time (declare it `constexpr`, or `const` with a constant initializer)}}
  for (int i = 0; i < n; ++i)
    y[i] = 0.f;
#pragma sched target(gpu) split(i, io, ii, TS) bind(ii, threadIdx.x) // expected-error {{'TS' in 'split' is not an integer constant: no constant, template parameter or macro of that name is visible at the nest}}
  for (int i = 0; i < n; ++i)
    y[i] = 0.f;
#pragma sched target(gpu) split(i, io, ii, EXPR) bind(ii, threadIdx.x) // expected-error {{'EXPR' in 'split' is not an integer constant: macro 'EXPR' expands to 'sizeof ( int )', where 'sizeof' is not an integer constant}}
  for (int i = 0; i < n; ++i)
    y[i] = 0.f;
#pragma sched target(gpu) split(i, io, ii, nparts=n) bind(ii, threadIdx.x) // expected-error {{'n' in 'split' is not an integer constant: a variable whose value is not known at compile time (declare it `constexpr`, or `const` with a constant initializer)}}
  for (int i = 0; i < n; ++i)
    y[i] = 0.f;
}
