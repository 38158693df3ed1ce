//===- CudaApi.h - The CUDA driver and NVRTC, loaded at run time -*- C++ -*-===//
//
// The few driver and NVRTC types and entry points the cuda backend uses,
// declared here (no cuda.h) and resolved with dlopen/dlsym, so the runtime
// builds without the toolkit and every program starts without a driver.
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_RUNTIME_CUDA_CUDAAPI_H
#define SCHED_RUNTIME_CUDA_CUDAAPI_H

#include "ir/TargetArch.h"

#include <cstddef>
#include <string>
#include <vector>

namespace sched {
namespace cuda {

// Driver API types (ABI-compatible with cuda.h).
using CUresult = int;
using CUdevice = int;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUstream = struct CUstream_st *;
using CUevent = struct CUevent_st *;
using CUdeviceptr = unsigned long long;

constexpr CUresult CUDA_SUCCESS = 0;
constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;
constexpr int CU_POINTER_ATTRIBUTE_MEMORY_TYPE = 2;
constexpr int CU_POINTER_ATTRIBUTE_IS_MANAGED = 8;
constexpr unsigned CU_MEMORYTYPE_DEVICE = 2;
constexpr unsigned CU_MEMORYTYPE_UNIFIED = 4;

struct DriverApi {
  CUresult (*cuInit)(unsigned);
  CUresult (*cuDeviceGetCount)(int *);
  CUresult (*cuDeviceGet)(CUdevice *, int);
  CUresult (*cuDeviceGetAttribute)(int *, int, CUdevice);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*cuCtxSetCurrent)(CUcontext);
  CUresult (*cuCtxSynchronize)();
  CUresult (*cuModuleLoadData)(CUmodule *, const void *);
  CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
  CUresult (*cuMemFree)(CUdeviceptr);
  CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void *, size_t);
  CUresult (*cuMemcpyDtoH)(void *, CUdeviceptr, size_t);
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned,
                             unsigned, unsigned, CUstream, void **, void **);
  CUresult (*cuPointerGetAttribute)(void *, int, CUdeviceptr);
  CUresult (*cuGetErrorString)(CUresult, const char **);
  // Optional (null when the driver lacks them): the events SCHED_TIME=1
  // times a kernel with.
  CUresult (*cuEventCreate)(CUevent *, unsigned);
  CUresult (*cuEventRecord)(CUevent, CUstream);
  CUresult (*cuEventSynchronize)(CUevent);
  CUresult (*cuEventElapsedTime)(float *, CUevent, CUevent);
  CUresult (*cuEventDestroy)(CUevent);
};

// NVRTC types.
using nvrtcResult = int;
using nvrtcProgram = struct _nvrtcProgram *;
constexpr nvrtcResult NVRTC_SUCCESS = 0;

struct NvrtcApi {
  nvrtcResult (*nvrtcCreateProgram)(nvrtcProgram *, const char *, const char *, int,
                                    const char *const *, const char *const *);
  nvrtcResult (*nvrtcCompileProgram)(nvrtcProgram, int, const char *const *);
  nvrtcResult (*nvrtcGetPTXSize)(nvrtcProgram, size_t *);
  nvrtcResult (*nvrtcGetPTX)(nvrtcProgram, char *);
  nvrtcResult (*nvrtcGetCUBINSize)(nvrtcProgram, size_t *); // may be null (old NVRTC)
  nvrtcResult (*nvrtcGetCUBIN)(nvrtcProgram, char *);       // may be null
  nvrtcResult (*nvrtcGetProgramLogSize)(nvrtcProgram, size_t *);
  nvrtcResult (*nvrtcGetProgramLog)(nvrtcProgram, char *);
  nvrtcResult (*nvrtcDestroyProgram)(nvrtcProgram *);
  const char *(*nvrtcGetErrorString)(nvrtcResult);
  nvrtcResult (*nvrtcGetNumSupportedArchs)(int *); // may be null
  nvrtcResult (*nvrtcGetSupportedArchs)(int *);    // may be null
};

/// The driver, loaded and cuInit'ed once. Null with Error set when
/// libcuda.so.1 is missing or cuInit fails.
const DriverApi *driver(std::string &Error);

/// NVRTC, loaded once (libnvrtc.so, libnvrtc.so.13, libnvrtc.so.12, then
/// <cuda home>/lib64/libnvrtc.so). Null with Error set when none loads.
const NvrtcApi *nvrtc(std::string &Error);

/// The CUDA toolkit root: $SCHED_CUDA_HOME, else the configured one.
std::string cudaHome();

/// "cuFoo: <driver's message> (code N)"; where the driver gives none (the
/// toolkit's stub driver), the error's name in cuda.h for the errors of
/// initialisation (CUDA_ERROR_STUB_LIBRARY, CUDA_ERROR_NO_DEVICE, ...).
std::string driverError(const char *Call, CUresult R);

/// The result of compiling one CUDA source with NVRTC: a cubin for a real
/// architecture or PTX for the driver to JIT.
struct CompiledImage {
  std::vector<char> Image;
  bool IsCubin = false;
  std::string Arch; // the --gpu-architecture value used
};

/// The --gpu-architecture NVRTC is given for one kernel on one device.
struct ArchChoice {
  std::string Arch;   // sm_XY / sm_90a (a cubin) or compute_XY (PTX the driver JITs)
  bool Exact = false; // a real architecture: NVRTC can give a cubin
};

/// Decides what to compile Kernel for, and whether it may run at all; pure,
/// so tests give it fake devices and NVRTCs. DeviceArch: the device's
/// compute capability (major*10 + minor). Requested: the descriptor's target
/// architecture (-fplugin-arg-sched-arch), possibly unset. MinArch: the
/// oldest architecture the kernel's instructions exist on
/// (minimumComputeCapability). Supported: what NVRTC lists (empty when it
/// cannot say: every architecture is assumed known).
///
/// Unset: the device's architecture, or PTX for the newest one NVRTC knows
/// below it. Set: exactly that architecture, and an error naming the kernel
/// and both architectures when the device is older, when an sm_XYa target
/// meets any other device than sm_XY, or when NVRTC cannot compile it; a
/// device of a newer major version gets the target's PTX (a cubin runs only
/// within its major version). Any architecture older than MinArch is an
/// error. False with Error otherwise.
bool chooseArch(const std::string &Kernel, int DeviceArch, const TargetArch &Requested,
                int MinArch, const std::vector<int> &Supported, ArchChoice &Out,
                std::string &Error);

/// Compiles Source (a self-contained .cu) named Name for a device of compute
/// capability Major.Minor, with the architecture chooseArch picks (MinArch
/// and Requested as there). False with Error (holding NVRTC's log) on
/// failure.
bool compileWithNvrtc(const std::string &Source, const std::string &Name, int Major, int Minor,
                      CompiledImage &Out, std::string &Error, int MinArch = 0,
                      const TargetArch &Requested = TargetArch());

} // namespace cuda
} // namespace sched

#endif // SCHED_RUNTIME_CUDA_CUDAAPI_H
