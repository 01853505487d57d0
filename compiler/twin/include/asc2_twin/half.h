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

#include "asc2_twin/float16_bits.h"

#include <cstdint>
#include <type_traits>

namespace asc2_twin {

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
