//===- Interpreter.cpp - Running simulator bytecode with GPU semantics ----===//
//
// runKernel walks the grid block by block. Within a block every thread runs
// from its saved pc until it reaches a barrier or finishes; when all have, the
// barrier phase ends and the waiting threads go on. So the threads of a block
// run in lockstep phases, as __syncthreads orders them, with no coroutines:
// a thread is its pc, its registers and its local memory.
//
// Memory stays proportional to one block: the register files and local
// memory of its threads plus its shared memory, reused by the next block
// (and the race detector's global shadow, proportional to what is written).
// Every access is bounds-checked; shared and global accesses also go through
// the race detector. Shared: per element, the last writer and up to two
// readers of the current barrier phase. Global: per element of every buffer
// the kernel writes, the last write and two reads (GlobalCell), kept for the
// whole launch (blocks run one after another, and no two blocks are ordered)
// in pages allocated on first touch. Local memory is private to a thread and
// buffers the kernel only reads cannot race, so the detector tracks neither.
//
// The initialization check (compute-sanitizer's initcheck): a shared element
// is initialized when any thread or warp of the block has written it, which
// the race detector's cell of the element already tells: its last write's
// epoch is of this block (the cells are kept, writes only, with the detector
// off). A thread's local element has a flag byte, after the thread's local
// data. Storage semantics, as the emitted CUDA has them: a shared buffer is
// the block's one `__shared__` array, declared at the kernel's top, so it is
// uninitialized when a block starts and an allocation inside a loop keeps
// what earlier iterations wrote (a double-buffered stage reads the other
// stage's last fill); a local buffer is a C++ array declared where the
// allocation is, a new object each time it is entered, so a thread's flags
// for it are cleared on every entry (a value carried over from an earlier
// iteration is indeterminate in C++, and nvcc may keep the array in
// registers). Global memory is not checked: parameters are host data, and a
// global temporary is shared by the grid. A read of an uninitialized shared
// element may be a race instead: the element's writer may be a thread that
// runs later in the same phase, with no barrier between. So the reading
// thread (or warp) stops there, the others run to the end of the phase, and
// the read is reported then, unless the race detector reports the write
// first. A local read is reported at once (no other thread can write it).
//
// Warp collectives (the wmma intrinsics): a lane reaching one suspends with
// its pc on it, like a barrier but for its warp (32 consecutive linear thread
// ids). Once every running thread has stopped, each warp whose lanes all
// wait at the same collective with equal arguments runs it once and its
// lanes go on; a warp with only some lanes there (others at a barrier, at
// another collective, or finished) is an error, as the hardware would hang or
// be undefined. Fragments (wmma-scope buffers) are per-warp matrices of
// values with a defined flag per element; a collective's memory tile is
// bounds-checked per element and recorded by the race detector as accessed
// by the whole warp (an accessor id after the block's threads), so a write
// by any thread that no barrier orders against it is a race.
//
// Warpgroup collectives (the wgmma family) are the same over 128 threads
// (4 consecutive warps, the group's first warp standing for it: its fragment
// copy and its accessor id). wgmma.mma computes at once, but PTX makes it
// asynchronous, so the simulator enforces the rules that make that the
// same: a wgmma.fence between any other access to the group's accumulators
// (fill, store, the block's start) and a wgmma.mma; no fill or store of an
// accumulator that a wgmma.mma not yet waited for (commit, then wait) writes;
// no barrier and no block end with a wgmma in flight (its shared operands
// could be refilled under it).
//
// The epoch names a (block, barrier phase) pair: the block's position in the
// launch in the high bits, its phase in the low bits. So one comparison tells
// whether an earlier access was in another block (epoch below the block's
// first) or in the current phase (equal epochs).
//
//===----------------------------------------------------------------------===//

#include "Bytecode.h"
#include "ScalarEval.h"
#include "ir/Kernel.h"
#include "ir/LaunchLimits.h"
#include "ir/MathFunctions.h"
#include "ir/Printer.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <tuple>
#include <unordered_map>

namespace sched {
namespace sim {

using namespace ir;

namespace {

/// What the race detector and the initialization check follow of a buffer.
enum class AccessCheck : uint8_t {
  None,   // both off, a fragment (whose cells have their own flags), or a
          // global buffer the kernel only reads
  Local,  // initialization: a flag per element of each thread's copy
  Shared, // per element (ShadowCell): races within the current barrier phase
          // of a block, and the last write's epoch for the initialization check
  Global  // races, per element, over the whole launch
};

/// A buffer's storage for one launch.
struct RtBuffer {
  char *Base = nullptr;     // global/shared: the data; local: null
  int64_t LocalOffset = 0;  // local: byte offset in a thread's local memory
  int64_t Min = 0;          // first valid index (a parameter's region may
                            // start below its pointer)
  int64_t Extent = 0;       // elements from Min, for the bounds check
  int64_t ShadowBase = -1;  // shared: first race-detector cell; global: its
                            // GlobalShadow
  int64_t FragOffset = 0;   // fragment: first cell in FragValues (warp 0's copy)
  int64_t FlagOffset = 0;   // local: byte offset of its first initialization
                            // flag in a thread's local memory
  bool IsLocal = false;
  bool IsShared = false;
  bool IsFragment = false;
  AccessCheck Check = AccessCheck::None; // one test per access on the hot path
};

/// Race-detector state of one shared element in the current barrier phase.
/// WriteEpoch, the epoch of the last write, is kept with the detector off
/// too: the element is initialized in this block when it is of this block.
struct ShadowCell {
  uint64_t WriteEpoch = 0, ReadEpoch = 0;
  int32_t Writer = -1, Reader1 = -1, Reader2 = -1;
  int32_t WriterPc = 0, Reader1Pc = 0, Reader2Pc = 0;
};

/// One access the global race detector remembers: its epoch (block and
/// phase), the instruction, the accessor in the block (a thread, or a warp
/// after the block's threads: below 2^15) and how many tickets the thread
/// had taken in the launch before it (Op::Ticket releases the accesses
/// before it only).
struct GlobalAccess {
  /// Never accessed: compares neither below a block's first epoch nor equal
  /// to the current one, so it conflicts with nothing.
  static constexpr uint64_t None = ~uint64_t(0);
  uint64_t Epoch = None;
  int32_t Pc = 0;
  int16_t Thread = 0;
  uint16_t Tickets = 0;
};

/// Race-detector state of one global element over a whole launch (64 bytes):
/// the last write, and the reads a later write may still conflict with - a
/// read of an earlier block (kept for good: no later block is ordered after
/// it), else the first read of the current phase, and a second reader of the
/// current phase. Two reads are needed because a lane waiting at a warp
/// collective lets other threads run in the middle of its phase: it may
/// read, wait while another thread reads, then write; any write conflicts
/// with at least one of two distinct readers.
struct GlobalCell {
  GlobalAccess Write;
  GlobalAccess Read;
  GlobalAccess Read2; // of the current phase only, by another thread than Read
  GlobalAccess Atomic; // the last atomic update (sched.atomic_*)
};

/// The shadow of one tracked global buffer: pages of cells, allocated when an
/// element of the page is first touched, so memory follows the touched part
/// of the region.
struct GlobalShadow {
  static constexpr int PageBits = 10;
  static constexpr int64_t PageMask = (int64_t(1) << PageBits) - 1;
  std::vector<std::unique_ptr<GlobalCell[]>> Pages;

  GlobalCell &cell(int64_t Index) {
    std::unique_ptr<GlobalCell[]> &Page = Pages[Index >> PageBits];
    if (!Page)
      Page.reset(new GlobalCell[PageMask + 1]);
    return Page[Index & PageMask];
  }
};

/// Stopped: at a read of an uninitialized shared element, reported when the
/// phase ends unless a race is found first.
enum class ThreadStatus : uint8_t { Running, AtBarrier, AtCollective, Done, Failed, Stopped };

/// The first read of an uninitialized shared element in a barrier phase.
struct UninitializedRead {
  int32_t Buf = -1; // -1: none
  int64_t Index = 0;
  int32_t Accessor = 0; // a thread, or a warp collective (see accessorText)
  int32_t Pc = 0;
};

constexpr int64_t WarpSize = 32;

struct ThreadState {
  int32_t Pc = 0;
  ThreadStatus Status = ThreadStatus::Running;
};


inline int64_t wrap32(uint64_t V) { return static_cast<int32_t>(static_cast<uint32_t>(V)); }

/// Float to integer like CUDA's cvt.rzi: truncate, saturate, NaN gives 0.
int64_t floatToInt(double V, DType T) {
  if (std::isnan(V))
    return 0;
  double Lo, Hi;
  switch (T) {
  case DType::Bool: return V != 0;
  case DType::Int8: Lo = -128; Hi = 127; break;
  case DType::UInt8: Lo = 0; Hi = 255; break;
  case DType::Int16: Lo = -32768; Hi = 32767; break;
  case DType::Int32: Lo = -2147483648.0; Hi = 2147483647.0; break;
  case DType::UInt16: Lo = 0; Hi = 65535; break;
  case DType::UInt32: Lo = 0; Hi = 4294967295.0; break;
  case DType::UInt64: // held as its bits
    V = std::trunc(std::min(std::max(V, 0.0), 18446744073709549568.0));
    return static_cast<int64_t>(static_cast<uint64_t>(V));
  default: Lo = -9223372036854775808.0; Hi = 9223372036854774784.0; break;
  }
  V = std::trunc(V);
  return static_cast<int64_t>(std::min(std::max(V, Lo), Hi));
}

/// V (of integer dtype From) rounded to float dtype T, once, like C.
double intToFloat(int64_t V, DType From, DType T) {
  if (From == DType::UInt64) {
    uint64_t U = static_cast<uint64_t>(V);
    if (T == DType::Float32)
      return static_cast<float>(U);
    if (T == DType::Float16)
      return roundToHalf(static_cast<double>(static_cast<float>(U)));
    return static_cast<double>(U);
  }
  if (T == DType::Float32)
    return static_cast<float>(V);
  if (T == DType::Float16)
    return roundToHalf(static_cast<double>(static_cast<float>(V)));
  return static_cast<double>(V);
}

std::string tripleText(int64_t X, int64_t Y, int64_t Z) {
  return "(" + std::to_string(X) + "," + std::to_string(Y) + "," + std::to_string(Z) + ")";
}

/// One launch of a program: geometry, buffers, and the block being run.
class Launch {
public:
  Launch(const SimProgram &P, const std::vector<void *> &ParamData, const SimOptions &Opts,
         std::string &Error, SimStats &Stats)
      : P(P), ParamData(ParamData), Opts(Opts), Error(Error), Stats(Stats) {}

  bool run() {
    if (!setUp())
      return false;
    uint64_t Linear = 0;
    for (int64_t Z = 0; Z < Grid[2]; ++Z)
      for (int64_t Y = 0; Y < Grid[1]; ++Y)
        for (int64_t X = 0; X < Grid[0]; ++X)
          if (!runBlock(X, Y, Z, Linear++))
            return false;
    return true;
  }

private:
  //===--------------------------------------------------------------------===//
  // Set-up: geometry, buffer storage, the preset register image.
  //===--------------------------------------------------------------------===//

  bool fail(const std::string &Message) {
    Error = Message;
    return false;
  }

  bool setUp() {
    const LoopNest &N = P.Kernel.Kernel;
    if (ParamData.size() != N.Params.size())
      return fail("the kernel has " + std::to_string(N.Params.size()) + " parameters but " +
                  std::to_string(ParamData.size()) + " arguments were given");
    // A buffer argument may be null when the kernel touches none of it
    // (`v.data()` of an empty vector): setUpBuffers checks its region.
    for (size_t I = 0; I < ParamData.size(); ++I)
      if (!ParamData[I] && N.Params[I].ParamKind == Param::Kind::Scalar)
        return fail("argument for parameter '" + N.Params[I].name() + "' is null");
    Env.bindParams(N, ParamData);
    return setUpGeometry() && setUpBuffers() && setUpPresets();
  }

  bool setUpGeometry() {
    const LaunchGeometry &G = P.Kernel.Geometry;
    static const char *Axis = "xyz";
    for (int D = 0; D < 3; ++D) {
      std::string Why;
      if (!runtime::evalInt(G.Grid[D], Env, Grid[D], Why))
        return fail(std::string("cannot evaluate the grid extent in ") + Axis[D] + ": " + Why);
      if (!runtime::evalInt(G.Block[D], Env, Block[D], Why))
        return fail(std::string("cannot evaluate the block extent in ") + Axis[D] + ": " + Why);
      if (Grid[D] < 0 || Block[D] < 1)
        return fail("bad launch geometry: grid " + tripleText(Grid[0], Grid[1], Grid[2]) +
                    ", block " + tripleText(Block[0], Block[1], Block[2]));
    }
    // The launcher runs the original loop for a shape no device takes
    // (runtime/Launch.cpp, mayLaunch); a caller of runKernel gets an error.
    std::string Problem = launchShapeProblem(Grid, Block, staticSharedBytes(P.Kernel.Kernel));
    if (!Problem.empty())
      return fail(Problem);
    NumThreads = Block[0] * Block[1] * Block[2];
    // Epochs: (block position + 1) above PhaseBits, the phase below; the
    // grid limits keep the block count under 2^63, and 2^31 blocks still
    // leave 32 bits of phases.
    uint64_t Blocks = uint64_t(Grid[0]) * uint64_t(Grid[1]) * uint64_t(Grid[2]);
    int BlockBits = 0;
    while (BlockBits < 64 && (Blocks >> BlockBits) != 0)
      ++BlockBits;
    PhaseBits = 63 - BlockBits;
    return true;
  }

  bool setUpBuffers() {
    int64_t SharedBytes = 0, GlobalTempBytes = 0, ShadowCells = 0, FragCells = 0;
    Bufs.resize(P.Buffers.size());
    std::vector<int64_t> Offsets(P.Buffers.size(), 0);
    for (size_t I = 0; I < P.Buffers.size(); ++I) {
      const BufferInfo &Info = P.Buffers[I];
      RtBuffer &B = Bufs[I];
      std::string Why;
      if (!runtime::evalInt(Info.SizeExpr, Env, B.Extent, Why))
        return fail("cannot evaluate the size of buffer '" + Info.Name + "': " + Why);
      if (B.Extent < 0)
        return fail("buffer '" + Info.Name + "' has negative size " + std::to_string(B.Extent));
      if (Info.MinExpr && !runtime::evalInt(Info.MinExpr, Env, B.Min, Why))
        return fail("cannot evaluate the first index of buffer '" + Info.Name + "': " + Why);
      int64_t Bytes = (B.Extent * dtypeBytes(Info.Type) + 15) / 16 * 16;
      if (Info.ParamIndex >= 0) {
        B.Base = static_cast<char *>(ParamData[Info.ParamIndex]);
        if (!B.Base && B.Extent > 0)
          return fail("argument for parameter '" + Info.Name + "' is null, but the kernel " +
                      "touches " + std::to_string(B.Extent) + " of its elements");
      } else if (Info.isFragment()) {
        B.IsFragment = true;
        B.FragOffset = FragCells;
        FragCells += B.Extent * numWarps();
      } else if (Info.MemScope == Scope::Local) {
        B.IsLocal = true;
        B.LocalOffset = LocalBytes;
        LocalBytes += Bytes;
        B.FlagOffset = LocalElements;
        LocalElements += B.Extent;
        if (Opts.CheckInit)
          B.Check = AccessCheck::Local;
      } else if (Info.MemScope == Scope::Shared) {
        B.IsShared = true;
        Offsets[I] = SharedBytes;
        SharedBytes += Bytes;
        B.ShadowBase = ShadowCells;
        ShadowCells += B.Extent;
        if (Opts.DetectRaces || Opts.CheckInit)
          B.Check = AccessCheck::Shared;
      } else {
        Offsets[I] = GlobalTempBytes;
        GlobalTempBytes += Bytes;
      }
      // Only a buffer the kernel writes can race (stores to one its region
      // marks read-only do not compile).
      if (Opts.DetectRaces && !B.IsLocal && !B.IsShared && !B.IsFragment && Info.Writable) {
        B.Check = AccessCheck::Global;
        B.ShadowBase = static_cast<int64_t>(GlobalShadows.size());
        GlobalShadows.emplace_back();
        GlobalShadows.back().Pages.resize(
            static_cast<size_t>((B.Extent + GlobalShadow::PageMask) >> GlobalShadow::PageBits));
      }
    }
    // A thread's local initialization flags follow its local data, where
    // the interpreter finds them from the pointer to its local memory it
    // holds anyway; stores set them even with the check off, untested.
    LocalDataBytes = LocalBytes;
    for (RtBuffer &B : Bufs)
      if (B.IsLocal)
        B.FlagOffset += LocalDataBytes;
    LocalBytes += (LocalElements + 15) / 16 * 16;
    if (LocalBytes * NumThreads + SharedBytes + FragCells * 9 > (int64_t(1) << 32))
      return fail("the kernel's local, shared and fragment memory do not fit the simulator");
    FragValues.assign(FragCells, Slot{0});
    FragDefined.assign(FragCells, 0);
    Shared.assign(SharedBytes, 0);
    GlobalTemp.assign(GlobalTempBytes, 0);
    Local.assign(LocalBytes * NumThreads, 0);
    for (size_t I = 0; I < P.Buffers.size(); ++I) {
      if (Bufs[I].IsShared)
        Bufs[I].Base = Shared.data() + Offsets[I];
      else if (P.Buffers[I].ParamIndex < 0 && !Bufs[I].IsLocal && !Bufs[I].IsFragment)
        Bufs[I].Base = GlobalTemp.data() + Offsets[I];
    }
    if (Opts.DetectRaces || Opts.CheckInit)
      Shadow.assign(ShadowCells, ShadowCell());
    return true;
  }

  bool setUpPresets() {
    NumRegs = P.numRegs();
    Preset.assign(NumRegs, Slot{0});
    int32_t Base = P.NumTemps + NumThreadTags;
    const LoopNest &N = P.Kernel.Kernel;
    for (size_t I = 0; I < P.ScalarParams.size(); ++I) {
      const Param &Pm = N.Params[P.ScalarParams[I]];
      const void *Data = ParamData[P.ScalarParams[I]];
      Slot &S = Preset[Base + I];
      if (isFloat(Pm.Scalar->Type))
        S.F = runtime::readFloatScalar(Data, Pm.Scalar->Type);
      else
        S.I = runtime::readIntScalar(Data, Pm.Scalar->Type);
    }
    Base += static_cast<int32_t>(P.ScalarParams.size());
    for (size_t I = 0; I < P.Constants.size(); ++I)
      Preset[Base + I] = P.Constants[I];
    Regs.assign(static_cast<size_t>(NumRegs) * NumThreads, Slot{0});
    Threads.assign(NumThreads, ThreadState());
    return true;
  }

  //===--------------------------------------------------------------------===//
  // Blocks and barrier phases
  //===--------------------------------------------------------------------===//

  bool runBlock(int64_t BX, int64_t BY, int64_t BZ, uint64_t Linear) {
    BlockIdx[0] = BX;
    BlockIdx[1] = BY;
    BlockIdx[2] = BZ;
    BlockEpoch = Epoch = (Linear + 1) << PhaseBits;
    Acquired.clear();
    TicketsTaken.assign(NumThreads, 0);
    ++Stats.Blocks;
    // Poison fresh memory so a kernel that reads before it writes shows up as
    // a wrong answer rather than a lucky zero.
    std::fill(Shared.begin(), Shared.end(), 0xff);
    std::fill(Local.begin(), Local.end(), 0xff);
    for (int64_t T = 0; T < NumThreads; ++T)
      std::fill_n(Local.begin() + T * LocalBytes + LocalDataBytes, LocalBytes - LocalDataBytes, 0);
    for (int64_t T = 0; T < NumThreads; ++T) {
      Slot *R = Regs.data() + T * NumRegs;
      std::copy(Preset.begin(), Preset.end(), R);
      int64_t Tid[3] = {T % Block[0], (T / Block[0]) % Block[1], T / (Block[0] * Block[1])};
      for (int D = 0; D < 3; ++D) {
        R[P.NumTemps + BlockX + D].I = BlockIdx[D];
        R[P.NumTemps + ThreadX + D].I = Tid[D];
      }
      Threads[T] = ThreadState();
    }
    Pending.assign(NumThreads, {});
    Committed.assign(NumThreads, 0);
    InFlight.clear();
    Warpgroups.assign(static_cast<size_t>((NumThreads + 127) / 128), WarpgroupState());
    Stats.Threads += NumThreads;
    // A block's fragments start undefined.
    std::fill(FragDefined.begin(), FragDefined.end(), 0);
    for (;;) {
      // One phase: each thread in turn runs to its barrier, a warp collective
      // or its end; then the warps whose lanes all wait at a collective run
      // it and go on, until every thread is at the barrier or done.
      bool Resumed;
      do {
        for (int64_t T = 0; T < NumThreads; ++T) {
          ThreadState &TS = Threads[T];
          if (TS.Status != ThreadStatus::Running)
            continue;
          execute(static_cast<int32_t>(T), TS);
          if (TS.Status == ThreadStatus::Failed)
            return false;
        }
        Resumed = false;
        if (!P.Collectives.empty() && !runWaitingCollectives(Resumed))
          return false;
      } while (Resumed);
      // The phase ran as far as it can with no race found: a stopped
      // thread's read was of an element nothing wrote.
      if (Uninitialized.Buf >= 0)
        return reportUninitialized(Uninitialized.Buf, Uninitialized.Index,
                                   Uninitialized.Accessor, Uninitialized.Pc);
      int32_t BarrierPc = -1;
      for (int64_t T = 0; T < NumThreads; ++T) {
        const ThreadState &TS = Threads[T];
        if (TS.Status != ThreadStatus::AtBarrier)
          continue;
        if (BarrierPc >= 0 && BarrierPc != TS.Pc)
          return fail("threads of block " + blockText() + " wait at different barriers "
                      "(thread " + threadText(static_cast<int32_t>(T)) + " at another one "
                      "than the threads before it): divergent __syncthreads");
        BarrierPc = TS.Pc;
      }
      if (!noWgmmaInFlight(BarrierPc < 0 ? "ends" : "reaches a barrier"))
        return false;
      if (BarrierPc < 0)
        return true; // every thread finished
      if ((Opts.DetectRaces || Opts.CheckInit) &&
          ((Epoch + 1) >> PhaseBits) != (BlockEpoch >> PhaseBits))
        return fail("block " + blockText() + " has more than " +
                    std::to_string(uint64_t(1) << PhaseBits) +
                    " barrier phases, more than the race detector and the initialization "
                    "check tell apart in a grid of " +
                    std::to_string(uint64_t(Grid[0]) * uint64_t(Grid[1]) * uint64_t(Grid[2])) +
                    " blocks");
      ++Epoch;       // a new phase: earlier accesses of the block are ordered
      ++Stats.Barriers;
      for (ThreadState &TS : Threads)
        if (TS.Status == ThreadStatus::AtBarrier)
          TS.Status = ThreadStatus::Running;
    }
  }

  //===--------------------------------------------------------------------===//
  // Warp collectives
  //===--------------------------------------------------------------------===//

  int64_t numWarps() const { return (NumThreads + WarpSize - 1) / WarpSize; }

  /// With no thread running: runs the collective of each warp some lane of
  /// which waits at one, after checking that the whole warp waits there with
  /// equal arguments. Resumed is set when a warp went on. A warp with a lane
  /// stopped at an uninitialized read waits for the report at the phase's
  /// end, and so does one whose collective reads an uninitialized element.
  bool runWaitingCollectives(bool &Resumed) {
    for (int64_t W = 0; W < numWarps(); ++W) {
      int64_t First = W * WarpSize, End = std::min(First + WarpSize, NumThreads);
      int64_t Waiting = -1;
      bool Stopped = false;
      for (int64_t T = First; T < End; ++T) {
        if (Threads[T].Status == ThreadStatus::AtCollective && Waiting < 0)
          Waiting = T;
        Stopped |= Threads[T].Status == ThreadStatus::Stopped;
      }
      if (Waiting < 0 || Stopped)
        continue;
      int32_t Pc = Threads[Waiting].Pc;
      const Inst &I = P.Code[Pc];
      const CollectiveSite &Site = P.Collectives[I.Aux];
      std::string Where = " in block " + blockText() + ", warp " + std::to_string(W) + ": " +
                          siteText(Pc);
      if (NumThreads % Site.Threads != 0)
        return fail(std::string(Site.Threads == WarpSize ? "warp collective with a partial warp"
                                                         : "warpgroup collective with a partial "
                                                           "warpgroup") +
                    ": the block has " + std::to_string(NumThreads) + " threads, not a multiple of " +
                    std::to_string(Site.Threads) + Where);
      if (Site.Threads != WarpSize) {
        // The whole warpgroup: its first warp stands for it; its other warps
        // are done with when it is.
        int64_t Group = First / Site.Threads;
        First = Group * Site.Threads;
        End = First + Site.Threads;
        W = First / WarpSize;
        Where = " in block " + blockText() + ", warpgroup " + std::to_string(Group) + ": " +
                siteText(Pc);
        bool GroupStopped = false;
        for (int64_t T = First; T < End; ++T)
          GroupStopped |= Threads[T].Status == ThreadStatus::Stopped;
        if (GroupStopped) {
          W = End / WarpSize - 1;
          continue;
        }
      }
      const Slot *Args = Regs.data() + Waiting * NumRegs + I.A;
      for (int64_t T = First; T < End; ++T) {
        const ThreadState &TS = Threads[T];
        std::string Lane = "thread " + threadText(static_cast<int32_t>(T)) + " (lane " +
                           std::to_string(T - First) + ")";
        if (TS.Status == ThreadStatus::AtCollective && TS.Pc != Pc)
          return fail(std::string(Site.Threads == WarpSize ? "divergent warp" : "divergent warpgroup") +
                      " at a collective: " + Lane + " waits at another one (" +
                      siteText(TS.Pc) + ") than thread " +
                      threadText(static_cast<int32_t>(Waiting)) + Where);
        if (TS.Status != ThreadStatus::AtCollective)
          return fail(std::string(Site.Threads == WarpSize ? "partial warp" : "partial warpgroup") +
                      " at a collective: " + Lane +
                      (TS.Status == ThreadStatus::Done ? " has finished"
                                                       : " waits at a barrier") +
                      " while thread " + threadText(static_cast<int32_t>(Waiting)) +
                      " waits at the collective" + Where);
        const Slot *Mine = Regs.data() + T * NumRegs + I.A;
        for (int A = 0; A < Site.NumArgs; ++A)
          if (Mine[A].I != Args[A].I)
            return fail("non-uniform arguments at a collective: the " +
                        collectiveArgName(Site, A) + " of " + Lane + " differs from thread " +
                        threadText(static_cast<int32_t>(Waiting)) + "'s" + Where);
      }
      CollectiveReadUninitialized = false;
      if (!(Site.Threads == WarpSize ? runCollective(Site, Args, W, Pc)
                                     : runWarpgroupCollective(Site, Args, W, Pc, Where)))
        return false;
      ++Stats.Collectives;
      for (int64_t T = First; T < End; ++T) {
        Threads[T].Pc = Pc + 1;
        Threads[T].Status =
            CollectiveReadUninitialized ? ThreadStatus::Stopped : ThreadStatus::Running;
      }
      Resumed |= !CollectiveReadUninitialized;
      W = (End - 1) / WarpSize;
    }
    return true;
  }

  static std::string collectiveArgName(const CollectiveSite &S, int A) {
    static const char *Fill[] = {"fragment index", "fill value"};
    static const char *Wgmma[] = {"D fragment index", "A index", "lda", "B index", "ldb"};
    if (S.Ctl != WgmmaControl::None)
      return "count";
    if (S.Family == TensorFamily::Wgmma && S.Op == WmmaOp::Mma)
      return Wgmma[A];
    static const char *Move[] = {"fragment index", "memory index", "ld"};
    static const char *Mma[] = {"D fragment index", "A fragment index", "B fragment index",
                                "C fragment index"};
    if (S.Op == WmmaOp::Fill)
      return Fill[A];
    return S.Op == WmmaOp::Mma ? Mma[A] : Move[A];
  }

  /// Warp W's copy of fragment buffer Buf's fragment at flat index Index
  /// (Rows x Cols): the offset of its first cell, or -1 (Error set).
  int64_t fragmentCells(int32_t Buf, int64_t Index, int64_t Rows, int64_t Cols, int64_t W,
                        const std::string &Where) {
    const RtBuffer &B = Bufs[Buf];
    int64_t Size = Rows * Cols;
    if (Index < 0 || Index % Size != 0 || Index + Size > B.Extent) {
      fail("fragment index " + std::to_string(Index) + " of '" + P.Buffers[Buf].Name +
           "' (" + std::to_string(B.Extent) + " elements) is not the start of a whole " +
           std::to_string(Rows) + "x" + std::to_string(Cols) + " fragment inside it" + Where);
      return -1;
    }
    return B.FragOffset + W * B.Extent + Index;
  }

  /// LanesPerCell: an mma-family fragment, whose cells are the lanes'
  /// registers (reported as such), not the matrix's elements.
  bool checkDefined(int32_t Buf, int64_t Cells, int64_t Rows, int64_t Cols, int64_t Index,
                    const std::string &Where, int LaneRegisters = 0) {
    int64_t PerLane = Rows * Cols / (LaneRegisters ? LaneRegisters : WarpSize);
    for (int64_t E = 0; E < Rows * Cols; ++E)
      if (!FragDefined[Cells + E])
        return fail("fragment '" + P.Buffers[Buf].Name + "' at index " + std::to_string(Index) +
                    " is read before it is written (" +
                    (LaneRegisters ? "register element " + std::to_string(E % PerLane) +
                                         (LaneRegisters == WarpSize ? " of lane " : " of thread ") +
                                         std::to_string(E / PerLane)
                                   : "element (" + std::to_string(E / Cols) + ", " +
                                         std::to_string(E % Cols) + ")") +
                    " was never filled, loaded or computed)" + Where);
    return true;
  }

  /// The race and initialization checks of a collective's access (by the
  /// warp, Accessor) to element Index of memory buffer Buf, global or
  /// shared. False (Error set) on a race; a read of an uninitialized shared
  /// element is recorded and stops the warp after the collective
  /// (CollectiveReadUninitialized).
  bool collectiveAccess(int32_t Buf, int64_t Index, int32_t Accessor, int32_t Pc, bool IsWrite) {
    switch (Bufs[Buf].Check) {
    case AccessCheck::Shared: {
      if (!InFlight.empty() && touchesInFlight(Buf, Index, Accessor, Pc, IsWrite))
        return false;
      ThreadStatus S = checkShared(Buf, Index, Accessor, Pc, IsWrite);
      CollectiveReadUninitialized |= S == ThreadStatus::Stopped;
      return S != ThreadStatus::Failed;
    }
    case AccessCheck::Global:
      return checkGlobal(Buf, Index, Accessor, Pc, IsWrite);
    default: // not a local buffer: collectives touch global or shared memory only
      return true;
    }
  }

  /// warp.shfl_xor for warp W (the whole warp takes part: the caller checked
  /// that every lane waits here): lane L's local element D takes the value
  /// of lane L ^ mask's element S, read before any lane's D is written (D
  /// may be S), each read checked for initialization like the lane's own.
  bool runShuffle(const CollectiveSite &S, const Slot *Args, int64_t W, int32_t Pc,
                  const std::string &Where) {
    const RtBuffer &D = Bufs[S.Frag[0]], &Src = Bufs[S.Frag[1]];
    const DType DT = P.Buffers[S.Frag[0]].Type, ST = P.Buffers[S.Frag[1]].Type;
    int64_t DIndex = Args[0].I, SIndex = Args[1].I, Mask = Args[2].I;
    if (DT != ST)
      return fail("'warp.shfl_xor' moves " + std::string(dtypeName(ST)) + " into " +
                  dtypeName(DT) + Where);
    if (static_cast<uint64_t>(DIndex) >= static_cast<uint64_t>(D.Extent) ||
        static_cast<uint64_t>(SIndex) >= static_cast<uint64_t>(Src.Extent))
      return fail("out-of-bounds local element in 'warp.shfl_xor'" + Where);
    const int64_t First = W * WarpSize;
    Slot Values[WarpSize];
    for (int64_t Lane = 0; Lane < WarpSize; ++Lane) {
      const int64_t From = First + (Lane ^ Mask);
      const char *Mem = Local.data() + From * LocalBytes;
      if (!Mem[Src.FlagOffset + SIndex] && Src.Check == AccessCheck::Local)
        return reportUninitialized(S.Frag[1], SIndex, static_cast<int32_t>(From), Pc);
      Values[Lane] = loadElement(Mem + Src.LocalOffset, SIndex, ST);
    }
    for (int64_t Lane = 0; Lane < WarpSize; ++Lane) {
      char *Mem = Local.data() + (First + Lane) * LocalBytes;
      Mem[D.FlagOffset + DIndex] = 1;
      storeElement(Mem + D.LocalOffset, DIndex, DT, Values[Lane]);
    }
    return true;
  }

  /// Runs one collective for warp W with the lanes' common arguments.
  bool runCollective(const CollectiveSite &S, const Slot *Args, int64_t W, int32_t Pc) {
    std::string Where =
        " in block " + blockText() + ", warp " + std::to_string(W) + ": " + siteText(Pc);
    if (S.Shuffle)
      return runShuffle(S, Args, W, Pc, Where);
    // A fill sets every cell, in either family's arrangement of them.
    if (S.Family == TensorFamily::Mma && S.Op != WmmaOp::Fill)
      return runMmaSync(S, Args, W, Pc, Where);
    if (S.Op == WmmaOp::Mma)
      return runMma(S, Args, W, Where);
    int32_t Frag = S.Frag[0];
    int64_t Rows, Cols;
    wmmaFragmentShape(P.Buffers[Frag].MemScope, S.M, S.N, S.K, Rows, Cols);
    int64_t Cells = fragmentCells(Frag, Args[0].I, Rows, Cols, W, Where);
    if (Cells < 0)
      return false;
    if (S.Op == WmmaOp::Fill) {
      std::fill(FragValues.begin() + Cells, FragValues.begin() + Cells + Rows * Cols, Args[1]);
      std::fill(FragDefined.begin() + Cells, FragDefined.begin() + Cells + Rows * Cols, 1);
      return true;
    }
    bool IsStore = S.Op == WmmaOp::Store;
    if (IsStore && !checkDefined(Frag, Cells, Rows, Cols, Args[0].I, Where))
      return false;
    // The memory tile: alignment and stride (CUDA guide and PTX), then each
    // element bounds- and race-checked.
    const BufferInfo &Info = P.Buffers[S.Memory];
    const RtBuffer &B = Bufs[S.Memory];
    int64_t Bytes = dtypeBytes(Info.Type), Ptr = Args[1].I, Ld = Args[2].I;
    int64_t Offset = Ptr * Bytes;
    int64_t StartAlign = tileStartAlignment(S.Family, S.Op);
    if (((Offset % StartAlign) + StartAlign) % StartAlign != 0)
      return fail("misaligned wmma tile: element " + std::to_string(Ptr) + " of '" + Info.Name +
                  "' is " + std::to_string(Offset) + " bytes from its start, not a multiple " +
                  "of " + std::to_string(StartAlign) + Where);
    int64_t LaneBytes = wmmaLaneFragmentBytes(P.Buffers[Frag].MemScope, Info.Type, Rows, Cols);
    int64_t RowLength = S.Layout == WmmaRowMajor ? Cols : Rows;
    if ((Ld * Bytes) % tileStrideAlignment(S.Family, S.Op, P.Buffers[Frag].MemScope, Info.Type,
                                           Rows, Cols) != 0 ||
        Ld < RowLength)
      return fail("bad ldm " + std::to_string(Ld) + " for a " + std::to_string(Rows) + "x" +
                  std::to_string(Cols) + " " + dtypeName(Info.Type) + " tile of '" + Info.Name +
                  "': it must be at least " + std::to_string(RowLength) +
                  " and ldm*sizeof(T) a multiple of 16 bytes and of the " +
                  std::to_string(LaneBytes) + "-byte per-lane fragment (PTX)" + Where);
    int32_t Accessor = static_cast<int32_t>(NumThreads + W);
    for (int64_t R = 0; R < Rows; ++R)
      for (int64_t C = 0; C < Cols; ++C) {
        int64_t Index =
            Info.Swizzle.apply(S.Layout == WmmaRowMajor ? Ptr + R * Ld + C : Ptr + C * Ld + R);
        if (static_cast<uint64_t>(Index - B.Min) >= static_cast<uint64_t>(B.Extent))
          return fail(std::string("out-of-bounds wmma tile ") + (IsStore ? "store to" : "load from") +
                      " " + scopeName(Info.MemScope) + " buffer '" + Info.Name + "' at index " +
                      std::to_string(Index) + " (extent " + std::to_string(B.Extent) +
                      ", tile element (" + std::to_string(R) + ", " + std::to_string(C) + "))" +
                      Where);
        if (!collectiveAccess(S.Memory, Index, Accessor, Pc, IsStore))
          return false;
        int64_t Cell = Cells + R * Cols + C;
        if (IsStore) {
          storeElement(B.Base, Index, Info.Type, FragValues[Cell]);
        } else {
          FragValues[Cell] = loadElement(B.Base, Index, Info.Type);
          FragDefined[Cell] = 1;
        }
      }
    return true;
  }

  /// The first cells of an mma's D, A, B and C fragments for warp W, the
  /// inputs checked to be defined.
  bool mmaOperandCells(const CollectiveSite &S, const Slot *Args, int64_t W,
                       const std::string &Where, int64_t Cells[4]) {
    for (int O = 0; O < 4; ++O) {
      int64_t Rows, Cols;
      wmmaFragmentShape(P.Buffers[S.Frag[O]].MemScope, S.M, S.N, S.K, Rows, Cols);
      Cells[O] = fragmentCells(S.Frag[O], Args[O].I, Rows, Cols, W, Where);
      if (Cells[O] < 0 || (O > 0 && !checkDefined(S.Frag[O], Cells[O], Rows, Cols, Args[O].I, Where,
                                                  S.Family == TensorFamily::Mma ? WarpSize : 0)))
        return false;
    }
    return true;
  }

  /// D = A*B + C, each (i, j) summed in ascending k: fp16 products are exact
  /// in fp32 and each addition rounds to fp32 (the plain C++ loop's order),
  /// int8 products are summed in int32 with two's complement wrap-around.
  /// Computed into a temporary, as D may be C.
  bool runMma(const CollectiveSite &S, const Slot *Args, int64_t W, const std::string &Where) {
    int64_t Cells[4];
    if (!mmaOperandCells(S, Args, W, Where, Cells))
      return false;
    const Slot *A = &FragValues[Cells[1]], *B = &FragValues[Cells[2]], *C = &FragValues[Cells[3]];
    bool IsFloat = P.Buffers[S.Frag[3]].Type == DType::Float32;
    std::vector<Slot> D(S.M * S.N);
    for (int64_t I = 0; I < S.M; ++I)
      for (int64_t J = 0; J < S.N; ++J) {
        if (IsFloat) {
          float Acc = static_cast<float>(C[I * S.N + J].F);
          for (int64_t K = 0; K < S.K; ++K) {
            float Product = static_cast<float>(A[I * S.K + K].F) * static_cast<float>(B[K * S.N + J].F);
            Acc = Acc + Product;
          }
          D[I * S.N + J].F = Acc;
        } else {
          uint32_t Acc = static_cast<uint32_t>(C[I * S.N + J].I);
          for (int64_t K = 0; K < S.K; ++K)
            Acc += static_cast<uint32_t>(A[I * S.K + K].I * B[K * S.N + J].I);
          D[I * S.N + J].I = wrap32(Acc);
        }
      }
    std::copy(D.begin(), D.end(), FragValues.begin() + Cells[0]);
    std::fill(FragDefined.begin() + Cells[0], FragDefined.begin() + Cells[0] + S.M * S.N, 1);
    return true;
  }

  //===--------------------------------------------------------------------===//
  // The mma.sync family, lane by lane
  //===--------------------------------------------------------------------===//

  /// An mma.* collective (ir::TensorFamily::Mma) as the PTX ISA specifies it
  /// per lane: a fragment's cells are the warp's registers, cell L*R + i
  /// being register element i of lane L (R = ir::mmaLaneElements), whose
  /// place in the matrix is ir::mmaLaneElement. Loads of A and B are
  /// ldmatrix, load_c and store move each lane's own elements.
  bool runMmaSync(const CollectiveSite &S, const Slot *Args, int64_t W, int32_t Pc,
                  const std::string &Where) {
    if (S.Op == WmmaOp::Mma)
      return runMmaSyncMma(S, Args, W, Where);
    int32_t Frag = S.Frag[0];
    Scope Sc = P.Buffers[Frag].MemScope;
    int64_t Rows, Cols;
    wmmaFragmentShape(Sc, S.M, S.N, S.K, Rows, Cols);
    int64_t Cells = fragmentCells(Frag, Args[0].I, Rows, Cols, W, Where);
    if (Cells < 0)
      return false;
    int64_t PerLane = mmaLaneElements(Sc);
    bool IsStore = S.Op == WmmaOp::Store;
    if (IsStore && !checkDefined(Frag, Cells, Rows, Cols, Args[0].I, Where, WarpSize))
      return false;
    const BufferInfo &Info = P.Buffers[S.Memory];
    const RtBuffer &B = Bufs[S.Memory];
    int64_t Ptr = Args[1].I, Ld = Args[2].I, Bytes = dtypeBytes(Info.Type);
    // Tile elements in row-major order, then where they live (a swizzled
    // stage: every aligned 16-byte row of ldmatrix stays whole).
    auto ElementAt = [&](int64_t Row, int64_t Col) {
      return Info.Swizzle.apply(S.Layout == WmmaRowMajor ? Ptr + Row * Ld + Col
                                                         : Ptr + Col * Ld + Row);
    };
    // Bounds and races, the tile recorded as touched by the whole warp (as
    // for wmma: InjectThreadSync orders collectives per warp).
    int32_t Accessor = static_cast<int32_t>(NumThreads + W);
    auto Touch = [&](int64_t Index, int64_t Lane, bool IsWrite) {
      if (static_cast<uint64_t>(Index - B.Min) >= static_cast<uint64_t>(B.Extent))
        return fail(std::string("out-of-bounds mma tile ") +
                    (IsWrite ? "store to" : "load from") + " " + scopeName(Info.MemScope) +
                    " buffer '" + Info.Name + "' at index " + std::to_string(Index) + " (extent " +
                    std::to_string(B.Extent) + ", lane " + std::to_string(Lane) + ")" + Where);
      return collectiveAccess(S.Memory, Index, Accessor, Pc, IsWrite);
    };
    if (S.Op == WmmaOp::LoadA || S.Op == WmmaOp::LoadB) {
      // ldmatrix: lanes 8j..8j+7 give the rows of matrix j (16 aligned
      // bytes each); register j of lane L gets row L/4, columns 2(L%4) and
      // 2(L%4)+1 of matrix j, or with .trans those of its transpose.
      int64_t Count = ldmatrixCount(Sc);
      bool Trans = ldmatrixTransposes(Sc, S.Layout);
      Slot Mats[4][8][8];
      int64_t RowStart[4][8];
      for (int64_t Lane = 0; Lane < 8 * Count; ++Lane) {
        int64_t Row, Col;
        ldmatrixLaneRow(Sc, S.Layout, Lane, Row, Col);
        int64_t Start = ElementAt(Row, Col);
        RowStart[Lane / 8][Lane % 8] = Start;
        if (((Start * Bytes) % 16 + 16) % 16 != 0)
          return fail("misaligned ldmatrix row: lane " + std::to_string(Lane) + " gives element " +
                      std::to_string(Start) + " of '" + Info.Name + "', " +
                      std::to_string(Start * Bytes) +
                      " bytes from its start, not a multiple of 16 (each row is 16 aligned bytes)" +
                      Where);
        for (int64_t C = 0; C < 8; ++C) {
          if (!Touch(Start + C, Lane, false))
            return false;
          Mats[Lane / 8][Lane % 8][C] = loadElement(B.Base, Start + C, Info.Type);
        }
      }
      if (Info.MemScope == Scope::Shared)
        for (int64_t J = 0; J < Count; ++J)
          Stats.LdmatrixBankConflicts += bankConflicts(RowStart[J], Bytes);
      for (int64_t Lane = 0; Lane < WarpSize; ++Lane) {
        for (int64_t J = 0; J < Count; ++J)
          for (int64_t H = 0; H < 2; ++H) {
            int64_t R = Lane / 4, C = 2 * (Lane % 4) + H;
            FragValues[Cells + Lane * PerLane + 2 * J + H] = Trans ? Mats[J][C][R] : Mats[J][R][C];
          }
        if (Opts.LaneRegistersHook) {
          std::vector<double> Regs(PerLane);
          for (int64_t I = 0; I < PerLane; ++I)
            Regs[I] = FragValues[Cells + Lane * PerLane + I].F;
          Opts.LaneRegistersHook(Sc, Lane, Regs);
          for (int64_t I = 0; I < PerLane; ++I)
            FragValues[Cells + Lane * PerLane + I].F = roundToHalf(Regs[I]);
        }
      }
      std::fill(FragDefined.begin() + Cells, FragDefined.begin() + Cells + Rows * Cols, 1);
      return true;
    }
    // load_c / store: lane L's element i at its (row, col) of the tile.
    for (int64_t Lane = 0; Lane < WarpSize; ++Lane)
      for (int64_t I = 0; I < PerLane; ++I) {
        int64_t Row, Col;
        mmaLaneElement(Sc, Lane, I, Row, Col);
        int64_t Index = ElementAt(Row, Col), Cell = Cells + Lane * PerLane + I;
        if (!Touch(Index, Lane, IsStore))
          return false;
        if (IsStore) {
          storeElement(B.Base, Index, Info.Type, FragValues[Cell]);
        } else {
          FragValues[Cell] = loadElement(B.Base, Index, Info.Type);
          FragDefined[Cell] = 1;
        }
      }
    return true;
  }

  /// The wavefronts beyond one that 8 rows of 16 bytes (their first
  /// elements Starts, of Bytes each) take: per 4-byte bank, the number of
  /// distinct words the rows touch in it, the largest of them, minus one.
  static uint64_t bankConflicts(const int64_t *Starts, int64_t Bytes) {
    int64_t Words[32][8];
    int Count[32] = {};
    for (int R = 0; R < 8; ++R)
      for (int64_t W = 0; W < 4; ++W) {
        int64_t Word = Starts[R] * Bytes / 4 + W, Bank = ((Word % 32) + 32) % 32;
        bool Seen = false;
        for (int I = 0; I < Count[Bank]; ++I)
          Seen |= Words[Bank][I] == Word;
        if (!Seen)
          Words[Bank][Count[Bank]++] = Word;
      }
    int Most = 1;
    for (int C : Count)
      Most = std::max(Most, C);
    return static_cast<uint64_t>(Most - 1);
  }

  /// mma.sync m16n8k16: each lane's d_i, at (row, col) of D, from the
  /// registers of the lanes that hold row `row` of A and column `col` of B,
  /// summed in ascending k with fp32 rounding after each addition (the
  /// plain loop's order; fp16 products are exact in fp32). Into a
  /// temporary, as D may be C.
  bool runMmaSyncMma(const CollectiveSite &S, const Slot *Args, int64_t W,
                     const std::string &Where) {
    int64_t Cells[4];
    if (!mmaOperandCells(S, Args, W, Where, Cells))
      return false;
    // Which cell (lane * elements + i) holds each element of A and B.
    int64_t APos[16][16], BPos[16][8];
    for (int64_t Lane = 0; Lane < WarpSize; ++Lane) {
      int64_t Row, Col;
      for (int64_t I = 0; I < mmaLaneElements(Scope::WmmaMatrixA); ++I) {
        mmaLaneElement(Scope::WmmaMatrixA, Lane, I, Row, Col);
        APos[Row][Col] = Lane * mmaLaneElements(Scope::WmmaMatrixA) + I;
      }
      for (int64_t I = 0; I < mmaLaneElements(Scope::WmmaMatrixB); ++I) {
        mmaLaneElement(Scope::WmmaMatrixB, Lane, I, Row, Col);
        BPos[Row][Col] = Lane * mmaLaneElements(Scope::WmmaMatrixB) + I;
      }
    }
    const Slot *A = &FragValues[Cells[1]], *B = &FragValues[Cells[2]], *C = &FragValues[Cells[3]];
    int64_t PerLane = mmaLaneElements(Scope::WmmaAccumulator);
    std::vector<Slot> D(WarpSize * PerLane);
    for (int64_t Lane = 0; Lane < WarpSize; ++Lane)
      for (int64_t I = 0; I < PerLane; ++I) {
        int64_t Row, Col;
        mmaLaneElement(Scope::WmmaAccumulator, Lane, I, Row, Col);
        float Acc = static_cast<float>(C[Lane * PerLane + I].F);
        for (int64_t K = 0; K < S.K; ++K) {
          float Product = static_cast<float>(A[APos[Row][K]].F) * static_cast<float>(B[BPos[K][Col]].F);
          Acc = Acc + Product;
        }
        D[Lane * PerLane + I].F = Acc;
      }
    std::copy(D.begin(), D.end(), FragValues.begin() + Cells[0]);
    std::fill(FragDefined.begin() + Cells[0], FragDefined.begin() + Cells[0] + D.size(), 1);
    return true;
  }

  //===--------------------------------------------------------------------===//
  // The wgmma family, per warpgroup
  //===--------------------------------------------------------------------===//

  /// What a warpgroup's wgmma instructions left in flight: the accumulator
  /// cells each wgmma.mma writes, with its commit group (-1: not committed).
  struct InFlightMma {
    int64_t Cells, Count;
    int64_t Group;
    int32_t Pc;
  };
  struct WarpgroupState {
    bool NeedsFence = true; // its registers were touched since the last wgmma.fence
    int64_t NextGroup = 0;
    std::vector<InFlightMma> Mmas;
  };
  std::vector<WarpgroupState> Warpgroups;

  /// False (Error set) when some warpgroup has a wgmma in flight as the
  /// block What ("reaches a barrier", "ends").
  bool noWgmmaInFlight(const char *What) {
    for (size_t G = 0; G < Warpgroups.size(); ++G)
      if (!Warpgroups[G].Mmas.empty())
        return fail("block " + blockText() + " " + What + " while warpgroup " + std::to_string(G) +
                    " has a wgmma.mma_async in flight (" + siteText(Warpgroups[G].Mmas.front().Pc) +
                    "): wait for it (wgmma.commit, wgmma.wait) first, as its shared operands may "
                    "be overwritten and its accumulators are undefined until then");
    return true;
  }

  /// One warpgroup collective for the group whose first warp is W.
  bool runWarpgroupCollective(const CollectiveSite &S, const Slot *Args, int64_t W, int32_t Pc,
                              const std::string &Where) {
    WarpgroupState &G = Warpgroups[static_cast<size_t>(W * WarpSize / 128)];
    switch (S.Ctl) {
    case WgmmaControl::Fence:
      G.NeedsFence = false;
      return true;
    case WgmmaControl::Commit:
      for (InFlightMma &M : G.Mmas)
        if (M.Group < 0)
          M.Group = G.NextGroup;
      ++G.NextGroup;
      return true;
    case WgmmaControl::Wait: {
      // Complete the oldest committed groups until at most Args[0] remain.
      std::vector<int64_t> Groups;
      for (const InFlightMma &M : G.Mmas)
        if (M.Group >= 0 && std::find(Groups.begin(), Groups.end(), M.Group) == Groups.end())
          Groups.push_back(M.Group);
      std::sort(Groups.begin(), Groups.end());
      int64_t Keep = Args[0].I;
      if (static_cast<int64_t>(Groups.size()) > Keep) {
        int64_t Last = Groups[Groups.size() - Keep - 1];
        G.Mmas.erase(std::remove_if(G.Mmas.begin(), G.Mmas.end(),
                                    [&](const InFlightMma &M) { return M.Group >= 0 && M.Group <= Last; }),
                     G.Mmas.end());
      }
      return true;
    }
    case WgmmaControl::None:
      break;
    }
    int32_t Frag = S.Frag[0];
    int64_t Rows = S.M, Cols = S.N, PerThread = Rows * Cols / 128;
    int64_t Cells = fragmentCells(Frag, Args[0].I, Rows, Cols, W, Where);
    if (Cells < 0)
      return false;
    for (const InFlightMma &M : G.Mmas)
      if (S.Op != WmmaOp::Mma && M.Cells < Cells + Rows * Cols && Cells < M.Cells + M.Count)
        return fail(std::string(S.Op == WmmaOp::Fill ? "write to" : "read of") + " accumulator '" +
                    P.Buffers[Frag].Name + "' at index " + std::to_string(Args[0].I) +
                    " while a wgmma.mma_async that writes it is in flight (" + siteText(M.Pc) +
                    "; wgmma.commit and wgmma.wait first)" + Where);
    if (S.Op == WmmaOp::Fill) {
      std::fill(FragValues.begin() + Cells, FragValues.begin() + Cells + Rows * Cols, Args[1]);
      std::fill(FragDefined.begin() + Cells, FragDefined.begin() + Cells + Rows * Cols, 1);
      G.NeedsFence = true;
      return true;
    }
    if (!checkDefined(Frag, Cells, Rows, Cols, Args[0].I, Where, 128))
      return false;
    int32_t Accessor = static_cast<int32_t>(NumThreads + W);
    auto Touch = [&](int32_t Buf, int64_t Index, bool IsWrite, const std::string &What) {
      const RtBuffer &B = Bufs[Buf];
      if (static_cast<uint64_t>(Index - B.Min) >= static_cast<uint64_t>(B.Extent))
        return fail("out-of-bounds wgmma " + What + " " + scopeName(P.Buffers[Buf].MemScope) +
                    " buffer '" + P.Buffers[Buf].Name + "' at index " + std::to_string(Index) +
                    " (extent " + std::to_string(B.Extent) + ")" + Where);
      return collectiveAccess(Buf, Index, Accessor, Pc, IsWrite);
    };
    if (S.Op == WmmaOp::Store) {
      const BufferInfo &Info = P.Buffers[S.Memory];
      int64_t Ptr = Args[1].I, Ld = Args[2].I;
      for (int64_t T = 0; T < 128; ++T)
        for (int64_t I = 0; I < PerThread; ++I) {
          int64_t Row, Col;
          wgmmaLaneElement(T, I, Row, Col);
          int64_t Index = Info.Swizzle.apply(S.Layout == WmmaRowMajor ? Ptr + Row * Ld + Col
                                                                      : Ptr + Col * Ld + Row);
          if (!Touch(S.Memory, Index, true, "store to"))
            return false;
          storeElement(Bufs[S.Memory].Base, Index, Info.Type, FragValues[Cells + T * PerThread + I]);
        }
      G.NeedsFence = true;
      return true;
    }
    // wgmma.mma: D += A * B^T, A (m x k) and B (n x k) K-major tiles of
    // shared stages in PTX's canonical swizzled layout.
    if (G.NeedsFence)
      return fail("wgmma.mma_async on accumulator '" + P.Buffers[Frag].Name + "' at index " +
                  std::to_string(Args[0].I) + " without a wgmma.fence since the warpgroup's " +
                  "registers were last accessed by other instructions" + Where);
    std::vector<float> A(S.M * S.K), B(S.N * S.K);
    for (int Op = 0; Op < 2; ++Op) {
      int32_t Buf = Op == 0 ? S.Memory : S.MemoryB;
      const BufferInfo &Info = P.Buffers[Buf];
      int64_t Ptr = Args[1 + 2 * Op].I, Ld = Args[2 + 2 * Op].I, TileRows = Op == 0 ? S.M : S.N;
      const char *Name = Op == 0 ? "A" : "B";
      if (!hasWgmmaLayout(Info.Swizzle, Ld))
        return fail(std::string("wgmma operand ") + Name + " ('" + Info.Name + "', rows " +
                    std::to_string(Ld) + " elements apart) is not in PTX's canonical K-major " +
                    "layout: rows of 16, 32 or 64 halves with the swizzle of that width" + Where);
      int64_t Offset = Ptr - Bufs[Buf].Min;
      if (Offset % 8 != 0 || (Offset / Ld) % 8 != 0 || Offset % Ld + S.K > Ld)
        return fail(std::string("misaligned wgmma operand ") + Name + ": element " +
                    std::to_string(Ptr) + " of '" + Info.Name + "' is not 16-byte aligned on " +
                    "the first of 8 rows with its k16 inside one row" + Where);
      for (int64_t R = 0; R < TileRows; ++R)
        for (int64_t K = 0; K < S.K; ++K) {
          int64_t Index = Info.Swizzle.apply(Ptr + R * Ld + K);
          if (!Touch(Buf, Index, false, "read from"))
            return false;
          (Op == 0 ? A : B)[R * S.K + K] =
              static_cast<float>(loadElement(Bufs[Buf].Base, Index, Info.Type).F);
        }
    }
    // Each thread's d_i at its (row, col), in ascending k with fp32 rounding
    // after each addition (the plain loop's order).
    for (int64_t T = 0; T < 128; ++T)
      for (int64_t I = 0; I < PerThread; ++I) {
        int64_t Row, Col;
        wgmmaLaneElement(T, I, Row, Col);
        Slot &D = FragValues[Cells + T * PerThread + I];
        float Acc = static_cast<float>(D.F);
        for (int64_t K = 0; K < S.K; ++K)
          Acc = Acc + A[Row * S.K + K] * B[Col * S.K + K];
        D.F = Acc;
      }
    G.Mmas.push_back({Cells, Rows * Cols, -1, Pc});
    return true;
  }

  std::string blockText() const { return tripleText(BlockIdx[0], BlockIdx[1], BlockIdx[2]); }

  /// The coordinates of the block an epoch belongs to.
  std::string blockTextOf(uint64_t AnEpoch) const {
    uint64_t Linear = (AnEpoch >> PhaseBits) - 1;
    uint64_t GX = uint64_t(Grid[0]), GY = uint64_t(Grid[1]);
    return tripleText(int64_t(Linear % GX), int64_t(Linear / GX % GY), int64_t(Linear / GX / GY));
  }

  std::string threadText(int32_t T) const {
    return tripleText(T % Block[0], (T / Block[0]) % Block[1], T / (Block[0] * Block[1]));
  }

  /// Who made an access the race detector recorded: a thread, or (an id
  /// after the block's threads) a warp collective, which counts as all the
  /// warp's lanes.
  std::string accessorText(int32_t A) const {
    if (A < NumThreads)
      return "thread " + threadText(A);
    int64_t W = A - NumThreads;
    return "warp " + std::to_string(W) + " (threads " + threadText(int32_t(W * WarpSize)) +
           " to " + threadText(int32_t(std::min((W + 1) * WarpSize, NumThreads) - 1)) + ")";
  }

  std::string siteText(int32_t Pc) const {
    const AccessSite &S = P.Sites[Pc];
    auto Trimmed = [](std::string Text) {
      while (!Text.empty() && (Text.back() == '\n' || Text.back() == ' '))
        Text.pop_back();
      return Text;
    };
    if (S.Load && S.Statement)
      return print(S.Load) + " in `" + Trimmed(print(S.Statement)) + "`";
    if (S.Load)
      return print(S.Load);
    return S.Statement ? Trimmed(print(S.Statement)) : std::string();
  }

  //===--------------------------------------------------------------------===//
  // Errors raised while a thread runs (cold paths)
  //===--------------------------------------------------------------------===//

  /// An access by thread T to a shared element a cp.async is writing: an
  /// error (the copy lands at its issuer's wait, so what is read or written
  /// now is undefined). True when it is one.
  bool touchesInFlight(int32_t Buf, int64_t Index, int32_t T, int32_t Pc, bool IsWrite) {
    auto It = InFlight.find(flightKey(Buf, Index));
    if (It == InFlight.end())
      return false;
    int32_t Issuer = It->second;
    const PendingCopy *Copy = nullptr;
    for (const PendingCopy &C : Pending[Issuer])
      if (C.DstBuf == Buf && C.Dst <= Index && Index < C.Dst + C.Count)
        Copy = &C;
    fail(std::string(IsWrite ? "write to" : "read of") + " shared buffer '" +
         P.Buffers[Buf].Name + "' at index " + std::to_string(Index) + " by thread " +
         threadText(T) + " of block " + blockText() + " while a cp.async to it is in flight " +
         "(issued by thread " + threadText(Issuer) + (Copy ? ": " + siteText(Copy->Pc) : "") +
         "; it lands when that thread waits for its group, and other threads see it after a "
         "barrier that follows the wait): " + siteText(Pc));
    return true;
  }

  bool issueAsyncCopy(const Inst &I, int32_t T, int32_t Pc, const Slot *R) {
    const RtBuffer &D = Bufs[I.Aux], &S = Bufs[I.Target];
    int64_t Dst = R[I.A].I, Src = R[I.B].I, N = I.D;
    for (auto [Buf, Index, Store] : {std::tuple<int32_t, int64_t, bool>{I.Aux, Dst, true},
                                     std::tuple<int32_t, int64_t, bool>{I.Target, Src, false}}) {
      const RtBuffer &B = Bufs[Buf];
      if (Index - B.Min < 0 || Index - B.Min + N > B.Extent) {
        fail(std::string("out-of-bounds cp.async ") + (Store ? "to" : "from") + " " +
             scopeName(P.Buffers[Buf].MemScope) + " buffer '" + P.Buffers[Buf].Name +
             "' at indices " + std::to_string(Index) + ".." + std::to_string(Index + N - 1) +
             " (extent " + std::to_string(B.Extent) + ") in block " + blockText() + ", thread " +
             threadText(T) + ": " + siteText(Pc));
        return false;
      }
      if (Index % N != 0) {
        fail("misaligned cp.async " + std::string(Store ? "to" : "from") + " '" +
             P.Buffers[Buf].Name + "' at index " + std::to_string(Index) + " (a copy of " +
             std::to_string(N * dtypeBytes(P.Buffers[Buf].Type)) +
             " bytes must start on a multiple of its size) in block " + blockText() +
             ", thread " + threadText(T) + ": " + siteText(Pc));
        return false;
      }
    }
    if (S.Check == AccessCheck::Global)
      for (int64_t E = 0; E < N; ++E)
        if (!checkGlobal(I.Target, Src + E, T, Pc, false))
          return false;
    for (int64_t E = 0; E < N; ++E) {
      if (touchesInFlight(I.Aux, Dst + E, T, Pc, true))
        return false;
      InFlight[flightKey(I.Aux, Dst + E)] = T;
    }
    (void)D;
    Pending[T].push_back({I.Aux, I.Target, Dst, Src, N, Committed[T], Pc});
    return true;
  }

  /// Lands every copy of thread T in a group below Groups (its wait):
  /// the shared stores happen now, checked like any other.
  bool completeAsyncCopies(int32_t T, int32_t Pc, int64_t Groups) {
    std::vector<PendingCopy> &List = Pending[T];
    std::vector<PendingCopy> Left;
    for (const PendingCopy &C : List) {
      if (C.Group >= Groups) {
        Left.push_back(C);
        continue;
      }
      const RtBuffer &D = Bufs[C.DstBuf], &S = Bufs[C.SrcBuf];
      DType Type = P.Buffers[C.DstBuf].Type;
      for (int64_t E = 0; E < C.Count; ++E) {
        InFlight.erase(flightKey(C.DstBuf, C.Dst + E));
        if (D.Check == AccessCheck::Shared &&
            checkShared(C.DstBuf, C.Dst + E, T, C.Pc, true) == ThreadStatus::Failed)
          return false;
        storeElement(D.Base, C.Dst + E, Type, loadElement(S.Base, C.Src + E, Type));
      }
    }
    List = std::move(Left);
    (void)Pc;
    return true;
  }

  void outOfBounds(int32_t T, int32_t Pc, bool IsStore, int64_t Index) {
    const Inst &I = P.Code[Pc];
    const BufferInfo &Info = P.Buffers[I.Aux];
    fail(std::string("out-of-bounds ") + (IsStore ? "store to" : "load from") + " " +
         scopeName(Info.MemScope) + " buffer '" + Info.Name + "' at index " +
         std::to_string(Index) + " (extent " + std::to_string(Bufs[I.Aux].Extent) +
         ") in block " + blockText() + ", thread " + threadText(T) + ": " + siteText(Pc));
  }

  void threadLoopTooLong(int32_t T, int32_t Pc, int64_t Extent) {
    const Inst &I = P.Code[Pc];
    const auto *F = as<ForNode>(P.Sites[Pc].Statement);
    int Dim = I.Aux % 3;
    int64_t Size = I.Aux < ThreadX ? Grid[Dim] : Block[Dim];
    fail("loop '" + (F ? F->LoopVar->Name : std::string("?")) + "' bound to " +
         (F ? F->ThreadTag : std::string("?")) + " has extent " + std::to_string(Extent) +
         " but the launch has only " + std::to_string(Size) + " there: iterations would be lost");
  }

  /// The only IntOp C leaves undefined: a shift count outside [0, bits).
  void shiftOutOfRange(int32_t T, int32_t, int64_t Count, DType Type) {
    fail("shift count " + std::to_string(Count) + " out of range for " + dtypeName(Type) +
         " in block " + blockText() + ", thread " + threadText(T));
  }

  /// A read (by a thread or, Accessor after the block's threads, a warp
  /// collective) of an element of a shared or local buffer that nothing
  /// wrote. Returns false.
  bool reportUninitialized(int32_t Buf, int64_t Index, int32_t Accessor, int32_t Pc) {
    const BufferInfo &Info = P.Buffers[Buf];
    bool IsLocal = Info.MemScope == Scope::Local;
    return fail(std::string("uninitialized read of ") + scopeName(Info.MemScope) + " buffer '" +
                Info.Name + "' at index " + std::to_string(Index) + " in kernel '" +
                P.Kernel.Kernel.Name + "', block " + blockText() + ", " + accessorText(Accessor) +
                ": " +
                (IsLocal ? "the thread has not written it since entering its allocation"
                         : "no thread of the block has written it") +
                " (" + siteText(Pc) + ")");
  }

  void divisionByZero(int32_t T, int32_t Pc) {
    fail("integer division by zero in block " + blockText() + ", thread " + threadText(T));
  }

  /// A race between an earlier access (FirstEpoch: of the current phase or,
  /// for a global buffer, of an earlier block) and one of this block now.
  /// Both forms begin "race on <scope> buffer 'B' at index I in kernel 'K'".
  void reportRace(int32_t Buf, int64_t Index, uint64_t FirstEpoch, int32_t FirstThread,
                  int32_t FirstPc, bool FirstWrites, int32_t SecondThread, int32_t SecondPc,
                  bool SecondWrites) {
    const BufferInfo &Info = P.Buffers[Buf];
    std::string Head = std::string("race on ") + scopeName(Info.MemScope) + " buffer '" +
                       Info.Name + "' at index " + std::to_string(Index) + " in kernel '" +
                       P.Kernel.Kernel.Name + "'";
    auto Access = [&](int32_t Thread, int32_t Pc, bool Writes) {
      return accessorText(Thread) + (Writes ? " writes" : " reads") + " it (" + siteText(Pc) + ")";
    };
    if (FirstEpoch >= BlockEpoch) {
      fail(Head + ", block " + blockText() + ": " + Access(FirstThread, FirstPc, FirstWrites) +
           " and " + Access(SecondThread, SecondPc, SecondWrites) +
           " with no barrier between them");
      return;
    }
    fail(Head + ": block " + blockTextOf(FirstEpoch) + ", " +
         Access(FirstThread, FirstPc, FirstWrites) + " and block " + blockText() + ", " +
         Access(SecondThread, SecondPc, SecondWrites) +
         "; threads of different blocks are never ordered within a launch");
  }

  /// Records a shared access by accessor T (a thread or a warp): Running
  /// to go on, Failed (Error set) on a race, Stopped at a read of an element
  /// nothing in the block has written (Uninitialized records the phase's
  /// first, reported when the phase ends).
  ThreadStatus checkShared(int32_t Buf, int64_t Index, int32_t T, int32_t Pc, bool IsWrite) {
    ShadowCell &C = Shadow[Bufs[Buf].ShadowBase + Index];
    // Races first: a read recorded lets a later write by another thread
    // of the phase be reported as the race it is, not as a missing write.
    if (Opts.DetectRaces) {
      if (C.WriteEpoch == Epoch && C.Writer != T) {
        reportRace(Buf, Index, Epoch, C.Writer, C.WriterPc, true, T, Pc, IsWrite);
        return ThreadStatus::Failed;
      }
      if (!IsWrite) {
        if (C.ReadEpoch != Epoch) {
          C.ReadEpoch = Epoch;
          C.Reader1 = T;
          C.Reader1Pc = Pc;
          C.Reader2 = -1;
        } else if (C.Reader1 != T && C.Reader2 < 0) {
          C.Reader2 = T;
          C.Reader2Pc = Pc;
        }
      } else if (C.ReadEpoch == Epoch) {
        if (C.Reader1 != T) {
          reportRace(Buf, Index, Epoch, C.Reader1, C.Reader1Pc, false, T, Pc, true);
          return ThreadStatus::Failed;
        }
        if (C.Reader2 >= 0 && C.Reader2 != T) {
          reportRace(Buf, Index, Epoch, C.Reader2, C.Reader2Pc, false, T, Pc, true);
          return ThreadStatus::Failed;
        }
      }
    }
    if (IsWrite) {
      C.WriteEpoch = Epoch;
      C.Writer = T;
      C.WriterPc = Pc;
    } else if (Opts.CheckInit && C.WriteEpoch < BlockEpoch) { // no write in this block
      if (Uninitialized.Buf < 0)
        Uninitialized = {Buf, Index, T, Pc};
      return ThreadStatus::Stopped;
    }
    return ThreadStatus::Running;
  }

  /// Whether access A (of this block or an earlier one) and an access by
  /// thread T now are unordered: A is of another block, or of this phase and
  /// another thread.
  bool unordered(const GlobalAccess &A, int32_t T) const {
    if (A.Epoch < BlockEpoch)
      return Acquired.empty() || !acquiredBefore(A, T);
    return A.Epoch == Epoch && A.Thread != T;
  }

  /// The record of an access by accessor T at Pc now.
  GlobalAccess accessNow(int32_t T, int32_t Pc) const {
    GlobalAccess A;
    A.Epoch = Epoch;
    A.Pc = Pc;
    A.Thread = static_cast<int16_t>(T);
    A.Tickets = T < NumThreads ? TicketsTaken[T] : 0;
    return A;
  }

  /// Whether access A of an earlier block is ordered before thread T now by
  /// a release of that block this block acquired (Op::Ticket).
  bool acquiredBefore(const GlobalAccess &A, int32_t T) const {
    for (const Acquisition &Q : Acquired) {
      if (Epoch <= Q.AtEpoch && T != Q.ByThread)
        continue; // another thread's, not yet passed on by a barrier
      auto Counter = Released.find(Q.Key);
      auto It = Counter->second.find(A.Epoch >> PhaseBits);
      if (It == Counter->second.end())
        continue;
      const Release &R = It->second;
      if (A.Epoch < R.Epoch ||
          (A.Epoch == R.Epoch && A.Thread == R.Thread && A.Tickets <= R.Tickets))
        return true;
    }
    return false;
  }

  /// Op::Ticket's ordering by thread T on counter element Key: releases,
  /// then acquires every release of the counter so far (those of earlier
  /// blocks: the blocks run one after another).
  void ticketOrders(uint64_t Key, int32_t T) {
    Released[Key][Epoch >> PhaseBits] = {Epoch, T, TicketsTaken[T]};
    if (TicketsTaken[T] < UINT16_MAX)
      ++TicketsTaken[T];
    Acquired.push_back({Key, Epoch, T});
  }

  /// Whether an access (a write, or one of an atomic update, when IsWrite)
  /// by thread T races with the plain accesses recorded in C: a write
  /// unordered with it, or, for a write, a read. Reports the race.
  bool racesWithPlain(GlobalCell &C, int32_t Buf, int64_t Index, int32_t T, int32_t Pc,
                      bool IsWrite) {
    if (unordered(C.Write, T)) {
      reportRace(Buf, Index, C.Write.Epoch, C.Write.Thread, C.Write.Pc, true, T, Pc, IsWrite);
      return true;
    }
    if (!IsWrite)
      return false;
    if (unordered(C.Read, T)) {
      reportRace(Buf, Index, C.Read.Epoch, C.Read.Thread, C.Read.Pc, false, T, Pc, true);
      return true;
    }
    if (C.Read2.Epoch == Epoch && C.Read2.Thread != T) {
      reportRace(Buf, Index, Epoch, C.Read2.Thread, C.Read2.Pc, false, T, Pc, true);
      return true;
    }
    return false;
  }

  /// An atomic update's read or write of a global element: it races with a
  /// plain access another thread made unordered with it (both count as
  /// writes), never with another atomic update.
  bool checkGlobalAtomic(int32_t Buf, int64_t Index, int32_t T, int32_t Pc, bool IsWrite) {
    GlobalCell &C = GlobalShadows[Bufs[Buf].ShadowBase].cell(Index - Bufs[Buf].Min);
    if (racesWithPlain(C, Buf, Index, T, Pc, /*IsWrite=*/true))
      return false;
    if (IsWrite)
      C.Atomic = accessNow(T, Pc);
    return true;
  }

  /// Records a global access; false (with Error set) on a race.
  bool checkGlobal(int32_t Buf, int64_t Index, int32_t T, int32_t Pc, bool IsWrite) {
    // One cell per element of the region, which starts at Min.
    GlobalCell &C = GlobalShadows[Bufs[Buf].ShadowBase].cell(Index - Bufs[Buf].Min);
    if (unordered(C.Atomic, T)) {
      reportRace(Buf, Index, C.Atomic.Epoch, C.Atomic.Thread, C.Atomic.Pc, true, T, Pc, IsWrite);
      return false;
    }
    // The common case of a thread updating its own element: after its own
    // write in this phase, nothing another access could conflict with is
    // missing from the write record.
    if (C.Write.Epoch == Epoch && C.Write.Thread == T)
      return true;
    if (racesWithPlain(C, Buf, Index, T, Pc, IsWrite))
      return false;
    if (IsWrite) {
      C.Write = accessNow(T, Pc);
      return true;
    }
    // A read replaces the recorded one unless that is of an earlier block or
    // the first of this phase; one of an earlier phase of this block (or
    // none) is ordered before everything from now on. A second reader of
    // this phase is kept beside the first.
    if (C.Read.Epoch >= BlockEpoch && C.Read.Epoch != Epoch)
      C.Read = accessNow(T, Pc);
    else if (C.Read.Epoch == Epoch && C.Read.Thread != T && C.Read2.Epoch != Epoch)
      C.Read2 = accessNow(T, Pc);
    return true;
  }

  //===--------------------------------------------------------------------===//
  // The interpreter loop
  //===--------------------------------------------------------------------===//

  /// Runs thread T from its pc to its next barrier or its end.
  void execute(int32_t T, ThreadState &TS) {
    Slot *R = Regs.data() + static_cast<int64_t>(T) * NumRegs;
    const Slot *ThreadTag = R + P.NumTemps; // BlockX .. ThreadZ
    char *LocalMem = Local.data() + static_cast<int64_t>(T) * LocalBytes;
    const Inst *Code = P.Code.data();
    int32_t Pc = TS.Pc;
    uint64_t Count = 0;
    for (;;) {
      const Inst &I = Code[Pc];
      ++Count;
      switch (I.Opcode) {
      case Op::Mov: R[I.D] = R[I.A]; break;
      case Op::AddI32: R[I.D].I = wrap32(uint64_t(R[I.A].I) + uint64_t(R[I.B].I)); break;
      case Op::SubI32: R[I.D].I = wrap32(uint64_t(R[I.A].I) - uint64_t(R[I.B].I)); break;
      case Op::MulI32: R[I.D].I = wrap32(uint64_t(R[I.A].I) * uint64_t(R[I.B].I)); break;
      case Op::AddI64: R[I.D].I = int64_t(uint64_t(R[I.A].I) + uint64_t(R[I.B].I)); break;
      case Op::SubI64: R[I.D].I = int64_t(uint64_t(R[I.A].I) - uint64_t(R[I.B].I)); break;
      case Op::MulI64: R[I.D].I = int64_t(uint64_t(R[I.A].I) * uint64_t(R[I.B].I)); break;
      case Op::DivI:
      case Op::ModI: {
        int64_t X = R[I.A].I, Y = R[I.B].I;
        if (Y == 0) {
          divisionByZero(T, Pc);
          TS.Status = ThreadStatus::Failed;
          Stats.Instructions += Count;
          return;
        }
        int64_t V = Y == -1 ? (I.Opcode == Op::DivI ? int64_t(0 - uint64_t(X)) : 0)
                            : (I.Opcode == Op::DivI ? X / Y : X % Y);
        if (static_cast<DType>(I.Type) == DType::UInt64) // values held as bits
          V = int64_t(I.Opcode == Op::DivI ? uint64_t(X) / uint64_t(Y) : uint64_t(X) % uint64_t(Y));
        R[I.D].I = wrapToType(V, static_cast<DType>(I.Type));
        break;
      }
      case Op::IntOp:
        if (!evalIntBinary(static_cast<BinOp>(I.Aux), static_cast<DType>(I.Type), R[I.A].I,
                           R[I.B].I, R[I.D].I)) {
          shiftOutOfRange(T, Pc, R[I.B].I, static_cast<DType>(I.Type));
          TS.Status = ThreadStatus::Failed;
          Stats.Instructions += Count;
          return;
        }
        break;
      case Op::MinI: R[I.D].I = std::min(R[I.A].I, R[I.B].I); break;
      case Op::MaxI: R[I.D].I = std::max(R[I.A].I, R[I.B].I); break;
      case Op::NegI: R[I.D].I = int64_t(0 - uint64_t(R[I.A].I)); break;
      case Op::WrapInt: R[I.D].I = wrapToType(R[I.A].I, static_cast<DType>(I.Aux)); break;
      case Op::AddF: R[I.D].F = R[I.A].F + R[I.B].F; break;
      case Op::SubF: R[I.D].F = R[I.A].F - R[I.B].F; break;
      case Op::MulF: R[I.D].F = R[I.A].F * R[I.B].F; break;
      case Op::DivF: R[I.D].F = R[I.A].F / R[I.B].F; break;
      case Op::ModF: R[I.D].F = std::fmod(R[I.A].F, R[I.B].F); break;
      case Op::MinF: R[I.D].F = std::fmin(R[I.A].F, R[I.B].F); break;
      case Op::MaxF: R[I.D].F = std::fmax(R[I.A].F, R[I.B].F); break;
      case Op::NegF: R[I.D].F = -R[I.A].F; break;
      // Exact double results rounded once to float = IEEE float arithmetic.
      case Op::AddF32: R[I.D].F = float(float(R[I.A].F) + float(R[I.B].F)); break;
      case Op::SubF32: R[I.D].F = float(float(R[I.A].F) - float(R[I.B].F)); break;
      case Op::MulF32: R[I.D].F = float(float(R[I.A].F) * float(R[I.B].F)); break;
      case Op::DivF32: R[I.D].F = float(float(R[I.A].F) / float(R[I.B].F)); break;
      case Op::RoundF32: R[I.D].F = float(R[I.A].F); break;
      case Op::RoundF16: R[I.D].F = roundToHalf(R[I.A].F); break;
      case Op::LtI: R[I.D].I = R[I.A].I < R[I.B].I; break;
      case Op::LeI: R[I.D].I = R[I.A].I <= R[I.B].I; break;
      case Op::EqI: R[I.D].I = R[I.A].I == R[I.B].I; break;
      case Op::NeI: R[I.D].I = R[I.A].I != R[I.B].I; break;
      case Op::LtF: R[I.D].I = R[I.A].F < R[I.B].F; break;
      case Op::LeF: R[I.D].I = R[I.A].F <= R[I.B].F; break;
      case Op::EqF: R[I.D].I = R[I.A].F == R[I.B].F; break;
      case Op::NeF: R[I.D].I = R[I.A].F != R[I.B].F; break;
      case Op::Not: R[I.D].I = R[I.A].I == 0; break;
      case Op::ToBoolI: R[I.D].I = R[I.A].I != 0; break;
      case Op::ToBoolF: R[I.D].I = R[I.A].F != 0; break;
      case Op::IntToF:
        R[I.D].F = intToFloat(R[I.A].I, static_cast<DType>(I.Type), static_cast<DType>(I.Aux));
        break;
      case Op::FToInt: R[I.D].I = floatToInt(R[I.A].F, static_cast<DType>(I.Aux)); break;
      case Op::Math: {
        const ir::MathFunction &Fn = ir::mathFunctions()[I.Aux];
        double Args[3];
        for (unsigned K = 0; K < Fn.Arity; ++K)
          Args[K] = R[I.A + K].F;
        R[I.D].F = Fn.Host(Args);
        break;
      }
      case Op::Jmp: Pc = I.Target; continue;
      case Op::Jz:
        if (R[I.A].I == 0) {
          Pc = I.Target;
          continue;
        }
        break;
      case Op::Jnz:
        if (R[I.A].I != 0) {
          Pc = I.Target;
          continue;
        }
        break;
      case Op::LoopEnter:
        if (!(R[I.D].I < R[I.A].I)) {
          Pc = I.Target;
          continue;
        }
        break;
      case Op::LoopNext:
        if (++R[I.D].I < R[I.A].I) {
          Pc = I.Target;
          continue;
        }
        break;
      case Op::ThreadLoop: {
        int64_t Extent = R[I.B].I;
        int Dim = I.Aux % 3;
        int64_t Size = I.Aux < ThreadX ? Grid[Dim] : Block[Dim];
        if (Extent > Size) {
          threadLoopTooLong(T, Pc, Extent);
          TS.Status = ThreadStatus::Failed;
          Stats.Instructions += Count;
          return;
        }
        int64_t Index = ThreadTag[I.Aux].I;
        if (Index >= Extent) {
          Pc = I.Target;
          continue;
        }
        R[I.D].I = R[I.A].I + Index;
        break;
      }
      case Op::Load:
      case Op::Store: {
        const RtBuffer &B = Bufs[I.Aux];
        bool IsStore = I.Opcode == Op::Store;
        int64_t Index = R[I.A].I;
        if (static_cast<uint64_t>(Index - B.Min) >= static_cast<uint64_t>(B.Extent)) {
          outOfBounds(T, Pc, IsStore, Index);
          TS.Status = ThreadStatus::Failed;
          Stats.Instructions += Count;
          return;
        }
        if (!InFlight.empty() && B.IsShared && touchesInFlight(I.Aux, Index, T, Pc, IsStore)) {
          TS.Status = ThreadStatus::Failed;
          Stats.Instructions += Count;
          return;
        }
        if (B.Check != AccessCheck::None) {
          bool GlobalOk = B.Check == AccessCheck::Shared ? true
                          : I.Target == 1 ? checkGlobalAtomic(I.Aux, Index, T, Pc, IsStore)
                                          : checkGlobal(I.Aux, Index, T, Pc, IsStore);
          ThreadStatus Stop = B.Check == AccessCheck::Shared
                                  ? checkShared(I.Aux, Index, T, Pc, IsStore)
                              : GlobalOk ? ThreadStatus::Running
                                         : ThreadStatus::Failed;
          if (Stop != ThreadStatus::Running) {
            TS.Pc = Pc;
            TS.Status = Stop;
            Stats.Instructions += Count;
            return;
          }
        }
        if (IsStore)
          storeElement(B.Base, Index, static_cast<DType>(I.Type), R[I.B]);
        else
          R[I.D] = loadElement(B.Base, Index, static_cast<DType>(I.Type));
        break;
      }
      // A thread's local memory: never raced on; flags (after its data)
      // say which elements it wrote since it entered the allocation.
      case Op::LoadLocal: {
        const RtBuffer &B = Bufs[I.Aux];
        int64_t Index = R[I.A].I;
        if (static_cast<uint64_t>(Index) >= static_cast<uint64_t>(B.Extent)) {
          outOfBounds(T, Pc, false, Index);
          TS.Status = ThreadStatus::Failed;
          Stats.Instructions += Count;
          return;
        }
        if (!LocalMem[B.FlagOffset + Index] && B.Check == AccessCheck::Local) {
          reportUninitialized(I.Aux, Index, T, Pc);
          TS.Status = ThreadStatus::Failed;
          Stats.Instructions += Count;
          return;
        }
        R[I.D] = loadElement(LocalMem + B.LocalOffset, Index, static_cast<DType>(I.Type));
        break;
      }
      case Op::StoreLocal: {
        const RtBuffer &B = Bufs[I.Aux];
        int64_t Index = R[I.A].I;
        if (static_cast<uint64_t>(Index) >= static_cast<uint64_t>(B.Extent)) {
          outOfBounds(T, Pc, true, Index);
          TS.Status = ThreadStatus::Failed;
          Stats.Instructions += Count;
          return;
        }
        LocalMem[B.FlagOffset + Index] = 1;
        storeElement(LocalMem + B.LocalOffset, Index, static_cast<DType>(I.Type), R[I.B]);
        break;
      }
      case Op::Barrier:
        TS.Pc = Pc + 1;
        TS.Status = ThreadStatus::AtBarrier;
        Stats.Instructions += Count;
        return;
      case Op::Collective: // runWaitingCollectives moves the lane past it
        TS.Pc = Pc;
        TS.Status = ThreadStatus::AtCollective;
        Stats.Instructions += Count;
        return;
      case Op::EnterAllocation: {
        const RtBuffer &B = Bufs[I.Aux];
        if (B.IsFragment) {
          // The lanes of a warp meet at every collective, so the first lane
          // entering the allocation does it before any of them uses it.
          if (T % WarpSize == 0) {
            auto First = FragDefined.begin() + B.FragOffset + (T / WarpSize) * B.Extent;
            std::fill(First, First + B.Extent, 0);
          }
        } else if (B.Check == AccessCheck::Local) {
          std::fill_n(LocalMem + B.FlagOffset, B.Extent, 0);
        }
        break;
      }
      case Op::AsyncCopy:
        if (!issueAsyncCopy(I, T, Pc, R)) {
          TS.Status = ThreadStatus::Failed;
          Stats.Instructions += Count;
          return;
        }
        break;
      case Op::AsyncCommit: ++Committed[T]; break;
      case Op::Swizzle: R[I.D].I = P.Buffers[I.Aux].Swizzle.apply(R[I.A].I); break;
      case Op::Ticket: {
        const RtBuffer &B = Bufs[I.Aux];
        int64_t Index = R[I.A].I;
        if (static_cast<uint64_t>(Index - B.Min) >= static_cast<uint64_t>(B.Extent)) {
          outOfBounds(T, Pc, true, Index);
          TS.Status = ThreadStatus::Failed;
          Stats.Instructions += Count;
          return;
        }
        if (B.Check == AccessCheck::Global && (!checkGlobalAtomic(I.Aux, Index, T, Pc, false) ||
                                               !checkGlobalAtomic(I.Aux, Index, T, Pc, true))) {
          TS.Pc = Pc;
          TS.Status = ThreadStatus::Failed;
          Stats.Instructions += Count;
          return;
        }
        if (Opts.DetectRaces)
          ticketOrders(flightKey(I.Aux, Index), T);
        const uint32_t Old = static_cast<uint32_t>(loadElement(B.Base, Index, DType::UInt32).I);
        const uint32_t Last = static_cast<uint32_t>(R[I.B].I - 1);
        Slot New;
        New.I = Old >= Last ? 0 : int64_t(Old) + 1;
        storeElement(B.Base, Index, DType::UInt32, New);
        R[I.D].I = Old;
        break;
      }
      case Op::AsyncWait:
        if (!completeAsyncCopies(T, Pc, Committed[T] - I.Aux)) {
          TS.Status = ThreadStatus::Failed;
          Stats.Instructions += Count;
          return;
        }
        break;
      case Op::Halt:
        if (!Pending[T].empty()) {
          fail("thread " + threadText(T) + " of block " + blockText() + " ends with " +
               std::to_string(Pending[T].size()) + " cp.async copies it never waited for, " +
               "the first: " + siteText(Pending[T].front().Pc));
          TS.Status = ThreadStatus::Failed;
          Stats.Instructions += Count;
          return;
        }
        TS.Pc = Pc;
        TS.Status = ThreadStatus::Done;
        Stats.Instructions += Count;
        return;
      }
      ++Pc;
    }
  }

  static Slot loadElement(const char *Base, int64_t Index, DType T) {
    Slot S;
    switch (T) {
    case DType::Float32: S.F = reinterpret_cast<const float *>(Base)[Index]; break;
    case DType::Int32: S.I = reinterpret_cast<const int32_t *>(Base)[Index]; break;
    case DType::Float64: S.F = reinterpret_cast<const double *>(Base)[Index]; break;
    case DType::Float16: {
      uint16_t H;
      std::memcpy(&H, Base + Index * 2, 2);
      S.F = halfToFloat(H);
      break;
    }
    case DType::Int64: S.I = reinterpret_cast<const int64_t *>(Base)[Index]; break;
    case DType::Int16: S.I = reinterpret_cast<const int16_t *>(Base)[Index]; break;
    case DType::Int8: S.I = reinterpret_cast<const int8_t *>(Base)[Index]; break;
    case DType::UInt8: S.I = reinterpret_cast<const uint8_t *>(Base)[Index]; break;
    case DType::UInt16: S.I = reinterpret_cast<const uint16_t *>(Base)[Index]; break;
    case DType::UInt32: S.I = reinterpret_cast<const uint32_t *>(Base)[Index]; break;
    case DType::UInt64: S.I = int64_t(reinterpret_cast<const uint64_t *>(Base)[Index]); break;
    case DType::Bool: S.I = reinterpret_cast<const uint8_t *>(Base)[Index] != 0; break;
    }
    return S;
  }

  static void storeElement(char *Base, int64_t Index, DType T, Slot S) {
    switch (T) {
    case DType::Float32: reinterpret_cast<float *>(Base)[Index] = float(S.F); break;
    case DType::Int32: reinterpret_cast<int32_t *>(Base)[Index] = int32_t(S.I); break;
    case DType::Float64: reinterpret_cast<double *>(Base)[Index] = S.F; break;
    case DType::Float16: {
      uint16_t H = floatToHalf(float(S.F)); // S.F is a half value: exact in float
      std::memcpy(Base + Index * 2, &H, 2);
      break;
    }
    case DType::Int64: reinterpret_cast<int64_t *>(Base)[Index] = S.I; break;
    case DType::Int16: reinterpret_cast<int16_t *>(Base)[Index] = int16_t(S.I); break;
    case DType::Int8: reinterpret_cast<int8_t *>(Base)[Index] = int8_t(S.I); break;
    case DType::UInt8: reinterpret_cast<uint8_t *>(Base)[Index] = uint8_t(S.I); break;
    case DType::UInt16: reinterpret_cast<uint16_t *>(Base)[Index] = uint16_t(S.I); break;
    case DType::UInt32: reinterpret_cast<uint32_t *>(Base)[Index] = uint32_t(S.I); break;
    case DType::UInt64: reinterpret_cast<uint64_t *>(Base)[Index] = uint64_t(S.I); break;
    case DType::Bool: reinterpret_cast<uint8_t *>(Base)[Index] = S.I != 0; break;
    }
  }

  const SimProgram &P;
  const std::vector<void *> &ParamData;
  const SimOptions &Opts;
  std::string &Error;
  SimStats &Stats;

  runtime::ScalarEnv Env;
  int64_t Grid[3] = {1, 1, 1}, Block[3] = {1, 1, 1}, BlockIdx[3] = {0, 0, 0};
  int64_t NumThreads = 1;
  int32_t NumRegs = 0;
  int64_t LocalBytes = 0;
  int64_t LocalElements = 0;  // of all local buffers, per thread
  int64_t LocalDataBytes = 0; // of a thread's LocalBytes; initialization flags follow
  int PhaseBits = 32;
  uint64_t Epoch = 0;      // the current block and barrier phase
  uint64_t BlockEpoch = 0; // the current block's first epoch
  /// Tickets (Op::Ticket) order blocks: a ticket releases what its thread
  /// did before it (the block's accesses of earlier phases, the thread's own
  /// of this phase) to the counter, and acquires what the counter's earlier
  /// tickets released. Released: per counter element (flightKey), per block
  /// (its epoch >> PhaseBits), its latest ticket of the counter. Acquired:
  /// the counters this block took tickets of, where (this thread from then
  /// on, the block's other threads from the next phase): every release of
  /// an earlier block on such a counter is acquired. Acquired is not passed
  /// on (a block that acquired and then releases does not carry what it
  /// acquired): stricter than the hardware, so a race is never missed.
  struct Release {
    uint64_t Epoch;
    int32_t Thread;
    uint16_t Tickets; // the thread's tickets before this one
  };
  std::vector<uint16_t> TicketsTaken; // per thread of the block
  struct Acquisition {
    uint64_t Key; // the counter element
    uint64_t AtEpoch;
    int32_t ByThread;
  };
  std::unordered_map<uint64_t, std::unordered_map<uint64_t, Release>> Released;
  std::vector<Acquisition> Acquired;
  std::vector<RtBuffer> Bufs;
  std::vector<char> Shared, Local, GlobalTemp;
  std::vector<ShadowCell> Shadow;
  std::vector<GlobalShadow> GlobalShadows; // freed with the launch
  std::vector<Slot> Preset, Regs;
  std::vector<ThreadState> Threads;

  /// A cp.async a thread issued and has not waited for: Count elements from
  /// SrcBuf[Src] to DstBuf[Dst], in the thread's group Group.
  struct PendingCopy {
    int32_t DstBuf, SrcBuf;
    int64_t Dst, Src, Count;
    int64_t Group;
    int32_t Pc;
  };
  std::vector<std::vector<PendingCopy>> Pending; // by thread of the block
  std::vector<int64_t> Committed;                 // groups each thread committed
  /// The shared elements some cp.async is writing (by buffer and index):
  /// the issuing thread.
  std::unordered_map<uint64_t, int32_t> InFlight;
  static uint64_t flightKey(int32_t Buf, int64_t Index) {
    return (static_cast<uint64_t>(Buf) << 44) ^ static_cast<uint64_t>(Index);
  }
  std::vector<Slot> FragValues;      // fragments: per buffer, per warp, its elements
  std::vector<uint8_t> FragDefined;  // parallel to FragValues
  UninitializedRead Uninitialized;   // the phase's first, reported at its end
  bool CollectiveReadUninitialized = false; // set by the collective being run
};

} // namespace

bool runKernel(const SimProgram &P, const std::vector<void *> &ParamData,
               const SimOptions &Opts, std::string &Error, SimStats *Stats) {
  SimStats Local;
  Launch L(P, ParamData, Opts, Error, Stats ? *Stats : Local);
  return L.run();
}

bool simulate(const LoweredKernel &K, const std::vector<void *> &ParamData,
              const SimOptions &Opts, std::string &Error, SimStats *Stats) {
  std::shared_ptr<const SimProgram> P = compileKernel(K, Error);
  return P && runKernel(*P, ParamData, Opts, Error, Stats);
}

} // namespace sim
} // namespace sched
