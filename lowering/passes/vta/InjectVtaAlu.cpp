//===- InjectVtaAlu.cpp - pragma(x, alu) becomes VTA ALU uops -------------===//
//
// target(vta): the elementwise int32 work under a loop marked pragma(x, alu)
// becomes vta.uop_alu calls (ir/Vta.h, uop form), one loop nest per ALU
// operation, in order. TVM's InjectALUIntrin does this for the tutorials'
// vector add and GEMM epilogue.
//
// The region under x holds stores into an int32 vta.acc stage whose value
// is built from loads of int32 vta.acc stage elements and integer constants
// with + (ADD), min (MIN), max (MAX), >> and << by a constant (SHR imm n,
// SHR imm -n), * (MUL) and - of a constant (ADD imm -c). An ALU instruction
// works in place, `D = op(D, S or imm)` on the 16 lanes of an acc element,
// so each store becomes a chain of steps on its destination D:
//   Cb = min(max(Cb >> 8, 0), 127)  ->  SHR imm 8, MAX imm 0, MIN imm 127
// A run of one associative and commutative operator is one n-ary operation
// whose operands may be taken in any order (`(Ab + 1) + Cb` starts from
// Cb). Where the destination is no operand (`Cb = Ab + Bb`), D is first made
// a copy of the first operand: MIN S then MAX S (max(min(D, S), S) == S
// whatever D held), two operations every VTA has (the Xilinx ALU has no
// MUL, so `D*0 + S` would not run there). A value that is not such a chain
// (two compound operands: it would need a temporary), D read after it has
// been overwritten, a subtraction of an element (VTA has no SUB), a
// division, a comparison, anything else is an error at the pragma.
//
// Each step runs over every element before the next (one instruction per
// operation, FoldUopLoops folds its loops): legal when the iterations under
// x are independent (no loop there carries a dependence: ir/Dependence.h),
// which also keeps each iteration's reads of the other stages intact.
// Lanes: the flattened index of D and of each element operand in its stage
// is 16*e + l, l a loop of extent 16 under x with coefficient 1 (the lane
// loop, the same for all of them: it disappears, a uop covers the 16 lanes)
// and every other term a multiple of 16. Immediates are int16; a shift
// amount is in [-16, 15] (the hardware reads its low 5 bits, signed).
//
// Where in the pipeline: after BoundInference (stage shapes and indices are
// concrete) and TensorizeVtaGemm, before InjectVtaDma and FoldUopLoops. The
// pragma mark is consumed.
//
//===----------------------------------------------------------------------===//
#include "ir/Check.h"
#include "ir/Affine.h"
#include "ir/Dependence.h"
#include "ir/IRMutator.h"
#include "ir/Printer.h"
#include "ir/Rewrite.h"
#include "ir/Simplify.h"
#include "ir/Vta.h"
#include "passes/PassUtil.h"
#include "passes/Passes.h"

#include <algorithm>

namespace sched {
namespace passes {

namespace {

using ir::Expr;
using ir::Stmt;

/// One in-place operation on the destination element:
/// D = Op(D, UseImm ? Imm : Src).
struct AluStep {
  ir::VtaAluOp Op;
  Expr Src; // the first lane of an acc element; null with an immediate
  int64_t Imm = 0;
};

/// RegionScan that also reports lets and allocations (the uop nests are
/// rebuilt from the loops alone).
class AluRegionScan : public RegionScan {
protected:
  void visitLetStmt(const ir::LetStmtNode *N) override { Others.push_back(N); }
  void visitAllocate(const ir::AllocateNode *N) override { Others.push_back(N); }
};

const char *operationName(const ir::ExprNode *E) {
  if (const auto *B = ir::as<ir::BinaryNode>(borrow(E))) {
    switch (B->Op) {
    case ir::BinOp::Sub: return "a subtraction (VTA's ALU has no SUB; only a constant can be "
                                "subtracted, as ADD of its negation)";
    case ir::BinOp::Div: return "a division (VTA's ALU has none)";
    case ir::BinOp::Mod: return "a remainder (VTA's ALU has none)";
    case ir::BinOp::And:
    case ir::BinOp::Or: return "a logical operation (VTA's ALU has none)";
    case ir::BinOp::BitAnd:
    case ir::BinOp::BitOr:
    case ir::BinOp::BitXor: return "a bitwise operation (VTA's ALU has none)";
    default:
      return ir::isComparison(B->Op) ? "a comparison (VTA's ALU has none)" : "an operation";
    }
  }
  switch (E->Kind) {
  case ir::ExprKind::Select: return "a selection (VTA's ALU has none)";
  case ir::ExprKind::Unary: return "a unary operation (VTA's ALU has none)";
  case ir::ExprKind::Call: return "a call (VTA's ALU computes +, min, max, shifts and *)";
  case ir::ExprKind::Var:
    return "a variable (an ALU immediate is a compile-time constant: it is recorded in the "
           "uop kernel once)";
  case ir::ExprKind::IntImm:
  case ir::ExprKind::FloatImm:
  case ir::ExprKind::Binary:
  case ir::ExprKind::Cast:
  case ir::ExprKind::Load: return "an operand the ALU cannot read";
  }
}

/// A statement as an error quotes it: a let or an allocation without its
/// body.
std::string headline(const ir::StmtNode *S) {
  if (const auto *L = ir::as<ir::LetStmtNode>(borrow(S)))
    return "let " + L->LetVar->Name + " = " + ir::print(L->Value);
  if (const auto *A = ir::as<ir::AllocateNode>(borrow(S)))
    return "allocate " + A->Buf->Name;
  return stmtText(S);
}

/// Lowers the pragma(alu) marks of one nest.
class AluInjector {
public:
  AluInjector(ir::LoopNest &Nest, std::vector<Diag> &Diags) : Nest(Nest), Diags(Diags) {}

  /// Lowers M; false (with an error) when the region is not ALU work.
  bool apply(const ir::LoopPragma &M) {
    Directive = "pragma(" + M.Loop->Name + ", alu)";
    Loc = M.Loc;
    const ir::ForNode *X = findLoop(Nest.Body, M.Loop.get());
    if (!X)
      return error("loop '" + M.Loop->Name + "' is no longer in the nest");
    AluRegionScan Scan;
    Scan.visit(borrow(X));
    if (!Scan.Others.empty())
      return error("the region holds `" + headline(Scan.Others[0]) +
                   "`; an ALU region is loops around stores into vta.acc stages");
    if (Scan.BoundLoop)
      return error("loop '" + Scan.BoundLoop->LoopVar->Name + "' inside the region is bound to " +
                   Scan.BoundLoop->ThreadTag);
    for (const ir::ForNode *L : collectRegionLoops(Scan.Stores)) {
      ir::DependenceWitness Why;
      if (ir::loopCarriesDependence(L, &Why, nullptr, Nest.Body))
        return error("the ALU applies each operation to every element before the next, so the "
                     "iterations must be independent; loop '" + L->LoopVar->Name +
                     "' carries a " + Why.describe("dependence"));
    }
    std::vector<Stmt> Nests;
    for (const StoreSite &Site : Scan.Stores)
      if (!lowerStore(Site, Nests))
        return false;
    Nest.Body = replaceLoop(Nest.Body, X, ir::makeSeq(Nests));
    return true;
  }

private:
  ir::LoopNest &Nest;
  std::vector<Diag> &Diags;
  std::string Directive;
  int Loc = -1;

  // The store being lowered.
  const StoreSite *Site = nullptr;
  const ir::ForNode *Lane = nullptr; // its lane loop
  Expr DestFlat;                     // D's flattened index
  Expr Dest;                         // D's first lane
  std::vector<AluStep> Steps;
  bool Modified = false;             // a step has overwritten D

  bool error(const std::string &Message) {
    Diag D;
    D.Loc = Loc;
    D.Message = Directive + ": " + Message;
    Diags.push_back(D);
    return false;
  }

  static std::vector<const ir::ForNode *> collectRegionLoops(const std::vector<StoreSite> &Sites) {
    std::vector<const ir::ForNode *> Out;
    for (const StoreSite &S : Sites)
      for (const ir::ForNode *L : S.Loops)
        if (std::find(Out.begin(), Out.end(), L) == Out.end())
          Out.push_back(L);
    return Out;
  }

  //===--------------------------------------------------------------------===//
  // Elements and lanes
  //===--------------------------------------------------------------------===//

  /// The first lane of the acc element Buf[Indices] is read or written at
  /// (Text names the access); Flat receives its flattened index. The first
  /// access of a store (its destination) picks the lane loop.
  bool element(const ir::Buffer &Buf, const std::vector<Expr> &Indices, const std::string &Text,
               Expr &FirstLane, Expr &Flat) {
    if (Buf->MemScope != ir::Scope::VtaAcc)
      return error("`" + Text + "` is in " + ir::scopeName(Buf->MemScope) +
                   " memory; the ALU reads and writes vta.acc stage elements only (cache_read or "
                   "cache_write the tensor into vta.acc)");
    if (Buf->Type != ir::DType::Int32)
      return error("`" + Text + "` is " + ir::dtypeName(Buf->Type) +
                   "; the ALU computes on int32 accumulators only");
    for (const Expr &E : Buf->Shape)
      if (!ir::as<ir::IntImmNode>(E))
        return error("stage '" + Buf->Name + "' has no constant shape");
    Flat = flatIndex(Buf->Shape, Indices);
    const std::string Rule =
        "; the ALU works on whole elements of 16 lanes: the flattened index of a stage must be "
        "16*e + l with l a loop of extent 16 under the pragma (the lanes, the destination's) "
        "and every term of e a multiple of 16";
    ir::AffineForm F;
    if (!ir::toAffine(Flat, [](const ir::VarNode *) { return true; }, F))
      return error("the index of `" + Text + "` is not affine" + Rule);
    if (!Lane) {
      for (const ir::ForNode *L : Site->Loops) {
        auto It = F.Coefs.find(L->LoopVar.get());
        int64_t Coef, Min, Extent;
        if (It != F.Coefs.end() && ir::getConstInt(ir::simplify(It->second), Coef) &&
            Coef == 1 && ir::getConstInt(L->Min, Min) && Min == 0 &&
            ir::getConstInt(L->Extent, Extent) && Extent == ir::vta::AccLanes)
          Lane = L;
      }
      if (!Lane)
        return error("in `" + Text + "` (flattened: " + ir::print(Flat) +
                     ") no loop of extent 16 under the pragma has coefficient 1" + Rule);
      if (Lane->LoopKind == ir::ForKind::ThreadBound)
        return error("the lane loop '" + Lane->LoopVar->Name + "' is bound to " +
                     Lane->ThreadTag);
    }
    for (const auto &[V, CoefExpr] : F.Coefs) {
      int64_t Coef;
      bool IsLane = V == Lane->LoopVar.get();
      if (!ir::getConstInt(ir::simplify(CoefExpr), Coef))
        return error("in `" + Text + "` '" + V->Name + "' has the coefficient " +
                     ir::print(CoefExpr) + Rule);
      if (IsLane ? Coef != 1 : Coef % ir::vta::AccLanes != 0)
        return error("in `" + Text + "` (flattened: " + ir::print(Flat) + ") '" + V->Name +
                     "' has the coefficient " + std::to_string(Coef) + Rule);
    }
    if (!F.Coefs.count(Lane->LoopVar.get()))
      return error("`" + Text + "` (flattened: " + ir::print(Flat) +
                   ") does not move with the lane loop '" + Lane->LoopVar->Name + "'" + Rule);
    int64_t Constant;
    if (!ir::getConstInt(ir::simplify(F.Constant), Constant) ||
        Constant % ir::vta::AccLanes != 0)
      return error("in `" + Text + "` (flattened: " + ir::print(Flat) + ") the offset " +
                   ir::print(F.Constant) + " is not a multiple of 16" + Rule);
    std::map<const ir::VarNode *, Expr> AtLaneZero{{Lane->LoopVar.get(), ir::makeInt(0)}};
    std::vector<Expr> First;
    for (const Expr &E : Indices)
      First.push_back(ir::simplify(ir::substitute(E, AtLaneZero)));
    FirstLane = ir::makeLoad(Buf, First);
    return true;
  }

  /// Whether E reads the destination element; an element of the
  /// destination's stage that may or may not be it is an error.
  bool readsDest(const ir::LoadNode *L, const Expr &Flat, bool &IsDest) {
    IsDest = false;
    if (L->Buf != Site->Store->Buf)
      return true;
    int64_t Distance;
    if (!ir::getConstInt(ir::simplify(Flat - DestFlat), Distance))
      return error("`" + ir::print(borrow(L)) + "` may or may not be the destination `" +
                   ir::print(ir::makeLoad(Site->Store->Buf, Site->Store->Indices)) + "`");
    IsDest = Distance == 0;
    return true;
  }

  //===--------------------------------------------------------------------===//
  // The chain of steps
  //===--------------------------------------------------------------------===//

  /// The value is not simplified as a whole (the simplifier distributes
  /// `(a + b)*3`, which breaks a chain); a constant subexpression folds.
  static bool constant(const Expr &E, int64_t &Value) {
    return !ir::dependsOnMemory(E) && ir::varsOf(E).empty() &&
           ir::getConstInt(ir::simplify(E), Value);
  }

  static bool isLeaf(const Expr &E) {
    int64_t Value;
    return ir::as<ir::LoadNode>(E) || constant(E, Value);
  }

  bool isDest(const Expr &E) {
    const auto *L = ir::as<ir::LoadNode>(E);
    if (!L || L->Buf != Site->Store->Buf)
      return false;
    int64_t Distance;
    return ir::getConstInt(ir::simplify(flatIndex(L->Buf->Shape, L->Indices) - DestFlat),
                           Distance) &&
           Distance == 0;
  }

  /// The operands of a run of Op (associative and commutative) rooted at E.
  static void runOperands(ir::BinOp Op, const Expr &E, std::vector<Expr> &Out) {
    const auto *B = ir::as<ir::BinaryNode>(E);
    if (B && B->Op == Op && B->Type == ir::DType::Int32) {
      runOperands(Op, B->A, Out);
      runOperands(Op, B->B, Out);
      return;
    }
    Out.push_back(E);
  }

  static bool aluOpOf(ir::BinOp Op, ir::VtaAluOp &Out) {
    switch (Op) {
    case ir::BinOp::Add: Out = ir::VtaAluAdd; return true;
    case ir::BinOp::Min: Out = ir::VtaAluMin; return true;
    case ir::BinOp::Max: Out = ir::VtaAluMax; return true;
    case ir::BinOp::Mul: Out = ir::VtaAluMul; return true;
    default: return false;
    }
  }

  /// Appends D = Op(D, Operand), Operand a leaf.
  bool step(ir::VtaAluOp Op, const Expr &Operand) {
    int64_t Value;
    if (constant(Operand, Value))
      return stepImm(Op, Value, ir::print(Operand));
    const auto *L = ir::as<ir::LoadNode>(Operand);
    SCHED_CHECK(L, "a leaf is a load or a constant");
    std::string Text = ir::print(Operand);
    if (L->Type != ir::DType::Int32)
      return error("`" + Text + "` is " + ir::dtypeName(L->Type) +
                   "; the ALU computes on int32 accumulators only");
    Expr First, Flat;
    bool IsDest;
    if (!element(L->Buf, L->Indices, Text, First, Flat) || !readsDest(L, Flat, IsDest))
      return false;
    if (IsDest && Modified)
      return error("the destination `" + Text +
                   "` is read after an earlier operation has overwritten it; the value needs a "
                   "temporary the ALU does not have");
    Steps.push_back({Op, First, 0});
    Modified = true;
    return true;
  }

  bool stepImm(ir::VtaAluOp Op, int64_t Imm, const std::string &Text) {
    const int64_t Limit = int64_t(1) << (ir::vta::AluImmBits - 1);
    if (Imm < -Limit || Imm >= Limit)
      return error("the constant " + Text + " does not fit the ALU's " +
                   std::to_string(ir::vta::AluImmBits) + "-bit signed immediate");
    Steps.push_back({Op, nullptr, Imm});
    Modified = true;
    return true;
  }

  /// Appends the steps that leave the value of E in D.
  bool emit(const Expr &E) {
    if (isDest(E))
      return true; // D holds it: the chain starts here
    if (E->Type != ir::DType::Int32)
      return error("`" + ir::print(E) + "` is " + ir::dtypeName(E->Type) +
                   "; the ALU computes on int32 accumulators only");
    if (isLeaf(E)) // D = E: min(D, E) then max(., E)
      return step(ir::VtaAluMin, E) && step(ir::VtaAluMax, E);
    const auto *B = ir::as<ir::BinaryNode>(E);
    if (const auto *C = ir::as<ir::CastNode>(E))
      return error("`" + ir::print(E) + "` converts " + ir::dtypeName(C->Value->Type) +
                   "; the ALU computes on int32 accumulators only");
    if (!B)
      return error("`" + ir::print(E) + "` is " + operationName(E.get()));
    ir::VtaAluOp Op;
    if (aluOpOf(B->Op, Op)) {
      std::vector<Expr> Operands;
      runOperands(B->Op, E, Operands);
      // The operand the chain continues from: the one compound operand, else
      // the destination, else the first element, else the first operand.
      size_t Spine = Operands.size();
      for (size_t I = 0; I < Operands.size(); ++I)
        if (!isLeaf(Operands[I])) {
          if (Spine != Operands.size())
            return error("`" + ir::print(E) + "` combines two compound values (`" +
                         ir::print(Operands[Spine]) + "` and `" + ir::print(Operands[I]) +
                         "`); the ALU computes in place, a chain of operations on the "
                         "destination, and this needs a temporary");
          Spine = I;
        }
      for (size_t I = 0; I < Operands.size() && Spine == Operands.size(); ++I)
        if (isDest(Operands[I]))
          Spine = I;
      for (size_t I = 0; I < Operands.size() && Spine == Operands.size(); ++I)
        if (ir::as<ir::LoadNode>(Operands[I]))
          Spine = I;
      if (Spine == Operands.size())
        Spine = 0;
      Expr First = Operands[Spine];
      Operands.erase(Operands.begin() + Spine);
      if (!emit(First))
        return false;
      // Reads of the destination first: before a step overwrites it.
      std::vector<Expr> Ordered;
      for (const Expr &O : Operands)
        if (isDest(O))
          Ordered.push_back(O);
      for (const Expr &O : Operands)
        if (!isDest(O))
          Ordered.push_back(O);
      for (const Expr &O : Ordered)
        if (!step(Op, O))
          return false;
      return true;
    }
    int64_t Amount;
    switch (B->Op) {
    case ir::BinOp::Shr:
    case ir::BinOp::Shl: {
      if (!constant(B->B, Amount))
        return error("`" + ir::print(E) + "` shifts by `" + ir::print(B->B) +
                     "`; the ALU shifts by a constant only");
      int64_t Shr = B->Op == ir::BinOp::Shr ? Amount : -Amount;
      const int64_t Limit = int64_t(1) << (ir::vta::ShrArgBits - 1);
      if (Shr < -Limit || Shr >= Limit)
        return error("`" + ir::print(E) + "` shifts by " + std::to_string(Amount) +
                     "; the ALU shifts right by at most " + std::to_string(Limit - 1) +
                     " and left by at most " + std::to_string(Limit) +
                     " (SHR's amount is a 5-bit signed field)");
      return emit(B->A) && stepImm(ir::VtaAluShr, Shr, ir::print(B->B));
    }
    case ir::BinOp::Sub:
      if (constant(B->B, Amount))
        return emit(B->A) && stepImm(ir::VtaAluAdd, -Amount, std::to_string(-Amount));
      return error("`" + ir::print(E) + "` is " + operationName(E.get()));
    default:
      return error("`" + ir::print(E) + "` is " + operationName(E.get()));
    }
  }

  //===--------------------------------------------------------------------===//
  // One store
  //===--------------------------------------------------------------------===//

  bool lowerStore(const StoreSite &S, std::vector<Stmt> &Nests) {
    Site = &S;
    Lane = nullptr;
    Steps.clear();
    Modified = false;
    const ir::StoreNode *St = S.Store;
    std::string Text = ir::print(ir::makeLoad(St->Buf, St->Indices));
    if (S.Guard)
      return error("the store to `" + Text + "` is guarded by `" + ir::print(S.Guard) +
                   "`; an ALU operation covers whole elements unconditionally");
    if (!element(St->Buf, St->Indices, Text, Dest, DestFlat) ||
        !emit(St->Value))
      return false;
    for (const AluStep &Step : Steps)
      Nests.push_back(uopNest(Step));
    return true;
  }

  /// The uop of Step inside copies of the loops around the store (the lane
  /// loop excepted), each with fresh variables.
  Stmt uopNest(const AluStep &Step) {
    bool UseImm = !Step.Src;
    Stmt Body = ir::makeEvaluate(ir::makeCall(
        "vta.uop_alu",
        {ir::makeInt(Step.Op), Dest, UseImm ? ir::makeInt(0) : Step.Src, ir::makeInt(UseImm),
         ir::makeInt(Step.Imm)},
        ir::DType::Int32));
    std::map<const ir::VarNode *, Expr> Fresh;
    std::vector<ir::Var> Vars;
    for (const ir::ForNode *L : Site->Loops) {
      ir::Var V = ir::makeVar(L->LoopVar->Name, L->LoopVar->Type);
      Fresh[L->LoopVar.get()] = V;
      Vars.push_back(V);
    }
    for (size_t I = Site->Loops.size(); I-- > 0;) {
      const ir::ForNode *L = Site->Loops[I];
      if (L == Lane)
        continue;
      Body = ir::withVar(L, Vars[I], L->Min, L->Extent, Body);
    }
    return ir::substitute(Body, Fresh);
  }
};

} // namespace

ir::LoopNest injectVtaAlu(const ir::LoopNest &Nest, std::vector<Diag> &Diags) {
  ir::LoopNest Out = Nest;
  AluInjector Injector(Out, Diags);
  std::vector<ir::LoopPragma> Kept;
  for (const ir::LoopPragma &M : Nest.Pragmas) {
    if (M.Kind != "alu") {
      Kept.push_back(M);
      continue;
    }
    if (!Injector.apply(M))
      return Nest;
  }
  Out.Pragmas = Kept;
  return Out;
}

const Pass InjectVtaAluPass = {
    "InjectVtaAlu", /*Requires=*/FormAny, /*Establishes=*/FormAny,
    [](LoweringState &S) {
      size_t First = S.Diags.size();
      S.Nest = injectVtaAlu(S.Nest, S.Diags);
      return !S.failedSince(First);
    }};

} // namespace passes
} // namespace sched
