//===- kernel_macros.h - Kernel qualifiers, GM_ADDR, kernel type -*- C++ -*-===//
//
// On the host the address-space and function qualifiers are empty. The kernel
// type (KERNEL_TASK_TYPE_DEFAULT, API: docs/zh/api/SIMD-API/基础API/Kernel-Tiling/
// 设置Kernel类型.md) decides which of a block's core threads run the kernel:
// the launcher starts an AIC and two AIVs per block; a core the type does not
// use returns from the kernel at this statement.
//
//===----------------------------------------------------------------------===//
#ifndef ASC2_TWIN_KERNEL_MACROS_H
#define ASC2_TWIN_KERNEL_MACROS_H

#include "asc2_twin/core.h"

#ifndef __global__
#define __global__
#endif
#ifndef __aicore__
#define __aicore__
#endif
#ifndef __gm__
#define __gm__
#endif
#ifndef __ubuf__
#define __ubuf__
#endif
#ifndef __cube__
#define __cube__
#endif
#ifndef __vector__
#define __vector__
#endif
#ifndef __inline__
#define __inline__ inline
#endif

using GM_ADDR = __gm__ uint8_t *;

enum KernelMetaType : uint8_t {
  KERNEL_TYPE_AIV_ONLY,
  KERNEL_TYPE_AIC_ONLY,
  KERNEL_TYPE_MIX_AIV_1_0,
  KERNEL_TYPE_MIX_AIC_1_0,
  KERNEL_TYPE_MIX_AIC_1_1,
  KERNEL_TYPE_MIX_AIC_1_2,
  KERNEL_TYPE_AICORE,
  KERNEL_TYPE_VECTORCORE,
  KERNEL_TYPE_MIX_AICORE,
  KERNEL_TYPE_MIX_VECTOR_CORE,
  KERNEL_TYPE_MAX,
};

namespace asc2_twin {

/// Records the kernel type on this core; false when the core is not used.
inline bool EnterKernelType(KernelMetaType type) {
  Core &c = CurrentCore();
  c.kernelTypeSeen = true;
  bool aic = c.kind == CoreKind::AIC;
  switch (type) {
  case KERNEL_TYPE_AIV_ONLY:
  case KERNEL_TYPE_MIX_AIV_1_0:
  case KERNEL_TYPE_VECTORCORE:
    // Vector-only: each block is one AIV (GetBlockIdx = the block).
    c.aivPerBlock = 1;
    return !aic && c.subBlock == 0;
  case KERNEL_TYPE_AIC_ONLY:
  case KERNEL_TYPE_MIX_AIC_1_0:
  case KERNEL_TYPE_AICORE:
    c.aivPerBlock = 0;
    return aic;
  case KERNEL_TYPE_MIX_AIC_1_1:
    c.aivPerBlock = 1;
    return aic || c.subBlock == 0;
  case KERNEL_TYPE_MIX_AIC_1_2:
  case KERNEL_TYPE_MIX_AICORE:
  case KERNEL_TYPE_MIX_VECTOR_CORE:
  default:
    c.aivPerBlock = 2;
    return true;
  }
}

inline bool IsAic() { return CurrentCore().kind == CoreKind::AIC; }

} // namespace asc2_twin

#define KERNEL_TASK_TYPE_DEFAULT(type)                                         \
  do {                                                                         \
    if (!::asc2_twin::EnterKernelType(type))                                   \
      return;                                                                  \
  } while (0)
#define KERNEL_TASK_TYPE(key, type) KERNEL_TASK_TYPE_DEFAULT(type)

#define ASCEND_IS_AIC (::asc2_twin::IsAic())
#define ASCEND_IS_AIV (!::asc2_twin::IsAic())
#define ASCEND_IS_NOT_AIC (!::asc2_twin::IsAic())
#define ASCEND_IS_NOT_AIV (::asc2_twin::IsAic())

#endif // ASC2_TWIN_KERNEL_MACROS_H
