//===- Rounding.h - Rounding a real value into a float or int type -*- C++ -*-===//
//
// Ascend casts (shared/reference §3.5) round with an explicit mode. Every
// conversion to a float format goes through one exact routine: find the two
// format values around |x| (truncation toward zero and the next magnitude up)
// and pick one by the mode, comparing in double where these sums are exact.
// This handles ties, overflow to infinity (the value past the largest finite
// one is 2^(emax+1)) and von Neumann rounding (CAST_ODD) uniformly, and never
// rounds twice.
//
//===----------------------------------------------------------------------===//
#ifndef ASC2_LIB_SIM_ROUNDING_H
#define ASC2_LIB_SIM_ROUNDING_H

#include "Float16.h"

#include "asc2/Sim/Program.h"

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>

namespace asc2::sim {

struct F32Format {
  using Bits = uint32_t;
  static constexpr Bits kSign = 0x80000000u, kInf = 0x7f800000u,
                        kQuietNaN = 0x7fc00000u;
  static constexpr double kPastMax = 0x1p128;
  static double value(Bits b) { return bitsFloat(b); }
  /// Largest float <= ax (ax >= 0, not NaN).
  static float truncFloat(double ax) {
    if (ax > double(FLT_MAX))
      return std::isinf(ax) ? INFINITY : FLT_MAX;
    float f = float(ax);
    if (double(f) > ax)
      f = std::nextafter(f, 0.0f);
    return f;
  }
  static Bits truncMag(double ax) { return floatBits(truncFloat(ax)); }
};

struct F16Format {
  using Bits = uint16_t;
  static constexpr Bits kSign = 0x8000u, kInf = 0x7c00u, kQuietNaN = 0x7e00u;
  static constexpr double kPastMax = 65536.0;
  static double value(Bits b) { return halfToFloat(b); }
  static Bits truncMag(double ax) {
    float t = F32Format::truncFloat(ax); // the half grid is a subset of float's
    Bits h = floatToHalf(t);
    if (halfToFloat(h) > t)
      --h;
    return h;
  }
};

struct BF16Format {
  using Bits = uint16_t;
  static constexpr Bits kSign = 0x8000u, kInf = 0x7f80u, kQuietNaN = 0x7fc0u;
  static constexpr double kPastMax = 0x1p128;
  static double value(Bits b) { return bf16ToFloat(b); }
  static Bits truncMag(double ax) {
    float t = F32Format::truncFloat(ax);
    Bits h = floatToBf16(t);
    if (bf16ToFloat(h) > t)
      --h;
    return h;
  }
};

/// x rounded into Fmt by `mode` (None = Rint). Odd = truncate, then set the
/// last bit when inexact, so it never overflows to infinity.
template <typename Fmt>
typename Fmt::Bits roundToFormat(double x, RoundMode mode) {
  using Bits = typename Fmt::Bits;
  if (std::isnan(x))
    return Fmt::kQuietNaN | (std::signbit(x) ? Fmt::kSign : 0);
  bool neg = std::signbit(x);
  double ax = std::fabs(x);
  Bits lo = Fmt::truncMag(ax);
  double vlo = Fmt::value(lo);
  Bits r = lo;
  if (vlo != ax) {
    Bits hi = Bits(lo + 1);
    double vhi = hi == Fmt::kInf ? Fmt::kPastMax : Fmt::value(hi);
    double twice = 2 * ax, mid2 = vlo + vhi; // both exact
    switch (mode) {
    case RoundMode::Trunc:
      break;
    case RoundMode::Floor:
      r = neg ? hi : lo;
      break;
    case RoundMode::Ceil:
      r = neg ? lo : hi;
      break;
    case RoundMode::Odd:
      r = Bits(lo | 1u);
      break;
    case RoundMode::Round:
      r = twice < mid2 ? lo : hi;
      break;
    case RoundMode::None:
    case RoundMode::Rint:
      r = twice < mid2 ? lo : twice > mid2 ? hi : ((lo & 1u) ? hi : lo);
      break;
    }
  }
  return Bits(r | (neg ? Fmt::kSign : 0));
}

/// x rounded to an integer by `mode` (None = Rint), saturated to [lo, hi];
/// NaN converts to 0. Ascend's float->int conversions saturate.
inline int64_t roundToInt(double x, RoundMode mode, int64_t lo, int64_t hi) {
  if (std::isnan(x))
    return 0;
  double r;
  switch (mode) {
  case RoundMode::Floor:
    r = std::floor(x);
    break;
  case RoundMode::Ceil:
    r = std::ceil(x);
    break;
  case RoundMode::Round:
    r = std::round(x);
    break;
  case RoundMode::Trunc:
  case RoundMode::Odd: // rejected for integer targets before execution
    r = std::trunc(x);
    break;
  default:
    r = std::nearbyint(x); // the default FP environment: ties to even
    break;
  }
  if (r <= double(lo))
    return lo;
  if (r >= double(hi)) // double(INT64_MAX) == 2^63: saturates correctly
    return hi;
  return int64_t(r);
}

/// Truncating, saturating double -> int64 (scalar FPToSI, immediates).
inline int64_t truncToInt64(double x) {
  return roundToInt(x, RoundMode::Trunc, std::numeric_limits<int64_t>::min(),
                    std::numeric_limits<int64_t>::max());
}

} // namespace asc2::sim

#endif
