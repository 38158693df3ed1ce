// A range-based for has no induction variable to name: the schedule is
// ignored with a warning that says so (not "no loop follows").
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

void inc(float (&v)[8]) {
#pragma sched split(i, io, ii, 4)
  for (float &x : v) // expected-warning {{cannot schedule a range-based for loop}}
    x += 1;
}
