//===- IR.cpp - Types, names and constructors of the scheduling IR --------===//
//
// The dtype / operator / scope tables and the make* constructors. The
// constructors only compute result types (C's usual arithmetic conversions,
// made explicit as Cast nodes) and never simplify, so that what a pass builds
// is exactly what the printer shows.
//
//===----------------------------------------------------------------------===//

#include "IR.h"

#include <algorithm>

namespace sched {
namespace ir {

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

namespace {
struct DTypeInfo {
  DType Type;
  const char *Name;
  const char *CudaName;
  int Bytes;
};

const DTypeInfo DTypeTable[] = {
    {DType::Bool, "bool", "bool", 1},
    {DType::Int8, "int8", "signed char", 1},
    {DType::UInt8, "uint8", "unsigned char", 1},
    {DType::Int16, "int16", "short", 2},
    {DType::Int32, "int32", "int", 4},
    {DType::Int64, "int64", "long long", 8},
    {DType::Float16, "float16", "half", 2},
    {DType::Float32, "float32", "float", 4},
    {DType::Float64, "float64", "double", 8},
    {DType::UInt16, "uint16", "unsigned short", 2},
    {DType::UInt32, "uint32", "unsigned int", 4},
    {DType::UInt64, "uint64", "unsigned long long", 8},
};

const DTypeInfo &infoOf(DType T) {
  for (const DTypeInfo &I : DTypeTable)
    if (I.Type == T)
      return I;
  return DTypeTable[4]; // unreachable for valid enumerators (int32)
}
} // namespace

const char *dtypeName(DType T) { return infoOf(T).Name; }

const char *const VectorizePragma = "vectorize";
const char *cudaTypeName(DType T) { return infoOf(T).CudaName; }
int dtypeBytes(DType T) { return infoOf(T).Bytes; }

bool parseDType(const std::string &S, DType &Out) {
  for (const DTypeInfo &I : DTypeTable)
    if (S == I.Name) {
      Out = I.Type;
      return true;
    }
  return false;
}

bool isFloat(DType T) {
  return T == DType::Float16 || T == DType::Float32 || T == DType::Float64;
}

bool isInt(DType T) { return T != DType::Bool && !isFloat(T); }

bool isUnsigned(DType T) {
  return T == DType::UInt8 || T == DType::UInt16 || T == DType::UInt32 || T == DType::UInt64;
}

//===----------------------------------------------------------------------===//
// Operators and scopes
//===----------------------------------------------------------------------===//

const char *binOpSymbol(BinOp Op) {
  switch (Op) {
  case BinOp::Add: return "+";
  case BinOp::Sub: return "-";
  case BinOp::Mul: return "*";
  case BinOp::Div: return "/";
  case BinOp::Mod: return "%";
  case BinOp::Min: return "min";
  case BinOp::Max: return "max";
  case BinOp::EQ: return "==";
  case BinOp::NE: return "!=";
  case BinOp::LT: return "<";
  case BinOp::LE: return "<=";
  case BinOp::GT: return ">";
  case BinOp::GE: return ">=";
  case BinOp::And: return "&&";
  case BinOp::Or: return "||";
  case BinOp::BitAnd: return "&";
  case BinOp::BitOr: return "|";
  case BinOp::BitXor: return "^";
  case BinOp::Shl: return "<<";
  case BinOp::Shr: return ">>";
  }
  return "?";
}

bool isBitwise(BinOp Op) {
  return Op == BinOp::BitAnd || Op == BinOp::BitOr || Op == BinOp::BitXor || Op == BinOp::Shl ||
         Op == BinOp::Shr;
}

bool isBlockTag(const std::string &Tag) {
  return Tag == "blockIdx.x" || Tag == "blockIdx.y" || Tag == "blockIdx.z";
}

bool isThreadIdxTag(const std::string &Tag) {
  return Tag == "threadIdx.x" || Tag == "threadIdx.y" || Tag == "threadIdx.z";
}

bool isVirtualThreadTag(const std::string &Tag) { return Tag == "vthread" || Tag == "cthread"; }

int threadTagDim(const std::string &Tag) {
  if (!isBlockTag(Tag) && !isThreadIdxTag(Tag))
    return -1;
  return Tag.back() - 'x';
}

bool isComparison(BinOp Op) {
  switch (Op) {
  case BinOp::EQ: case BinOp::NE: case BinOp::LT:
  case BinOp::LE: case BinOp::GT: case BinOp::GE:
    return true;
  default:
    return false;
  }
}

namespace {
const std::pair<Scope, const char *> ScopeTable[] = {
    {Scope::Global, "global"},
    {Scope::Shared, "shared"},
    {Scope::Local, "local"},
    {Scope::WmmaMatrixA, "wmma.matrix_a"},
    {Scope::WmmaMatrixB, "wmma.matrix_b"},
    {Scope::WmmaAccumulator, "wmma.accumulator"},
    {Scope::VtaInp, "vta.inp"},
    {Scope::VtaWgt, "vta.wgt"},
    {Scope::VtaAcc, "vta.acc"},
};
} // namespace

const char *scopeName(Scope S) {
  for (const auto &E : ScopeTable)
    if (E.first == S)
      return E.second;
  return "global";
}

bool parseScope(const std::string &S, Scope &Out) {
  for (const auto &E : ScopeTable)
    if (S == E.second) {
      Out = E.first;
      return true;
    }
  return false;
}

//===----------------------------------------------------------------------===//
// Usual arithmetic conversions
//===----------------------------------------------------------------------===//

int integerRank(DType T) {
  switch (T) {
  case DType::Bool: return 0;
  case DType::Int8: case DType::UInt8: return 1;
  case DType::Int16: case DType::UInt16: return 2;
  case DType::Int32: case DType::UInt32: return 3;
  default: return 4;
  }
}

DType promotedType(DType T) {
  // Every type of rank below int fits in int32, so it promotes to int.
  return isFloat(T) || integerRank(T) >= 3 ? T : DType::Int32;
}

namespace {
DType unsignedOfRank(int Rank) { return Rank <= 3 ? DType::UInt32 : DType::UInt64; }
} // namespace

DType arithmeticType(DType A, DType B) {
  if (isFloat(A) || isFloat(B)) {
    if (!isFloat(A))
      return B;
    if (!isFloat(B))
      return A;
    return dtypeBytes(A) >= dtypeBytes(B) ? A : B;
  }
  A = promotedType(A);
  B = promotedType(B);
  if (A == B)
    return A;
  int RankA = integerRank(A), RankB = integerRank(B);
  if (isUnsigned(A) == isUnsigned(B))
    return RankA >= RankB ? A : B;
  DType U = isUnsigned(A) ? A : B, S = isUnsigned(A) ? B : A;
  int RankU = isUnsigned(A) ? RankA : RankB, RankS = isUnsigned(A) ? RankB : RankA;
  if (RankU >= RankS)
    return U;
  if (dtypeBytes(S) > dtypeBytes(U))
    return S; // the signed type holds every value of the unsigned one
  return unsignedOfRank(RankS);
}

int64_t wrapToType(int64_t V, DType T) {
  switch (T) {
  case DType::Bool: return V != 0;
  case DType::Int8: return static_cast<int8_t>(V);
  case DType::UInt8: return static_cast<uint8_t>(V);
  case DType::Int16: return static_cast<int16_t>(V);
  case DType::UInt16: return static_cast<uint16_t>(V);
  case DType::Int32: return static_cast<int32_t>(static_cast<uint32_t>(V));
  case DType::UInt32: return static_cast<uint32_t>(V);
  default: return V;
  }
}

bool evalIntBinary(BinOp Op, DType T, int64_t A, int64_t B, int64_t &Out) {
  const bool Unsigned = isUnsigned(T);
  const uint64_t UA = static_cast<uint64_t>(A), UB = static_cast<uint64_t>(B);
  const int Bits = dtypeBytes(T) * 8;
  int64_t Wide = 0;
  bool Overflow = false;
  switch (Op) {
  case BinOp::Add:
  case BinOp::Sub:
  case BinOp::Mul:
    if (Unsigned) {
      uint64_t R = Op == BinOp::Add ? UA + UB : Op == BinOp::Sub ? UA - UB : UA * UB;
      Out = wrapToType(static_cast<int64_t>(R), T);
      return true;
    }
    // Narrow signed operands were promoted to int, so only int32 and int64
    // results can overflow, which C leaves undefined.
    Overflow = Op == BinOp::Add   ? __builtin_add_overflow(A, B, &Wide)
               : Op == BinOp::Sub ? __builtin_sub_overflow(A, B, &Wide)
                                  : __builtin_mul_overflow(A, B, &Wide);
    if (Overflow || wrapToType(Wide, T) != Wide)
      return false;
    Out = Wide;
    return true;
  case BinOp::Div:
  case BinOp::Mod:
    if (B == 0 || (!Unsigned && B == -1 && A == INT64_MIN))
      return false;
    if (Unsigned)
      Out = static_cast<int64_t>(Op == BinOp::Div ? UA / UB : UA % UB);
    else if (B == -1) // -INT32_MIN fits the int64 and is undefined in int32
      Out = Op == BinOp::Div ? -A : 0;
    else
      Out = Op == BinOp::Div ? A / B : A % B;
    return wrapToType(Out, T) == Out;
  case BinOp::Min: Out = (Unsigned ? UA < UB : A < B) ? A : B; return true;
  case BinOp::Max: Out = (Unsigned ? UA > UB : A > B) ? A : B; return true;
  case BinOp::EQ: Out = A == B; return true;
  case BinOp::NE: Out = A != B; return true;
  case BinOp::LT: Out = Unsigned ? UA < UB : A < B; return true;
  case BinOp::LE: Out = Unsigned ? UA <= UB : A <= B; return true;
  case BinOp::GT: Out = Unsigned ? UA > UB : A > B; return true;
  case BinOp::GE: Out = Unsigned ? UA >= UB : A >= B; return true;
  case BinOp::BitAnd: Out = wrapToType(A & B, T); return true;
  case BinOp::BitOr: Out = wrapToType(A | B, T); return true;
  case BinOp::BitXor: Out = wrapToType(A ^ B, T); return true;
  case BinOp::Shl:
  case BinOp::Shr:
    // A count outside [0, bits) is undefined (CUDA clamps it, x86 masks it).
    // Within it, << wraps to the type (C++20's definition, and what clang
    // and nvcc do for signed values too) and >> of a signed value is
    // arithmetic.
    if (B < 0 || B >= Bits)
      return false;
    if (Op == BinOp::Shl)
      Out = wrapToType(static_cast<int64_t>(UA << B), T);
    else
      Out = Unsigned ? static_cast<int64_t>(UA >> B) : A >> B;
    return true;
  case BinOp::And:
  case BinOp::Or:
    return false;
  }
  return false;
}

namespace {
/// The type of a binary node on A and B: A when both agree (an int8 + int8
/// node stays int8; the CUDA and sim code compute it in int and convert
/// back), else the usual arithmetic conversions.
DType commonType(DType A, DType B) { return A == B ? A : arithmeticType(A, B); }

Expr convertTo(DType T, Expr E) {
  if (!E || E->Type == T)
    return E;
  return makeCast(T, std::move(E));
}
} // namespace

//===----------------------------------------------------------------------===//
// Constructors
//===----------------------------------------------------------------------===//

Expr makeInt(int64_t V, DType T) { return std::make_shared<IntImmNode>(V, T); }
Expr makeFloat(double V, DType T) { return std::make_shared<FloatImmNode>(V, T); }
Expr makeBool(bool V) { return std::make_shared<IntImmNode>(V ? 1 : 0, DType::Bool); }
Var makeVar(const std::string &Name, DType T) { return std::make_shared<VarNode>(Name, T); }

Expr makeBinary(BinOp Op, Expr A, Expr B) {
  if (!A || !B)
    return nullptr;
  if (Op == BinOp::And || Op == BinOp::Or)
    return std::make_shared<BinaryNode>(Op, std::move(A), std::move(B), DType::Bool);
  if (Op == BinOp::Shl || Op == BinOp::Shr) {
    DType T = A->Type;
    B = convertTo(T, std::move(B));
    return std::make_shared<BinaryNode>(Op, std::move(A), std::move(B), T);
  }
  DType T = commonType(A->Type, B->Type);
  A = convertTo(T, std::move(A));
  B = convertTo(T, std::move(B));
  DType Result = isComparison(Op) ? DType::Bool : T;
  return std::make_shared<BinaryNode>(Op, std::move(A), std::move(B), Result);
}

Expr makeUnary(UnOp Op, Expr A) {
  if (!A)
    return nullptr;
  DType T = Op == UnOp::Not ? DType::Bool : A->Type;
  return std::make_shared<UnaryNode>(Op, std::move(A), T);
}

Expr makeSelect(Expr C, Expr T, Expr F) {
  if (!C || !T || !F)
    return nullptr;
  DType Common = commonType(T->Type, F->Type);
  T = convertTo(Common, std::move(T));
  F = convertTo(Common, std::move(F));
  return std::make_shared<SelectNode>(std::move(C), std::move(T), std::move(F));
}

Expr makeCast(DType T, Expr V) {
  if (!V)
    return nullptr;
  return std::make_shared<CastNode>(T, std::move(V));
}

Expr makeLoad(Buffer B, std::vector<Expr> Indices) {
  if (!B)
    return nullptr;
  DType T = B->Type;
  return std::make_shared<LoadNode>(std::move(B), std::move(Indices), T);
}

Expr makeCall(const std::string &Name, std::vector<Expr> Args, DType T) {
  return std::make_shared<CallNode>(Name, std::move(Args), T);
}

Buffer makeBuffer(const std::string &Name, DType T, std::vector<Expr> Shape, Scope S) {
  return std::make_shared<BufferNode>(Name, T, std::move(Shape), S);
}

Stmt makeFor(Var V, Expr Min, Expr Extent, Stmt Body, ForKind K, const std::string &Tag,
             bool IsReduction) {
  return std::make_shared<ForNode>(std::move(V), std::move(Min), std::move(Extent), K, Tag,
                                   IsReduction, std::move(Body));
}

Stmt makeStore(Buffer B, std::vector<Expr> Indices, Expr Value) {
  return std::make_shared<StoreNode>(std::move(B), std::move(Indices), std::move(Value));
}

Stmt makeAllocate(Buffer B, Stmt Body) {
  return std::make_shared<AllocateNode>(std::move(B), std::move(Body));
}

namespace {
void appendFlattened(const Stmt &S, std::vector<Stmt> &Out) {
  if (!S)
    return;
  if (const auto *Seq = as<SeqNode>(S)) {
    for (const Stmt &Child : Seq->Stmts)
      appendFlattened(Child, Out);
    return;
  }
  Out.push_back(S);
}
} // namespace

Stmt makeSeq(std::vector<Stmt> Stmts) {
  std::vector<Stmt> Flat;
  for (const Stmt &S : Stmts)
    appendFlattened(S, Flat);
  if (Flat.size() == 1)
    return Flat.front();
  return std::make_shared<SeqNode>(std::move(Flat));
}

Stmt makeIf(Expr Cond, Stmt Then, Stmt Else) {
  return std::make_shared<IfThenElseNode>(std::move(Cond), std::move(Then), std::move(Else));
}

Stmt makeLet(Var V, Expr Value, Stmt Body) {
  return std::make_shared<LetStmtNode>(std::move(V), std::move(Value), std::move(Body));
}

Stmt makeEvaluate(Expr E) { return std::make_shared<EvaluateNode>(std::move(E)); }

Expr operator+(Expr A, Expr B) { return makeBinary(BinOp::Add, std::move(A), std::move(B)); }
Expr operator-(Expr A, Expr B) { return makeBinary(BinOp::Sub, std::move(A), std::move(B)); }
Expr operator*(Expr A, Expr B) { return makeBinary(BinOp::Mul, std::move(A), std::move(B)); }
Expr operator/(Expr A, Expr B) { return makeBinary(BinOp::Div, std::move(A), std::move(B)); }
Expr operator%(Expr A, Expr B) { return makeBinary(BinOp::Mod, std::move(A), std::move(B)); }
Expr operator<(Expr A, Expr B) { return makeBinary(BinOp::LT, std::move(A), std::move(B)); }
Expr operator<(const Var &A, const Expr &B) { return makeBinary(BinOp::LT, A, B); }
Expr operator<(const Expr &A, const Var &B) { return makeBinary(BinOp::LT, A, B); }
Expr operator<(const Var &A, const Var &B) { return makeBinary(BinOp::LT, A, B); }

bool getConstInt(const Expr &E, int64_t &Out) {
  const auto *I = as<IntImmNode>(E);
  if (!I)
    return false;
  Out = I->Value;
  return true;
}

int64_t constantElements(const BufferNode &B) {
  int64_t Count = 1, Extent;
  for (const Expr &Dim : B.Shape) {
    if (!getConstInt(Dim, Extent))
      return -1;
    Count *= Extent;
  }
  return Count;
}

const char *kindName(ExprKind K) {
  switch (K) {
#define SCHED_EXPR_NODE(X)                                                                         \
  case ExprKind::X:                                                                                \
    return #X;
#include "ir/NodeKinds.def"
  }
  return "?";
}

const char *kindName(StmtKind K) {
  switch (K) {
#define SCHED_STMT_NODE(X)                                                                         \
  case StmtKind::X:                                                                                \
    return #X;
#include "ir/NodeKinds.def"
  }
  return "?";
}

} // namespace ir
} // namespace sched
