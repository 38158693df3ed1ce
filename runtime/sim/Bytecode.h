//===- Bytecode.h - The simulator's compiled form of a kernel ---*- C++ -*-===//
//
// A register bytecode: each thread owns a file of 8-byte slots (an int64 or a
// double; integers are kept normalized to their dtype, floats already rounded
// to theirs), control flow is explicit jumps, and a barrier is an instruction
// that suspends the thread with its pc saved. So a thread is just (pc,
// registers, local memory) and the block scheduler can run every thread up to
// the next barrier, then the next phase, with no coroutines.
//
// Register file layout (per thread): [0, NumTemps) variables and temporaries,
// then NumPreset slots initialized at thread start: the block and thread
// indices, the scalar parameters and the constant pool.
//
// Internal to runtime/sim.
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_RUNTIME_SIM_BYTECODE_H
#define SCHED_RUNTIME_SIM_BYTECODE_H

#include "Simulator.h"
#include "ir/Intrinsics.h"

#include <cstdint>
#include <string>
#include <vector>

namespace sched {
namespace sim {

union Slot {
  int64_t I;
  double F;
};

enum class Op : uint8_t {
  Mov,
  // Integer arithmetic. *I32 wrap to 32 bits; *I64 wrap to 64 bits.
  AddI32, SubI32, MulI32, AddI64, SubI64, MulI64,
  DivI, ModI, MinI, MaxI, NegI,
  WrapInt,       // R[D] = R[A] wrapped to dtype Aux
  IntOp,         // R[D] = R[A] (BinOp Aux) R[B] in dtype Type, by ir::evalIntBinary:
                 // bitwise operators, shifts, unsigned 64-bit comparisons and min/max
  // Float arithmetic in double; *F32 round the result to float.
  AddF, SubF, MulF, DivF, ModF, MinF, MaxF, NegF,
  AddF32, SubF32, MulF32, DivF32,
  RoundF32, RoundF16,
  // Comparisons and logic (results 0/1).
  LtI, LeI, EqI, NeI, LtF, LeF, EqF, NeF, Not, ToBoolI, ToBoolF,
  // Conversions. IntToF rounds integer dtype Type to float dtype Aux; FToInt
  // converts to int dtype Aux.
  IntToF, FToInt,
  // Math: R[D] = ir::mathFunctions()[Aux] applied to R[A], R[A + 1], ... (its
  // arity), by the host libm function; exact in the function's type.
  Math,
  // Control flow. Target is an instruction index.
  Jmp, Jz, Jnz,
  LoopEnter,     // if !(R[D] < R[A]) goto Target
  LoopNext,      // ++R[D]; if (R[D] < R[A]) goto Target
  ThreadLoop,    // bind R[D] = R[A] + index(Aux); skip to Target unless index < R[B]
  // Memory: R[D] = Buf[Aux][R[A]] / Buf[Aux][R[A]] = R[B], typed by the buffer.
  Load, Store,
  // The same for a local buffer: the thread's own memory, never raced on;
  // a store sets the element's initialization flag, a load tests it.
  LoadLocal, StoreLocal,
  Barrier,
  // A warp collective (a wmma intrinsic): the lane suspends with its pc on
  // this instruction and its evaluated arguments in R[A], R[A + 1], ...
  // (CollectiveSite::NumArgs); the block scheduler runs Collectives[Aux]
  // once when all 32 lanes of the warp wait here with equal arguments.
  Collective,
  // Entry to the allocation of buffer Aux, a fragment or local buffer (a
  // new object each time, as the declaration in the emitted CUDA is): a
  // fragment's copy for the lane's warp becomes undefined (done by the
  // warp's first lane), a local buffer's elements uninitialized for the
  // thread. Shared buffers have none: one `__shared__` array per block.
  EnterAllocation,
  // cp.async (sched.cp_async): D elements from Buf[Target][R[B]] to
  // Buf[Aux][R[A]] (global to shared), in flight until the thread's
  // AsyncWait completes its group; reading or writing an element in flight
  // is an error. AsyncCommit closes the thread's group; AsyncWait (Aux: how
  // many committed groups may stay in flight) completes the others' copies:
  // the shared stores happen there, for the race detector too.
  AsyncCopy, AsyncCommit, AsyncWait,
  // R[D] = where element R[A] of buffer Aux lives (its ir::Swizzle).
  Swizzle,
  // sched.block_ticket: R[D] = Buf[Aux][R[A]] (a uint32 counter), which
  // becomes 0 if it was at least R[B] - 1, else one more, atomically. The
  // thread's accesses so far are released to the counter, and the thread
  // acquires what every earlier ticket of the counter released.
  Ticket,
  Halt
};

struct Inst {
  Op Opcode;
  uint8_t Type = 0;  // a DType where the op needs one (loads, stores, rounding)
  int32_t D = 0, A = 0, B = 0;
  int32_t Aux = 0;   // buffer id, dtype, math function, thread tag
  int32_t Target = 0;
};

/// Where a buffer the kernel touches lives.
struct BufferInfo {
  std::string Name;
  ir::DType Type;
  ir::Scope MemScope;
  int ParamIndex = -1;        // global parameter: its index in Params
  ir::Expr SizeExpr;          // elements: the region extent / allocation size
  ir::Expr MinExpr;           // first element of the region (null: 0); may
                              // be negative for a pointer parameter
  bool Writable = true;       // false: the region says the kernel only reads it
  ir::Swizzle Swizzle;        // shared: the storage's XOR swizzle (element i at Swizzle.apply(i))
  /// A wmma-scope buffer: per-warp fragment storage, touched only by
  /// collectives.
  bool isFragment() const {
    return MemScope == ir::Scope::WmmaMatrixA || MemScope == ir::Scope::WmmaMatrixB ||
           MemScope == ir::Scope::WmmaAccumulator;
  }
};

/// A wmma call site. Its lane arguments (registers from Inst::A), by
/// operation: fill: fragment index, value; load_*: fragment index, memory
/// index, ld; store: fragment index, memory index, ld; mma: the fragment
/// indices of D, A, B, C. Fragment and memory indices are flat element
/// indices into the buffers below.
struct CollectiveSite {
  ir::WmmaOp Op = ir::WmmaOp::Fill;
  ir::TensorFamily Family = ir::TensorFamily::Wmma; // Mma: lane by lane (PTX layouts)
  int64_t M = 0, N = 0, K = 0;
  int64_t Layout = ir::WmmaRowMajor; // load_*, store
  int32_t Frag[4] = {-1, -1, -1, -1}; // buffer ids: fill/load/store: [0]; mma: D, A, B, C
  int32_t Memory = -1;                // load_*, store: the memory buffer id
  int32_t MemoryB = -1;               // wgmma.mma: A's buffer is Memory, B's this
  int NumArgs = 0;
  /// The threads that run it together: 32 (a warp) or 128 (a warpgroup:
  /// the wgmma family).
  int Threads = 32;
  /// wgmma's control instructions (no fragment, no shape).
  ir::WgmmaControl Ctl = ir::WgmmaControl::None;
  /// warp.shfl_xor(D, S, lane_mask): Frag[0] is D's local buffer id, Frag[1]
  /// S's; the arguments are D's index, S's index and the lane mask.
  bool Shuffle = false;
};

/// The tags a ThreadLoop binds (Aux), in preset-slot order.
enum ThreadTagIndex { BlockX, BlockY, BlockZ, ThreadX, ThreadY, ThreadZ, NumThreadTags };

/// The IR node behind a memory or thread-loop instruction, printed in error
/// and race reports.
struct AccessSite {
  ir::Expr Load;       // a Load
  ir::Stmt Statement;  // a Store (for a Load: the Store it is part of, if any),
                       // the For of a ThreadLoop, or the Evaluate of a
                       // Collective
};

class SimProgram {
public:
  LoweredKernel Kernel;            // keeps the IR alive for reports
  std::vector<Inst> Code;
  std::vector<BufferInfo> Buffers;
  std::vector<AccessSite> Sites;   // parallel to Code (only memory ops set)
  int NumTemps = 0;
  /// Preset slots after the temps: NumThreadTags indices, then scalar params
  /// (ScalarParams[i] is the Params index filling slot NumThreadTags + i),
  /// then Constants.
  std::vector<int> ScalarParams;
  std::vector<Slot> Constants;
  std::vector<CollectiveSite> Collectives; // indexed by a Collective's Aux
  bool HasBarrier = false;

  int numRegs() const {
    return NumTemps + NumThreadTags + static_cast<int>(ScalarParams.size()) +
           static_cast<int>(Constants.size());
  }
};

} // namespace sim
} // namespace sched

#endif // SCHED_RUNTIME_SIM_BYTECODE_H
