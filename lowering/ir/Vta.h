//===- Vta.h - The VTA hardware and the intrinsics of target(vta) -*- C++ -*-===//
//
// One definition of what target(vta) lowers to, read by every VTA pass, the
// verifier of hardware limits, the C++ emitter (codegen/CodeGenVTA) and the
// runtime's executor of lowered programs (runtime/vta): the hardware
// configuration (VTA's default vta_config.json: BATCH 1, BLOCK 16, int8
// inputs and weights, int32 accumulators) and the calls a VTA program is
// made of, form by form. ../shared/research/vta.md has the sources.
//
// A VTA nest goes through three forms (targets/VTA.cpp, VTAPasses):
//
// 1. Uop form (TensorizeVtaGemm, InjectVtaAlu, InjectVtaDma write it; host
//    loops stay For loops). SRAM operands are Loads of the first scalar of
//    an element in a stage buffer of scope vta.inp / vta.wgt / vta.acc;
//    DRAM operands are Loads of the first scalar moved in a global buffer.
//      vta.uop_gemm(D, A, W)        acc D[0..15] += sum_k A[k] * W[j][k]
//                                   (D: acc element (16 int32 lanes), A: inp
//                                   element (16 int8), W: wgt element (16x16
//                                   int8, row j = output lane j, k fastest))
//      vta.uop_gemm_reset(D)        acc D[0..15] = 0
//      vta.uop_alu(op, D, S, use_imm, imm)
//                                   acc D[l] = op(D[l], use_imm ? imm : S[l])
//                                   for the 16 lanes (S: acc element, or 0
//                                   when use_imm); op is a VtaAluOp
//      vta.load_2d(S, G, x_size, y_size, x_stride, x_pad0, y_pad0, x_pad1, y_pad1)
//                                   DMA DRAM -> SRAM, sizes in elements of
//                                   S's scope (the memory type follows from
//                                   it: inp, wgt, or acc from int32 DRAM;
//                                   acc from int8 DRAM is ACC_8BIT, each
//                                   byte sign-extended to an int32 lane);
//                                   rows of x_size elements y_size times,
//                                   x_stride elements apart in DRAM, written
//                                   densely from S with the zero padding
//      vta.store_2d(G, S, x_size, y_size, x_stride)
//                                   DMA acc SRAM -> int8 DRAM (each int32
//                                   lane truncated to its low 8 bits)
//      vta.pack_tiles(P, W, rows, cols, transposed)
//                                   host code: P[a][b][r][c] = W[a*16 + r][b*16 + c],
//                                   or W[b*16 + c][a*16 + r] when transposed
//                                   (vtaPackTiles). InjectVtaDma makes it for
//                                   a weight copy whose 16x16 tile is not 256
//                                   contiguous bytes of the 2-D int8 W[rows][cols]
//                                   (both multiples of 16, each tile row 16
//                                   contiguous scalars of a row, or of a
//                                   column of a k-major W: transposed): P, the
//                                   int8 global [rows/16][cols/16][16][16]
//                                   ([cols/16][rows/16][16][16] transposed), is
//                                   allocated around the whole program,
//                                   filled first, and the load_2d reads whole
//                                   tiles of P.
//
// 2. Kernel form (FoldUopLoops): every maximal loop nest of uops of one kind
//    becomes one instruction, with at most two uop loops (the outermost,
//    folded) and the uops of any inner loops listed:
//      vta.push_gemm(reset, nloops, e0, d0, s0, w0, e1, d1, s1, w1, D, A, W, D, A, W, ...)
//      vta.push_alu(op, use_imm, imm, nloops, e0, d0, s0, e1, d1, s1, D, S, D, S, ...)
//    e0/e1: loop extents (outer, inner; unused loops 0 with factors 0);
//    d/s/w: how far each loop iteration moves the dst/src/wgt element, in
//    elements; then the uops as in the uop form (A, W of a reset and S of an
//    immediate ALU op are the integer 0).
//    InjectCoprocSync adds the dependency tokens and the final FINISH:
//      vta.dep_push(from, to), vta.dep_pop(from, to)   (VtaQueue numbers)
//      vta.synchronize()
//    InjectVtaContexts expands cthread loops (context c's stage buffers get
//    a leading dimension, every call is repeated per context).
//
// 3. Final form (VtaStorageFlatten): stage buffers are gone; every SRAM
//    operand is an element index (the stage's base + its offset), every
//    DRAM operand a global buffer's base (a Load of all-zero indices) and an
//    element offset. The calls mirror the VTA runtime C API one for one
//    (the command handle is implicit):
//      vta.LoadBuffer2D(G, elem_offset, x_size, y_size, x_stride,
//                       x_pad_before, y_pad_before, x_pad_after, y_pad_after,
//                       sram_index, mem_type)
//      vta.StoreBuffer2D(sram_index, mem_type, G, elem_offset, x_size, y_size, x_stride)
//      vta.PushGEMMOp(reset, nloops, e0, d0, s0, w0, e1, d1, s1, w1, dst, src, wgt, ...)
//      vta.PushALUOp(op, use_imm, imm, nloops, e0, d0, s0, e1, d1, s1, dst, src, ...)
//      vta.dep_push / vta.dep_pop / vta.synchronize as above
//      vta.PackTiles(P, W, rows, cols, transposed)   vta.pack_tiles, P and W as bases
//    Loop extents and factors of a Push are constants; its uop indices may
//    use one variable of the host loops around it (the kernel's 4-byte
//    signature, < VtaMaxSignature); everything else (DMA sizes and offsets)
//    is an expression over host loop variables and scalar parameters.
//    The launcher allocates each global buffer with VTABufferAlloc, copies
//    in those LoadBuffer2D reads, runs the calls, and copies out those
//    StoreBuffer2D writes after vta.synchronize.
//    Decided by the runtime/codegen side (VerifyVtaProgram checks it): a
//    final-form program ends with vta.synchronize(); G is a Load of all-zero
//    indices of a buffer parameter (int8 for inp, wgt, acc_8bit and out,
//    int32 for acc; or, for a LOAD, an allocated packed copy P); the program's only
//    allocations are such P (int8 global, [rows/16][cols/16][16][16], or
//    [cols/16][rows/16][16][16] transposed) around
//    it, each filled by one vta.PackTiles outside every loop before any load
//    reads it (the launchers allocate P with VTABufferAlloc, fill it on the
//    CPU through VTABufferCPUPtr from W's device copy, free it at the end;
//    the vta.synchronize stays inside them);
//    elem_offset, sizes and strides count elements of the memory named
//    by mem_type (LOAD: inp 2, wgt 1, acc 3, acc_8bit 5; STORE: out 4); a
//    LOAD's x_stride may be 0 (every row the same DRAM elements: a bias
//    broadcast over the rows of an accumulator); in a Push, the
//    loops past nloops are all 0; an ALU uop is the pair (dst, src), both
//    acc elements (src ignored under use_imm). A buffer
//    a StoreBuffer2D writes is copied in too: a store may cover only part of
//    it, and the whole buffer is copied back.
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_IR_VTA_H
#define SCHED_IR_VTA_H

#include "IR.h"
#include "Intrinsics.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace sched {
namespace ir {

/// VTA's default hardware configuration (tvm-vta config/vta_config.json,
/// hw_spec_const.h), the one our simulator implements.
namespace vta {
constexpr int64_t Batch = 1;
constexpr int64_t BlockIn = 16;  // inp lanes, wgt columns (the k of a GEMM)
constexpr int64_t BlockOut = 16; // acc/out lanes, wgt rows (the j of a GEMM)

/// Scalars per element of each memory (an SRAM entry, and the DMA unit).
constexpr int64_t InpLanes = Batch * BlockIn;              // 16 int8
constexpr int64_t WgtLanes = BlockOut * BlockIn;           // 256 int8
constexpr int64_t AccLanes = Batch * BlockOut;             // 16 int32
constexpr int64_t OutLanes = Batch * BlockOut;             // 16 int8

/// SRAM depths in elements.
constexpr int64_t UopDepth = 8192;
constexpr int64_t InpDepth = 2048;
constexpr int64_t WgtDepth = 1024;
constexpr int64_t AccDepth = 2048;

/// Instruction field widths (bits) of the default configuration.
constexpr int LoopIterBits = 14;     // iter_out, iter_in
constexpr int AccFactorBits = 11;    // dst_factor_*
constexpr int InpFactorBits = 11;    // src_factor_*
constexpr int WgtFactorBits = 10;    // wgt_factor_*
constexpr int MemSramBits = 16;      // sram_base
constexpr int MemDramBits = 32;      // dram_base
constexpr int MemSizeBits = 16;      // x_size, y_size
constexpr int MemStrideBits = 16;    // x_stride
constexpr int MemPadBits = 4;        // pads
constexpr int AluImmBits = 16;       // imm (signed)
constexpr int ShrArgBits = 5;        // the hardware reads a shift amount's low 5 bits, signed:
                                     // -16 <= n <= 15 (n < 0 shifts left)
constexpr int MaxUopLoops = 2;
/// A uop of a kernel must not write the acc element any of the previous
/// UopHazardWindow uops wrote (the GEMM pipeline's hazard; the runtime checks it).
constexpr size_t UopHazardWindow = 2;
/// A kernel's signature selects one of at most 99 cached variants (the
/// runtime's key is signature + 1 < 100).
constexpr int64_t MaxSignature = 99;
} // namespace vta

/// Memory ids of LOAD/STORE (hw_spec_const.h).
enum VtaMemId : int64_t {
  VtaMemUop = 0, VtaMemWgt = 1, VtaMemInp = 2, VtaMemAcc = 3, VtaMemOut = 4,
  VtaMemAcc8 = 5 // ACC_8BIT: an acc LOAD from int8 DRAM, sign-extended
};
/// ALU opcodes.
enum VtaAluOp : int64_t { VtaAluMin = 0, VtaAluMax = 1, VtaAluAdd = 2, VtaAluShr = 3, VtaAluMul = 4 };
/// Dependency queues (stages): 1 load (inp, wgt), 2 compute (GEMM, ALU, acc
/// and uop loads), 3 store.
enum VtaQueue : int64_t { VtaQueueLoad = 1, VtaQueueCompute = 2, VtaQueueStore = 3 };

const char *vtaAluOpName(int64_t Op); // "min", "max", "add", "shr", "mul"

/// Scalars per element of a VTA scope (inp 16, wgt 256, acc 16); 0 for
/// other scopes.
int64_t vtaElementLanes(Scope S);
/// The LOAD memory id of a stage in scope S (inp, wgt, acc); -1 otherwise.
int64_t vtaMemId(Scope S);
/// The LOAD memory id of a load_2d into a stage of scope S from DRAM of type
/// T: vtaMemId(S), but ACC_8BIT for vta.acc from int8.
int64_t vtaLoadMemId(Scope S, DType T);
/// The SRAM depth in elements of scope S.
int64_t vtaDepth(Scope S);

/// The queue a VTA call runs on (LoadBuffer2D/load_2d by its memory:
/// inp/wgt on load, acc/uop on compute; Push*/push_*/uop_* compute;
/// StoreBuffer2D/store_2d store); 0 for a call that is not a VTA
/// instruction (tokens, synchronize, anything else).
int64_t vtaQueueOf(const CallNode *Call);

/// Whether Name is one of the calls above.
bool isVtaIntrinsic(const std::string &Name);

/// The operand declarations of every call above (Intrinsics.cpp puts them
/// in its table): SRAM operands as buffers of the stage (uop and kernel
/// forms), DRAM operands as the global buffer read or written.
std::vector<IntrinsicInfo> vtaIntrinsicDeclarations();

/// Argument positions of the final-form DMA calls.
enum VtaLoadArg : size_t {
  VtaLoadDram = 0, VtaLoadOffset, VtaLoadXSize, VtaLoadYSize, VtaLoadXStride,
  VtaLoadXPad0, VtaLoadYPad0, VtaLoadXPad1, VtaLoadYPad1, VtaLoadSram, VtaLoadMem,
  VtaLoadArgs
};
enum VtaStoreArg : size_t {
  VtaStoreSram = 0, VtaStoreMem, VtaStoreDram, VtaStoreOffset, VtaStoreXSize,
  VtaStoreYSize, VtaStoreXStride, VtaStoreArgs
};

/// The layout of a Push (vta.push_gemm / vta.push_alu and their final forms
/// vta.PushGEMMOp / vta.PushALUOp): VtaPushFixedArgs leading arguments (the
/// GEMM's reset or the ALU's op, use_imm, imm; the loop count; two uop loops),
/// then the uops, vtaUopOperands(IsGemm) arguments each (dst, src[, wgt]).
constexpr size_t VtaPushFixedArgs = 10;
constexpr size_t vtaUopOperands(bool IsGemm) { return IsGemm ? 3 : 2; }

/// A final-form vta.PushGEMMOp / vta.PushALUOp decoded: the uop kernel its
/// finit records. Wgt of an ALU loop or uop is the integer 0.
struct VtaUopKernel {
  bool IsGemm = true;
  Expr Reset;              // GEMM
  Expr AluOp, UseImm, Imm; // ALU
  Expr NumLoops;
  struct Loop {
    Expr Extent, Dst, Src, Wgt;
  };
  Loop Loops[vta::MaxUopLoops];
  struct Uop {
    Expr Dst, Src, Wgt;
  };
  std::vector<Uop> Uops;
};

/// Decodes Call when it is a vta.PushGEMMOp or vta.PushALUOp with its fixed
/// arguments and a whole number of uops; false otherwise.
bool decodeVtaUopKernel(const CallNode *Call, VtaUopKernel &Out);

/// vta.pack_tiles / vta.PackTiles: Dst[a][b][r][c] = Src[a*16 + r][b*16 + c]
/// for Src[Rows][Cols] (both multiples of 16), i.e. the 16x16 tiles of Src,
/// row-major, each 256 contiguous bytes as VTA's DMA reads a weight tile;
/// Transposed (a k-major Src[K][N]): Dst[a][b][r][c] = Src[b*16 + c][a*16 + r],
/// each tile transposed, Dst [Cols/16][Rows/16][16][16].
void vtaPackTiles(int8_t *Dst, const int8_t *Src, int64_t Rows, int64_t Cols,
                  bool Transposed = false);

/// Bytes per element of a LOAD/STORE memory id in DRAM (inp 16, wgt 256,
/// acc 64, out 16, acc_8bit 16); 0 for another id.
int64_t vtaDramElementBytes(int64_t MemId);

} // namespace ir
} // namespace sched

#endif
