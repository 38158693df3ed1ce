//===- DataScope.h - Host arrays kept on the device across nests -*- C++ -*-===//
//
// A data scope (sched_data_begin ... sched_data_end, SchedRuntime.h) maps host
// arrays: inside it, a kernel that touches a mapped array finds it already on
// the device (copied there once, at the first kernel that needs it) and uses
// it in place; the array comes back to the host when the scope ends (if a
// kernel wrote it) or when the program asks (sched_data_update_host). Outside
// every scope, and for arrays no scope maps, each launch copies its regions in
// and out as before.
//
// One state machine for every backend. cuda keeps a real device copy; sim and
// emu run on the host arrays in place, so their "device copy" is the host
// array itself and the scope only counts the bytes cuda would have moved
// (SCHED_PROFILE shows them). Whatever runs a nest on the host's copy (sim,
// emu, the original loop) first brings back what the device copy has that the
// host lacks, and, where it may write, makes the next cuda kernel copy the
// array again: the host loop never runs on stale data or on device pointers.
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_RUNTIME_DATASCOPE_H
#define SCHED_RUNTIME_DATASCOPE_H

#include "ir/LaunchPlan.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace sched {
namespace runtime {

/// What a launch is about to run on.
enum class Placement {
  Device, // the cuda backend: mapped arrays are used on the device, in place
  Counted, // sim or emu: kernels on the host arrays, bytes counted as cuda's
  Host     // the original loop
};

/// The device memory a real device copy uses (the cuda backend's; tests give
/// their own). Each returns false with Error on failure.
struct DeviceMemory {
  bool (*Alloc)(size_t Bytes, uintptr_t &Out, std::string &Error);
  void (*Free)(uintptr_t Device);
  bool (*ToDevice)(uintptr_t Device, const void *Host, size_t Bytes, std::string &Error);
  bool (*ToHost)(void *Host, uintptr_t Device, size_t Bytes, std::string &Error);
};

/// What the data scopes did for one launch.
struct ScopeTraffic {
  uint64_t BytesIn = 0, BytesOut = 0; // copies the scopes made (or counted) for it
  /// Per parameter: the scope holds the parameter's region (it is not staged
  /// for the launch, and SCHED_PROFILE's per-launch bytes leave it out).
  std::vector<bool> Mapped;
};

/// Opens a scope; the mapped arrays of Close come back when it closes.
void beginScope();
/// Maps [Host, Host + Bytes) into the innermost scope. False with Error when
/// no scope is open, the range is empty, or it overlaps an array mapped
/// already.
bool mapArray(void *Host, size_t Bytes, std::string &Error);
/// Copies the mapped array containing Host back to the host now, if a kernel
/// wrote it on the device.
bool updateHost(void *Host, std::string &Error);
/// The host changed the mapped array containing Host: the next kernel copies
/// it to the device again.
bool updateDevice(void *Host, std::string &Error);
/// Closes the innermost scope: written arrays come back, device copies go.
bool endScope(std::string &Error);
/// How many scopes are open.
size_t openScopes();

/// Prepares a launch of P with Data (one data pointer per parameter) that
/// runs as Where: for Device, each buffer whose region lies inside a mapped
/// array is made current on the device and its Data entry replaced by the
/// device address (the launch then uses it in place); for Counted and Host,
/// each mapped array the nest touches is made current on the host. Traffic
/// gets the bytes moved. False with Error when a copy fails (nothing of the
/// program's data changed that the original loop could not redo).
bool prepareLaunch(const LaunchPlan &P, std::vector<void *> &Data, Placement Where,
                   const DeviceMemory *Device, ScopeTraffic &Traffic, std::string &Error);
/// After a launch prepared with Data ran: the mapped arrays it wrote are newer
/// on the device (Device, Counted) or on the host (Host) than elsewhere.
void finishLaunch(const LaunchPlan &P, const std::vector<void *> &HostData, Placement Where);

/// The bytes the scopes that closed moved back to the host, and how many
/// closed (SCHED_PROFILE).
void closedScopeTotals(uint64_t &Closed, uint64_t &BytesOut);

} // namespace runtime
} // namespace sched

#endif // SCHED_RUNTIME_DATASCOPE_H
