//===- Backend.h - Choosing and running a launch backend --------*- C++ -*-===//
//
// The pieces of __sched_launch that tests call directly: the SCHED_BACKEND
// names, the auto rule, and one launch that returns its error message and
// whether the program's memory was touched instead of printing it and going
// on or aborting.
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_RUNTIME_BACKEND_H
#define SCHED_RUNTIME_BACKEND_H

#include "ir/LaunchPlan.h"

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
/// addresses of the parameters' storage), per each parameter's ArgKind.
std::vector<void *> paramDataFromArgs(const LaunchPlan &D, void *const *Args);
/// Points each scratch parameter (LaunchPlan::ArgKind::Scratch, which the
/// program passes as null) of Data at a zeroed buffer of its region's size
/// in Storage, which must outlive the launch. False with Error when a
/// region cannot be evaluated.
bool allocateScratch(const LaunchPlan &D, std::vector<void *> &Data,
                     std::vector<std::vector<uint64_t>> &Storage, std::string &Error);

/// What one launch did.
enum class LaunchResult {
  RanOnBackend,
  RunHostLoop, // host, or a run-time assumption failed (SCHED_VERBOSE says which)
  /// Failed before the launch touched memory the program sees (Launch.cpp
  /// says what that means per backend): the original loop is still right.
  FailedUntouched,
  /// Failed after the kernel may have written the program's memory: no
  /// answer can be trusted.
  Failed
};

/// Runs the kernel of the descriptor text at Descriptor (parsed and compiled
/// once per distinct pointer) with the launcher's arguments on backend B
/// (Auto resolved here: a driver that is missing or cannot initialise means
/// host). On a failure, Error holds the message without the
/// "sched: kernel (file:line): " prefix, and Where that prefix's kernel part.
LaunchResult launchKernel(const char *Descriptor, void *const *Args, BackendKind B,
                          std::string &Where, std::string &Error);

} // namespace runtime
} // namespace sched

#endif // SCHED_RUNTIME_BACKEND_H
