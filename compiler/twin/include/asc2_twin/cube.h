//===- cube.h - LoadData, Mmad, Fixpipe and the cube fractal layouts -*- C++ -*-===//
//
// API: mirror-cann/asc-devkit@82b89a15f docs/zh/api/SIMD-API/基础API/矩阵计算（ISASI）:
// 矩阵计算的搬入/LoadData_2D.md, LoadData_2D_V2.md, LoadData_3D.md, Mmad计算/Mmad.md,
// 矩阵计算的搬出/Fixpipe（L0C到GM数据搬运）.md, 矩阵计算分形介绍/关键分形格式详解.md.
//
// Layouts (a fractal is 16 rows x C0 = 32 / sizeof(T) columns, 512 bytes):
// - Nz (L1; L0C with 16x16 float fractals): fractals column-major, rows
//   inside a fractal row-major: (i, j) -> (j / C0) * rows * C0 + i * C0 + j % C0.
// - Zz (L0A on c220): fractals row-major, inside row-major.
// - Nz is also L0A's format on c310 (Ascend 950).
// - Zn (L0B, B as K x N): fractals row-major over (k / C0, n / 16), inside
//   column-major: (k, n) -> ((k / C0) * N1 + n / 16) * 16 * C0 + (n % 16) * C0 + k % C0.
// Mmad accumulates in float (int32 for int8) in k order, each product and
// each sum rounded, starting from 0 (cmatrixInitVal), the bias table or L0C.
//
//===----------------------------------------------------------------------===//
#ifndef ASC2_TWIN_CUBE_H
#define ASC2_TWIN_CUBE_H

#include "asc2_twin/cast.h"
#include "asc2_twin/data_copy.h"

#include <cstring>
#include <vector>

enum class QuantMode_t : uint8_t {
  NoQuant = 0,
  F322F16,
  F322BF16,
  DEQF16,
  VDEQF16,
  QF322B8_PRE,
  VQF322B8_PRE,
  REQ8,
  VREQ8,
};

namespace AscendC {

/// SetHF32Mode's argument (kernel_operator_mm_intf.h: ENABLE first).
enum class HF32Mode { ENABLE, DISABLE };

struct LoadData2DParams {
  LoadData2DParams() {}
  LoadData2DParams(uint16_t startIndexIn, uint8_t repeatTimesIn, uint16_t srcStrideIn, uint8_t sidIn,
                   uint16_t dstGapIn, bool ifTransposeIn, uint8_t addrModeIn)
      : startIndex(startIndexIn), dstGap(dstGapIn), srcStride(srcStrideIn), ifTranspose(ifTransposeIn),
        repeatTimes(repeatTimesIn), sid(sidIn), addrMode(addrModeIn) {}
  uint16_t startIndex = 0;
  uint16_t dstGap = 0;
  uint16_t srcStride = 0;
  bool ifTranspose = 0;
  uint8_t repeatTimes = 0;
  uint8_t sid = 0;
  uint8_t addrMode = 0;
};

struct LoadData2DParamsV2 {
  LoadData2DParamsV2() {}
  LoadData2DParamsV2(uint32_t mStartPositionIn, uint32_t kStartPositionIn, uint16_t mStepIn, uint16_t kStepIn,
                     int32_t srcStrideIn, uint16_t dstStrideIn, bool ifTransposeIn, uint8_t sidIn)
      : mStartPosition(mStartPositionIn), kStartPosition(kStartPositionIn), mStep(mStepIn), kStep(kStepIn),
        srcStride(srcStrideIn), dstStride(dstStrideIn), ifTranspose(ifTransposeIn), sid(sidIn) {}
  uint32_t mStartPosition = 0;
  uint32_t kStartPosition = 0;
  uint16_t mStep = 0;
  uint16_t kStep = 0;
  int32_t srcStride = 0;
  uint16_t dstStride = 0;
  bool ifTranspose = false;
  uint8_t sid = 0;
};

/// LoadDataWithTranspose's parameters (kernel_struct_mm.h field order).
struct LoadData2dTransposeParams {
  LoadData2dTransposeParams() {}
  LoadData2dTransposeParams(uint16_t startIndexIn, uint8_t repeatTimesIn, uint16_t srcStrideIn, uint16_t dstGapIn,
                            uint16_t dstFracGapIn, uint8_t addrModeIn = 0)
      : startIndex(startIndexIn), repeatTimes(repeatTimesIn), srcStride(srcStrideIn), dstGap(dstGapIn),
        dstFracGap(dstFracGapIn), addrMode(addrModeIn) {}
  uint16_t startIndex = 0;
  uint8_t repeatTimes = 0;
  uint16_t srcStride = 0;
  uint16_t dstGap = 0;
  uint16_t dstFracGap = 0;
  uint8_t addrMode = 0;
};

/// LoadData3DParamsV2 (kernel_struct_mm.h field names and defaults) and
/// the template switch of the interface: with the default config the call
/// sets the feature-map and padding registers from the struct itself.
struct IsResetLoad3dConfig {
  bool isSetFMatrix = true;
  bool isSetPadding = true;
};
inline constexpr IsResetLoad3dConfig IS_RESER_LOAD3D_DEFAULT_CONFIG = {true, true};
template <typename T> struct LoadData3DParamsV2 {
  uint8_t padList[4] = {0, 0, 0, 0};
  uint16_t l1H = 0;
  uint16_t l1W = 0;
  uint16_t channelSize = 0;
  uint16_t kExtension = 0;
  uint16_t mExtension = 0;
  uint16_t kStartPt = 0;
  uint16_t mStartPt = 0;
  uint8_t strideW = 1;
  uint8_t strideH = 1;
  uint8_t filterW = 1;
  uint8_t filterH = 1;
  uint8_t dilationFilterW = 1;
  uint8_t dilationFilterH = 1;
  bool enTranspose = false;
  bool enSmallK = false;
  T padValue = 0;
  bool filterSizeW = false;
  bool filterSizeH = false;
  bool fMatrixCtrl = false;
};

struct MmadParams {
  MmadParams() {}
  MmadParams(uint16_t mIn, uint16_t nIn, uint16_t kIn, bool isBiasIn, int32_t fmOffsetIn, bool enSsparseIn,
             bool enWinogradAIn, bool enWinogradBIn)
      : m(mIn), n(nIn), k(kIn), isBias(isBiasIn), fmOffset(fmOffsetIn), enSsparse(enSsparseIn),
        enWinogradA(enWinogradAIn), enWinogradB(enWinogradBIn) {}
  MmadParams(uint16_t mIn, uint16_t nIn, uint16_t kIn, uint8_t unitFlagIn, bool cmatrixSourceIn,
             bool cmatrixInitValIn)
      : m(mIn), n(nIn), k(kIn), unitFlag(unitFlagIn), cmatrixSource(cmatrixSourceIn),
        cmatrixInitVal(cmatrixInitValIn) {}
  uint16_t m = 0;
  uint16_t n = 0;
  uint16_t k = 0;
  bool isBias = false;
  int32_t fmOffset = 0;
  bool enSsparse = false;
  bool enWinogradA = false;
  bool enWinogradB = false;
  uint8_t unitFlag = 0;
  bool kDirectionAlign = false;
  bool cmatrixSource = false;
  bool cmatrixInitVal = true;
  bool disableGemv = false;
};

enum class CO2Layout : uint8_t { NZ = 0, ROW_MAJOR, COLUMN_MAJOR };
struct FixpipeConfig {
  CO2Layout format;
  bool isToUB = false;
};
inline constexpr FixpipeConfig CFG_NZ = {CO2Layout::NZ, false};
inline constexpr FixpipeConfig CFG_ROW_MAJOR = {CO2Layout::ROW_MAJOR, false};
inline constexpr FixpipeConfig CFG_COLUMN_MAJOR = {CO2Layout::COLUMN_MAJOR, false};

/// The L0C -> GM/L1 parameters (the twin reads the fields both archs share).
struct FixpipeParamsV220 {
  FixpipeParamsV220() {}
  FixpipeParamsV220(uint16_t nSizeIn, uint16_t mSizeIn, uint16_t srcStrideIn, uint32_t dstStrideIn, bool reluEnIn)
      : nSize(nSizeIn), mSize(mSizeIn), srcStride(srcStrideIn), dstStride(dstStrideIn), reluEn(reluEnIn) {}
  uint16_t nSize = 0;
  uint16_t mSize = 0;
  uint16_t srcStride = 0;
  uint32_t dstStride = 0;
  QuantMode_t quantPre = QuantMode_t::NoQuant;
  uint64_t deqScalar = 0;
  uint16_t ndNum = 1;
  uint16_t srcNdStride = 0;
  uint16_t dstNdStride = 0;
  bool reluEn = false;
  uint8_t unitFlag = 0;
  bool isChannelSplit = false;
};
enum class ReluMode : uint8_t { NO_RELU = 0, NORMAL_RELU, SCALAR_RELU, VECTOR_RELU };
enum class ClipReluMode : uint8_t { NOCLIP_RELU = 0, SCALAR_CLIP_RELU };
/// Several ND matrices in one fixpipe (ndNum, their strides); the twin moves one.
struct Nz2NdParams {
  uint16_t ndNum = 1;
  uint16_t srcNdStride = 0;
  uint16_t dstNdStride = 0;
};
template <CO2Layout format = CO2Layout::ROW_MAJOR> struct FixpipeParamsArch3510 {
  ReluMode preReluMode = ReluMode::NO_RELU;
  ClipReluMode preClipReluMode = ClipReluMode::NOCLIP_RELU;
  uint64_t reluScalar = 0;
  uint64_t vectorRelu = 0;
  uint16_t nSize = 0;
  uint16_t mSize = 0;
  uint16_t srcStride = 0;
  uint32_t dstStride = 0;
  QuantMode_t quantPre = QuantMode_t::NoQuant;
  uint64_t deqScalar = 0;
  bool reluEn = false;
  uint8_t unitFlag = 0;
  uint8_t dualDstCtl = 0;
  bool subBlockId = false;
  Nz2NdParams params; // the headers' TransformParams<format>::PARAMS (ND outputs)
  bool isChannelSplit = false;
};

} // namespace AscendC

namespace asc2_twin {

template <typename T> constexpr int64_t C0() { return 32 / int64_t(sizeof(T)); }
inline int64_t CeilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// Element offsets of the fractal formats (the file comment).
template <typename T> int64_t NzOffset(int64_t i, int64_t j, int64_t rows) {
  return (j / C0<T>()) * rows * C0<T>() + i * C0<T>() + j % C0<T>();
}
template <typename T> int64_t ZzOffset(int64_t i, int64_t j, int64_t cols) {
  return ((i / 16) * CeilDiv(cols, C0<T>()) + j / C0<T>()) * 16 * C0<T>() + (i % 16) * C0<T>() + j % C0<T>();
}
template <typename T> int64_t ZnOffset(int64_t k, int64_t n, int64_t cols) {
  return ((k / C0<T>()) * CeilDiv(cols, 16) + n / 16) * 16 * C0<T>() + (n % 16) * C0<T>() + k % C0<T>();
}

/// Copies (optionally transposing) one 512-byte fractal.
template <typename T>
void MoveFractal(const char *api, const AscendC::LocalTensor<T> &dst, int64_t dstFractal,
                 const AscendC::LocalTensor<T> &src, int64_t srcFractal, bool transpose) {
  constexpr int64_t e = 512 / int64_t(sizeof(T));
  const T *s = src.Ptr(api, srcFractal * e, e);
  std::vector<T> tmp(s, s + e); // src and dst may be the same memory
  T *d = dst.Ptr(api, dstFractal * e, e);
  if (!transpose) {
    std::copy(tmp.begin(), tmp.end(), d);
    return;
  }
  if constexpr (sizeof(T) != 2)
    Fail(std::string(api) + ": ifTranspose with " + std::to_string(sizeof(T)) +
         "-byte elements; the API transposes only b16 fractals (LoadData_2D.md)");
  for (int64_t r = 0; r < 16; ++r)
    for (int64_t c = 0; c < 16; ++c)
      d[c * 16 + r] = tmp[size_t(r * 16 + c)];
}

/// The 16x16 square of 32-bit elements made of two 16x8 fractals side by
/// side (src fractals f0: columns 0..7, f1: columns 8..15), transposed and
/// split again into two 16x8 fractals, d0 = columns 0..7 of the transpose,
/// d1 = columns 8..15: LoadData2DParamsV2's b32 ifTranspose (LoadData_2D_V2.md;
/// LoadDataWithTranspose.md "分形转置" pairs float fractals the same way).
template <typename T>
void TransposeB32Square(const char *api, const AscendC::LocalTensor<T> &dst, int64_t d0, int64_t d1,
                        const AscendC::LocalTensor<T> &src, int64_t f0, int64_t f1) {
  static_assert(sizeof(T) == 4, "b32 squares");
  const T *s0 = src.Ptr(api, f0 * 128, 128);
  const T *s1 = src.Ptr(api, f1 * 128, 128);
  T sq[16][16];
  for (int64_t i = 0; i < 16; ++i)
    for (int64_t j = 0; j < 8; ++j) {
      sq[i][j] = s0[i * 8 + j];
      sq[i][8 + j] = s1[i * 8 + j];
    }
  T *o0 = dst.Ptr(api, d0 * 128, 128);
  T *o1 = dst.Ptr(api, d1 * 128, 128);
  for (int64_t i = 0; i < 16; ++i)
    for (int64_t j = 0; j < 8; ++j) {
      o0[i * 8 + j] = sq[j][i];
      o1[i * 8 + j] = sq[8 + j][i];
    }
}

/// float32 rounded to HF32 (11 explicit mantissa bits), to nearest even
/// (HF32TransMode::NEAREST_EVEN, the mode SetHF32Mode leaves); NaN and
/// infinity unchanged.
inline float RoundToHf32(float x) {
  uint32_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  if ((bits & 0x7f800000u) == 0x7f800000u)
    return x;
  const uint32_t keepFrom = 1u << 12; // the lowest kept mantissa bit
  const uint32_t rest = bits & (keepFrom - 1);
  bits &= ~(keepFrom - 1);
  if (rest > keepFrom / 2 || (rest == keepFrom / 2 && (bits & keepFrom)))
    bits += keepFrom; // a carry into the exponent is the correct rounding
  std::memcpy(&x, &bits, sizeof bits);
  return x;
}

template <typename T> T FromAccumulator(float v, QuantMode_t q, bool relu) {
  if (relu && v < 0)
    v = 0;
  switch (q) {
  case QuantMode_t::NoQuant:
  case QuantMode_t::F322F16:
  case QuantMode_t::F322BF16:
    return CastValue<T>(v, AscendC::RoundMode::CAST_RINT);
  default:
    Fail("Fixpipe: quantPre mode " + std::to_string(int(q)) + " is not supported by the twin");
  }
}

/// L0C (Nz, 16x16 fractals of float/int32) -> row-major rows of `dst`.
template <typename U, typename Store>
void FixpipeRows(const AscendC::LocalTensor<U> &src, int64_t m, int64_t n, int64_t srcStride, Store store) {
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j)
      store(i, j, src.Load("Fixpipe", (j / 16) * srcStride * 16 + i * 16 + j % 16));
}

} // namespace asc2_twin

namespace AscendC {

// ---- L1 -> L0A/L0B ----
template <typename T>
void LoadData(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LoadData2DParams &p) {
  for (int64_t i = 0; i < p.repeatTimes; ++i)
    asc2_twin::MoveFractal("LoadData", dst, i * (1 + int64_t(p.dstGap)), src,
                           int64_t(p.startIndex) + i * int64_t(p.srcStride), p.ifTranspose);
}

/// c310: an mStep x kStep window of the source's fractals, (mi, ki) at
/// ki * srcStride + mi; lands at (ki - kStart) * dstStride + (mi - mStart),
/// or with ifTranspose at (mi - mStart) * dstStride + (ki - kStart), each
/// fractal transposed.
template <typename T>
void LoadData(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LoadData2DParamsV2 &p) {
  if constexpr (sizeof(T) == 4) {
    if (p.ifTranspose) {
      // b32 (LoadData_2D_V2.md: kStep a multiple of 2): the fractals at K
      // positions 2j and 2j + 1 of M position mi form one 16x16 square; its
      // transpose is the destination's fractals at K positions 2mi, 2mi + 1
      // (dstStride apart) of M position j.
      if (p.kStep % 2)
        asc2_twin::Fail("LoadData(V2): ifTranspose with 32-bit elements needs an even kStep, got " +
                        std::to_string(p.kStep));
      for (int64_t j = 0; j < p.kStep / 2; ++j)
        for (int64_t mi = 0; mi < p.mStep; ++mi) {
          int64_t m = int64_t(p.mStartPosition) + mi, k = int64_t(p.kStartPosition) + 2 * j;
          asc2_twin::TransposeB32Square("LoadData(V2)", dst, 2 * mi * p.dstStride + j,
                                        (2 * mi + 1) * p.dstStride + j, src, k * p.srcStride + m,
                                        (k + 1) * p.srcStride + m);
        }
      return;
    }
  }
  for (int64_t ki = 0; ki < p.kStep; ++ki)
    for (int64_t mi = 0; mi < p.mStep; ++mi) {
      int64_t s = (int64_t(p.kStartPosition) + ki) * p.srcStride + int64_t(p.mStartPosition) + mi;
      int64_t d = p.ifTranspose ? mi * p.dstStride + ki : ki * p.dstStride + mi;
      asc2_twin::MoveFractal("LoadData(V2)", dst, d, src, s, p.ifTranspose);
    }
}

/// LoadData3DParamsV2 (LoadData_3D.md), the form the emitter uses: a 1x1
/// filter with stride and dilation 1 and no padding, where img2col of the
/// NC1HWC0 feature map (l1H * l1W positions, channelSize channels) is the
/// matrix of the NZ L1 tile. The mExtension x kExtension window at
/// (mStartPt, kStartPt) lands in L0B as ZN, or in L0A (c220) as ZZ, of the
/// window or (enTranspose) of its transpose. Any other filter, padding,
/// the right feature map or c310 is a twin error, never a guess.
template <typename T, const IsResetLoad3dConfig &config = IS_RESER_LOAD3D_DEFAULT_CONFIG, typename U>
void LoadData(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LoadData3DParamsV2<U> &p) {
  static_assert(std::is_same_v<T, U>, "LoadData3DParamsV2<U>: U must be the tensors' element type");
  const char *api = "LoadData(LoadData3DParamsV2)";
#if ASC2_TWIN_NPU_ARCH == 3510
  asc2_twin::Fail(std::string(api) + ": the twin implements it for c220 (Atlas A2/A3) only");
#endif
  if (!config.isSetFMatrix || !config.isSetPadding)
    asc2_twin::Fail(std::string(api) + ": the twin supports only IS_RESER_LOAD3D_DEFAULT_CONFIG "
                                       "(feature map and padding set by the call)");
  if (p.strideW != 1 || p.strideH != 1 || p.filterW != 1 || p.filterH != 1 || p.dilationFilterW != 1 ||
      p.dilationFilterH != 1 || p.filterSizeW || p.filterSizeH || p.enSmallK || p.fMatrixCtrl ||
      p.padList[0] || p.padList[1] || p.padList[2] || p.padList[3])
    asc2_twin::Fail(std::string(api) + ": the twin implements the 1x1 filter (stride, dilation 1, no "
                                       "padding, left feature map, no small-k) only");
  // A zero extent or size makes the instruction a NOP (LoadData_3D.md).
  if (!p.l1H || !p.l1W || !p.channelSize || !p.kExtension || !p.mExtension)
    return;
  const bool toL0b = dst.GetPosition() == TPosition::B2;
  if (!toL0b && dst.GetPosition() != TPosition::A2)
    asc2_twin::Fail(std::string(api) + ": the destination must be L0A (A2) or L0B (B2)");
  if (toL0b && sizeof(T) == 1)
    asc2_twin::Fail(std::string(api) + ": L1 -> L0B carries no 8-bit elements");
  constexpr int64_t c0 = asc2_twin::C0<T>();
  if (p.kStartPt % c0)
    asc2_twin::Fail(std::string(api) + ": kStartPt " + std::to_string(p.kStartPt) + " is not a multiple of " +
                    std::to_string(c0));
  const int64_t positions = int64_t(p.l1H) * p.l1W, m = p.mExtension, k = p.kExtension;
  if (p.mStartPt + m > positions || p.kStartPt + k > p.channelSize)
    asc2_twin::Fail(std::string(api) + ": the " + std::to_string(m) + " x " + std::to_string(k) +
                    " window at (" + std::to_string(p.mStartPt) + ", " + std::to_string(p.kStartPt) +
                    ") leaves the " + std::to_string(positions) + " x " + std::to_string(p.channelSize) +
                    " feature map");
  std::vector<T> window(size_t(m * k));
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < k; ++j)
      window[size_t(i * k + j)] =
          src.Load(api, asc2_twin::NzOffset<T>(p.mStartPt + i, p.kStartPt + j, positions));
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < k; ++j) {
      int64_t at = toL0b            ? asc2_twin::ZnOffset<T>(i, j, k)
                   : p.enTranspose ? asc2_twin::ZzOffset<T>(j, i, m)
                                   : asc2_twin::ZzOffset<T>(i, j, k);
      dst.Store(api, at, window[size_t(i * k + j)]);
    }
}

/// LoadDataWithTranspose (LoadDataWithTranspose.md and its pseudocode
/// load_data_with_transpose.py), the b8 form the emitter uses for int8 B on
/// c220: repeat r reads the 1 KiB square startIndex + r * srcStride (two
/// consecutive 16 x 32 fractals: a 32 x 32 matrix, row-major) and writes
/// its transpose as two 16 x 32 fractals, rows 0..15 at fractal
/// r * (dstGap + 1) and rows 16..31 dstFracGap + 1 fractals after it.
template <typename T>
void LoadDataWithTranspose(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LoadData2dTransposeParams &p) {
  const char *api = "LoadDataWithTranspose";
  if constexpr (sizeof(T) != 1)
    asc2_twin::Fail(std::string(api) + ": the twin implements the b8 form only, not " +
                    std::to_string(sizeof(T)) + "-byte elements");
  if (p.addrMode != 0)
    asc2_twin::Fail(std::string(api) + ": addrMode 1 (decreasing) is not supported by the twin");
  for (int64_t r = 0; r < p.repeatTimes; ++r) {
    const int64_t square = (int64_t(p.startIndex) + r * int64_t(p.srcStride)) * 1024;
    std::vector<T> s(1024);
    for (int64_t i = 0; i < 1024; ++i)
      s[size_t(i)] = src.Load(api, square + i);
    for (int64_t half = 0; half < 2; ++half) {
      const int64_t d = (r * (int64_t(p.dstGap) + 1) + half * (int64_t(p.dstFracGap) + 1)) * 512;
      for (int64_t k = 0; k < 16; ++k)     // row k of the fractal: column 16 * half + k of the square
        for (int64_t t = 0; t < 32; ++t)
          dst.Store(api, d + k * 32 + t, s[size_t(t * 32 + 16 * half + k)]);
    }
  }
}

// ---- Mmad ----
inline void SetHF32Mode(HF32Mode mode) { asc2_twin::CurrentCore().cube.hf32 = mode == HF32Mode::ENABLE; }

namespace detail {
template <typename C, typename A, typename B>
void MmadImpl(const LocalTensor<C> &c, const LocalTensor<A> &a, const LocalTensor<B> &b, const MmadParams &p,
              const LocalTensor<C> *bias) {
  using Acc = std::conditional_t<std::is_integral_v<C>, int32_t, float>;
  using CA = asc2_twin::ComputeType<A>;
  using CB = asc2_twin::ComputeType<B>;
  const bool hf32 = asc2_twin::CurrentCore().cube.hf32 && std::is_same_v<A, float>;
  auto operand = [hf32](auto v) -> decltype(v) {
    if constexpr (std::is_same_v<decltype(v), float>)
      return hf32 ? asc2_twin::RoundToHf32(v) : v;
    else
      return v;
  };
  const int64_t m = p.m, n = p.n, k = p.k, mp = asc2_twin::CeilDiv(m, 16) * 16;
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      int64_t co = (j / 16) * mp * 16 + i * 16 + j % 16;
      // Mmad.md: cmatrixInitVal true starts C from 0; false from the bias
      // table (cmatrixSource: the bias overload) or from L0C (accumulate).
      Acc acc = 0;
      if (!p.cmatrixInitVal)
        acc = bias && p.cmatrixSource ? Acc(bias->Load("Mmad", j)) : Acc(c.Load("Mmad", co));
      for (int64_t kk = 0; kk < k; ++kk) {
#if ASC2_TWIN_NPU_ARCH == 3510
        int64_t ao = asc2_twin::NzOffset<A>(i, kk, mp);
#else
        int64_t ao = asc2_twin::ZzOffset<A>(i, kk, k);
#endif
        Acc prod = Acc(Acc(operand(CA(a.Load("Mmad", ao)))) *
                       Acc(operand(CB(b.Load("Mmad", asc2_twin::ZnOffset<B>(kk, j, n))))));
        acc = Acc(acc + prod);
      }
      c.Store("Mmad", co, C(acc));
    }
}
} // namespace detail

template <typename T, typename U, typename S>
void Mmad(const LocalTensor<T> &dst, const LocalTensor<U> &fm, const LocalTensor<S> &filter, const MmadParams &p) {
  detail::MmadImpl(dst, fm, filter, p, static_cast<const LocalTensor<T> *>(nullptr));
}
template <typename T, typename U, typename S, typename V>
void Mmad(const LocalTensor<T> &dst, const LocalTensor<U> &fm, const LocalTensor<S> &filter,
          const LocalTensor<V> &bias, const MmadParams &p) {
  static_assert(std::is_same_v<T, V>, "Mmad: the bias has the accumulator's type in the twin");
  MmadParams q = p;
  q.cmatrixSource = true;
  detail::MmadImpl(dst, fm, filter, q, &bias);
}

// ---- Fixpipe: L0C -> GM (row major) ----
namespace detail {
template <typename T, typename U, typename P>
void FixpipeToGm(const GlobalTensor<T> &dst, const LocalTensor<U> &src, const P &p, CO2Layout format) {
  if (format != CO2Layout::ROW_MAJOR)
    asc2_twin::Fail("Fixpipe: only CFG_ROW_MAJOR is supported by the twin");
  asc2_twin::FixpipeRows(src, p.mSize, p.nSize, p.srcStride, [&](int64_t i, int64_t j, U v) {
    asc2_twin::StoreGlobal("Fixpipe", dst, i * int64_t(p.dstStride) + j,
                           asc2_twin::FromAccumulator<T>(float(v), p.quantPre, p.reluEn));
  });
}
template <typename T, typename U, typename P>
void FixpipeToLocal(const LocalTensor<T> &dst, const LocalTensor<U> &src, const P &p, CO2Layout format) {
  if (format == CO2Layout::NZ) {
    // L0C -> L1 as NZ of the output type (a result staged for the next
    // matmul): element (i, j) at (j / C0) * stride + i * C0 + j % C0, the
    // column blocks dstStride apart: in 32-byte blocks on c220, in elements
    // on c310 (FixpipeParamsV220 / FixpipeParamsArch3510 pages).
    constexpr int64_t c0 = asc2_twin::C0<T>();
#if ASC2_TWIN_NPU_ARCH == 3510
    const int64_t stride = int64_t(p.dstStride);
#else
    const int64_t stride = int64_t(p.dstStride) * c0;
#endif
    asc2_twin::FixpipeRows(src, p.mSize, p.nSize, p.srcStride, [&](int64_t i, int64_t j, U v) {
      dst.Store("Fixpipe", (j / c0) * stride + i * c0 + j % c0,
                asc2_twin::FromAccumulator<T>(float(v), p.quantPre, p.reluEn));
    });
    return;
  }
  if (format != CO2Layout::ROW_MAJOR)
    asc2_twin::Fail("Fixpipe: CFG_COLUMN_MAJOR is not supported by the twin");
  asc2_twin::FixpipeRows(src, p.mSize, p.nSize, p.srcStride, [&](int64_t i, int64_t j, U v) {
    dst.Store("Fixpipe", i * int64_t(p.dstStride) + j, asc2_twin::FromAccumulator<T>(float(v), p.quantPre, p.reluEn));
  });
}
/// Ascend950: the AIC's fixpipe writes ND rows into the UB of a vector core of
/// its block (Fixpipe（L0C到UB数据搬运）.md): with dualDstCtl 1 the first half
/// of the mSize rows to AIV 0 and the second to AIV 1, each from dst's
/// address; otherwise all of them to the AIV subBlockId names.
template <typename T, typename U, typename P>
void FixpipeToUb(const LocalTensor<T> &dst, const LocalTensor<U> &src, const P &p, CO2Layout format) {
  const char *api = "Fixpipe(L0C -> UB)";
  asc2_twin::Core &c = asc2_twin::CurrentCore();
  if (c.kind != asc2_twin::CoreKind::AIC)
    asc2_twin::Fail(std::string(api) + " runs on the AIC");
  if (format != CO2Layout::ROW_MAJOR)
    asc2_twin::Fail(std::string(api) + ": the twin moves ROW_MAJOR rows only");
  if (dst.Mem() != asc2_twin::Memory::UB)
    asc2_twin::Fail(std::string(api) + ": the destination is not a UB tensor");
  if (p.dualDstCtl > 1)
    asc2_twin::Fail(std::string(api) + ": dualDstCtl " + std::to_string(p.dualDstCtl) +
         " (split along N) is not supported by the twin; 1 splits M");
  const int64_t m = p.mSize, parts = p.dualDstCtl ? 2 : 1;
  if (m % parts)
    asc2_twin::Fail(std::string(api) + ": dualDstCtl 1 halves an even mSize, not " + std::to_string(m));
  const int64_t rows = m / parts;
  for (int64_t part = 0; part < parts; ++part) {
    asc2_twin::Core *aiv = c.group[1 + (parts == 2 ? part : int64_t(p.subBlockId))];
    if (!aiv)
      asc2_twin::Fail(std::string(api) + ": the block has no such vector core");
    // This part's rows start part * rows rows into the NZ tile (16 elements a row).
    asc2_twin::FixpipeRows(src[uint32_t(part * rows * 16)], rows, p.nSize, p.srcStride, [&](int64_t r, int64_t j, U v) {
      const int64_t at = int64_t(dst.ByteAddr()) + (r * int64_t(p.dstStride) + j) * int64_t(sizeof(T));
      const T out = asc2_twin::FromAccumulator<T>(float(v), p.quantPre, p.reluEn);
      std::memcpy(asc2_twin::CheckLocalOf(*aiv, api, asc2_twin::Memory::UB, at, sizeof(T)), &out, sizeof(T));
    });
  }
}
} // namespace detail

template <typename T, typename U, const FixpipeConfig &config = CFG_ROW_MAJOR>
void Fixpipe(const GlobalTensor<T> &dst, const LocalTensor<U> &src, const FixpipeParamsV220 &p) {
  detail::FixpipeToGm(dst, src, p, config.format);
}
template <typename T, typename U, const FixpipeConfig &config = CFG_ROW_MAJOR>
void Fixpipe(const LocalTensor<T> &dst, const LocalTensor<U> &src, const FixpipeParamsV220 &p) {
  detail::FixpipeToLocal(dst, src, p, config.format);
}
template <typename T, typename U, const FixpipeConfig &config = CFG_ROW_MAJOR>
void Fixpipe(const GlobalTensor<T> &dst, const LocalTensor<U> &src, const FixpipeParamsArch3510<config.format> &p) {
  detail::FixpipeToGm(dst, src, p, config.format);
}
template <typename T, typename U, const FixpipeConfig &config = CFG_ROW_MAJOR>
void Fixpipe(const LocalTensor<T> &dst, const LocalTensor<U> &src, const FixpipeParamsArch3510<config.format> &p) {
  if constexpr (config.isToUB)
    detail::FixpipeToUb(dst, src, p, config.format);
  else
    detail::FixpipeToLocal(dst, src, p, config.format);
}

} // namespace AscendC

#endif // ASC2_TWIN_CUBE_H
