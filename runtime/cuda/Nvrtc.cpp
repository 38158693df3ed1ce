//===- Nvrtc.cpp - NVRTC with dlopen, and the kernel cache ----------------===//
//
// See Nvrtc.h.
//
//===----------------------------------------------------------------------===//

#include "Nvrtc.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fstream>
#include <sstream>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef SCHED_CUDA_HOME
#define SCHED_CUDA_HOME "/usr/local/cuda"
#endif

namespace sched {
namespace cuda {

namespace {

/// Resolves Name in Lib into Fn; false when it is missing.
template <typename FnT> bool resolve(void *Lib, const char *Name, FnT &Fn) {
  Fn = reinterpret_cast<FnT>(dlsym(Lib, Name));
  return Fn != nullptr;
}

struct LoadedNvrtc {
  NvrtcApi Api{};
  std::string Error;
};

LoadedNvrtc loadNvrtcOnce() {
  LoadedNvrtc L;
  std::string Fallback = cudaHome() + "/lib64/libnvrtc.so";
  const char *Names[] = {"libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12", Fallback.c_str()};
  void *Lib = nullptr;
  for (const char *Name : Names)
    if ((Lib = dlopen(Name, RTLD_NOW | RTLD_LOCAL)))
      break;
  if (!Lib) {
    L.Error = "NVRTC not found (tried libnvrtc.so, libnvrtc.so.13, libnvrtc.so.12, " +
              Fallback + ")";
    return L;
  }
  NvrtcApi &A = L.Api;
  bool Ok = resolve(Lib, "nvrtcCreateProgram", A.nvrtcCreateProgram) &&
            resolve(Lib, "nvrtcCompileProgram", A.nvrtcCompileProgram) &&
            resolve(Lib, "nvrtcGetPTXSize", A.nvrtcGetPTXSize) &&
            resolve(Lib, "nvrtcGetPTX", A.nvrtcGetPTX) &&
            resolve(Lib, "nvrtcGetProgramLogSize", A.nvrtcGetProgramLogSize) &&
            resolve(Lib, "nvrtcGetProgramLog", A.nvrtcGetProgramLog) &&
            resolve(Lib, "nvrtcDestroyProgram", A.nvrtcDestroyProgram) &&
            resolve(Lib, "nvrtcGetErrorString", A.nvrtcGetErrorString);
  if (!Ok) {
    L.Error = "NVRTC lacks a required entry point";
    return L;
  }
  // Optional: newer NVRTCs only.
  resolve(Lib, "nvrtcGetCUBINSize", A.nvrtcGetCUBINSize);
  resolve(Lib, "nvrtcGetCUBIN", A.nvrtcGetCUBIN);
  resolve(Lib, "nvrtcGetNumSupportedArchs", A.nvrtcGetNumSupportedArchs);
  resolve(Lib, "nvrtcGetSupportedArchs", A.nvrtcGetSupportedArchs);
  resolve(Lib, "nvrtcVersion", A.nvrtcVersion);
  return L;
}

/// The architectures NVRTC lists; empty when it cannot list them.
std::vector<int> supportedArchs(const NvrtcApi &A) {
  int Count = 0;
  if (!A.nvrtcGetNumSupportedArchs || !A.nvrtcGetSupportedArchs ||
      A.nvrtcGetNumSupportedArchs(&Count) != NVRTC_SUCCESS || Count <= 0)
    return {};
  std::vector<int> Archs(Count);
  if (A.nvrtcGetSupportedArchs(Archs.data()) != NVRTC_SUCCESS)
    return {};
  return Archs;
}

std::string smName(int Arch) { return "sm_" + std::to_string(Arch); }

std::string tensorCoreError(const std::string &Kernel, int MinArch) {
  return "kernel '" + Kernel + "' uses tensor cores (wmma or mma.sync), which need " + smName(MinArch) +
         " or newer; ";
}

/// The unset case: the device's own architecture, or the newest older one
/// NVRTC knows (as PTX), which must still have the kernel's instructions.
bool chooseDeviceArch(const std::string &Kernel, int Wanted, int MinArch,
                      const std::vector<int> &Supported, ArchChoice &Out, std::string &Error) {
  if (Wanted < MinArch) {
    Error = tensorCoreError(Kernel, MinArch) + "the device is " + smName(Wanted);
    return false;
  }
  int Arch = Wanted;
  bool Exact = Supported.empty();
  int Best = -1;
  for (int A : Supported) {
    if (A == Wanted)
      Exact = true;
    if (A < Wanted && A > Best)
      Best = A;
  }
  if (!Exact && Best > 0)
    Arch = Best;
  if (Arch < MinArch) {
    Error = tensorCoreError(Kernel, MinArch) + "this NVRTC compiles " + smName(Wanted) +
            " only as compute_" + std::to_string(Arch);
    return false;
  }
  Out.Arch = (Exact ? "sm_" : "compute_") + std::to_string(Arch);
  Out.Exact = Exact;
  return true;
}

std::string programLog(const NvrtcApi &A, nvrtcProgram Prog) {
  size_t Size = 0;
  if (A.nvrtcGetProgramLogSize(Prog, &Size) != NVRTC_SUCCESS || Size <= 1)
    return "";
  std::string Log(Size, '\0');
  if (A.nvrtcGetProgramLog(Prog, &Log[0]) != NVRTC_SUCCESS)
    return "";
  Log.resize(Size - 1);
  return Log;
}

bool nvrtcCheck(const NvrtcApi &A, const char *Call, nvrtcResult R, std::string &Error) {
  if (R == NVRTC_SUCCESS)
    return true;
  Error = std::string(Call) + ": " + A.nvrtcGetErrorString(R);
  return false;
}

} // namespace

bool chooseArch(const std::string &Kernel, int DeviceArch, const TargetArch &Requested,
                int MinArch, const std::vector<int> &Supported, ArchChoice &Out,
                std::string &Error) {
  if (!Requested.isSet())
    return chooseDeviceArch(Kernel, DeviceArch, MinArch, Supported, Out, Error);
  const std::string Name = Requested.name();
  const std::string Built =
      "kernel '" + Kernel + "' was built for " + Name + " (-fplugin-arg-sched-arch=" + Name + ")";
  if (DeviceArch < Requested.Number) {
    Error = Built + ", but the device is " + smName(DeviceArch) + ", which is older";
    return false;
  }
  if (Requested.Specific && DeviceArch != Requested.Number) {
    Error = Built + ", whose architecture-specific code runs on " + smName(Requested.Number) +
            " devices only; the device is " + smName(DeviceArch);
    return false;
  }
  if (Requested.Number < MinArch) {
    Error = tensorCoreError(Kernel, MinArch) + "the target architecture is " + Name;
    return false;
  }
  if (!Supported.empty() &&
      std::find(Supported.begin(), Supported.end(), Requested.Number) == Supported.end()) {
    Error = Built + ", which this NVRTC cannot compile for";
    return false;
  }
  // A cubin runs on its own major version only; a newer one JIT-compiles
  // the target's PTX, which keeps the target's instruction choices.
  Out.Exact = DeviceArch / 10 == Requested.Number / 10;
  Out.Arch = Out.Exact ? Name : "compute_" + std::to_string(Requested.Number);
  return true;
}

std::string cudaHome() {
  const char *Env = std::getenv("SCHED_CUDA_HOME");
  return Env && *Env ? Env : SCHED_CUDA_HOME;
}

const NvrtcApi *nvrtc(std::string &Error) {
  static LoadedNvrtc L = loadNvrtcOnce();
  if (!L.Error.empty()) {
    Error = L.Error;
    return nullptr;
  }
  return &L.Api;
}

bool compileWithNvrtc(const std::string &Source, const std::string &Name, int Major, int Minor,
                      CompiledImage &Out, std::string &Error, int MinArch,
                      const TargetArch &Requested) {
  const NvrtcApi *A = nvrtc(Error);
  if (!A)
    return false;
  ArchChoice Choice;
  if (!chooseArch(Name, Major * 10 + Minor, Requested, MinArch, supportedArchs(*A), Choice,
                  Error))
    return false;
  return compileForArch(Source, Name, Choice.Arch, Out, Error);
}

std::string kernelCacheDir() {
  const char *Off = std::getenv("SCHED_CACHE");
  if (Off && (!std::strcmp(Off, "0") || !strcasecmp(Off, "off") || !strcasecmp(Off, "false") ||
              !strcasecmp(Off, "no")))
    return "";
  const char *Xdg = std::getenv("XDG_CACHE_HOME");
  if (Xdg && *Xdg)
    return std::string(Xdg) + "/sched/kernels";
  const char *Home = std::getenv("HOME");
  if (Home && *Home)
    return std::string(Home) + "/.cache/sched/kernels";
  return "";
}

namespace {

/// Two FNV-1a hashes (different offsets) of Parts, each part ended by a 0
/// byte so that no two lists of parts run together: 32 hex digits.
std::string cacheKey(const std::vector<std::string> &Parts) {
  uint64_t H[2] = {0xcbf29ce484222325ull, 0x84222325cbf29ce4ull};
  for (const std::string &P : Parts)
    for (int K = 0; K < 2; ++K) {
      for (unsigned char C : P)
        H[K] = (H[K] ^ C) * 0x100000001b3ull;
      H[K] = (H[K] ^ 0) * 0x100000001b3ull;
    }
  char Text[33];
  std::snprintf(Text, sizeof(Text), "%016llx%016llx", static_cast<unsigned long long>(H[0]),
                static_cast<unsigned long long>(H[1]));
  return Text;
}

/// "sched-kernel v1 <arch> <cubin|ptx> <bytes>\n": the first line of an entry.
std::string entryHeader(const CompiledImage &I) {
  return "sched-kernel v1 " + I.Arch + " " + (I.IsCubin ? "cubin" : "ptx") + " " +
         std::to_string(I.Image.size()) + "\n";
}

/// The entry at Path, if it reads back whole and is one for Arch.
bool readEntry(const std::string &Path, const std::string &Arch, CompiledImage &Out) {
  std::ifstream In(Path, std::ios::binary);
  std::string Header;
  if (!In || !std::getline(In, Header))
    return false;
  std::istringstream HS(Header);
  std::string Magic, Version, EntryArch, Kind;
  size_t Size = 0;
  if (!(HS >> Magic >> Version >> EntryArch >> Kind >> Size) || Magic != "sched-kernel" ||
      Version != "v1" || EntryArch != Arch || (Kind != "cubin" && Kind != "ptx") ||
      Size == 0 || Size > (size_t(1) << 30))
    return false;
  std::vector<char> Image(Size);
  if (!In.read(Image.data(), static_cast<std::streamsize>(Size)) || In.peek() != EOF)
    return false;
  Out.Image = std::move(Image);
  Out.IsCubin = Kind == "cubin";
  Out.Arch = Arch;
  Out.Origin = "cache";
  return true;
}

/// Creates Dir and its parents; true when it exists afterwards.
bool makeDirs(const std::string &Dir) {
  for (size_t Slash = Dir.find('/', 1);; Slash = Dir.find('/', Slash + 1)) {
    std::string Part = Dir.substr(0, Slash);
    if (mkdir(Part.c_str(), 0755) != 0 && errno != EEXIST)
      return false;
    if (Slash == std::string::npos)
      return true;
  }
}

/// Writes I as the entry at Path: to a file of this process's own, then
/// renamed into place (atomic on one file system). Failing is harmless.
void writeEntry(const std::string &Dir, const std::string &Path, const CompiledImage &I) {
  if (!makeDirs(Dir))
    return;
  std::string Temp = Path + "." + std::to_string(getpid()) + ".tmp";
  {
    std::ofstream Out(Temp, std::ios::binary | std::ios::trunc);
    std::string Header = entryHeader(I);
    Out.write(Header.data(), static_cast<std::streamsize>(Header.size()));
    Out.write(I.Image.data(), static_cast<std::streamsize>(I.Image.size()));
    if (!Out) {
      std::remove(Temp.c_str());
      return;
    }
  }
  if (std::rename(Temp.c_str(), Path.c_str()) != 0)
    std::remove(Temp.c_str());
}

} // namespace

bool compileForArch(const std::string &Source, const std::string &Name, const std::string &Arch,
                    CompiledImage &Out, std::string &Error) {
  const NvrtcApi *A = nvrtc(Error);
  if (!A)
    return false;
  Out = CompiledImage();
  Out.Arch = Arch;
  const bool Exact = Arch.compare(0, 3, "sm_") == 0;
  std::string ArchOpt = "--gpu-architecture=" + Arch;
  std::string IncludeOpt = "--include-path=" + cudaHome() + "/include";
  // Line information: profilers and compute-sanitizer map the kernel's
  // instructions back to the lines of the emitted .cu.
  const char *Options[] = {ArchOpt.c_str(), IncludeOpt.c_str(), "--std=c++17",
                           "--generate-line-info"};
  int Major = 0, Minor = 0;
  if (A->nvrtcVersion)
    A->nvrtcVersion(&Major, &Minor);
  std::string Dir = kernelCacheDir(), Path;
  if (!Dir.empty()) {
    Path = Dir + "/" +
           cacheKey({"nvrtc " + std::to_string(Major) + "." + std::to_string(Minor), ArchOpt,
                     IncludeOpt, Options[2], Options[3], Name, Source}) +
           (Exact ? ".cubin" : ".ptx");
    if (readEntry(Path, Arch, Out))
      return true;
  }
  nvrtcProgram Prog = nullptr;
  std::string File = Name + ".cu";
  if (!nvrtcCheck(*A, "nvrtcCreateProgram",
                  A->nvrtcCreateProgram(&Prog, Source.c_str(), File.c_str(), 0, nullptr, nullptr),
                  Error))
    return false;
  bool Ok = true;
  nvrtcResult R = A->nvrtcCompileProgram(Prog, 4, Options);
  if (R != NVRTC_SUCCESS) {
    Error = std::string("NVRTC failed to compile the kernel for ") + Out.Arch + ": " +
            A->nvrtcGetErrorString(R) + "\n" + programLog(*A, Prog);
    Ok = false;
  }
  size_t Size = 0;
  if (Ok && Exact && A->nvrtcGetCUBINSize && A->nvrtcGetCUBIN &&
      A->nvrtcGetCUBINSize(Prog, &Size) == NVRTC_SUCCESS && Size > 0) {
    Out.Image.resize(Size);
    Out.IsCubin = true;
    Ok = nvrtcCheck(*A, "nvrtcGetCUBIN", A->nvrtcGetCUBIN(Prog, Out.Image.data()), Error);
  } else if (Ok) {
    Ok = nvrtcCheck(*A, "nvrtcGetPTXSize", A->nvrtcGetPTXSize(Prog, &Size), Error);
    if (Ok) {
      Out.Image.resize(Size);
      Out.IsCubin = false;
      Ok = nvrtcCheck(*A, "nvrtcGetPTX", A->nvrtcGetPTX(Prog, Out.Image.data()), Error);
    }
  }
  A->nvrtcDestroyProgram(&Prog);
  Out.Origin = "NVRTC";
  if (Ok && !Path.empty())
    writeEntry(Dir, Path, Out);
  return Ok;
}

} // namespace cuda
} // namespace sched
