//===- MathFunctions.cpp - The table of pure math functions ---------------===//
//
// See MathFunctions.h. The families are listed once; each gives a float and a
// double entry whose host function is the libm function of that name, called
// through a pointer, so the simulator runs exactly the code the plain build
// calls (at -O2 Clang keeps these as libm calls or turns them into exact
// instructions: floor, fabs, copysign, fmin, ...).
//
//===----------------------------------------------------------------------===//

#include "MathFunctions.h"

#include <cmath>
#include <map>

namespace sched {
namespace ir {

namespace {

// The families: the double name and the arity. CUDA provides a device
// function of the same name for each, in float and double.
#define SCHED_MATH_FAMILIES(X)                                                                     \
  X(sqrt, 1) X(cbrt, 1) X(exp, 1) X(exp2, 1) X(expm1, 1) X(log, 1) X(log2, 1) X(log10, 1)          \
  X(log1p, 1) X(sin, 1) X(cos, 1) X(tan, 1) X(asin, 1) X(acos, 1) X(atan, 1) X(sinh, 1)             \
  X(cosh, 1) X(tanh, 1) X(fabs, 1) X(floor, 1) X(ceil, 1) X(round, 1) X(trunc, 1) X(pow, 2)        \
  X(fmin, 2) X(fmax, 2) X(fmod, 2) X(atan2, 2) X(hypot, 2) X(copysign, 2) X(fma, 3)

template <float (*F)(float)> double callFloat1(const double *A) {
  return F(static_cast<float>(A[0]));
}
template <float (*F)(float, float)> double callFloat2(const double *A) {
  return F(static_cast<float>(A[0]), static_cast<float>(A[1]));
}
template <float (*F)(float, float, float)> double callFloat3(const double *A) {
  return F(static_cast<float>(A[0]), static_cast<float>(A[1]), static_cast<float>(A[2]));
}
template <double (*F)(double)> double callDouble1(const double *A) { return F(A[0]); }
template <double (*F)(double, double)> double callDouble2(const double *A) {
  return F(A[0], A[1]);
}
template <double (*F)(double, double, double)> double callDouble3(const double *A) {
  return F(A[0], A[1], A[2]);
}

std::vector<MathFunction> buildTable() {
  std::vector<MathFunction> Table;
#define SCHED_FLOAT_ENTRY(N, Arity)                                                                \
  Table.push_back({#N "f", #N, DType::Float32, Arity, #N "f", &callFloat##Arity<&::N##f>});
#define SCHED_DOUBLE_ENTRY(N, Arity)                                                               \
  Table.push_back({#N, #N, DType::Float64, Arity, #N, &callDouble##Arity<&::N>});
  SCHED_MATH_FAMILIES(SCHED_FLOAT_ENTRY)
  SCHED_MATH_FAMILIES(SCHED_DOUBLE_ENTRY)
#undef SCHED_FLOAT_ENTRY
#undef SCHED_DOUBLE_ENTRY
  return Table;
}

} // namespace

const std::vector<MathFunction> &mathFunctions() {
  static const std::vector<MathFunction> Table = buildTable();
  return Table;
}

const MathFunction *lookupMathFunction(const std::string &Name) {
  static const std::map<std::string, const MathFunction *> ByName = [] {
    std::map<std::string, const MathFunction *> M;
    for (const MathFunction &F : mathFunctions())
      M[F.Name] = &F;
    return M;
  }();
  auto It = ByName.find(Name);
  return It == ByName.end() ? nullptr : It->second;
}

const MathFunction *lookupMathFamily(const std::string &Family, DType T) {
  if (T != DType::Float32 && T != DType::Float64)
    return nullptr;
  const MathFunction *F = lookupMathFunction(T == DType::Float32 ? Family + "f" : Family);
  return F && F->Family == Family ? F : nullptr;
}

} // namespace ir
} // namespace sched
