//===- utils/std/cmath.h - the twin's AscendC::Std scalar math -----------===//
//
// Ascend C's scalar sqrt and abs for the AI core's scalar unit, at the path
// the devkit has them (asc/include/utils/std/cmath.h, on the official
// include path through asc/include). Same element types as the devkit's
// static_asserts: sqrt of float or int64_t, abs of int8/16/32/64 or float
// (mirror-cann/asc-devkit@82b89a15f: impl/utils/std/cmath/{sqrt,abs}.h).
//
//===----------------------------------------------------------------------===//
#ifndef ASC2_TWIN_UTILS_STD_CMATH_H
#define ASC2_TWIN_UTILS_STD_CMATH_H

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <type_traits>

namespace AscendC {
namespace Std {

template <typename T> inline T sqrt(const T src) {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, int64_t>,
                "AscendC::Std::sqrt takes float or int64_t");
  return T(std::sqrt(src));
}

template <typename T> inline T abs(const T src) {
  static_assert(std::is_same_v<T, int8_t> || std::is_same_v<T, int16_t> ||
                    std::is_same_v<T, int32_t> || std::is_same_v<T, float> ||
                    std::is_same_v<T, int64_t>,
                "AscendC::Std::abs takes int8_t, int16_t, int32_t, int64_t or float");
  return src < T(0) ? T(-src) : src == T(0) ? T(0) : src;
}

} // namespace Std
} // namespace AscendC

#endif // ASC2_TWIN_UTILS_STD_CMATH_H
