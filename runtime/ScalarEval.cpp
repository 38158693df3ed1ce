//===- ScalarEval.cpp - Launch-time values of scalar expressions ----------===//
//
// A small tree-walking evaluator for the handful of expressions a launch
// needs once (geometry, regions, allocation sizes). Kernel bodies never go
// through here: the simulator compiles them to bytecode.
//
//===----------------------------------------------------------------------===//

#include "ScalarEval.h"

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
      Out = evalScalarUnary(U->Op, U->Type, A);
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
    return eval(B->A, X) && eval(B->B, Y) &&
           evalScalarBinary(B->Op, B->A->Type, X, Y, Out, Error);
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

} // namespace runtime
} // namespace sched
