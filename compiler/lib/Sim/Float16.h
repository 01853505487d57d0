//===- Float16.h - IEEE binary16 and bfloat16 conversions ---------*- C++ -*-===//
//
// Storage conversions for the simulator's half-precision types. Narrowing
// rounds to nearest, ties to even (Ascend CAST_RINT), which is what the vector
// unit does for fp16/bf16 results; NaN stays NaN (quiet). The implementation
// is the CPU twin's (compiler/twin/include/asc2_twin/float16_bits.h, plain
// C++), so the simulator and the twin round 16-bit floats identically.
//
//===----------------------------------------------------------------------===//
#ifndef ASC2_LIB_SIM_FLOAT16_H
#define ASC2_LIB_SIM_FLOAT16_H

#include "../../twin/include/asc2_twin/float16_bits.h"

#include <cstdint>

namespace asc2::sim {

inline uint32_t floatBits(float f) { return asc2_twin::FloatBits(f); }
inline float bitsFloat(uint32_t u) { return asc2_twin::BitsFloat(u); }
inline float halfToFloat(uint16_t h) { return asc2_twin::HalfBitsToFloat(h); }
inline uint16_t floatToHalf(float f) { return asc2_twin::FloatToHalfBits(f); }
inline float bf16ToFloat(uint16_t h) { return asc2_twin::Bf16BitsToFloat(h); }
inline uint16_t floatToBf16(float f) { return asc2_twin::FloatToBf16Bits(f); }

} // namespace asc2::sim

#endif
