//===- ScalarEval.h - Launch-time values of scalar expressions --*- C++ -*-===//
//
// The simulator's and the VTA runner's evaluation of the IR's scalar
// expressions (allocation sizes, a VTA program's loop bounds and
// arguments) over the nest's scalar parameters and loop variables. The
// launcher and the backends that run emitted code evaluate the plan's
// programs instead (ir/LaunchPlan.h); both compute every operator through
// ir::evalScalarBinary.
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_RUNTIME_SCALAREVAL_H
#define SCHED_RUNTIME_SCALAREVAL_H

#include "ir/Kernel.h"
#include "ir/IR.h"

#include <string>
#include <vector>

namespace sched {
namespace runtime {

/// The scalar parameters' values at a launch (integers and floats alike are
/// kept as double and int64; the variable's dtype says which is meant).
class ScalarEnv {
public:
  /// Binds V, or gives it a new value (a loop variable per iteration).
  void bind(const ir::Var &V, int64_t IntValue, double FloatValue);
  /// Binds every scalar parameter of Nest from ParamData (addresses of values
  /// of the parameter's dtype, in Params order; buffer entries are skipped).
  void bindParams(const ir::LoopNest &Nest, const std::vector<void *> &ParamData);
  /// Looks V up by identity, then by name (a descriptor parsed from text may
  /// hold distinct nodes for one variable).
  bool lookup(const ir::VarNode *V, int64_t &IntValue, double &FloatValue) const;

private:
  struct Binding {
    ir::Var V;
    int64_t I;
    double F;
  };
  std::vector<Binding> Bindings;
};

/// Evaluates integer expression E (a missing E counts as Default). Returns
/// false and sets Error if E uses an unbound variable, a load, or divides by
/// zero.
bool evalInt(const ir::Expr &E, const ScalarEnv &Env, int64_t &Out, std::string &Error,
             int64_t Default = 1);

/// Scalars in memory (ir/Types.h), by their runtime names.
using ir::readFloatScalar;
using ir::readIntScalar;
using ir::writeIntScalar;

} // namespace runtime
} // namespace sched

#endif // SCHED_RUNTIME_SCALAREVAL_H
