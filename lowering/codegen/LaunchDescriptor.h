//===- LaunchDescriptor.h - What the launcher needs, as text ---*- C++ -*-===//
//
// The plugin replaces an annotated nest with
//     if (!__sched_launch(DESCRIPTOR, &arg0, &arg1, ...)) { original loop }
// where DESCRIPTOR is a string literal made by serializeDescriptor and each
// argument is the address of one parameter's storage, in Params order. The
// runtime parses the descriptor once per call site (parseDescriptor, the same
// code) and runs the kernel under the chosen backend, or returns 0 so the
// original loop runs (host backend).
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_CODEGEN_LAUNCHDESCRIPTOR_H
#define SCHED_CODEGEN_LAUNCHDESCRIPTOR_H

#include "Pipeline.h"
#include <string>
#include <vector>

namespace sched {

struct LaunchDescriptor {
  /// How each launcher argument points at its parameter's value.
  enum class ArgKind : uint8_t {
    Pointer, // the argument is T**: address of a pointer variable
    Array,   // the argument is T*: address of an array's first element
    Scalar   // the argument is T*: address of a scalar variable
  };
  std::vector<ArgKind> ArgKinds; // parallel to Kernel.Kernel.Params
  LoweredKernel Kernel;          // lowered IR, geometry, regions
  std::string CUDASource;        // emitCUDA(Kernel)
};

/// Checks that every expression the launcher evaluates before a launch
/// (grid and block extents, copy regions, run-time assumptions) uses literals
/// and the kernel's scalar parameters only: the launcher has nothing else.
/// False, with the offending expression in Error, otherwise (an internal
/// error of the compiler: the nest must stay as written).
bool checkLaunchExprs(const LoweredKernel &K, std::string &Error);

std::string serializeDescriptor(const LaunchDescriptor &D);
bool parseDescriptor(const std::string &Text, LaunchDescriptor &Out, std::string &Error);

} // namespace sched

#endif
