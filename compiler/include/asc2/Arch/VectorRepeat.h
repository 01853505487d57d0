//===- VectorRepeat.h - Geometry of level-0 vector calls --------*- C++ -*-===//
//
// A level-0 Ascend C vector call ("tensor high-dimension slicing") works in
// repeats of 256 bytes, each of eight 32-byte data blocks: lane l of a repeat
// is element l % B of block l / B (B = 32 / element bytes); block k of repeat
// i of an operand starts (i * repStride + k * blkStride) * 32 bytes after
// the operand's start. A count mask selects the first `mask` lanes. The
// op verifiers, the reduction lowering and the simulator share these rules.
// mirror-cann/asc-devkit@82b89a15f:docs/zh/api/SIMD-API/基础API/Memory矢量计算/SIMD计算说明/高维切分.md
//
//===----------------------------------------------------------------------===//
#ifndef ASC2_ARCH_VECTORREPEAT_H
#define ASC2_ARCH_VECTORREPEAT_H

#include <cstdint>

namespace asc2 {

constexpr int64_t kRepeatBytes = 256;
constexpr int64_t kBlockBytes = 32;
/// repeatTime is a uint8_t; BinaryRepeatParams' strides are uint8_t;
/// WholeReduce's strides are at most 2^16 - 1.
constexpr int64_t kMaxRepeat = 255;
constexpr int64_t kMaxBinaryStride = 255;
constexpr int64_t kMaxReduceStride = 65535;

/// Lanes of one repeat (64 for 32-bit, 128 for 16-bit elements).
constexpr int64_t repeatLanes(int64_t elemBytes) {
  return kRepeatBytes / elemBytes;
}
/// Elements of one 32-byte block.
constexpr int64_t blockElems(int64_t elemBytes) {
  return kBlockBytes / elemBytes;
}

/// Byte offset of lane `lane` of repeat `i` from the operand's start.
constexpr int64_t repeatLaneOffset(int64_t elemBytes, int64_t i, int64_t lane,
                                   int64_t blkStride, int64_t repStride) {
  const int64_t b = blockElems(elemBytes);
  return (i * repStride + (lane / b) * blkStride) * kBlockBytes +
         (lane % b) * elemBytes;
}

/// Bytes from the operand's start to the end of the last element that
/// `repeat` repeats of a `mask`-lane count mask touch (0 if none).
constexpr int64_t repeatSpanBytes(int64_t elemBytes, int64_t mask,
                                  int64_t repeat, int64_t blkStride,
                                  int64_t repStride) {
  if (mask <= 0 || repeat <= 0)
    return 0;
  return repeatLaneOffset(elemBytes, repeat - 1, mask - 1, blkStride,
                          repStride) +
         elemBytes;
}

} // namespace asc2

#endif
