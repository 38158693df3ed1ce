//===- MathFunctions.h - The table of pure math functions -------*- C++ -*-===//
//
// The one table of the pure math functions a nest may call. Every reader
// takes what it needs from the same entry, so they cannot disagree:
// - the extractor: which C and C++ calls (`sinf`, `sin`, `std::sin` on float
//   or double) become an IR call, and under which name;
// - the intrinsic table (Intrinsics.h): the calls are pure, with their type;
// - the CUDA emitter: the device function of each;
// - the simulator: the host libm function the plain build calls, so that a
//   kernel run on sim computes the same bits as the original loop.
//
// An entry is one C function: a family (the double name, as written after
// `std::`) in one precision. IR calls are named by the C name for their type
// ("sinf" computes in float, "sin" in double).
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_IR_MATHFUNCTIONS_H
#define SCHED_IR_MATHFUNCTIONS_H

#include "IR.h"

#include <string>
#include <vector>

namespace sched {
namespace ir {

struct MathFunction {
  std::string Name;     // the IR call and C name: "sinf", "sin"
  std::string Family;   // the double-precision name: "sin"
  DType Type;           // Float32 or Float64: every argument and the result
  unsigned Arity;       // 1, 2 or 3
  std::string CudaName; // the CUDA device function
  /// Calls the host's libm function with Arity arguments, each exactly
  /// representable in Type; the result is exact in double.
  double (*Host)(const double *Args);
};

/// Every entry, float variants first.
const std::vector<MathFunction> &mathFunctions();

/// The entry named Name ("sinf"), or nullptr.
const MathFunction *lookupMathFunction(const std::string &Name);

/// The entry of Family ("sin") that computes in T, or nullptr.
const MathFunction *lookupMathFamily(const std::string &Family, DType T);

} // namespace ir
} // namespace sched

#endif
