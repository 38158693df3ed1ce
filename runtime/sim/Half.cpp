//===- Half.cpp - IEEE binary16 conversions for the simulator -------------===//
//
// The simulator keeps float16 values as doubles holding exactly representable
// half values; these routines round to half (round-to-nearest-even, with
// subnormals, infinities and NaN) and widen back, so that what a kernel stores
// to a `half` buffer is bit-for-bit what a GPU stores.
//
//===----------------------------------------------------------------------===//

#include "Simulator.h"

#include <cmath>
#include <cstring>

namespace sched {
namespace sim {

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

} // namespace sim
} // namespace sched
