//===- data_copy.h - DataCopy, DataCopyPad, ND2NZ, Fill -*- C++ -*-===//
//
// API: mirror-cann/asc-devkit@82b89a15f docs/zh/api/SIMD-API/基础API/
// Memory矢量计算/数据搬运 (DataCopy, DataCopyPad GM<->UB) and 矩阵计算（ISASI）/
// 矩阵计算的搬入 (DataCopy ND2NZ GM->L1) and 矩阵搬入辅助配置接口/Fill.
//
// Units as the reference gives them: DataCopyParams counts 32-byte blocks on
// both sides; DataCopyExtParams' blockLen is bytes, its GM-side stride bytes
// and its UB-side stride 32-byte blocks. DataCopyPad to UB writes, per block,
// leftPadding elements, the data, rightPadding elements, then "dummy" bytes
// up to 32-byte alignment: the first element of the block when both paddings
// are 0, paddingValue when isPad, and otherwise the undefined values the
// reference warns about, which the twin makes 0xFF bytes (a NaN for floats) so
// a kernel that reads them shows it.
//
//===----------------------------------------------------------------------===//
#ifndef ASC2_TWIN_DATA_COPY_H
#define ASC2_TWIN_DATA_COPY_H

#include "asc2_twin/sync.h"
#include "asc2_twin/tensor.h"

#include <algorithm>
#include <mutex>

namespace AscendC {

struct DataCopyParams {
  DataCopyParams() {}
  DataCopyParams(uint16_t count, uint16_t len, uint16_t srcStrideIn, uint16_t dstStrideIn)
      : blockCount(count), blockLen(len), srcStride(srcStrideIn), dstStride(dstStrideIn) {}
  uint16_t blockCount = 1;
  uint16_t blockLen = 0;
  union {
    uint16_t srcGap = 0;
    uint16_t srcStride;
  };
  union {
    uint16_t dstGap = 0;
    uint16_t dstStride;
  };
};

struct DataCopyExtParams {
  DataCopyExtParams() {}
  DataCopyExtParams(uint16_t count, uint32_t len, int64_t srcStrideIn, int64_t dstStrideIn,
                    uint32_t rsvIn)
      : blockCount(count), blockLen(len), srcStride(srcStrideIn), dstStride(dstStrideIn),
        rsv(rsvIn) {}
  uint16_t blockCount = 1;
  uint32_t blockLen = 0;
#if ASC2_TWIN_NPU_ARCH == 3510
  int64_t srcStride = 0; // c310 allows negative GM strides
  int64_t dstStride = 0;
#else
  uint32_t srcStride = 0;
  uint32_t dstStride = 0;
#endif
  uint32_t rsv = 0;
};

struct DataCopyPadParams {
  DataCopyPadParams() {}
  DataCopyPadParams(bool isPadValue, uint8_t left, uint8_t right, uint64_t value)
      : isPad(isPadValue), leftPadding(left), rightPadding(right), paddingValue(value) {}
  bool isPad = false;
  uint8_t leftPadding = 0;
  uint8_t rightPadding = 0;
  uint64_t paddingValue = 0;
};

template <typename T> struct DataCopyPadExtParams {
  DataCopyPadExtParams() {}
  DataCopyPadExtParams(bool isPadValue, uint8_t left, uint8_t right, T value)
      : isPad(isPadValue), leftPadding(left), rightPadding(right), paddingValue(value) {}
  bool isPad = false;
  uint8_t leftPadding = 0;
  uint8_t rightPadding = 0;
  T paddingValue = T(0);
};

enum class PaddingMode : uint8_t { Normal = 0, Compact };

struct Nd2NzParams {
  Nd2NzParams() {}
  Nd2NzParams(uint16_t ndNumIn, uint16_t nValueIn, uint32_t dValueIn, uint64_t srcNdMatrixStrideIn,
              uint64_t srcDValueIn, uint16_t dstNzC0StrideIn, uint16_t dstNzNStrideIn,
              uint32_t dstNzMatrixStrideIn)
      : ndNum(ndNumIn), nValue(nValueIn), dValue(dValueIn), srcNdMatrixStride(srcNdMatrixStrideIn),
        srcDValue(srcDValueIn), dstNzC0Stride(dstNzC0StrideIn), dstNzNStride(dstNzNStrideIn),
        dstNzMatrixStride(dstNzMatrixStrideIn) {}
  uint16_t ndNum = 0;
  uint16_t nValue = 0;
  uint32_t dValue = 0;
  uint64_t srcNdMatrixStride = 0;
  uint64_t srcDValue = 0;
  uint16_t dstNzC0Stride = 0;
  uint16_t dstNzNStride = 0;
  uint32_t dstNzMatrixStride = 0;
};

template <typename T> struct InitConstValueParams {
  InitConstValueParams() {}
  InitConstValueParams(uint16_t repeatTimesIn, uint16_t blockNumIn, uint16_t dstGapIn, T initValueIn)
      : repeatTimes(repeatTimesIn), blockNum(blockNumIn), dstGap(dstGapIn), initValue(initValueIn) {}
  InitConstValueParams(uint16_t repeatTimesIn, T initValueIn)
      : repeatTimes(repeatTimesIn), initValue(initValueIn) {}
  uint16_t repeatTimes = 0;
  uint16_t blockNum = 0;
  uint16_t dstGap = 0;
  T initValue = T(0);
};

} // namespace AscendC

namespace asc2_twin {

inline std::mutex &AtomicLock() {
  static std::mutex m;
  return m;
}

/// Stores v into GM element i of dst, honouring SetAtomicAdd/Max/Min.
template <typename T>
void StoreGlobal(const char *api, const AscendC::GlobalTensor<T> &dst, int64_t i, T v) {
  AtomicOp op = CurrentCore().atomic;
  if (op == AtomicOp::None)
    return dst.Store(api, i, v);
  std::lock_guard<std::mutex> g(AtomicLock()); // the AIVs of a block run at once
  using C = ComputeType<T>;
  C old = C(dst.Load(api, i)), x = C(v);
  C r = op == AtomicOp::Add ? C(old + x) : op == AtomicOp::Max ? (x > old ? x : old)
                                                               : (x < old ? x : old);
  dst.Store(api, i, T(r));
}

template <typename T>
void CopyLocal(const char *api, const AscendC::LocalTensor<T> &dst, int64_t di,
               const AscendC::LocalTensor<T> &src, int64_t si, int64_t n) {
  if (n <= 0)
    return;
  T *s = src.Ptr(api, si, n);
  T *d = dst.Ptr(api, di, n);
  std::memmove(d, s, size_t(n) * sizeof(T));
}

inline void NeedBlocks(const char *api, uint64_t bytes) {
  if (bytes % 32)
    Fail(std::string(api) + ": " + std::to_string(bytes) +
         " bytes is not a whole number of 32-byte blocks (use DataCopyPad)");
}

} // namespace asc2_twin

namespace AscendC {

// ---- contiguous: count elements, a multiple of 32 bytes ----
template <typename T>
void DataCopy(const LocalTensor<T> &dst, const GlobalTensor<T> &src, uint32_t count) {
  asc2_twin::NeedBlocks("DataCopy", uint64_t(count) * sizeof(T));
  std::memcpy(dst.Ptr("DataCopy", 0, count), src.Ptr("DataCopy", 0, count), count * sizeof(T));
}
template <typename T>
void DataCopy(const GlobalTensor<T> &dst, const LocalTensor<T> &src, uint32_t count) {
  asc2_twin::NeedBlocks("DataCopy", uint64_t(count) * sizeof(T));
  for (uint32_t i = 0; i < count; ++i)
    asc2_twin::StoreGlobal("DataCopy", dst, i, src.Load("DataCopy", i));
}
template <typename T>
void DataCopy(const LocalTensor<T> &dst, const LocalTensor<T> &src, uint32_t count) {
  asc2_twin::NeedBlocks("DataCopy", uint64_t(count) * sizeof(T));
  asc2_twin::CopyLocal("DataCopy", dst, 0, src, 0, count);
}

// ---- blocks of 32 bytes with gaps (DataCopyParams) ----
template <typename T>
void DataCopy(const LocalTensor<T> &dst, const GlobalTensor<T> &src, const DataCopyParams &p) {
  const int64_t epb = 32 / sizeof(T), len = int64_t(p.blockLen) * epb;
  for (int64_t b = 0; b < p.blockCount; ++b) {
    int64_t s = b * (len + int64_t(p.srcStride) * epb), d = b * (len + int64_t(p.dstStride) * epb);
    std::memcpy(dst.Ptr("DataCopy", d, len), src.Ptr("DataCopy", s, len), size_t(len) * sizeof(T));
  }
}
template <typename T>
void DataCopy(const GlobalTensor<T> &dst, const LocalTensor<T> &src, const DataCopyParams &p) {
  const int64_t epb = 32 / sizeof(T), len = int64_t(p.blockLen) * epb;
  for (int64_t b = 0; b < p.blockCount; ++b) {
    int64_t s = b * (len + int64_t(p.srcStride) * epb), d = b * (len + int64_t(p.dstStride) * epb);
    for (int64_t i = 0; i < len; ++i)
      asc2_twin::StoreGlobal("DataCopy", dst, d + i, src.Load("DataCopy", s + i));
  }
}
template <typename T>
void DataCopy(const LocalTensor<T> &dst, const LocalTensor<T> &src, const DataCopyParams &p) {
  const int64_t epb = 32 / sizeof(T), len = int64_t(p.blockLen) * epb;
  for (int64_t b = 0; b < p.blockCount; ++b)
    asc2_twin::CopyLocal("DataCopy", dst, b * (len + int64_t(p.dstStride) * epb), src,
                         b * (len + int64_t(p.srcStride) * epb), len);
}

// ---- L1 (C1) -> bias table (C2), widening (DataCopy（L1ToBiasTable Buffer数据搬运）.md) ----
/// Two element types: src half/bfloat16 (or int32/float) -> dst float/int32;
/// blockLen counts 64-byte (c220) or 32-byte (c310) units of the source.
template <typename T, typename U, typename = std::enable_if_t<!std::is_same_v<T, U>>>
void DataCopy(const LocalTensor<T> &dst, const LocalTensor<U> &src, const DataCopyParams &p) {
  const char *api = "DataCopy(L1 -> BiasTable)";
  if (dst.Mem() != asc2_twin::Memory::BT || src.Mem() != asc2_twin::Memory::L1)
    asc2_twin::Fail(std::string(api) + ": two element types only from L1 to the bias table (C2)");
#if ASC2_TWIN_NPU_ARCH == 3510
  constexpr int64_t unit = 32;
#else
  constexpr int64_t unit = 64;
#endif
  const int64_t len = int64_t(p.blockLen) * unit / int64_t(sizeof(U));
  for (int64_t b = 0; b < p.blockCount; ++b) {
    const int64_t s = b * (len + int64_t(p.srcStride) * 32 / int64_t(sizeof(U)));
    const int64_t d = b * (len + int64_t(p.dstStride) * unit / int64_t(sizeof(T)));
    for (int64_t i = 0; i < len; ++i)
      dst.Store(api, d + i, T(asc2_twin::ComputeType<U>(src.Load(api, s + i))));
  }
}

// ---- GM -> L1 with ND to Nz conversion ----
template <typename T>
void DataCopy(const LocalTensor<T> &dst, const GlobalTensor<T> &src, const Nd2NzParams &p) {
  const int64_t c0 = 32 / sizeof(T);
  const int64_t groups = (int64_t(p.dValue) + c0 - 1) / c0;
  for (int64_t n = 0; n < p.ndNum; ++n)
    for (int64_t r = 0; r < p.nValue; ++r)
      for (int64_t g = 0; g < groups; ++g) {
        int64_t d = n * p.dstNzMatrixStride + g * p.dstNzC0Stride * c0 + r * p.dstNzNStride * c0;
        for (int64_t k = 0; k < c0; ++k) {
          int64_t col = g * c0 + k;
          // Columns past dValue pad the C0 group with zeros (the reference).
          T v = col < int64_t(p.dValue)
                    ? src.Load("DataCopy(Nd2Nz)", int64_t(n * p.srcNdMatrixStride + r * p.srcDValue + col))
                    : T(0);
          dst.Store("DataCopy(Nd2Nz)", d + k, v);
        }
      }
}

// ---- unaligned: DataCopyPad ----
template <typename T, PaddingMode mode = PaddingMode::Normal>
void DataCopyPad(const LocalTensor<T> &dst, const GlobalTensor<T> &src, const DataCopyExtParams &p,
                 const DataCopyPadExtParams<T> &pad) {
  const char *api = "DataCopyPad(GM->UB)";
  if (p.blockLen % sizeof(T))
    asc2_twin::Fail(std::string(api) + ": blockLen " + std::to_string(p.blockLen) +
                    " is not a multiple of the element size");
  if ((pad.leftPadding + pad.rightPadding) * sizeof(T) > 64 || pad.leftPadding * sizeof(T) > 32 ||
      pad.rightPadding * sizeof(T) > 32)
    asc2_twin::Fail(std::string(api) + ": leftPadding/rightPadding may cover at most 32 bytes each");
  const int64_t n = p.blockLen / sizeof(T);
  const int64_t rowBytes = (int64_t(pad.leftPadding + pad.rightPadding) * sizeof(T) + p.blockLen + 31) / 32 * 32;
  const int64_t rowElems = rowBytes / sizeof(T);
  const int64_t srcStep = n + int64_t(p.srcStride) / int64_t(sizeof(T));
  if (int64_t(p.srcStride) % int64_t(sizeof(T)))
    asc2_twin::Fail(std::string(api) + ": a GM srcStride that is not a whole element is not supported by the twin");
  int64_t d = 0;
  for (int64_t b = 0; b < p.blockCount; ++b, d += rowElems + int64_t(p.dstStride) * (32 / sizeof(T))) {
    int64_t s = b * srcStep;
    T *row = dst.Ptr(api, d, rowElems);
    int64_t k = 0;
    for (; k < pad.leftPadding; ++k)
      row[k] = pad.paddingValue;
    std::memcpy(row + k, src.Ptr(api, s, n), size_t(n) * sizeof(T));
    k += n;
    for (int64_t j = 0; j < pad.rightPadding; ++j, ++k)
      row[k] = pad.paddingValue;
    bool noPad = pad.leftPadding == 0 && pad.rightPadding == 0;
    for (; k < rowElems; ++k) {
      if (noPad && n > 0)
        row[k] = row[0];
      else if (pad.isPad)
        row[k] = pad.paddingValue;
      else
        std::memset(&row[k], 0xFF, sizeof(T));
    }
  }
}

template <typename T>
void DataCopyPad(const GlobalTensor<T> &dst, const LocalTensor<T> &src, const DataCopyExtParams &p) {
  const char *api = "DataCopyPad(UB->GM)";
  if (p.blockLen % sizeof(T))
    asc2_twin::Fail(std::string(api) + ": blockLen " + std::to_string(p.blockLen) +
                    " is not a multiple of the element size");
  if (int64_t(p.dstStride) % int64_t(sizeof(T)))
    asc2_twin::Fail(std::string(api) + ": a GM dstStride that is not a whole element is not supported by the twin");
  const int64_t n = p.blockLen / sizeof(T);
  const int64_t rowElems = (int64_t(p.blockLen) + 31) / 32 * 32 / sizeof(T);
  const int64_t dstStep = n + int64_t(p.dstStride) / int64_t(sizeof(T));
  for (int64_t b = 0; b < p.blockCount; ++b) {
    int64_t s = b * (rowElems + int64_t(p.srcStride) * (32 / sizeof(T)));
    for (int64_t i = 0; i < n; ++i)
      asc2_twin::StoreGlobal(api, dst, b * dstStep + i, src.Load(api, s + i));
  }
}

// The older DataCopyParams/DataCopyPadParams forms: same units as the Ext ones.
template <typename T>
void DataCopyPad(const LocalTensor<T> &dst, const GlobalTensor<T> &src, const DataCopyParams &p,
                 const DataCopyPadParams &pad) {
  T value;
  std::memcpy(&value, &pad.paddingValue, sizeof(T));
  DataCopyPad(dst, src, DataCopyExtParams(p.blockCount, p.blockLen, p.srcStride, p.dstStride, 0),
              DataCopyPadExtParams<T>(pad.isPad, pad.leftPadding, pad.rightPadding, value));
}
template <typename T>
void DataCopyPad(const GlobalTensor<T> &dst, const LocalTensor<T> &src, const DataCopyParams &p) {
  DataCopyPad(dst, src, DataCopyExtParams(p.blockCount, p.blockLen, p.srcStride, p.dstStride, 0));
}

#if ASC2_TWIN_NPU_ARCH == 3510
// ---- GM -> UB, N-dimensional (DataCopy（GMToUB多维数据搬运NDDMA）.md; 950 only) ----
// Loop 0 is the innermost. Along loop k the destination has loopLpSize[k]
// padding positions, loopSize[k] positions read from GM (loopSrcStride[k]
// elements apart), then loopRpSize[k] padding positions, loopDstStride[k]
// elements apart; a position is data when it is inside the sizes of every
// loop, else constantValue (or, in nearest-value mode, the nearest element
// read along each padded loop).
struct NdDmaConfig {
  static constexpr uint16_t unsetPad = 0xffff;
  bool isNearestValueMode = false;
  uint16_t loopLpSize = unsetPad; // for every loop when set (0..255)
  uint16_t loopRpSize = unsetPad;
  bool ascOptimize = false;
};
using MultiCopyConfig = NdDmaConfig;
constexpr NdDmaConfig kDefaultNdDmaConfig = {};
constexpr NdDmaConfig kDefaultMultiCopyConfig = {};

template <uint8_t dim> struct NdDmaLoopInfo {
  static_assert(dim >= 1 && dim <= 5, "NdDmaLoopInfo: dim must be between 1 and 5");
  uint64_t loopSrcStride[dim] = {0};
  uint32_t loopDstStride[dim] = {0};
  uint32_t loopSize[dim] = {0};
  uint8_t loopLpSize[dim] = {0};
  uint8_t loopRpSize[dim] = {0};
};
template <uint8_t dim> using MultiCopyLoopInfo = NdDmaLoopInfo<dim>;

template <typename T, uint8_t dim> struct NdDmaParams {
  NdDmaLoopInfo<dim> loopInfo;
  T constantValue;
};
template <typename T, uint8_t dim> using MultiCopyParams = NdDmaParams<T, dim>;

/// Invalidates the N-dimensional DMA's cache: the twin reads GM directly.
inline void NdDmaDci() {}

template <typename T, uint8_t dim, const NdDmaConfig &config = kDefaultNdDmaConfig>
void DataCopy(const LocalTensor<T> &dst, const GlobalTensor<T> &src, const NdDmaParams<T, dim> &p) {
  const char *api = "DataCopy(NdDmaParams)";
  const NdDmaLoopInfo<dim> &l = p.loopInfo;
  int64_t lp[dim], rp[dim], positions[dim], total = 1;
  for (int k = 0; k < dim; ++k) {
    if (l.loopSize[k] < 1 || l.loopSize[k] >= (1u << 20) || l.loopDstStride[k] >= (1u << 20) ||
        l.loopSrcStride[k] >= (uint64_t(1) << 40))
      asc2_twin::Fail(std::string(api) + ": loop " + std::to_string(k) +
                      " has a size outside [1, 2^20) or a stride beyond its field");
    lp[k] = config.loopLpSize == NdDmaConfig::unsetPad ? l.loopLpSize[k] : config.loopLpSize;
    rp[k] = config.loopRpSize == NdDmaConfig::unsetPad ? l.loopRpSize[k] : config.loopRpSize;
    positions[k] = lp[k] + int64_t(l.loopSize[k]) + rp[k];
    total *= positions[k];
  }
  int64_t idx[dim] = {0};
  for (int64_t n = 0; n < total; ++n) {
    bool data = true;
    int64_t d = 0, s = 0;
    for (int k = 0; k < dim; ++k) {
      int64_t i = idx[k] - lp[k];
      if (i < 0 || i >= int64_t(l.loopSize[k])) {
        data = data && config.isNearestValueMode;
        i = i < 0 ? 0 : int64_t(l.loopSize[k]) - 1;
      }
      d += idx[k] * int64_t(l.loopDstStride[k]);
      s += i * int64_t(l.loopSrcStride[k]);
    }
    dst.Store(api, d, data ? src.Load(api, s) : p.constantValue);
    for (int k = 0; k < dim && ++idx[k] == positions[k]; ++k)
      idx[k] = 0;
  }
}
#endif

// ---- Fill (formerly InitConstValue): L1 in 32-byte blocks, L0A/L0B in 512 ----
template <typename T> void Fill(const LocalTensor<T> &dst, const InitConstValueParams<T> &p) {
  using asc2_twin::Memory;
  Memory m = dst.Mem();
  if (m != Memory::L1 && m != Memory::L0A && m != Memory::L0B)
    asc2_twin::Fail("Fill: dst must be in L1, L0A or L0B");
  const int64_t block = (m == Memory::L1 ? 32 : 512) / int64_t(sizeof(T));
  const int64_t blocks = p.blockNum; // 0: a NOP, as the reference says
  for (int64_t r = 0; r < p.repeatTimes; ++r) {
    int64_t base = r * (blocks + p.dstGap) * block;
    T *d = dst.Ptr("Fill", base, blocks * block);
    std::fill(d, d + blocks * block, p.initValue);
  }
}
template <typename T> void InitConstValue(const LocalTensor<T> &dst, const InitConstValueParams<T> &p) {
  Fill(dst, p);
}

} // namespace AscendC

#endif // ASC2_TWIN_DATA_COPY_H
