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
// Results alone do not show a missing guard on a load (a row-major kernel
// that reads past row M or column N only computes results it does not
// store), but a GPU faults on a read past the array. So A, B and C lie
// against an inaccessible page, once ending at it and once starting right
// after one, and a read or write outside them is a segmentation fault,
// reported with the kernel and the shape.
//
// The references' float4 and uint4 come from the emulation header, which has
// CUDA's vector types (the emitter prints them for vectorized loops); a
// tensor-core reference's half, __cvta_generic_to_shared and PTX wrappers
// (sched_ptx_ldmatrix_*, sched_ptx_mma_m16n8k16: warp collectives) too. The
// launch and the input type are the reference's `check-reference:` line
// (check_reference.h).
//
//===----------------------------------------------------------------------===//
#include "check_reference.h"
#include "emu/EmuBackend.h"

#include <csignal>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

#include <sys/mman.h>
#include <unistd.h>

using namespace check_reference;

/// Bytes next to a page no access is allowed to: right before it (AtEnd) or
/// right after it.
class FencedArray {
public:
  FencedArray(const void *Values, size_t Count, bool AtEnd) {
    size_t Page = size_t(sysconf(_SC_PAGESIZE));
    size_t Bytes = (Count + Page - 1) / Page * Page;
    MapBytes = Bytes + 2 * Page;
    Map = static_cast<char *>(
        mmap(nullptr, MapBytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
    if (Map == MAP_FAILED || mprotect(Map + Page, Bytes, PROT_READ | PROT_WRITE) != 0) {
      std::perror("mmap");
      std::exit(2);
    }
    Data = AtEnd ? Map + Page + Bytes - Count : Map + Page;
    std::memcpy(Data, Values, Count);
  }
  ~FencedArray() { munmap(Map, MapBytes); }
  void *data() const { return Data; }

private:
  char *Map;
  size_t MapBytes;
  char *Data;
};

/// What the segmentation fault handler names.
static char Running[160];

static void onFault(int) {
  static const char Tail[] = ": error: access outside A, B or C (segmentation fault)\n";
  ssize_t Ignored = write(1, Running, std::strlen(Running));
  Ignored = write(1, Tail, sizeof(Tail) - 1);
  (void)Ignored;
  _exit(1);
}

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
  Launch L;
  std::string LaunchError;
  if (!launchOf(Text.str(), L, LaunchError)) {
    std::printf("error: %s: %s\n", Path.c_str(), LaunchError.c_str());
    return false;
  }
  std::shared_ptr<sched::emu::CompiledKernel> K =
      sched::emu::compileKernel(Text.str(), Name);
  if (!sched::emu::compileError(*K).empty()) {
    std::printf("error: %s: %s\n", Path.c_str(), sched::emu::compileError(*K).c_str());
    return false;
  }
  bool Ok = true;
  for (const Shape &S : Shapes) {
    std::vector<float> A = smallIntegers(size_t(S.M) * S.K, 7), B = smallIntegers(size_t(S.K) * S.N, 11);
    std::vector<float> C(size_t(S.M) * S.N, Sentinel), Want(C.size());
    cpuGemm(A, B, Want, S);
    std::vector<unsigned char> InA = inputBytes(A, L), InB = inputBytes(B, L);
    bool Ran = true;
    double Max = S.M && S.N ? 0 : maxDifference(C.data(), Want);
    for (bool AtEnd : {true, false}) {
      if (!S.M || !S.N)
        break;
      FencedArray FA(InA.data(), InA.size(), AtEnd), FB(InB.data(), InB.size(), AtEnd),
          FC(C.data(), C.size() * sizeof(float), AtEnd);
      const void *PA = FA.data(), *PB = FB.data();
      float *PC = static_cast<float *>(FC.data());
      int M = S.M, N = S.N, Kd = S.K;
      void *Args[] = {&PA, &PB, &PC, &M, &N, &Kd};
      unsigned Grid[3] = {L.blocks(S.N), L.blocks(S.M), 1};
      sched::emu::EmuStats Stats;
      std::string Error;
      std::snprintf(Running, sizeof(Running), "emu %s %dx%dx%d (arrays %s a fence page)",
                    Name.c_str(), S.M, S.N, S.K, AtEnd ? "ending at" : "starting after");
      std::fflush(stdout);
      if (!sched::emu::runKernel(*K, Grid, L.Block, Args, Stats, Error)) {
        std::printf("emu %s %dx%dx%d: error: %s\n", Name.c_str(), S.M, S.N, S.K, Error.c_str());
        Ran = false;
        break;
      }
      Max = std::fmax(Max, maxDifference(PC, Want));
    }
    Ok &= Ran && report("emu", Name.c_str(), S, Max);
  }
  return Ok;
}

int main(int Argc, char **Argv) {
  // The handler runs on its own stack: a fault may come from a fiber's.
  static char AltStack[1 << 16];
  stack_t Alt = {};
  Alt.ss_sp = AltStack;
  Alt.ss_size = sizeof(AltStack);
  sigaltstack(&Alt, nullptr);
  struct sigaction Action = {};
  Action.sa_handler = onFault;
  Action.sa_flags = SA_ONSTACK;
  sigaction(SIGSEGV, &Action, nullptr);
  sigaction(SIGBUS, &Action, nullptr);
  bool Ok = true;
  for (int I = 1; I < Argc; ++I)
    Ok &= checkKernel(Argv[I]);
  return Ok ? 0 : 1;
}
