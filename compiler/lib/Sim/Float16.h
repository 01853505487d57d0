//===- Float16.h - IEEE binary16 and bfloat16 conversions ---------*- C++ -*-===//
//
// Storage conversions for the simulator's half-precision types. Narrowing
// rounds to nearest, ties to even (Ascend CAST_RINT), which is what the vector
// unit does for fp16/bf16 results; NaN stays NaN (quiet).
//
//===----------------------------------------------------------------------===//
#ifndef ASC2_LIB_SIM_FLOAT16_H
#define ASC2_LIB_SIM_FLOAT16_H

#include <cstdint>
#include <cstring>

namespace asc2::sim {

inline uint32_t floatBits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
inline float bitsFloat(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

inline float halfToFloat(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1fu;
  uint32_t mant = h & 0x3ffu;
  if (exp == 0x1f)
    return bitsFloat(sign | 0x7f800000u | (mant << 13));
  if (exp == 0) {
    // Zero or subnormal: mant * 2^-24 is exact in float.
    float mag = float(mant) * 0x1p-24f;
    return sign ? -mag : mag;
  }
  return bitsFloat(sign | ((exp + 112) << 23) | (mant << 13));
}

inline uint16_t floatToHalf(float f) {
  uint32_t x = floatBits(f);
  uint16_t sign = uint16_t((x >> 16) & 0x8000u);
  uint32_t ax = x & 0x7fffffffu;
  if (ax >= 0x7f800000u) // Inf or NaN (keep NaN quiet and non-zero).
    return sign | 0x7c00u | (ax > 0x7f800000u ? 0x200u | ((ax >> 13) & 0x3ffu) : 0u);
  if (ax >= 0x477ff000u) // >= 65520 rounds to infinity.
    return sign | 0x7c00u;
  if (ax < 0x38800000u) {
    // Below the smallest normal half (2^-14): adding 0.5 leaves the value in
    // float's [0.5, 1) binade whose ulp is 2^-24 = one half subnormal step, so
    // the FPU's own round-to-nearest-even does the rounding.
    float r = bitsFloat(ax) + 0.5f;
    return sign | uint16_t(floatBits(r) - 0x3f000000u);
  }
  // Normal: rebias the exponent (127 -> 15) and round the 13 dropped bits to
  // nearest even; a mantissa carry correctly bumps the exponent.
  uint32_t odd = (ax >> 13) & 1u;
  ax += 0xc8000fffu + odd;
  return sign | uint16_t(ax >> 13);
}

inline float bf16ToFloat(uint16_t h) { return bitsFloat(uint32_t(h) << 16); }

inline uint16_t floatToBf16(float f) {
  uint32_t x = floatBits(f);
  if ((x & 0x7fffffffu) > 0x7f800000u)
    return uint16_t((x >> 16) | 0x40u);
  x += 0x7fffu + ((x >> 16) & 1u);
  return uint16_t(x >> 16);
}

} // namespace asc2::sim

#endif
