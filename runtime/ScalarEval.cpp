//===- ScalarEval.cpp - Launch-time values of scalar expressions ----------===//
//
// A small tree-walking evaluator for the handful of expressions a launch
// needs once (geometry, regions, allocation sizes). Kernel bodies never go
// through here: the simulator compiles them to bytecode.
//
//===----------------------------------------------------------------------===//

#include "ScalarEval.h"
#include "sim/Simulator.h"

#include <cmath>
#include <cstring>

namespace sched {
namespace runtime {

using namespace ir;

void ScalarEnv::bind(const Var &V, int64_t IntValue, double FloatValue) {
  for (Binding &B : Bindings)
    if (B.V.get() == V.get()) {
      B.I = IntValue;
      B.F = FloatValue;
      return;
    }
  Bindings.push_back({V, IntValue, FloatValue});
}

int64_t readIntScalar(const void *P, DType T) {
  switch (T) {
  case DType::Bool: return *static_cast<const bool *>(P) ? 1 : 0;
  case DType::Int8: return *static_cast<const int8_t *>(P);
  case DType::UInt8: return *static_cast<const uint8_t *>(P);
  case DType::Int16: return *static_cast<const int16_t *>(P);
  case DType::Int32: return *static_cast<const int32_t *>(P);
  case DType::Int64: return *static_cast<const int64_t *>(P);
  case DType::UInt16: return *static_cast<const uint16_t *>(P);
  case DType::UInt32: return *static_cast<const uint32_t *>(P);
  case DType::UInt64: return static_cast<int64_t>(*static_cast<const uint64_t *>(P));
  default: return static_cast<int64_t>(readFloatScalar(P, T));
  }
}

void writeIntScalar(void *P, DType T, int64_t V) {
  switch (T) {
  case DType::Bool: *static_cast<bool *>(P) = V != 0; return;
  case DType::Int8: *static_cast<int8_t *>(P) = static_cast<int8_t>(V); return;
  case DType::UInt8: *static_cast<uint8_t *>(P) = static_cast<uint8_t>(V); return;
  case DType::Int16: *static_cast<int16_t *>(P) = static_cast<int16_t>(V); return;
  case DType::UInt16: *static_cast<uint16_t *>(P) = static_cast<uint16_t>(V); return;
  case DType::Int32: *static_cast<int32_t *>(P) = static_cast<int32_t>(V); return;
  case DType::UInt32: *static_cast<uint32_t *>(P) = static_cast<uint32_t>(V); return;
  case DType::Int64: *static_cast<int64_t *>(P) = V; return;
  case DType::UInt64: *static_cast<uint64_t *>(P) = static_cast<uint64_t>(V); return;
  default: return; // not an integer: the descriptor parser refuses such finals
  }
}

double readFloatScalar(const void *P, DType T) {
  switch (T) {
  case DType::Float16: {
    uint16_t H;
    std::memcpy(&H, P, 2);
    return sim::halfToFloat(H);
  }
  case DType::Float32: return *static_cast<const float *>(P);
  case DType::Float64: return *static_cast<const double *>(P);
  case DType::UInt64: return static_cast<double>(*static_cast<const uint64_t *>(P));
  default: return static_cast<double>(readIntScalar(P, T));
  }
}

void ScalarEnv::bindParams(const LoopNest &Nest, const std::vector<void *> &ParamData) {
  for (size_t I = 0; I < Nest.Params.size() && I < ParamData.size(); ++I) {
    const Param &P = Nest.Params[I];
    if (P.ParamKind != Param::Kind::Scalar || !P.Scalar || !ParamData[I])
      continue;
    DType T = P.Scalar->Type;
    bind(P.Scalar, readIntScalar(ParamData[I], T), readFloatScalar(ParamData[I], T));
  }
}

bool ScalarEnv::lookup(const VarNode *V, int64_t &IntValue, double &FloatValue) const {
  for (const Binding &B : Bindings)
    if (B.V.get() == V) {
      IntValue = B.I;
      FloatValue = B.F;
      return true;
    }
  for (const Binding &B : Bindings)
    if (B.V->Name == V->Name) {
      IntValue = B.I;
      FloatValue = B.F;
      return true;
    }
  return false;
}

namespace {

/// Integer evaluation; floats in these expressions are truncated, as a cast
/// to int would.
class IntEvaluator {
public:
  IntEvaluator(const ScalarEnv &Env, std::string &Error) : Env(Env), Error(Error) {}

  bool eval(const Expr &E, int64_t &Out) {
    if (!E)
      return fail("missing expression");
    switch (E->Kind) {
    case ExprKind::IntImm: Out = as<IntImmNode>(E)->Value; return true;
    case ExprKind::FloatImm: Out = static_cast<int64_t>(as<FloatImmNode>(E)->Value); return true;
    case ExprKind::Var: {
      const auto *V = as<VarNode>(E);
      double F;
      if (!Env.lookup(V, Out, F))
        return fail("'" + V->Name + "' is not a scalar parameter");
      return true;
    }
    case ExprKind::Binary: return evalBinary(as<BinaryNode>(E), Out);
    case ExprKind::Unary: {
      const auto *U = as<UnaryNode>(E);
      int64_t A;
      if (!eval(U->A, A))
        return false;
      if (U->Op == UnOp::Not)
        Out = !A;
      else if (isInt(U->Type)) // two's complement -x and ~x, wrapped like C
        Out = wrapToType(U->Op == UnOp::Neg ? int64_t(0 - uint64_t(A)) : ~A, U->Type);
      else
        Out = -A;
      return true;
    }
    case ExprKind::Select: {
      const auto *S = as<SelectNode>(E);
      int64_t C;
      if (!eval(S->Cond, C))
        return false;
      return eval(C ? S->TrueValue : S->FalseValue, Out);
    }
    case ExprKind::Cast: {
      const auto *C = as<CastNode>(E);
      if (!eval(C->Value, Out))
        return false;
      if (isInt(C->Type) && !isFloat(C->Value->Type))
        Out = wrapToType(Out, C->Type); // conversions truncate, as in C
      return true;
    }
    case ExprKind::Load: return fail("a launch extent cannot load from memory");
    case ExprKind::Call: return fail("a launch extent cannot call '" + as<CallNode>(E)->Name + "'");
    }
    return fail("unknown expression");
  }

private:
  bool fail(const std::string &Message) {
    Error = Message;
    return false;
  }

  bool evalBinary(const BinaryNode *B, int64_t &Out) {
    int64_t X, Y;
    if (!eval(B->A, X) || !eval(B->B, Y))
      return false;
    DType T = B->A->Type;
    if ((B->Op == BinOp::Div || B->Op == BinOp::Mod) && Y == 0)
      return fail("division by zero in a launch extent");
    // Integers compute as C does (unsigned wrap, unsigned comparisons);
    // what C leaves undefined falls through to plain int64 arithmetic.
    if (isInt(T) && B->Op != BinOp::And && B->Op != BinOp::Or &&
        evalIntBinary(B->Op, T, wrapToType(X, T), wrapToType(Y, T), Out))
      return true;
    if (isBitwise(B->Op))
      return fail("shift count out of range in a launch extent");
    switch (B->Op) {
    case BinOp::Add: Out = X + Y; return true;
    case BinOp::Sub: Out = X - Y; return true;
    case BinOp::Mul: Out = X * Y; return true;
    case BinOp::Div:
    case BinOp::Mod:
      if (Y == 0)
        return fail("division by zero in a launch extent");
      Out = B->Op == BinOp::Div ? X / Y : X % Y;
      return true;
    case BinOp::Min: Out = X < Y ? X : Y; return true;
    case BinOp::Max: Out = X > Y ? X : Y; return true;
    case BinOp::EQ: Out = X == Y; return true;
    case BinOp::NE: Out = X != Y; return true;
    case BinOp::LT: Out = X < Y; return true;
    case BinOp::LE: Out = X <= Y; return true;
    case BinOp::GT: Out = X > Y; return true;
    case BinOp::GE: Out = X >= Y; return true;
    case BinOp::And: Out = X && Y; return true;
    case BinOp::Or: Out = X || Y; return true;
    default: break;
    }
    return fail("unknown operator");
  }

  const ScalarEnv &Env;
  std::string &Error;
};

} // namespace

bool evalInt(const Expr &E, const ScalarEnv &Env, int64_t &Out, std::string &Error,
             int64_t Default) {
  if (!E) {
    Out = Default;
    return true;
  }
  return IntEvaluator(Env, Error).eval(E, Out);
}

bool evalLaunchGeometry(const LaunchGeometry &G, const ScalarEnv &Env, int64_t Grid[3],
                        int64_t Block[3], bool &Empty, std::string &Error) {
  Empty = false;
  for (int Dim = 0; Dim < 3; ++Dim) {
    std::string Why;
    if (!evalInt(G.Grid[Dim], Env, Grid[Dim], Why) ||
        !evalInt(G.Block[Dim], Env, Block[Dim], Why)) {
      Error = "cannot evaluate the launch geometry: " + Why;
      return false;
    }
    if (Grid[Dim] < 0 || Block[Dim] < 1) {
      Error = "bad launch geometry";
      return false;
    }
    Empty |= Grid[Dim] == 0;
  }
  return true;
}

const BufferRegion *regionOf(const LoweredKernel &K, const std::string &Param) {
  for (const BufferRegion &R : K.Regions)
    if (R.Param == Param)
      return &R;
  return nullptr;
}

bool evalRegion(const BufferRegion &R, const ScalarEnv &Env, const void *Data, int64_t &Min,
                int64_t &Extent, std::string &Error) {
  std::string Why;
  Min = 0;
  if (!evalInt(R.Extent, Env, Extent, Why) || Extent < 0 ||
      (R.Min && !evalInt(R.Min, Env, Min, Why))) {
    Error = "cannot evaluate the region of '" + R.Param + "': " + Why;
    return false;
  }
  if (!Data && Extent > 0) {
    Error = "argument for parameter '" + R.Param + "' is null, but the kernel touches " +
            std::to_string(Extent) + " of its elements";
    return false;
  }
  return true;
}

} // namespace runtime
} // namespace sched
