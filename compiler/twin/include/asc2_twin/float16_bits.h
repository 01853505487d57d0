//===- float16_bits.h - IEEE binary16 and bfloat16 bit conversions -*- C++ -*-===//
//
// Narrowing rounds to nearest, ties to even (Ascend CAST_RINT), what the
// vector unit does for fp16/bf16 results; NaN stays a quiet NaN. The one
// implementation for the twin (half.h) and the simulator
// (compiler/lib/Sim/Float16.h), so both round 16-bit floats identically.
// Plain C++, no dependencies.
//
//===----------------------------------------------------------------------===//
#ifndef ASC2_TWIN_FLOAT16_BITS_H
#define ASC2_TWIN_FLOAT16_BITS_H

#include <cstdint>
#include <cstring>

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

} // namespace asc2_twin

#endif // ASC2_TWIN_FLOAT16_BITS_H
