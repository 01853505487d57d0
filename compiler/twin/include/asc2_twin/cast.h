//===- cast.h - Cast with RoundMode -*- C++ -*-===//
//
// API: mirror-cann/asc-devkit@82b89a15f docs/zh/api/SIMD-API/基础API/
// Memory矢量计算/类型转换/Cast.md.
//
// The source value is widened to double (exact for every source type but
// 64-bit integers), then rounded once to the destination by the mode:
// CAST_NONE is CAST_RINT when the value is not representable; CAST_RINT
// is to nearest even, CAST_ROUND to nearest with ties away from zero,
// CAST_ODD to the neighbour with an odd last bit when inexact. Integer
// results saturate at the type's range and NaN becomes 0.
//
//===----------------------------------------------------------------------===//
#ifndef ASC2_TWIN_CAST_H
#define ASC2_TWIN_CAST_H

#include "asc2_twin/vector.h"

#include <cmath>
#include <limits>

namespace AscendC {
enum class RoundMode {
  CAST_NONE = 0,
  CAST_RINT,
  CAST_FLOOR,
  CAST_CEIL,
  CAST_ROUND,
  CAST_TRUNC,
  CAST_ODD,
  CAST_HYBRID,
};
} // namespace AscendC

namespace asc2_twin {

template <typename T> double Widen(T v) {
  if constexpr (kIsFloat16<T>)
    return double(float(v));
  else
    return double(v);
}

/// Rounds x to an integer value by the mode.
inline double RoundToIntegral(double x, AscendC::RoundMode mode) {
  using AscendC::RoundMode;
  switch (mode) {
  case RoundMode::CAST_FLOOR: return std::floor(x);
  case RoundMode::CAST_CEIL: return std::ceil(x);
  case RoundMode::CAST_TRUNC: return std::trunc(x);
  case RoundMode::CAST_ROUND: return std::round(x);
  default: return std::nearbyint(x); // the default FE_TONEAREST: ties to even
  }
}

/// Rounds x into a float-like type F (float, half, bf16) with `mode`, from
/// the nearest-even candidate and its neighbours.
template <typename F> F RoundToFloat(double x, AscendC::RoundMode mode) {
  using AscendC::RoundMode;
  auto toD = [](F v) { return Widen(v); };
  F n = F(float(x)); // nearest even via float (double -> float -> 16-bit is exact
                     // enough: only casts from float reach the 16-bit types)
  if constexpr (std::is_same_v<F, float>)
    n = float(x);
  if (std::isnan(x) || std::isinf(x) || toD(n) == x || mode == RoundMode::CAST_NONE ||
      mode == RoundMode::CAST_RINT)
    return n;
  auto next = [](F v, bool up) -> F {
    if constexpr (std::is_same_v<F, float>) {
      return std::nextafter(v, up ? INFINITY : -INFINITY);
    } else {
      uint16_t b = v.bits;
      bool neg = b & 0x8000u;
      if ((b & 0x7fffu) == 0) // +-0: the smallest subnormal of the wanted sign
        return F::FromBits(up ? 0x0001u : 0x8001u);
      return F::FromBits(uint16_t(neg == up ? b - 1 : b + 1));
    }
  };
  F lo = toD(n) < x ? n : next(n, false), hi = toD(n) > x ? n : next(n, true);
  switch (mode) {
  case RoundMode::CAST_FLOOR: return lo;
  case RoundMode::CAST_CEIL: return hi;
  case RoundMode::CAST_TRUNC: return x < 0 ? hi : lo;
  case RoundMode::CAST_ROUND: {
    double dl = x - toD(lo), dh = toD(hi) - x;
    if (dl != dh)
      return dl < dh ? lo : hi;
    return x < 0 ? lo : hi;
  }
  case RoundMode::CAST_ODD: {
    uint64_t bits = 0;
    if constexpr (std::is_same_v<F, float>)
      bits = FloatBits(lo);
    else
      bits = lo.bits;
    return (bits & 1u) ? lo : hi;
  }
  default: return n;
  }
}

template <typename D, typename S> D CastValue(S v, AscendC::RoundMode mode) {
  double x = Widen(v);
  if constexpr (kIsFloatLike<D>) {
    if constexpr (std::is_same_v<D, double>)
      return x;
    else
      return RoundToFloat<D>(x, mode);
  } else {
    if (std::isnan(x))
      return D(0);
    double r = RoundToIntegral(x, mode);
    if (r <= double(std::numeric_limits<D>::lowest()))
      return std::numeric_limits<D>::lowest();
    if (r >= double(std::numeric_limits<D>::max()))
      return std::numeric_limits<D>::max();
    return D(r);
  }
}

} // namespace asc2_twin

namespace AscendC {

template <typename T, typename U>
void Cast(const LocalTensor<T> &dst, const LocalTensor<U> &src, const RoundMode &roundMode,
          const uint32_t count) {
  RoundMode m = roundMode;
  asc2_twin::Unary2("Cast", dst, src, count, [m](U v) { return asc2_twin::CastValue<T>(v, m); });
}

namespace detail {
template <typename T, typename U> constexpr int64_t CastPerRepeat() {
  return 256 / int64_t(sizeof(T) > sizeof(U) ? sizeof(T) : sizeof(U));
}
} // namespace detail

template <typename T, typename U, bool isSetMask = true>
void Cast(const LocalTensor<T> &dst, const LocalTensor<U> &src, const RoundMode &roundMode,
          const uint64_t mask[], const uint8_t repeatTime, const UnaryRepeatParams &p) {
  RoundMode m = roundMode;
  constexpr int64_t per = detail::CastPerRepeat<T, U>();
  auto rm = isSetMask ? asc2_twin::BitMask("Cast", mask, per, repeatTime)
                      : asc2_twin::StoredMask("Cast", per, repeatTime);
  asc2_twin::Unary0("Cast", dst, src, rm, p, [m](U v) { return asc2_twin::CastValue<T>(v, m); });
}
template <typename T, typename U, bool isSetMask = true>
void Cast(const LocalTensor<T> &dst, const LocalTensor<U> &src, const RoundMode &roundMode,
          uint64_t mask, const uint8_t repeatTime, const UnaryRepeatParams &p) {
  RoundMode m = roundMode;
  constexpr int64_t per = detail::CastPerRepeat<T, U>();
  auto rm = isSetMask ? asc2_twin::ContinuousMask("Cast", mask, per, repeatTime)
                      : asc2_twin::StoredMask("Cast", per, repeatTime);
  asc2_twin::Unary0("Cast", dst, src, rm, p, [m](U v) { return asc2_twin::CastValue<T>(v, m); });
}

} // namespace AscendC

#endif // ASC2_TWIN_CAST_H
