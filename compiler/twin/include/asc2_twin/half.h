//===- half.h - Software IEEE binary16 and bfloat16 for the CPU twin -*- C++ -*-===//
//
// Ascend C's `half` and `bfloat16_t` are storage types on the host: every
// operation widens to float, computes there and rounds back to nearest, ties
// to even (CAST_RINT), which is what the vector unit does for 16-bit results.
// For + - * / and sqrt, float's 24-bit significand makes that double rounding
// exact (24 >= 2 * 11 + 2), so results are the correctly rounded half values.
//
//===----------------------------------------------------------------------===//
#ifndef ASC2_TWIN_HALF_H
#define ASC2_TWIN_HALF_H

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace asc2_twin {

inline uint32_t FloatBits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
inline float BitsFloat(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

inline float HalfBitsToFloat(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1fu;
  uint32_t mant = h & 0x3ffu;
  if (exp == 0x1f)
    return BitsFloat(sign | 0x7f800000u | (mant << 13));
  if (exp == 0) {
    float mag = float(mant) * 0x1p-24f; // exact: subnormal halves fit float
    return sign ? -mag : mag;
  }
  return BitsFloat(sign | ((exp + 112) << 23) | (mant << 13));
}

/// Round to nearest even; overflow to infinity; NaN stays a quiet NaN.
inline uint16_t FloatToHalfBits(float f) {
  uint32_t x = FloatBits(f);
  uint16_t sign = uint16_t((x >> 16) & 0x8000u);
  uint32_t ax = x & 0x7fffffffu;
  if (ax >= 0x7f800000u)
    return sign | 0x7c00u | (ax > 0x7f800000u ? 0x200u | ((ax >> 13) & 0x3ffu) : 0u);
  if (ax >= 0x477ff000u) // >= 65520 rounds to infinity
    return sign | 0x7c00u;
  if (ax < 0x38800000u) {
    // Subnormal result: adding 0.5 moves the value into [0.5, 1), whose ulp is
    // 2^-24 (one half subnormal step); the FPU rounds to nearest even for us.
    float r = BitsFloat(ax) + 0.5f;
    return sign | uint16_t(FloatBits(r) - 0x3f000000u);
  }
  uint32_t odd = (ax >> 13) & 1u;
  ax += 0xc8000fffu + odd; // rebias 127 -> 15 and round the 13 dropped bits
  return sign | uint16_t(ax >> 13);
}

inline float Bf16BitsToFloat(uint16_t h) { return BitsFloat(uint32_t(h) << 16); }

inline uint16_t FloatToBf16Bits(float f) {
  uint32_t x = FloatBits(f);
  if ((x & 0x7fffffffu) > 0x7f800000u)
    return uint16_t((x >> 16) | 0x40u);
  x += 0x7fffu + ((x >> 16) & 1u);
  return uint16_t(x >> 16);
}

/// A 16-bit float stored as bits; `Codec` converts to and from float.
template <float (*ToFloat)(uint16_t), uint16_t (*FromFloat)(float)>
struct Float16Storage {
  uint16_t bits = 0;

  Float16Storage() = default;
  template <typename A, typename = std::enable_if_t<std::is_arithmetic_v<A>>>
  Float16Storage(A v) : bits(FromFloat(static_cast<float>(v))) {}

  static Float16Storage FromBits(uint16_t b) {
    Float16Storage h;
    h.bits = b;
    return h;
  }
  operator float() const { return ToFloat(bits); }
  float ToFloatValue() const { return ToFloat(bits); }

  Float16Storage operator-() const { return FromBits(uint16_t(bits ^ 0x8000u)); }
#define ASC2_TWIN_HALF_ASSIGN(op)                                              \
  Float16Storage &operator op##=(Float16Storage o) {                           \
    *this = Float16Storage(float(*this) op float(o));                          \
    return *this;                                                              \
  }
  ASC2_TWIN_HALF_ASSIGN(+)
  ASC2_TWIN_HALF_ASSIGN(-)
  ASC2_TWIN_HALF_ASSIGN(*)
  ASC2_TWIN_HALF_ASSIGN(/)
#undef ASC2_TWIN_HALF_ASSIGN
};

#define ASC2_TWIN_HALF_BINARY(op)                                              \
  template <float (*F)(uint16_t), uint16_t (*G)(float)>                        \
  Float16Storage<F, G> operator op(Float16Storage<F, G> a,                     \
                                   Float16Storage<F, G> b) {                   \
    return Float16Storage<F, G>(float(a) op float(b));                         \
  }
ASC2_TWIN_HALF_BINARY(+)
ASC2_TWIN_HALF_BINARY(-)
ASC2_TWIN_HALF_BINARY(*)
ASC2_TWIN_HALF_BINARY(/)
#undef ASC2_TWIN_HALF_BINARY

#define ASC2_TWIN_HALF_COMPARE(op)                                             \
  template <float (*F)(uint16_t), uint16_t (*G)(float)>                        \
  bool operator op(Float16Storage<F, G> a, Float16Storage<F, G> b) {           \
    return float(a) op float(b);                                               \
  }
ASC2_TWIN_HALF_COMPARE(<)
ASC2_TWIN_HALF_COMPARE(>)
ASC2_TWIN_HALF_COMPARE(<=)
ASC2_TWIN_HALF_COMPARE(>=)
ASC2_TWIN_HALF_COMPARE(==)
ASC2_TWIN_HALF_COMPARE(!=)
#undef ASC2_TWIN_HALF_COMPARE

using Half = Float16Storage<HalfBitsToFloat, FloatToHalfBits>;
using BFloat16 = Float16Storage<Bf16BitsToFloat, FloatToBf16Bits>;

/// Floating types whose arithmetic goes through float.
template <typename T>
inline constexpr bool kIsFloat16 =
    std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>;
template <typename T>
inline constexpr bool kIsFloatLike = std::is_floating_point_v<T> || kIsFloat16<T>;

/// The type arithmetic on T is done in: float for 16-bit floats, T otherwise.
template <typename T>
using ComputeType = std::conditional_t<kIsFloat16<T>, float, T>;

} // namespace asc2_twin

using half = asc2_twin::Half;
using bfloat16_t = asc2_twin::BFloat16;

#endif // ASC2_TWIN_HALF_H
