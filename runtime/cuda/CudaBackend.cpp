//===- CudaBackend.cpp - Running kernels through the CUDA driver ----------===//
//
// One launch: make the device's primary context current, compile the site's
// CUDA source with NVRTC on first use (cached in its KernelCache), move every
// host buffer parameter's region to the device (device pointers are used in
// place), launch with the descriptor's geometry, synchronize, and copy the
// written regions back. Every failure comes back as a message naming the
// driver call; the caller prefixes the kernel and source line. Host memory is
// only read until the copies back, so a failure before them leaves the
// program's data as it was (launch's Touched says which).
//
//===----------------------------------------------------------------------===//

#include "CudaBackend.h"
#include "CudaApi.h"
#include "ir/LaunchLimits.h"

namespace sched {
namespace cuda {

struct CompiledKernel {
  CUmodule Module = nullptr;
  CUfunction Function = nullptr;
  std::string Error; // set when compiling or loading failed (not retried)
  /// Where the loaded code came from: "embedded compute_XY" (built with the
  /// program), "cache" or "NVRTC" (compiled at run time: cuda/Nvrtc.h).
  std::string Origin;
};

namespace {

struct Device {
  CUdevice Handle = 0;
  CUcontext Context = nullptr;
  /// The runtime's own stream: every kernel is launched on it, and the
  /// launcher waits for it (not for the whole context) when the host needs
  /// a kernel's results. A blocking stream (flags 0), so the synchronous
  /// copies (cuMemcpyHtoD/DtoH, on the legacy default stream) stay ordered
  /// after the kernels before them and before the ones after them.
  CUstream Stream = nullptr;
  int Major = 0, Minor = 0;
  std::string Error;
};

/// Device 0 and its primary context, set up once.
const Device &device() {
  static Device D = [] {
    Device Dev;
    const DriverApi *A = driver(Dev.Error);
    if (!A)
      return Dev;
    int Count = 0;
    CUresult R = A->cuDeviceGetCount(&Count);
    if (R != CUDA_SUCCESS) {
      Dev.Error = driverError("cuDeviceGetCount", R);
      return Dev;
    }
    if (Count == 0) {
      Dev.Error = "the CUDA driver reports no device";
      return Dev;
    }
    if ((R = A->cuDeviceGet(&Dev.Handle, 0)) != CUDA_SUCCESS ||
        (R = A->cuDeviceGetAttribute(&Dev.Major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                                     Dev.Handle)) != CUDA_SUCCESS ||
        (R = A->cuDeviceGetAttribute(&Dev.Minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                                     Dev.Handle)) != CUDA_SUCCESS) {
      Dev.Error = driverError("cuDeviceGet", R);
      return Dev;
    }
    if ((R = A->cuDevicePrimaryCtxRetain(&Dev.Context, Dev.Handle)) != CUDA_SUCCESS) {
      Dev.Error = driverError("cuDevicePrimaryCtxRetain", R);
      return Dev;
    }
    if ((R = A->cuCtxSetCurrent(Dev.Context)) != CUDA_SUCCESS ||
        (R = A->cuStreamCreate(&Dev.Stream, 0)) != CUDA_SUCCESS)
      Dev.Error = driverError("cuStreamCreate", R);
    return Dev;
  }();
  return D;
}

/// Loads Image (a cubin, or PTX as a C string) into K and finds its entry.
bool loadImage(const DriverApi &A, CompiledKernel &K, const char *Image, const std::string &Arch,
               const std::string &Name, std::string &Error) {
  CUresult R = A.cuModuleLoadData(&K.Module, Image);
  if (R != CUDA_SUCCESS) {
    Error = driverError("cuModuleLoadData", R) + " (" + Arch + ")";
    return false;
  }
  if ((R = A.cuModuleGetFunction(&K.Function, K.Module, Name.c_str())) != CUDA_SUCCESS) {
    Error = driverError("cuModuleGetFunction", R) + " for '" + Name + "'";
    return false;
  }
  return true;
}

/// Loads D's kernel (called under the cache's lock): the image built with
/// the program for the device if there is one (the driver compiles its PTX;
/// no NVRTC), else the payload compiled with NVRTC now (or from its cache).
/// An embedded image the driver refuses (PTX newer than the driver) falls
/// back to NVRTC; the error names both when that fails too.
std::shared_ptr<CompiledKernel> buildKernel(const DriverApi &A, const Device &Dev,
                                            const LaunchPlan &D) {
  auto K = std::make_shared<CompiledKernel>();
  const std::string &Name = D.Kernel;
  const int DeviceArch = Dev.Major * 10 + Dev.Minor;
  std::string EmbeddedError;
  if (const LaunchPlan::Image *I = imageForDevice(D, DeviceArch)) {
    // The architecture rules hold for a built image as for one compiled
    // now (a kernel built for sm_90a runs on sm_90 only, ...).
    ArchChoice Choice;
    if (!chooseArch(Name, DeviceArch, D.Arch, D.MinCapability, {}, Choice, K->Error))
      return K;
    if (loadImage(A, *K, I->Ptx.c_str(), I->Arch, Name, EmbeddedError)) {
      K->Origin = "embedded " + I->Arch;
      return K;
    }
    EmbeddedError = "the embedded " + I->Arch + " image: " + EmbeddedError;
  }
  if (D.Payload.empty()) {
    K->Error = EmbeddedError.empty() ? "the launch descriptor has no CUDA source" : EmbeddedError;
    return K;
  }
  CompiledImage Image;
  std::string Error;
  if (compileWithNvrtc(D.Payload, Name, Dev.Major, Dev.Minor, Image, Error, D.MinCapability,
                       D.Arch)) {
    if (!Image.IsCubin)
      Image.Image.push_back('\0'); // PTX is loaded as a C string
    if (loadImage(A, *K, Image.Image.data(), Image.Arch, Name, Error)) {
      K->Origin = Image.Origin;
      return K;
    }
  }
  K->Error = EmbeddedError.empty() ? Error : EmbeddedError + "; then NVRTC: " + Error;
  return K;
}

} // namespace

std::string kernelOrigin(KernelCache &Cache) {
  std::lock_guard<std::mutex> Guard(Cache.Lock);
  return Cache.Kernel ? Cache.Kernel->Origin : "";
}

namespace {

/// True when P is device (or managed) memory the kernel can use in place.
bool isDevicePointer(const DriverApi &A, const void *P) {
  unsigned MemType = 0;
  if (A.cuPointerGetAttribute(&MemType, CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                              reinterpret_cast<CUdeviceptr>(P)) != CUDA_SUCCESS)
    return false; // plain host memory the driver does not know
  return MemType == CU_MEMORYTYPE_DEVICE || MemType == CU_MEMORYTYPE_UNIFIED;
}

/// A host buffer staged on the device for one launch.
struct Staged {
  size_t Param = 0;
  CUdeviceptr Dev = 0;
  size_t Bytes = 0;
  int64_t Offset = 0; // bytes from the argument to the region's start
  size_t Lead = 0;    // bytes of the allocation before the region's copy
  bool CopyOut = false;
};

/// Device memory of one launch, freed on every path out.
class StagedBuffers {
public:
  explicit StagedBuffers(const DriverApi &A) : A(A) {}
  ~StagedBuffers() {
    for (const Staged &S : Buffers)
      A.cuMemFree(S.Dev);
  }
  std::vector<Staged> Buffers;

private:
  const DriverApi &A;
};

/// Two events around one launch, for SCHED_TIME=1: the kernel's time on
/// the device, without the launcher's host work and the copies. Inactive
/// (and every call a no-op) when not asked for or when the driver lacks
/// events; destroyed on every path out.
class LaunchTimer {
public:
  LaunchTimer(const DriverApi &A, CUstream Stream, bool Wanted) : A(A), Stream(Stream) {
    Active = Wanted && A.cuEventCreate && A.cuEventRecord && A.cuEventSynchronize &&
             A.cuEventElapsedTime && A.cuEventDestroy &&
             A.cuEventCreate(&Start, 0) == CUDA_SUCCESS &&
             A.cuEventCreate(&Stop, 0) == CUDA_SUCCESS;
  }
  ~LaunchTimer() {
    if (Start)
      A.cuEventDestroy(Start);
    if (Stop)
      A.cuEventDestroy(Stop);
  }
  void start() { Active = Active && A.cuEventRecord(Start, Stream) == CUDA_SUCCESS; }
  void stop() { Active = Active && A.cuEventRecord(Stop, Stream) == CUDA_SUCCESS; }
  /// Milliseconds between start and stop once the stop event completed; -1
  /// when not timed.
  double milliseconds() {
    float Ms = 0;
    if (!Active || A.cuEventSynchronize(Stop) != CUDA_SUCCESS ||
        A.cuEventElapsedTime(&Ms, Start, Stop) != CUDA_SUCCESS)
      return -1;
    return Ms;
  }

private:
  const DriverApi &A;
  CUstream Stream;
  CUevent Start = nullptr, Stop = nullptr;
  bool Active = false;
};

} // namespace

bool loadDriver(std::string &Error) { return driver(Error) != nullptr; }

bool deviceAvailable(std::string *Why) {
  const Device &Dev = device();
  if (Why)
    *Why = Dev.Error;
  return Dev.Error.empty();
}

namespace {

/// The last kernel launched without waiting for it, "" once a
/// synchronisation waited: what a later failure names.
std::mutex PendingLock;
std::string Pending;

void setPending(const std::string &Kernel) {
  std::lock_guard<std::mutex> Guard(PendingLock);
  Pending = Kernel;
}

/// "; or kernel K, launched before without a wait, failed" for a failure
/// seen at a synchronisation, when such a kernel is pending.
std::string pendingNote() {
  std::lock_guard<std::mutex> Guard(PendingLock);
  return Pending.empty() ? ""
                         : "; or kernel '" + Pending + "', launched before it without a wait, did";
}

/// The driver with the device's context current, or null with Error.
const DriverApi *current(std::string &Error) {
  const DriverApi *A = driver(Error);
  if (!A)
    return nullptr;
  const Device &Dev = device();
  if (!Dev.Error.empty()) {
    Error = Dev.Error;
    return nullptr;
  }
  CUresult R = A->cuCtxSetCurrent(Dev.Context);
  if (R != CUDA_SUCCESS) {
    Error = driverError("cuCtxSetCurrent", R);
    return nullptr;
  }
  return A;
}

bool allocDevice(size_t Bytes, uintptr_t &Out, std::string &Error) {
  const DriverApi *A = current(Error);
  if (!A)
    return false;
  CUdeviceptr P = 0;
  CUresult R = A->cuMemAlloc(&P, Bytes);
  if (R != CUDA_SUCCESS) {
    Error = driverError("cuMemAlloc", R) + " (" + std::to_string(Bytes) + " bytes)";
    return false;
  }
  Out = static_cast<uintptr_t>(P);
  return true;
}

void freeDevice(uintptr_t P) {
  std::string Ignored;
  if (const DriverApi *A = current(Ignored))
    A->cuMemFree(static_cast<CUdeviceptr>(P));
}

bool copyToDevice(uintptr_t Dev, const void *Host, size_t Bytes, std::string &Error) {
  const DriverApi *A = current(Error);
  if (!A)
    return false;
  CUresult R = A->cuMemcpyHtoD(static_cast<CUdeviceptr>(Dev), Host, Bytes);
  if (R != CUDA_SUCCESS)
    Error = driverError("cuMemcpyHtoD", R);
  return R == CUDA_SUCCESS;
}

bool copyToHost(void *Host, uintptr_t Dev, size_t Bytes, std::string &Error) {
  const DriverApi *A = current(Error);
  if (!A)
    return false;
  CUresult R = A->cuMemcpyDtoH(Host, static_cast<CUdeviceptr>(Dev), Bytes);
  if (R != CUDA_SUCCESS)
    Error = driverError("cuMemcpyDtoH", R) + pendingNote();
  else
    setPending(""); // the copy waited for every kernel before it
  return R == CUDA_SUCCESS;
}

} // namespace

bool hostCannotRead(const void *P) {
  std::string Ignored;
  const DriverApi *A = driver(Ignored);
  if (!A || !P || !isDevicePointer(*A, P))
    return false;
  int Managed = 0;
  if (A->cuPointerGetAttribute(&Managed, CU_POINTER_ATTRIBUTE_IS_MANAGED,
                               reinterpret_cast<CUdeviceptr>(P)) != CUDA_SUCCESS)
    return true;
  return !Managed;
}

const runtime::DeviceMemory &deviceMemory() {
  static const runtime::DeviceMemory M = {allocDevice, freeDevice, copyToDevice, copyToHost};
  return M;
}

bool launch(const LaunchPlan &D, KernelCache &Cache, const std::vector<void *> &ParamData,
            std::string &Error, bool &Touched, LaunchStats *Stats,
            const std::vector<bool> *Resident) {
  Touched = false;
  LaunchStats Ignored;
  LaunchStats &St = Stats ? *Stats : Ignored;
  St.KernelMs = -1;
  St.BytesIn = St.BytesOut = 0;
  const DriverApi *A = current(Error);
  if (!A)
    return false;
  const Device &Dev = device();
  CUresult R = CUDA_SUCCESS;
  std::shared_ptr<CompiledKernel> K;
  {
    std::lock_guard<std::mutex> Guard(Cache.Lock);
    if (!Cache.Kernel)
      Cache.Kernel = buildKernel(*A, Dev, D);
    K = Cache.Kernel;
  }
  if (!K->Error.empty()) {
    Error = K->Error;
    return false;
  }

  if (ParamData.size() != D.Params.size()) {
    Error = "wrong number of kernel arguments";
    return false;
  }
  const std::vector<int64_t> Values = D.scalarValues(ParamData);

  // Buffers: device pointers in place, host arrays staged by their region.
  StagedBuffers Staging(*A);
  std::vector<CUdeviceptr> DevPtrs(D.Params.size(), 0);
  std::vector<void *> KernelArgs(D.Params.size(), nullptr);
  bool InPlace = false; // some buffer is on the device already (the program's, a scope's)
  bool ProgramWrites = false; // the kernel writes the program's own device memory
  for (size_t I = 0; I < D.Params.size(); ++I) {
    const LaunchPlan::Param &P = D.Params[I];
    if (!P.IsBuffer) {
      KernelArgs[I] = ParamData[I]; // the address of a value of the param's type
      continue;
    }
    KernelArgs[I] = &DevPtrs[I];
    uintptr_t Begin = 0, End = 0;
    if (!D.regionBytes(I, Values, ParamData[I], Begin, End, Error))
      return false;
    const bool IsResident = Resident && I < Resident->size() && (*Resident)[I];
    if (ParamData[I] && (IsResident || isDevicePointer(*A, ParamData[I]))) {
      DevPtrs[I] = reinterpret_cast<CUdeviceptr>(ParamData[I]);
      InPlace = true;
      ProgramWrites |= !IsResident && P.Written;
      continue;
    }
    if (!P.HasRegion)
      continue; // the kernel does not touch it: pass null
    Staged S;
    S.Param = I;
    S.Bytes = static_cast<size_t>(End - Begin);
    S.Offset = static_cast<int64_t>(Begin - reinterpret_cast<uintptr_t>(ParamData[I]));
    S.CopyOut = P.Written;
    // The copy keeps the host region's address modulo 256 (cuMemAlloc
    // aligns to 256): a kernel's vector accesses (ir/Vectorize.h) rely on
    // the argument being as aligned as the host array.
    S.Lead = static_cast<size_t>(Begin % 256);
    if ((R = A->cuMemAlloc(&S.Dev, S.Lead + (S.Bytes ? S.Bytes : 1))) != CUDA_SUCCESS) {
      Error = driverError("cuMemAlloc", R) + " for '" + P.Name + "' (" +
              std::to_string(S.Bytes) + " bytes)";
      return false;
    }
    Staging.Buffers.push_back(S);
    // The kernel indexes from the argument: element Min sits at S.Dev + S.Lead.
    DevPtrs[I] = S.Dev + S.Lead - static_cast<CUdeviceptr>(S.Offset);
    // Written regions are copied in too: a kernel may write only part of one.
    if ((P.Read || P.Written) && S.Bytes &&
        (R = A->cuMemcpyHtoD(S.Dev + S.Lead, static_cast<char *>(ParamData[I]) + S.Offset,
                             S.Bytes)) != CUDA_SUCCESS) {
      Error = driverError("cuMemcpyHtoD", R) + " for '" + P.Name + "'";
      return false;
    }
    if (P.Read || P.Written)
      St.BytesIn += S.Bytes;
  }

  // Every staged buffer has an allocation of its own, so the kernel's
  // pointer parameters are __restrict__: the launcher ran the original loop
  // instead where two buffers overlap where the kernel writes one
  // (runtime/Launch.cpp, mayLaunch), in place or not.

  int64_t Grid[3], Block[3];
  bool Empty = false;
  if (!D.geometry(Values, Grid, Block, Empty, Error))
    return false;
  for (int Dim = 0; Dim < 3; ++Dim)
    St.Grid[Dim] = Grid[Dim], St.Block[Dim] = Block[Dim];
  if (Empty)
    return true; // an empty grid: nothing to run (CUDA would refuse it)
  // The launcher runs the original loop for a shape no device takes
  // (runtime/Launch.cpp, mayLaunch); a caller of launch gets an error.
  std::string Problem = ir::launchShapeProblem(Grid, Block, D.SharedBytes);
  if (!Problem.empty()) {
    Error = Problem;
    return false;
  }
  CUstream Stream = device().Stream;
  LaunchTimer Timer(*A, Stream, St.Time);
  Timer.start();
  R = A->cuLaunchKernel(K->Function, unsigned(Grid[0]), unsigned(Grid[1]), unsigned(Grid[2]),
                        unsigned(Block[0]), unsigned(Block[1]), unsigned(Block[2]), 0, Stream,
                        KernelArgs.data(), nullptr);
  if (R != CUDA_SUCCESS) {
    Error = driverError("cuLaunchKernel", R);
    return false;
  }
  Timer.stop();
  // The kernel runs: it writes buffers passed in place directly.
  Touched = InPlace;
  if (Staging.Buffers.empty() && !ProgramWrites && !St.Time) {
    // Every buffer it touches is on the device and what it writes is a data
    // scope's copy: nothing for the host to wait for now. The next
    // synchronisation waits for it (a copy back, the next launch that
    // copies), and a failure there names it (pendingNote). A kernel that
    // writes the program's own device memory is waited for: the program may
    // read it next, and its failure is reported here, naming the kernel.
    setPending(D.Kernel);
    return true;
  }
  if ((R = A->cuStreamSynchronize(Stream)) != CUDA_SUCCESS) {
    Error = driverError("cuStreamSynchronize", R) + " (the kernel failed while running" +
            pendingNote() + ")";
    return false;
  }
  setPending("");
  if (St.Time)
    St.KernelMs = Timer.milliseconds();
  for (const Staged &S : Staging.Buffers) {
    if (!S.CopyOut || !S.Bytes)
      continue;
    // A copy that fails may have written part of the host buffer.
    Touched = true;
    R = A->cuMemcpyDtoH(static_cast<char *>(ParamData[S.Param]) + S.Offset, S.Dev + S.Lead,
                        S.Bytes);
    if (R != CUDA_SUCCESS) {
      Error = driverError("cuMemcpyDtoH", R) + " for '" + D.Params[S.Param].Name + "'";
      return false;
    }
    St.BytesOut += S.Bytes;
  }
  return true;
}

} // namespace cuda
} // namespace sched
