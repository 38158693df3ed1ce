// Nests with tensorcore(auto) that do not qualify for tensor cores, one per
// reason; each runs as the ordinary CUDA kernel of its schedule. main prints
// every result. The -verify test of the remarks is
// test/lit/diagnostics/tensorcore-auto-fallback-remarks.cpp.
#include <cstdio>

constexpr int M = 64, N = 64, K = 64;

void fp32Operands(const float *A, const float *B, float *C) {
#pragma sched target(gpu) tensorcore(auto)
#pragma sched tile(i, j, io, jo, ii, ji, 32, 32) split(k, ko, ki, 16) split(ii, ty, ir, 16)
#pragma sched reorder(io, jo, ty, ji, ko, ki, ir) bind(ty, threadIdx.y) bind(ji, threadIdx.x)
#pragma sched bind(io, blockIdx.y) bind(jo, blockIdx.x)
#pragma sched cache_read(A, shared, As) compute_at(As, ko) cache_read(B, shared, Bs) compute_at(Bs, ko)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.f;
      for (int k = 0; k < K; ++k) acc += A[i * K + k] * B[k * N + j];
      C[i * N + j] = acc;
    }
}

void kStepOf8(const _Float16 *A, const _Float16 *B, float *C) {
#pragma sched target(gpu) tensorcore(auto)
#pragma sched tile(i, j, io, jo, ii, ji, 32, 32) split(k, ko, ki, 8) split(ii, ty, ir, 16)
#pragma sched reorder(io, jo, ty, ji, ko, ki, ir) bind(ty, threadIdx.y) bind(ji, threadIdx.x)
#pragma sched bind(io, blockIdx.y) bind(jo, blockIdx.x)
#pragma sched cache_read(A, shared, As) compute_at(As, ko) cache_read(B, shared, Bs) compute_at(Bs, ko)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.f;
      for (int k = 0; k < K; ++k) acc += (float)A[i * K + k] * (float)B[k * N + j];
      C[i * N + j] = acc;
    }
}

void maxReduction(const _Float16 *A, const _Float16 *B, float *C) {
#pragma sched target(gpu) tensorcore(auto)
#pragma sched tile(i, j, io, jo, ii, ji, 32, 32) split(k, ko, ki, 16) split(ii, ty, ir, 16)
#pragma sched reorder(io, jo, ty, ji, ko, ki, ir) bind(ty, threadIdx.y) bind(ji, threadIdx.x)
#pragma sched bind(io, blockIdx.y) bind(jo, blockIdx.x)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.f;
      for (int k = 0; k < K; ++k) {
        float p = (float)A[i * K + k] * (float)B[k * N + j];
        acc = acc > p ? acc : p;
      }
      C[i * N + j] = acc;
    }
}

void blockOf48Threads(const _Float16 *A, const _Float16 *B, float *C) {
#pragma sched target(gpu) tensorcore(auto)
#pragma sched split(i, io, ii, 16) split(j, jo, ji, 48) split(k, ko, ki, 16)
#pragma sched reorder(io, jo, ji, ko, ki, ii) bind(ji, threadIdx.x)
#pragma sched bind(io, blockIdx.y) bind(jo, blockIdx.x)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < 48; ++j) {
      float acc = 0.f;
      for (int k = 0; k < K; ++k) acc += (float)A[i * K + k] * (float)B[k * 48 + j];
      C[i * 48 + j] = acc;
    }
}

void warpTileOf4x32(const _Float16 *A, const _Float16 *B, float *C) {
#pragma sched target(gpu) tensorcore(auto)
#pragma sched tile(i, j, io, jo, ii, ji, 32, 32) split(k, ko, ki, 16) split(ii, ty, ir, 4)
#pragma sched reorder(io, jo, ty, ji, ko, ki, ir) bind(ty, threadIdx.y) bind(ji, threadIdx.x)
#pragma sched bind(io, blockIdx.y) bind(jo, blockIdx.x)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.f;
      for (int k = 0; k < K; ++k) acc += (float)A[i * K + k] * (float)B[k * N + j];
      C[i * N + j] = acc;
    }
}


void rowsOf56Halves(const _Float16 *A, const _Float16 *B, float *C) {
#pragma sched target(gpu) tensorcore(auto)
#pragma sched tile(i, j, io, jo, ii, ji, 32, 32) split(k, ko, ki, 16) split(ii, ty, ir, 16)
#pragma sched reorder(io, jo, ty, ji, ko, ki, ir) bind(ty, threadIdx.y) bind(ji, threadIdx.x)
#pragma sched bind(io, blockIdx.y) bind(jo, blockIdx.x)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.f;
      for (int k = 0; k < 48; ++k) acc += (float)A[i * 56 + k] * (float)B[k * N + j];
      C[i * N + j] = acc;
    }
}

void halfAccumulator(const _Float16 *A, const _Float16 *B, _Float16 *C) {
#pragma sched target(gpu) tensorcore(auto)
#pragma sched tile(i, j, io, jo, ii, ji, 32, 32) split(k, ko, ki, 16) split(ii, ty, ir, 16)
#pragma sched reorder(io, jo, ty, ji, ko, ki, ir) bind(ty, threadIdx.y) bind(ji, threadIdx.x)
#pragma sched bind(io, blockIdx.y) bind(jo, blockIdx.x)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      _Float16 acc = 0;
      for (int k = 0; k < K; ++k) acc += A[i * K + k] * B[k * N + j];
      C[i * N + j] = acc;
    }
}

void int8ColumnMajorAFromGlobal(const signed char *A, const signed char *B, int *C) {
#pragma sched target(gpu) tensorcore(auto)
#pragma sched tile(i, j, io, jo, ii, ji, 32, 32) split(k, ko, ki, 16) split(ii, ty, ir, 16)
#pragma sched reorder(io, jo, ty, ji, ko, ki, ir) bind(ty, threadIdx.y) bind(ji, threadIdx.x)
#pragma sched bind(io, blockIdx.y) bind(jo, blockIdx.x)
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      int acc = 0;
      for (int k = 0; k < K; ++k) acc += (int)A[k * M + i] * (int)B[k * N + j];
      C[i * N + j] = acc;
    }
}

template <typename T> void fill(T *X, int Count, int Salt) {
  for (int I = 0; I < Count; ++I)
    X[I] = (T)((I * 7 + Salt) % 9 - 4);
}

template <typename T> void print(const char *Name, const T *X, int Count) {
  double Sum = 0;
  for (int I = 0; I < Count; ++I)
    Sum += (double)X[I] * (I % 13 + 1);
  printf("%s %.6f\n", Name, Sum);
}

int main() {
  static float Af[M * K], Bf[K * N], Cf[M * N];
  static _Float16 A[M * K], B[K * N], Ch[M * N];
  static float C[M * N];
  fill(Af, M * K, 1);
  fill(Bf, K * N, 2);
  fill(A, M * K, 3);
  fill(B, K * N, 4);
  fp32Operands(Af, Bf, Cf);
  print("fp32", Cf, M * N);
  kStepOf8(A, B, C);
  print("kstep8", C, M * N);
  maxReduction(A, B, C);
  print("max", C, M * N);
  blockOf48Threads(A, B, C);
  print("block48", C, M * 48);
  warpTileOf4x32(A, B, C);
  print("tile4x32", C, M * N);
  rowsOf56Halves(A, B, C);
  print("rows56", C, M * N);
  halfAccumulator(A, B, Ch);
  print("half", Ch, M * N);
  static signed char A8[M * K], B8[K * N];
  static int C8[M * N];
  fill(A8, M * K, 5);
  fill(B8, K * N, 6);
  int8ColumnMajorAFromGlobal(A8, B8, C8);
  print("int8 global TN", C8, M * N);
}
