//===- ShapeKernels.h - What Brcb, Copy, DataCopy and Transpose do -*- C++ -*-===//
//
// The functional half of the shape calls on raw local-memory pointers, with
// the semantics of the Ascend C API reference (strides in 32-byte blocks;
// mirror-cann/asc-devkit@82b89a15f:docs/zh/api/SIMD-API/基础API/Memory矢量计算/
// 数据填充/Brcb.md, 数据搬运/Copy（UBToUB掩码式高维数据搬运）.md,
// 数据排布转换/Transpose.md). The spans say which bytes each touches, for the
// executor's bounds and race checks.
//
//===----------------------------------------------------------------------===//
#ifndef ASC2_LIB_SIM_SHAPEKERNELS_H
#define ASC2_LIB_SIM_SHAPEKERNELS_H

#include <cstdint>

namespace asc2::sim {

constexpr int64_t kBlockBytes = 32;

/// Bytes [0, end) from an operand's address that `repeats` repeats of a
/// pattern touch: `elems` elements of `width` bytes as consecutive 32-byte
/// blocks, blocks `blkStride` and repeats `repStride` blocks apart (strides
/// >= 0, so the furthest byte is in the last repeat). 0 when nothing moves.
int64_t repeatSpanEnd(int64_t repeats, int64_t elems, int64_t width,
                      int64_t blkStride, int64_t repStride);

/// Brcb: for i < repeats, j < 8, the dst block at i*dstRep + j*dstBlk is
/// filled with src[8i + j].
void brcbKernel(int64_t width, uint8_t *dst, const uint8_t *src,
                int64_t repeats, int64_t dstBlk, int64_t dstRep);

/// Level-0 Copy in the continuous mask mode: for i < repeats, element e <
/// mask of block b = e / (32 / width) is read at src block i*srcRep +
/// b*srcBlk and written at dst block i*dstRep + b*dstBlk, same lane.
void copyKernel(int64_t width, uint8_t *dst, const uint8_t *src, int64_t mask,
                int64_t repeats, int64_t dstBlk, int64_t srcBlk, int64_t dstRep,
                int64_t srcRep);

/// DataCopy within UB: `count` runs of `len` blocks, the source runs
/// len + srcGap blocks apart, the destination ones len + dstGap.
void localDataCopyKernel(uint8_t *dst, const uint8_t *src, int64_t count,
                         int64_t len, int64_t srcGap, int64_t dstGap);

/// Transpose NCHW -> NHWC (h*w = cols): each of the n matrices of rows x
/// cols elements becomes cols x rows.
void transposeKernel(int64_t width, uint8_t *dst, const uint8_t *src,
                     int64_t n, int64_t rows, int64_t cols);

} // namespace asc2::sim

#endif
