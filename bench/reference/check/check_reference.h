//===- check_reference.h - Checking the reference GEMMs against a CPU GEMM -===//
//
// What check_reference_emu.cpp (the kernels' CUDA run on the CPU by the emu
// backend) and check_reference_gpu.cu (run on a GPU) share: the shapes, the
// data, the CPU GEMM, the comparison and each kernel's launch. Every
// reference kernel in this folder is `extern "C" __global__ void NAME(const
// T *A, const T *B, float *C, int M, int N, int K)` computing C = A * B
// (row-major), T float or __half, in the tiling of the example it mirrors:
// one Tile x Tile tile of C per block, grid (ceil(N/Tile), ceil(M/Tile)).
// A line of its text
//
//   // check-reference: inputs=half tile=128 block=32x2x2
//
// says what differs from inputs=float tile=64 block=8x8x1 (launchOf). The
// inputs are small integers (exact in half too), so every order of
// summation gives exactly the CPU's result: the check asks for a difference
// of 0. C starts as a sentinel, so a store outside the M x N result, or a
// missing one, shows as a difference.
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_BENCH_CHECK_REFERENCE_H
#define SCHED_BENCH_CHECK_REFERENCE_H

#include <cmath>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

namespace check_reference {

constexpr float Sentinel = -12345.f;

/// How a reference is launched and what it takes.
struct Launch {
  bool HalfInputs = false; // A and B: __half, else float
  int Tile = 64;           // of C per block, rows and columns
  unsigned Block[3] = {8, 8, 1};

  unsigned blocks(int Extent) const { return unsigned((Extent + Tile - 1) / Tile); }
  size_t inputBytes() const { return HalfInputs ? 2 : 4; }
};

/// The launch a reference's text declares (`check-reference:`, see above);
/// false with Error for a line it does not understand.
inline bool launchOf(const std::string &Text, Launch &L, std::string &Error) {
  static const char Marker[] = "check-reference:";
  size_t At = Text.find(Marker);
  if (At == std::string::npos)
    return true;
  std::istringstream Line(Text.substr(At + sizeof(Marker) - 1,
                                      Text.find('\n', At) - At - (sizeof(Marker) - 1)));
  std::string Word;
  while (Line >> Word) {
    bool Ok = true;
    int Used = -1; // characters sscanf read: the whole value
    if (Word == "inputs=half" || Word == "inputs=float")
      L.HalfInputs = Word == "inputs=half";
    else if (Word.compare(0, 5, "tile=") == 0)
      Ok = std::sscanf(Word.c_str() + 5, "%d%n", &L.Tile, &Used) == 1 &&
           size_t(Used) == Word.size() - 5 && L.Tile > 0;
    else if (Word.compare(0, 6, "block=") == 0)
      Ok = std::sscanf(Word.c_str() + 6, "%ux%ux%u%n", &L.Block[0], &L.Block[1], &L.Block[2],
                       &Used) == 3 &&
           size_t(Used) == Word.size() - 6;
    else
      Ok = false;
    if (!Ok) {
      Error = "check-reference: '" + Word + "' is not inputs=half|float, tile=N or block=XxYxZ";
      return false;
    }
  }
  return true;
}

struct Shape {
  int M, N, K;
};

/// Full tiles; full tiles with a k remainder; nothing divides (the
/// examples' sizes); a single element; empty products (K = 0: C = 0) and an
/// empty result; then full 128x128 tiles with whole k tiles of 32 (one, and
/// five: a 3-stage ring wraps), and a block of those beside an edge block.
static const Shape Shapes[] = {{64, 64, 64},    {128, 192, 40},  {100, 130, 36}, {100, 70, 50},
                               {1, 1, 1},       {65, 63, 17},    {5, 7, 0},      {0, 9, 4},
                               {128, 128, 32},  {256, 256, 160}, {256, 136, 96}};

/// Values in -2..2 from a linear congruential generator.
inline std::vector<float> smallIntegers(size_t Count, unsigned Seed) {
  std::vector<float> V(Count);
  for (float &X : V) {
    Seed = Seed * 1103515245u + 12345u;
    X = float(int((Seed >> 16) % 5) - 2);
  }
  return V;
}

/// The bytes of V as the kernel's inputs: floats, or halves (bits of the
/// binary16 numbers, which hold small integers exactly).
inline std::vector<unsigned char> inputBytes(const std::vector<float> &V, const Launch &L) {
  std::vector<unsigned char> Bytes(V.size() * L.inputBytes());
  if (!L.HalfInputs) {
    if (!V.empty())
      std::memcpy(Bytes.data(), V.data(), Bytes.size());
    return Bytes;
  }
  for (size_t I = 0; I < V.size(); ++I) {
    unsigned F;
    std::memcpy(&F, &V[I], 4);
    // A normal float whose significand fits 10 bits: rebias the exponent.
    unsigned short H = (F >> 16) & 0x8000u;
    if (F & 0x7fffffffu)
      H |= (((F >> 23 & 0xffu) - 127 + 15) << 10) | (F >> 13 & 0x3ffu);
    std::memcpy(&Bytes[2 * I], &H, 2);
  }
  return Bytes;
}

inline void cpuGemm(const std::vector<float> &A, const std::vector<float> &B,
                    std::vector<float> &C, const Shape &S) {
  for (int I = 0; I < S.M; ++I)
    for (int J = 0; J < S.N; ++J) {
      float Acc = 0.f;
      for (int K = 0; K < S.K; ++K)
        Acc += A[size_t(I) * S.K + K] * B[size_t(K) * S.N + J];
      C[size_t(I) * S.N + J] = Acc;
    }
}

inline double maxDifference(const float *Got, const std::vector<float> &Want) {
  double Max = 0;
  for (size_t I = 0; I < Want.size(); ++I)
    Max = std::fmax(Max, std::fabs(double(Got[I]) - double(Want[I])));
  return Max;
}

/// Prints `<mode> <kernel> MxNxK: max difference D`; whether D is 0.
inline bool report(const char *Mode, const char *Kernel, const Shape &S, double Max) {
  std::printf("%s %s %dx%dx%d: max difference %g\n", Mode, Kernel, S.M, S.N, S.K, Max);
  return Max == 0;
}

} // namespace check_reference

#endif // SCHED_BENCH_CHECK_REFERENCE_H
