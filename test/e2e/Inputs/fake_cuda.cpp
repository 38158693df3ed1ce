// A stand-in for the CUDA driver (built as libcuda.so.1) and NVRTC (the same
// library as libnvrtc.so), so the cuda backend's failure paths run on a
// machine without a GPU. One device of compute capability 8.0; device memory
// is host memory; NVRTC "compiles" to an empty PTX and a launch runs nothing.
// FAKE_CUDA_FAIL names the call that fails, with the error a real driver
// gives there:
//   launch  cuLaunchKernel: CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES (701)
//   sync    cuStreamSynchronize: CUDA_ERROR_ILLEGAL_ADDRESS (700), a kernel that faulted
//   dtoh    cuMemcpyDtoH: CUDA_ERROR_ILLEGAL_ADDRESS (700), after writing a
//           byte of the host buffer, as a copy cut short does
//   ptx-version  cuModuleLoadData of real PTX (one with a .version line, as
//           NVRTC makes when the program is built; the fake NVRTC's is
//           empty): CUDA_ERROR_UNSUPPORTED_PTX_VERSION (222), a driver older
//           than the toolkit
//   compile nvrtcCompileProgram: NVRTC_ERROR_COMPILATION (6), with a log
// FAKE_CUDA_IN_PLACE=1 makes every pointer device memory (cuPointerGetAttribute;
// managed memory, which the host can read too, with FAKE_CUDA_MANAGED=1),
// so the runtime passes buffers to the kernel in place. FAKE_CUDA_TRACE=1
// prints each cuStreamSynchronize on stderr, and whether it was on a stream of
// the runtime's own or the default one; cuLaunchKernel likewise. Events (SCHED_TIME=1)
// say every kernel took 1.25 ms, and only between two recorded events.
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {
bool failsAt(const char *Call) {
  const char *F = std::getenv("FAKE_CUDA_FAIL");
  return F && !std::strcmp(F, Call);
}
} // namespace

extern "C" {
using CUresult = int;
using Ptr = unsigned long long;

CUresult cuInit(unsigned) { return 0; }
CUresult cuDeviceGetCount(int *Count) {
  *Count = 1;
  return 0;
}
CUresult cuDeviceGet(int *Device, int) {
  *Device = 0;
  return 0;
}
CUresult cuDeviceGetAttribute(int *Value, int Attribute, int) {
  *Value = Attribute == 75 ? 8 : 0; // compute capability 8.0
  return 0;
}
CUresult cuDevicePrimaryCtxRetain(void **Context, int) {
  static int The;
  *Context = &The;
  return 0;
}
CUresult cuCtxSetCurrent(void *) { return 0; }
CUresult cuStreamCreate(void **Stream, unsigned) {
  static int The;
  *Stream = &The;
  return 0;
}
CUresult cuStreamSynchronize(void *Stream) {
  const char *Trace = std::getenv("FAKE_CUDA_TRACE");
  if (Trace && !std::strcmp(Trace, "1"))
    std::fputs(Stream ? "fake cuda: cuStreamSynchronize (own stream)\n"
                      : "fake cuda: cuStreamSynchronize (default stream)\n",
               stderr);
  return failsAt("sync") ? 700 : 0;
}
CUresult cuModuleLoadData(void **Module, const void *Image) {
  if (failsAt("ptx-version") && std::strstr(static_cast<const char *>(Image), ".version"))
    return 222;
  static int The;
  *Module = &The;
  return 0;
}
CUresult cuModuleGetFunction(void **Function, void *, const char *) {
  static int The;
  *Function = &The;
  return 0;
}
CUresult cuMemAlloc_v2(Ptr *P, size_t Bytes) {
  *P = reinterpret_cast<Ptr>(std::malloc(Bytes));
  return 0;
}
CUresult cuMemFree_v2(Ptr P) {
  std::free(reinterpret_cast<void *>(P));
  return 0;
}
CUresult cuMemcpyHtoD_v2(Ptr To, const void *From, size_t Bytes) {
  std::memcpy(reinterpret_cast<void *>(To), From, Bytes);
  return 0;
}
CUresult cuMemcpyDtoH_v2(void *To, Ptr From, size_t Bytes) {
  if (failsAt("dtoh")) {
    static_cast<char *>(To)[0] ^= 0x5a;
    return 700;
  }
  std::memcpy(To, reinterpret_cast<const void *>(From), Bytes);
  return 0;
}
CUresult cuLaunchKernel(void *, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                        unsigned, void *Stream, void **, void **) {
  const char *Trace = std::getenv("FAKE_CUDA_TRACE");
  if (Trace && !std::strcmp(Trace, "1"))
    std::fputs(Stream ? "fake cuda: cuLaunchKernel (own stream)\n"
                      : "fake cuda: cuLaunchKernel (default stream)\n",
               stderr);
  return failsAt("launch") ? 701 : 0;
}
CUresult cuPointerGetAttribute(void *Value, int Attribute, Ptr) {
  const char *InPlace = std::getenv("FAKE_CUDA_IN_PLACE");
  if (!InPlace || std::strcmp(InPlace, "1"))
    return 1; // CUDA_ERROR_INVALID_VALUE: memory the driver does not know
  if (Attribute == 8) { // CU_POINTER_ATTRIBUTE_IS_MANAGED: FAKE_CUDA_MANAGED=1
    const char *Managed = std::getenv("FAKE_CUDA_MANAGED");
    *static_cast<int *>(Value) = Managed && !std::strcmp(Managed, "1");
    return 0;
  }
  *static_cast<unsigned *>(Value) = 2; // CU_MEMORYTYPE_DEVICE
  return 0;
}
struct FakeEvent {
  bool Recorded = false;
};
CUresult cuEventCreate(FakeEvent **Event, unsigned) {
  *Event = new FakeEvent;
  return 0;
}
CUresult cuEventRecord(FakeEvent *Event, void *) {
  Event->Recorded = true;
  return 0;
}
CUresult cuEventSynchronize(FakeEvent *Event) { return Event->Recorded ? 0 : 400; }
CUresult cuEventElapsedTime_v2(float *Ms, FakeEvent *Start, FakeEvent *Stop) {
  if (!Start->Recorded || !Stop->Recorded)
    return 600; // CUDA_ERROR_NOT_READY
  *Ms = 1.25f;
  return 0;
}
CUresult cuEventDestroy_v2(FakeEvent *Event) {
  delete Event;
  return 0;
}
CUresult cuGetErrorString(CUresult R, const char **Text) {
  switch (R) {
  case 700: *Text = "an illegal memory access was encountered"; return 0;
  case 701: *Text = "too many resources requested for launch"; return 0;
  default: *Text = nullptr; return 1;
  }
}

// NVRTC
using nvrtcResult = int;
nvrtcResult nvrtcCreateProgram(void **Program, const char *, const char *, int,
                               const char *const *, const char *const *) {
  static int The;
  *Program = &The;
  return 0;
}
nvrtcResult nvrtcCompileProgram(void *, int, const char *const *) {
  return failsAt("compile") ? 6 : 0;
}
nvrtcResult nvrtcGetPTXSize(void *, size_t *Size) {
  *Size = 1;
  return 0;
}
nvrtcResult nvrtcGetPTX(void *, char *PTX) {
  PTX[0] = 0;
  return 0;
}
const char FakeLog[] = "fake.cu(1): error: the fake NVRTC refuses this kernel";
nvrtcResult nvrtcGetProgramLogSize(void *, size_t *Size) {
  *Size = failsAt("compile") ? sizeof(FakeLog) : 1;
  return 0;
}
nvrtcResult nvrtcGetProgramLog(void *, char *Log) {
  if (failsAt("compile"))
    std::memcpy(Log, FakeLog, sizeof(FakeLog));
  else
    Log[0] = 0;
  return 0;
}
nvrtcResult nvrtcDestroyProgram(void **) { return 0; }
const char *nvrtcGetErrorString(nvrtcResult) { return "fake NVRTC error"; }
}
