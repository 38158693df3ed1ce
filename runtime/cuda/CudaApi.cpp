//===- CudaApi.cpp - Loading the CUDA driver and NVRTC with dlopen --------===//
//
// Resolves the entry points of CudaApi.h once per process. A missing driver,
// or one that loads but cannot initialise (the toolkit's stub libcuda.so,
// CUDA_VISIBLE_DEVICES= on a GPU machine, a driver older than the device
// needs), is an ordinary condition: it is reported as an error string, and
// the `auto` backend then runs the host loop. Nothing here may call driver()
// while driver()'s own static is being initialised (loadDriverOnce): that
// re-entry throws recursive_init_error, which killed every program on such a
// machine.
//
//===----------------------------------------------------------------------===//

#include "CudaApi.h"

#include <algorithm>
#include <cstdlib>
#include <dlfcn.h>
#include <mutex>

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

/// The cuda.h names of the errors a driver reports while it initialises, for
/// a driver that gives no message (the toolkit's stub answers every call,
/// cuGetErrorString included, with CUDA_ERROR_STUB_LIBRARY).
const char *initErrorName(CUresult R) {
  switch (R) {
  case 3: return "CUDA_ERROR_NOT_INITIALIZED";
  case 4: return "CUDA_ERROR_DEINITIALIZED";
  case 34: return "CUDA_ERROR_STUB_LIBRARY";
  case 46: return "CUDA_ERROR_DEVICE_UNAVAILABLE";
  case 100: return "CUDA_ERROR_NO_DEVICE";
  case 101: return "CUDA_ERROR_INVALID_DEVICE";
  case 803: return "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH";
  case 804: return "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE";
  case 999: return "CUDA_ERROR_UNKNOWN";
  default: return nullptr;
  }
}

/// "cuFoo: <Text, else R's name> (code R)".
std::string errorText(const char *Call, CUresult R, const char *Text) {
  if (!Text)
    Text = initErrorName(R);
  return std::string(Call) + ": " + (Text ? Text : "unknown CUDA error") + " (code " +
         std::to_string(R) + ")";
}

/// "cuFoo: <A's message for R> (code R)".
std::string driverError(const DriverApi &A, const char *Call, CUresult R) {
  const char *Text = nullptr;
  if (A.cuGetErrorString(R, &Text) != CUDA_SUCCESS)
    Text = nullptr;
  return errorText(Call, R, Text);
}

struct LoadedDriver {
  DriverApi Api{};
  std::string Error; // set when loading or cuInit failed
};

LoadedDriver loadDriverOnce() {
  LoadedDriver L;
  void *Lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!Lib) {
    L.Error = "no CUDA driver (libcuda.so.1 not found)";
    return L;
  }
  DriverApi &A = L.Api;
  bool Ok = resolve(Lib, "cuInit", A.cuInit) && resolve(Lib, "cuDeviceGetCount", A.cuDeviceGetCount) &&
            resolve(Lib, "cuDeviceGet", A.cuDeviceGet) &&
            resolve(Lib, "cuDeviceGetAttribute", A.cuDeviceGetAttribute) &&
            resolve(Lib, "cuDevicePrimaryCtxRetain", A.cuDevicePrimaryCtxRetain) &&
            resolve(Lib, "cuCtxSetCurrent", A.cuCtxSetCurrent) &&
            resolve(Lib, "cuCtxSynchronize", A.cuCtxSynchronize) &&
            resolve(Lib, "cuModuleLoadData", A.cuModuleLoadData) &&
            resolve(Lib, "cuModuleGetFunction", A.cuModuleGetFunction) &&
            resolve(Lib, "cuMemAlloc_v2", A.cuMemAlloc) &&
            resolve(Lib, "cuMemFree_v2", A.cuMemFree) &&
            resolve(Lib, "cuMemcpyHtoD_v2", A.cuMemcpyHtoD) &&
            resolve(Lib, "cuMemcpyDtoH_v2", A.cuMemcpyDtoH) &&
            resolve(Lib, "cuLaunchKernel", A.cuLaunchKernel) &&
            resolve(Lib, "cuPointerGetAttribute", A.cuPointerGetAttribute) &&
            resolve(Lib, "cuGetErrorString", A.cuGetErrorString);
  if (!Ok) {
    L.Error = "the CUDA driver (libcuda.so.1) lacks a required entry point";
    return L;
  }
  // Optional: SCHED_TIME=1 only. cuda.h maps the names to their _v2 forms
  // (CUDA 12.8 and later for the elapsed time); older drivers have the first.
  resolve(Lib, "cuEventCreate", A.cuEventCreate);
  resolve(Lib, "cuEventRecord", A.cuEventRecord);
  resolve(Lib, "cuEventSynchronize", A.cuEventSynchronize);
  if (!resolve(Lib, "cuEventElapsedTime_v2", A.cuEventElapsedTime))
    resolve(Lib, "cuEventElapsedTime", A.cuEventElapsedTime);
  if (!resolve(Lib, "cuEventDestroy_v2", A.cuEventDestroy))
    resolve(Lib, "cuEventDestroy", A.cuEventDestroy);
  CUresult R = A.cuInit(0);
  if (R != CUDA_SUCCESS)
    L.Error = driverError(A, "cuInit", R); // driver() is being initialised: not through it
  return L;
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

const DriverApi *driver(std::string &Error) {
  static LoadedDriver L = loadDriverOnce(); // thread-safe initialization
  if (!L.Error.empty()) {
    Error = L.Error;
    return nullptr;
  }
  return &L.Api;
}

const NvrtcApi *nvrtc(std::string &Error) {
  static LoadedNvrtc L = loadNvrtcOnce();
  if (!L.Error.empty()) {
    Error = L.Error;
    return nullptr;
  }
  return &L.Api;
}

std::string driverError(const char *Call, CUresult R) {
  std::string Error;
  if (const DriverApi *A = driver(Error))
    return driverError(*A, Call, R);
  return errorText(Call, R, nullptr);
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
  bool Exact = Choice.Exact;
  Out.Arch = Choice.Arch;
  std::string ArchOpt = "--gpu-architecture=" + Out.Arch;
  std::string IncludeOpt = "--include-path=" + cudaHome() + "/include";
  const char *Options[] = {ArchOpt.c_str(), IncludeOpt.c_str(), "--std=c++17"};
  nvrtcProgram Prog = nullptr;
  std::string File = Name + ".cu";
  if (!nvrtcCheck(*A, "nvrtcCreateProgram",
                  A->nvrtcCreateProgram(&Prog, Source.c_str(), File.c_str(), 0, nullptr, nullptr),
                  Error))
    return false;
  bool Ok = true;
  nvrtcResult R = A->nvrtcCompileProgram(Prog, 3, Options);
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
  return Ok;
}

} // namespace cuda
} // namespace sched
