//===- repeat.h - Level-0 vector addressing: mask, repeats, strides -*- C++ -*-===//
//
// API: mirror-cann/asc-devkit@82b89a15f docs/zh/api/SIMD-API/基础API/
// Memory矢量计算/SIMD计算说明 (掩码.md, 高维切分.md).
//
// A repeat processes 256 bytes as 8 data blocks of 32 bytes. Element e of a
// repeat lies in block e / (32 / sizeof(T)); operand k reads block b of repeat
// r at  r * repStride_k + b * blkStride_k  blocks from its start. The mask
// selects the elements of each repeat: a continuous mask n means elements
// [0, n); the bit mask is mask[0] for elements 0..63 and mask[1] for 64..127
// (low bit = low element). Unselected destination elements are left as they
// were. In counter mode (SetMaskCount) mask[0] is the total element count
// and repeatTime is ignored.
//
//===----------------------------------------------------------------------===//
#ifndef ASC2_TWIN_REPEAT_H
#define ASC2_TWIN_REPEAT_H

#include "asc2_twin/core.h"
#include "asc2_twin/tensor.h"

#include <algorithm>

namespace AscendC {

struct BinaryRepeatParams {
  BinaryRepeatParams() {}
  BinaryRepeatParams(uint8_t dstBlkStrideIn, uint8_t src0BlkStrideIn, uint8_t src1BlkStrideIn,
                     uint8_t dstRepStrideIn, uint8_t src0RepStrideIn, uint8_t src1RepStrideIn)
      : dstBlkStride(dstBlkStrideIn), src0BlkStride(src0BlkStrideIn), src1BlkStride(src1BlkStrideIn),
        dstRepStride(dstRepStrideIn), src0RepStride(src0RepStrideIn), src1RepStride(src1RepStrideIn) {}
  uint32_t blockNumber = 8;
  uint8_t dstBlkStride = 1;
  uint8_t src0BlkStride = 1;
  uint8_t src1BlkStride = 1;
  uint8_t dstRepStride = 8;
  uint8_t src0RepStride = 8;
  uint8_t src1RepStride = 8;
  bool repeatStrideMode = false;
  bool strideSizeMode = false;
};

struct UnaryRepeatParams {
  UnaryRepeatParams() {}
  UnaryRepeatParams(uint16_t dstBlkStrideIn, uint16_t srcBlkStrideIn, uint8_t dstRepStrideIn,
                    uint8_t srcRepStrideIn)
      : dstBlkStride(dstBlkStrideIn), srcBlkStride(srcBlkStrideIn), dstRepStride(dstRepStrideIn),
        srcRepStride(srcRepStrideIn) {}
  uint32_t blockNumber = 8;
  uint16_t dstBlkStride = 1;
  uint16_t srcBlkStride = 1;
  uint8_t dstRepStride = 8;
  uint8_t srcRepStride = 8;
  bool repeatStrideMode = false;
  bool strideSizeMode = false;
};

constexpr uint64_t MASK_PLACEHOLDER = 0;

inline void SetMaskCount() { asc2_twin::CurrentCore().vec.counterMode = true; }
inline void SetMaskNorm() { asc2_twin::CurrentCore().vec.counterMode = false; }
inline void ResetMask() {
  auto &v = asc2_twin::CurrentCore().vec;
  v.mask[0] = v.mask[1] = ~0ull;
}
/// SetVectorMask's mode (kernel_reg.h): the mask as bits (NORMAL) or, after
/// SetMaskCount, as an element count in maskLow (COUNTER).
enum class MaskMode : uint8_t { NORMAL = 0, COUNTER };

template <typename T, MaskMode mode = MaskMode::NORMAL>
inline void SetVectorMask(uint64_t maskHigh, uint64_t maskLow) {
  auto &v = asc2_twin::CurrentCore().vec;
  v.mask[0] = maskLow;
  v.mask[1] = maskHigh;
}
template <typename T, MaskMode mode = MaskMode::NORMAL> inline void SetVectorMask(int32_t len) {
  auto &v = asc2_twin::CurrentCore().vec;
  if (v.counterMode) {
    v.mask[0] = uint64_t(len);
    v.mask[1] = 0;
  } else {
    v.mask[0] = len >= 64 ? ~0ull : (1ull << len) - 1;
    v.mask[1] = len >= 128 ? ~0ull : len > 64 ? (1ull << (len - 64)) - 1 : 0;
  }
}

} // namespace AscendC

namespace asc2_twin {

/// The elements of every repeat an instruction touches.
struct RepeatMask {
  bool bit[128] = {};
  int64_t perRepeat = 0; // elements per repeat (256 / widest operand)
  int64_t repeats = 0;
  int64_t total = -1; // counter mode: elements in all, else -1

  bool On(int64_t r, int64_t e) const {
    if (total >= 0)
      return r * perRepeat + e < total;
    return bit[e];
  }
};

inline RepeatMask ContinuousMask(const char *api, uint64_t n, int64_t perRepeat, int64_t repeatTime) {
  RepeatMask m;
  m.perRepeat = perRepeat;
  Core &c = CurrentCore();
  if (c.vec.counterMode) {
    m.total = int64_t(n);
    m.repeats = (m.total + perRepeat - 1) / perRepeat;
    return m;
  }
  if (n > uint64_t(perRepeat))
    Fail(std::string(api) + ": mask " + std::to_string(n) + " exceeds the " +
         std::to_string(perRepeat) + " elements of one repeat");
  for (uint64_t e = 0; e < n; ++e)
    m.bit[e] = true;
  m.repeats = repeatTime;
  return m;
}

inline RepeatMask BitMask(const char *api, const uint64_t mask[2], int64_t perRepeat, int64_t repeatTime) {
  RepeatMask m;
  m.perRepeat = perRepeat;
  Core &c = CurrentCore();
  if (c.vec.counterMode) {
    m.total = int64_t(mask[0]);
    m.repeats = (m.total + perRepeat - 1) / perRepeat;
    return m;
  }
  for (int64_t e = 0; e < 128; ++e) {
    bool on = (mask[e / 64] >> (e % 64)) & 1u;
    if (on && e >= perRepeat)
      Fail(std::string(api) + ": mask bit " + std::to_string(e) + " is set but a repeat has only " +
           std::to_string(perRepeat) + " elements");
    m.bit[e] = on;
  }
  m.repeats = repeatTime;
  return m;
}

/// The mask set by SetVectorMask (isSetMask = false).
inline RepeatMask StoredMask(const char *api, int64_t perRepeat, int64_t repeatTime) {
  return BitMask(api, CurrentCore().vec.mask, perRepeat, repeatTime);
}

/// Where operand elements live: element e of repeat r is at
/// r * rep * epb + (e / epb) * blk * epb + e % epb, epb = 32 / sizeof(T).
struct Stride {
  int64_t blk = 1, rep = 8;
  int64_t Offset(int64_t epb, int64_t r, int64_t e) const {
    return r * rep * epb + (e / epb) * blk * epb + e % epb;
  }
};

/// Calls f(r, e) for every selected element, repeats in order.
template <typename F> void ForEachMasked(const RepeatMask &m, F f) {
  for (int64_t r = 0; r < m.repeats; ++r)
    for (int64_t e = 0; e < m.perRepeat; ++e)
      if (m.On(r, e))
        f(r, e);
}

template <typename T> constexpr int64_t PerBlock() { return 32 / int64_t(sizeof(T)); }
template <typename T> constexpr int64_t PerRepeat() { return 256 / int64_t(sizeof(T)); }

inline void CheckRepeat(const char *api, int64_t repeatTime) {
  if (repeatTime < 0 || repeatTime > 255)
    Fail(std::string(api) + ": repeatTime " + std::to_string(repeatTime) + " is outside [0, 255]");
}

} // namespace asc2_twin

#endif // ASC2_TWIN_REPEAT_H
