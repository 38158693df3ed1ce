//===- Compiler.cpp - Lowered IR to simulator bytecode --------------------===//
//
// Translates a LoweredKernel's body once into the register bytecode of
// Bytecode.h. Variables get registers by lexical scope (a stack, so a
// kernel's register file stays small); constants, scalar parameters and the
// block/thread indices live in preset registers filled at thread start.
// Conditions, selects and && / || compile to jumps, so a guarded load is
// never executed when its guard is false (as in the CUDA code).
// A wmma call becomes one Collective instruction whose shape, scopes and
// types are checked here, once; wmma-scope buffers are reachable through
// wmma calls only.
//
//===----------------------------------------------------------------------===//

#include "Bytecode.h"
#include "ir/Intrinsics.h"
#include "ir/MathFunctions.h"
#include "ir/Reduction.h"
#include "ir/Scope.h"

#include <cmath>
#include <cstring>
#include <map>

namespace sched {
namespace sim {

using namespace ir;

namespace {

/// Registers are numbered from PresetBase while compiling; relocated to just
/// after the temporaries once their count is known.
constexpr int32_t PresetBase = 1 << 24;

double roundToType(double V, DType T) {
  if (T == DType::Float32)
    return static_cast<float>(V);
  if (T == DType::Float16)
    return roundToHalf(V);
  return V;
}

bool isBarrierCall(const CallNode *C) {
  if (C->Name == "sched.syncthreads")
    return true;
  const IntrinsicInfo *Info = lookupIntrinsic(C->Name);
  return Info && Info->IsBarrier;
}

int threadTagIndex(const std::string &Tag) {
  static const char *Names[NumThreadTags] = {"blockIdx.x",  "blockIdx.y",  "blockIdx.z",
                                             "threadIdx.x", "threadIdx.y", "threadIdx.z"};
  for (int I = 0; I < NumThreadTags; ++I)
    if (Tag == Names[I])
      return I;
  return -1;
}

class Compiler {
public:
  Compiler(const LoweredKernel &K, SimProgram &P, std::string &Error)
      : K(K), P(P), Error(Error) {}

  bool run() {
    if (!K.Kernel.Body)
      return fail("the kernel has no body");
    bindParams();
    if (Failed)
      return false;
    compileStmt(K.Kernel.Body);
    emit(Op::Halt);
    if (Failed)
      return false;
    relocatePresets();
    return true;
  }

private:
  //===--------------------------------------------------------------------===//
  // Bookkeeping
  //===--------------------------------------------------------------------===//

  bool fail(const std::string &Message) {
    if (!Failed)
      Error = Message;
    Failed = true;
    return false;
  }

  int32_t temp() {
    int32_t R = Top++;
    if (Top > P.NumTemps)
      P.NumTemps = Top;
    return R;
  }

  size_t emit(Op O, int32_t D = 0, int32_t A = 0, int32_t B = 0, int32_t Aux = 0,
              uint8_t Type = 0) {
    Inst I;
    I.Opcode = O;
    I.Type = Type;
    I.D = D;
    I.A = A;
    I.B = B;
    I.Aux = Aux;
    P.Code.push_back(I);
    P.Sites.emplace_back();
    return P.Code.size() - 1;
  }

  int32_t here() const { return static_cast<int32_t>(P.Code.size()); }
  void patchTarget(size_t At) { P.Code[At].Target = here(); }

  int32_t presetReg(size_t Index) { return PresetBase + static_cast<int32_t>(Index); }

  int32_t intConst(int64_t V) {
    auto It = IntConsts.find(V);
    if (It != IntConsts.end())
      return It->second;
    Slot S;
    S.I = V;
    int32_t R = presetReg(NumThreadTags + P.ScalarParams.size() + P.Constants.size());
    P.Constants.push_back(S);
    IntConsts[V] = R;
    return R;
  }

  int32_t floatConst(double V) {
    uint64_t Bits;
    std::memcpy(&Bits, &V, 8);
    auto It = FloatConsts.find(Bits);
    if (It != FloatConsts.end())
      return It->second;
    Slot S;
    S.F = V;
    int32_t R = presetReg(NumThreadTags + P.ScalarParams.size() + P.Constants.size());
    P.Constants.push_back(S);
    FloatConsts[Bits] = R;
    return R;
  }

  /// Preset registers sit after the temporaries, whose count is final now.
  void relocatePresets() {
    auto Reloc = [&](int32_t &R) {
      if (R >= PresetBase)
        R = R - PresetBase + P.NumTemps;
    };
    for (Inst &I : P.Code) {
      Reloc(I.D);
      Reloc(I.A);
      Reloc(I.B);
    }
  }

  struct VarBinding {
    const VarNode *Node;
    int32_t Reg;
  };
  struct BufBinding {
    const BufferNode *Node;
    int32_t Id;
  };

  void bindParams() {
    const LoopNest &N = K.Kernel;
    // Scalars first: their preset slots must precede the constants.
    for (size_t I = 0; I < N.Params.size(); ++I) {
      const Param &Pm = N.Params[I];
      if (Pm.ParamKind != Param::Kind::Scalar)
        continue;
      if (!Pm.Scalar) {
        fail("scalar parameter " + std::to_string(I) + " has no variable");
        return;
      }
      Vars.push_back({Pm.Scalar.get(), presetReg(NumThreadTags + P.ScalarParams.size())});
      P.ScalarParams.push_back(static_cast<int>(I));
    }
    for (size_t I = 0; I < N.Params.size(); ++I) {
      const Param &Pm = N.Params[I];
      if (Pm.ParamKind != Param::Kind::Buffer)
        continue;
      if (!Pm.Buf) {
        fail("buffer parameter " + std::to_string(I) + " has no buffer");
        return;
      }
      BufferInfo Info;
      Info.Name = Pm.Buf->Name;
      Info.Type = Pm.Buf->Type;
      Info.MemScope = Scope::Global;
      Info.ParamIndex = static_cast<int>(I);
      Info.SizeExpr = shapeSize(Pm.Buf);
      for (const BufferRegion &R : K.Regions)
        if (R.Param == Pm.Buf->Name) {
          Info.SizeExpr = R.Extent;
          Info.MinExpr = R.Min;
          Info.Writable = R.Written;
        }
      Bufs.push_back({Pm.Buf.get(), addBuffer(Info)});
    }
  }

  int32_t addBuffer(const BufferInfo &Info) {
    P.Buffers.push_back(Info);
    return static_cast<int32_t>(P.Buffers.size() - 1);
  }

  static Expr shapeSize(const Buffer &B) {
    Expr Size;
    for (const Expr &Dim : B->Shape)
      Size = Size ? makeBinary(BinOp::Mul, Size, Dim) : Dim;
    return Size ? Size : makeInt(1);
  }

  /// Innermost binding by identity, then by name (text-parsed IR may hold
  /// distinct nodes for one variable).
  bool lookupVar(const VarNode *V, int32_t &Reg) {
    for (auto It = Vars.rbegin(); It != Vars.rend(); ++It)
      if (It->Node == V) {
        Reg = It->Reg;
        return true;
      }
    for (auto It = Vars.rbegin(); It != Vars.rend(); ++It)
      if (It->Node->Name == V->Name) {
        Reg = It->Reg;
        return true;
      }
    return fail("use of unbound variable '" + V->Name + "'");
  }

  bool lookupBuffer(const BufferNode *B, int32_t &Id) {
    for (auto It = Bufs.rbegin(); It != Bufs.rend(); ++It)
      if (It->Node == B) {
        Id = It->Id;
        return true;
      }
    for (auto It = Bufs.rbegin(); It != Bufs.rend(); ++It)
      if (It->Node->Name == B->Name) {
        Id = It->Id;
        return true;
      }
    return fail("access to unknown buffer '" + B->Name + "'");
  }

  //===--------------------------------------------------------------------===//
  // Expressions: each returns the register holding the value (read only).
  //===--------------------------------------------------------------------===//

  /// Converts the value in R from type From to type To.
  int32_t convert(int32_t R, DType From, DType To) {
    if (From == To)
      return R;
    int32_t D;
    if (To == DType::Bool) {
      D = temp();
      emit(isFloat(From) ? Op::ToBoolF : Op::ToBoolI, D, R);
      return D;
    }
    if (isFloat(To)) {
      if (!isFloat(From)) {
        D = temp();
        emit(Op::IntToF, D, R, 0, static_cast<int32_t>(To), static_cast<uint8_t>(From));
        return D;
      }
      if (To == DType::Float64 || (To == DType::Float32 && From == DType::Float16))
        return R; // widening is exact
      D = temp();
      emit(To == DType::Float32 ? Op::RoundF32 : Op::RoundF16, D, R);
      return D;
    }
    if (isFloat(From)) {
      D = temp();
      emit(Op::FToInt, D, R, 0, static_cast<int32_t>(To));
      return D;
    }
    if (To == DType::Int64 || To == DType::UInt64 || From == DType::Bool)
      return R; // 64 bits hold every value (uint64 as its bits); a bool is 0/1 in every type
    D = temp();
    emit(Op::WrapInt, D, R, 0, static_cast<int32_t>(To));
    return D;
  }

  int32_t compileAs(const Expr &E, DType To) {
    int32_t R = compileExpr(E);
    return Failed ? 0 : convert(R, E->Type, To);
  }

  int32_t compileExpr(const Expr &E) {
    if (Failed)
      return 0;
    if (!E) {
      fail("missing expression");
      return 0;
    }
    switch (E->Kind) {
    case ExprKind::IntImm:
      return intConst(wrapToType(as<IntImmNode>(E)->Value, E->Type));
    case ExprKind::FloatImm: {
      double V = as<FloatImmNode>(E)->Value;
      return isFloat(E->Type) ? floatConst(roundToType(V, E->Type))
                              : intConst(wrapToType(static_cast<int64_t>(V), E->Type));
    }
    case ExprKind::Var: {
      int32_t R = 0;
      lookupVar(as<VarNode>(E), R);
      return R;
    }
    case ExprKind::Binary: return compileBinary(as<BinaryNode>(E));
    case ExprKind::Unary: return compileUnary(as<UnaryNode>(E));
    case ExprKind::Select: return compileSelect(as<SelectNode>(E));
    case ExprKind::Cast: {
      const auto *C = as<CastNode>(E);
      return compileAs(C->Value, C->Type);
    }
    case ExprKind::Load: return compileLoad(E);
    case ExprKind::Call: return compileCall(E);
    }
    fail("unknown expression kind");
    return 0;
  }

  /// Short-circuit && and ||, like C.
  int32_t compileLogical(const BinaryNode *B) {
    int32_t D = temp();
    emit(Op::Mov, D, compileAs(B->A, DType::Bool));
    size_t Skip = emit(B->Op == BinOp::And ? Op::Jz : Op::Jnz, 0, D);
    emit(Op::Mov, D, compileAs(B->B, DType::Bool));
    patchTarget(Skip);
    return D;
  }

  int32_t compileBinary(const BinaryNode *B) {
    if (B->Op == BinOp::And || B->Op == BinOp::Or)
      return compileLogical(B);
    if (!B->A || !B->B) {
      fail("binary operator with a missing operand");
      return 0;
    }
    // A shift computes in its promoted left operand's type, whatever the
    // count's type; every other operator in the operands' common type.
    bool Shift = B->Op == BinOp::Shl || B->Op == BinOp::Shr;
    DType T = Shift ? promotedType(B->A->Type) : arithmeticType(B->A->Type, B->B->Type);
    int32_t X = compileAs(B->A, T);
    int32_t Y = compileAs(B->B, Shift ? promotedType(B->B->Type) : T);
    if (Failed)
      return 0;
    int32_t D = temp();
    if (isComparison(B->Op)) {
      if (T == DType::UInt64) // the only type whose values do not all fit int64
        emit(Op::IntOp, D, X, Y, static_cast<int32_t>(B->Op), static_cast<uint8_t>(T));
      else
        emitComparison(B->Op, isFloat(T), D, X, Y);
      return convert(D, DType::Bool, B->Type);
    }
    if (isFloat(T))
      emitFloatArith(B->Op, T, D, X, Y);
    else
      emitIntArith(B->Op, T, D, X, Y);
    return keepPromoted(T, B->Type) ? D : convert(D, T, B->Type);
  }

  /// An int8 + int8 node computes in int, as the C code printed for it does;
  /// only the store (or cast) that consumes it narrows the value.
  static bool keepPromoted(DType Computed, DType NodeType) {
    return Computed == DType::Int32 && isInt(NodeType) && integerRank(NodeType) < 3;
  }

  void emitComparison(BinOp O, bool Float, int32_t D, int32_t X, int32_t Y) {
    switch (O) {
    case BinOp::LT: emit(Float ? Op::LtF : Op::LtI, D, X, Y); break;
    case BinOp::LE: emit(Float ? Op::LeF : Op::LeI, D, X, Y); break;
    case BinOp::GT: emit(Float ? Op::LtF : Op::LtI, D, Y, X); break;
    case BinOp::GE: emit(Float ? Op::LeF : Op::LeI, D, Y, X); break;
    case BinOp::EQ: emit(Float ? Op::EqF : Op::EqI, D, X, Y); break;
    default: emit(Float ? Op::NeF : Op::NeI, D, X, Y); break;
    }
  }

  void emitIntArith(BinOp O, DType T, int32_t D, int32_t X, int32_t Y) {
    bool Wide = dtypeBytes(T) == 8;
    if (isBitwise(O) || (T == DType::UInt64 && (O == BinOp::Min || O == BinOp::Max))) {
      emit(Op::IntOp, D, X, Y, static_cast<int32_t>(O), static_cast<uint8_t>(T));
      return;
    }
    switch (O) {
    case BinOp::Add: emit(Wide ? Op::AddI64 : Op::AddI32, D, X, Y); break;
    case BinOp::Sub: emit(Wide ? Op::SubI64 : Op::SubI32, D, X, Y); break;
    case BinOp::Mul: emit(Wide ? Op::MulI64 : Op::MulI32, D, X, Y); break;
    case BinOp::Div: emit(Op::DivI, D, X, Y, 0, static_cast<uint8_t>(T)); break;
    case BinOp::Mod: emit(Op::ModI, D, X, Y, 0, static_cast<uint8_t>(T)); break;
    case BinOp::Min: emit(Op::MinI, D, X, Y); break;
    default: emit(Op::MaxI, D, X, Y); break;
    }
    if (T != DType::Int32 && !Wide && (O == BinOp::Add || O == BinOp::Sub || O == BinOp::Mul))
      emit(Op::WrapInt, D, D, 0, static_cast<int32_t>(T));
  }

  void emitFloatArith(BinOp O, DType T, int32_t D, int32_t X, int32_t Y) {
    bool F32 = T == DType::Float32;
    bool Rounds = true;
    switch (O) {
    case BinOp::Add: emit(F32 ? Op::AddF32 : Op::AddF, D, X, Y); break;
    case BinOp::Sub: emit(F32 ? Op::SubF32 : Op::SubF, D, X, Y); break;
    case BinOp::Mul: emit(F32 ? Op::MulF32 : Op::MulF, D, X, Y); break;
    case BinOp::Div: emit(F32 ? Op::DivF32 : Op::DivF, D, X, Y); break;
    // fmod, min and max of representable values are exact.
    case BinOp::Mod: emit(Op::ModF, D, X, Y); Rounds = false; break;
    case BinOp::Min: emit(Op::MinF, D, X, Y); Rounds = false; break;
    default: emit(Op::MaxF, D, X, Y); Rounds = false; break;
    }
    if (Rounds && T == DType::Float16)
      emit(Op::RoundF16, D, D);
  }

  int32_t compileUnary(const UnaryNode *U) {
    if (U->Op == UnOp::Not) {
      int32_t D = temp();
      emit(Op::Not, D, compileAs(U->A, DType::Bool));
      return convert(D, DType::Bool, U->Type);
    }
    if (!U->A) {
      fail("negation of a missing operand");
      return 0;
    }
    DType T = arithmeticType(U->A->Type, U->A->Type); // -int8 computes in int, like C
    int32_t X = compileAs(U->A, T);
    int32_t D = temp();
    if (U->Op == UnOp::BitNot) { // ~x is x ^ all ones
      emit(Op::IntOp, D, X, intConst(wrapToType(-1, T)), static_cast<int32_t>(BinOp::BitXor),
           static_cast<uint8_t>(T));
    } else if (isFloat(T)) {
      emit(Op::NegF, D, X);
    } else {
      emit(Op::NegI, D, X);
      if (dtypeBytes(T) != 8)
        emit(Op::WrapInt, D, D, 0, static_cast<int32_t>(T));
    }
    return keepPromoted(T, U->Type) ? D : convert(D, T, U->Type);
  }

  int32_t compileSelect(const SelectNode *S) {
    int32_t D = temp();
    int32_t C = compileAs(S->Cond, DType::Bool);
    size_t ToFalse = emit(Op::Jz, 0, C);
    emit(Op::Mov, D, compileAs(S->TrueValue, S->Type));
    size_t ToEnd = emit(Op::Jmp);
    patchTarget(ToFalse);
    emit(Op::Mov, D, compileAs(S->FalseValue, S->Type));
    patchTarget(ToEnd);
    return D;
  }

  /// Where element Index of buffer Id lives: Index itself, or through the
  /// buffer's swizzle.
  int32_t swizzled(int32_t Id, int32_t Index) {
    if (Failed || !P.Buffers[Id].Swizzle.any())
      return Index;
    int32_t D = temp();
    emit(Op::Swizzle, D, Index, 0, Id);
    return D;
  }

  /// The flattened element index of Indices into B (row-major over Shape).
  int32_t compileIndex(const Buffer &B, const std::vector<Expr> &Indices) {
    if (Indices.size() == 1)
      return compileAs(Indices[0], DType::Int64);
    if (Indices.size() != B->Shape.size() || Indices.empty()) {
      fail("access to '" + B->Name + "' with " + std::to_string(Indices.size()) +
           " indices, but it has " + std::to_string(B->Shape.size()) + " dimensions");
      return 0;
    }
    int32_t Flat = compileAs(Indices[0], DType::Int64);
    for (size_t I = 1; I < Indices.size(); ++I) {
      int32_t Scaled = temp();
      emit(Op::MulI64, Scaled, Flat, compileAs(B->Shape[I], DType::Int64));
      int32_t Sum = temp();
      emit(Op::AddI64, Sum, Scaled, compileAs(Indices[I], DType::Int64));
      Flat = Sum;
    }
    return Flat;
  }

  int32_t compileLoad(const Expr &E) {
    const auto *L = as<LoadNode>(E);
    int32_t Id = 0;
    if (!L->Buf) {
      fail("load from a missing buffer");
      return 0;
    }
    lookupBuffer(L->Buf.get(), Id);
    if (!Failed && P.Buffers[Id].isFragment()) {
      fragmentAccess(Id, "load from");
      return 0;
    }
    int32_t Index = swizzled(Id, compileIndex(L->Buf, L->Indices));
    if (Failed)
      return 0;
    int32_t D = temp();
    DType BufType = P.Buffers[Id].Type;
    emit(P.Buffers[Id].MemScope == Scope::Local ? Op::LoadLocal : Op::Load, D, Index, 0, Id,
         static_cast<uint8_t>(BufType));
    if (L == AtomicLoad)
      P.Code.back().Target = 1; // the read of an atomic update
    P.Sites.back().Load = E;
    P.Sites.back().Statement = CurrentStore; // the statement the load is part of
    return convert(D, BufType, E->Type);
  }

  /// Fragments are opaque (their lane layout is unspecified): only the
  /// wmma intrinsics may touch them.
  void fragmentAccess(int32_t Id, const char *What) {
    const BufferInfo &Info = P.Buffers[Id];
    fail(std::string("plain ") + What + " '" + Info.Name + "', a " + scopeName(Info.MemScope) +
         " fragment: fragments are touched only by wmma intrinsics");
  }

  int32_t compileCall(const Expr &E) {
    const auto *C = as<CallNode>(E);
    if (isBarrierCall(C) || isWarpCollectiveCall(E)) {
      fail("'" + C->Name + "' used as a value");
      return 0;
    }
    const MathFunction *M = lookupMathFunction(C->Name);
    if (!M) {
      fail("the simulator does not support intrinsic '" + C->Name + "'");
      return 0;
    }
    if (C->Args.size() != M->Arity) {
      fail("'" + C->Name + "' takes " + std::to_string(M->Arity) + " arguments");
      return 0;
    }
    // The arguments in consecutive registers, converted to the function's type.
    int32_t Args = temp();
    for (unsigned I = 1; I < M->Arity; ++I)
      temp();
    for (unsigned I = 0; I < M->Arity; ++I)
      emit(Op::Mov, Args + static_cast<int32_t>(I), compileAs(C->Args[I], M->Type));
    int32_t D = temp();
    emit(Op::Math, D, Args, 0, static_cast<int32_t>(M - mathFunctions().data()));
    return convert(D, M->Type, C->Type);
  }

  //===--------------------------------------------------------------------===//
  // Statements
  //===--------------------------------------------------------------------===//

  Stmt CurrentStore; // the Store being compiled, named in reports on its loads
  const LoadNode *AtomicLoad = nullptr; // the element an atomic update reads

  void compileStmt(const Stmt &S) {
    if (Failed || !S)
      return;
    int32_t SavedTop = Top; // statement temporaries die at its end
    switch (S->Kind) {
    case StmtKind::For: compileFor(S); break;
    case StmtKind::Store: {
      Stmt Saved = CurrentStore;
      CurrentStore = S;
      compileStore(S);
      CurrentStore = Saved;
      break;
    }
    case StmtKind::Allocate: compileAllocate(as<AllocateNode>(S)); break;
    case StmtKind::Seq:
      for (const Stmt &Child : as<SeqNode>(S)->Stmts)
        compileStmt(Child);
      break;
    case StmtKind::IfThenElse: compileIf(as<IfThenElseNode>(S)); break;
    case StmtKind::LetStmt: compileLet(as<LetStmtNode>(S)); break;
    case StmtKind::Evaluate: compileEvaluate(S); break;
    }
    Top = SavedTop;
  }

  void compileFor(const Stmt &S) {
    const auto *F = as<ForNode>(S);
    if (!F->LoopVar) {
      fail("loop without a variable");
      return;
    }
    DType VT = F->LoopVar->Type;
    if (isFloat(VT)) {
      fail("loop variable '" + F->LoopVar->Name + "' is not an integer");
      return;
    }
    int32_t V = temp();
    int32_t Min = compileAs(F->Min, VT);
    int32_t Ext = compileAs(F->Extent, VT);
    int Tag = F->LoopKind == ForKind::ThreadBound ? threadTagIndex(F->ThreadTag) : -1;
    if (Tag >= 0) {
      // One iteration per thread (or block): the index for the tag, guarded.
      size_t Enter = emit(Op::ThreadLoop, V, Min, Ext, Tag);
      P.Sites.back().Statement = S;
      Vars.push_back({F->LoopVar.get(), V});
      compileStmt(F->Body);
      Vars.pop_back();
      patchTarget(Enter);
      return;
    }
    // Serial, unrolled, vectorized, vthread/cthread: iterations in order.
    int32_t End = temp();
    emit(Op::Mov, V, Min);
    emit(Op::AddI64, End, Min, Ext);
    size_t Enter = emit(Op::LoopEnter, V, End);
    int32_t BodyStart = here();
    Vars.push_back({F->LoopVar.get(), V});
    compileStmt(F->Body);
    Vars.pop_back();
    size_t Next = emit(Op::LoopNext, V, End);
    P.Code[Next].Target = BodyStart;
    patchTarget(Enter);
  }

  void compileStore(const Stmt &S) {
    const auto *St = as<StoreNode>(S);
    if (!St->Buf) {
      fail("store to a missing buffer");
      return;
    }
    int32_t Id = 0;
    if (!lookupBuffer(St->Buf.get(), Id))
      return;
    const BufferInfo &Info = P.Buffers[Id];
    if (Info.isFragment()) {
      fragmentAccess(Id, "store to");
      return;
    }
    if (!Info.Writable) {
      fail("the kernel writes '" + Info.Name +
           "' but its launch region marks it read-only (it would not be copied back)");
      return;
    }
    DType BufType = Info.Type;
    int32_t Index = swizzled(Id, compileIndex(St->Buf, St->Indices));
    int32_t Value = compileAs(St->Value, BufType);
    if (Failed)
      return;
    emit(Info.MemScope == Scope::Local ? Op::StoreLocal : Op::Store, 0, Index, Value, Id,
         static_cast<uint8_t>(BufType));
    P.Sites.back().Statement = S;
  }

  void compileAllocate(const AllocateNode *A) {
    if (!A->Buf) {
      fail("allocation of a missing buffer");
      return;
    }
    BufferInfo Info;
    Info.Name = A->Buf->Name;
    Info.Type = A->Buf->Type;
    Info.MemScope = A->Buf->MemScope;
    Info.SizeExpr = shapeSize(A->Buf);
    Info.Swizzle = A->Buf->Swizzle;
    Scope Sc = Info.MemScope;
    if (Sc != Scope::Local && Sc != Scope::Shared && Sc != Scope::Global && !Info.isFragment()) {
      fail("the simulator does not support '" + std::string(scopeName(Sc)) +
           "' buffers yet ('" + A->Buf->Name + "')");
      return;
    }
    int32_t Id = addBuffer(Info);
    // A fresh fragment or local array each time the allocation is entered
    // (the emitted CUDA declares it there); shared memory is the block's
    // one `__shared__` array, declared at the kernel's top.
    if (Info.isFragment() || Sc == Scope::Local)
      emit(Op::EnterAllocation, 0, 0, 0, Id);
    Bufs.push_back({A->Buf.get(), Id});
    compileStmt(A->Body);
    Bufs.pop_back();
  }

  void compileIf(const IfThenElseNode *I) {
    int32_t C = compileAs(I->Cond, DType::Bool);
    size_t ToElse = emit(Op::Jz, 0, C);
    compileStmt(I->Then);
    if (!I->Else) {
      patchTarget(ToElse);
      return;
    }
    size_t ToEnd = emit(Op::Jmp);
    patchTarget(ToElse);
    compileStmt(I->Else);
    patchTarget(ToEnd);
  }

  void compileLet(const LetStmtNode *L) {
    if (!L->LetVar) {
      fail("let without a variable");
      return;
    }
    int32_t V = temp();
    emit(Op::Mov, V, compileAs(L->Value, L->LetVar->Type));
    Vars.push_back({L->LetVar.get(), V});
    compileStmt(L->Body);
    Vars.pop_back();
  }

  void compileEvaluate(const Stmt &S) {
    const auto *E = as<EvaluateNode>(S);
    if (const auto *C = as<CallNode>(E->Value)) {
      if (isBarrierCall(C)) {
        emit(Op::Barrier);
        P.HasBarrier = true;
        return;
      }
      if (isWarpCollectiveCall(E->Value)) {
        compileCollective(C, S);
        return;
      }
      if (C->Name == "sched.cp_async")
        return compileAsyncCopy(C, S);
      BinOp AtomicOp;
      if (atomicIntrinsicOp(C->Name, AtomicOp))
        return compileAtomic(C, AtomicOp, S);
      if (C->Name == BlockTicket)
        return compileTicket(C, S);
      if (C->Name == "sched.cp_async_commit") {
        emit(Op::AsyncCommit);
        return;
      }
      if (C->Name == "sched.cp_async_wait") {
        int64_t Groups;
        if (C->Args.size() != 1 || !getConstInt(C->Args[0], Groups) || Groups < 0) {
          fail("'sched.cp_async_wait' takes one constant count of groups");
          return;
        }
        emit(Op::AsyncWait, 0, 0, 0, static_cast<int32_t>(Groups));
        return;
      }
    }
    compileExpr(E->Value); // pure: evaluated for its errors only
  }

  /// sched.atomic_<op>(P, v): P = P op v on a global element, as one load
  /// and one store that the thread runs without a switch in between (so
  /// atomically), both marked atomic (Inst::Target = 1) for the race
  /// detector: atomic updates of one element never race with each other, but
  /// do with plain accesses.
  void compileAtomic(const CallNode *C, BinOp Op, const Stmt &S) {
    const auto *L = C->Args.size() == 2 ? as<LoadNode>(C->Args[0]) : nullptr;
    int32_t Id = 0;
    if (!L || !L->Buf || !lookupBuffer(L->Buf.get(), Id))
      return (void)fail("malformed '" + C->Name + "': it takes an element and a value");
    const BufferInfo &Info = P.Buffers[Id];
    if (Info.MemScope != Scope::Global || Info.isFragment() || !Info.Writable)
      return (void)fail("'" + C->Name + "' updates a writable global element, not '" +
                        Info.Name + "'");
    ScopedValue<const LoadNode *> Marked(AtomicLoad, L);
    ScopedValue<Stmt> Within(CurrentStore, S);
    Expr Updated = combineIn(Op, Info.Type, C->Args[0], C->Args[1]);
    int32_t Value = compileAs(Updated, Info.Type);
    int32_t Index = swizzled(Id, compileIndex(L->Buf, L->Indices));
    if (Failed)
      return;
    emit(Op::Store, 0, Index, Value, Id, static_cast<uint8_t>(Info.Type));
    P.Code.back().Target = 1;
    P.Sites.back().Statement = S;
  }

  /// sched.block_ticket(T, C, n): Op::Ticket on the global uint32 counter
  /// C, then its old value stored in the local element T.
  void compileTicket(const CallNode *C, const Stmt &S) {
    const auto *T = C->Args.size() == 3 ? as<LoadNode>(C->Args[0]) : nullptr;
    const auto *Counter = T ? as<LoadNode>(C->Args[1]) : nullptr;
    int32_t TId = 0, CId = 0;
    if (!Counter || !T->Buf || !Counter->Buf || !lookupBuffer(T->Buf.get(), TId) ||
        !lookupBuffer(Counter->Buf.get(), CId))
      return (void)fail("malformed '" + C->Name + "': it takes a ticket, a counter and a count");
    const BufferInfo &TI = P.Buffers[TId], &CI = P.Buffers[CId];
    if (CI.MemScope != Scope::Global || CI.Type != DType::UInt32 || !CI.Writable ||
        TI.MemScope != Scope::Local || TI.Type != DType::UInt32)
      return (void)fail("'" + C->Name + "' takes a local uint32 ticket and a writable global "
                        "uint32 counter, not '" + TI.Name + "' and '" + CI.Name + "'");
    ScopedValue<Stmt> Within(CurrentStore, S);
    int32_t Blocks = compileAs(C->Args[2], DType::Int64);
    int32_t Index = swizzled(CId, compileIndex(Counter->Buf, Counter->Indices));
    if (Failed)
      return;
    int32_t Old = temp();
    emit(Op::Ticket, Old, Index, Blocks, CId, static_cast<uint8_t>(DType::UInt32));
    P.Sites.back().Statement = S;
    int32_t TIndex = compileIndex(T->Buf, T->Indices);
    if (Failed)
      return;
    emit(Op::StoreLocal, 0, TIndex, Old, TId, static_cast<uint8_t>(DType::UInt32));
    P.Sites.back().Statement = S;
  }

  /// sched.cp_async(D, S, 1, n): n elements from global S to shared D.
  void compileAsyncCopy(const CallNode *C, const Stmt &S) {
    const LoadNode *D = C->Args.size() == 4 ? as<LoadNode>(C->Args[0]) : nullptr;
    const LoadNode *Src = D ? as<LoadNode>(C->Args[1]) : nullptr;
    int64_t Rows, N;
    if (!Src || !getConstInt(C->Args[2], Rows) || Rows != 1 || !getConstInt(C->Args[3], N) ||
        N <= 0) {
      fail("malformed 'sched.cp_async' (it takes a shared and a global element, 1 and a count)");
      return;
    }
    int32_t DstId, SrcId;
    if (!lookupBuffer(D->Buf.get(), DstId) || !lookupBuffer(Src->Buf.get(), SrcId))
      return;
    const BufferInfo &DI = P.Buffers[DstId], &SI = P.Buffers[SrcId];
    if (DI.MemScope != Scope::Shared || SI.MemScope != Scope::Global || DI.Type != SI.Type ||
        !isAsyncCopyBytes(N * dtypeBytes(DI.Type))) {
      fail("'sched.cp_async' copies 4, 8 or 16 bytes of one type from global to shared "
           "memory, not " + std::to_string(N) + " " + dtypeName(SI.Type) + " from " +
           scopeName(SI.MemScope) + " '" + SI.Name + "' to " + scopeName(DI.MemScope) + " '" +
           DI.Name + "'");
      return;
    }
    // The run lies in one 16-byte chunk, which a swizzle keeps whole.
    int32_t DstIndex = swizzled(DstId, compileIndex(D->Buf, D->Indices));
    int32_t SrcIndex = compileIndex(Src->Buf, Src->Indices);
    emit(Op::AsyncCopy, static_cast<int32_t>(N), DstIndex, SrcIndex, DstId);
    P.Code.back().Target = SrcId;
    P.Code.back().Type = static_cast<uint8_t>(DI.Type);
    P.Sites.back().Statement = S;
  }

  //===--------------------------------------------------------------------===//
  // Warp collectives (wmma)
  //===--------------------------------------------------------------------===//

  /// The fragment operand F of a wmma call: its buffer must be a fragment of
  /// scope Sc. Returns the buffer id and sets Index to the flat index
  /// register, or -1.
  int32_t fragmentOperand(const CallNode *C, const LoadNode *F, Scope Sc, int32_t &Index) {
    int32_t Id = -1;
    if (!F->Buf || !lookupBuffer(F->Buf.get(), Id))
      return -1;
    const BufferInfo &Info = P.Buffers[Id];
    if (Info.MemScope != Sc) {
      fail("'" + C->Name + "' takes a " + scopeName(Sc) + " fragment, but '" + Info.Name +
           "' is " + scopeName(Info.MemScope));
      return -1;
    }
    Index = compileIndex(F->Buf, F->Indices);
    return Failed ? -1 : Id;
  }

  /// The type pairings of a wmma operation the simulator (and sm_80) runs:
  /// fp16 A/B with fp32 accumulators, int8 or uint8 A/B with int32 ones.
  static bool isAccumulatorType(DType T) { return T == DType::Float32 || T == DType::Int32; }
  static DType accumulatorFor(DType AB) {
    return AB == DType::Float16 ? DType::Float32 : DType::Int32;
  }
  static bool isMultiplicandType(DType T) {
    return T == DType::Float16 || T == DType::Int8 || T == DType::UInt8;
  }

  /// The site of a tensor-core call: its operation, family, shape, layout,
  /// and how many threads run it together (the intrinsic's declaration).
  static CollectiveSite siteOf(const CallNode *C, const WmmaCall &W) {
    CollectiveSite Site;
    Site.Threads = lookupIntrinsic(C->Name)->CollectiveThreads;
    Site.Op = W.Op;
    Site.Family = W.Family;
    Site.M = W.M;
    Site.N = W.N;
    Site.K = W.K;
    Site.Layout = W.Layout;
    return Site;
  }

  void compileCollective(const CallNode *C, const Stmt &S) {
    if (C->Name == WarpShflXor)
      return compileShuffle(C, S);
    WmmaCall W;
    WgmmaControl Ctl = wgmmaControlOf(C->Name);
    if (Ctl != WgmmaControl::None) {
      CollectiveSite Site;
      Site.Ctl = Ctl;
      Site.Threads = lookupIntrinsic(C->Name)->CollectiveThreads;
      std::vector<int32_t> Args;
      if (Ctl == WgmmaControl::Wait) {
        int64_t N;
        if (C->Args.size() != 1 || !getConstInt(C->Args[0], N) || N < 0 || N > 7) {
          fail("'wgmma.wait' takes one constant count from 0 to 7");
          return;
        }
        Args.push_back(compileAs(C->Args[0], DType::Int64));
      }
      return emitCollective(Site, Args, S);
    }
    if (!decodeWmma(C, W)) {
      fail("the simulator does not support warp collective '" + C->Name +
           "' (or the call is malformed)");
      return;
    }
    if (W.Family == TensorFamily::Wgmma)
      return compileWgmma(C, W, S);
    bool Sync = W.Family == TensorFamily::Mma;
    bool ShapeOk = Sync ? isMmaSyncShape(W.M, W.N, W.K) : isWmmaShape(W.M, W.N, W.K);
    if (!ShapeOk) {
      fail("'" + C->Name + "' has shape m" + std::to_string(W.M) + "n" + std::to_string(W.N) +
           "k" + std::to_string(W.K) +
           (Sync ? "; mma supports m16n8k16" : "; wmma supports m16n16k16, m32n8k16 and m8n32k16"));
      return;
    }
    CollectiveSite Site = siteOf(C, W);
    std::vector<int32_t> Args;
    int32_t Index = 0;
    auto TypeError = [&](const std::string &What) {
      fail("unsupported wmma type pairing in '" + C->Name + "': " + What +
           " (fp16 with fp32 accumulators, int8 or uint8 with int32 accumulators)");
    };
    if (W.Op == WmmaOp::Mma) {
      const LoadNode *Ops[4] = {W.D, W.A, W.B, W.C};
      const Scope Scopes[4] = {Scope::WmmaAccumulator, Scope::WmmaMatrixA, Scope::WmmaMatrixB,
                               Scope::WmmaAccumulator};
      for (int I = 0; I < 4; ++I) {
        Site.Frag[I] = fragmentOperand(C, Ops[I], Scopes[I], Index);
        if (Failed)
          return;
        Args.push_back(Index);
      }
      DType D = P.Buffers[Site.Frag[0]].Type, A = P.Buffers[Site.Frag[1]].Type,
            B = P.Buffers[Site.Frag[2]].Type, Acc = P.Buffers[Site.Frag[3]].Type;
      if (A != B || !isMultiplicandType(A) || D != Acc || Acc != accumulatorFor(A))
        return TypeError(std::string("A ") + dtypeName(A) + ", B " + dtypeName(B) + ", C " +
                         dtypeName(Acc) + ", D " + dtypeName(D));
    } else {
      Scope Sc = W.Op == WmmaOp::LoadA   ? Scope::WmmaMatrixA
                 : W.Op == WmmaOp::LoadB ? Scope::WmmaMatrixB
                                         : Scope::WmmaAccumulator;
      Site.Frag[0] = fragmentOperand(C, W.Frag, Sc, Index);
      if (Failed)
        return;
      Args.push_back(Index);
      DType FT = P.Buffers[Site.Frag[0]].Type;
      if (Sc == Scope::WmmaAccumulator ? !isAccumulatorType(FT) : !isMultiplicandType(FT))
        return TypeError(std::string("a ") + scopeName(Sc) + " fragment of " + dtypeName(FT));
      if (Sync && FT != (Sc == Scope::WmmaAccumulator ? DType::Float32 : DType::Float16))
        return TypeError(std::string("a ") + scopeName(Sc) + " fragment of " + dtypeName(FT) +
                         " (mma.m16n8k16 takes fp16 with fp32 accumulators only)");
      if (W.Op == WmmaOp::Fill) {
        Args.push_back(compileAs(W.Value, FT));
      } else {
        if (!W.Memory->Buf || !lookupBuffer(W.Memory->Buf.get(), Site.Memory))
          return;
        const BufferInfo &Mem = P.Buffers[Site.Memory];
        if (Mem.MemScope != Scope::Global && Mem.MemScope != Scope::Shared) {
          fail("'" + C->Name + "' accesses '" + Mem.Name + "' in " + scopeName(Mem.MemScope) +
               " memory; wmma loads and stores take global or shared memory only");
          return;
        }
        if (Sync && (W.Op == WmmaOp::LoadA || W.Op == WmmaOp::LoadB) &&
            Mem.MemScope != Scope::Shared) {
          fail("'" + C->Name + "' reads '" + Mem.Name + "' in " + scopeName(Mem.MemScope) +
               " memory; it is ldmatrix, which reads shared memory only");
          return;
        }
        if (Mem.Type != FT) {
          fail("'" + C->Name + "' moves " + dtypeName(FT) + " fragment '" +
               P.Buffers[Site.Frag[0]].Name + "' from/to " + dtypeName(Mem.Type) + " buffer '" +
               Mem.Name + "': the element types must be equal");
          return;
        }
        if (W.Op == WmmaOp::Store && !Mem.Writable) {
          fail("the kernel writes '" + Mem.Name +
               "' but its launch region marks it read-only (it would not be copied back)");
          return;
        }
        Args.push_back(compileIndex(W.Memory->Buf, W.Memory->Indices));
        Args.push_back(compileAs(W.Stride, DType::Int64));
      }
    }
    emitCollective(Site, Args, S);
  }

  /// The wgmma family (TensorFamily::Wgmma): fill and store move the
  /// warpgroup's accumulator, mma reads A and B from shared stages.
  void compileWgmma(const CallNode *C, const WmmaCall &W, const Stmt &S) {
    if (!isWgmmaShape(W.M, W.N, W.K)) {
      fail("'" + C->Name + "' has shape m" + std::to_string(W.M) + "n" + std::to_string(W.N) + "k" +
           std::to_string(W.K) + "; wgmma supports m64nNk16, N a multiple of 8 up to 256");
      return;
    }
    CollectiveSite Site = siteOf(C, W);
    std::vector<int32_t> Args;
    int32_t Index = 0;
    Site.Frag[0] = fragmentOperand(C, W.Op == WmmaOp::Mma ? W.D : W.Frag, Scope::WmmaAccumulator, Index);
    if (Failed)
      return;
    Args.push_back(Index);
    if (P.Buffers[Site.Frag[0]].Type != DType::Float32) {
      fail("'" + C->Name + "' takes a float32 accumulator; '" + P.Buffers[Site.Frag[0]].Name +
           "' is " + dtypeName(P.Buffers[Site.Frag[0]].Type));
      return;
    }
    if (W.Op == WmmaOp::Fill) {
      Args.push_back(compileAs(W.Value, DType::Float32));
      return emitCollective(Site, Args, S);
    }
    auto Memory = [&](const LoadNode *L, const Expr &Stride, Scope Want, DType T, int32_t &Id) {
      if (!L->Buf || !lookupBuffer(L->Buf.get(), Id))
        return false;
      const BufferInfo &Mem = P.Buffers[Id];
      if (Want == Scope::Shared ? Mem.MemScope != Scope::Shared
                                : Mem.MemScope != Scope::Global && Mem.MemScope != Scope::Shared) {
        fail("'" + C->Name + "' accesses '" + Mem.Name + "' in " + scopeName(Mem.MemScope) +
             " memory; " + (Want == Scope::Shared ? "wgmma reads A and B from shared memory"
                                                  : "its store takes global or shared memory"));
        return false;
      }
      if (Mem.Type != T) {
        fail("'" + C->Name + "' takes " + dtypeName(T) + " '" + Mem.Name + "', which is " +
             dtypeName(Mem.Type));
        return false;
      }
      Args.push_back(compileIndex(L->Buf, L->Indices));
      Args.push_back(compileAs(Stride, DType::Int64));
      return !Failed;
    };
    if (W.Op == WmmaOp::Store) {
      if (!Memory(W.Memory, W.Stride, Scope::Global, DType::Float32, Site.Memory))
        return;
      if (!P.Buffers[Site.Memory].Writable) {
        fail("the kernel writes '" + P.Buffers[Site.Memory].Name +
             "' but its launch region marks it read-only (it would not be copied back)");
        return;
      }
      return emitCollective(Site, Args, S);
    }
    if (W.Op != WmmaOp::Mma) {
      fail("the simulator does not support '" + C->Name + "'");
      return;
    }
    if (!Memory(W.A, W.StrideA, Scope::Shared, DType::Float16, Site.Memory) ||
        !Memory(W.B, W.StrideB, Scope::Shared, DType::Float16, Site.MemoryB))
      return;
    emitCollective(Site, Args, S);
  }

  /// warp.shfl_xor(D, S, lane_mask): D and S local elements, the mask a
  /// constant lane bit pattern below 32.
  void compileShuffle(const CallNode *C, const Stmt &S) {
    CollectiveSite Site;
    Site.Shuffle = true;
    std::vector<int32_t> Args;
    for (int I = 0; I < 2; ++I) {
      const auto *L = C->Args.size() == 3 ? as<LoadNode>(C->Args[I]) : nullptr;
      int32_t Id = -1;
      if (!L || !L->Buf || !lookupBuffer(L->Buf.get(), Id))
        return (void)fail("malformed '" + C->Name + "': it takes two local elements and a mask");
      if (P.Buffers[Id].MemScope != Scope::Local)
        return (void)fail("'" + C->Name + "' exchanges local elements, but '" +
                          P.Buffers[Id].Name + "' is " + scopeName(P.Buffers[Id].MemScope));
      Site.Frag[I] = Id;
      Args.push_back(compileIndex(L->Buf, L->Indices));
    }
    int64_t Mask;
    if (!getConstInt(C->Args[2], Mask) || Mask <= 0 || Mask >= 32)
      return (void)fail("'" + C->Name + "' takes a constant lane mask from 1 to 31");
    Args.push_back(compileAs(C->Args[2], DType::Int64));
    emitCollective(Site, Args, S);
  }

  /// The collective instruction: its arguments in consecutive registers,
  /// compared across the warp (or warpgroup).
  void emitCollective(CollectiveSite Site, const std::vector<int32_t> &Args, const Stmt &S) {
    if (Failed)
      return;
    int32_t First = temp();
    for (size_t I = 1; I < Args.size(); ++I)
      temp();
    for (size_t I = 0; I < Args.size(); ++I)
      emit(Op::Mov, First + static_cast<int32_t>(I), Args[I]);
    Site.NumArgs = static_cast<int>(Args.size());
    emit(Op::Collective, 0, First, 0, static_cast<int32_t>(P.Collectives.size()));
    P.Sites.back().Statement = S;
    P.Collectives.push_back(Site);
  }

  const LoweredKernel &K;
  SimProgram &P;
  std::string &Error;
  bool Failed = false;
  int32_t Top = 0;
  std::vector<VarBinding> Vars;
  std::vector<BufBinding> Bufs;
  std::map<int64_t, int32_t> IntConsts;
  std::map<uint64_t, int32_t> FloatConsts;
};

} // namespace

std::shared_ptr<const SimProgram> compileKernel(const LoweredKernel &K, std::string &Error) {
  auto P = std::make_shared<SimProgram>();
  P->Kernel = K;
  Compiler C(P->Kernel, *P, Error);
  if (!C.run())
    return nullptr;
  return P;
}

} // namespace sim
} // namespace sched
