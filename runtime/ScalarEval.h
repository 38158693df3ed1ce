//===- ScalarEval.h - Launch-time values of scalar expressions --*- C++ -*-===//
//
// Grid and block extents, region extents and allocation sizes are IR
// expressions over the nest's scalar parameters. Every backend evaluates them
// once per launch, from the scalar arguments, with this one evaluator.
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

/// The grid and block extents of G for the arguments in Env, as every backend
/// that launches a grid needs them. False with Error when one cannot be
/// evaluated, a grid extent is negative or a block extent below 1; Empty is
/// set when the grid has no block (nothing to run; CUDA would refuse it).
bool evalLaunchGeometry(const LaunchGeometry &G, const ScalarEnv &Env, int64_t Grid[3],
                        int64_t Block[3], bool &Empty, std::string &Error);

/// The region of buffer parameter Param (null: the kernel touches none of
/// it), and its first element and element count for the arguments in Env,
/// Data being the argument: false with Error when they cannot be evaluated,
/// the count is negative, or Data is null and the count is not zero (`v.data()`
/// of an empty vector is fine where the kernel touches none of it). What a
/// backend that moves or checks a buffer's accessed part needs.
const BufferRegion *regionOf(const LoweredKernel &K, const std::string &Param);
bool evalRegion(const BufferRegion &R, const ScalarEnv &Env, const void *Data, int64_t &Min,
                int64_t &Extent, std::string &Error);

/// Reads a scalar of type T at P as int64 / double.
int64_t readIntScalar(const void *P, ir::DType T);
double readFloatScalar(const void *P, ir::DType T);
/// Stores V, wrapped to integer type T, at P (a variable of type T).
void writeIntScalar(void *P, ir::DType T, int64_t V);

} // namespace runtime
} // namespace sched

#endif // SCHED_RUNTIME_SCALAREVAL_H
