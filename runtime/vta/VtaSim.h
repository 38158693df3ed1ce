//===- VtaSim.h - The VTA functional simulator (internal) -------*- C++ -*-===//
//
// The decoded VTA instruction, the uop kernel and the simulated device of the
// default configuration (see vta_runtime.h). VtaRuntime.cpp builds the
// instruction stream from the C API the way TVM's runtime.cc does (pending
// pops, push flags on the last instruction of a stage, no-ops as token
// carriers); VtaSimulator.cpp runs it on three cores and four token FIFOs.
// Instructions are kept decoded; their fields are range-checked against the
// widths of the 128-bit encoding when they are created.
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_RUNTIME_VTA_VTASIM_H
#define SCHED_RUNTIME_VTA_VTASIM_H

#include "vta/vta_runtime.h"

#include <cstdint>
#include <string>
#include <vector>

namespace sched {
namespace vta {

// Default configuration (vta_config.json + hw_spec_const.h).
constexpr unsigned Batch = 1, BlockIn = 16, BlockOut = 16;
constexpr uint32_t UopDepth = 8192, InpDepth = 2048, WgtDepth = 1024,
                   AccDepth = 2048;
constexpr uint32_t InpBytes = Batch * BlockIn, WgtBytes = BlockOut * BlockIn,
                   AccBytes = Batch * BlockOut * 4, OutBytes = Batch * BlockOut,
                   UopBytes = 4;
// Field widths of the encoding.
constexpr unsigned LoopIterBits = 14, UopBgnBits = 13, UopEndBits = 14,
                   DstFactorBits = 11, SrcFactorBits = 11, WgtFactorBits = 10,
                   UopDstBits = 11, UopSrcBits = 11, UopWgtBits = 10,
                   SramBits = 16, DramBits = 32, SizeBits = 16, StrideBits = 16,
                   PadBits = 4, ImmBits = 16;

enum Opcode : uint8_t {
  OpLoad = 0,
  OpStore = 1,
  OpGemm = 2,
  OpFinish = 3,
  OpAlu = 4
};
enum Stage : int { StageLoad = 1, StageCompute = 2, StageStore = 3 };

struct Uop {
  uint32_t Dst = 0, Src = 0, Wgt = 0;
};

struct UopLoop {
  uint32_t Extent = 1, DstFactor = 0, SrcFactor = 0, WgtFactor = 0;
};

/// One recorded micro-kernel: its uops, at most two loops and the fields all
/// its uops share.
struct UopKernel {
  std::vector<Uop> Uops;
  std::vector<UopLoop> Loops;
  int Mode = -1; // 0 GEMM, 1 ALU, -1 none pushed yet
  uint32_t Reset = 0, AluOp = 0, UseImm = 0;
  int32_t Imm = 0;
};

struct Insn {
  Opcode Op = OpFinish;
  bool PopPrev = false, PopNext = false, PushPrev = false, PushNext = false;
  // LOAD / STORE.
  uint32_t MemType = 0, SramBase = 0, DramBase = 0, YSize = 0, XSize = 0,
           XStride = 0, YPad0 = 0, YPad1 = 0, XPad0 = 0, XPad1 = 0;
  const UopKernel *Kernel = nullptr; // LOAD UOP: the uops to copy
  // GEMM / ALU.
  bool Reset = false;
  uint32_t UopBgn = 0, UopEnd = 0, IterOut = 1, IterIn = 1, DstOut = 0,
           DstIn = 0, SrcOut = 0, SrcIn = 0, WgtOut = 0, WgtIn = 0;
  uint32_t AluOp = 0;
  bool UseImm = false;
  int32_t Imm = 0;
};

/// What a LOAD of one data memory type moves: the SRAM's depth and entry
/// size, the DRAM element size the instruction's addresses count in (ACC_8BIT
/// reads int8 lanes into int32 entries) and the profiler counter it adds to.
struct LoadTarget {
  uint32_t Depth, SramElemBytes, DramElemBytes;
  uint64_t VTASchedStats::*LoadedBytes;
};

/// The LoadTarget of an INP, WGT, ACC or ACC_8BIT load; false for any other
/// memory type.
bool loadTarget(uint32_t MemType, LoadTarget &T);

/// The stage (core) an instruction runs on, as the fetch module routes it.
Stage stageOf(const Insn &I);

/// Host memory standing in for device DRAM: page-aligned blocks with fake,
/// never-zero physical addresses.
struct DataBuffer {
  uint8_t *Data = nullptr;
  size_t Size = 0;
  uint64_t PhyAddr = 0;
};

/// The DataBuffer a handle names, or null when it is not a live handle.
DataBuffer *fromHandle(const void *Handle);
/// Host bytes [Phy, Phy+Bytes) of device DRAM, or null when they are not all
/// inside one live buffer.
uint8_t *dramAt(uint64_t Phy, uint64_t Bytes);

/// Runs one synchronize's instruction stream. ForceSerial executes in program
/// order ignoring the tokens. Returns an empty string or the error.
std::string runProgram(const std::vector<Insn> &Program, bool ForceSerial,
                       VTASchedStats &Stats);

/// Human-readable form of an instruction (VTA_DEBUG_DUMP_INSN).
std::string describe(const Insn &I);

} // namespace vta
} // namespace sched

#endif // SCHED_RUNTIME_VTA_VTASIM_H
