//===- system.h - Core identity, Std::min/max, NumericLimits -*- C++ -*-===//
//
// API: mirror-cann/asc-devkit@82b89a15f docs/zh/api/SIMD-API/基础API/工具接口
// (系统资源与变量: GetBlockIdx, GetBlockNum, GetSubBlockIdx, GetSubBlockNum;
// NumericLimits工具类).
//
// GetBlockIdx on an AIV of a mixed kernel is block * (AIVs per block) +
// sub-block, as the reference's implementation computes it; GetBlockNum is
// the launch's block count on every core (get_block_num(): the reference's
// SoftSyncAll counts a MIX launch's AIVs as GetTaskRation() * GetBlockNum(),
// cannmirror/asc-devkit@0a2e47c1 impl/basic_api/kernel_operator_common_impl.h),
// so a MIX_AIC_1_2 kernel's group index is GetBlockIdx() / GetSubBlockNum().
//
//===----------------------------------------------------------------------===//
#ifndef ASC2_TWIN_SYSTEM_H
#define ASC2_TWIN_SYSTEM_H

#include "asc2_twin/core.h"
#include "asc2_twin/half.h"
#include "asc2_twin/tensor.h"

#include <cmath>
#include <limits>
#include <type_traits>

namespace AscendC {

inline int64_t GetBlockIdx() {
  auto &c = asc2_twin::CurrentCore();
  if (c.kind == asc2_twin::CoreKind::AIV && c.aivPerBlock > 1)
    return int64_t(c.block) * c.aivPerBlock + c.subBlock;
  return c.block;
}
inline int64_t GetBlockNum() { return asc2_twin::CurrentCore().blockDim; }
inline int64_t GetSubBlockIdx() {
  auto &c = asc2_twin::CurrentCore();
  return c.kind == asc2_twin::CoreKind::AIV ? c.subBlock : 0;
}
inline int64_t GetSubBlockNum() {
  auto &c = asc2_twin::CurrentCore();
  return c.kind == asc2_twin::CoreKind::AIV ? (c.aivPerBlock ? c.aivPerBlock : 1) : 1;
}
inline int64_t GetTaskRation() { return GetSubBlockNum(); }

namespace Std {
template <typename T, typename U> constexpr std::common_type_t<T, U> min(T a, U b) {
  using C = std::common_type_t<T, U>;
  return C(a) < C(b) ? C(a) : C(b);
}
template <typename T, typename U> constexpr std::common_type_t<T, U> max(T a, U b) {
  using C = std::common_type_t<T, U>;
  return C(a) > C(b) ? C(a) : C(b);
}
} // namespace Std

template <typename T> struct NumericLimits {
  static T Max() {
    if constexpr (std::is_same_v<T, half>)
      return half::FromBits(0x7bffu);
    else if constexpr (std::is_same_v<T, bfloat16_t>)
      return bfloat16_t::FromBits(0x7f7fu);
    else
      return std::numeric_limits<T>::max();
  }
  static T Lowest() {
    if constexpr (asc2_twin::kIsFloat16<T>)
      return -Max();
    else
      return std::numeric_limits<T>::lowest();
  }
  static T Min() {
    if constexpr (std::is_same_v<T, half>)
      return half::FromBits(0x0400u);
    else if constexpr (std::is_same_v<T, bfloat16_t>)
      return bfloat16_t::FromBits(0x0080u);
    else
      return std::numeric_limits<T>::min();
  }
  static T Infinity() {
    if constexpr (std::is_same_v<T, half>)
      return half::FromBits(0x7c00u);
    else if constexpr (std::is_same_v<T, bfloat16_t>)
      return bfloat16_t::FromBits(0x7f80u);
    else
      return std::numeric_limits<T>::infinity();
  }
  static T NegativeInfinity() { return -Infinity(); }
  static T QuietNaN() {
    if constexpr (std::is_same_v<T, half>)
      return half::FromBits(0x7e00u);
    else if constexpr (std::is_same_v<T, bfloat16_t>)
      return bfloat16_t::FromBits(0x7fc0u);
    else
      return std::numeric_limits<T>::quiet_NaN();
  }
  static T DeNormMin() {
    if constexpr (asc2_twin::kIsFloat16<T>)
      return T::FromBits(0x0001u);
    else
      return std::numeric_limits<T>::denorm_min();
  }
};

} // namespace AscendC

#endif // ASC2_TWIN_SYSTEM_H
