// A schedule that is not followed by a for loop is ignored with a warning.
// RUN: %sched_cc -fsyntax-only -Xclang -verify %s

void set(int &n) {
  // expected-warning@+1 {{'#pragma sched' must be followed by a for loop; ignored}}
#pragma sched split(i, io, ii, 4)
  n = 3;
}
