// Flat indices whose strides are products of sizes. `(2*N - 1)*K*i + 2*K*j
// + k` has coefficients K*(2*N - 1), 2*K and 1, no chain, but their common
// factor K is a stride: rows of 2*N - 1 blocks of K, the column `2*j`. A
// coefficient that is a sum divides another exactly (`(2*K - 1)*(N + 2)` by
// `2*K - 1`), the constant 4*K - 2 being two rows. Coefficients 11*(2*N - 1)
// and 2*(2*N - 1) share the row 2*N - 1: [M, 11, 2*N - 1] holds every access,
// and is taken before rows of 4*N - 2, as many dimensions but needing the
// column 11*i to fit (M <= 1). Where no chain holds the accesses (rows of
// K*N - 1 holding K*N elements overlap), the buffer stays one-dimensional,
// sized by its largest index: every loop of an access runs at least once
// (K, N >= 1 for k < K, n < N), so K*N - 1 >= 0 and its term is largest at
// the end of its loop. Before, the bound analysis gave up on the products
// ("cannot bound the indices") and the nests stayed as written.
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-dump=ir %s | FileCheck %s

void evenBlocks(int *A, const int *B, int M, int N, int K) {
#pragma sched target(gpu)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < K; ++k)
        if (j % 2 == 0)
          A[2 * K * N * i - K * i + 2 * K * j + k] = B[2 * j];
}
// CHECK-LABEL: func sched_{{.*}}(A: int32*[M, ((N*2) - 1), K] global, B: int32*[N, 2] global, M: int32, N: int32, K: int32) target=gpu {
// CHECK:         A[i, (j*2), k] = B[j, 0]

void sumStride(float *Y, const short *Z, int M, int N, int K) {
#pragma sched target(gpu)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      for (int m = 0; m < K; ++m)
        Y[i] += Z[2 * K * N * i + 4 * K * i + 2 * K * j - N * i + 4 * K - 2 * i - j + 2 * m - 2];
}
// CHECK-LABEL: func sched_{{.*}}(Y: float32*[M] global, Z: int16*[M, (N + 2), ((K*2) - 1)] global, M: int32, N: int32, K: int32) target=gpu {
// CHECK:         Y[i] = (Y[i] + float32(int32(Z[i, (j + 2), (m*2)])))

void sharedSumFactor(float *A, const float *B, int M, int N) {
#pragma sched target(gpu)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < 6; ++j)
      for (int k = 0; k < N; ++k)
        A[22 * N * i + 4 * N * j - 11 * i - 2 * j + 2 * k] += B[k];
}
// CHECK-LABEL: func sched_{{.*}}(A: float32*[M, 11, ((N*2) - 1)] global, B: float32*[N] global, M: int32, N: int32) target=gpu {
// CHECK:         A[i, (j*2), (k*2)] = (A[i, (j*2), (k*2)] + B[k])

void overlappingRows(float *A, int M, int N, int K) {
#pragma sched target(gpu)
  for (int i = 0; i < M; ++i)
    for (int k = 0; k < K; ++k)
      for (int n = 0; n < N; ++n)
        A[(K * N - 1) * i + N * k + n] += 1.f;
}
// CHECK-LABEL: func sched_{{.*}}(A: float32*[((((K*M)*N) - M) + 1)] global, M: int32, K: int32, N: int32) target=gpu {
// CHECK:         A[(((((K*N) - 1)*i) + (N*k)) + n)] = (A[(((((K*N) - 1)*i) + (N*k)) + n)] + 1.0f)
