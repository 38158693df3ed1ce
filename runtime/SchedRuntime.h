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
#ifndef SCHED_RUNTIME_SCHEDRUNTIME_H
#define SCHED_RUNTIME_SCHEDRUNTIME_H

extern "C" int __sched_launch(const char *Descriptor, ...);

#endif
