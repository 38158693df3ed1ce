//===- check_reference_emu.cpp - The reference GEMMs on the emu backend ---===//
//
// Runs each reference kernel given on the command line (bench/reference/
// NAME.cu, kernel NAME) through the runtime's emu backend, which compiles
// the CUDA text as host C++ (runtime/emu/sched_cuda_emu.h) and runs every
// thread of every block with real barriers, and compares it with the CPU
// GEMM at check_reference.h's shapes. No GPU needed: this is how the
// references are known correct where there is none. Built and run by
// check-reference.sh.
//
// The emulation header has no CUDA vector types (the emitter prints none):
// the references' float4 is declared here, in front of the kernel's text.
//
//===----------------------------------------------------------------------===//
#include "check_reference.h"
#include "emu/EmuBackend.h"

#include <fstream>
#include <sstream>
#include <string>

using namespace check_reference;

static const char VectorTypes[] =
    "struct __align__(16) float4 { float x, y, z, w; };\n"
    "struct __align__(8) float2 { float x, y; };\n";

static bool checkKernel(const std::string &Path) {
  std::ifstream In(Path);
  if (!In) {
    std::printf("error: cannot read %s\n", Path.c_str());
    return false;
  }
  std::stringstream Text;
  Text << In.rdbuf();
  std::string Name = Path.substr(Path.find_last_of('/') + 1);
  Name = Name.substr(0, Name.rfind('.'));
  std::shared_ptr<sched::emu::CompiledKernel> K =
      sched::emu::compileKernel(VectorTypes + Text.str(), Name);
  if (!sched::emu::compileError(*K).empty()) {
    std::printf("error: %s: %s\n", Path.c_str(), sched::emu::compileError(*K).c_str());
    return false;
  }
  bool Ok = true;
  for (const Shape &S : Shapes) {
    std::vector<float> A = smallIntegers(size_t(S.M) * S.K, 7), B = smallIntegers(size_t(S.K) * S.N, 11);
    std::vector<float> C(size_t(S.M) * S.N, Sentinel), Want(C.size());
    cpuGemm(A, B, Want, S);
    if (S.M && S.N) {
      const float *PA = A.data(), *PB = B.data();
      float *PC = C.data();
      int M = S.M, N = S.N, Kd = S.K;
      void *Args[] = {&PA, &PB, &PC, &M, &N, &Kd};
      unsigned Grid[3] = {blocks(S.N), blocks(S.M), 1}, Block[3] = {BlockX, BlockY, 1};
      sched::emu::EmuStats Stats;
      std::string Error;
      if (!sched::emu::runKernel(*K, Grid, Block, Args, Stats, Error)) {
        std::printf("emu %s %dx%dx%d: error: %s\n", Name.c_str(), S.M, S.N, S.K, Error.c_str());
        Ok = false;
        continue;
      }
    }
    Ok &= report("emu", Name.c_str(), S, C, Want);
  }
  return Ok;
}

int main(int Argc, char **Argv) {
  bool Ok = true;
  for (int I = 1; I < Argc; ++I)
    Ok &= checkKernel(Argv[I]);
  return Ok ? 0 : 1;
}
