//===- Launch.cpp - __sched_launch: the entry point of generated code -----===//
//
// Every replaced nest calls __sched_launch(DESCRIPTOR, &p0, &p1, ...). The
// descriptor's launch plan (ir/LaunchPlan.h: plain data, no IR) is read once
// per distinct pointer (a call site's string literal), and what each backend
// derives from it - the CUDA module, the emu build, and, for the simulator
// and the VTA runner only, the kernel's IR and the simulator's bytecode - is
// cached beside it. Nothing here reads IR: the launcher's checks and the
// cuda and emu backends work from the plan. The backend comes from SCHED_BACKEND
// on every call, so a test can switch it between launches.
//
// A target(vta) nest runs on the VTA runtime (vta/VtaLauncher) under sim
// and auto, and as the original loop under host, cuda and emu (the CPU run
// of the emitted CUDA, emu/EmuBackend).
//
// Before a kernel runs on sim, emu or cuda, the launcher checks what the compiler
// could only assume: the kernel's run-time assumptions (LaunchPlan::
// Assumptions, e.g. `N <= ld` for a delinearized leading dimension), a
// launch geometry with at least one block and one thread in each dimension,
// and a launch shape within CUDA's limits (ir/LaunchLimits.h: threads per
// block, block and grid dimensions, static shared memory), the same for sim
// and cuda, and pointer arguments as aligned as the kernel's vector accesses
// need (LaunchPlan::Param::Alignment: a pointer into the middle of an array may not
// be). When one fails, __sched_launch returns 0 and the original loop
// runs, which is correct for every argument; SCHED_VERBOSE=1 says why.
//
// A launch that fails never exits the process (a library must not); what the
// program sees depends on whether the launch touched its data, i.e. may have
// written memory the program sees:
//  - sim runs the kernel on the program's own buffers, so a launch is touched
//    once its first block starts (SimStats::Blocks > 0). Its compile and
//    set-up errors (a construct it cannot run, a buffer region it cannot
//    evaluate) come before that; its run-time findings (a race, an access out
//    of bounds) after.
//  - cuda only reads host memory until it copies the written regions back
//    (cuda::launch's Touched), but for a buffer passed in place (device or
//    managed memory), which the kernel writes as it runs. A driver that
//    cannot initialise, an NVRTC or module-load error, a failed allocation,
//    copy in or launch, even a kernel that faults before the copies back:
//    none has touched anything.
//  - emu runs the compiled kernel on the program's own buffers (host
//    pointers, in place): touched once it starts (emu::launch's Touched);
//    compiling the kernel comes before.
//  - vta copies every region in, and back only after the whole program ran
//    without an error (VtaLauncher): a failure never touched anything.
//  - host and the checks above fail before anything runs.
// Untouched, the original loop is still a correct answer: the error is
// printed once per nest, `sched: <kernel> (<file>:<line>): <error>; ran the
// original loop instead`, later failures of the nest only under
// SCHED_VERBOSE, and __sched_launch returns 0. Touched, no answer can be
// trusted: `sched: <kernel> (<file>:<line>): <error>` and std::abort() (no
// exit handler runs on half-written data); a wrong answer is never returned
// silently. An unknown SCHED_BACKEND value touches nothing either: it is
// reported once and every nest runs its original loop.
//
// SCHED_TIME=1 prints each kernel's time (reportTime): what a benchmark
// (bench/gpu-check.sh) reads to time the kernels of an ordinary program.
//
//===----------------------------------------------------------------------===//

#include "Backend.h"
#include "DataScope.h"
#include "SchedRuntime.h"
#include "cuda/CudaBackend.h"
#include "emu/EmuBackend.h"
#include "host/HostBackend.h"
#include "sim/Simulator.h"
#include "vta/VtaLauncher.h"

#include "ir/LaunchDescriptor.h"
#include "ir/LaunchLimits.h"

#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <unordered_map>
#include <algorithm>
#include <strings.h>

namespace sched {
namespace runtime {

bool parseBackendName(const char *Value, BackendKind &Out) {
  if (!Value || !*Value || !std::strcmp(Value, "auto"))
    Out = BackendKind::Auto;
  else if (!std::strcmp(Value, "cuda"))
    Out = BackendKind::Cuda;
  else if (!std::strcmp(Value, "sim"))
    Out = BackendKind::Sim;
  else if (!std::strcmp(Value, "emu"))
    Out = BackendKind::Emu;
  else if (!std::strcmp(Value, "host"))
    Out = BackendKind::Host;
  else
    return false;
  return true;
}

const char *backendName(BackendKind K) {
  switch (K) {
  case BackendKind::Auto: return "auto";
  case BackendKind::Cuda: return "cuda";
  case BackendKind::Sim: return "sim";
  case BackendKind::Emu: return "emu";
  case BackendKind::Host: return "host";
  }
  return "auto";
}

BackendKind resolveBackend(BackendKind Requested, bool CudaDeviceAvailable) {
  if (Requested != BackendKind::Auto)
    return Requested;
  return CudaDeviceAvailable ? BackendKind::Cuda : BackendKind::Host;
}

std::string unknownBackendMessage(const char *Value) {
  return std::string("SCHED_BACKEND='") + (Value ? Value : "") +
         "' is not one of auto, cuda, sim, emu, host";
}

std::vector<void *> paramDataFromArgs(const LaunchPlan &D, void *const *Args) {
  std::vector<void *> Data(D.Params.size(), nullptr);
  for (size_t I = 0; I < D.Params.size(); ++I) {
    if (!Args[I])
      continue;
    // Pointer: the argument is the address of the pointer variable.
    Data[I] = D.Params[I].Arg == LaunchPlan::ArgKind::Pointer
                  ? *static_cast<void *const *>(Args[I])
                  : Args[I];
  }
  return Data;
}

bool allocateScratch(const LaunchPlan &P, std::vector<void *> &Data,
                     std::vector<std::vector<uint64_t>> &Storage, std::string &Error) {
  std::vector<int64_t> Values;
  for (size_t I = 0; I < P.Params.size() && I < Data.size(); ++I) {
    if (P.Params[I].Arg != LaunchPlan::ArgKind::Scratch)
      continue;
    if (Values.empty())
      Values = P.scalarValues(Data);
    static const uint64_t Somewhere = 0; // a non-null argument to size the region
    int64_t Min = 0, Extent = 0;
    if (!P.region(I, Values, &Somewhere, Min, Extent, Error)) {
      Error = "cannot size the scratch buffer '" + P.Params[I].Name + "': " + Error;
      return false;
    }
    const int64_t Bytes = (Min + Extent) * static_cast<int64_t>(ir::dtypeBytes(P.Params[I].Type));
    if (Bytes <= 0)
      continue;
    Storage.emplace_back(static_cast<size_t>((Bytes + 7) / 8), 0);
    Data[I] = Storage.back().data();
  }
  return true;
}

namespace {

/// Everything derived from one descriptor string.
struct LaunchSite {
  const char *Text = nullptr; // the descriptor
  LaunchPlan Plan;
  std::string ParseError; // non-empty: the descriptor did not parse
  std::string Where;      // "kernel (file:line)"

  /// The whole descriptor, the kernel's IR included: read on the first run
  /// by a runner that interprets it (the simulator, the VTA runner).
  std::mutex IRLock;
  bool IRRead = false;
  LaunchDescriptor D;
  std::string IRError;
  std::shared_ptr<const sim::SimProgram> Sim;
  std::string SimCompileError;
  bool SimCompiled = false;

  cuda::KernelCache Cuda;
  emu::KernelCache Emu;

  VtaHandles Vta; // a target(vta) nest's uop-kernel handles

  /// SCHED_VERBOSE=1: the lines said once already (by kind).
  std::mutex SaidLock;
  std::set<std::string> Said;
  /// SCHED_PROFILE=1: what the nest did, per way it ran (a backend, or the
  /// original loop).
  struct ProfileRow {
    uint64_t Calls = 0, Timed = 0;
    double KernelMs = 0;   // over the timed calls
    double FirstCallMs = -1; // the first call's wall time: compiling and loading too
    uint64_t BytesIn = 0, BytesOut = 0;
    std::string Code;      // where the code came from (cuda)
  };
  std::mutex ProfileLock;
  std::map<std::string, ProfileRow> Profile;

  /// The whole descriptor, read once; null with Error set when it does not
  /// parse. The caller holds IRLock.
  const LaunchDescriptor *descriptor(std::string &Error) {
    if (!IRRead) {
      IRRead = true;
      if (!parseDescriptor(Text, D, IRError) && IRError.empty())
        IRError = "unreadable launch descriptor";
    }
    if (!IRError.empty()) {
      Error = "invalid launch descriptor: " + IRError;
      return nullptr;
    }
    return &D;
  }
};

/// Every site of the process, by descriptor pointer. Never destroyed: the
/// SCHED_PROFILE table reads it at exit.
struct SiteTable {
  std::mutex Lock;
  std::unordered_map<const char *, std::unique_ptr<LaunchSite>> Sites;
};
SiteTable &siteTable() {
  static SiteTable *T = new SiteTable;
  return *T;
}

/// The site of Descriptor, its plan read on first use. Sites live for the
/// whole process (descriptors are string literals), so the returned
/// reference stays valid.
LaunchSite &siteFor(const char *Descriptor) {
  SiteTable &T = siteTable();
  std::lock_guard<std::mutex> Guard(T.Lock);
  std::unique_ptr<LaunchSite> &Slot = T.Sites[Descriptor];
  if (!Slot) {
    Slot = std::make_unique<LaunchSite>();
    Slot->Text = Descriptor;
    if (!parsePlan(Descriptor, Slot->Plan, Slot->ParseError) && Slot->ParseError.empty())
      Slot->ParseError = "unreadable launch descriptor";
    Slot->Where = Slot->ParseError.empty() ? Slot->Plan.where() : "<unknown kernel>";
  }
  return *Slot;
}

/// Whether the environment variable Name is set to anything but "" or "0".
bool envFlag(const char *Name) {
  const char *V = std::getenv(Name);
  return V && *V && std::strcmp(V, "0") != 0;
}

/// SCHED_VERBOSE: 0 (unset, empty, 0, false, off, no), 1 (each kind of line
/// once per nest: where it ran, why it ran its original loop), 2 (every
/// launch).
int verboseLevel() {
  const char *V = std::getenv("SCHED_VERBOSE");
  if (!V || !*V || !std::strcmp(V, "0") || !strcasecmp(V, "false") || !strcasecmp(V, "off") ||
      !strcasecmp(V, "no"))
    return 0;
  return std::strcmp(V, "2") ? 1 : 2;
}

/// Says "sched: <where>: <Line>" under SCHED_VERBOSE: at level 2 always, at
/// level 1 the first time the nest says a line of this Kind.
void say(LaunchSite &S, const std::string &Kind, const std::string &Line) {
  int Level = verboseLevel();
  if (!Level)
    return;
  if (Level == 1) {
    std::lock_guard<std::mutex> Guard(S.SaidLock);
    if (!S.Said.insert(Kind).second)
      return;
  }
  std::fprintf(stderr, "sched: %s: %s\n", S.Where.c_str(), Line.c_str());
}

bool profiling() { return envFlag("SCHED_PROFILE"); }

void printProfile();

/// Adds one call of S that ran as Way (a backend, or "original loop") to
/// its SCHED_PROFILE row; the first registers the table's printing at exit.
void record(LaunchSite &S, const std::string &Way, double KernelMs, double CallMs,
            uint64_t BytesIn, uint64_t BytesOut, const std::string &Code = "") {
  if (!profiling())
    return;
  static std::once_flag AtExit;
  std::call_once(AtExit, [] { std::atexit(printProfile); });
  std::lock_guard<std::mutex> Guard(S.ProfileLock);
  LaunchSite::ProfileRow &R = S.Profile[Way];
  if (R.Calls++ == 0)
    R.FirstCallMs = CallMs;
  if (KernelMs >= 0) {
    R.KernelMs += KernelMs;
    ++R.Timed;
  }
  R.BytesIn += BytesIn;
  R.BytesOut += BytesOut;
  if (!Code.empty())
    R.Code = Code;
}

/// The SCHED_PROFILE table, at exit: one row per nest and way it ran, the
/// most kernel time first.
void printProfile() {
  struct Line {
    std::string Where, Way;
    LaunchSite::ProfileRow Row;
  };
  std::vector<Line> Lines;
  {
    SiteTable &T = siteTable();
    std::lock_guard<std::mutex> Guard(T.Lock);
    for (auto &Entry : T.Sites) {
      LaunchSite &S = *Entry.second;
      std::lock_guard<std::mutex> RowGuard(S.ProfileLock);
      for (const auto &Row : S.Profile)
        Lines.push_back({S.Where, Row.first, Row.second});
    }
  }
  std::sort(Lines.begin(), Lines.end(), [](const Line &A, const Line &B) {
    if (A.Row.KernelMs != B.Row.KernelMs)
      return A.Row.KernelMs > B.Row.KernelMs;
    return A.Where != B.Where ? A.Where < B.Where : A.Way < B.Way;
  });
  // The data scopes' copies back at their ends (each array a kernel wrote).
  uint64_t Closed = 0, ClosedOut = 0;
  closedScopeTotals(Closed, ClosedOut);
  if (Closed) {
    Line Scopes{"(their ends' copies back)", "data scopes", {}};
    Scopes.Row.Calls = Closed;
    Scopes.Row.BytesOut = ClosedOut;
    Scopes.Row.FirstCallMs = 0;
    Lines.push_back(Scopes);
  }
  std::fprintf(stderr, "sched: profile (SCHED_PROFILE=1): %zu row%s\n", Lines.size(),
               Lines.size() == 1 ? "" : "s");
  std::fprintf(stderr, "sched: %-13s %6s %11s %10s %12s %12s %13s  %s\n", "ran on", "calls",
               "kernel ms", "mean ms", "bytes in", "bytes out", "first call ms", "nest");
  for (const Line &L : Lines) {
    const LaunchSite::ProfileRow &R = L.Row;
    char Kernel[32] = "-", Mean[32] = "-";
    if (R.Timed) {
      std::snprintf(Kernel, sizeof(Kernel), "%.3f", R.KernelMs);
      std::snprintf(Mean, sizeof(Mean), "%.3f", R.KernelMs / double(R.Timed));
    }
    std::string Nest = L.Where + (R.Code.empty() ? "" : " [" + R.Code + "]");
    std::fprintf(stderr, "sched: %-13s %6llu %11s %10s %12llu %12llu %13.3f  %s\n", L.Way.c_str(),
                 static_cast<unsigned long long>(R.Calls), Kernel, Mean,
                 static_cast<unsigned long long>(R.BytesIn),
                 static_cast<unsigned long long>(R.BytesOut), R.FirstCallMs, Nest.c_str());
  }
}

/// The bytes the cuda backend would copy in and out for a launch with Data
/// (each touched buffer's region in, each written one out, but for what a
/// data scope holds, whose copies Scope counts): what sim and emu, which work
/// on the program's arrays in place, report to SCHED_PROFILE.
void copiedBytes(const LaunchPlan &P, const std::vector<void *> &Data, const ScopeTraffic &Scope,
                 uint64_t &In, uint64_t &Out) {
  In = Scope.BytesIn;
  Out = Scope.BytesOut;
  const std::vector<int64_t> Values = P.scalarValues(Data);
  for (size_t I = 0; I < P.Params.size() && I < Data.size(); ++I) {
    if (I < Scope.Mapped.size() && Scope.Mapped[I])
      continue; // a data scope holds it (DataScope.h): counted in Scope
    uintptr_t Begin, End;
    std::string Ignored;
    if (!P.regionBytes(I, Values, Data[I], Begin, End, Ignored))
      continue;
    const uint64_t Bytes = End - Begin;
    if (P.Params[I].Read || P.Params[I].Written)
      In += Bytes;
    if (P.Params[I].Written)
      Out += Bytes;
  }
}

/// SCHED_TIME=1: one line per kernel that ran on sim, emu or cuda, with its
/// time (bench/gpu-check.sh reads them). cuda: CUDA events around the launch
/// (the device's time, without the copies and the launcher's host work);
/// sim and emu: the host clock around the kernel's run on the CPU.
void reportTime(const LaunchSite &S, BackendKind B, double Milliseconds) {
  if (!envFlag("SCHED_TIME"))
    return;
  if (Milliseconds < 0)
    std::fprintf(stderr, "sched: %s: kernel time unavailable on %s (no CUDA event times)\n",
                 S.Where.c_str(), backendName(B));
  else
    std::fprintf(stderr, "sched: %s: kernel time %.4f ms on %s\n", S.Where.c_str(), Milliseconds,
                 backendName(B));
}

double millisecondsSince(std::chrono::steady_clock::time_point Start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - Start)
      .count();
}

/// "N = 13, ld = 5": the values of the parameters P reads, in parameter
/// order, for messages.
std::string valuesOf(const ScalarProgram &P, const LaunchPlan &Plan,
                     const std::vector<int64_t> &Values) {
  std::string Out;
  for (size_t I : P.params())
    if (I < Plan.Params.size() && I < Values.size())
      Out += (Out.empty() ? "" : ", ") + Plan.Params[I].Name + " = " + std::to_string(Values[I]);
  return Out;
}

/// Whether the kernel may run for these arguments: every assumption holds,
/// every pointer its vector accesses use is aligned for them, every grid and
/// block extent is positive, and the launch shape is within CUDA's limits.
/// Sets Why to the first that does not; false with Error set when one cannot
/// be evaluated (the descriptor is then broken: the plugin checked that all
/// are expressions over scalar parameters).
bool mayLaunch(const LaunchPlan &K, const std::vector<void *> &Data, std::string &Why,
               std::string &Error) {
  const std::vector<int64_t> Values = K.scalarValues(Data);
  for (const LaunchPlan::Assumption &A : K.Assumptions) {
    int64_t Holds;
    if (!A.Holds.eval(Values, Holds, Error)) {
      Error = "cannot evaluate the assumption '" + A.Text + "': " + Error;
      return false;
    }
    if (!Holds) {
      Why = "the assumption " + A.Text + " does not hold (" + valuesOf(A.Holds, K, Values) + ")";
      return true;
    }
  }
  for (size_t I = 0; I < K.Params.size() && I < Data.size(); ++I) {
    const LaunchPlan::Param &P = K.Params[I];
    if (P.Alignment && Data[I] &&
        reinterpret_cast<uintptr_t>(Data[I]) % static_cast<uintptr_t>(P.Alignment)) {
      Why = "the kernel's vector accesses need '" + P.Name + "' " +
            std::to_string(P.Alignment) + "-byte aligned, and it is not";
      return true;
    }
  }
  // The kernel assumes its buffers do not overlap where it writes one (the
  // runtime copies each region on its own; CUDA gets __restrict__): where
  // two do, the original loop gives the program's answer.
  struct Range {
    size_t Param;
    bool Written;
    uintptr_t Begin, End;
  };
  std::vector<Range> Ranges;
  for (size_t I = 0; I < K.Params.size() && I < Data.size(); ++I) {
    uintptr_t Begin, End;
    std::string Ignored;
    if (Data[I] && K.regionBytes(I, Values, Data[I], Begin, End, Ignored) && Begin != End)
      Ranges.push_back({I, K.Params[I].Written, Begin, End});
  }
  for (size_t X = 0; X < Ranges.size(); ++X)
    for (size_t Y = X + 1; Y < Ranges.size(); ++Y) {
      const Range &A = Ranges[X], &B = Ranges[Y];
      if ((A.Written || B.Written) && A.Begin < B.End && B.Begin < A.End) {
        Why = "the buffers '" + K.Params[A.Param].Name + "' and '" + K.Params[B.Param].Name +
              "' overlap where the kernel writes " +
              (A.Written && B.Written ? "both" : "one of them") +
              "; the kernel assumes they do not";
        return true;
      }
    }
  static const char *const Axis = "xyz";
  int64_t Extents[2][3]; // grid, block
  for (int D = 0; D < 3; ++D)
    for (bool Grid : {true, false}) {
      const ScalarProgram &E = Grid ? K.Grid[D] : K.Block[D];
      int64_t &Extent = Extents[Grid ? 0 : 1][D];
      if (!E.eval(Values, Extent, Error)) {
        Error = "cannot evaluate the launch geometry: " + Error;
        return false;
      }
      if (Extent < 1) {
        Why = std::string(Grid ? "the grid" : "the block") + " has extent " +
              std::to_string(Extent) + " in " + Axis[D] + " (" +
              (Grid ? K.GridText[D] : K.BlockText[D]) + ")";
        return true;
      }
    }
  Why = ir::launchShapeProblem(Extents[0], Extents[1], K.SharedBytes);
  return true;
}

LaunchResult runSim(LaunchSite &S, const std::vector<void *> &Data, const ScopeTraffic &Scope,
                    std::chrono::steady_clock::time_point CallStart, std::string &Error) {
  std::shared_ptr<const sim::SimProgram> Program;
  {
    std::lock_guard<std::mutex> Guard(S.IRLock);
    const LaunchDescriptor *D = S.descriptor(Error);
    if (!D)
      return LaunchResult::FailedUntouched;
    if (!S.SimCompiled) {
      S.Sim = sim::compileKernel(D->Kernel, S.SimCompileError);
      S.SimCompiled = true;
    }
    Program = S.Sim;
  }
  if (!Program) {
    Error = "cannot simulate: " + S.SimCompileError;
    return LaunchResult::FailedUntouched;
  }
  sim::SimStats Stats;
  // The simulator works on the program's buffers in place: once a block has
  // started, the kernel may have written them.
  auto Start = std::chrono::steady_clock::now();
  if (!sim::runKernel(*Program, Data, sim::SimOptions(), Error, &Stats))
    return Stats.Blocks > 0 ? LaunchResult::Failed : LaunchResult::FailedUntouched;
  double Milliseconds = millisecondsSince(Start);
  std::string Collectives; // only kernels with wmma calls mention them
  if (Stats.Collectives)
    Collectives = ", " + std::to_string(Stats.Collectives) + " warp collectives";
  if (Stats.LdmatrixBankConflicts) // only where there are any
    Collectives += ", " + std::to_string(Stats.LdmatrixBankConflicts) +
                   " ldmatrix bank-conflict wavefronts";
  say(S, "ran on sim",
      "ran on sim (" + std::to_string(Stats.Blocks) + " blocks, " +
          std::to_string(Stats.Threads) + " threads, " + std::to_string(Stats.Barriers) +
          " barriers" + Collectives + ")");
  reportTime(S, BackendKind::Sim, Milliseconds);
  uint64_t In, Out;
  copiedBytes(S.Plan, Data, Scope, In, Out);
  record(S, "sim", Milliseconds, millisecondsSince(CallStart), In, Out);
  return LaunchResult::RanOnBackend;
}

} // namespace

/// After a kernel ran: each variable the nest assigns that is declared
/// outside it gets what the original loop leaves in it (LaunchDescriptor::
/// Finals; their addresses follow the parameters' in Args).
static bool storeFinals(const LaunchSite &S, void *const *Args, std::string &Error) {
  const LaunchPlan &P = S.Plan;
  if (P.Finals.empty())
    return true;
  const std::vector<int64_t> Values = P.scalarValues(paramDataFromArgs(P, Args));
  for (size_t I = 0; I < P.Finals.size(); ++I) {
    const LaunchPlan::Final &F = P.Finals[I];
    void *Target = Args[P.Params.size() + I];
    int64_t When, Value;
    if (!F.When.eval(Values, When, Error) || (When && !F.Value.eval(Values, Value, Error))) {
      Error = "cannot evaluate the final value of '" + F.Name + "': " + Error;
      return false;
    }
    if (!When)
      continue;
    if (!Target) {
      Error = "null address for the final value of '" + F.Name + "'";
      return false;
    }
    ir::writeIntScalar(Target, F.Type, Value);
  }
  return true;
}

static LaunchResult runPrepared(LaunchSite &S, const LaunchPlan &P, std::vector<void *> &Data,
                                const std::vector<void *> &HostData, BackendKind Requested,
                                BackendKind Chosen, bool IsVta, const ScopeTraffic &Scope,
                                std::chrono::steady_clock::time_point CallStart,
                                std::string &Error);

static LaunchResult launchOnBackend(const char *Descriptor, void *const *Args, BackendKind B,
                                    std::string &Where, std::string &Error) {
  if (!Descriptor) {
    Where = "<unknown kernel>";
    Error = "null launch descriptor";
    return LaunchResult::FailedUntouched;
  }
  const auto CallStart = std::chrono::steady_clock::now();
  LaunchSite &S = siteFor(Descriptor);
  Where = S.Where;
  if (!S.ParseError.empty()) {
    Error = "invalid launch descriptor: " + S.ParseError;
    return LaunchResult::FailedUntouched;
  }
  // A target(vta) nest runs on the VTA runtime (ours, over its simulator,
  // is always linked; a board's replaces it) under sim and auto, and as the
  // original loop under host and cuda: a VTA nest has no CUDA kernel, and
  // SCHED_BACKEND=cuda asks for the GPU nests only.
  const bool IsVta = S.Plan.Runner == RunnerKind::VtaProgram;
  // auto: a driver that is missing, cannot initialise or sees no device is
  // all the same, no GPU here.
  std::string NoDevice;
  BackendKind Chosen =
      IsVta ? (B == BackendKind::Auto ? BackendKind::Sim : B)
            : resolveBackend(B, B == BackendKind::Auto && cuda::deviceAvailable(&NoDevice));
  if (Chosen == BackendKind::Host ||
      (IsVta && (Chosen == BackendKind::Cuda || Chosen == BackendKind::Emu))) {
    std::string Note;
    if (Chosen == BackendKind::Cuda)
      Note = " (a target(vta) nest does not run on cuda)";
    else if (Chosen == BackendKind::Emu)
      Note = " (a target(vta) nest does not run on emu)";
    else if (B == BackendKind::Auto)
      Note = " (no usable CUDA device: " + NoDevice + ")";
    say(S, "ran on host" + Note, "ran on host" + Note);
    record(S, "original loop", -1, millisecondsSince(CallStart), 0, 0);
    return host::launch() ? LaunchResult::RanOnBackend : LaunchResult::RunHostLoop;
  }
  const LaunchPlan &P = S.Plan;
  std::vector<void *> Data = paramDataFromArgs(P, Args);
  std::vector<std::vector<uint64_t>> Scratch; // lives until the launch returns
  if (!allocateScratch(P, Data, Scratch, Error))
    return LaunchResult::FailedUntouched;
  // A null buffer (`v.data()` of an empty vector) is fine where the kernel
  // touches none of it: the backends check its region.
  for (size_t I = 0; I < Data.size(); ++I)
    if (!Data[I] && !P.Params[I].IsBuffer) {
      Error = "null argument for parameter '" + P.Params[I].Name + "'";
      return LaunchResult::FailedUntouched;
    }
  std::string Why;
  if (!mayLaunch(P, Data, Why, Error))
    return LaunchResult::FailedUntouched;
  if (!Why.empty()) {
    Error = Why; // for launchKernel, should the original loop be unable to run
    say(S, "original loop: " + Why, "ran the original loop on host: " + Why);
    record(S, "original loop", -1, millisecondsSince(CallStart), 0, 0);
    return LaunchResult::RunHostLoop;
  }
  // Data scopes (DataScope.h): mapped arrays current where the kernel runs;
  // under cuda, Data then holds their device copies.
  const Placement On = Chosen == BackendKind::Cuda ? Placement::Device : Placement::Counted;
  const std::vector<void *> HostData = Data;
  ScopeTraffic Scope;
  if (openScopes() &&
      !prepareLaunch(P, Data, On, On == Placement::Device ? &cuda::deviceMemory() : nullptr, Scope,
                     Error)) {
    Error = "data scope: " + Error;
    return LaunchResult::Failed;
  }
  LaunchResult R = runPrepared(S, P, Data, HostData, B, Chosen, IsVta, Scope, CallStart, Error);
  if (R == LaunchResult::RanOnBackend && openScopes())
    finishLaunch(P, HostData, On);
  return R;
}

/// The launch of S on Chosen once the launcher's checks passed and the data
/// scopes placed Data (HostData: the program's pointers).
static LaunchResult runPrepared(LaunchSite &S, const LaunchPlan &P, std::vector<void *> &Data,
                                const std::vector<void *> &HostData, BackendKind Requested,
                                BackendKind Chosen, bool IsVta, const ScopeTraffic &Scope,
                                std::chrono::steady_clock::time_point CallStart,
                                std::string &Error) {
  if (IsVta) {
    // The regions are copied back only after the program ran without error.
    std::lock_guard<std::mutex> Guard(S.IRLock);
    const LaunchDescriptor *D = S.descriptor(Error);
    if (!D || !runVtaKernel(D->Kernel, S.Vta, Data, Error))
      return LaunchResult::FailedUntouched;
    say(S, "ran on the VTA runtime", "ran on the VTA runtime");
    uint64_t In, Out;
    copiedBytes(P, HostData, Scope, In, Out);
    record(S, "VTA runtime", -1, millisecondsSince(CallStart), In, Out);
    return LaunchResult::RanOnBackend;
  }
  if (Chosen == BackendKind::Sim)
    return runSim(S, Data, Scope, CallStart, Error);
  bool Touched = false;
  if (Chosen == BackendKind::Emu) {
    emu::EmuStats Stats;
    if (!emu::launch(P, S.Emu, Data, Stats, Error, Touched))
      return Touched ? LaunchResult::Failed : LaunchResult::FailedUntouched;
    say(S, "ran on emu",
        "ran on emu (" + std::to_string(Stats.Blocks) + " blocks, " +
            std::to_string(Stats.Threads) + " threads)");
    reportTime(S, BackendKind::Emu, Stats.Milliseconds);
    uint64_t In, Out;
    copiedBytes(P, HostData, Scope, In, Out);
    record(S, "emu", Stats.Milliseconds, millisecondsSince(CallStart), In, Out);
    return LaunchResult::RanOnBackend;
  }
  cuda::LaunchStats Stats;
  // Events only when asked for: they cost a few microseconds.
  Stats.Time = envFlag("SCHED_TIME") || profiling();
  if (!cuda::launch(P, S.Cuda, Data, Error, Touched, &Stats, &Scope.Mapped))
    return Touched ? LaunchResult::Failed : LaunchResult::FailedUntouched;
  const std::string Origin = cuda::kernelOrigin(S.Cuda);
  auto Triple = [](const int64_t E[3]) {
    return std::to_string(E[0]) + "x" + std::to_string(E[1]) + "x" + std::to_string(E[2]);
  };
  say(S, "ran on cuda",
      "ran on cuda (" + Origin + "): grid " + Triple(Stats.Grid) + ", block " +
          Triple(Stats.Block) + ", " + std::to_string(std::max<int64_t>(P.SharedBytes, 0)) +
          " shared bytes" + (Requested == BackendKind::Auto ? "; auto: a CUDA device is here" : ""));
  reportTime(S, BackendKind::Cuda, Stats.KernelMs);
  record(S, "cuda", Stats.KernelMs, millisecondsSince(CallStart), Stats.BytesIn + Scope.BytesIn,
         Stats.BytesOut + Scope.BytesOut, Origin);
  return LaunchResult::RanOnBackend;
}

/// Before the original loop runs on the program's pointers (the launch
/// returned RunHostLoop or FailedUntouched, with Error its reason, if any):
/// not on device memory the host cannot read (under cuda or auto), and inside
/// a data scope with the mapped arrays the nest touches brought back to the
/// host (those it writes are copied to the device again later). False with
/// Error saying why the loop cannot run.
static bool prepareOriginalLoop(const char *Descriptor, void *const *Args, BackendKind B,
                                std::string &Error) {
  if (!Descriptor)
    return true;
  LaunchSite &S = siteFor(Descriptor);
  if (!S.ParseError.empty())
    return true;
  std::vector<void *> Data = paramDataFromArgs(S.Plan, Args);
  if (B == BackendKind::Cuda || B == BackendKind::Auto)
    for (size_t I = 0; I < Data.size(); ++I)
      if (S.Plan.Params[I].IsBuffer && cuda::hostCannotRead(Data[I])) {
        Error = (Error.empty() ? "" : Error + "; ") + "the original loop cannot run instead: '" +
                S.Plan.Params[I].Name + "' is device memory the host cannot read";
        return false;
      }
  if (!openScopes())
    return true;
  ScopeTraffic Scope;
  std::string Why;
  if (!prepareLaunch(S.Plan, Data, Placement::Host, nullptr, Scope, Why)) {
    Error = (Error.empty() ? "" : Error + "; then ") +
            "data scope: cannot bring a mapped array back for the original loop: " + Why;
    return false;
  }
  finishLaunch(S.Plan, Data, Placement::Host);
  return true;
}

LaunchResult launchKernel(const char *Descriptor, void *const *Args, BackendKind B,
                          std::string &Where, std::string &Error) {
  LaunchResult R = launchOnBackend(Descriptor, Args, B, Where, Error);
  if (R == LaunchResult::RanOnBackend && !storeFinals(siteFor(Descriptor), Args, Error))
    return LaunchResult::Failed;
  if ((R == LaunchResult::RunHostLoop || R == LaunchResult::FailedUntouched) &&
      !prepareOriginalLoop(Descriptor, Args, B, Error))
    return LaunchResult::Failed;
  return R;
}

} // namespace runtime
} // namespace sched

namespace {
/// Whether this is the first failure of the nest whose descriptor is at
/// Descriptor (each nest has its own string literal).
bool firstFailureOf(const char *Descriptor) {
  static std::mutex Lock;
  static std::set<const char *> Failed;
  std::lock_guard<std::mutex> Guard(Lock);
  return Failed.insert(Descriptor).second;
}

/// How many varargs follow Descriptor: the parameters' addresses, then the
/// finals' (0 if it does not parse: the launch then fails before reading
/// any).
size_t launchArgCount(const char *Descriptor) {
  if (!Descriptor)
    return 0;
  sched::runtime::LaunchSite &S = sched::runtime::siteFor(Descriptor);
  return S.ParseError.empty() ? S.Plan.Params.size() + S.Plan.Finals.size() : 0;
}
} // namespace

extern "C" int __sched_launch(const char *Descriptor, ...) {
  using namespace sched::runtime;
  const char *BackendEnv = std::getenv("SCHED_BACKEND");
  BackendKind B;
  if (!parseBackendName(BackendEnv, B)) {
    static std::once_flag Reported;
    std::call_once(Reported, [BackendEnv] {
      std::fprintf(stderr, "sched: %s; the annotated loops run as written\n",
                   unknownBackendMessage(BackendEnv).c_str());
    });
    return 0;
  }
  std::vector<void *> Args(launchArgCount(Descriptor), nullptr);
  va_list VA;
  va_start(VA, Descriptor);
  for (void *&Arg : Args)
    Arg = va_arg(VA, void *);
  va_end(VA);
  std::string Where, Error;
  switch (launchKernel(Descriptor, Args.data(), B, Where, Error)) {
  case LaunchResult::RanOnBackend:
    return 1;
  case LaunchResult::RunHostLoop:
    return 0;
  case LaunchResult::FailedUntouched:
    if (firstFailureOf(Descriptor))
      std::fprintf(stderr, "sched: %s: %s; ran the original loop instead\n", Where.c_str(),
                   Error.c_str());
    else if (verboseLevel() == 2)
      std::fprintf(stderr, "sched: %s: ran the original loop on host: %s\n", Where.c_str(),
                   Error.c_str());
    return 0;
  case LaunchResult::Failed:
    break;
  }
  std::fprintf(stderr, "sched: %s: %s\n", Where.c_str(), Error.c_str());
  std::abort();
}
