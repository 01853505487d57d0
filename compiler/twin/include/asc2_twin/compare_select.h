//===- compare_select.h - Compare, Compares, Select, GatherMask ---*- C++
//-*-===//
//
// API: mirror-cann/asc-devkit@82b89a15f docs/zh/api/SIMD-API/基础API/
// Memory矢量计算/比较与选择 (Compare.md, Compares.md, Select.md,
// GatherMask.md; GatherMaskParams from
// include/basic_api/kernel_struct_gather.h).
//
// A comparison result is a bit mask in a uint8_t tensor: element i is bit
// i % 8 of byte i / 8. The level-2 forms compute only whole 256-byte chunks
// of `count` (the reference: the unaligned rest does not take part); the
// level-0 forms write the bits of repeat r from bit r * (256 / sizeof(T)).
// Select takes src0 where the bit is 1 and src1 (tensor or scalar) where it
// is 0; VSEL_CMPMASK_SPR reuses the first 256 / sizeof(T) bits every repeat,
// the other modes consume the mask continuously.
//
//===----------------------------------------------------------------------===//
#ifndef ASC2_TWIN_COMPARE_SELECT_H
#define ASC2_TWIN_COMPARE_SELECT_H

#include "asc2_twin/vector.h"

#include <vector>

namespace AscendC {

enum class CMPMODE : uint8_t { LT = 0, GT, EQ, LE, GE, NE };
enum class SELMODE : uint8_t { VSEL_CMPMASK_SPR = 0, VSEL_TENSOR_SCALAR_MODE, VSEL_TENSOR_TENSOR_MODE };

struct GatherMaskParams {
  GatherMaskParams() {}
  GatherMaskParams(uint8_t src0BlockStrideIn, uint16_t repeatTimesIn,
                   uint16_t src0RepeatStrideIn, uint8_t src1RepeatStrideIn)
      : src0BlockStride(src0BlockStrideIn), repeatTimes(repeatTimesIn),
        src0RepeatStride(src0RepeatStrideIn),
        src1RepeatStride(src1RepeatStrideIn) {}
  uint8_t src0BlockStride = 1;
  uint16_t repeatTimes = 0;
  uint16_t src0RepeatStride = 8;
  uint8_t src1RepeatStride = 8;
};

} // namespace AscendC

namespace asc2_twin {

template <typename C> bool CompareValues(C a, C b, AscendC::CMPMODE m) {
  using AscendC::CMPMODE;
  switch (m) {
  case CMPMODE::LT: return a < b;
  case CMPMODE::GT: return a > b;
  case CMPMODE::EQ: return a == b;
  case CMPMODE::LE: return a <= b;
  case CMPMODE::GE: return a >= b;
  case CMPMODE::NE: return a != b;
  }
  return false;
}

/// Masks are bit fields in unsigned integer tensors (uint8_t in the
/// reference's examples); a bool tensor is not one (c310 rejects it).
template <typename U> constexpr void CheckMaskType() {
  static_assert(std::is_same_v<U, uint8_t> || std::is_same_v<U, uint16_t> || std::is_same_v<U, uint32_t> ||
                    std::is_same_v<U, uint64_t>,
                "Compare/Select masks are LocalTensor<uint8_t> bit masks (not bool)");
}

template <typename U> void PutBit(const char *api, const AscendC::LocalTensor<U> &dst, int64_t i, bool on) {
  CheckMaskType<U>();
  auto bytes = dst.template ReinterpretCast<uint8_t>();
  uint8_t b = bytes.Load(api, i / 8);
  b = on ? uint8_t(b | (1u << (i % 8))) : uint8_t(b & ~(1u << (i % 8)));
  bytes.Store(api, i / 8, b);
}
template <typename U> bool GetBit(const char *api, const AscendC::LocalTensor<U> &src, int64_t i) {
  CheckMaskType<U>();
  auto bytes = src.template ReinterpretCast<uint8_t>();
  return (bytes.Load(api, i / 8) >> (i % 8)) & 1u;
}

template <typename T> int64_t WholeChunks(int64_t count) {
  return count / PerRepeat<T>() * PerRepeat<T>();
}

} // namespace asc2_twin

namespace AscendC {

// ---- Compare: tensor with tensor ----
template <typename T, typename U>
void Compare(const LocalTensor<U> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1,
             CMPMODE cmpMode, uint32_t count) {
  using C = asc2_twin::ComputeType<T>;
  for (int64_t i = 0, n = asc2_twin::WholeChunks<T>(count); i < n; ++i)
    asc2_twin::PutBit("Compare", dst, i,
                      asc2_twin::CompareValues(C(src0.Load("Compare", i)), C(src1.Load("Compare", i)), cmpMode));
}
namespace detail {
template <typename T, typename U>
void Compare0(const LocalTensor<U> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1, CMPMODE mode,
              const asc2_twin::RepeatMask &m, const BinaryRepeatParams &p) {
  using C = asc2_twin::ComputeType<T>;
  constexpr int64_t epb = asc2_twin::PerBlock<T>();
  asc2_twin::Stride s0{p.src0BlkStride, p.src0RepStride}, s1{p.src1BlkStride, p.src1RepStride};
  asc2_twin::ForEachMasked(m, [&](int64_t r, int64_t e) {
    bool on = asc2_twin::CompareValues(C(src0.Load("Compare", s0.Offset(epb, r, e))),
                                       C(src1.Load("Compare", s1.Offset(epb, r, e))), mode);
    asc2_twin::PutBit("Compare", dst, r * m.perRepeat + e, on);
  });
}
} // namespace detail
template <typename T, typename U, bool isSetMask = true>
void Compare(const LocalTensor<U> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1,
             CMPMODE cmpMode, const uint64_t mask[], uint8_t repeatTime, const BinaryRepeatParams &p) {
  detail::Compare0(dst, src0, src1, cmpMode, asc2_twin::MaskOf<T>("Compare", mask, repeatTime, isSetMask), p);
}
template <typename T, typename U, bool isSetMask = true>
void Compare(const LocalTensor<U> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1,
             CMPMODE cmpMode, const uint64_t mask, uint8_t repeatTime, const BinaryRepeatParams &p) {
  detail::Compare0(dst, src0, src1, cmpMode, asc2_twin::MaskOf<T>("Compare", mask, repeatTime, isSetMask), p);
}

// ---- Compares: tensor with scalar (CompareScalar is its former name) ----
template <typename T, typename U, typename S, typename = std::enable_if_t<!asc2_twin::kIsTensor<S>>>
void Compares(const LocalTensor<U> &dst, const LocalTensor<T> &src0, const S src1Scalar, CMPMODE cmpMode,
              uint32_t count) {
  using C = asc2_twin::ComputeType<T>;
  C s = C(T(src1Scalar));
  for (int64_t i = 0, n = asc2_twin::WholeChunks<T>(count); i < n; ++i)
    asc2_twin::PutBit("Compares", dst, i, asc2_twin::CompareValues(C(src0.Load("Compares", i)), s, cmpMode));
}
namespace detail {
template <typename T, typename U>
void Compares0(const LocalTensor<U> &dst, const LocalTensor<T> &src0, T scalar, CMPMODE mode,
               const asc2_twin::RepeatMask &m, const UnaryRepeatParams &p) {
  using C = asc2_twin::ComputeType<T>;
  constexpr int64_t epb = asc2_twin::PerBlock<T>();
  asc2_twin::Stride s0{p.srcBlkStride, p.srcRepStride};
  asc2_twin::ForEachMasked(m, [&](int64_t r, int64_t e) {
    bool on = asc2_twin::CompareValues(C(src0.Load("Compares", s0.Offset(epb, r, e))), C(scalar), mode);
    asc2_twin::PutBit("Compares", dst, r * m.perRepeat + e, on);
  });
}
} // namespace detail
template <typename T, typename U, bool isSetMask = true, typename S,
          typename = std::enable_if_t<!asc2_twin::kIsTensor<S>>>
void Compares(const LocalTensor<U> &dst, const LocalTensor<T> &src0, const S src1Scalar, CMPMODE cmpMode,
              const uint64_t mask[], uint8_t repeatTime, const UnaryRepeatParams &p) {
  detail::Compares0(dst, src0, T(src1Scalar), cmpMode,
                    asc2_twin::MaskOf<T>("Compares", mask, repeatTime, isSetMask), p);
}
template <typename T, typename U, bool isSetMask = true, typename S,
          typename = std::enable_if_t<!asc2_twin::kIsTensor<S>>>
void Compares(const LocalTensor<U> &dst, const LocalTensor<T> &src0, const S src1Scalar, CMPMODE cmpMode,
              const uint64_t mask, uint8_t repeatTime, const UnaryRepeatParams &p) {
  detail::Compares0(dst, src0, T(src1Scalar), cmpMode,
                    asc2_twin::MaskOf<T>("Compares", mask, repeatTime, isSetMask), p);
}
template <typename T, typename U, typename S>
void CompareScalar(const LocalTensor<U> &dst, const LocalTensor<T> &src0, const S src1Scalar, CMPMODE cmpMode,
                   uint32_t count) {
  Compares(dst, src0, src1Scalar, cmpMode, count);
}

// ---- Select ----
namespace detail {
/// The mask bit element (r, e) uses.
inline int64_t SelectBit(SELMODE mode, int64_t perRepeat, int64_t r, int64_t e) {
  return mode == SELMODE::VSEL_CMPMASK_SPR ? e : r * perRepeat + e;
}
template <typename T, typename U, typename Src1>
void Select2(const LocalTensor<T> &dst, const LocalTensor<U> &selMask, const LocalTensor<T> &src0, Src1 src1,
             SELMODE mode, uint32_t count) {
  constexpr int64_t per = asc2_twin::PerRepeat<T>();
  for (int64_t i = 0; i < int64_t(count); ++i) {
    bool on = asc2_twin::GetBit("Select", selMask, SelectBit(mode, per, i / per, i % per));
    dst.Store("Select", i, on ? src0.Load("Select", i) : src1(i));
  }
}
template <typename T, typename U, typename Src1>
void Select0(const LocalTensor<T> &dst, const LocalTensor<U> &selMask, const LocalTensor<T> &src0, Src1 src1,
             SELMODE mode, const asc2_twin::RepeatMask &m, const BinaryRepeatParams &p) {
  constexpr int64_t epb = asc2_twin::PerBlock<T>();
  asc2_twin::Stride sd{p.dstBlkStride, p.dstRepStride}, s0{p.src0BlkStride, p.src0RepStride},
      s1{p.src1BlkStride, p.src1RepStride};
  asc2_twin::ForEachMasked(m, [&](int64_t r, int64_t e) {
    bool on = asc2_twin::GetBit("Select", selMask, SelectBit(mode, m.perRepeat, r, e));
    dst.Store("Select", sd.Offset(epb, r, e),
              on ? src0.Load("Select", s0.Offset(epb, r, e)) : src1(s1.Offset(epb, r, e)));
  });
}
} // namespace detail

template <typename T, typename U>
void Select(const LocalTensor<T> &dst, const LocalTensor<U> &selMask, const LocalTensor<T> &src0,
            const LocalTensor<T> &src1, SELMODE selMode, uint32_t count) {
  detail::Select2(dst, selMask, src0, [&](int64_t i) { return src1.Load("Select", i); }, selMode, count);
}
template <typename T, typename U, typename S, typename = std::enable_if_t<!asc2_twin::kIsTensor<S>>>
void Select(const LocalTensor<T> &dst, const LocalTensor<U> &selMask, const LocalTensor<T> &src0, S src1,
            SELMODE selMode, uint32_t count) {
  T s = T(src1);
  detail::Select2(dst, selMask, src0, [s](int64_t) { return s; }, selMode, count);
}
template <typename T, typename U, bool isSetMask = true>
void Select(const LocalTensor<T> &dst, const LocalTensor<U> &selMask, const LocalTensor<T> &src0,
            const LocalTensor<T> &src1, SELMODE selMode, const uint64_t mask[], uint8_t repeatTime,
            const BinaryRepeatParams &p) {
  detail::Select0(dst, selMask, src0, [&](int64_t i) { return src1.Load("Select", i); }, selMode,
                  asc2_twin::MaskOf<T>("Select", mask, repeatTime, isSetMask), p);
}
template <typename T, typename U, bool isSetMask = true>
void Select(const LocalTensor<T> &dst, const LocalTensor<U> &selMask, const LocalTensor<T> &src0,
            const LocalTensor<T> &src1, SELMODE selMode, uint64_t mask, uint8_t repeatTime,
            const BinaryRepeatParams &p) {
  detail::Select0(dst, selMask, src0, [&](int64_t i) { return src1.Load("Select", i); }, selMode,
                  asc2_twin::MaskOf<T>("Select", mask, repeatTime, isSetMask), p);
}
template <typename T, typename U, bool isSetMask = true, typename S,
          typename = std::enable_if_t<!asc2_twin::kIsTensor<S>>>
void Select(const LocalTensor<T> &dst, const LocalTensor<U> &selMask, const LocalTensor<T> &src0, S src1,
            SELMODE selMode, const uint64_t mask[], uint8_t repeatTime, const BinaryRepeatParams &p) {
  T s = T(src1);
  detail::Select0(dst, selMask, src0, [s](int64_t) { return s; }, selMode,
                  asc2_twin::MaskOf<T>("Select", mask, repeatTime, isSetMask), p);
}
template <typename T, typename U, bool isSetMask = true, typename S,
          typename = std::enable_if_t<!asc2_twin::kIsTensor<S>>>
void Select(const LocalTensor<T> &dst, const LocalTensor<U> &selMask, const LocalTensor<T> &src0, S src1,
            SELMODE selMode, uint64_t mask, uint8_t repeatTime, const BinaryRepeatParams &p) {
  T s = T(src1);
  detail::Select0(dst, selMask, src0, [s](int64_t) { return s; }, selMode,
                  asc2_twin::MaskOf<T>("Select", mask, repeatTime, isSetMask), p);
}

// ---- GatherMask: the elements a pattern keeps, packed into dst ----
// Repeat r reads 256 bytes (normal mode) or its first `mask` elements
// (counter mode, reduceMode = true); element j of it is kept when bit j of the
// pattern is set, and kept elements go to dst one after another across all
// repeats. Built-in patterns: 1 even j, 2 odd j, 3..6 j % 4 == pattern - 3,
// 7 every j; a pattern tensor's bits for repeat r start r * src1RepeatStride
// blocks in.
namespace detail {
template <typename T, typename Keeps>
void GatherMask0(const LocalTensor<T> &dst, const LocalTensor<T> &src0,
                 bool reduceMode, uint32_t mask, const GatherMaskParams &p,
                 uint64_t &rsvdCnt, Keeps keeps) {
  constexpr int64_t epb = asc2_twin::PerBlock<T>();
  const int64_t n = reduceMode ? int64_t(mask) : asc2_twin::PerRepeat<T>();
  if (reduceMode && (mask < 1 || n > asc2_twin::PerRepeat<T>()))
    asc2_twin::Fail(
        "GatherMask: counter-mode mask outside [1, 256 / sizeof(T)]");
  std::vector<T> kept;
  for (int64_t r = 0; r < p.repeatTimes; ++r)
    for (int64_t j = 0; j < n; ++j)
      if (keeps(r, j))
        kept.push_back(src0.Load(
            "GatherMask",
            (r * p.src0RepeatStride + j / epb * p.src0BlockStride) * epb +
                j % epb));
  for (size_t i = 0; i < kept.size(); ++i)
    dst.Store("GatherMask", int64_t(i), kept[i]);
  rsvdCnt = kept.size();
}
} // namespace detail
template <typename T, typename U>
void GatherMask(const LocalTensor<T> &dst, const LocalTensor<T> &src0,
                const LocalTensor<U> &src1Pattern, const bool reduceMode,
                const uint32_t mask, const GatherMaskParams &p,
                uint64_t &rsvdCnt) {
  static_assert(sizeof(U) == sizeof(T) && (std::is_same_v<U, uint16_t> ||
                                           std::is_same_v<U, uint32_t>),
                "GatherMask: the pattern is uint16_t for 16-bit and uint32_t "
                "for 32-bit elements");
  detail::GatherMask0(
      dst, src0, reduceMode, mask, p, rsvdCnt, [&](int64_t r, int64_t j) {
        int64_t bit = r * p.src1RepeatStride * 256 + j;
        return (src1Pattern.Load("GatherMask",
                                 bit / (8 * int64_t(sizeof(U)))) >>
                (bit % (8 * sizeof(U)))) &
               1u;
      });
}
template <typename T>
void GatherMask(const LocalTensor<T> &dst, const LocalTensor<T> &src0,
                const uint8_t src1Pattern, const bool reduceMode,
                const uint32_t mask, const GatherMaskParams &p,
                uint64_t &rsvdCnt) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4,
                "GatherMask takes 16- and 32-bit elements");
  if (src1Pattern < 1 || src1Pattern > 7)
    asc2_twin::Fail("GatherMask: built-in pattern outside [1, 7]");
  detail::GatherMask0(dst, src0, reduceMode, mask, p, rsvdCnt,
                      [&](int64_t, int64_t j) {
                        return src1Pattern == 7   ? true
                               : src1Pattern <= 2 ? j % 2 == src1Pattern - 1
                                                  : j % 4 == src1Pattern - 3;
                      });
}

} // namespace AscendC

#endif // ASC2_TWIN_COMPARE_SELECT_H
