//===- CudaApi.cpp - Loading the CUDA driver with dlopen ------------------===//
//
// Resolves the driver entry points of CudaApi.h once per process. A missing driver,
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
            resolve(Lib, "cuStreamCreate", A.cuStreamCreate) &&
            resolve(Lib, "cuStreamSynchronize", A.cuStreamSynchronize) &&
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

} // namespace

const DriverApi *driver(std::string &Error) {
  static LoadedDriver L = loadDriverOnce(); // thread-safe initialization
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

} // namespace cuda
} // namespace sched
