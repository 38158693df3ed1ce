//===- HostBackend.h - The original loop as a backend -----------*- C++ -*-===//
//
// The `host` backend runs nothing itself: __sched_launch returns 0 and the
// launcher falls through to the original loop nest the plugin kept in the
// binary. That loop is also the reference every test compares against.
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_RUNTIME_HOST_HOSTBACKEND_H
#define SCHED_RUNTIME_HOST_HOSTBACKEND_H

namespace sched {
namespace host {

/// What __sched_launch returns for the host backend: 0, "run the original
/// loop".
int launch();

} // namespace host
} // namespace sched

#endif // SCHED_RUNTIME_HOST_HOSTBACKEND_H
