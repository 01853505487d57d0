//===- ShapeKernels.h - What the shape calls do -----------------*- C++ -*-===//
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

/// GatherMask: whether element j of repeat i is kept, by built-in pattern
/// `builtin` (1: even j, 2: odd j, 3..6: j % 4 == builtin - 3, 7: every j)
/// or, when builtin is 0, bit j of the little-endian pattern bits starting
/// i * src1Rep blocks into `pattern`.
/// (mirror-cann/asc-devkit@82b89a15f:docs/zh/api/SIMD-API/基础API/
/// Memory矢量计算/比较与选择/GatherMask.md)
bool gatherMaskKeeps(int64_t builtin, const uint8_t *pattern, int64_t src1Rep,
                     int64_t i, int64_t j);

/// The elements `repeats` repeats of `elems` each keep (what the API
/// returns in rsvdCnt).
int64_t gatherMaskKept(int64_t builtin, const uint8_t *pattern, int64_t src1Rep,
                       int64_t repeats, int64_t elems);

/// GatherMask: element j < elems of repeat i (read as copyKernel's source:
/// block j / (32 / width) at src block i*srcRep + b*srcBlk) goes to the next
/// element of dst when the pattern keeps it.
void gatherMaskKernel(int64_t width, uint8_t *dst, const uint8_t *src,
                      int64_t builtin, const uint8_t *pattern, int64_t src1Rep,
                      int64_t elems, int64_t repeats, int64_t srcBlk,
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
