//===- SchedRuntime.h - The entry point generated code calls ---*- C++ -*-===//
//
// The plugin replaces each annotated nest with
//     if (!__sched_launch(DESCRIPTOR, &p0, &p1, ...)) { original loop }
// DESCRIPTOR is the text of a LaunchDescriptor (lowering/codegen/
// LaunchDescriptor.h); each vararg is a pointer to one parameter's storage in
// the descriptor's parameter order (see LaunchDescriptor::ArgKind).
//
// The backend comes from SCHED_BACKEND (auto|cuda|sim|emu|host; default auto:
// cuda when a CUDA device is present, else host; emu runs the emitted CUDA
// on the CPU; a target(vta) nest runs on the VTA runtime under sim and auto,
// as the original loop otherwise). Returns 1 when the kernel
// ran on a backend, 0 when the caller must run the original loop (host).
// Fatal errors (a CUDA error, a race under sim) print the kernel's name and
// source line to stderr and exit(1): never a wrong answer silently.
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_RUNTIME_SCHEDRUNTIME_H
#define SCHED_RUNTIME_SCHEDRUNTIME_H

extern "C" int __sched_launch(const char *Descriptor, ...);

#endif
