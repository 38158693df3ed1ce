//===- SchedRuntime.h - The entry point generated code calls ---*- C++ -*-===//
//
// The plugin replaces each annotated nest with
//     if (!__sched_launch(DESCRIPTOR, &p0, &p1, ...)) { original loop }
// DESCRIPTOR is the text of a LaunchDescriptor (lowering/codegen/
// LaunchDescriptor.h); each vararg is a pointer to one parameter's storage in
// the descriptor's parameter order (see LaunchDescriptor::ArgKind).
//
// The backend comes from SCHED_BACKEND (auto|cuda|sim|emu|host; default
// auto: cuda when a CUDA driver initialises and sees a device, else host;
// emu runs the emitted CUDA on the CPU; a target(vta) nest runs on the VTA
// runtime under sim and auto, as the original loop otherwise). Returns 1 when the kernel ran on a backend, 0 when
// the caller must run the original loop: under host, when a run-time
// assumption or CUDA's launch limits fail (SCHED_VERBOSE=1 says which), and
// when the launch failed before touching the program's data (a CUDA driver
// that cannot initialise, an NVRTC or emu compile error, an unknown
// SCHED_BACKEND: said on stderr once per nest, naming the kernel and source
// line). It never calls
// exit. A failure after the kernel may have written the program's data (a
// race or an out-of-bounds access found by sim, a CUDA fault before the copy
// back of a buffer passed in place, a failed copy back) prints the kernel's
// name, source line and the error, then aborts: never a wrong answer
// silently. runtime/Launch.cpp defines "touched" per backend.
//
//===----------------------------------------------------------------------===//
//
// Data scopes keep host arrays on the device across nests (DataScope.h; C and
// C++ alike, with -I <sched>/runtime):
//
//     sched_data_begin();                      // or: sched::DataScope Scope;
//     sched_data_map(a, n * sizeof(float));    //     Scope.map(a, n).map(b, n);
//     sched_data_map(b, n * sizeof(float));
//     for (int t = 0; t < steps; ++t) { stencil(a, b, n); stencil(b, a, n); }
//     sched_data_end();                        // a and b come back here
//
// Inside a scope a mapped array goes to the device at the first kernel that
// touches it and stays there; kernels use it in place; it comes back when the
// scope ends, or at sched_data_update_host. The host must not read or write a
// mapped array inside the scope except after sched_data_update_host (read)
// or before sched_data_update_device (it wrote). A nest that runs its original
// loop inside a scope gets the arrays back first, by itself. Under sim and
// emu, which run kernels on the host arrays, a scope changes no result and
// SCHED_PROFILE counts the bytes cuda would move.
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_RUNTIME_SCHEDRUNTIME_H
#define SCHED_RUNTIME_SCHEDRUNTIME_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The runtime's API: what libsched_runtime exports (it is built with
   -fvisibility=hidden, runtime/CMakeLists.txt). */
#pragma GCC visibility push(default)
int __sched_launch(const char *Descriptor, ...);

/* The data scope API. Its entry points are weak here, so a program built
   without sched (the plain build of the same file) links without the runtime
   and each call does nothing: its loops run on the host anyway. */
void __sched_data_begin(void) __attribute__((weak));
int __sched_data_map(void *Host, size_t Bytes) __attribute__((weak));
int __sched_data_update_host(void *Host) __attribute__((weak));
int __sched_data_update_device(void *Host) __attribute__((weak));
void __sched_data_end(void) __attribute__((weak));
#pragma GCC visibility pop

/* Opens a data scope (they nest). */
static inline void sched_data_begin(void) {
  if (__sched_data_begin)
    __sched_data_begin();
}
/* Maps the Bytes bytes at Host into the innermost scope: 0, or -1 with a
   message on stderr (no scope open, an empty array, one that overlaps an
   array mapped already). */
static inline int sched_data_map(void *Host, size_t Bytes) {
  return __sched_data_map ? __sched_data_map(Host, Bytes) : 0;
}
/* Copies the mapped array holding Host back to the host now: 0, or -1. */
static inline int sched_data_update_host(void *Host) {
  return __sched_data_update_host ? __sched_data_update_host(Host) : 0;
}
/* The host wrote the mapped array holding Host: the next kernel copies it to
   the device again. 0, or -1. */
static inline int sched_data_update_device(void *Host) {
  return __sched_data_update_device ? __sched_data_update_device(Host) : 0;
}
/* Closes the innermost scope: what kernels wrote comes back to the host. A
   copy that fails leaves the program without its data: it is reported and
   the program aborts. */
static inline void sched_data_end(void) {
  if (__sched_data_end)
    __sched_data_end();
}

#ifdef __cplusplus
}

namespace sched {
/// A data scope for the object's lifetime.
class DataScope {
public:
  DataScope() { sched_data_begin(); }
  ~DataScope() { sched_data_end(); }
  DataScope(const DataScope &) = delete;
  DataScope &operator=(const DataScope &) = delete;
  /// Maps Count elements at Host.
  template <typename T> DataScope &map(T *Host, size_t Count) {
    sched_data_map(const_cast<void *>(static_cast<const void *>(Host)), Count * sizeof(T));
    return *this;
  }
  template <typename T> void updateHost(T *Host) {
    sched_data_update_host(const_cast<void *>(static_cast<const void *>(Host)));
  }
  template <typename T> void updateDevice(T *Host) {
    sched_data_update_device(const_cast<void *>(static_cast<const void *>(Host)));
  }
};
} // namespace sched
#endif

#endif
