//===- NdDma.h - field widths of the N-dimensional DMA ----------*- C++ -*-===//
//
// Ascend C DataCopy(LocalTensor, GlobalTensor, NdDmaParams<T, dim>) on
// __NPU_ARCH__ 3510 (Ascend950): up to five loops, each with a size, a
// source and a destination stride in elements and a right padding. The
// limits are the API's (NdDmaLoopInfo, mirror-cann/asc-devkit@82b89a15f:
// include/basic_api/kernel_struct_data_copy.h and docs/zh/api/SIMD-API/
// 基础API/Memory矢量计算/数据搬运/DataCopy（GMToUB多维数据搬运NDDMA）.md);
// which targets have the DMA is the arch model's `nd_dma_dims`.
//
//===----------------------------------------------------------------------===//
#ifndef ASC2_ARCH_NDDMA_H
#define ASC2_ARCH_NDDMA_H

#include <cstdint>

namespace asc2::nd_dma {

/// Loops of one copy: dim in [1, 5].
inline constexpr int64_t kMaxLoops = 5;
/// loopSize in [1, 2^20).
inline constexpr int64_t kSizeLimit = int64_t(1) << 20;
/// loopDstStride < 2^20 (elements).
inline constexpr int64_t kDstStrideLimit = int64_t(1) << 20;
/// loopSrcStride < 2^40 (elements).
inline constexpr int64_t kSrcStrideLimit = int64_t(1) << 40;
/// loopRpSize is a uint8_t.
inline constexpr int64_t kMaxPad = 255;

} // namespace asc2::nd_dma

#endif
