//===- Backend.h - Choosing and running a launch backend --------*- C++ -*-===//
//
// The pieces of __sched_launch that tests call without exiting the process:
// the SCHED_BACKEND names, the auto rule, and one launch that returns an error
// message instead of printing it and exiting.
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_RUNTIME_BACKEND_H
#define SCHED_RUNTIME_BACKEND_H

#include "codegen/LaunchDescriptor.h"

#include <string>
#include <vector>

namespace sched {
namespace runtime {

enum class BackendKind { Auto, Cuda, Sim, Emu, Host };

/// Parses a SCHED_BACKEND value; null or empty means Auto. False for an
/// unknown name.
bool parseBackendName(const char *Value, BackendKind &Out);
const char *backendName(BackendKind K);

/// Auto is cuda when a CUDA device is present, otherwise host; an explicit
/// choice is kept.
BackendKind resolveBackend(BackendKind Requested, bool CudaDeviceAvailable);

/// The message for a bad SCHED_BACKEND value.
std::string unknownBackendMessage(const char *Value);

/// The data pointer of each parameter from the launcher's arguments (the
/// addresses of the parameters' storage), per D.ArgKinds.
std::vector<void *> paramDataFromArgs(const LaunchDescriptor &D, void *const *Args);

/// What one launch did.
enum class LaunchResult { RanOnBackend, RunHostLoop, Failed };

/// Runs the kernel of the descriptor text at Descriptor (parsed and compiled
/// once per distinct pointer) with the launcher's arguments on backend B
/// (Auto resolved here). On Failed, Error holds the message without the
/// "sched: kernel (file:line): " prefix, and Where that prefix's kernel part.
LaunchResult launchKernel(const char *Descriptor, void *const *Args, BackendKind B,
                          std::string &Where, std::string &Error);

} // namespace runtime
} // namespace sched

#endif // SCHED_RUNTIME_BACKEND_H
