//===- TwinSemanticsTest.cpp - The CPU twin against hand-computed results -===//
//
// Each kernel here runs through asc2_twin::Launch and checks one documented
// behaviour of the Ascend C API as the twin implements it (level-0 masks,
// strides and repeats, DataCopyPad padding, bit-mask compare/select,
// reductions, casts, the cube fractal path, sync checking).
//
//===----------------------------------------------------------------------===//
#include "asc2_twin/launch.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <numeric>
#include <vector>

using namespace AscendC;

namespace {

std::vector<float> Iota(int n, float start = 0) {
  std::vector<float> v(static_cast<size_t>(n));
  std::iota(v.begin(), v.end(), start);
  return v;
}

// ---- level-0 binary: continuous mask, repeats, block and repeat strides ----
void AddLevel0(GM_ADDR x, GM_ADDR out) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  GlobalTensor<float> gx, go;
  gx.SetGlobalBuffer((__gm__ float *)x);
  go.SetGlobalBuffer((__gm__ float *)out);
  LocalTensor<float> a(TPosition::VECCALC, 0, 512), d(TPosition::VECCALC, 4096, 512);
  DataCopy(a, gx, 512);
  Duplicate(d, -1.0f, 512);
  // 2 repeats, first 20 elements of each; dst blocks 2 apart (stride 2),
  // src repeats 16 blocks apart; src1 = src0.
  Add(d, a, a, uint64_t(20), 2, BinaryRepeatParams(2, 1, 1, 16, 16, 16));
  DataCopy(go, d, 512);
}

TEST(TwinVector, Level0ContinuousMaskWithStrides) {
  std::vector<float> x = Iota(512), out(512, 0);
  asc2_twin::Launch(1, AddLevel0, (GM_ADDR)x.data(), (GM_ADDR)out.data());
  std::vector<float> want(512, -1.0f);
  for (int r = 0; r < 2; ++r)
    for (int e = 0; e < 20; ++e) {
      int src = r * 16 * 8 + (e / 8) * 8 + e % 8;
      int dst = r * 16 * 8 + (e / 8) * 2 * 8 + e % 8;
      want[size_t(dst)] = 2 * x[size_t(src)];
    }
  EXPECT_EQ(out, want);
}

// ---- the reduction's fold layout: one block of each of 3 rows per repeat ----
void AddRowBlocks(GM_ADDR x, GM_ADDR out) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  GlobalTensor<float> gx, go;
  gx.SetGlobalBuffer((__gm__ float *)x);
  go.SetGlobalBuffer((__gm__ float *)out);
  LocalTensor<float> a(TPosition::VECCALC, 0, 96), d(TPosition::VECCALC, 1024, 64);
  DataCopy(a, gx, 96);
  Duplicate(d, -1.0f, 64);
  // Rows of 32 (4 blocks) in a, of 16 (2 blocks) in d: block strides = the
  // row strides, repeat stride 1 block; 24 lanes = rows 0..2, 2 repeats.
  Add(d, a, a[16], uint64_t(24), 2, BinaryRepeatParams(2, 4, 4, 1, 1, 1));
  DataCopy(go, d, 64);
}

TEST(TwinVector, Level0BlocksOfSeveralRows) {
  std::vector<float> x = Iota(96), out(64, 0);
  asc2_twin::Launch(1, AddRowBlocks, (GM_ADDR)x.data(), (GM_ADDR)out.data());
  std::vector<float> want(64, -1.0f);
  for (int r = 0; r < 3; ++r)
    for (int i = 0; i < 16; ++i)
      want[size_t(r * 16 + i)] = x[size_t(r * 32 + i)] + x[size_t(r * 32 + 16 + i)];
  EXPECT_EQ(out, want);
}

// ---- level-0 bit mask on half: mask[1] covers elements 64..127 ----
void MulsBitMask(GM_ADDR out) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  GlobalTensor<half> go;
  go.SetGlobalBuffer((__gm__ half *)out);
  LocalTensor<half> a(TPosition::VECCALC, 0, 128), d(TPosition::VECCALC, 256, 128);
  for (int i = 0; i < 128; ++i)
    a.SetValue(i, half(float(i)));
  Duplicate(d, half(0.0f), 128);
  uint64_t mask[2] = {0x5ull, 0x1ull << 3}; // elements 0, 2 and 64 + 3
  Muls(d, a, half(0.5f), mask, 1, UnaryRepeatParams());
  DataCopy(go, d, 128);
}

TEST(TwinVector, Level0BitMaskHalf) {
  std::vector<uint16_t> out(128, 0xffff);
  asc2_twin::Launch(1, MulsBitMask, (GM_ADDR)out.data());
  for (int i = 0; i < 128; ++i) {
    float want = (i == 0 || i == 2 || i == 67) ? i * 0.5f : 0.0f;
    EXPECT_EQ(asc2_twin::HalfBitsToFloat(out[size_t(i)]), want) << i;
  }
}

// ---- counter mode: the mask is the element count, repeatTime ignored ----
void AddsCounter(GM_ADDR out) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  GlobalTensor<float> go;
  go.SetGlobalBuffer((__gm__ float *)out);
  LocalTensor<float> d(TPosition::VECCALC, 0, 256);
  Duplicate(d, 0.0f, 256);
  SetMaskCount();
  uint64_t mask[2] = {130, 0};
  Adds(d, d, 1.0f, mask, 1, UnaryRepeatParams());
  SetMaskNorm();
  DataCopy(go, d, 256);
}

TEST(TwinVector, CounterModeCountsElements) {
  std::vector<float> out(256, -1);
  asc2_twin::Launch(1, AddsCounter, (GM_ADDR)out.data());
  for (int i = 0; i < 256; ++i)
    EXPECT_EQ(out[size_t(i)], i < 130 ? 1.0f : 0.0f) << i;
}

// ---- DataCopyPad: padding, dummy and strides ----
void PadIn(GM_ADDR x, GM_ADDR out) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  GlobalTensor<float> gx, go;
  gx.SetGlobalBuffer((__gm__ float *)x);
  go.SetGlobalBuffer((__gm__ float *)out);
  LocalTensor<float> u(TPosition::VECIN, 0, 64);
  Duplicate(u, 7.0f, 64);
  // Two blocks of 5 floats, 3 floats apart in GM; 1 left + 2 right pads of
  // -1 make 8 floats (32 bytes) per row; rows 1 block apart in UB.
  DataCopyPad(u, gx, DataCopyExtParams(2, 5 * sizeof(float), 3 * sizeof(float), 1, 0),
              DataCopyPadExtParams<float>(true, 1, 2, -1.0f));
  // No padding: 3 floats, then dummy copies of the block's first element.
  DataCopyPad(u[32], gx[20], DataCopyExtParams(1, 3 * sizeof(float), 0, 0, 0),
              DataCopyPadExtParams<float>(false, 0, 0, 0.0f));
  DataCopy(go, u, 64);
}

TEST(TwinDataCopy, PadLeftRightDummyAndStrides) {
  std::vector<float> x = Iota(32, 100), out(64, 0);
  asc2_twin::Launch(1, PadIn, (GM_ADDR)x.data(), (GM_ADDR)out.data());
  std::vector<float> want(64, 7.0f);
  float row0[8] = {-1, 100, 101, 102, 103, 104, -1, -1};
  float row1[8] = {-1, 108, 109, 110, 111, 112, -1, -1};
  for (int i = 0; i < 8; ++i) {
    want[size_t(i)] = row0[i];
    want[size_t(16 + i)] = row1[i]; // 8 elements of row 0 + 1 gap block
  }
  float row2[8] = {120, 121, 122, 120, 120, 120, 120, 120};
  for (int i = 0; i < 8; ++i)
    want[size_t(32 + i)] = row2[i];
  EXPECT_EQ(out, want);
}

void PadOut(GM_ADDR x, GM_ADDR out) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  GlobalTensor<float> gx, go;
  gx.SetGlobalBuffer((__gm__ float *)x);
  go.SetGlobalBuffer((__gm__ float *)out);
  LocalTensor<float> u(TPosition::VECOUT, 0, 64);
  DataCopy(u, gx, 64);
  // 3 rows of 5 floats; UB rows are 8 floats plus 1 gap block; GM rows 2 apart.
  DataCopyPad(go, u, DataCopyExtParams(3, 5 * sizeof(float), 1, 2 * sizeof(float), 0));
}

TEST(TwinDataCopy, PadOutStrides) {
  std::vector<float> x = Iota(64), out(24, -5);
  asc2_twin::Launch(1, PadOut, (GM_ADDR)x.data(), (GM_ADDR)out.data());
  std::vector<float> want(24, -5);
  for (int r = 0; r < 3; ++r)
    for (int i = 0; i < 5; ++i)
      want[size_t(r * 7 + i)] = x[size_t(r * 16 + i)];
  EXPECT_EQ(out, want);
}

// ---- Compares -> uint8 bit mask -> Select ----
void CompareSelect(GM_ADDR x, GM_ADDR bits, GM_ADDR out) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  GlobalTensor<float> gx, go;
  GlobalTensor<uint8_t> gb;
  gx.SetGlobalBuffer((__gm__ float *)x);
  go.SetGlobalBuffer((__gm__ float *)out);
  gb.SetGlobalBuffer((__gm__ uint8_t *)bits);
  LocalTensor<float> a(TPosition::VECCALC, 0, 128), d(TPosition::VECCALC, 512, 128);
  LocalTensor<uint8_t> m(TPosition::VECCALC, 1024, 32);
  DataCopy(a, gx, 128);
  Duplicate(m.ReinterpretCast<float>(), 0.0f, 8);
  Compares(m, a, 10.0f, CMPMODE::LT, 128);
  Select(d, m, a, 99.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, 128);
  DataCopy(gb, m, 32);
  DataCopy(go, d, 128);
}

TEST(TwinCompareSelect, BitMaskAndScalarSelect) {
  std::vector<float> x(128), out(128);
  for (int i = 0; i < 128; ++i)
    x[size_t(i)] = float((i * 37) % 23);
  std::vector<uint8_t> bits(32, 0xAA);
  asc2_twin::Launch(1, CompareSelect, (GM_ADDR)x.data(), (GM_ADDR)bits.data(), (GM_ADDR)out.data());
  for (int i = 0; i < 128; ++i) {
    bool lt = x[size_t(i)] < 10.0f;
    EXPECT_EQ((bits[size_t(i / 8)] >> (i % 8)) & 1, lt ? 1 : 0) << i;
    EXPECT_EQ(out[size_t(i)], lt ? x[size_t(i)] : 99.0f) << i;
  }
  for (int i = 16; i < 32; ++i) // 128 bits are 16 bytes; the rest untouched
    EXPECT_EQ(bits[size_t(i)], 0);
}

// ---- reductions: binary-tree sum, max with index, Brcb ----
void Reduce(GM_ADDR x, GM_ADDR out) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  GlobalTensor<float> gx, go;
  gx.SetGlobalBuffer((__gm__ float *)x);
  go.SetGlobalBuffer((__gm__ float *)out);
  LocalTensor<float> a(TPosition::VECCALC, 0, 128), r(TPosition::VECCALC, 1024, 64), b(TPosition::VECCALC, 2048, 64);
  DataCopy(a, gx, 128);
  Duplicate(r, 0.0f, 64);
  ReduceRepeat<ReduceType::SUM>(r, a, 64, 2, 1, 1, 8);                   // r[0], r[1]
  ReduceRepeat<ReduceType::MAX>(r[8], a, 64, 2, 1, 1, 8);                // (value, index) pairs
  ReduceRepeat<ReduceType::MIN>(r[16], a, 64, 2, 1, 1, 8, ReduceOrder::ORDER_ONLY_VALUE);
  Brcb(b, r, 1, BrcbRepeatParams(1, 8));
  DataCopy(go, r, 32);
  DataCopy(go[32], b, 64);
}

TEST(TwinReduce, TreeSumMaxIndexAndBrcb) {
  std::vector<float> x(128);
  for (int i = 0; i < 128; ++i)
    x[size_t(i)] = (i % 2 ? 1e8f : 1.0f) * (i == 71 ? 3.0f : 1.0f); // order-sensitive sums
  std::vector<float> out(96, 0);
  asc2_twin::Launch(1, Reduce, (GM_ADDR)x.data(), (GM_ADDR)out.data());
  for (int r = 0; r < 2; ++r) {
    std::vector<float> v(x.begin() + r * 64, x.begin() + r * 64 + 64);
    for (size_t n = 64; n > 1; n /= 2)
      for (size_t i = 0; i < n / 2; ++i)
        v[i] = v[2 * i] + v[2 * i + 1];
    EXPECT_EQ(out[size_t(r)], v[0]);
  }
  uint32_t idx;
  EXPECT_EQ(out[8], 1e8f);  // first maximum of repeat 0 at index 1
  std::memcpy(&idx, &out[9], 4);
  EXPECT_EQ(idx, 1u);
  EXPECT_EQ(out[10], 3e8f); // 3e8 at element 71 = repeat 1, index 7
  std::memcpy(&idx, &out[11], 4);
  EXPECT_EQ(idx, 7u);
  EXPECT_EQ(out[16], 1.0f);
  EXPECT_EQ(out[17], 1.0f);
  for (int b = 0; b < 8; ++b)
    for (int i = 0; i < 8; ++i)
      EXPECT_EQ(out[size_t(32 + b * 8 + i)], out[size_t(b)]);
}

// ---- Transpose: the 16x16 b16 form and TransposeParamsExt's NCHW <-> NHWC ----
void Transposes(GM_ADDR x, GM_ADDR out16, GM_ADDR nhwc, GM_ADDR back) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  GlobalTensor<int16_t> gx, g16;
  GlobalTensor<float> gf, gn, gb;
  gx.SetGlobalBuffer((__gm__ int16_t *)x);
  g16.SetGlobalBuffer((__gm__ int16_t *)out16);
  gn.SetGlobalBuffer((__gm__ float *)nhwc);
  gb.SetGlobalBuffer((__gm__ float *)back);
  LocalTensor<int16_t> a(TPosition::VECCALC, 0, 256), t(TPosition::VECCALC, 512, 256);
  DataCopy(a, gx, 256);
  Transpose(t, a);
  DataCopy(g16, t, 256);
  // 2 matrices of 3 channels x 16 (h 2 x w 8) floats, through the NHWC form and back.
  LocalTensor<float> f(TPosition::VECCALC, 1024, 96), n(TPosition::VECCALC, 2048, 96),
      b(TPosition::VECCALC, 3072, 96);
  LocalTensor<uint8_t> tmp(TPosition::VECCALC, 4096, 1024);
  for (int i = 0; i < 96; ++i)
    f.SetValue(i, float(i));
  Transpose(n, f, tmp, TransposeParamsExt(2, 3, 2, 8, TransposeType::TRANSPOSE_NCHW2NHWC));
  Transpose(b, n, tmp, TransposeParamsExt(2, 3, 2, 8, TransposeType::TRANSPOSE_NHWC2NCHW));
  DataCopy(gn, n, 96);
  DataCopy(gb, b, 96);
}

TEST(TwinTranspose, SixteenBySixteenAndNchwNhwc) {
  std::vector<int16_t> x(256), out16(256, -1);
  for (int i = 0; i < 256; ++i)
    x[size_t(i)] = int16_t(i);
  std::vector<float> nhwc(96, -1), back(96, -1);
  asc2_twin::Launch(1, Transposes, (GM_ADDR)x.data(), (GM_ADDR)out16.data(), (GM_ADDR)nhwc.data(),
                    (GM_ADDR)back.data());
  for (int r = 0; r < 16; ++r)
    for (int c = 0; c < 16; ++c)
      EXPECT_EQ(out16[size_t(c * 16 + r)], x[size_t(r * 16 + c)]);
  // NHWC element (b, k, ci) = NCHW element (b, ci, k).
  for (int bi = 0; bi < 2; ++bi)
    for (int ci = 0; ci < 3; ++ci)
      for (int k = 0; k < 16; ++k)
        EXPECT_EQ(nhwc[size_t(bi * 48 + k * 3 + ci)], float(bi * 48 + ci * 16 + k));
  for (int i = 0; i < 96; ++i)
    EXPECT_EQ(back[size_t(i)], float(i));
}

// ---- Cast rounding modes ----
void CastModes(GM_ADDR x, GM_ADDR h, GM_ADDR n) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  GlobalTensor<float> gx;
  GlobalTensor<half> gh;
  GlobalTensor<int32_t> gn;
  gx.SetGlobalBuffer((__gm__ float *)x);
  gh.SetGlobalBuffer((__gm__ half *)h);
  gn.SetGlobalBuffer((__gm__ int32_t *)n);
  LocalTensor<float> a(TPosition::VECCALC, 0, 8);
  LocalTensor<half> b(TPosition::VECCALC, 256, 48);
  LocalTensor<int32_t> c(TPosition::VECCALC, 512, 40);
  DataCopy(a, gx, 8);
  const RoundMode modes[5] = {RoundMode::CAST_RINT, RoundMode::CAST_FLOOR, RoundMode::CAST_CEIL,
                              RoundMode::CAST_ROUND, RoundMode::CAST_TRUNC};
  for (int m = 0; m < 5; ++m) {
    Cast(b[m * 8], a, modes[m], 8);
    Cast(c[m * 8], a, modes[m], 8);
  }
  DataCopy(gh, b, 48);
  DataCopy(gn, c, 40);
}

TEST(TwinCast, RoundModes) {
  // 2.5 and -2.5 are ties for integers; 1 + 2^-11 is a tie for half.
  std::vector<float> x = {2.5f, -2.5f, 1.0f + 0x1p-11f, 1.7f, -1.7f, 3e9f, -3e9f, 0.0f};
  std::vector<uint16_t> h(48);
  std::vector<int32_t> n(40);
  asc2_twin::Launch(1, CastModes, (GM_ADDR)x.data(), (GM_ADDR)h.data(), (GM_ADDR)n.data());
  int32_t wantInt[5][5] = {{2, -2, 1, 2, -2}, {2, -3, 1, 1, -2}, {3, -2, 2, 2, -1}, {3, -3, 1, 2, -2}, {2, -2, 1, 1, -1}};
  for (int m = 0; m < 5; ++m) {
    for (int i = 0; i < 5; ++i)
      EXPECT_EQ(n[size_t(m * 8 + i)], wantInt[m][i]) << "mode " << m << " element " << i;
    EXPECT_EQ(n[size_t(m * 8 + 5)], 2147483647) << "saturates";
    EXPECT_EQ(n[size_t(m * 8 + 6)], -2147483648LL) << "saturates";
  }
  auto H = [&](int m, int i) { return asc2_twin::HalfBitsToFloat(h[size_t(m * 8 + i)]); };
  EXPECT_EQ(H(0, 2), 1.0f);              // RINT: tie to even
  EXPECT_EQ(H(3, 2), 1.0f + 0x1p-10f);   // ROUND: tie away
  EXPECT_EQ(H(2, 3), 1.7001953125f);     // CEIL of 1.7
  EXPECT_EQ(H(1, 3), 1.69921875f);       // FLOOR of 1.7
  EXPECT_EQ(H(4, 4), -1.69921875f);      // TRUNC of -1.7
  EXPECT_TRUE(std::isinf(H(0, 5)));      // 3e9 overflows half
}

// ---- cube: ND -> Nz (L1) -> L0A/L0B -> Mmad -> Fixpipe, a fractal round trip ----
constexpr int M = 32, K = 32, N = 48;
void Matmul(GM_ADDR a, GM_ADDR b, GM_ADDR c) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
  GlobalTensor<half> ga, gb;
  GlobalTensor<float> gc;
  ga.SetGlobalBuffer((__gm__ half *)a);
  gb.SetGlobalBuffer((__gm__ half *)b);
  gc.SetGlobalBuffer((__gm__ float *)c);
  LocalTensor<half> a1(TPosition::A1, 0, M * K), b1(TPosition::B1, 8192, K * N);
  LocalTensor<half> a2(TPosition::A2, 0, M * K), b2(TPosition::B2, 0, K * N);
  LocalTensor<float> c1(TPosition::CO1, 0, M * N);
  DataCopy(a1, ga, Nd2NzParams(1, M, K, 0, K, M, 1, 0));
  DataCopy(b1, gb, Nd2NzParams(1, K, N, 0, N, K, 1, 0));
#if ASC2_TWIN_NPU_ARCH == 3510
  // L0A keeps Nz; L0B (Zn) takes each fractal transposed, fractal grid row-major.
  LoadData(a2, a1, LoadData2DParamsV2(0, 0, M / 16, K / 16, M / 16, M / 16, false, 0));
  LoadData(b2, b1, LoadData2DParamsV2(0, 0, K / 16, N / 16, K / 16, N / 16, true, 0));
#else
  for (int band = 0; band < M / 16; ++band) { // Zz: one row of fractals per band
    LoadData2DParams p;
    p.startIndex = uint16_t(band);
    p.repeatTimes = K / 16;
    p.srcStride = M / 16;
    LoadData(a2[band * (K / 16) * 256], a1, p);
  }
  for (int band = 0; band < K / 16; ++band) { // Zn: transposed fractals
    LoadData2DParams p;
    p.startIndex = uint16_t(band);
    p.repeatTimes = N / 16;
    p.srcStride = K / 16;
    p.ifTranspose = true;
    LoadData(b2[band * (N / 16) * 256], b1, p);
  }
#endif
  Mmad(c1, a2, b2, MmadParams(M, N, K, 0, false, true));
  FixpipeParamsV220 f;
  f.mSize = M;
  f.nSize = N;
  f.srcStride = M;
  f.dstStride = N;
  Fixpipe<float, float, CFG_ROW_MAJOR>(gc, c1, f);
}

TEST(TwinCube, FractalRoundTripMatmul) {
  std::vector<half> a(M * K), b(K * N);
  std::vector<float> c(M * N, -1), want(M * N, 0);
  for (int i = 0; i < M * K; ++i)
    a[size_t(i)] = half(float((i * 7) % 11 - 5));
  for (int i = 0; i < K * N; ++i)
    b[size_t(i)] = half(float((i * 5) % 13 - 6));
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < K; ++k)
        want[size_t(i * N + j)] += float(a[size_t(i * K + k)]) * float(b[size_t(k * N + j)]);
  asc2_twin::Launch(1, Matmul, (GM_ADDR)a.data(), (GM_ADDR)b.data(), (GM_ADDR)c.data());
  EXPECT_EQ(c, want);
}

// ---- cube, float32 B (K x N): the documented b32 routes to L0B Zn ----
// c220: L1 Nz + LoadData3DParamsV2 (LoadData_3D.md, 1x1 img2col; Huawei's
// Matmul does the same, LOAD3DV2); c310: L1 Nz + LoadData2DParamsV2 with
// ifTranspose (load_data_2dv2_l12l0 README 5.4.3).
constexpr int FM = 16, FK = 48, FN = 32;
#if ASC2_TWIN_NPU_ARCH != 3510
/// The whole K x N (or, for A, K x M) Nz L1 tile `src` as the 1 x rows feature map.
LoadData3DParamsV2<float> Window(int rows, int cols, int mExt, int kExt, int m0 = 0, int k0 = 0) {
  LoadData3DParamsV2<float> p;
  p.l1H = 1;
  p.l1W = uint16_t(rows);
  p.channelSize = uint16_t(cols);
  p.mExtension = uint16_t(mExt);
  p.kExtension = uint16_t(kExt);
  p.mStartPt = uint16_t(m0);
  p.kStartPt = uint16_t(k0);
  return p;
}
#endif
void MatmulF32(GM_ADDR a, GM_ADDR b, GM_ADDR c) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
  GlobalTensor<float> ga, gb, gc;
  ga.SetGlobalBuffer((__gm__ float *)a);
  gb.SetGlobalBuffer((__gm__ float *)b);
  gc.SetGlobalBuffer((__gm__ float *)c);
  LocalTensor<float> a1(TPosition::A1, 0, FM * FK), b1(TPosition::B1, 8192, FK * FN);
  LocalTensor<float> a2(TPosition::A2, 0, FM * FK), b2(TPosition::B2, 0, FK * FN);
  LocalTensor<float> c1(TPosition::CO1, 0, FM * FN);
  DataCopy(a1, ga, Nd2NzParams(1, FM, FK, 0, FK, FM, 1, 0));
  DataCopy(b1, gb, Nd2NzParams(1, FK, FN, 0, FN, FK, 1, 0));
#if ASC2_TWIN_NPU_ARCH == 3510
  LoadData(a2, a1, LoadData2DParamsV2(0, 0, FM / 16, FK / 8, FM / 16, FM / 16, false, 0));
  LoadData(b2, b1, LoadData2DParamsV2(0, 0, FK / 16, FN / 8, FK / 16, FN / 16, true, 0));
#else
  LoadData2DParams pa; // Zz from Nz, one 16-row band (FM = 16)
  pa.repeatTimes = FK / 8;
  pa.srcStride = FM / 16;
  LoadData(a2, a1, pa);
  LoadData(b2, b1, Window(FK, FN, FK, FN));
#endif
  Mmad(c1, a2, b2, MmadParams(FM, FN, FK, 0, false, true));
  FixpipeParamsV220 f;
  f.mSize = FM;
  f.nSize = FN;
  f.srcStride = FM;
  f.dstStride = FN;
  Fixpipe<float, float, CFG_ROW_MAJOR>(gc, c1, f);
}

TEST(TwinCube, Float32RhsTransposedToZn) {
  std::vector<float> a(FM * FK), b(FK * FN), c(FM * FN, -1), want(FM * FN, 0);
  for (int i = 0; i < FM * FK; ++i)
    a[size_t(i)] = float((i * 7) % 11 - 5);
  for (int i = 0; i < FK * FN; ++i)
    b[size_t(i)] = float((i * 5) % 13 - 6);
  for (int i = 0; i < FM; ++i)
    for (int j = 0; j < FN; ++j)
      for (int k = 0; k < FK; ++k)
        want[size_t(i * FN + j)] += a[size_t(i * FK + k)] * b[size_t(k * FN + j)];
  asc2_twin::Launch(1, MatmulF32, (GM_ADDR)a.data(), (GM_ADDR)b.data(), (GM_ADDR)c.data());
  EXPECT_EQ(c, want);
}

#if ASC2_TWIN_NPU_ARCH != 3510
// c220, A stored K x M (float32): L1 Nz of A^T, LoadData3DParamsV2 with
// enTranspose to L0A Zz (LoadData_3D.md, b32 transpose to L0A).
constexpr int TM = 32, TK = 32, TN = 16;
void MatmulF32At(GM_ADDR at, GM_ADDR b, GM_ADDR c) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
  GlobalTensor<float> ga, gb, gc;
  ga.SetGlobalBuffer((__gm__ float *)at);
  gb.SetGlobalBuffer((__gm__ float *)b);
  gc.SetGlobalBuffer((__gm__ float *)c);
  LocalTensor<float> a1(TPosition::A1, 0, TK * TM), b1(TPosition::B1, 8192, TK * TN);
  LocalTensor<float> a2(TPosition::A2, 0, TM * TK), b2(TPosition::B2, 0, TK * TN);
  LocalTensor<float> c1(TPosition::CO1, 0, TM * TN);
  DataCopy(a1, ga, Nd2NzParams(1, TK, TM, 0, TM, TK, 1, 0)); // Nz of A^T
  DataCopy(b1, gb, Nd2NzParams(1, TK, TN, 0, TN, TK, 1, 0)); // Nz of B
  LoadData3DParamsV2<float> pa = Window(TK, TM, TK, TM);
  pa.enTranspose = true;
  LoadData(a2, a1, pa);
  LoadData(b2, b1, Window(TK, TN, TK, TN));
  Mmad(c1, a2, b2, MmadParams(TM, TN, TK, 0, false, true));
  FixpipeParamsV220 f;
  f.mSize = TM;
  f.nSize = TN;
  f.srcStride = TM;
  f.dstStride = TN;
  Fixpipe<float, float, CFG_ROW_MAJOR>(gc, c1, f);
}

/// A window of a bigger tile lands as the documented Zn: element (k, n) of
/// the window at ((k / 8) * N / 16 + n / 16) * 128 + (n % 16) * 8 + k % 8.
constexpr int WR = 48, WC = 32, WM0 = 16, WK0 = 8, WM = 32, WK = 16;
void Load3DWindow(GM_ADDR src, GM_ADDR out) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
  GlobalTensor<float> gs, go;
  gs.SetGlobalBuffer((__gm__ float *)src);
  go.SetGlobalBuffer((__gm__ float *)out);
  LocalTensor<float> b1(TPosition::B1, 0, WR * WC), b2(TPosition::B2, 0, WM * WK);
  DataCopy(b1, gs, Nd2NzParams(1, WR, WC, 0, WC, WR, 1, 0));
  LoadData(b2, b1, Window(WR, WC, WM, WK, WM0, WK0));
  for (int i = 0; i < WM * WK; ++i)
    go.SetValue(uint64_t(i), b2.GetValue(uint32_t(i)));
}

TEST(TwinCube, Load3DWindowLandsAsZn) {
  std::vector<float> src(WR * WC), out(WM * WK, -1);
  for (int i = 0; i < WR * WC; ++i)
    src[size_t(i)] = float(i);
  asc2_twin::Launch(1, Load3DWindow, (GM_ADDR)src.data(), (GM_ADDR)out.data());
  for (int k = 0; k < WM; ++k)
    for (int n = 0; n < WK; ++n)
      EXPECT_EQ(out[size_t(((k / 8) * (WK / 16) + n / 16) * 128 + (n % 16) * 8 + k % 8)],
                src[size_t((WM0 + k) * WC + WK0 + n)])
          << "k " << k << " n " << n;
}

void Load3DBadWindow(GM_ADDR src) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
  LocalTensor<float> b1(TPosition::B1, 0, WR * WC), b2(TPosition::B2, 0, WM * WK);
  (void)src;
  LoadData(b2, b1, Window(WR, WC, WM, WK, WR - 16, 0)); // runs off the feature map
}

TEST(TwinCube, Load3DWindowOutsideTheFeatureMapFails) {
  std::vector<float> src(WR * WC);
  try {
    asc2_twin::Launch(1, Load3DBadWindow, (GM_ADDR)src.data());
    FAIL() << "no error";
  } catch (const asc2_twin::Error &e) {
    EXPECT_NE(std::string(e.what()).find("leaves the 48 x 32 feature map"), std::string::npos) << e.what();
  }
}

TEST(TwinCube, Float32LhsFromItsTranspose) {
  std::vector<float> at(TK * TM), b(TK * TN), c(TM * TN, -1), want(TM * TN, 0);
  for (int i = 0; i < TK * TM; ++i)
    at[size_t(i)] = float((i * 7) % 11 - 5);
  for (int i = 0; i < TK * TN; ++i)
    b[size_t(i)] = float((i * 5) % 13 - 6);
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j)
      for (int k = 0; k < TK; ++k)
        want[size_t(i * TN + j)] += at[size_t(k * TM + i)] * b[size_t(k * TN + j)];
  asc2_twin::Launch(1, MatmulF32At, (GM_ADDR)at.data(), (GM_ADDR)b.data(), (GM_ADDR)c.data());
  EXPECT_EQ(c, want);
}
#endif

TEST(TwinCube, NzLayoutOfNd2Nz) {
  // (i, j) of a 16-row half matrix lands at (j / 16) * 16 * 16 + i * 16 + j % 16.
  EXPECT_EQ(asc2_twin::NzOffset<half>(3, 20, 32), 1 * 32 * 16 + 3 * 16 + 4);
  EXPECT_EQ(asc2_twin::ZzOffset<half>(17, 5, 32), (1 * 2 + 0) * 256 + 1 * 16 + 5);
  EXPECT_EQ(asc2_twin::ZnOffset<half>(5, 17, 48), (0 * 3 + 1) * 256 + 1 * 16 + 5);
}

// ---- sync: pairing, cross-core flags, deadlock, bounds ----
void WaitWithoutSet() {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  WaitFlag<HardEvent::MTE2_V>(0);
}

TEST(TwinSync, WaitFlagWithoutSetFails) {
  try {
    asc2_twin::Launch(1, WaitWithoutSet);
    FAIL() << "expected an error";
  } catch (const asc2_twin::Error &e) {
    EXPECT_NE(std::string(e.what()).find("without a SetFlag"), std::string::npos) << e.what();
  }
}

void CrossCore(GM_ADDR out) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
  GlobalTensor<float> go;
  go.SetGlobalBuffer((__gm__ float *)out);
  if ASCEND_IS_AIC {
    go.SetValue(GetBlockIdx(), 1.0f); // produced by the cube side
    CrossCoreSetFlag<0x2, PIPE_FIX>(3);
    CrossCoreWaitFlag(4); // both AIVs consumed
    go.SetValue(8 + GetBlockIdx(), 3.0f);
  }
  if ASCEND_IS_AIV {
    CrossCoreWaitFlag(3);
    float v = go.GetValue(GetBlockIdx() / 2);
    go.SetValue(16 + GetBlockIdx(), v + 1.0f);
    CrossCoreSetFlag<0x2, PIPE_MTE3>(4);
  }
}

TEST(TwinSync, CrossCoreFlagsOrderAicAndAivs) {
  std::vector<float> out(24, 0);
  asc2_twin::Launch(4, CrossCore, (GM_ADDR)out.data());
  for (int b = 0; b < 4; ++b) {
    EXPECT_EQ(out[size_t(b)], 1.0f);
    EXPECT_EQ(out[size_t(8 + b)], 3.0f);
    EXPECT_EQ(out[size_t(16 + 2 * b)], 2.0f);
    EXPECT_EQ(out[size_t(16 + 2 * b + 1)], 2.0f);
  }
}

void Deadlock() {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_1);
  if ASCEND_IS_AIC {
    CrossCoreWaitFlag(1); // nobody sets it
  }
}

TEST(TwinSync, DeadlockIsReported) {
  setenv("ASC2_TWIN_TIMEOUT_MS", "200", 1);
  try {
    asc2_twin::Launch(1, Deadlock);
    FAIL() << "expected a deadlock report";
  } catch (const asc2_twin::Error &e) {
    EXPECT_NE(std::string(e.what()).find("deadlock"), std::string::npos) << e.what();
  }
  unsetenv("ASC2_TWIN_TIMEOUT_MS");
}

void OutOfRange() {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  LocalTensor<float> t(TPosition::VECCALC, ASC2_TWIN_UB_BYTES - 64, 64);
  Duplicate(t, 0.0f, 64);
}

TEST(TwinMemory, OutOfRangeUbAccessFails) {
  try {
    asc2_twin::Launch(1, OutOfRange);
    FAIL() << "expected an out-of-range error";
  } catch (const asc2_twin::Error &e) {
    EXPECT_NE(std::string(e.what()).find("outside the"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("Duplicate"), std::string::npos) << e.what();
  }
}

void BlockIds(GM_ADDR out) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  GlobalTensor<int32_t> go;
  go.SetGlobalBuffer((__gm__ int32_t *)out);
  go.SetValue(GetBlockIdx(), int32_t(GetBlockNum() * 100 + GetBlockIdx()));
}

TEST(TwinLaunch, VectorOnlyKernelRunsOncePerBlock) {
  std::vector<int32_t> out(6, 0);
  asc2_twin::RegisterGlobal(out.data(), out.size() * sizeof(int32_t));
  asc2_twin::Launch(6, BlockIds, (GM_ADDR)out.data());
  asc2_twin::ClearGlobals();
  for (int i = 0; i < 6; ++i)
    EXPECT_EQ(out[size_t(i)], 600 + i);
}

// MIX_AIC_1_2: each AIV of a block records its GetBlockIdx (block * 2 +
// sub-block), GetBlockNum (the launch's blocks, as the reference's
// get_block_num()), GetSubBlockIdx and GetSubBlockNum; the AIC its own.
void MixIds(GM_ADDR out) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
  GlobalTensor<int32_t> go;
  go.SetGlobalBuffer((__gm__ int32_t *)out);
  int64_t group = GetBlockIdx() / GetSubBlockNum();
  int64_t slot = group * 3 + (ASCEND_IS_AIC ? 0 : 1 + GetSubBlockIdx());
  go.SetValue(uint64_t(slot), int32_t(GetBlockIdx() * 1000 + GetBlockNum() * 100 +
                                      GetSubBlockIdx() * 10 + GetSubBlockNum()));
}

TEST(TwinLaunch, MixOneToTwoNumbersItsVectorCoresWithinTheBlock) {
  std::vector<int32_t> out(9, -1);
  asc2_twin::RegisterGlobal(out.data(), out.size() * sizeof(int32_t));
  asc2_twin::Launch(3, MixIds, (GM_ADDR)out.data());
  asc2_twin::ClearGlobals();
  for (int b = 0; b < 3; ++b) {
    EXPECT_EQ(out[size_t(b * 3)], b * 1000 + 300 + 1) << "AIC of block " << b;
    for (int sub = 0; sub < 2; ++sub)
      EXPECT_EQ(out[size_t(b * 3 + 1 + sub)], (b * 2 + sub) * 1000 + 300 + sub * 10 + 2)
          << "AIV " << sub << " of block " << b;
  }
}

} // namespace

// ---- Mmad's start value (Mmad.md: cmatrixInitVal, cmatrixSource) ----
// All-ones 16x16 operands (K = 16), bias[j] = j: cmatrixInitVal true starts from 0 even with the
// bias overload; false starts from the bias table with it and from L0C (accumulates) without it.
void MmadStarts(GM_ADDR out) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
  GlobalTensor<float> go;
  go.SetGlobalBuffer((__gm__ float *)out);
  LocalTensor<half> a2(TPosition::A2, 0, 256), b2(TPosition::B2, 0, 256);
  LocalTensor<float> c1(TPosition::CO1, 0, 256), bt(TPosition::C2, 0, 16);
  for (uint32_t i = 0; i < 256; ++i) {
    a2.SetValue(i, half(1.0f));
    b2.SetValue(i, half(1.0f));
  }
  for (uint32_t j = 0; j < 16; ++j)
    bt.SetValue(j, float(j));
  auto save = [&](int slot) {
    for (uint32_t i = 0; i < 256; ++i)
      go.SetValue(uint64_t(slot * 256 + i), c1.GetValue(i));
  };
  Mmad(c1, a2, b2, bt, MmadParams(16, 16, 16, 0, false, true));
  save(0);
  Mmad(c1, a2, b2, bt, MmadParams(16, 16, 16, 0, false, false));
  save(1);
  Mmad(c1, a2, b2, MmadParams(16, 16, 16, 0, false, false));
  save(2);
}

TEST(TwinCube, MmadStartsFromZeroTheBiasTableOrL0C) {
  std::vector<float> out(3 * 256, -1);
  asc2_twin::Launch(1, MmadStarts, (GM_ADDR)out.data());
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 16; ++j) {
      EXPECT_EQ(out[size_t(i * 16 + j)], 16.0f) << i << "," << j;
      EXPECT_EQ(out[size_t(256 + i * 16 + j)], 16.0f + j) << i << "," << j;
      EXPECT_EQ(out[size_t(512 + i * 16 + j)], 32.0f + j) << i << "," << j;
    }
}
