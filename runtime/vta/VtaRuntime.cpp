//===- VtaRuntime.cpp - The VTA runtime C API -----------------------------===//
//
// The standard VTA runtime entry points (vta_runtime.h) over sched's
// functional simulator. The instruction stream is built as TVM's runtime.cc
// builds it: a DepPop is deferred to the next instruction of its stage, a
// DepPush sets a flag on the last instruction when it runs on the pushing
// stage (else a no-op carries it), a uop kernel is recorded once per (static
// handle, signature) by calling `finit` and is loaded into uop SRAM by a LOAD
// UOP on the compute stage unless already there since the last synchronize,
// and VTASynchronize drains both neighbours of compute before FINISH.
// Everything a hardware field cannot hold, and every API misuse, is reported
// as an error (VTASchedLastError) instead of being truncated or CHECK-failed.
//
//===----------------------------------------------------------------------===//

#include "vta/VtaSim.h"

#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <unordered_map>

using namespace sched::vta;

// ---- device DRAM -----------------------------------------------------------

namespace {

struct Dram {
  std::mutex Lock;
  std::map<uint64_t, DataBuffer *> ByPhy;
  std::set<const void *> Handles;
  uint64_t NextPage = 1; // physical addresses are never 0
};

Dram &dram() {
  static Dram *D = new Dram(); // never destroyed: buffers may outlive main
  return *D;
}

constexpr unsigned PageBits = 12;

} // namespace

DataBuffer *sched::vta::fromHandle(const void *Handle) {
  Dram &D = dram();
  std::lock_guard<std::mutex> G(D.Lock);
  if (!D.Handles.count(Handle))
    return nullptr;
  return const_cast<DataBuffer *>(static_cast<const DataBuffer *>(Handle));
}

uint8_t *sched::vta::dramAt(uint64_t Phy, uint64_t Bytes) {
  Dram &D = dram();
  std::lock_guard<std::mutex> G(D.Lock);
  auto It = D.ByPhy.upper_bound(Phy);
  if (It == D.ByPhy.begin())
    return nullptr;
  DataBuffer *B = std::prev(It)->second;
  if (Phy + Bytes > B->PhyAddr + B->Size)
    return nullptr;
  return B->Data + (Phy - B->PhyAddr);
}

// ---- the command queue -----------------------------------------------------

namespace {

/// A static uop handle points at one of these: the kernels per signature key.
struct UopKernelMap {
  std::array<UopKernel *, 100> Kernels{};
};

class CommandQueue {
public:
  std::vector<Insn> Program;
  std::array<bool, 4> PendingPopPrev{}, PendingPopNext{};
  int DebugFlags = 0;
  std::string Error;
  bool Broken = false; // an error dropped part of the stream
  VTASchedStats Stats{};
  UopKernel *Recording = nullptr;
  std::unordered_map<const UopKernel *, uint32_t> UopCache;
  uint32_t UopTop = 0;

  static CommandQueue &get() {
    thread_local CommandQueue Q;
    return Q;
  }

  void fail(const std::string &Msg) {
    Broken = true;
    if (!Error.empty())
      return;
    Error = Msg;
    std::fprintf(stderr, "sched: vta: error: %s\n", Msg.c_str());
  }

  Insn &create(Stage St) {
    Program.emplace_back();
    Insn &I = Program.back();
    I.PopPrev = PendingPopPrev[St];
    I.PopNext = PendingPopNext[St];
    PendingPopPrev[St] = PendingPopNext[St] = false;
    return I;
  }

  void pushNoop(Stage St, bool PushPrev, bool PushNext) {
    Insn &I = create(St);
    I.Op = St == StageStore ? OpStore : OpLoad;
    I.MemType = St == StageLoad    ? VTA_MEM_ID_INP
                : St == StageStore ? VTA_MEM_ID_OUT
                                   : VTA_MEM_ID_UOP;
    I.PushPrev = PushPrev;
    I.PushNext = PushNext;
  }

  void commitPendingPop(Stage St) {
    if (PendingPopPrev[St] || PendingPopNext[St])
      pushNoop(St, false, false);
  }

  bool checkQueues(const char *Fn, int From, int To) {
    if (From < 1 || From > 3 || To < 1 || To > 3 || From == To ||
        (From == StageLoad && To == StageStore) ||
        (From == StageStore && To == StageLoad)) {
      fail(std::string(Fn) + "(" + std::to_string(From) + ", " +
           std::to_string(To) +
           "): tokens only flow between neighbouring stages (1 load, 2 "
           "compute, 3 store)");
      return false;
    }
    return true;
  }

  void depPush(int From, int To) {
    if (Broken || !checkQueues("VTADepPush", From, To))
      return;
    if (!Program.empty() && stageOf(Program.back()) == From) {
      Insn &Last = Program.back();
      if (From < To && !Last.PushNext) {
        Last.PushNext = true;
        return;
      }
      if (From > To && !Last.PushPrev) {
        Last.PushPrev = true;
        return;
      }
    }
    pushNoop(Stage(From), From > To, From < To);
  }

  void depPop(int From, int To) {
    if (Broken || !checkQueues("VTADepPop", From, To))
      return;
    auto &Pending = From < To ? PendingPopPrev : PendingPopNext;
    if (Pending[To])
      commitPendingPop(Stage(To));
    Pending[To] = true;
  }

  void reset() {
    Program.clear();
    PendingPopPrev = {};
    PendingPopNext = {};
    UopCache.clear();
    UopTop = 0;
    Broken = false;
  }

  void synchronize();
  void pushOp(int Mode, void **Handle, int (*Finit)(void *), void *Signature,
              int NBytes);
};

bool fits(uint64_t V, unsigned Bits) { return V < (uint64_t(1) << Bits); }

std::string tooWide(const char *Fn, const char *Field, uint64_t V,
                    unsigned Bits) {
  return std::string(Fn) + ": " + Field + " " + std::to_string(V) +
         " does not fit its " + std::to_string(Bits) + "-bit field";
}

/// A value bound for an instruction field of the given width.
struct Field {
  const char *Name;
  uint64_t V;
  unsigned Bits;
};

/// Reports the first field that does not fit its width; true when all fit.
bool checkFields(CommandQueue &Q, const char *Fn,
                 std::initializer_list<Field> Fields) {
  for (const Field &F : Fields)
    if (!fits(F.V, F.Bits)) {
      Q.fail(tooWide(Fn, F.Name, F.V, F.Bits));
      return false;
    }
  return true;
}

void printStats(const VTASchedStats &S) {
  std::fprintf(
      stderr,
      "sched: vta: synchronize: insns load %llu store %llu gemm %llu "
      "alu %llu finish %llu nop %llu; loaded inp %llu wgt %llu acc "
      "%llu uop %llu bytes; stored out %llu bytes; gemm_counter %llu "
      "alu_counter %llu\n",
      (unsigned long long)S.load_insns, (unsigned long long)S.store_insns,
      (unsigned long long)S.gemm_insns, (unsigned long long)S.alu_insns,
      (unsigned long long)S.finish_insns, (unsigned long long)S.nop_insns,
      (unsigned long long)S.inp_load_nbytes,
      (unsigned long long)S.wgt_load_nbytes,
      (unsigned long long)S.acc_load_nbytes,
      (unsigned long long)S.uop_load_nbytes,
      (unsigned long long)S.out_store_nbytes,
      (unsigned long long)S.gemm_counter, (unsigned long long)S.alu_counter);
}

void addStats(VTASchedStats &To, const VTASchedStats &From) {
  const uint64_t *F = reinterpret_cast<const uint64_t *>(&From);
  uint64_t *T = reinterpret_cast<uint64_t *>(&To);
  for (size_t N = 0; N < sizeof(VTASchedStats) / sizeof(uint64_t); ++N)
    T[N] += F[N];
}

void CommandQueue::synchronize() {
  if (Broken) {
    reset();
    return;
  }
  bool Serial = DebugFlags & VTA_DEBUG_FORCE_SERIAL;
  if (!Serial) {
    // FINISH runs after the last store and the last load.
    depPush(StageStore, StageCompute);
    depPush(StageLoad, StageCompute);
    depPop(StageStore, StageCompute);
    depPop(StageLoad, StageCompute);
    commitPendingPop(StageCompute);
  }
  create(StageCompute).Op = OpFinish;
  if (!Serial)
    for (int St : {StageLoad, StageStore})
      if (PendingPopPrev[St] || PendingPopNext[St]) {
        fail(std::string("tokens left over at synchronize: a VTADepPop to "
                         "the ") +
             (St == StageLoad ? "load" : "store") +
             " stage is followed by no instruction of that stage");
        reset();
        return;
      }
  if (DebugFlags & VTA_DEBUG_DUMP_INSN)
    for (size_t N = 0; N < Program.size(); ++N)
      std::fprintf(stderr, "sched: vta: insn %zu: %s\n", N,
                   describe(Program[N]).c_str());
  VTASchedStats Run{};
  std::string Err = runProgram(Program, Serial, Run);
  addStats(Stats, Run);
  if (const char *V = std::getenv("SCHED_VERBOSE"))
    if (*V && std::strcmp(V, "0") != 0)
      printStats(Run);
  if (!Err.empty())
    fail(Err);
  reset();
}

void CommandQueue::pushOp(int Mode, void **Handle, int (*Finit)(void *),
                          void *Signature, int NBytes) {
  const char *Fn = Mode == 0 ? "VTAPushGEMMOp" : "VTAPushALUOp";
  if (Broken)
    return;
  if (Recording)
    return fail(std::string(Fn) + " inside a uop kernel's finit");
  if (!Handle || !Finit)
    return fail(std::string(Fn) + ": null uop handle or finit");
  if (NBytes != 0 && NBytes != int(sizeof(int)))
    return fail(std::string(Fn) + ": signature of " + std::to_string(NBytes) +
                " bytes (0 or 4 allowed)");
  int Key = 0;
  if (NBytes) {
    int Sig;
    std::memcpy(&Sig, Signature, sizeof(int));
    Key = Sig + 1;
  }
  if (Key < 0 || Key >= 100)
    return fail(std::string(Fn) + ": signature " + std::to_string(Key - 1) +
                " out of range (0..98)");
  if (!*Handle)
    *Handle = new UopKernelMap(); // owned by the static handle: process life
  UopKernelMap &Map = *static_cast<UopKernelMap *>(*Handle);
  UopKernel *K = Map.Kernels[Key];
  if (!K) {
    std::unique_ptr<UopKernel> New(new UopKernel());
    Recording = New.get();
    int Rc = Finit(Signature);
    Recording = nullptr;
    if (Broken)
      return;
    if (Rc != 0)
      return fail(std::string(Fn) + ": finit returned " + std::to_string(Rc));
    if (New->Uops.empty())
      return fail(std::string(Fn) + ": finit pushed no uop");
    K = Map.Kernels[Key] = New.release();
  }
  if (K->Mode != Mode)
    return fail(std::string(Fn) + ": the kernel's uops are " +
                (K->Mode == 0 ? "GEMM" : "ALU") + " uops");
  uint32_t Size = uint32_t(K->Uops.size());
  if (Size > UopDepth)
    return fail(std::string(Fn) + ": kernel of " + std::to_string(Size) +
                " uops exceeds the uop buffer (depth " +
                std::to_string(UopDepth) + ")");
  auto It = UopCache.find(K);
  uint32_t Base;
  if (It != UopCache.end()) {
    Base = It->second;
  } else {
    if (UopTop + Size > UopDepth) { // evict everything: compute runs in order
      UopCache.clear();
      UopTop = 0;
    }
    Base = UopTop;
    Insn &L = create(StageCompute);
    L.Op = OpLoad;
    L.MemType = VTA_MEM_ID_UOP;
    L.SramBase = Base;
    L.XSize = Size;
    L.YSize = 1;
    L.XStride = Size;
    L.Kernel = K;
    UopTop += Size;
    UopCache[K] = Base;
  }
  Insn &I = create(StageCompute);
  I.Op = Mode == 0 ? OpGemm : OpAlu;
  I.Reset = K->Reset;
  I.UopBgn = Base;
  I.UopEnd = Base + Size;
  const UopLoop None;
  const UopLoop &Out =
      K->Loops.size() == 2 || (K->Loops.size() == 1 && Mode == 0) ? K->Loops[0]
                                                                  : None;
  const UopLoop &In = K->Loops.size() == 2                ? K->Loops[1]
                      : K->Loops.size() == 1 && Mode == 1 ? K->Loops[0]
                                                          : None;
  I.IterOut = Out.Extent;
  I.IterIn = In.Extent;
  I.DstOut = Out.DstFactor;
  I.DstIn = In.DstFactor;
  I.SrcOut = Out.SrcFactor;
  I.SrcIn = In.SrcFactor;
  I.WgtOut = Out.WgtFactor;
  I.WgtIn = In.WgtFactor;
  I.AluOp = K->AluOp;
  I.UseImm = K->UseImm;
  I.Imm = K->Imm;
}

} // namespace

// ---- the C API
// ---------------------------------------------------------------

extern "C" {

void *VTABufferAlloc(size_t size) {
  size_t Pages = (size + (size_t(1) << PageBits) - 1) >> PageBits;
  if (Pages == 0)
    Pages = 1;
  DataBuffer *B = new DataBuffer();
  B->Size = size;
  B->Data = static_cast<uint8_t *>(
      std::aligned_alloc(size_t(1) << PageBits, Pages << PageBits));
  if (!B->Data) {
    delete B;
    return nullptr;
  }
  std::memset(B->Data, 0, Pages << PageBits);
  Dram &D = dram();
  std::lock_guard<std::mutex> G(D.Lock);
  B->PhyAddr = D.NextPage << PageBits;
  D.NextPage += Pages + 1; // a guard page: no read runs into the next buffer
  D.ByPhy[B->PhyAddr] = B;
  D.Handles.insert(B);
  return B;
}

void VTABufferFree(void *buffer) {
  if (!buffer)
    return;
  DataBuffer *B = fromHandle(buffer);
  if (!B) {
    CommandQueue::get().fail("VTABufferFree of a pointer that is not a "
                             "VTABufferAlloc handle");
    return;
  }
  Dram &D = dram();
  {
    std::lock_guard<std::mutex> G(D.Lock);
    D.ByPhy.erase(B->PhyAddr);
    D.Handles.erase(B);
  }
  std::free(B->Data);
  delete B;
}

void VTABufferCopy(const void *from, size_t from_offset, void *to,
                   size_t to_offset, size_t size, int kind_mask) {
  const uint8_t *Src = static_cast<const uint8_t *>(from);
  uint8_t *Dst = static_cast<uint8_t *>(to);
  if (kind_mask & 2) {
    DataBuffer *B = fromHandle(from);
    if (!B || from_offset + size > B->Size)
      return CommandQueue::get().fail(
          "VTABufferCopy: the source is not a VTA buffer holding the range");
    Src = B->Data;
  }
  if (kind_mask & 1) {
    DataBuffer *B = fromHandle(to);
    if (!B || to_offset + size > B->Size)
      return CommandQueue::get().fail(
          "VTABufferCopy: the destination is not a VTA buffer holding the "
          "range");
    Dst = B->Data;
  }
  std::memmove(Dst + to_offset, Src + from_offset, size);
}

VTACommandHandle VTATLSCommandHandle(void) { return &CommandQueue::get(); }

void VTARuntimeShutdown(void) { CommandQueue::get().reset(); }

void *VTABufferCPUPtr(VTACommandHandle, void *buffer) {
  DataBuffer *B = fromHandle(buffer);
  return B ? B->Data : buffer;
}

// Coherent memory (VTA_COHERENT_ACCESSES): the barriers are no-ops.
void VTAWriteBarrier(VTACommandHandle, void *, uint32_t, uint32_t, uint32_t) {}
void VTAReadBarrier(VTACommandHandle, void *, uint32_t, uint32_t, uint32_t) {}

void VTASetDebugMode(VTACommandHandle, int debug_flag) {
  CommandQueue::get().DebugFlags = debug_flag;
}

void VTALoadBuffer2D(VTACommandHandle, void *src_dram_addr,
                     uint32_t src_elem_offset, uint32_t x_size, uint32_t y_size,
                     uint32_t x_stride, uint32_t x_pad_before,
                     uint32_t y_pad_before, uint32_t x_pad_after,
                     uint32_t y_pad_after, uint32_t dst_sram_index,
                     uint32_t dst_memory_type) {
  CommandQueue &Q = CommandQueue::get();
  const char *Fn = "VTALoadBuffer2D";
  if (Q.Broken)
    return;
  LoadTarget T;
  if (!loadTarget(dst_memory_type, T))
    return Q.fail(std::string(Fn) + ": memory type " +
                  std::to_string(dst_memory_type) +
                  " cannot be loaded (inp 2, wgt 1, acc 3, acc_8bit 5)");
  uint32_t Elem = T.DramElemBytes, Depth = T.Depth;
  DataBuffer *B = fromHandle(src_dram_addr);
  if (!B)
    return Q.fail(std::string(Fn) +
                  ": the source is not a VTABufferAlloc handle");
  if (!checkFields(
          Q, Fn,
          {{"x_size", x_size, SizeBits},
           {"y_size", y_size, SizeBits},
           {"x_stride", x_stride, StrideBits},
           {"x_pad_before", x_pad_before, PadBits},
           {"y_pad_before", y_pad_before, PadBits},
           {"x_pad_after", x_pad_after, PadBits},
           {"y_pad_after", y_pad_after, PadBits},
           {"dst_sram_index", dst_sram_index, SramBits},
           {"dram_base", B->PhyAddr / Elem + src_elem_offset, DramBits}}))
    return;
  uint64_t Entries = uint64_t(x_pad_before + x_size + x_pad_after) *
                     (y_pad_before + y_size + y_pad_after);
  if (x_size && dst_sram_index + Entries > Depth)
    return Q.fail(std::string(Fn) + ": " + std::to_string(Entries) +
                  " entries from index " + std::to_string(dst_sram_index) +
                  " overflow the buffer (depth " + std::to_string(Depth) + ")");
  if (x_size && y_size &&
      (uint64_t(src_elem_offset) + uint64_t(y_size - 1) * x_stride + x_size) *
              Elem >
          B->Size)
    return Q.fail(std::string(Fn) +
                  ": the rows read run past the end of the "
                  "source buffer (" +
                  std::to_string(B->Size) + " bytes)");
  Insn &I = Q.create(dst_memory_type == VTA_MEM_ID_INP ||
                             dst_memory_type == VTA_MEM_ID_WGT
                         ? StageLoad
                         : StageCompute);
  I.Op = OpLoad;
  I.MemType = dst_memory_type;
  I.SramBase = dst_sram_index;
  I.DramBase = uint32_t(B->PhyAddr / Elem + src_elem_offset);
  I.XSize = x_size;
  I.YSize = y_size;
  I.XStride = x_stride;
  I.XPad0 = x_pad_before;
  I.YPad0 = y_pad_before;
  I.XPad1 = x_pad_after;
  I.YPad1 = y_pad_after;
}

void VTAStoreBuffer2D(VTACommandHandle, uint32_t src_sram_index,
                      uint32_t src_memory_type, void *dst_dram_addr,
                      uint32_t dst_elem_offset, uint32_t x_size,
                      uint32_t y_size, uint32_t x_stride) {
  CommandQueue &Q = CommandQueue::get();
  const char *Fn = "VTAStoreBuffer2D";
  if (Q.Broken)
    return;
  if (src_memory_type != VTA_MEM_ID_OUT)
    return Q.fail(std::string(Fn) + ": memory type " +
                  std::to_string(src_memory_type) +
                  " cannot be stored (only out, 4)");
  DataBuffer *B = fromHandle(dst_dram_addr);
  if (!B)
    return Q.fail(std::string(Fn) +
                  ": the destination is not a VTABufferAlloc handle");
  if (!checkFields(
          Q, Fn,
          {{"x_size", x_size, SizeBits},
           {"y_size", y_size, SizeBits},
           {"x_stride", x_stride, StrideBits},
           {"src_sram_index", src_sram_index, SramBits},
           {"dram_base", B->PhyAddr / OutBytes + dst_elem_offset, DramBits}}))
    return;
  if (uint64_t(src_sram_index) + uint64_t(x_size) * y_size > AccDepth)
    return Q.fail(std::string(Fn) + ": " + std::to_string(x_size * y_size) +
                  " entries from index " + std::to_string(src_sram_index) +
                  " overflow the out buffer (depth " +
                  std::to_string(AccDepth) + ")");
  if (x_size && y_size &&
      (uint64_t(dst_elem_offset) + uint64_t(y_size - 1) * x_stride + x_size) *
              OutBytes >
          B->Size)
    return Q.fail(std::string(Fn) +
                  ": the rows written run past the end of "
                  "the destination buffer (" +
                  std::to_string(B->Size) + " bytes)");
  Insn &I = Q.create(StageStore);
  I.Op = OpStore;
  I.MemType = VTA_MEM_ID_OUT;
  I.SramBase = src_sram_index;
  I.DramBase = uint32_t(B->PhyAddr / OutBytes + dst_elem_offset);
  I.XSize = x_size;
  I.YSize = y_size;
  I.XStride = x_stride;
}

void VTAUopLoopBegin(uint32_t extent, uint32_t dst_factor, uint32_t src_factor,
                     uint32_t wgt_factor) {
  CommandQueue &Q = CommandQueue::get();
  const char *Fn = "VTAUopLoopBegin";
  if (!Q.Recording)
    return Q.fail(std::string(Fn) + " outside a uop kernel's finit");
  UopKernel &K = *Q.Recording;
  if (!K.Uops.empty())
    return Q.fail(std::string(Fn) + " after a VTAUopPush of the same kernel");
  if (K.Loops.size() == 2)
    return Q.fail(std::string(Fn) + ": a uop kernel has at most 2 loops");
  if (extent == 0)
    return Q.fail(std::string(Fn) + ": extent 0");
  if (!checkFields(Q, Fn,
                   {{"extent", extent, LoopIterBits},
                    {"dst_factor", dst_factor, DstFactorBits},
                    {"src_factor", src_factor, SrcFactorBits},
                    {"wgt_factor", wgt_factor, WgtFactorBits}}))
    return;
  K.Loops.push_back({extent, dst_factor, src_factor, wgt_factor});
}

void VTAUopLoopEnd(void) {
  CommandQueue &Q = CommandQueue::get();
  if (!Q.Recording)
    Q.fail("VTAUopLoopEnd outside a uop kernel's finit");
}

void VTAUopPush(uint32_t mode, uint32_t reset_out, uint32_t dst_index,
                uint32_t src_index, uint32_t wgt_index, uint32_t opcode,
                uint32_t use_imm, int32_t imm_val) {
  CommandQueue &Q = CommandQueue::get();
  const char *Fn = "VTAUopPush";
  if (!Q.Recording)
    return Q.fail(std::string(Fn) + " outside a uop kernel's finit");
  UopKernel &K = *Q.Recording;
  if (mode > 1)
    return Q.fail(std::string(Fn) + ": mode " + std::to_string(mode) +
                  " (0 GEMM, 1 ALU)");
  if (mode == 1 && opcode > VTA_ALU_OPCODE_MUL)
    return Q.fail(std::string(Fn) + ": ALU opcode " + std::to_string(opcode));
  if (mode == 1 && use_imm &&
      (imm_val < -(1 << (ImmBits - 1)) || imm_val >= (1 << (ImmBits - 1))))
    return Q.fail(std::string(Fn) + ": immediate " + std::to_string(imm_val) +
                  " does not fit the signed 16-bit field");
  if (!checkFields(Q, Fn,
                   {{"dst_index", dst_index, UopDstBits},
                    {"src_index", src_index, UopSrcBits},
                    {"wgt_index", wgt_index, UopWgtBits}}))
    return;
  bool Alu = mode == 1;
  if (K.Mode < 0) {
    K.Mode = int(mode);
    K.Reset = reset_out;
    K.AluOp = Alu ? opcode : 0;
    K.UseImm = Alu ? use_imm : 0;
    K.Imm = Alu ? imm_val : 0;
  } else if (K.Mode != int(mode) || K.Reset != reset_out ||
             (Alu &&
              (K.AluOp != opcode || K.UseImm != use_imm || K.Imm != imm_val))) {
    return Q.fail(std::string(Fn) +
                  ": every uop of a kernel must have the "
                  "same mode, reset, ALU opcode and immediate");
  }
  // The GEMM pipeline does not check write-after-write hazards on the acc.
  size_t N = K.Uops.size();
  if ((N >= 1 && K.Uops[N - 1].Dst == dst_index) ||
      (N >= 2 && K.Uops[N - 2].Dst == dst_index))
    return Q.fail(std::string(Fn) + ": dst_index " + std::to_string(dst_index) +
                  " repeats within 2 consecutive uops (a pipeline hazard)");
  K.Uops.push_back({dst_index, src_index, wgt_index});
}

int VTAPushGEMMOp(void **uop_handle, int (*finit)(void *), void *signature,
                  int nbytes) {
  CommandQueue::get().pushOp(0, uop_handle, finit, signature, nbytes);
  return 0;
}

int VTAPushALUOp(void **uop_handle, int (*finit)(void *), void *signature,
                 int nbytes) {
  CommandQueue::get().pushOp(1, uop_handle, finit, signature, nbytes);
  return 0;
}

int VTADepPush(VTACommandHandle, int from_qid, int to_qid) {
  CommandQueue::get().depPush(from_qid, to_qid);
  return 0;
}

int VTADepPop(VTACommandHandle, int from_qid, int to_qid) {
  CommandQueue::get().depPop(from_qid, to_qid);
  return 0;
}

void VTASynchronize(VTACommandHandle, uint32_t) {
  CommandQueue::get().synchronize();
}

const char *VTASchedLastError(void) {
  CommandQueue &Q = CommandQueue::get();
  return Q.Error.empty() ? nullptr : Q.Error.c_str();
}

void VTASchedClearError(void) {
  CommandQueue &Q = CommandQueue::get();
  Q.Error.clear();
  Q.reset();
}

void VTASchedGetStats(VTASchedStats *stats) {
  if (stats)
    *stats = CommandQueue::get().Stats;
}

void VTASchedResetStats(void) { CommandQueue::get().Stats = VTASchedStats{}; }

} // extern "C"
