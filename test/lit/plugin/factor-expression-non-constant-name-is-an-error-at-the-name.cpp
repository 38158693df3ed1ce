// A factor expression with a name that is not an integer constant is an error
// whose caret is on that name (not on the start of the argument), and says
// why; so is a macro in it whose replacement names one.
// RUN: not %sched_cc -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:

#define BAD (ts + 1)
void f(float *y, int n) {
  constexpr int TS = 8;
  int ts = 8;
#pragma sched target(gpu) split(i, io, ii, TS*2 + ts) bind(ii, threadIdx.x)
  for (int i = 0; i < n; ++i)
    y[i] = 0.f;
// CHECK: [[FILE:.*]].cpp:10:51: error: 'ts' in 'split' is not an integer constant: a variable whose value is not known at compile time (declare it `constexpr`, or `const` with a constant initializer)
#pragma sched target(gpu) split(i, io, ii, nparts = (TS - n)) bind(ii, threadIdx.x)
  for (int i = 0; i < n; ++i)
    y[i] = 0.f;
// CHECK: [[FILE]].cpp:14:59: error: 'n' in 'split' is not an integer constant: a variable whose value is not known at compile time
#pragma sched target(gpu) split(i, io, ii, 2*BAD) bind(ii, threadIdx.x)
  for (int i = 0; i < n; ++i)
    y[i] = 0.f;
// CHECK: [[FILE]].cpp:18:46: error: 'BAD' in 'split' is not an integer constant: macro 'BAD' expands to '( ts + 1 )', where 'ts' is not an integer constant: a variable whose value is not known at compile time
#pragma sched target(gpu) split(i, io, ii, TS+undeclared) bind(ii, threadIdx.x)
  for (int i = 0; i < n; ++i)
    y[i] = 0.f;
// CHECK: [[FILE]].cpp:22:47: error: 'undeclared' in 'split' is not an integer constant: no constant, template parameter or macro of that name is visible at the nest
}
