//===- DataScope.cpp - Host arrays kept on the device across nests --------===//
//
// See DataScope.h. Each mapped array has one copy of record: the host's, or
// the device copy once a kernel wrote it there (Newer). Valid says whether the
// device copy (real under cuda, the host array itself under sim and emu) has
// the host's data; a real copy lives in Device, allocated at the first cuda
// kernel that touches the array.
//
//===----------------------------------------------------------------------===//
#include "DataScope.h"

#include "SchedRuntime.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <mutex>

namespace sched {
namespace runtime {

namespace {

struct MappedArray {
  char *Host = nullptr;
  size_t Bytes = 0;
  uintptr_t Device = 0; // a real device copy (cuda), 0 when none
  const DeviceMemory *Memory = nullptr; // what allocated Device
  bool Valid = false;   // the device copy has the host's data
  bool Newer = false;   // the device copy has data the host lacks
};

struct Scopes {
  std::mutex Lock;
  std::vector<std::vector<MappedArray>> Stack;
  uint64_t Closed = 0, ClosedBytesOut = 0;
};

Scopes &scopes() {
  static Scopes *S = new Scopes; // never destroyed: a scope may close at exit
  return *S;
}

/// The mapped array holding all of [Begin, End), or null; Straddled is set to
/// one that holds part of it.
MappedArray *arrayOf(Scopes &S, const char *Begin, const char *End, MappedArray *&Straddled) {
  Straddled = nullptr;
  for (auto &Scope : S.Stack)
    for (MappedArray &M : Scope) {
      if (Begin >= M.Host && End <= M.Host + M.Bytes)
        return &M;
      if (Begin < M.Host + M.Bytes && M.Host < End)
        Straddled = &M;
    }
  return nullptr;
}

MappedArray *arrayAt(Scopes &S, const void *Host) {
  const char *P = static_cast<const char *>(Host);
  MappedArray *Ignored;
  return arrayOf(S, P, P + 1, Ignored);
}

/// Brings M's data back to the host if the device copy is newer (a real copy
/// is copied; a counted one is where the host is already). Out counts it.
bool bringBack(MappedArray &M, uint64_t &Out, std::string &Error) {
  if (!M.Newer)
    return true;
  if (M.Device && !M.Memory->ToHost(M.Host, M.Device, M.Bytes, Error))
    return false;
  Out += M.Bytes;
  M.Newer = false;
  return true;
}

/// Drops M's real device copy (after bringBack): the next kernel on the
/// device copies the array again.
void dropDevice(MappedArray &M) {
  if (M.Device)
    M.Memory->Free(M.Device);
  M.Device = 0;
  M.Memory = nullptr;
  M.Valid = false;
}

/// The bytes [Begin, End) of parameter I's region for Data, or false when it
/// touches none (no region, a null argument, an empty region) or it cannot
/// be evaluated (the launch reports that itself).
bool touchedBytes(const LaunchPlan &P, const std::vector<int64_t> &Values,
                  const std::vector<void *> &Data, size_t I, const char *&Begin,
                  const char *&End) {
  uintptr_t B, E;
  std::string Ignored;
  if (!P.Params[I].IsBuffer || !Data[I] || !P.regionBytes(I, Values, Data[I], B, E, Ignored) ||
      B == E)
    return false;
  Begin = reinterpret_cast<const char *>(B);
  End = reinterpret_cast<const char *>(E);
  return true;
}

} // namespace

void beginScope() {
  Scopes &S = scopes();
  std::lock_guard<std::mutex> Guard(S.Lock);
  S.Stack.emplace_back();
}

bool mapArray(void *Host, size_t Bytes, std::string &Error) {
  Scopes &S = scopes();
  std::lock_guard<std::mutex> Guard(S.Lock);
  if (S.Stack.empty()) {
    Error = "sched_data_map outside a data scope (sched_data_begin opens one)";
    return false;
  }
  if (!Host || !Bytes) {
    Error = "sched_data_map of an empty array";
    return false;
  }
  char *Begin = static_cast<char *>(Host);
  MappedArray *Straddled = nullptr;
  if (arrayOf(S, Begin, Begin + Bytes, Straddled) || Straddled) {
    Error = "sched_data_map of an array that overlaps one mapped already";
    return false;
  }
  MappedArray M;
  M.Host = Begin;
  M.Bytes = Bytes;
  S.Stack.back().push_back(M);
  return true;
}

bool updateHost(void *Host, std::string &Error) {
  Scopes &S = scopes();
  std::lock_guard<std::mutex> Guard(S.Lock);
  MappedArray *M = arrayAt(S, Host);
  if (!M) {
    Error = "sched_data_update_host of an array no data scope maps";
    return false;
  }
  uint64_t Out = 0;
  return bringBack(*M, Out, Error);
}

bool updateDevice(void *Host, std::string &Error) {
  Scopes &S = scopes();
  std::lock_guard<std::mutex> Guard(S.Lock);
  MappedArray *M = arrayAt(S, Host);
  if (!M) {
    Error = "sched_data_update_device of an array no data scope maps";
    return false;
  }
  M->Valid = false;
  return true;
}

bool endScope(std::string &Error) {
  Scopes &S = scopes();
  std::lock_guard<std::mutex> Guard(S.Lock);
  if (S.Stack.empty()) {
    Error = "sched_data_end without an open data scope";
    return false;
  }
  bool Ok = true;
  for (MappedArray &M : S.Stack.back()) {
    std::string Why;
    if (!bringBack(M, S.ClosedBytesOut, Why) && Ok) {
      Error = "cannot copy a mapped array back to the host: " + Why;
      Ok = false;
    }
    dropDevice(M);
  }
  S.Stack.pop_back();
  ++S.Closed;
  return Ok;
}

size_t openScopes() {
  Scopes &S = scopes();
  std::lock_guard<std::mutex> Guard(S.Lock);
  return S.Stack.size();
}

bool prepareLaunch(const LaunchPlan &P, std::vector<void *> &Data, Placement Where,
                   const DeviceMemory *Device, ScopeTraffic &Traffic, std::string &Error) {
  Traffic = ScopeTraffic();
  Traffic.Mapped.assign(P.Params.size(), false);
  Scopes &S = scopes();
  std::lock_guard<std::mutex> Guard(S.Lock);
  if (S.Stack.empty())
    return true;
  const std::vector<int64_t> Values = P.scalarValues(Data);
  const std::vector<void *> HostData = Data;
  for (size_t I = 0; I < P.Params.size() && I < Data.size(); ++I) {
    const char *Begin, *End;
    if (!touchedBytes(P, Values, HostData, I, Begin, End))
      continue;
    MappedArray *Straddled;
    MappedArray *M = arrayOf(S, Begin, End, Straddled);
    if (!M) {
      // Part of the region is mapped: the launch stages it from the host,
      // which must be current, and may write it there.
      if (Straddled) {
        if (!bringBack(*Straddled, Traffic.BytesOut, Error))
          return false;
        dropDevice(*Straddled);
      }
      continue;
    }
    switch (Where) {
    case Placement::Device:
      if (!Device) {
        Error = "no device memory for a data scope";
        return false;
      }
      if (M->Device && M->Memory != Device) {
        if (!bringBack(*M, Traffic.BytesOut, Error))
          return false;
        dropDevice(*M);
      }
      if (!M->Device) {
        if (!Device->Alloc(M->Bytes, M->Device, Error))
          return false;
        M->Memory = Device;
        M->Valid = false;
      }
      if (!M->Valid) {
        if (!Device->ToDevice(M->Device, M->Host, M->Bytes, Error))
          return false;
        Traffic.BytesIn += M->Bytes;
        M->Valid = true;
      }
      Data[I] = reinterpret_cast<void *>(
          M->Device + static_cast<uintptr_t>(static_cast<const char *>(HostData[I]) - M->Host));
      Traffic.Mapped[I] = true;
      break;
    case Placement::Counted:
      // The kernel runs on the host array: bring back a real device copy's
      // news and drop it; then count the copy cuda would have made.
      if (M->Device) {
        if (!bringBack(*M, Traffic.BytesOut, Error))
          return false;
        dropDevice(*M);
      }
      if (!M->Valid) {
        Traffic.BytesIn += M->Bytes;
        M->Valid = true;
      }
      Traffic.Mapped[I] = true;
      break;
    case Placement::Host:
      if (!bringBack(*M, Traffic.BytesOut, Error))
        return false;
      break;
    }
  }
  return true;
}

void finishLaunch(const LaunchPlan &P, const std::vector<void *> &HostData, Placement Where) {
  Scopes &S = scopes();
  std::lock_guard<std::mutex> Guard(S.Lock);
  if (S.Stack.empty())
    return;
  const std::vector<int64_t> Values = P.scalarValues(HostData);
  for (size_t I = 0; I < P.Params.size() && I < HostData.size(); ++I) {
    const char *Begin, *End;
    MappedArray *Straddled;
    if (!P.Params[I].Written || !touchedBytes(P, Values, HostData, I, Begin, End))
      continue;
    MappedArray *M = arrayOf(S, Begin, End, Straddled);
    if (!M)
      continue;
    if (Where == Placement::Host)
      M->Valid = false; // the host loop wrote it: the device copy is stale
    else
      M->Newer = true;
  }
}

void closedScopeTotals(uint64_t &Closed, uint64_t &BytesOut) {
  Scopes &S = scopes();
  std::lock_guard<std::mutex> Guard(S.Lock);
  Closed = S.Closed;
  BytesOut = S.ClosedBytesOut;
}

} // namespace runtime
} // namespace sched

extern "C" void __sched_data_begin(void) { sched::runtime::beginScope(); }

extern "C" int __sched_data_map(void *Host, size_t Bytes) {
  std::string Error;
  if (sched::runtime::mapArray(Host, Bytes, Error))
    return 0;
  std::fprintf(stderr, "sched: %s\n", Error.c_str());
  return -1;
}

extern "C" int __sched_data_update_host(void *Host) {
  std::string Error;
  if (sched::runtime::updateHost(Host, Error))
    return 0;
  std::fprintf(stderr, "sched: %s\n", Error.c_str());
  return -1;
}

extern "C" int __sched_data_update_device(void *Host) {
  std::string Error;
  if (sched::runtime::updateDevice(Host, Error))
    return 0;
  std::fprintf(stderr, "sched: %s\n", Error.c_str());
  return -1;
}

extern "C" void __sched_data_end(void) {
  std::string Error;
  if (sched::runtime::endScope(Error))
    return;
  std::fprintf(stderr, "sched: data scope: %s\n", Error.c_str());
  if (Error.find("cannot copy") != std::string::npos)
    std::abort(); // the program's arrays are not what its kernels made
}
