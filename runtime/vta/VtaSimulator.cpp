//===- VtaSimulator.cpp - Running a VTA instruction stream ----------------===//
//
// The functional semantics of the VTA ISA (apache/tvm-vta src/sim): LOAD with
// zero padding into the inp/wgt/acc/uop SRAMs, STORE narrowing int32 acc lanes
// to int8 (low 8 bits, no saturation), GEMM and ALU over the two-level uop
// loops, FINISH. Instructions go to three cores (load: LOAD of INP/WGT;
// store: STORE; compute: everything else) that exchange tokens through four
// FIFOs (l2g, g2l, g2s, s2g).
//
// Unlike the upstream fsim, which starts at a random core and spins forever on
// a pop no push satisfies, the schedule here is deterministic and greedy: the
// load core runs as far as its tokens allow, then compute, then store, again
// until FINISH has run. A producer therefore runs as far ahead as the tokens
// let it, so a missing WAR token shows up as overwritten SRAM (a wrong
// result); a state where no core can move before FINISH is reported as a
// deadlock, and tokens still queued after FINISH as an error.
//
//===----------------------------------------------------------------------===//

#include "vta/VtaSim.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <deque>
#include <memory>
#include <sstream>

namespace sched {
namespace vta {

bool loadTarget(uint32_t MemType, LoadTarget &T) {
  switch (MemType) {
  case VTA_MEM_ID_INP:
    T = {InpDepth, InpBytes, InpBytes, &VTASchedStats::inp_load_nbytes};
    return true;
  case VTA_MEM_ID_WGT:
    T = {WgtDepth, WgtBytes, WgtBytes, &VTASchedStats::wgt_load_nbytes};
    return true;
  case VTA_MEM_ID_ACC:
    T = {AccDepth, AccBytes, AccBytes, &VTASchedStats::acc_load_nbytes};
    return true;
  case VTA_MEM_ID_ACC_8BIT:
    T = {AccDepth, AccBytes, OutBytes, &VTASchedStats::acc_load_nbytes};
    return true;
  default:
    return false;
  }
}

Stage stageOf(const Insn &I) {
  if (I.Op == OpLoad &&
      (I.MemType == VTA_MEM_ID_INP || I.MemType == VTA_MEM_ID_WGT))
    return StageLoad;
  if (I.Op == OpStore)
    return StageStore;
  return StageCompute;
}

static const char *opName(Opcode Op) {
  switch (Op) {
  case OpLoad:
    return "LOAD";
  case OpStore:
    return "STORE";
  case OpGemm:
    return "GEMM";
  case OpFinish:
    return "FINISH";
  case OpAlu:
    return "ALU";
  }
  return "?";
}

static const char *memName(uint32_t M) {
  static const char *Names[] = {"uop", "wgt", "inp", "acc", "out", "acc_8bit"};
  return M < 6 ? Names[M] : "?";
}

std::string describe(const Insn &I) {
  std::ostringstream OS;
  OS << opName(I.Op);
  if (I.Op == OpLoad || I.Op == OpStore)
    OS << " " << memName(I.MemType) << " sram=" << I.SramBase
       << " dram=" << I.DramBase << " y=" << I.YSize << " x=" << I.XSize
       << " stride=" << I.XStride << " pad=(" << I.YPad0 << "," << I.YPad1
       << "," << I.XPad0 << "," << I.XPad1 << ")";
  if (I.Op == OpGemm || I.Op == OpAlu)
    OS << (I.Reset ? " reset" : "") << " uop=[" << I.UopBgn << "," << I.UopEnd
       << ") iter=(" << I.IterOut << "," << I.IterIn << ") dst=(" << I.DstOut
       << "," << I.DstIn << ") src=(" << I.SrcOut << "," << I.SrcIn << ")";
  if (I.Op == OpGemm)
    OS << " wgt=(" << I.WgtOut << "," << I.WgtIn << ")";
  if (I.Op == OpAlu)
    OS << " aluop=" << I.AluOp << (I.UseImm ? " imm=" : "")
       << (I.UseImm ? std::to_string(I.Imm) : std::string());
  OS << " pop_prev=" << I.PopPrev << " pop_next=" << I.PopNext
     << " push_prev=" << I.PushPrev << " push_next=" << I.PushNext;
  return OS.str();
}

namespace {

/// The on-chip buffers; they persist across synchronizes like the hardware's.
struct Sram {
  std::vector<int8_t> Inp = std::vector<int8_t>(size_t(InpDepth) * InpBytes);
  std::vector<int8_t> Wgt = std::vector<int8_t>(size_t(WgtDepth) * WgtBytes);
  std::vector<int32_t> Acc =
      std::vector<int32_t>(size_t(AccDepth) * Batch * BlockOut);
  std::vector<Uop> Uops = std::vector<Uop>(UopDepth);
};

Sram &sram() {
  thread_local std::unique_ptr<Sram> S(new Sram());
  return *S;
}

int32_t wrapAdd(int32_t A, int32_t B) {
  return int32_t(uint32_t(A) + uint32_t(B));
}
int32_t wrapMul(int32_t A, int32_t B) {
  return int32_t(uint32_t(A) * uint32_t(B));
}

/// SHR: a non-negative amount shifts right (arithmetic), a negative one left.
/// Amounts beyond 31 saturate (sign / zero) instead of being undefined.
int32_t shiftRight(int32_t X, int32_t Y) {
  if (Y >= 0)
    return Y >= 31 ? (X < 0 ? -1 : 0) : (X >> Y);
  return -Y >= 32 ? 0 : int32_t(uint32_t(X) << -Y);
}

class Executor {
public:
  Executor(VTASchedStats &Stats) : Stats(Stats), S(sram()) {}

  std::string run(const Insn &I) {
    switch (I.Op) {
    case OpLoad:
      return load(I);
    case OpStore:
      return store(I);
    case OpGemm:
      return gemm(I);
    case OpAlu:
      return alu(I);
    case OpFinish:
      ++Stats.finish_insns;
      return "";
    }
    return "unknown opcode";
  }

private:
  VTASchedStats &Stats;
  Sram &S;

  std::string load(const Insn &I) {
    if (I.XSize == 0) {
      ++Stats.nop_insns;
      return "";
    }
    ++Stats.load_insns;
    uint32_t XTotal = I.XPad0 + I.XSize + I.XPad1;
    uint32_t YTotal = I.YPad0 + I.YSize + I.YPad1;
    uint64_t Entries = uint64_t(XTotal) * YTotal;
    if (I.MemType == VTA_MEM_ID_UOP) {
      if (I.SramBase + Entries > UopDepth)
        return "LOAD uop overflows the uop buffer";
      std::copy(I.Kernel->Uops.begin(), I.Kernel->Uops.end(),
                S.Uops.begin() + I.SramBase);
      Stats.uop_load_nbytes += uint64_t(I.XSize) * UopBytes;
      return "";
    }
    LoadTarget T;
    if (!loadTarget(I.MemType, T))
      return "LOAD into memory type " + std::to_string(I.MemType);
    uint32_t Depth = T.Depth, Elem = T.SramElemBytes,
             DramElem = T.DramElemBytes;
    uint8_t *Base = I.MemType == VTA_MEM_ID_INP
                        ? reinterpret_cast<uint8_t *>(S.Inp.data())
                    : I.MemType == VTA_MEM_ID_WGT
                        ? reinterpret_cast<uint8_t *>(S.Wgt.data())
                        : reinterpret_cast<uint8_t *>(S.Acc.data());
    Stats.*T.LoadedBytes += uint64_t(I.XSize) * I.YSize * DramElem;
    if (I.SramBase + Entries > Depth)
      return std::string("LOAD of ") + std::to_string(Entries) +
             " entries at " + memName(I.MemType) + "[" +
             std::to_string(I.SramBase) + "] overflows the buffer (depth " +
             std::to_string(Depth) + ")";
    uint8_t *Dst = Base + size_t(I.SramBase) * Elem;
    std::memset(Dst, 0, size_t(Entries) * Elem);
    for (uint32_t Y = 0; Y < I.YSize; ++Y) {
      uint64_t Phy =
          (uint64_t(I.DramBase) + uint64_t(Y) * I.XStride) * DramElem;
      const uint8_t *Src = dramAt(Phy, uint64_t(I.XSize) * DramElem);
      if (!Src)
        return std::string("LOAD ") + memName(I.MemType) + " row " +
               std::to_string(Y) + " reads DRAM element " +
               std::to_string(Phy / DramElem) + " outside every VTA buffer";
      uint8_t *Row =
          Dst + (size_t(I.YPad0 + Y) * XTotal + I.XPad0) * size_t(Elem);
      if (I.MemType == VTA_MEM_ID_ACC_8BIT) {
        int32_t *Lanes = reinterpret_cast<int32_t *>(Row);
        for (uint64_t L = 0; L < uint64_t(I.XSize) * OutBytes; ++L)
          Lanes[L] = int8_t(Src[L]);
      } else {
        std::memcpy(Row, Src, size_t(I.XSize) * Elem);
      }
    }
    return "";
  }

  std::string store(const Insn &I) {
    if (I.XSize == 0) {
      ++Stats.nop_insns;
      return "";
    }
    ++Stats.store_insns;
    if (I.MemType != VTA_MEM_ID_OUT)
      return "STORE from memory type " + std::to_string(I.MemType) +
             " (only out, 4, can be stored)";
    if (uint64_t(I.SramBase) + uint64_t(I.XSize) * I.YSize > AccDepth)
      return "STORE reads past the end of the out buffer (depth " +
             std::to_string(AccDepth) + ")";
    for (uint32_t Y = 0; Y < I.YSize; ++Y) {
      uint64_t Phy =
          (uint64_t(I.DramBase) + uint64_t(Y) * I.XStride) * OutBytes;
      uint8_t *Dst = dramAt(Phy, uint64_t(I.XSize) * OutBytes);
      if (!Dst)
        return "STORE row " + std::to_string(Y) + " writes DRAM element " +
               std::to_string(Phy / OutBytes) + " outside every VTA buffer";
      const int32_t *Src =
          S.Acc.data() +
          (size_t(I.SramBase) + size_t(Y) * I.XSize) * Batch * BlockOut;
      for (size_t L = 0; L < size_t(I.XSize) * OutBytes; ++L)
        Dst[L] = uint8_t(uint32_t(Src[L]) & 0xff);
    }
    Stats.out_store_nbytes += uint64_t(I.XSize) * I.YSize * OutBytes;
    return "";
  }

  static std::string beyond(const char *What, uint64_t Index, uint32_t Depth) {
    return std::string(What) + " entry " + std::to_string(Index) +
           " is beyond the buffer's depth " + std::to_string(Depth);
  }

  std::string gemm(const Insn &I) {
    ++Stats.gemm_insns;
    for (uint32_t Y = 0; Y < I.IterOut; ++Y)
      for (uint32_t X = 0; X < I.IterIn; ++X)
        for (uint32_t U = I.UopBgn; U < I.UopEnd; ++U) {
          const Uop &Op = S.Uops[U];
          uint64_t AccIdx =
              Op.Dst + uint64_t(Y) * I.DstOut + uint64_t(X) * I.DstIn;
          uint64_t InpIdx =
              Op.Src + uint64_t(Y) * I.SrcOut + uint64_t(X) * I.SrcIn;
          uint64_t WgtIdx =
              Op.Wgt + uint64_t(Y) * I.WgtOut + uint64_t(X) * I.WgtIn;
          if (AccIdx >= AccDepth)
            return beyond("GEMM acc", AccIdx, AccDepth);
          int32_t *Acc = S.Acc.data() + AccIdx * Batch * BlockOut;
          if (I.Reset) {
            std::fill(Acc, Acc + Batch * BlockOut, 0);
            continue;
          }
          if (InpIdx >= InpDepth)
            return beyond("GEMM inp", InpIdx, InpDepth);
          if (WgtIdx >= WgtDepth)
            return beyond("GEMM wgt", WgtIdx, WgtDepth);
          ++Stats.gemm_counter;
          const int8_t *Inp = S.Inp.data() + InpIdx * InpBytes;
          const int8_t *Wgt = S.Wgt.data() + WgtIdx * WgtBytes;
          for (unsigned B = 0; B < Batch; ++B)
            for (unsigned J = 0; J < BlockOut; ++J) {
              int32_t Sum = 0;
              for (unsigned K = 0; K < BlockIn; ++K)
                Sum = wrapAdd(Sum, int32_t(Inp[B * BlockIn + K]) *
                                       int32_t(Wgt[J * BlockIn + K]));
              Acc[B * BlockOut + J] = wrapAdd(Acc[B * BlockOut + J], Sum);
            }
        }
    return "";
  }

  std::string alu(const Insn &I) {
    ++Stats.alu_insns;
    for (uint32_t Y = 0; Y < I.IterOut; ++Y)
      for (uint32_t X = 0; X < I.IterIn; ++X)
        for (uint32_t U = I.UopBgn; U < I.UopEnd; ++U) {
          const Uop &Op = S.Uops[U];
          uint64_t DstIdx =
              Op.Dst + uint64_t(Y) * I.DstOut + uint64_t(X) * I.DstIn;
          uint64_t SrcIdx =
              Op.Src + uint64_t(Y) * I.SrcOut + uint64_t(X) * I.SrcIn;
          if (DstIdx >= AccDepth)
            return beyond("ALU dst acc", DstIdx, AccDepth);
          if (!I.UseImm && SrcIdx >= AccDepth)
            return beyond("ALU src acc", SrcIdx, AccDepth);
          ++Stats.alu_counter;
          int32_t *Dst = S.Acc.data() + DstIdx * Batch * BlockOut;
          const int32_t *Src =
              I.UseImm ? nullptr : S.Acc.data() + SrcIdx * Batch * BlockOut;
          for (unsigned L = 0; L < Batch * BlockOut; ++L) {
            int32_t A = Dst[L], B = I.UseImm ? I.Imm : Src[L];
            switch (I.AluOp) {
            case VTA_ALU_OPCODE_MIN:
              Dst[L] = std::min(A, B);
              break;
            case VTA_ALU_OPCODE_MAX:
              Dst[L] = std::max(A, B);
              break;
            case VTA_ALU_OPCODE_ADD:
              Dst[L] = wrapAdd(A, B);
              break;
            case VTA_ALU_OPCODE_SHR:
              Dst[L] = shiftRight(A, B);
              break;
            case VTA_ALU_OPCODE_MUL:
              Dst[L] = wrapMul(A, B);
              break;
            default:
              return "ALU opcode " + std::to_string(I.AluOp);
            }
          }
        }
    return "";
  }
};

} // namespace

std::string runProgram(const std::vector<Insn> &Program, bool ForceSerial,
                       VTASchedStats &Stats) {
  Executor Exec(Stats);
  if (ForceSerial) {
    for (const Insn &I : Program) {
      std::string Err = Exec.run(I);
      if (!Err.empty())
        return Err;
    }
    return "";
  }
  // Queues indexed by stage (1..3); token FIFOs hold counts only.
  std::array<std::deque<size_t>, 4> Queue;
  for (size_t N = 0; N < Program.size(); ++N)
    Queue[stageOf(Program[N])].push_back(N);
  unsigned L2G = 0, G2L = 0, G2S = 0, S2G = 0;
  bool Finished = false;
  auto Describe = [&](int St) {
    static const char *Names[] = {"", "load", "compute", "store"};
    const Insn &I = Program[Queue[St].front()];
    std::string What = Names[St];
    What += " core at instruction " + std::to_string(Queue[St].front()) + " (" +
            opName(I.Op) + ") waits for a token from the ";
    if (St == StageLoad)
      What += "compute core (g2l)";
    else if (St == StageStore)
      What += "compute core (g2s)";
    else
      What += I.PopPrev && !L2G ? "load core (l2g)" : "store core (s2g)";
    return What;
  };
  while (!Finished) {
    bool Progress = false;
    for (int St = StageLoad; St <= StageStore && !Finished; ++St) {
      while (!Queue[St].empty()) {
        const Insn &I = Program[Queue[St].front()];
        // Pops: which FIFO each flag reads depends on the core.
        unsigned *PrevFifo = St == StageCompute ? &L2G
                             : St == StageStore ? &G2S
                                                : nullptr;
        unsigned *NextFifo = St == StageCompute ? &S2G
                             : St == StageLoad  ? &G2L
                                                : nullptr;
        if ((I.PopPrev && !PrevFifo) || (I.PushPrev && St == StageLoad) ||
            (I.PopNext && !NextFifo) || (I.PushNext && St == StageStore))
          return "instruction " + std::to_string(Queue[St].front()) +
                 " pops or pushes a token past the end of the pipeline";
        if ((I.PopPrev && *PrevFifo == 0) || (I.PopNext && *NextFifo == 0))
          break;
        if (I.PopPrev)
          --*PrevFifo;
        if (I.PopNext)
          --*NextFifo;
        std::string Err = Exec.run(I);
        if (!Err.empty())
          return "instruction " + std::to_string(Queue[St].front()) + ": " +
                 Err;
        if (St == StageCompute) {
          G2L += I.PushPrev;
          G2S += I.PushNext;
        } else if (St == StageLoad) {
          L2G += I.PushNext;
        } else {
          S2G += I.PushPrev;
        }
        Queue[St].pop_front();
        Progress = true;
        if (I.Op == OpFinish) {
          Finished = true;
          break;
        }
      }
    }
    if (Finished)
      break;
    if (!Progress) {
      std::string Msg = "deadlock: ";
      bool First = true;
      for (int St = StageLoad; St <= StageStore; ++St)
        if (!Queue[St].empty()) {
          Msg += (First ? "" : "; ") + Describe(St);
          First = false;
        }
      if (First)
        Msg += "the stream has no FINISH";
      return Msg + " that is never pushed";
    }
  }
  for (int St = StageLoad; St <= StageStore; ++St)
    if (!Queue[St].empty())
      return std::to_string(Queue[St].size()) +
             " instruction(s) still queued after FINISH";
  if (L2G || G2L || G2S || S2G)
    return "tokens left over at synchronize: l2g " + std::to_string(L2G) +
           ", g2l " + std::to_string(G2L) + ", g2s " + std::to_string(G2S) +
           ", s2g " + std::to_string(S2G) + " (a push without its pop)";
  return "";
}

} // namespace vta
} // namespace sched
