//===- HostBackend.cpp - The original loop as a backend -------------------===//
//
// Kept as its own backend (rather than a special case in Launch.cpp) so the
// selection logic reads as "pick a backend, run it" for every choice.
//
//===----------------------------------------------------------------------===//

#include "HostBackend.h"

namespace sched {
namespace host {

int launch() { return 0; }

} // namespace host
} // namespace sched
