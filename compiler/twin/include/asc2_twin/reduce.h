//===- reduce.h - Reductions, Brcb, masked Copy, Broadcast, Transpose -*- C++ -*-===//
//
// API: mirror-cann/asc-devkit@82b89a15f docs/zh/api/SIMD-API/基础API/
// Memory矢量计算/归约计算 (ReduceRepeat, ReduceDataBlock, ReducePairElem, and
// ReduceSum/Max/Min), 数据填充/Brcb.md, 数据搬运/Copy（UBToUB掩码式高维数据搬运）.md,
// 数据排布转换/Transpose.md, and the advanced 高阶API/张量变换/Broadcast.md.
// WholeReduce*/BlockReduce*/PairReduceSum are the names before CANN 9.1
// (附录/接口变更说明.md); Block/Pair forms took repeatTime before mask.
//
// Sums add in a binary tree, as the reference describes: neighbours first
// (x0+x1, x2+x3, ...), then neighbouring sums, each add rounded to T;
// elements the mask leaves out count as 0. Max/Min take the first extreme
// (the lowest index) and store the index in T's bits (ORDER_ONLY_INDEX: as
// uint32_t).
//
//===----------------------------------------------------------------------===//
#ifndef ASC2_TWIN_REDUCE_H
#define ASC2_TWIN_REDUCE_H

#include "asc2_twin/vector.h"

#include <cstring>
#include <vector>

namespace AscendC {
enum class ReduceType : uint8_t { SUM = 0, MAX, MIN };
enum class ReduceOrder : uint8_t { ORDER_VALUE_INDEX = 0, ORDER_INDEX_VALUE, ORDER_ONLY_VALUE, ORDER_ONLY_INDEX };

struct BrcbRepeatParams {
  BrcbRepeatParams() {}
  BrcbRepeatParams(uint16_t dstBlkStrideIn, uint16_t dstRepStrideIn)
      : dstBlkStride(dstBlkStrideIn), dstRepStride(dstRepStrideIn) {}
  uint16_t dstBlkStride = 1;
  uint16_t dstRepStride = 8;
};

struct CopyRepeatParams {
  CopyRepeatParams() {}
  CopyRepeatParams(uint16_t dstStrideIn, uint16_t srcStrideIn, uint16_t dstRepeatSizeIn, uint16_t srcRepeatSizeIn)
      : dstStride(dstStrideIn), srcStride(srcStrideIn), dstRepeatSize(dstRepeatSizeIn),
        srcRepeatSize(srcRepeatSizeIn) {}
  uint16_t dstStride = 1;
  uint16_t srcStride = 1;
  uint16_t dstRepeatSize = 8;
  uint16_t srcRepeatSize = 8;
};
} // namespace AscendC

namespace asc2_twin {

/// Binary-tree sum of v (its size a power of two), each add rounded to T.
template <typename T> T TreeSum(std::vector<T> v) {
  using C = ComputeType<T>;
  if (v.empty())
    return T(0);
  while (v.size() > 1) {
    std::vector<T> next((v.size() + 1) / 2);
    for (size_t i = 0; i < next.size(); ++i)
      next[i] = 2 * i + 1 < v.size() ? T(WrapAdd(C(v[2 * i]), C(v[2 * i + 1]))) : v[2 * i];
    v.swap(next);
  }
  return v[0];
}

/// The first extreme of the selected elements: (value, index); false if none.
template <typename T>
bool Extreme(const std::vector<T> &v, const std::vector<bool> &on, bool max, T &value, uint32_t &index) {
  using C = ComputeType<T>;
  bool found = false;
  for (size_t i = 0; i < v.size(); ++i) {
    if (!on[i])
      continue;
    if (!found || (max ? C(v[i]) > C(value) : C(v[i]) < C(value))) {
      value = v[i];
      index = uint32_t(i);
      found = true;
    }
  }
  return found;
}

/// The bits of integer `index` in a T slot (the reference's value/index pairs).
template <typename T> T IndexBits(uint32_t index) {
  T t{};
  if constexpr (sizeof(T) == 2) {
    uint16_t b = uint16_t(index);
    std::memcpy(&t, &b, 2);
  } else {
    std::memcpy(&t, &index, sizeof(T) < 4 ? sizeof(T) : 4);
  }
  return t;
}

template <AscendC::ReduceType kind, typename T, typename U>
void ReduceRepeat(const char *api, const AscendC::LocalTensor<T> &dst, const AscendC::LocalTensor<U> &src,
                  const RepeatMask &m, int64_t dstRepStride, int64_t srcBlkStride, int64_t srcRepStride,
                  AscendC::ReduceOrder order) {
  using AscendC::ReduceOrder;
  constexpr int64_t epb = PerBlock<U>();
  Stride ss{srcBlkStride, srcRepStride};
  for (int64_t r = 0; r < m.repeats; ++r) {
    std::vector<U> v(size_t(m.perRepeat), U(0));
    std::vector<bool> on(size_t(m.perRepeat), false);
    for (int64_t e = 0; e < m.perRepeat; ++e)
      if (m.On(r, e)) {
        v[size_t(e)] = src.Load(api, ss.Offset(epb, r, e));
        on[size_t(e)] = true;
      }
    if constexpr (kind == AscendC::ReduceType::SUM) {
      dst.Store(api, r * dstRepStride, T(TreeSum(v)));
    } else {
      U value{};
      uint32_t index = 0;
      if (!Extreme(v, on, kind == AscendC::ReduceType::MAX, value, index))
        continue;
      switch (order) {
      case ReduceOrder::ORDER_VALUE_INDEX:
        dst.Store(api, 2 * r * dstRepStride, T(value));
        dst.Store(api, 2 * r * dstRepStride + 1, IndexBits<T>(index));
        break;
      case ReduceOrder::ORDER_INDEX_VALUE:
        dst.Store(api, 2 * r * dstRepStride, IndexBits<T>(index));
        dst.Store(api, 2 * r * dstRepStride + 1, T(value));
        break;
      case ReduceOrder::ORDER_ONLY_VALUE:
        dst.Store(api, r * dstRepStride, T(value));
        break;
      case ReduceOrder::ORDER_ONLY_INDEX:
        dst.template ReinterpretCast<uint32_t>().Store(api, r * dstRepStride, index);
        break;
      }
    }
  }
}

/// One result per 32-byte block; a repeat's 8 results are one dstRepStride unit.
template <AscendC::ReduceType kind, typename T, typename U>
void ReduceDataBlock(const char *api, const AscendC::LocalTensor<T> &dst, const AscendC::LocalTensor<U> &src,
                     const RepeatMask &m, int64_t dstRepStride, int64_t srcBlkStride, int64_t srcRepStride) {
  constexpr int64_t epb = PerBlock<U>();
  Stride ss{srcBlkStride, srcRepStride};
  for (int64_t r = 0; r < m.repeats; ++r)
    for (int64_t b = 0; b < m.perRepeat / epb; ++b) {
      std::vector<U> v(size_t(epb), U(0));
      std::vector<bool> on(size_t(epb), false);
      for (int64_t i = 0; i < epb; ++i)
        if (m.On(r, b * epb + i)) {
          v[size_t(i)] = src.Load(api, ss.Offset(epb, r, b * epb + i));
          on[size_t(i)] = true;
        }
      int64_t d = r * dstRepStride * 8 + b;
      if constexpr (kind == AscendC::ReduceType::SUM) {
        dst.Store(api, d, T(TreeSum(v)));
      } else {
        U value{};
        uint32_t index = 0;
        if (Extreme(v, on, kind == AscendC::ReduceType::MAX, value, index))
          dst.Store(api, d, T(value));
      }
    }
}

/// Sums of neighbouring pairs; a repeat's results are one dstRepStride unit.
template <typename T, typename U>
void ReducePairSum(const char *api, const AscendC::LocalTensor<T> &dst, const AscendC::LocalTensor<U> &src,
                   const RepeatMask &m, int64_t dstRepStride, int64_t srcBlkStride, int64_t srcRepStride) {
  using C = ComputeType<U>;
  constexpr int64_t epb = PerBlock<U>();
  Stride ss{srcBlkStride, srcRepStride};
  for (int64_t r = 0; r < m.repeats; ++r)
    for (int64_t p = 0; p < m.perRepeat / 2; ++p) {
      C a = m.On(r, 2 * p) ? C(src.Load(api, ss.Offset(epb, r, 2 * p))) : C(0);
      C b = m.On(r, 2 * p + 1) ? C(src.Load(api, ss.Offset(epb, r, 2 * p + 1))) : C(0);
      dst.Store(api, r * dstRepStride * (m.perRepeat / 2) + p, T(U(WrapAdd(a, b))));
    }
}

template <typename U> RepeatMask ReduceMask(const char *api, const uint64_t mask[], int64_t repeatTime, bool isSet) {
  return MaskOf<U>(api, mask, repeatTime, isSet);
}
template <typename U> RepeatMask ReduceMask(const char *api, int64_t mask, int64_t repeatTime, bool isSet) {
  if (mask < 0)
    Fail(std::string(api) + ": negative mask");
  return MaskOf<U>(api, uint64_t(mask), repeatTime, isSet);
}

} // namespace asc2_twin

namespace AscendC {

#define ASC2_TWIN_MASK_FORMS(MaskType)                                         \
  template <ReduceType reduceType, typename T, typename U, bool isSetMask = true> \
  void ReduceRepeat(const LocalTensor<T> &dst, const LocalTensor<U> &src, MaskType mask, \
                    const int32_t repeatTime, const int32_t dstRepStride,      \
                    const int32_t srcBlkStride, const int32_t srcRepStride,    \
                    ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX) {      \
    asc2_twin::ReduceRepeat<reduceType>(                                       \
        "ReduceRepeat", dst, src,                                              \
        asc2_twin::ReduceMask<U>("ReduceRepeat", mask, repeatTime, isSetMask), \
        dstRepStride, srcBlkStride, srcRepStride, order);                      \
  }                                                                            \
  template <ReduceType reduceType, typename T, typename U, bool isSetMask = true> \
  void ReduceDataBlock(const LocalTensor<T> &dst, const LocalTensor<U> &src, MaskType mask, \
                       const int32_t repeatTime, const int32_t dstRepStride,   \
                       const int32_t srcBlkStride, const int32_t srcRepStride) { \
    asc2_twin::ReduceDataBlock<reduceType>(                                    \
        "ReduceDataBlock", dst, src,                                           \
        asc2_twin::ReduceMask<U>("ReduceDataBlock", mask, repeatTime, isSetMask), \
        dstRepStride, srcBlkStride, srcRepStride);                             \
  }                                                                            \
  template <ReduceType reduceType, typename T, typename U, bool isSetMask = true> \
  void ReducePairElem(const LocalTensor<T> &dst, const LocalTensor<U> &src, MaskType mask, \
                      const int32_t repeatTime, const int32_t dstRepStride,    \
                      const int32_t srcBlkStride, const int32_t srcRepStride) { \
    static_assert(reduceType == ReduceType::SUM, "ReducePairElem: only SUM"); \
    asc2_twin::ReducePairSum(                                                  \
        "ReducePairElem", dst, src,                                            \
        asc2_twin::ReduceMask<U>("ReducePairElem", mask, repeatTime, isSetMask), \
        dstRepStride, srcBlkStride, srcRepStride);                             \
  }                                                                            \
  template <typename T, bool isSetMask = true>                                 \
  void WholeReduceSum(const LocalTensor<T> &dst, const LocalTensor<T> &src, MaskType mask, \
                      const int32_t repeatTime, const int32_t dstRepStride,    \
                      const int32_t srcBlkStride, const int32_t srcRepStride) { \
    ReduceRepeat<ReduceType::SUM, T, T, isSetMask>(dst, src, mask, repeatTime, dstRepStride, \
                                                   srcBlkStride, srcRepStride); \
  }                                                                            \
  template <typename T, bool isSetMask = true>                                 \
  void WholeReduceMax(const LocalTensor<T> &dst, const LocalTensor<T> &src, MaskType mask, \
                      const int32_t repeatTime, const int32_t dstRepStride,    \
                      const int32_t srcBlkStride, const int32_t srcRepStride,  \
                      ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX) {    \
    ReduceRepeat<ReduceType::MAX, T, T, isSetMask>(dst, src, mask, repeatTime, dstRepStride, \
                                                   srcBlkStride, srcRepStride, order); \
  }                                                                            \
  template <typename T, bool isSetMask = true>                                 \
  void WholeReduceMin(const LocalTensor<T> &dst, const LocalTensor<T> &src, MaskType mask, \
                      const int32_t repeatTime, const int32_t dstRepStride,    \
                      const int32_t srcBlkStride, const int32_t srcRepStride,  \
                      ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX) {    \
    ReduceRepeat<ReduceType::MIN, T, T, isSetMask>(dst, src, mask, repeatTime, dstRepStride, \
                                                   srcBlkStride, srcRepStride, order); \
  }                                                                            \
  template <typename T, bool isSetMask = true>                                 \
  void BlockReduceSum(const LocalTensor<T> &dst, const LocalTensor<T> &src, const int32_t repeatTime, \
                      MaskType mask, const int32_t dstRepStride, const int32_t srcBlkStride, \
                      const int32_t srcRepStride) {                            \
    ReduceDataBlock<ReduceType::SUM, T, T, isSetMask>(dst, src, mask, repeatTime, dstRepStride, \
                                                      srcBlkStride, srcRepStride); \
  }                                                                            \
  template <typename T, bool isSetMask = true>                                 \
  void BlockReduceMax(const LocalTensor<T> &dst, const LocalTensor<T> &src, const int32_t repeatTime, \
                      MaskType mask, const int32_t dstRepStride, const int32_t srcBlkStride, \
                      const int32_t srcRepStride) {                            \
    ReduceDataBlock<ReduceType::MAX, T, T, isSetMask>(dst, src, mask, repeatTime, dstRepStride, \
                                                      srcBlkStride, srcRepStride); \
  }                                                                            \
  template <typename T, bool isSetMask = true>                                 \
  void BlockReduceMin(const LocalTensor<T> &dst, const LocalTensor<T> &src, const int32_t repeatTime, \
                      MaskType mask, const int32_t dstRepStride, const int32_t srcBlkStride, \
                      const int32_t srcRepStride) {                            \
    ReduceDataBlock<ReduceType::MIN, T, T, isSetMask>(dst, src, mask, repeatTime, dstRepStride, \
                                                      srcBlkStride, srcRepStride); \
  }                                                                            \
  template <typename T, bool isSetMask = true>                                 \
  void PairReduceSum(const LocalTensor<T> &dst, const LocalTensor<T> &src, const int32_t repeatTime, \
                     MaskType mask, const int32_t dstRepStride, const int32_t srcBlkStride, \
                     const int32_t srcRepStride) {                             \
    ReducePairElem<ReduceType::SUM, T, T, isSetMask>(dst, src, mask, repeatTime, dstRepStride, \
                                                     srcBlkStride, srcRepStride); \
  }

ASC2_TWIN_MASK_FORMS(const uint64_t *)
ASC2_TWIN_MASK_FORMS(const int32_t)
#undef ASC2_TWIN_MASK_FORMS

// ---- level-2 whole-tensor reductions: dst[0] (and the index in dst[1]) ----
namespace detail {
template <ReduceType kind, typename T>
void ReduceAll(const char *api, const LocalTensor<T> &dst, const LocalTensor<T> &src, int32_t count, bool calIndex) {
  constexpr int64_t per = asc2_twin::PerRepeat<T>();
  std::vector<T> v(static_cast<size_t>(count));
  for (int32_t i = 0; i < count; ++i)
    v[size_t(i)] = src.Load(api, i);
  if constexpr (kind == ReduceType::SUM) {
    // Each repeat's tree, then a tree over the repeat sums (padded with 0).
    std::vector<T> partial;
    for (int64_t s = 0; s < count; s += per) {
      std::vector<T> chunk(size_t(per), T(0));
      for (int64_t i = s; i < std::min<int64_t>(count, s + per); ++i)
        chunk[size_t(i - s)] = v[size_t(i)];
      partial.push_back(asc2_twin::TreeSum(chunk));
    }
    size_t p2 = 1;
    while (p2 < partial.size())
      p2 *= 2;
    partial.resize(p2, T(0));
    dst.Store(api, 0, asc2_twin::TreeSum(partial));
  } else {
    T value{};
    uint32_t index = 0;
    if (asc2_twin::Extreme(v, std::vector<bool>(v.size(), true), kind == ReduceType::MAX, value, index)) {
      dst.Store(api, 0, value);
      if (calIndex)
        dst.Store(api, 1, asc2_twin::IndexBits<T>(index));
    }
  }
}
} // namespace detail
template <typename T, bool isSetMask = true>
void ReduceSum(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<T> &, const int32_t count) {
  detail::ReduceAll<ReduceType::SUM>("ReduceSum", dst, src, count, false);
}
template <typename T>
void ReduceMax(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<T> &, const int32_t count,
               bool calIndex = false) {
  detail::ReduceAll<ReduceType::MAX>("ReduceMax", dst, src, count, calIndex);
}
template <typename T>
void ReduceMin(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<T> &, const int32_t count,
               bool calIndex = false) {
  detail::ReduceAll<ReduceType::MIN>("ReduceMin", dst, src, count, calIndex);
}

// ---- Brcb: each source element fills one 32-byte block ----
template <typename T>
void Brcb(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint8_t repeatTime, const BrcbRepeatParams &p) {
  constexpr int64_t epb = asc2_twin::PerBlock<T>();
  for (int64_t r = 0; r < repeatTime; ++r)
    for (int64_t b = 0; b < 8; ++b) {
      T v = src.Load("Brcb", r * 8 + b);
      int64_t d = (r * p.dstRepStride + b * p.dstBlkStride) * epb;
      for (int64_t i = 0; i < epb; ++i)
        dst.Store("Brcb", d + i, v);
    }
}

// ---- Copy: masked UB -> UB with block and repeat strides ----
namespace detail {
template <typename T>
void Copy0(const LocalTensor<T> &dst, const LocalTensor<T> &src, const asc2_twin::RepeatMask &m,
           const CopyRepeatParams &p) {
  constexpr int64_t epb = asc2_twin::PerBlock<T>();
  asc2_twin::Stride sd{p.dstStride, p.dstRepeatSize}, ss{p.srcStride, p.srcRepeatSize};
  asc2_twin::ForEachMasked(m, [&](int64_t r, int64_t e) {
    dst.Store("Copy", sd.Offset(epb, r, e), src.Load("Copy", ss.Offset(epb, r, e)));
  });
}
} // namespace detail
template <typename T, bool isSetMask = true>
void Copy(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint64_t mask[], const uint8_t repeatTime,
          const CopyRepeatParams &p) {
  detail::Copy0(dst, src, asc2_twin::MaskOf<T>("Copy", mask, repeatTime, isSetMask), p);
}
template <typename T, bool isSetMask = true>
void Copy(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint64_t mask, const uint8_t repeatTime,
          const CopyRepeatParams &p) {
  detail::Copy0(dst, src, asc2_twin::MaskOf<T>("Copy", mask, repeatTime, isSetMask), p);
}

// ---- Transpose: one 16x16 matrix of 2-byte elements ----
template <typename T> void Transpose(const LocalTensor<T> &dst, const LocalTensor<T> &src) {
  static_assert(sizeof(T) == 2, "Transpose(dst, src): 16x16 of 2-byte elements");
  T tmp[256];
  for (int i = 0; i < 256; ++i)
    tmp[i] = src.Load("Transpose", i);
  for (int r = 0; r < 16; ++r)
    for (int c = 0; c < 16; ++c)
      dst.Store("Transpose", c * 16 + r, tmp[r * 16 + c]);
}

// ---- Transpose with TransposeParamsExt: the NCHW <-> NHWC permutations ----
// API: mirror-cann/asc-devkit@82b89a15f include/basic_api/
// kernel_operator_vec_transpose_intf.h, kernel_struct_transpose.h (the enum
// lists the kinds; the twin implements the two the emitter writes).
enum class TransposeType : uint8_t {
  TRANSPOSE_TYPE_NONE,
  TRANSPOSE_NCHW2NHWC,
  TRANSPOSE_NHWC2NCHW,
};
struct TransposeParamsExt {
  constexpr TransposeParamsExt() = default;
  constexpr TransposeParamsExt(uint16_t nSizeIn, uint16_t cSizeIn, uint16_t hSizeIn, uint16_t wSizeIn,
                               TransposeType transposeTypeIn)
      : nSize(nSizeIn), cSize(cSizeIn), hSize(hSizeIn), wSize(wSizeIn), transposeType(transposeTypeIn) {}
  uint16_t nSize = 0, cSize = 0, hSize = 0, wSize = 0;
  TransposeType transposeType = TransposeType::TRANSPOSE_TYPE_NONE;
};
/// n matrices of c x (h*w) (NCHW) become n of (h*w) x c (NHWC), or back.
/// The scratch buffer is the real call's; the twin checks it is addressable
/// and does not overlap the source or destination it would clobber.
template <typename T>
void Transpose(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<uint8_t> &sharedTmpBuffer,
               const TransposeParamsExt &p) {
  const char *api = "Transpose";
  const int64_t n = p.nSize, c = p.cSize, hw = int64_t(p.hSize) * p.wSize, total = n * c * hw;
  if (p.transposeType != TransposeType::TRANSPOSE_NCHW2NHWC &&
      p.transposeType != TransposeType::TRANSPOSE_NHWC2NCHW)
    asc2_twin::Fail("Transpose: the twin implements TRANSPOSE_NCHW2NHWC and TRANSPOSE_NHWC2NCHW only");
  if (src.Mem() == dst.Mem() && int64_t(src.ByteAddr()) < int64_t(dst.ByteAddr()) + total * int64_t(sizeof(T)) &&
      int64_t(dst.ByteAddr()) < int64_t(src.ByteAddr()) + total * int64_t(sizeof(T)))
    asc2_twin::Fail("Transpose: dst overlaps src");
  (void)sharedTmpBuffer.Ptr(api, 0, sharedTmpBuffer.GetSize());
  std::vector<T> in(static_cast<size_t>(total)); // not in(size_t(total)): that declares a function
  if (total > 0)
    std::memcpy(in.data(), src.Ptr(api, 0, total), size_t(total) * sizeof(T));
  const bool toNhwc = p.transposeType == TransposeType::TRANSPOSE_NCHW2NHWC;
  for (int64_t b = 0; b < n; ++b)
    for (int64_t ci = 0; ci < c; ++ci)
      for (int64_t k = 0; k < hw; ++k) {
        int64_t nchw = b * c * hw + ci * hw + k, nhwc = b * c * hw + k * c + ci;
        if (toNhwc)
          dst.Store(api, nhwc, in[size_t(nchw)]);
        else
          dst.Store(api, nchw, in[size_t(nhwc)]);
      }
}

// ---- Broadcast (advanced API): dim 1 or 2, along `axis` ----
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
void Broadcast(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint32_t dstShape[dim],
               const uint32_t srcShape[dim]) {
  static_assert(dim == 1 || dim == 2, "Broadcast: dim is 1 or 2");
  static_assert(axis >= 0 && axis < dim, "Broadcast: axis must be < dim");
  if (srcShape[axis] != 1)
    asc2_twin::Fail("Broadcast: srcShape[axis] must be 1");
  for (int d = 0; d < dim; ++d)
    if (d != axis && srcShape[d] != dstShape[d])
      asc2_twin::Fail("Broadcast: srcShape and dstShape differ off the broadcast axis");
  if constexpr (dim == 1) {
    T v = src.Load("Broadcast", 0);
    for (uint32_t i = 0; i < dstShape[0]; ++i)
      dst.Store("Broadcast", i, v);
  } else {
    const uint32_t rows = dstShape[0], cols = dstShape[1];
    for (uint32_t r = 0; r < rows; ++r)
      for (uint32_t c = 0; c < cols; ++c)
        dst.Store("Broadcast", int64_t(r) * cols + c, src.Load("Broadcast", axis == 1 ? r : c));
  }
}
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
void Broadcast(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint32_t dstShape[dim],
               const uint32_t srcShape[dim], LocalTensor<uint8_t> &sharedTmpBuffer) {
  (void)sharedTmpBuffer; // the twin needs no scratch
  Broadcast<T, dim, axis, isReuseSource>(dst, src, dstShape, srcShape);
}

} // namespace AscendC

#endif // ASC2_TWIN_REDUCE_H
