//===- Types.h - Scalar types and operators, and their C rules --*- C++ -*-===//
//
// The vocabulary below the IR: the dtypes, the operators, C's usual
// arithmetic conversions and integer semantics, IEEE binary16 conversions,
// and reading and writing a scalar of a dtype in memory. It depends on
// nothing else in sched, so the parts of the runtime that never read IR
// (the launcher evaluating a launch plan, ir/LaunchPlan.h) use it without
// the IR library, and the IR, the simplifier and the simulator compute
// through the same functions.
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_IR_TYPES_H
#define SCHED_IR_TYPES_H

#include <cstdint>
#include <string>

namespace sched {
namespace ir {

enum class BinOp : uint8_t {
  Add, Sub, Mul, Div, Mod, // Div and Mod truncate toward zero, as in C
  Min, Max,
  EQ, NE, LT, LE, GT, GE,
  And, Or,                 // logical && and || (Bool operands and result)
  BitAnd, BitOr, BitXor,   // & | ^ on integers
  Shl, Shr                 // << >>: the type of the (promoted) left operand
};
const char *binOpSymbol(BinOp Op); // "+", "-", "*", "/", "%", "min", "max", "==", "&", "<<", ...
bool isComparison(BinOp Op);
bool isBitwise(BinOp Op);          // & | ^ << >>

enum class UnOp : uint8_t { Neg, Not, BitNot }; // -x, !x, ~x

enum class DType : uint8_t {
  Bool, Int8, UInt8, Int16, Int32, Int64, Float16, Float32, Float64,
  UInt16, UInt32, UInt64
};

const char *dtypeName(DType T);          // "float32", "int8", ...
bool parseDType(const std::string &S, DType &Out);
bool isFloat(DType T);
bool isInt(DType T);                     // signed or unsigned integer (not Bool)
bool isUnsigned(DType T);                // uint8/16/32/64 (not Bool)
int dtypeBytes(DType T);
/// Integer conversion rank, as in C: bool < char < short < int < long long.
int integerRank(DType T);
/// The type an integer operand of type T is promoted to (bool, char and
/// short, signed or not, become int32; every other type stays).
DType promotedType(DType T);
/// The type C computes an operation on A and B in (the usual arithmetic
/// conversions: floats win; integers promote, then the same signedness takes
/// the wider type, an unsigned type at least as wide as the signed one wins,
/// else the signed type when it is wider: int64 + uint32 is int64).
DType arithmeticType(DType A, DType B);
/// V converted to integer type T with C's (two's complement) wrap-around.
/// Values are held in an int64_t: uint64 keeps its bit pattern (values at
/// or above 2^63 read negative), every other type its value.
int64_t wrapToType(int64_t V, DType T);
/// Op applied to integer values A and B of type T (both already wrapped to
/// T), computed as C does: unsigned arithmetic wraps modulo 2^bits, << wraps
/// to T (C++20), >> of a signed value is arithmetic, comparisons and min/max
/// of unsigned values are unsigned. False where C leaves the result undefined
/// (division by zero, INT_MIN / -1, signed overflow, a shift count outside
/// [0, bits)) and for And/Or.
/// Comparisons give 0 or 1. The one integer evaluator of the project: the
/// simplifier's constant folding, the simulator and the launcher's scalar
/// evaluation all compute through it.
bool evalIntBinary(BinOp Op, DType T, int64_t A, int64_t B, int64_t &Out);
const char *cudaTypeName(DType T);       // "float", "half", "signed char", ...

/// IEEE binary16 conversions with round-to-nearest-even (what `half` stores).
uint16_t floatToHalf(float F);
float halfToFloat(uint16_t H);
/// Rounds D to the nearest binary16 value (returned as a double), rounding
/// once (no double rounding through float).
double roundToHalf(double D);

/// Reads a scalar of type T at P as int64 / double.
int64_t readIntScalar(const void *P, DType T);
double readFloatScalar(const void *P, DType T);
/// Stores V, wrapped to integer type T, at P (a variable of type T).
void writeIntScalar(void *P, DType T, int64_t V);

/// Launch-time integer evaluation (grid and block extents, regions, run-time
/// assumptions: ir/LaunchPlan.h, and the simulator's scalar expressions):
/// X Op Y for operands of type T computed through evalIntBinary; where C
/// leaves an integer result undefined, and for a Bool or float T, plain
/// (wrapping) int64 arithmetic. False with Error for a division by zero or a
/// shift count out of range.
bool evalScalarBinary(BinOp Op, DType T, int64_t X, int64_t Y, int64_t &Out, std::string &Error);
/// -x, !x or ~x of A, the result wrapped to T where T is an integer type.
int64_t evalScalarUnary(UnOp Op, DType T, int64_t A);

} // namespace ir
} // namespace sched

#endif // SCHED_IR_TYPES_H
