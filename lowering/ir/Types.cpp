//===- Types.cpp - Scalar types and operators, and their C rules ---------===//
//
// The dtype and operator tables, C's usual arithmetic conversions and integer
// semantics, binary16 conversions and scalar reads and writes (Types.h).
//
//===----------------------------------------------------------------------===//

#include "ir/Types.h"

#include <cmath>
#include <cstring>

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

bool isComparison(BinOp Op) {
  switch (Op) {
  case BinOp::EQ: case BinOp::NE: case BinOp::LT:
  case BinOp::LE: case BinOp::GT: case BinOp::GE:
    return true;
  default:
    return false;
  }
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

//===----------------------------------------------------------------------===//
// IEEE binary16
//===----------------------------------------------------------------------===//

namespace {
/// Rounds Value right by Shift bits, to nearest, ties to even.
uint32_t shiftRoundEven(uint32_t Value, unsigned Shift) {
  uint32_t Kept = Value >> Shift;
  uint32_t Rest = Value & ((1u << Shift) - 1);
  uint32_t Half = 1u << (Shift - 1);
  if (Rest > Half || (Rest == Half && (Kept & 1)))
    ++Kept;
  return Kept;
}
} // namespace

uint16_t floatToHalf(float F) {
  uint32_t X;
  std::memcpy(&X, &F, 4);
  uint16_t Sign = static_cast<uint16_t>((X >> 16) & 0x8000);
  uint32_t Abs = X & 0x7fffffffu;
  if (Abs >= 0x7f800000u) // infinity or NaN (keep NaN quiet and non-zero)
    return Sign | 0x7c00 | (Abs > 0x7f800000u ? 0x200 | ((Abs >> 13) & 0x3ff) : 0);
  if (Abs >= 0x477ff000u) // >= 65520: rounds to infinity
    return Sign | 0x7c00;
  if (Abs >= 0x38800000u) // normal half: rebias the exponent, round 13 bits
    return Sign | static_cast<uint16_t>(shiftRoundEven(Abs - 0x38000000u, 13));
  // Subnormal half: value = h * 2^-24, float value = Mant * 2^(Exp - 150).
  uint32_t Exp = Abs >> 23;
  unsigned Shift = 126 - Exp;
  if (Shift > 24)
    return Sign; // below half the smallest subnormal: rounds to zero
  uint32_t Mant = (Abs & 0x7fffffu) | 0x800000u;
  return Sign | static_cast<uint16_t>(shiftRoundEven(Mant, Shift));
}

float halfToFloat(uint16_t H) {
  uint32_t Sign = static_cast<uint32_t>(H & 0x8000) << 16;
  uint32_t Exp = (H >> 10) & 0x1f;
  uint32_t Mant = H & 0x3ff;
  uint32_t Bits;
  if (Exp == 0x1f) {
    Bits = Sign | 0x7f800000u | (Mant << 13);
  } else if (Exp != 0) {
    Bits = Sign | ((Exp + 112) << 23) | (Mant << 13);
  } else {
    float Value = std::ldexp(static_cast<float>(Mant), -24);
    return Sign ? -Value : Value;
  }
  float F;
  std::memcpy(&F, &Bits, 4);
  return F;
}

double roundToHalf(double D) {
  // Round to float with round-to-odd (truncate, then set the sticky bit when
  // inexact): float keeps more than 11 + 2 bits, so rounding that to half
  // gives the correctly rounded result.
  float F = static_cast<float>(D);
  if (std::isfinite(D) && static_cast<double>(F) != D) {
    if (std::fabs(static_cast<double>(F)) > std::fabs(D))
      F = std::nextafter(F, 0.0f);
    uint32_t Bits;
    std::memcpy(&Bits, &F, 4);
    Bits |= 1;
    std::memcpy(&F, &Bits, 4);
  }
  return halfToFloat(floatToHalf(F));
}


//===----------------------------------------------------------------------===//
// Scalars in memory
//===----------------------------------------------------------------------===//

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
    return halfToFloat(H);
  }
  case DType::Float32: return *static_cast<const float *>(P);
  case DType::Float64: return *static_cast<const double *>(P);
  case DType::UInt64: return static_cast<double>(*static_cast<const uint64_t *>(P));
  default: return static_cast<double>(readIntScalar(P, T));
  }
}

//===----------------------------------------------------------------------===//
// Launch-time integer expressions
//===----------------------------------------------------------------------===//

bool evalScalarBinary(BinOp Op, DType T, int64_t X, int64_t Y, int64_t &Out,
                      std::string &Error) {
  if ((Op == BinOp::Div || Op == BinOp::Mod) && Y == 0) {
    Error = "division by zero in a launch extent";
    return false;
  }
  // Integers compute as C does (unsigned wrap, unsigned comparisons); what
  // C leaves undefined falls through to plain int64 arithmetic.
  if (isInt(T) && Op != BinOp::And && Op != BinOp::Or &&
      evalIntBinary(Op, T, wrapToType(X, T), wrapToType(Y, T), Out))
    return true;
  switch (Op) {
  case BinOp::Add: Out = static_cast<int64_t>(uint64_t(X) + uint64_t(Y)); return true;
  case BinOp::Sub: Out = static_cast<int64_t>(uint64_t(X) - uint64_t(Y)); return true;
  case BinOp::Mul: Out = static_cast<int64_t>(uint64_t(X) * uint64_t(Y)); return true;
  case BinOp::Div:
  case BinOp::Mod:
    if (X == INT64_MIN && Y == -1)
      Out = Op == BinOp::Div ? X : 0;
    else
      Out = Op == BinOp::Div ? X / Y : X % Y;
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
  Error = "shift count out of range in a launch extent";
  return false;
}

int64_t evalScalarUnary(UnOp Op, DType T, int64_t A) {
  if (Op == UnOp::Not)
    return !A;
  if (isInt(T)) // two's complement -x and ~x, wrapped like C
    return wrapToType(Op == UnOp::Neg ? int64_t(0 - uint64_t(A)) : ~A, T);
  return static_cast<int64_t>(0 - uint64_t(A));
}

} // namespace ir
} // namespace sched
