// `acc += (-1 - B[..]) - B[..]` binds jo to threadIdx.x as a cross-thread
// reduction of acc. BoundInference (resolving the shared stage Bs) simplifies
// the update into `(acc - Bs[..]*2) - 1`: acc is no longer an operand of the
// outermost +, but it is still one term, with coefficient 1, of a chain of +
// and - whose other terms do not read it, so LowerThreadReductions lowers it
// (sched-fuzz seed 61248 fell back: "... is not an update of 'acc'").
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-dump=lowered %s 2>&1 | FileCheck %s --implicit-check-not=warning:

void f(int *A, const int *__restrict B) {
#pragma sched target(gpu) cache_read(B, shared, Bs) split(j, jo, ji, 4)
#pragma sched compute_at(Bs, i) bind(i, threadIdx.z) bind(jo, threadIdx.x)
  for (int i = 0; i < 8; i++) {
    int acc = A[2 * i];
    for (int j = 0; j < 8; j++)
      acc += ((-1 - B[8 * i + j]) - B[8 * i + j]);
    A[2 * i] = acc;
  }
}
// CHECK-LABEL: func sched_{{.*}}(
// CHECK:         acc.part[0] = 0
// CHECK-NEXT:    for (ji, 0, 4) unroll reduce {
// CHECK-NEXT:      acc.part[0] = ((acc.part[0] - (Bs[(((i*8) + (jo*4)) + ji)]*2)) - 1)
// CHECK:         acc[0] = (acc[0] + acc.red[(i*2)])
