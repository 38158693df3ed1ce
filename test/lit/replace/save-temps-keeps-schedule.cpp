// With -save-temps the compile goes through a preprocessed .ii file: the
// pragma must survive -E so the nest is still replaced and runs under sim.
// RUN: rm -rf %t.dir && mkdir -p %t.dir && cd %t.dir
// RUN: %sched_cc -save-temps %s %sched_link -o %t.dir/prog
// RUN: grep -q '#pragma sched' %t.dir/save-temps-keeps-schedule.ii
// RUN: env SCHED_BACKEND=sim SCHED_VERBOSE=1 %t.dir/prog 2>&1 | FileCheck %s
// CHECK: sched: sched_save_temps_keeps_schedule_{{[0-9]+}} {{.*}}ran on sim

void negate(int n, float *a) {
#pragma sched split(i, bo, ti, 8) bind(bo, blockIdx.x) bind(ti, threadIdx.x)
  for (int i = 0; i < n; ++i)
    a[i] = -a[i];
}

int main() {
  float a[16] = {1.f};
  negate(16, a);
  return a[0] == -1.f ? 0 : 1;
}
