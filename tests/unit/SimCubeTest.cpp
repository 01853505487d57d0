//===- SimCubeTest.cpp - Cube path, MIX kernels and cross-core flags ------===//

#include "SimTestUtil.h"

#include "CubeKernels.h"
#include "Float16.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <future>
#include <memory>
#include <random>
#include <thread>

using namespace asc2::sim;
using namespace asc2::sim::test;

namespace {

auto I = Operand::ofImm;
auto R = Operand::ofReg;

//===----------------------------------------------------------------------===//
// Element encoding for GM buffers.
//===----------------------------------------------------------------------===//

void put(DType t, std::vector<uint8_t> &buf, int64_t i, double v) {
  uint8_t *p = buf.data() + i * byteWidth(t);
  switch (t) {
  case DType::F32: {
    float f = float(v);
    std::memcpy(p, &f, 4);
    return;
  }
  case DType::F16: {
    uint16_t h = floatToHalf(float(v));
    std::memcpy(p, &h, 2);
    return;
  }
  case DType::BF16: {
    uint16_t h = floatToBf16(float(v));
    std::memcpy(p, &h, 2);
    return;
  }
  case DType::I8:
    *p = uint8_t(int8_t(v));
    return;
  case DType::I32: {
    int32_t x = int32_t(v);
    std::memcpy(p, &x, 4);
    return;
  }
  default:
    FAIL() << "unsupported test dtype";
  }
}

double get(DType t, const std::vector<uint8_t> &buf, int64_t i) {
  const uint8_t *p = buf.data() + i * byteWidth(t);
  switch (t) {
  case DType::F32: {
    float f;
    std::memcpy(&f, p, 4);
    return f;
  }
  case DType::F16: {
    uint16_t h;
    std::memcpy(&h, p, 2);
    return halfToFloat(h);
  }
  case DType::BF16: {
    uint16_t h;
    std::memcpy(&h, p, 2);
    return bf16ToFloat(h);
  }
  case DType::I8:
    return int8_t(*p);
  case DType::I32: {
    int32_t x;
    std::memcpy(&x, p, 4);
    return x;
  }
  default:
    return 0;
  }
}

LaunchArg gmBytes(std::vector<uint8_t> &v, DType t) {
  LaunchArg a;
  a.kind = ArgSpec::Kind::Gm;
  a.data = v.data();
  a.bytes = int64_t(v.size());
  a.dtype = t;
  return a;
}

//===----------------------------------------------------------------------===//
// A tiled matmul C = A * B on the cube path with the flags a compiler would
// insert: M in one tile, N and K in tiles (partial last tiles), every buffer
// single-buffered. Arguments: A (M x K, row stride lda), B (K x N, ldb),
// C (M x N, ldc). Source lines: copy A 10, copy B 11, load A 12, load B 13,
// mmad 14, fixpipe 15.
//===----------------------------------------------------------------------===//

struct MatmulCase {
  DType in = DType::F16, out = DType::F32;
  int64_t M = 64, K = 32, N = 48;    // valid sizes, M <= TM
  int64_t TM = 64, TK = 32, TN = 48; // tile sizes (multiples of 16)
  int64_t lda = 0, ldb = 0, ldc = 0; // 0 => K, N, N
  bool relu = false;
  AtomicKind atomic = AtomicKind::None;
  bool initFromRegister = false;
  // Drop the set/wait pair of one dependency (race tests).
  bool dropMte2Mte1 = false, dropMte1M = false, dropMFix = false;
  bool dropMte1Mte2 = false, dropMMte1 = false, dropFixM = false;

  int64_t a() const { return lda ? lda : K; }
  int64_t b() const { return ldb ? ldb : N; }
  int64_t c() const { return ldc ? ldc : N; }
};

Program makeMatmul(const MatmulCase &mc) {
  ProgramBuilder b;
  Program &p = b.program;
  p.kernelName = "matmul";
  p.kernelType = KernelType::AicOnly;
  p.args = {{ArgSpec::Kind::Gm, mc.in, "a"},
            {ArgSpec::Kind::Gm, mc.in, "b"},
            {ArgSpec::Kind::Gm, mc.out, "c"}};
  const DType acc = mc.in == DType::I8 ? DType::I32 : DType::F32;
  const int64_t bL1 = cube::roundUp(
      cube::tileBytes(cube::Layout::NZ, mc.in, mc.TM, mc.TK), 512);
  const int64_t kTiles = (mc.K + mc.TK - 1) / mc.TK;
  const int64_t nTiles = (mc.N + mc.TN - 1) / mc.TN;
  auto sync = [&](bool drop, Pipe s, Pipe d) {
    if (!drop) {
      b.set(s, d, 0);
      b.wait(s, d, 0);
    }
  };
  if (!mc.dropMte1Mte2)
    b.set(Pipe::MTE1, Pipe::MTE2, 0);
  if (!mc.dropMMte1)
    b.set(Pipe::M, Pipe::MTE1, 0);
  if (!mc.dropFixM)
    b.set(Pipe::FIX, Pipe::M, 0);
  for (int64_t nt = 0; nt < nTiles; ++nt) {
    const int64_t vn = std::min(mc.TN, mc.N - nt * mc.TN);
    for (int64_t kt = 0; kt < kTiles; ++kt) {
      const int64_t vk = std::min(mc.TK, mc.K - kt * mc.TK);
      if (!mc.dropMte1Mte2)
        b.wait(Pipe::MTE1, Pipe::MTE2, 0);
      b.copyToL1(0, mc.in, I(kt * mc.TK), I(mc.M), I(vk), I(mc.a()), 0, mc.TM,
                 mc.TK, 10);
      b.copyToL1(1, mc.in, I(kt * mc.TK * mc.b() + nt * mc.TN), I(vk), I(vn),
                 I(mc.b()), bL1, mc.TK, mc.TN, 11);
      sync(mc.dropMte2Mte1, Pipe::MTE2, Pipe::MTE1);
      if (!mc.dropMMte1)
        b.wait(Pipe::M, Pipe::MTE1, 0);
      b.loadL0(Space::L0A, mc.in, 0, 0, mc.TM, mc.TK, 12);
      b.loadL0(Space::L0B, mc.in, bL1, 0, mc.TK, mc.TN, 13);
      if (!mc.dropMte1Mte2)
        b.set(Pipe::MTE1, Pipe::MTE2, 0);
      sync(mc.dropMte1M, Pipe::MTE1, Pipe::M);
      if (kt == 0 && !mc.dropFixM)
        b.wait(Pipe::FIX, Pipe::M, 0);
      Operand init = I(kt == 0);
      if (mc.initFromRegister)
        init = R(b.constI(kt == 0));
      b.mmad(mc.in, 0, 0, 0, mc.TM, mc.TK, mc.TN, init, 14);
      if (!mc.dropMMte1)
        b.set(Pipe::M, Pipe::MTE1, 0);
    }
    sync(mc.dropMFix, Pipe::M, Pipe::FIX);
    b.fixpipe(2, mc.out, acc, I(nt * mc.TN), I(mc.M), I(vn), I(mc.c()), 0,
              mc.TM, mc.TN, 15, mc.relu, mc.atomic);
    if (!mc.dropFixM)
      b.set(Pipe::FIX, Pipe::M, 0);
  }
  if (!mc.dropMte1Mte2)
    b.wait(Pipe::MTE1, Pipe::MTE2, 0);
  if (!mc.dropMMte1)
    b.wait(Pipe::M, Pipe::MTE1, 0);
  if (!mc.dropFixM)
    b.wait(Pipe::FIX, Pipe::M, 0);
  b.end();
  return p;
}

struct MatmulData {
  std::vector<uint8_t> a, b, c;
  std::vector<double> av, bv; // the stored values, decoded
};

/// Small integers (exact in every type) or uniform values in [-1, 1].
MatmulData makeData(const MatmulCase &mc, bool smallInts, unsigned seed = 1) {
  MatmulData d;
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> ints(-4, 4);
  std::uniform_real_distribution<double> reals(-1, 1);
  const int64_t wi = byteWidth(mc.in);
  d.a.assign(size_t(mc.M * mc.a() * wi), 0);
  d.b.assign(size_t(mc.K * mc.b() * wi), 0);
  d.c.assign(size_t(mc.M * mc.c() * byteWidth(mc.out)), 0);
  auto fill = [&](std::vector<uint8_t> &buf, std::vector<double> &vals,
                  int64_t rows, int64_t cols, int64_t ld) {
    vals.assign(size_t(rows * cols), 0);
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < ld; ++c) {
        // Past the valid columns: junk the copy must not read.
        double v = c >= cols ? 99 : smallInts ? ints(rng) : reals(rng);
        put(mc.in, buf, r * ld + c, v);
        if (c < cols)
          vals[size_t(r * cols + c)] = get(mc.in, buf, r * ld + c);
      }
  };
  fill(d.a, d.av, mc.M, mc.K, mc.a());
  fill(d.b, d.bv, mc.K, mc.N, mc.b());
  // C starts as a sentinel so writes outside M x N show.
  for (int64_t i = 0; i < mc.M * mc.c(); ++i)
    put(mc.out, d.c, i, mc.atomic == AtomicKind::None ? -77 : 0);
  return d;
}

/// C[i][j] as the cube computes it: f32 (int32) products summed in k order,
/// relu, then rounded to the output type.
double reference(const MatmulCase &mc, const MatmulData &d, int64_t i,
                 int64_t j) {
  double v;
  if (mc.in == DType::I8) {
    int32_t acc = 0;
    for (int64_t k = 0; k < mc.K; ++k)
      acc += int32_t(d.av[size_t(i * mc.K + k)]) *
             int32_t(d.bv[size_t(k * mc.N + j)]);
    v = acc;
  } else {
    float acc = 0;
    for (int64_t k = 0; k < mc.K; ++k) {
      float p = float(d.av[size_t(i * mc.K + k)]) *
                float(d.bv[size_t(k * mc.N + j)]);
      acc += p;
    }
    v = acc;
  }
  if (mc.relu && v < 0)
    v = 0;
  std::vector<uint8_t> one(8);
  put(mc.out, one, 0, v);
  return get(mc.out, one, 0);
}

/// How many instructions `op` the trace holds (CoreStats::instrs also counts
/// the flags on a pipe).
int countOps(const LaunchResult &r, Opcode op, int core = -1) {
  int n = 0;
  for (const TraceEvent &e : r.trace)
    n += e.op == op && (core < 0 || e.core == core);
  return n;
}

LaunchResult runMatmul(const MatmulCase &mc, MatmulData &d, int blocks = 1,
                       const ArchModel *arch = nullptr) {
  static ArchModel b1 = loadArch();
  return simulate(makeMatmul(mc), arch ? *arch : b1, blocks,
                  {gmBytes(d.a, mc.in), gmBytes(d.b, mc.in),
                   gmBytes(d.c, mc.out)});
}

/// Checks every C element against the reference (within `tol` relative), and
/// that nothing outside the valid M x N changed.
void expectMatmul(const MatmulCase &mc, const MatmulData &d, double tol,
                  double scale = 1) {
  int bad = 0;
  for (int64_t i = 0; i < mc.M; ++i)
    for (int64_t j = 0; j < mc.c(); ++j) {
      double got = get(mc.out, d.c, i * mc.c() + j);
      if (j >= mc.N) {
        EXPECT_EQ(got, mc.atomic == AtomicKind::None ? -77 : 0)
            << "written outside the valid columns at " << i << "," << j;
        continue;
      }
      double want = scale * reference(mc, d, i, j);
      if (!(std::fabs(got - want) <= tol * (1 + std::fabs(want))) && ++bad < 5)
        ADD_FAILURE() << dtypeName(mc.in) << " C[" << i << "][" << j
                      << "] = " << got << ", want " << want;
    }
  EXPECT_EQ(bad, 0);
}

//===----------------------------------------------------------------------===//
// Layouts.
//===----------------------------------------------------------------------===//

/// A rows x cols sub-tile at (16, 32) of a srcR x srcC L1 matrix (NZ) loaded
/// to L0 in every layout (ZZ: c220 L0A, NZ: c310 L0A, ZN: L0B): (r, c) of the
/// destination is (row0 + r, col0 + c) of the source, or (row0 + c, col0 + r)
/// with `transpose`.
static void checkSubTileLoads(DType t, bool transpose, int64_t srcR, int64_t srcC,
                              int64_t rows, int64_t cols) {
  const int64_t c0 = cube::c0Of(t), row0 = 16, col0 = 32, mod = 97;
  std::vector<uint8_t> gm(size_t(srcR * srcC * byteWidth(t)));
  for (int64_t i = 0; i < srcR * srcC; ++i)
    put(t, gm, i, double(i % mod));
  std::vector<uint8_t> l1(gm.size());
  cube::ndToL1(t, l1.data(), srcR, srcC, gm.data(), srcR, srcC, srcC);
  for (cube::Layout layout : {cube::Layout::ZZ, cube::Layout::NZ, cube::Layout::ZN}) {
    std::vector<uint8_t> l0(size_t(cube::tileBytes(layout, t, rows, cols)));
    cube::nzToL0(t, layout, l0.data(), l1.data(), rows, cols, srcR, srcC, row0, col0,
                 transpose);
    const int64_t rp = cube::padRows(layout, t, rows);
    const int64_t cp = cube::padCols(layout, t, cols);
    const char *layoutName = layout == cube::Layout::ZZ   ? " ZZ "
                             : layout == cube::Layout::NZ ? " NZ "
                                                          : " ZN ";
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < cols; ++c) {
        int64_t sr = row0 + (transpose ? c : r), sc = col0 + (transpose ? r : c);
        int64_t at = layout == cube::Layout::ZZ   ? cube::zzIndex(r, c, cp, c0)
                     : layout == cube::Layout::NZ ? cube::nzIndex(r, c, rp, c0)
                                                  : cube::znIndex(r, c, cp, c0);
        ASSERT_EQ(get(t, l0, at), double((sr * srcC + sc) % mod))
            << dtypeName(t) << layoutName << (transpose ? "T " : "") << r << "," << c;
      }
  }
}

TEST(SimCube, FractalLayoutsMatchTheDocumentedIndexMath) {
  for (DType t : {DType::F16, DType::F32, DType::I8}) {
    const int64_t rows = 40, cols = 70, w = byteWidth(t), c0 = cube::c0Of(t);
    EXPECT_EQ(c0, 32 / w);
    // GM rows of 80 elements: element (r, c) holds (r * 3 + c) % 100.
    std::vector<uint8_t> gm(size_t(rows * 80 * w));
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < 80; ++c)
        put(t, gm, r * 80 + c, double((r * 3 + c) % 100));
    const int64_t tileR = 48, tileC = 96;
    const int64_t rp = cube::padRows(cube::Layout::NZ, t, tileR);
    const int64_t cp = cube::padCols(cube::Layout::NZ, t, tileC);
    EXPECT_EQ(rp, 48);
    EXPECT_EQ(cp, 96);
    std::vector<uint8_t> l1(size_t(rp * cp * w), 0xAB);
    cube::ndToL1(t, l1.data(), tileR, tileC, gm.data(), rows, cols, 80);
    std::vector<uint8_t> zz(l1.size()), zn(size_t(
        cube::tileBytes(cube::Layout::ZN, t, tileR, tileC)));
    cube::nzToL0(t, cube::Layout::ZZ, zz.data(), l1.data(), tileR, tileC, tileR,
                 tileC, 0, 0);
    cube::nzToL0(t, cube::Layout::ZN, zn.data(), l1.data(), tileR, tileC, tileR,
                 tileC, 0, 0);
    const int64_t znCp = cube::padCols(cube::Layout::ZN, t, tileC);
    for (int64_t r = 0; r < tileR; ++r)
      for (int64_t c = 0; c < tileC; ++c) {
        double want = r < rows && c < cols ? double((r * 3 + c) % 100) : 0;
        ASSERT_EQ(get(t, l1, (c / c0) * (rp * c0) + r * c0 + c % c0), want)
            << dtypeName(t) << " NZ " << r << "," << c;
        ASSERT_EQ(get(t, zz,
                      (r / 16) * (cp * 16) + (c / c0) * (16 * c0) +
                          (r % 16) * c0 + c % c0),
                  want)
            << dtypeName(t) << " ZZ " << r << "," << c;
        ASSERT_EQ(get(t, zn,
                      (r / c0) * (znCp * c0) + (c / 16) * (16 * c0) +
                          (c % 16) * c0 + r % c0),
                  want)
            << dtypeName(t) << " ZN " << r << "," << c;
      }
  }
  // Sub-tiles: (r, c) of the destination is (row0 + r, col0 + c) of the
  // source, for both layouts and every type.
  for (DType t : {DType::F16, DType::F32, DType::I8})
    checkSubTileLoads(t, /*transpose=*/false, 64, 128, 32, 64);
  // int8: the C0-split dimension pads to 32.
  EXPECT_EQ(cube::tileBytes(cube::Layout::NZ, DType::I8, 16, 16), 16 * 32);
  EXPECT_EQ(cube::tileBytes(cube::Layout::ZN, DType::I8, 16, 16), 32 * 16);
  EXPECT_EQ(cube::tileBytes(cube::Layout::L0C, DType::F32, 20, 20), 32 * 32 * 4);
}

TEST(SimCube, TransposedSubTileLoadsHf32AndBiasWidening) {
  // LoadData's transpose: (r, c) of the destination is (row0 + c, col0 + r)
  // of the source, for both L0 layouts.
  for (DType t : {DType::F16, DType::F32})
    checkSubTileLoads(t, /*transpose=*/true, 64, 96, 48, 32);
  // HF32 keeps 11 mantissa bits, rounding to nearest even.
  EXPECT_EQ(cube::roundToHf32(1.0f + 0x1p-11f), 1.0f + 0x1p-11f);
  EXPECT_EQ(cube::roundToHf32(1.0f + 0x1p-12f), 1.0f);               // tie -> even
  EXPECT_EQ(cube::roundToHf32(1.0f + 0x1p-11f + 0x1p-12f), 1.0f + 0x1p-10f); // tie -> even
  EXPECT_EQ(cube::roundToHf32(1.0f + 0x1p-12f + 0x1p-20f), 1.0f + 0x1p-11f);
  EXPECT_EQ(cube::roundToHf32(-3.0f), -3.0f);
  EXPECT_TRUE(std::isinf(cube::roundToHf32(INFINITY)));
  // f16 bias rows widen exactly to the bias table's f32.
  std::vector<uint8_t> half(16 * 2), wide(16 * 4);
  for (int i = 0; i < 16; ++i)
    put(DType::F16, half, i, i * 0.25 - 2);
  cube::widenToF32(DType::F16, wide.data(), half.data(), 16);
  for (int i = 0; i < 16; ++i)
    EXPECT_EQ(get(DType::F32, wide, i), i * 0.25 - 2);
}

/// One mmad (A NZ, B ZN, 64 x 48 x 64) against a scalar loop that rounds each
/// product, then each sum, in k order; bit for bit. `scaleA`/`scaleB`
/// multiply standard-normal values, which is how the cases below reach
/// products that are subnormal or overflow in float32.
void expectMmadBits(DType t, bool hf32, double scaleA, double scaleB) {
  char scales[64];
  std::snprintf(scales, sizeof scales, " scales %g x %g", scaleA, scaleB);
  SCOPED_TRACE(std::string(dtypeName(t)) + (hf32 ? " hf32" : "") + scales);
  const int64_t m = 64, k = 48, n = 64, c0 = cube::c0Of(t), w = byteWidth(t);
  std::vector<uint8_t> a(m * k * w), b(k * n * w), c(m * n * 4);
  std::vector<float> av(m * k), bv(k * n);
  std::mt19937 rng(7);
  std::normal_distribution<double> normal;
  for (int64_t r = 0; r < m; ++r)
    for (int64_t q = 0; q < k; ++q) {
      put(t, a, cube::nzIndex(r, q, m, c0), normal(rng) * scaleA);
      av[r * k + q] = float(get(t, a, cube::nzIndex(r, q, m, c0)));
    }
  for (int64_t q = 0; q < k; ++q)
    for (int64_t j = 0; j < n; ++j) {
      put(t, b, cube::znIndex(q, j, n, c0), normal(rng) * scaleB);
      bv[q * n + j] = float(get(t, b, cube::znIndex(q, j, n, c0)));
    }
  if (hf32) {
    for (float &v : av)
      v = cube::roundToHf32(v);
    for (float &v : bv)
      v = cube::roundToHf32(v);
  }
  cube::MmadScratch scratch;
  cube::mmadKernel(t, cube::Layout::NZ, c.data(), a.data(), b.data(), m, k, n, true, scratch, hf32);
  int mismatches = 0;
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      volatile float acc = 0.0f; // volatile: no fused multiply-add here
      for (int64_t q = 0; q < k; ++q) {
        volatile float product = av[i * k + q] * bv[q * n + j];
        acc = acc + product;
      }
      float got;
      std::memcpy(&got, c.data() + cube::l0cIndex(i, j, m) * 4, 4);
      const float want = acc;
      if (std::memcmp(&got, &want, 4) != 0 && ++mismatches <= 3)
        ADD_FAILURE() << "C(" << i << ", " << j << ") = " << got << ", rounding each product gives " << want;
    }
  EXPECT_EQ(mismatches, 0);
}

TEST(SimCube, MmadRoundsEachProductThenEachSum) {
  // float16 products are always exact in float32; bfloat16 and HF32 ones
  // only within a range, outside which the products round (subnormal) or
  // overflow, and the kernel must not fuse the multiply and the add.
  for (auto [scaleA, scaleB] : {std::pair{1.0, 1.0}, std::pair{0x1p-70, 0x1p-68}, std::pair{0x1p70, 0x1p60}}) {
    expectMmadBits(DType::BF16, false, scaleA, scaleB);
    expectMmadBits(DType::F32, false, scaleA, scaleB);
    expectMmadBits(DType::F32, true, scaleA, scaleB);
  }
  expectMmadBits(DType::F16, false, 1.0, 1.0);
  expectMmadBits(DType::F16, false, 0x1p-14, 0x1p-10); // subnormal operands
}

//===----------------------------------------------------------------------===//
// Functional results.
//===----------------------------------------------------------------------===//

TEST(SimCube, MatmulMatchesTripleLoop) {
  for (DType t : {DType::F16, DType::BF16, DType::F32, DType::I8}) {
    for (bool smallInts : {true, false}) {
      if (t == DType::I8 && !smallInts)
        continue;
      MatmulCase mc;
      mc.in = t;
      mc.out = t == DType::I8 ? DType::I32 : DType::F32;
      if (t == DType::I8) {
        mc.K = mc.TK = 64;
      }
      MatmulData d = makeData(mc, smallInts);
      LaunchResult r = runMatmul(mc, d);
      ASSERT_TRUE(r.ok) << dtypeName(t) << ": " << r.error;
      EXPECT_TRUE(r.races.empty()) << r.races[0].message;
      SCOPED_TRACE(dtypeName(t));
      // The reference sums in the same order: exact for small ints, and for
      // floats up to the host's fused multiply-add.
      expectMatmul(mc, d, smallInts ? 0 : 1e-5);
    }
  }
}

/// Where the documented pseudocode of LoadData3DParamsV2 (load3d.py,
/// b32, 1x1 filter) puts window element (i, j) (i: position, j: channel;
/// mExt x kExt window): into L0B its [mExt/16][2][Kpad][8] array (Kpad =
/// kExt rounded up to 16), into L0A with enTranspose its [Kpad/16][mExt/16]
/// [2][16][8] array, the element landing at A(j, i).
static int64_t load3dB32Index(bool toL0b, int64_t i, int64_t j, int64_t mExt, int64_t kExt) {
  const int64_t kPad = (kExt + 15) / 16 * 16;
  const int64_t half = (i % 16) / 8;
  if (toL0b)
    return (((i / 16) * 2 + half) * kPad + j) * 8 + i % 8;
  return (((((j / 16) * (mExt / 16) + i / 16) * 2 + half) * 16) + j % 16) * 8 + i % 8;
}

TEST(SimCube, Load3DB32WindowsFollowThePseudocode) {
  // The L1 tile: 64 positions (rows) x 48 channels (columns), NZ.
  const DType t = DType::F32;
  const int64_t rows = 64, cols = 48;
  std::vector<float> gm(size_t(rows * cols));
  for (size_t i = 0; i < gm.size(); ++i)
    gm[i] = float(i + 1);
  std::vector<uint8_t> l1(size_t(rows * cols * 4));
  cube::ndToL1(t, l1.data(), rows, cols, reinterpret_cast<const uint8_t *>(gm.data()), rows, cols,
               cols);
  struct W { int64_t m0, k0, mExt, kExt; bool toL0b; };
  for (W w : {W{0, 0, 64, 48, true}, W{16, 16, 32, 32, true}, W{32, 0, 16, 16, true},
              W{0, 0, 64, 48, false}, W{16, 16, 48, 32, false}, W{48, 32, 16, 16, false}}) {
    // LoadL1ToL0 as the simulator runs ascendc.load_data_3dv2: L0B gets the
    // window, L0A its transpose.
    const int64_t dr = w.toL0b ? w.mExt : w.kExt, dc = w.toL0b ? w.kExt : w.mExt;
    std::vector<float> got(size_t(dr * dc), -1);
    cube::nzToL0(t, w.toL0b ? cube::Layout::ZN : cube::Layout::ZZ,
                 reinterpret_cast<uint8_t *>(got.data()), l1.data(), dr, dc, rows, cols, w.m0, w.k0,
                 /*transpose=*/!w.toL0b);
    for (int64_t i = 0; i < w.mExt; ++i)
      for (int64_t j = 0; j < w.kExt; ++j)
        ASSERT_EQ(got[size_t(load3dB32Index(w.toL0b, i, j, w.mExt, w.kExt))],
                  gm[size_t((w.m0 + i) * cols + w.k0 + j)])
            << (w.toL0b ? "L0B" : "L0A") << " window at (" << w.m0 << ", " << w.k0 << "), element ("
            << i << ", " << j << ")";
  }
}

TEST(SimCube, Float32RhsThroughLoad3D) {
  // GM -> L1 NZ -> L0B ZN (the c220 recipe for float32 B, LoadData3DParamsV2);
  // a partial K tile and N tile show the padding.
  MatmulCase mc;
  mc.in = DType::F32;
  mc.M = 48, mc.K = 40, mc.N = 40, mc.TM = 48, mc.TK = 48, mc.TN = 48;
  MatmulData d = makeData(mc, /*smallInts=*/true);
  LaunchResult r = runMatmul(mc, d);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(r.races.empty()) << r.races[0].message;
  expectMatmul(mc, d, 0);
}

TEST(SimCube, Matmul16x16x16) {
  for (DType t : {DType::F16, DType::F32}) {
    MatmulCase mc;
    mc.in = t;
    mc.M = mc.K = mc.N = mc.TM = mc.TK = mc.TN = 16;
    MatmulData d = makeData(mc, true);
    LaunchResult r = runMatmul(mc, d);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_TRUE(r.races.empty());
    expectMatmul(mc, d, 0);
    ASSERT_EQ(r.cores.size(), 1u);
    EXPECT_TRUE(r.cores[0].cube);
    EXPECT_EQ(countOps(r, Opcode::Mmad), 1);
  }
}

TEST(SimCube, PartialTilesAndRowStrides) {
  for (DType t : {DType::F16, DType::F32, DType::BF16, DType::I8}) {
    MatmulCase mc;
    mc.in = t;
    mc.out = t == DType::I8 ? DType::I32 : DType::F32;
    mc.M = 50;                      // of a 64-row tile
    mc.K = t == DType::I8 ? 45 : 27; // of a 32- (64-) column tile
    mc.TK = t == DType::I8 ? 64 : 32;
    mc.N = 40;                      // of a 48-column tile
    mc.lda = mc.K + 5;
    mc.ldb = 53;
    mc.ldc = 45;
    MatmulData d = makeData(mc, true);
    LaunchResult r = runMatmul(mc, d);
    ASSERT_TRUE(r.ok) << dtypeName(t) << ": " << r.error;
    EXPECT_TRUE(r.races.empty()) << r.races[0].message;
    SCOPED_TRACE(dtypeName(t));
    expectMatmul(mc, d, 0);
  }
}

TEST(SimCube, KTiledAccumulation) {
  // K = 3 tiles (init = 1, then 0 twice; the last tile partial) and N = 2
  // tiles (the second partial), init from an immediate and from a register.
  for (bool fromReg : {false, true}) {
    for (DType t : {DType::F16, DType::F32}) {
      MatmulCase mc;
      mc.in = t;
      mc.M = 30;
      mc.TM = 32;
      mc.K = 40;
      mc.TK = 16;
      mc.N = 50;
      mc.TN = 32;
      mc.lda = 41;
      mc.ldc = 51;
      mc.initFromRegister = fromReg;
      for (bool smallInts : {true, false}) {
        MatmulData d = makeData(mc, smallInts, 7);
        LaunchResult r = runMatmul(mc, d);
        ASSERT_TRUE(r.ok) << r.error;
        EXPECT_TRUE(r.races.empty()) << r.races[0].message;
        EXPECT_EQ(countOps(r, Opcode::Mmad), 6);
        SCOPED_TRACE(std::string(dtypeName(t)) + (fromReg ? " reg" : " imm"));
        expectMatmul(mc, d, smallInts ? 0 : 1e-5);
      }
    }
  }
}

TEST(SimCube, SubTileLoadsSplitKOfOneL1Tile) {
  // A (32 x 64) and B (64 x 32) stay in L1 whole; the two K halves are
  // loaded as sub-tiles and accumulated.
  for (DType t : {DType::F16, DType::F32}) {
    MatmulCase mc;
    mc.in = t;
    mc.M = mc.TM = 32;
    mc.K = mc.TK = 64;
    mc.N = mc.TN = 32;
    ProgramBuilder b;
    b.program.kernelType = KernelType::AicOnly;
    b.program.args = {{ArgSpec::Kind::Gm, t, "a"},
                      {ArgSpec::Kind::Gm, t, "b"},
                      {ArgSpec::Kind::Gm, DType::F32, "c"}};
    const int64_t bL1 = 32 * 64 * int64_t(byteWidth(t));
    b.copyToL1(0, t, I(0), I(32), I(64), I(64), 0, 32, 64, 10);
    b.copyToL1(1, t, I(0), I(64), I(32), I(32), bL1, 64, 32, 11);
    b.set(Pipe::MTE2, Pipe::MTE1, 0);
    b.wait(Pipe::MTE2, Pipe::MTE1, 0);
    for (int kh = 0; kh < 2; ++kh) {
      if (kh)
        b.wait(Pipe::M, Pipe::MTE1, 0);
      b.loadL0(Space::L0A, t, 0, 0, 32, 32, 12);
      Instr &la = b.program.code.back();
      la.b = I(32 * kh);
      la.srcTileRows = 32;
      la.srcTileCols = 64;
      b.loadL0(Space::L0B, t, bL1, 0, 32, 32, 13);
      Instr &lb = b.program.code.back();
      lb.a = I(32 * kh);
      lb.srcTileRows = 64;
      lb.srcTileCols = 32;
      b.set(Pipe::MTE1, Pipe::M, 0);
      b.wait(Pipe::MTE1, Pipe::M, 0);
      b.mmad(t, 0, 0, 0, 32, 32, 32, I(kh == 0), 14);
      if (!kh)
        b.set(Pipe::M, Pipe::MTE1, 0);
    }
    b.set(Pipe::M, Pipe::FIX, 0);
    b.wait(Pipe::M, Pipe::FIX, 0);
    b.fixpipe(2, DType::F32, DType::F32, I(0), I(32), I(32), I(32), 0, 32, 32,
              15);
    b.end();
    MatmulData d = makeData(mc, true);
    LaunchResult r = simulate(b.program, loadArch(), 1,
                              {gmBytes(d.a, t), gmBytes(d.b, t),
                               gmBytes(d.c, DType::F32)});
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_TRUE(r.races.empty()) << r.races[0].message;
    SCOPED_TRACE(dtypeName(t));
    expectMatmul(mc, d, 0);
    // MTE1 moved two 32 x 32 tiles per half.
    EXPECT_EQ(r.cores[0].bytes[int(Pipe::MTE1)],
              uint64_t(4 * 32 * 32 * byteWidth(t)));
    // A sub-tile that does not fit its source tile.
    b.program.code[4].b = I(48);
    r = simulate(b.program, loadArch(), 1,
                 {gmBytes(d.a, t), gmBytes(d.b, t), gmBytes(d.c, DType::F32)});
    EXPECT_NE(r.error.find("sub-tile outside its L1 tile in ascendc.load_data "
                           "(MTE1) at kernel.py:12:5: 32 x 32 at (0, 48) of a "
                           "32 x 64 tile"),
              std::string::npos)
        << r.error;
  }
}

TEST(SimCube, FixpipeToF16AndBf16WithRelu) {
  for (DType out : {DType::F16, DType::BF16}) {
    for (bool relu : {false, true}) {
      MatmulCase mc;
      mc.out = out;
      mc.relu = relu;
      mc.M = 33;
      mc.ldc = 50;
      MatmulData d = makeData(mc, false, 3);
      LaunchResult r = runMatmul(mc, d);
      ASSERT_TRUE(r.ok) << r.error;
      SCOPED_TRACE(std::string(dtypeName(out)) + (relu ? " relu" : ""));
      // The reference rounds its f32 sum to the output once (nearest even).
      expectMatmul(mc, d, 0);
      if (relu)
        for (int64_t i = 0; i < mc.M; ++i)
          for (int64_t j = 0; j < mc.N; ++j)
            ASSERT_GE(get(out, d.c, i * mc.c() + j), 0.0);
    }
  }
  // Round to nearest even on a tie: 1 + 2^-11 is halfway between two halves.
  std::vector<uint8_t> l0c(16 * 16 * 4, 0), row(32);
  float tie = 1.0f + 0x1p-11f, above = 1.0f + 0x1.8p-11f;
  std::memcpy(l0c.data(), &tie, 4);
  std::memcpy(l0c.data() + 4, &above, 4);
  cube::fixpipeRow(DType::F16, DType::F32, false, row.data(), l0c.data(), 16,
                   0, 2);
  EXPECT_EQ(get(DType::F16, row, 0), 1.0);
  EXPECT_EQ(get(DType::F16, row, 1), 1.0 + 0x1p-10);
}

TEST(SimCube, AtomicFixpipeAddsAcrossBlocks) {
  // Both blocks compute the same tile and add it into C.
  MatmulCase mc;
  mc.atomic = AtomicKind::Add;
  MatmulData d = makeData(mc, true);
  LaunchResult r = runMatmul(mc, d, 2);
  ASSERT_TRUE(r.ok) << r.error;
  expectMatmul(mc, d, 0, 2.0);
}

//===----------------------------------------------------------------------===//
// Timing.
//===----------------------------------------------------------------------===//

/// load A, load B (MTE1) -> mmad (M) -> fixpipe (FIX), serialised by flags.
Program mmadChain(DType t, int64_t m, int64_t k, int64_t n) {
  ProgramBuilder b;
  b.program.kernelType = KernelType::AicOnly;
  b.program.args = {{ArgSpec::Kind::Gm, DType::F32, "c"}};
  b.loadL0(Space::L0A, t, 0, 0, m, k, 10);
  b.loadL0(Space::L0B, t, 256 * 1024, 0, k, n, 11);
  b.set(Pipe::MTE1, Pipe::M, 0);
  b.wait(Pipe::MTE1, Pipe::M, 0);
  b.mmad(t, 0, 0, 0, m, k, n, I(1), 12);
  b.set(Pipe::M, Pipe::FIX, 0);
  b.wait(Pipe::M, Pipe::FIX, 0);
  DType acc = t == DType::I8 ? DType::I32 : DType::F32;
  b.fixpipe(0, acc, acc, I(0), I(m), I(n), I(n), 0, m, n, 13);
  b.end();
  return b.program;
}

TEST(SimCube, MmadAndMovesCostFromTheArchModel) {
  ArchModel arch = loadArchWithoutLaunchCosts("Ascend910B1");
  EXPECT_DOUBLE_EQ(arch.mmadFixedCycles, 6);
  EXPECT_DOUBLE_EQ(arch.mmadCyclesPerFractal, 1);
  EXPECT_DOUBLE_EQ(arch.mmadF32FractalFactor, 2);
  struct Case {
    DType t;
    int64_t m, k, n;
    uint64_t mmad; // fixed + fractals * per-fractal cost
  } cases[] = {
      {DType::F16, 128, 128, 128, 6 + 8 * 8 * 8},
      {DType::BF16, 64, 128, 256, 6 + 4 * 8 * 16},
      {DType::F32, 128, 64, 128, 6 + 8 * (64 / 8) * 8 * 2},
      {DType::I8, 128, 128, 128, 6 + 8 * (128 / 32) * 8},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(dtypeName(c.t));
    std::vector<uint8_t> out(size_t(c.m * c.n * 4));
    LaunchResult r = simulate(mmadChain(c.t, c.m, c.k, c.n), arch, 1,
                              {gmBytes(out, DType::F32)});
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_TRUE(r.races.empty());
    const CoreStats &s = r.cores[0];
    EXPECT_EQ(s.busy[int(Pipe::M)], c.mmad);
    const int64_t w = byteWidth(c.t);
    const double perCycle = 1e9 / 1850e6;
    uint64_t loadA = uint64_t(std::ceil(c.m * c.k * w / (437.5 * perCycle)));
    uint64_t loadB = uint64_t(std::ceil(c.k * c.n * w / (210.5 * perCycle)));
    EXPECT_EQ(s.busy[int(Pipe::MTE1)], loadA + loadB);
    // A GM write: the L0C bytes at l0c_to_gm, then the write latency.
    uint64_t fix = copyOccupancy(arch, c.m * c.n * 4, 209.32 * perCycle) +
                   uint64_t(arch.gmWriteLatencyCycles);
    EXPECT_EQ(s.busy[int(Pipe::FIX)], fix);
    EXPECT_EQ(s.bytes[int(Pipe::FIX)], uint64_t(c.m * c.n * 4));
    // The chain is serial: each hop costs the set (1) and the wait (1).
    const TraceEvent *mm = nullptr, *fx = nullptr;
    for (const TraceEvent &e : r.trace) {
      if (e.op == Opcode::Mmad)
        mm = &e;
      if (e.op == Opcode::FixpipeToGm)
        fx = &e;
    }
    ASSERT_TRUE(mm && fx);
    EXPECT_EQ(mm->end - mm->start, c.mmad);
    EXPECT_EQ(mm->start, loadA + loadB + 2);
    EXPECT_EQ(fx->start, mm->end + 2);
    EXPECT_EQ(r.totalCycles, fx->end);
  }
  // f16 vs f32 with the same shape: the f32 fractal is half as deep and
  // costs mmad_f32_fractal_factor.
  std::vector<uint8_t> out(64 * 64 * 4);
  LaunchResult f16 = simulate(mmadChain(DType::F16, 64, 64, 64), arch, 1,
                              {gmBytes(out, DType::F32)});
  LaunchResult f32 = simulate(mmadChain(DType::F32, 64, 64, 64), arch, 1,
                              {gmBytes(out, DType::F32)});
  ASSERT_TRUE(f16.ok && f32.ok);
  EXPECT_EQ(f16.cores[0].busy[int(Pipe::M)] - 6, 64u);
  EXPECT_EQ(f32.cores[0].busy[int(Pipe::M)] - 6, 4u * 64);
}

TEST(SimCube, GmToL1UsesItsBandwidth) {
  ArchModel arch = loadArch("Ascend910B1");
  arch.mteOutstanding = 2; // both loads in flight at once
  MatmulCase mc; // 64 x 32 f16 A, 32 x 48 f16 B
  MatmulData d = makeData(mc, true);
  LaunchResult r = runMatmul(mc, d, 1, &arch);
  ASSERT_TRUE(r.ok) << r.error;
  const double bw = 264e9 / 1850e6;
  uint64_t a = copyOccupancy(arch, 64 * 32 * 2, bw);
  uint64_t b = copyOccupancy(arch, 32 * 48 * 2, bw);
  // Back to back on MTE2, both in flight: the occupancies, then the
  // second one's latency.
  EXPECT_EQ(r.cores[0].busy[int(Pipe::MTE2)],
            a + b + uint64_t(arch.gmReadLatencyCycles));
  EXPECT_EQ(r.cores[0].bytes[int(Pipe::MTE2)], uint64_t((64 * 32 + 32 * 48) * 2));
}

//===----------------------------------------------------------------------===//
// Races.
//===----------------------------------------------------------------------===//

TEST(SimCube, MissingWaitBeforeMmadIsARace) {
  // One tile, so no buffer is reused and the WAR flags are not needed.
  MatmulCase mc;
  mc.dropMte1Mte2 = mc.dropMMte1 = mc.dropFixM = true;
  {
    MatmulData d = makeData(mc, true);
    LaunchResult r = runMatmul(mc, d);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_TRUE(r.races.empty()) << r.races[0].message;
  }
  mc.dropMte1M = true;
  MatmulData d = makeData(mc, true);
  LaunchResult r = runMatmul(mc, d);
  ASSERT_TRUE(r.ok) << r.error;
  ASSERT_FALSE(r.races.empty());
  const Race &race = r.races[0];
  EXPECT_EQ(race.space, Space::L0A);
  EXPECT_EQ(race.firstPipe, Pipe::MTE1);
  EXPECT_TRUE(race.firstWrite);
  EXPECT_EQ(race.secondPipe, Pipe::M);
  EXPECT_FALSE(race.secondWrite);
  EXPECT_TRUE(race.cube);
  EXPECT_EQ(race.message,
            "data race on L0A bytes [0, 4096) on core 0: ascendc.load_data "
            "(MTE1, write) at kernel.py:12:5 and ascendc.mmad (M, read) at "
            "kernel.py:14:5 are not ordered by set_flag/wait_flag, "
            "get_buf/rls_buf or pipe_barrier");
}

TEST(SimCube, EveryMissingCubeDependencyIsARace) {
  struct Case {
    const char *name;
    bool MatmulCase::*drop;
    Space space;
    Pipe first, second;
    bool firstWrite, secondWrite;
  } cases[] = {
      {"MTE2->MTE1", &MatmulCase::dropMte2Mte1, Space::L1, Pipe::MTE2,
       Pipe::MTE1, true, false},
      {"MTE1->M", &MatmulCase::dropMte1M, Space::L0A, Pipe::MTE1, Pipe::M,
       true, false},
      {"M->FIX", &MatmulCase::dropMFix, Space::L0C, Pipe::M, Pipe::FIX, true,
       false},
      {"FIX->M", &MatmulCase::dropFixM, Space::L0C, Pipe::FIX, Pipe::M, false,
       true},
      {"M->MTE1", &MatmulCase::dropMMte1, Space::L0A, Pipe::M, Pipe::MTE1,
       false, true},
      {"MTE1->MTE2", &MatmulCase::dropMte1Mte2, Space::L1, Pipe::MTE1,
       Pipe::MTE2, false, true},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.name);
    MatmulCase mc;
    mc.K = 64; // two K tiles and two N tiles: buffers are reused
    mc.N = 96;
    mc.*(c.drop) = true;
    MatmulData d = makeData(mc, true);
    // The unsynchronised pipe also runs ahead of the flags it does set, which
    // may stop the run with a flag error after the race was recorded.
    LaunchResult r = runMatmul(mc, d);
    bool found = false;
    for (const Race &race : r.races)
      found |= race.space == c.space && race.firstPipe == c.first &&
               race.secondPipe == c.second &&
               race.firstWrite == c.firstWrite &&
               race.secondWrite == c.secondWrite;
    EXPECT_TRUE(found) << (r.races.empty() ? "no race"
                                           : "first: " + r.races[0].message);
  }
  MatmulCase ok;
  ok.K = 64;
  ok.N = 96;
  MatmulData d = makeData(ok, true);
  LaunchResult r = runMatmul(ok, d);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(r.races.empty()) << r.races[0].message;
}

//===----------------------------------------------------------------------===//
// MIX kernels.
//===----------------------------------------------------------------------===//

/// Runs simulate on a thread and fails (and exits) instead of hanging.
LaunchResult simulateOrDie(const Program &program, const ArchModel &arch,
                           int blocks, const std::vector<LaunchArg> &args) {
  auto promise = std::make_shared<std::promise<LaunchResult>>();
  std::future<LaunchResult> result = promise->get_future();
  std::thread([=] { promise->set_value(simulate(program, arch, blocks, args)); })
      .detach();
  if (result.wait_for(std::chrono::seconds(60)) != std::future_status::ready) {
    ADD_FAILURE() << "simulate() hung";
    std::_Exit(1);
  }
  return result.get();
}

constexpr int64_t kMixM = 32, kMixK = 32, kMixN = 48;

/// Per block b: the AIC computes A[b] (M x K f16) * B (K x N f16) into the
/// block's workspace (f32) and raises cross-core flag 0; the AIV waits for
/// it, copies the workspace to UB, doubles it and stores C[b]. Arguments:
/// A (blocks * M x K), B, C (blocks * M x N f32).
Program makeMixProgram() {
  ProgramBuilder b;
  Program &p = b.program;
  p.kernelName = "mix_matmul_scale";
  p.kernelType = KernelType::Mix;
  p.workspaceBytesPerBlock = kMixM * kMixN * 4;
  p.args = {{ArgSpec::Kind::Gm, DType::F16, "a"},
            {ArgSpec::Kind::Gm, DType::F16, "b"},
            {ArgSpec::Kind::Gm, DType::F32, "c"}};
  const int64_t mn = kMixM * kMixN;
  // Scalar control on both cores.
  int blk = b.special(Opcode::BlockIdx);
  int offA = b.scalar(ScalarOp::Mul, R(blk), I(kMixM * kMixK));
  int offC = b.scalar(ScalarOp::Mul, R(blk), I(mn));
  // The AIC: matmul to the workspace.
  b.cores = Instr::kAicCore;
  const int64_t bL1 = kMixM * kMixK * 2;
  b.copyToL1(0, DType::F16, R(offA), I(kMixM), I(kMixK), I(kMixK), 0, kMixM,
             kMixK, 10);
  b.copyToL1(1, DType::F16, I(0), I(kMixK), I(kMixN), I(kMixN), bL1, kMixK,
             kMixN, 11);
  b.set(Pipe::MTE2, Pipe::MTE1, 0);
  b.wait(Pipe::MTE2, Pipe::MTE1, 0);
  b.loadL0(Space::L0A, DType::F16, 0, 0, kMixM, kMixK, 12);
  b.loadL0(Space::L0B, DType::F16, bL1, 0, kMixK, kMixN, 13);
  b.set(Pipe::MTE1, Pipe::M, 0);
  b.wait(Pipe::MTE1, Pipe::M, 0);
  b.mmad(DType::F16, 0, 0, 0, kMixM, kMixK, kMixN, I(1), 14);
  b.set(Pipe::M, Pipe::FIX, 0);
  b.wait(Pipe::M, Pipe::FIX, 0);
  b.fixpipe(kWorkspaceArg, DType::F32, DType::F32, I(0), I(kMixM), I(kMixN),
            I(kMixN), 0, kMixM, kMixN, 15);
  b.crossCore(Opcode::CrossCoreSetFlag, Pipe::FIX, 0, Instr::kAicCore, 16);
  // The AIV: scale the workspace into C.
  b.cores = Instr::kAivCore;
  b.crossCore(Opcode::CrossCoreWaitFlag, Pipe::S, 0, Instr::kAivCore, 20);
  b.copyIn(kWorkspaceArg, DType::F32, I(0), I(mn), 0, 21);
  b.set(Pipe::MTE2, Pipe::V, 0);
  b.wait(Pipe::MTE2, Pipe::V, 0);
  b.vecScalar(VecOp::Mul, DType::F32, mn * 4, 0, 2.0, I(mn), 22);
  b.set(Pipe::V, Pipe::MTE3, 0);
  b.wait(Pipe::V, Pipe::MTE3, 0);
  b.copyOut(2, DType::F32, R(offC), I(mn), mn * 4, 23);
  b.end();
  return p;
}

struct MixData {
  std::vector<uint8_t> a, b, c;
  std::vector<LaunchArg> args() {
    return {gmBytes(a, DType::F16), gmBytes(b, DType::F16),
            gmBytes(c, DType::F32)};
  }
};

MixData makeMixData(int blocks) {
  MixData d;
  d.a.resize(size_t(blocks * kMixM * kMixK * 2));
  d.b.resize(size_t(kMixK * kMixN * 2));
  d.c.resize(size_t(blocks * kMixM * kMixN * 4));
  for (int64_t i = 0; i < blocks * kMixM * kMixK; ++i)
    put(DType::F16, d.a, i, double(i % 7) - 3);
  for (int64_t i = 0; i < kMixK * kMixN; ++i)
    put(DType::F16, d.b, i, double(i % 5) - 2);
  return d;
}

void expectMixResult(const MixData &d, int blocks) {
  for (int blk = 0; blk < blocks; ++blk)
    for (int64_t i = 0; i < kMixM; ++i)
      for (int64_t j = 0; j < kMixN; ++j) {
        double acc = 0;
        for (int64_t k = 0; k < kMixK; ++k)
          acc += get(DType::F16, d.a, (blk * kMixM + i) * kMixK + k) *
                 get(DType::F16, d.b, k * kMixN + j);
        ASSERT_EQ(get(DType::F32, d.c, (blk * kMixM + i) * kMixN + j),
                  2 * acc)
            << "block " << blk << " C[" << i << "][" << j << "]";
      }
}

TEST(SimMix, MatmulOnAicFeedsTheAivThroughTheWorkspace) {
  ArchModel arch = loadArch();
  const int blocks = 2;
  MixData d = makeMixData(blocks);
  Program p = makeMixProgram();
  LaunchResult r = simulateOrDie(p, arch, blocks, d.args());
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(r.races.empty()) << r.races[0].message;
  expectMixResult(d, blocks);

  // Two cores per block: the AIC, then the AIV, starting together.
  ASSERT_EQ(r.cores.size(), 4u);
  for (int blk = 0; blk < blocks; ++blk) {
    const CoreStats &aic = r.cores[size_t(2 * blk)];
    const CoreStats &aiv = r.cores[size_t(2 * blk + 1)];
    EXPECT_TRUE(aic.cube);
    EXPECT_FALSE(aiv.cube);
    EXPECT_EQ(aic.block, blk);
    EXPECT_EQ(aiv.block, blk);
    EXPECT_EQ(aic.start, aiv.start);
    EXPECT_EQ(aic.instrs[int(Pipe::V)], 0u);
    EXPECT_EQ(aiv.instrs[int(Pipe::M)], 0u);
    EXPECT_EQ(countOps(r, Opcode::Mmad, blk), 1);
    EXPECT_EQ(countOps(r, Opcode::VecScalar, blk), 1);
    EXPECT_EQ(aic.busy[int(Pipe::V)] + aiv.busy[int(Pipe::M)] +
                  aiv.busy[int(Pipe::FIX)] + aiv.busy[int(Pipe::MTE1)],
              0u);
    // The AIV's workspace copy starts after the AIC's fixpipe ended, plus
    // the cross-core flag latency.
    const TraceEvent *fix = nullptr, *copy = nullptr, *set = nullptr,
                     *wait = nullptr;
    for (const TraceEvent &e : r.trace) {
      if (e.core != blk)
        continue;
      if (e.op == Opcode::FixpipeToGm && e.cube)
        fix = &e;
      if (e.op == Opcode::CopyGmToLocal && !e.cube)
        copy = &e;
      if (e.op == Opcode::CrossCoreSetFlag)
        set = &e;
      if (e.op == Opcode::CrossCoreWaitFlag)
        wait = &e;
    }
    ASSERT_TRUE(fix && copy && set && wait);
    EXPECT_TRUE(set->cube);
    EXPECT_FALSE(wait->cube);
    EXPECT_EQ(set->flowId, wait->flowId);
    EXPECT_EQ(set->start, fix->end);
    EXPECT_EQ(wait->end, fix->end + uint64_t(arch.crossCoreFlagCycles));
    EXPECT_GE(copy->start, fix->end);
    EXPECT_EQ(copy->start, wait->end);
  }
  EXPECT_EQ(r.totalCycles,
            std::max({r.cores[0].cycles, r.cores[1].cycles, r.cores[2].cycles,
                      r.cores[3].cycles}));

  std::string json = traceToJson(r, p, arch);
  for (const char *pid : {"core0.cubecore0", "core0.veccore0",
                          "core1.cubecore0", "core1.veccore0", "AicToAiv"})
    EXPECT_NE(json.find(pid), std::string::npos) << pid;
  std::string csv = pipeUtilizationCsv(r, arch);
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 3); // header + 2 blocks
}

//===----------------------------------------------------------------------===//
// Ascend950's local paths between the cores of a group: the AIC's fixpipe
// writes an AIV's UB, an AIV's MTE3 writes the AIC's L1.
//===----------------------------------------------------------------------===//

constexpr int64_t kLocM = 32, kLocK = 32, kLocN = 48;

/// C = 2 * (A * B): the AIC multiplies (A, B f16 from GM) and its fixpipe
/// writes the f32 product into the AIV's UB (`dual`: half the rows into each
/// of two AIVs); the AIV doubles its rows and stores them to C.
/// `waitForFixpipe` false: the AIV does not wait for the cross-core flag.
/// `band`: the fixpipe moves only the second 16-row band of the tile (rows
/// [16, 32)), which the AIVs store at those rows of C.
Program fixpipeToUbProgram(bool dual, bool waitForFixpipe = true, bool band = false) {
  ProgramBuilder b;
  Program &p = b.program;
  p.kernelName = "fixpipe_to_ub";
  p.kernelType = KernelType::Mix;
  p.vectorCoresPerGroup = dual ? 2 : 1;
  p.args = {{ArgSpec::Kind::Gm, DType::F16, "a"},
            {ArgSpec::Kind::Gm, DType::F16, "b"},
            {ArgSpec::Kind::Gm, DType::F32, "c"}};
  b.cores = Instr::kAicCore;
  const int64_t bL1 = kLocM * kLocK * 2;
  b.copyToL1(0, DType::F16, I(0), I(kLocM), I(kLocK), I(kLocK), 0, kLocM, kLocK, 10);
  b.copyToL1(1, DType::F16, I(0), I(kLocK), I(kLocN), I(kLocN), bL1, kLocK, kLocN, 11);
  b.set(Pipe::MTE2, Pipe::MTE1, 0);
  b.wait(Pipe::MTE2, Pipe::MTE1, 0);
  b.loadL0(Space::L0A, DType::F16, 0, 0, kLocM, kLocK, 12);
  b.loadL0(Space::L0B, DType::F16, bL1, 0, kLocK, kLocN, 13);
  b.set(Pipe::MTE1, Pipe::M, 0);
  b.wait(Pipe::MTE1, Pipe::M, 0);
  b.mmad(DType::F16, 0, 0, 0, kLocM, kLocK, kLocN, I(1), 14);
  b.set(Pipe::M, Pipe::FIX, 0);
  b.wait(Pipe::M, Pipe::FIX, 0);
  const int64_t row0 = band ? 16 : 0, moved = kLocM - row0;
  b.fixpipeToUb(DType::F32, DType::F32, 0, kLocM, kLocN, 0, 15, dual, row0, moved);
  b.crossCore(Opcode::CrossCoreSetFlag, Pipe::FIX, 0, Instr::kAicCore, 16);
  b.cores = Instr::kAivCore;
  const int64_t rows = dual ? moved / 2 : moved, elems = rows * kLocN;
  int sub = b.special(Opcode::SubBlockIdx);
  int offC = b.scalar(ScalarOp::Add, R(b.scalar(ScalarOp::Mul, R(sub), I(elems))), I(row0 * kLocN));
  if (waitForFixpipe)
    b.crossCore(Opcode::CrossCoreWaitFlag, Pipe::S, 0, Instr::kAivCore, 20);
  b.vecScalar(VecOp::Mul, DType::F32, elems * 4, 0, 2.0, I(elems), 22);
  b.set(Pipe::V, Pipe::MTE3, 0);
  b.wait(Pipe::V, Pipe::MTE3, 0);
  b.copyOut(2, DType::F32, R(offC), I(elems), elems * 4, 23);
  if (!waitForFixpipe) // the set is consumed, by a wait too late to order anything
    b.crossCore(Opcode::CrossCoreWaitFlag, Pipe::S, 0, Instr::kAivCore, 24);
  b.cores = Instr::kBothCores;
  b.end();
  return p;
}

struct LocalPathData {
  std::vector<uint8_t> a, b, c;
  LocalPathData() {
    a.resize(size_t(kLocM * kLocK * 2));
    b.resize(size_t(kLocK * kLocN * 2));
    c.resize(size_t(kLocM * kLocN * 4));
    for (int64_t i = 0; i < kLocM * kLocK; ++i)
      put(DType::F16, a, i, double(i % 7) - 3);
    for (int64_t i = 0; i < kLocK * kLocN; ++i)
      put(DType::F16, b, i, double(i % 5) - 2);
  }
  std::vector<LaunchArg> args() {
    return {gmBytes(a, DType::F16), gmBytes(b, DType::F16), gmBytes(c, DType::F32)};
  }
  /// C == scale * (A * B), exactly (small integers).
  void expectScaledProduct(double scale, const std::string &what) const {
    for (int64_t i = 0; i < kLocM; ++i)
      for (int64_t j = 0; j < kLocN; ++j) {
        double acc = 0;
        for (int64_t k = 0; k < kLocK; ++k)
          acc += get(DType::F16, a, i * kLocK + k) * get(DType::F16, b, k * kLocN + j);
        ASSERT_EQ(get(DType::F32, c, i * kLocN + j), scale * acc)
            << what << " C[" << i << "][" << j << "]";
      }
  }
  /// Every `op` of the run ran on the AIC (`onAic`) or an AIV for bytes /
  /// bytesPerCycle cycles: a local copy, no GM latency.
  static void expectLocalCopyCycles(const LaunchResult &r, Opcode op, bool onAic, double bytes,
                                    double bytesPerCycle, const ArchModel &arch) {
    int seen = 0;
    for (const TraceEvent &e : r.trace)
      if (e.op == op) {
        ++seen;
        EXPECT_EQ(e.cube, onAic);
        EXPECT_EQ(e.end - e.start,
                  copyOccupancy(arch, bytes, bytesPerCycle));
      }
    EXPECT_GT(seen, 0);
  }
};

TEST(SimMix, FixpipeWritesTheVectorCoresUb) {
  ArchModel arch = loadArch("Ascend950");
  for (bool dual : {false, true}) {
    LocalPathData d;
    LaunchResult r = simulateOrDie(fixpipeToUbProgram(dual), arch, 1, d.args());
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_TRUE(r.races.empty()) << r.races[0].message;
    // Row-major C: with dual, rows [0, M/2) came through AIV 0 and the rest
    // through AIV 1, each storing its half at sub * (M/2) rows.
    d.expectScaledProduct(2, dual ? "dual" : "single");
    // FIX moves the L0C bytes at l0c_to_ub (no GM latency); the AIVs start
    // after it plus the cross-core flag.
    LocalPathData::expectLocalCopyCycles(r, Opcode::FixpipeToUb, true, kLocM * kLocN * 4,
                                         arch.l0cToUbBytesPerCycle, arch);
    for (const TraceEvent &e : r.trace)
      if (e.op == Opcode::FixpipeToUb)
        for (const TraceEvent &v : r.trace)
          if (v.op == Opcode::VecScalar)
            EXPECT_GE(v.start, e.end + uint64_t(arch.crossCoreFlagCycles));
    EXPECT_EQ(countOps(r, Opcode::FixpipeToUb), 1);
  }
}

TEST(SimMix, FixpipeMovesABandOfRowsIntoTheVectorCoresUb) {
  // The second 16-row band of the 32-row tile: it starts 16 rows into each
  // NZ column block; rows before it never reach UB (C keeps its zeros), and
  // FIX moves the band's bytes only.
  ArchModel arch = loadArch("Ascend950");
  for (bool dual : {false, true}) {
    LocalPathData d;
    LaunchResult r = simulateOrDie(fixpipeToUbProgram(dual, true, /*band=*/true), arch, 1, d.args());
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_TRUE(r.races.empty()) << r.races[0].message;
    for (int64_t i = 0; i < kLocM; ++i)
      for (int64_t j = 0; j < kLocN; ++j) {
        double acc = 0;
        for (int64_t k = 0; k < kLocK; ++k)
          acc += get(DType::F16, d.a, i * kLocK + k) * get(DType::F16, d.b, k * kLocN + j);
        ASSERT_EQ(get(DType::F32, d.c, i * kLocN + j), i < 16 ? 0.0 : 2 * acc)
            << (dual ? "dual" : "single") << " C[" << i << "][" << j << "]";
      }
    LocalPathData::expectLocalCopyCycles(r, Opcode::FixpipeToUb, true, 16 * kLocN * 4,
                                         arch.l0cToUbBytesPerCycle, arch);
  }
}

TEST(SimMix, FixpipeIntoUbWithoutTheCrossCoreFlagIsARace) {
  ArchModel arch = loadArch("Ascend950");
  LocalPathData d;
  LaunchResult r = simulateOrDie(fixpipeToUbProgram(false, /*waitForFixpipe=*/false), arch, 1,
                                 d.args());
  ASSERT_TRUE(r.ok) << r.error;
  ASSERT_FALSE(r.races.empty());
  const Race &race = r.races[0];
  EXPECT_EQ(race.space, Space::UB);
  EXPECT_EQ(race.firstPipe, Pipe::FIX);
  EXPECT_EQ(race.secondPipe, Pipe::V);
  EXPECT_NE(race.message.find("ascendc.fixpipe_ub (FIX, write, AIC)"), std::string::npos)
      << race.message;
  EXPECT_NE(race.message.find("on core 0 (AIV)"), std::string::npos) << race.message;
  EXPECT_NE(race.message.find("not ordered by a cross-core flag"), std::string::npos)
      << race.message;
}

/// C = A * B with A staged by the AIV: GM -> its UB (ND), UB -> the AIC's L1
/// (NZ, in two halves of rows, or whole), a cross-core flag; the AIC loads
/// B from GM, multiplies and stores C. `waitForCopy` false: no flag.
Program ubToL1Program(bool halves, bool waitForCopy = true) {
  ProgramBuilder b;
  Program &p = b.program;
  p.kernelName = "ub_to_l1";
  p.kernelType = KernelType::Mix;
  p.args = {{ArgSpec::Kind::Gm, DType::F16, "a"},
            {ArgSpec::Kind::Gm, DType::F16, "b"},
            {ArgSpec::Kind::Gm, DType::F32, "c"}};
  b.cores = Instr::kAivCore;
  b.copyIn(0, DType::F16, I(0), I(kLocM * kLocK), 0, 10);
  b.set(Pipe::MTE2, Pipe::MTE3, 0);
  b.wait(Pipe::MTE2, Pipe::MTE3, 0);
  if (halves) { // rows [0, M/2) and [M/2, M) as two copies, `at` their first row
    const int64_t half = kLocM / 2;
    b.copyUbToL1(DType::F16, 0, I(0), kLocK, half, 0, kLocM, kLocK, I(0), 11);
    b.copyUbToL1(DType::F16, 0, I(half * kLocK), kLocK, half, 0, kLocM, kLocK, I(half), 11);
  } else {
    b.copyUbToL1(DType::F16, 0, I(0), kLocK, kLocM, 0, kLocM, kLocK, I(0), 11);
  }
  b.crossCore(Opcode::CrossCoreSetFlag, Pipe::MTE3, 0, Instr::kAivCore, 12);
  b.cores = Instr::kAicCore;
  const int64_t bL1 = kLocM * kLocK * 2;
  b.copyToL1(1, DType::F16, I(0), I(kLocK), I(kLocN), I(kLocN), bL1, kLocK, kLocN, 13);
  b.set(Pipe::MTE2, Pipe::MTE1, 0);
  b.wait(Pipe::MTE2, Pipe::MTE1, 0);
  if (waitForCopy)
    b.crossCore(Opcode::CrossCoreWaitFlag, Pipe::MTE1, 0, Instr::kAicCore, 14);
  b.loadL0(Space::L0A, DType::F16, 0, 0, kLocM, kLocK, 15);
  b.loadL0(Space::L0B, DType::F16, bL1, 0, kLocK, kLocN, 16);
  b.set(Pipe::MTE1, Pipe::M, 0);
  b.wait(Pipe::MTE1, Pipe::M, 0);
  b.mmad(DType::F16, 0, 0, 0, kLocM, kLocK, kLocN, I(1), 17);
  b.set(Pipe::M, Pipe::FIX, 0);
  b.wait(Pipe::M, Pipe::FIX, 0);
  b.fixpipe(2, DType::F32, DType::F32, I(0), I(kLocM), I(kLocN), I(kLocN), 0, kLocM, kLocN, 18);
  if (!waitForCopy)
    b.crossCore(Opcode::CrossCoreWaitFlag, Pipe::S, 0, Instr::kAicCore, 19);
  b.cores = Instr::kBothCores;
  b.end();
  return p;
}

TEST(SimMix, UbToL1GivesTheCubeCoreAnNzTile) {
  ArchModel arch = loadArch("Ascend950");
  for (bool halves : {false, true}) {
    LocalPathData d;
    LaunchResult r = simulateOrDie(ubToL1Program(halves), arch, 1, d.args());
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_TRUE(r.races.empty()) << r.races[0].message;
    d.expectScaledProduct(1, halves ? "halves" : "whole");
    // MTE3 of the AIV moves the tile's bytes at ub_to_l1, no GM latency.
    const double rows = halves ? kLocM / 2 : kLocM;
    LocalPathData::expectLocalCopyCycles(r, Opcode::CopyUbToL1, false, rows * kLocK * 2,
                                         arch.ubToL1BytesPerCycle, arch);
  }
}

TEST(SimMix, UbToL1WithoutTheCrossCoreFlagIsARace) {
  ArchModel arch = loadArch("Ascend950");
  LocalPathData d;
  LaunchResult r = simulateOrDie(ubToL1Program(false, /*waitForCopy=*/false), arch, 1, d.args());
  ASSERT_TRUE(r.ok) << r.error;
  ASSERT_FALSE(r.races.empty());
  EXPECT_EQ(r.races[0].space, Space::L1);
  EXPECT_NE(r.races[0].message.find("ascendc.copy_ub_to_l1 (MTE3, write, AIV)"),
            std::string::npos)
      << r.races[0].message;
}

TEST(SimMix, CubeVectorLocalPathsExistOnlyOnAscend950) {
  // Atlas A2/A3 exchange through GM: a program with either path is rejected
  // before it runs.
  ArchModel arch = loadArch("Ascend910B1");
  LocalPathData d;
  LaunchResult r = simulate(fixpipeToUbProgram(false), arch, 1, d.args());
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("L0C -> UB has no data path on Ascend910B1"), std::string::npos) << r.error;
  r = simulate(ubToL1Program(false), arch, 1, d.args());
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("UB -> L1 has no data path on Ascend910B1"), std::string::npos) << r.error;
}

// MIX_AIC_1_2: a group is the AIC and two AIVs. Each AIV writes its
// sub-block index to its own element of the output after the AIC's flag;
// the AIC's wait for flag 2 completes only once both AIVs have set it.
Program twoAivProgram(bool bothSet) {
  ProgramBuilder b;
  b.program.kernelType = KernelType::Mix;
  b.program.vectorCoresPerGroup = 2;
  b.program.args = {{ArgSpec::Kind::Gm, DType::I32, "out"}};
  b.cores = Instr::kAicCore;
  b.crossCore(Opcode::CrossCoreSetFlag, Pipe::FIX, 1, Instr::kAicCore, 10);
  b.crossCore(Opcode::CrossCoreWaitFlag, Pipe::S, 2, Instr::kAicCore, 11);
  b.cores = Instr::kAivCore;
  int sub = b.special(Opcode::SubBlockIdx);
  int blk = b.special(Opcode::BlockIdx);
  b.crossCore(Opcode::CrossCoreWaitFlag, Pipe::S, 1, Instr::kAivCore, 12);
  // out[block * 2 + sub] = sub + 10 (a 1-element UB tile at 0).
  int slot = b.scalar(ScalarOp::Mul, Operand::ofReg(blk), Operand::ofImm(2));
  slot = b.scalar(ScalarOp::Add, Operand::ofReg(slot), Operand::ofReg(sub));
  int value = b.scalar(ScalarOp::Add, Operand::ofReg(sub), Operand::ofImm(10));
  b.storeLocal(DType::I32, 0, Operand::ofImm(0), value, 0, 13);
  b.set(Pipe::S, Pipe::MTE3, 0, 14);
  b.wait(Pipe::S, Pipe::MTE3, 0, 14);
  b.copyOut(0, DType::I32, Operand::ofReg(slot), Operand::ofImm(1), 0, 15);
  int32_t skip = -1;
  if (!bothSet) // only sub-block 0 answers
    skip = b.branchIfZero(b.scalar(ScalarOp::CmpEQ, Operand::ofReg(sub), Operand::ofImm(0)));
  b.crossCore(Opcode::CrossCoreSetFlag, Pipe::MTE3, 2, Instr::kAivCore, 16);
  if (skip >= 0)
    b.patch(skip, b.pc());
  b.cores = Instr::kBothCores;
  b.end();
  return b.program;
}

TEST(SimMix, TwoVectorCoresPerGroupShareItsCrossCoreFlags) {
  ArchModel arch = loadArch();
  const int blocks = 2;
  std::vector<int32_t> out(4, -1);
  LaunchResult r = simulateOrDie(twoAivProgram(true), arch, blocks,
                                 {gmArg(out, DType::I32)});
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(r.races.empty()) << r.races[0].message;
  EXPECT_EQ(out, (std::vector<int32_t>{10, 11, 10, 11}));
  // Three cores per block: the AIC, then AIV0 and AIV1, starting together.
  ASSERT_EQ(r.cores.size(), 6u);
  for (int blk = 0; blk < blocks; ++blk) {
    for (int i = 0; i < 3; ++i) {
      const CoreStats &c = r.cores[size_t(3 * blk + i)];
      EXPECT_EQ(c.block, blk);
      EXPECT_EQ(c.cube, i == 0);
      EXPECT_EQ(int(c.sub), i == 0 ? 0 : i - 1);
      EXPECT_EQ(c.start, r.cores[size_t(3 * blk)].start);
    }
    // The AIC's wait ends at the later of the two AIVs' sets, plus the flag
    // latency; each AIV's wait at the AIC's one set.
    uint64_t lastSet = 0, aicWaitEnd = 0;
    int aivWaits = 0;
    for (const TraceEvent &e : r.trace) {
      if (e.core != blk)
        continue;
      if (e.op == Opcode::CrossCoreSetFlag && !e.cube)
        lastSet = std::max(lastSet, e.start);
      if (e.op == Opcode::CrossCoreWaitFlag && e.cube)
        aicWaitEnd = e.end;
      aivWaits += e.op == Opcode::CrossCoreWaitFlag && !e.cube;
    }
    EXPECT_EQ(aivWaits, 2);
    EXPECT_EQ(aicWaitEnd, lastSet + uint64_t(arch.crossCoreFlagCycles));
  }
  std::string json = traceToJson(r, twoAivProgram(true), arch);
  for (const char *pid : {"core0.cubecore0", "core0.veccore0", "core0.veccore1",
                          "core1.veccore1"})
    EXPECT_NE(json.find(pid), std::string::npos) << pid;
  std::string csv = pipeUtilizationCsv(r, arch);
  // header + (block, sub-block) rows 0,0 0,1 1,0 1,1
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 5);
  EXPECT_NE(csv.find("\n1,1,"), std::string::npos) << csv;
}

TEST(SimMix, TheCubeCoreWaitsForEveryVectorCoreOfItsGroup) {
  ArchModel arch = loadArch();
  std::vector<int32_t> out(2, -1);
  LaunchResult r = simulateOrDie(twoAivProgram(false), arch, 1,
                                 {gmArg(out, DType::I32)});
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error,
            "deadlock in ascendc.cross_core_wait_flag (S) at kernel.py:11:5: "
            "the AIC waits for cross-core flag 2 from the AIV0 and the AIV1, "
            "which ended without raising it on every one on core 0 (AIC)");
}

TEST(SimMix, TwoVectorCoresPerGroupNeedAMixKernel) {
  ArchModel arch = loadArch();
  Program p = twoAivProgram(true);
  p.kernelType = KernelType::AivOnly;
  std::vector<int32_t> out(2, -1);
  LaunchResult r = simulate(p, arch, 1, {gmArg(out, DType::I32)});
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("two vector cores per group need a MIX kernel"), std::string::npos) << r.error;
  p.kernelType = KernelType::Mix;
  p.vectorCoresPerGroup = 3;
  r = simulate(p, arch, 1, {gmArg(out, DType::I32)});
  EXPECT_NE(r.error.find("1 or 2 vector cores, not 3"), std::string::npos) << r.error;
}

TEST(SimMix, GroupsRunInWavesOfMinAicAiv) {
  ArchModel arch = loadArch();
  arch.aicCores = 1; // one group at a time
  MixData d = makeMixData(3);
  LaunchResult r = simulateOrDie(makeMixProgram(), arch, 3, d.args());
  ASSERT_TRUE(r.ok) << r.error;
  expectMixResult(d, 3);
  ASSERT_EQ(r.cores.size(), 6u);
  for (int blk = 1; blk < 3; ++blk) {
    uint64_t prevEnd = std::max(r.cores[size_t(2 * blk - 2)].cycles,
                                r.cores[size_t(2 * blk - 1)].cycles);
    EXPECT_EQ(r.cores[size_t(2 * blk)].start, prevEnd);
    EXPECT_EQ(r.cores[size_t(2 * blk + 1)].start, prevEnd);
  }
  EXPECT_EQ(r.totalCycles, std::max(r.cores[4].cycles, r.cores[5].cycles));
}

TEST(SimMix, WaitWithoutSetIsADeadlockNotAHang) {
  ArchModel arch = loadArch();
  {
    ProgramBuilder b;
    b.program.kernelType = KernelType::Mix;
    b.constI(1);
    b.crossCore(Opcode::CrossCoreWaitFlag, Pipe::S, 3, Instr::kAivCore, 30);
    b.end();
    LaunchResult r = simulateOrDie(b.program, arch, 2, {});
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.error,
              "deadlock in ascendc.cross_core_wait_flag (S) at kernel.py:30:5: "
              "the AIV waits for cross-core flag 3 from the AIC, which ended "
              "without raising it on core 0 (AIV)");
  }
  {
    // Each side waits for the other first.
    ProgramBuilder b;
    b.program.kernelType = KernelType::Mix;
    b.crossCore(Opcode::CrossCoreWaitFlag, Pipe::S, 1, Instr::kAicCore, 31);
    b.crossCore(Opcode::CrossCoreSetFlag, Pipe::FIX, 2, Instr::kAicCore, 32);
    b.crossCore(Opcode::CrossCoreWaitFlag, Pipe::S, 2, Instr::kAivCore, 33);
    b.crossCore(Opcode::CrossCoreSetFlag, Pipe::MTE3, 1, Instr::kAivCore, 34);
    b.end();
    LaunchResult r = simulateOrDie(b.program, arch, 1, {});
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.error,
              "deadlock in ascendc.cross_core_wait_flag (S) at kernel.py:31:5: "
              "the AIC waits for cross-core flag 1 from the AIV, which itself "
              "waits for cross-core flag 2 in ascendc.cross_core_wait_flag at "
              "kernel.py:33:5; neither core can proceed on core 0 (AIC)");
  }
  {
    // A ping-pong that does complete: AIC -> AIV -> AIC.
    ProgramBuilder b;
    b.program.kernelType = KernelType::Mix;
    b.crossCore(Opcode::CrossCoreSetFlag, Pipe::FIX, 1, Instr::kAicCore, 40);
    b.crossCore(Opcode::CrossCoreWaitFlag, Pipe::S, 2, Instr::kAicCore, 41);
    b.crossCore(Opcode::CrossCoreWaitFlag, Pipe::S, 1, Instr::kAivCore, 42);
    b.crossCore(Opcode::CrossCoreSetFlag, Pipe::MTE3, 2, Instr::kAivCore, 43);
    b.end();
    LaunchResult r = simulateOrDie(b.program, arch, 1, {});
    ASSERT_TRUE(r.ok) << r.error;
    // AIC set at 0 arrives at 50; the AIV's set at ~51 arrives at ~101.
    EXPECT_GE(r.cores[0].cycles, uint64_t(2 * arch.crossCoreFlagCycles));
  }
}

TEST(SimMix, AFailingCoreStopsItsPartner) {
  // The AIV fails while the AIC waits for it with an intra-core flag still
  // set: the AIV's error is reported, not the AIC's unfinished state.
  ProgramBuilder b;
  b.program.kernelType = KernelType::Mix;
  b.program.workspaceBytesPerBlock = 64;
  b.cores = Instr::kAicCore;
  b.set(Pipe::MTE2, Pipe::MTE1, 0);
  b.crossCore(Opcode::CrossCoreWaitFlag, Pipe::S, 1, Instr::kAicCore, 80);
  b.wait(Pipe::MTE2, Pipe::MTE1, 0);
  b.cores = Instr::kAivCore;
  b.copyIn(kWorkspaceArg, DType::F32, I(0), I(32), 0, 81);
  b.crossCore(Opcode::CrossCoreSetFlag, Pipe::MTE2, 1, Instr::kAivCore, 82);
  b.end();
  LaunchResult r = simulateOrDie(b.program, loadArch(), 2, {});
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("GM out-of-bounds in ascendc.data_copy (MTE2) at "
                         "kernel.py:81:5"),
            std::string::npos)
      << r.error;
  // Fixed, it runs.
  b.program.workspaceBytesPerBlock = 128;
  r = simulateOrDie(b.program, loadArch(), 2, {});
  EXPECT_TRUE(r.ok) << r.error;
}

TEST(SimMix, CrossCoreCounterMisuseIsReported) {
  ArchModel arch = loadArch();
  {
    // A set nobody waits for.
    ProgramBuilder b;
    b.program.kernelType = KernelType::Mix;
    b.crossCore(Opcode::CrossCoreSetFlag, Pipe::FIX, 4, Instr::kAicCore, 50);
    b.end();
    LaunchResult r = simulateOrDie(b.program, arch, 1, {});
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.error.find("cross-core flag left set at the end of the kernel "
                           "in ascendc.cross_core_set_flag (FIX) at "
                           "kernel.py:50:5"),
              std::string::npos)
        << r.error;
  }
  {
    // 16 sets arrive before the AIV (busy with a scalar GM load) consumes
    // any: the 4-bit counter overflows.
    ProgramBuilder b;
    b.program.kernelType = KernelType::Mix;
    b.program.args = {{ArgSpec::Kind::Gm, DType::F32, "x"}};
    for (int i = 0; i < 16; ++i)
      b.crossCore(Opcode::CrossCoreSetFlag, Pipe::FIX, 0, Instr::kAicCore, 60);
    b.cores = Instr::kAivCore;
    b.loadGm(0, DType::F32, I(0), 61);
    b.loadGm(0, DType::F32, I(0), 61);
    for (int i = 0; i < 16; ++i)
      b.crossCore(Opcode::CrossCoreWaitFlag, Pipe::S, 0, Instr::kAivCore, 62);
    b.end();
    std::vector<float> x(8);
    LaunchResult r =
        simulateOrDie(b.program, arch, 1, {gmArg(x, DType::F32)});
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.error.find("cross-core flag counter overflow"),
              std::string::npos)
        << r.error;
    EXPECT_NE(r.error.find("kernel.py:60:5"), std::string::npos) << r.error;
  }
}

TEST(SimMix, WorkspaceIsBoundsChecked) {
  ProgramBuilder b;
  b.program.kernelType = KernelType::Mix;
  b.program.workspaceBytesPerBlock = 256;
  b.cores = Instr::kAivCore;
  b.copyIn(kWorkspaceArg, DType::F32, I(32), I(64), 0, 70);
  b.end();
  LaunchResult r = simulateOrDie(b.program, loadArch(), 1, {});
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error, "GM out-of-bounds in ascendc.data_copy (MTE2) at "
                     "kernel.py:70:5: elements [32, 96) of the block's "
                     "workspace (64 elements) on core 0 (AIV)");
  b.program.workspaceBytesPerBlock = 0;
  r = simulate(b.program, loadArch(), 1, {});
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("the program has none"), std::string::npos) << r.error;
}

//===----------------------------------------------------------------------===//
// Validation and bounds.
//===----------------------------------------------------------------------===//

TEST(SimCubeValidation, AivOnlyKernelsCannotTouchCubeBuffers) {
  ProgramBuilder b;
  b.program.args = {{ArgSpec::Kind::Gm, DType::F16, "x"}};
  b.copyIn(0, DType::F16, I(0), I(16), 0, 10);
  b.program.code.back().dstSpace = Space::L0A;
  b.end();
  std::vector<uint16_t> x(16);
  LaunchResult r = simulate(b.program, loadArch(), 1, {gmArg(x, DType::F16)});
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error, "instruction 0 (ascendc.data_copy at kernel.py:10:5): "
                     "AIV_ONLY kernel: vector cores (AIV) have no L0A");

  ProgramBuilder m;
  m.mmad(DType::F16, 0, 0, 0, 16, 16, 16, I(1), 11);
  m.end();
  r = simulate(m.program, loadArch(), 1, {});
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("AIV_ONLY kernel: vector cores (AIV) have no L0A"),
            std::string::npos)
      << r.error;
  // The same instruction on the AIC of a MIX kernel is fine; on its AIV not.
  m.program.kernelType = KernelType::Mix;
  m.program.code[0].cores = Instr::kAivCore;
  r = simulate(m.program, loadArch(), 1, {});
  EXPECT_NE(r.error.find("MIX kernel, AIV instruction: vector cores (AIV) "
                         "have no L0A"),
            std::string::npos)
      << r.error;
  m.program.code[0].cores = Instr::kAicCore;
  r = simulate(m.program, loadArch(), 1, {});
  EXPECT_TRUE(r.ok) << r.error;
}

TEST(SimCubeValidation, AicOnlyKernelsHaveNoVectorUnit) {
  ProgramBuilder b;
  b.program.kernelType = KernelType::AicOnly;
  b.vec(VecOp::Add, DType::F32, 0, 0, 0, I(8), 12);
  b.end();
  LaunchResult r = simulate(b.program, loadArch(), 1, {});
  EXPECT_EQ(r.error, "instruction 0 (ascendc.binary at kernel.py:12:5): "
                     "AIC_ONLY kernel: cube cores (AIC) have no UB");
  ProgramBuilder f;
  f.program.kernelType = KernelType::AicOnly;
  f.set(Pipe::V, Pipe::MTE2, 0);
  f.end();
  r = simulate(f.program, loadArch(), 1, {});
  EXPECT_NE(r.error.find("pipe V does not exist on cube cores (AIC)"),
            std::string::npos)
      << r.error;
}

TEST(SimCubeValidation, CubeOperandsAreChecked) {
  ArchModel arch = loadArch();
  auto errorOf = [&](auto edit, KernelType kind = KernelType::AicOnly) {
    ProgramBuilder b;
    b.program.kernelType = kind;
    b.program.args = {{ArgSpec::Kind::Gm, DType::F16, "x"}};
    b.mmad(DType::F16, 0, 0, 0, 32, 32, 32, I(1), 14);
    edit(b.program.code.back());
    b.end();
    std::vector<uint16_t> x(16);
    return simulate(b.program, arch, 1, {gmArg(x, DType::F16)}).error;
  };
  EXPECT_EQ(errorOf([](Instr &) {}), "");
  EXPECT_NE(errorOf([](Instr &in) { in.a = I(24); })
                .find("mmad m = 24 must be a positive multiple of 16"),
            std::string::npos);
  EXPECT_EQ(errorOf([](Instr &in) { // k = 32 is fine for int8
              in.srcDtype = DType::I8;
              in.dtype = DType::I32;
            }),
            "");
  EXPECT_NE(errorOf([](Instr &in) {
              in.srcDtype = DType::I8;
              in.dtype = DType::I32;
              in.b = I(16);
            }).find("mmad k = 16 must be a positive multiple of 32"),
            std::string::npos);
  EXPECT_NE(errorOf([](Instr &in) { in.dtype = DType::F16; })
                .find("mmad of float16 accumulates in float32, not float16"),
            std::string::npos);
  EXPECT_NE(errorOf([](Instr &in) { in.src0Addr = 256; })
                .find("L0A address 256 is not 512-byte aligned"),
            std::string::npos);
  EXPECT_NE(errorOf([](Instr &in) { in.pipe = Pipe::V; })
                .find("mmad runs on pipe M, not V"),
            std::string::npos);
  EXPECT_NE(errorOf([](Instr &in) {
              in.op = Opcode::CrossCoreSetFlag;
              in.pipe = Pipe::FIX;
            }).find("cross-core flags need a MIX kernel, this one is AIC_ONLY"),
            std::string::npos);
  EXPECT_NE(errorOf(
                [](Instr &in) {
                  in.op = Opcode::CrossCoreSetFlag;
                  in.pipe = Pipe::FIX;
                  in.cores = Instr::kBothCores;
                },
                KernelType::Mix)
                .find("exactly one core"),
            std::string::npos);
  EXPECT_NE(errorOf([](Instr &in) {
              in.op = Opcode::FixpipeToGm;
              in.pipe = Pipe::FIX;
              in.gmArg = 0;
              in.srcDtype = DType::F32;
              in.dtype = DType::I8;
              in.tileRows = in.tileCols = 16;
            }).find("fixpipe converts float32 to float32/float16/bfloat16"),
            std::string::npos);
}

TEST(SimCubeValidation, OutOfBoundsAccessesNameTheOp) {
  ArchModel arch = loadArch();
  // GM -> L1 reading past the end of A.
  MatmulCase mc;
  MatmulData d = makeData(mc, true);
  d.a.resize(d.a.size() - 2);
  LaunchResult r = runMatmul(mc, d);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error, "GM out-of-bounds in ascendc.data_copy_nd2nz (MTE2) at "
                     "kernel.py:10:5: elements [2016, 2048) of argument 0 "
                     "(2047 elements) on core 0");
  // Fixpipe writing past the end of C.
  d = makeData(mc, true);
  d.c.resize(d.c.size() - 4);
  r = runMatmul(mc, d);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error, "GM out-of-bounds in ascendc.fixpipe (FIX) at "
                     "kernel.py:15:5: elements [3024, 3072) of argument 2 "
                     "(3071 elements) on core 0");
  // An L0C tile past the 128 KB of the 910B1.
  std::vector<uint8_t> out(4);
  r = simulate(mmadChain(DType::F16, 256, 16, 256), arch, 1,
               {gmBytes(out, DType::F32)});
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("L0C out-of-bounds in ascendc.mmad (M) at "
                         "kernel.py:12:5: bytes [0, 262144) outside L0C "
                         "capacity 131072"),
            std::string::npos)
      << r.error;
  // A copy larger than its tile.
  ProgramBuilder b;
  b.program.kernelType = KernelType::AicOnly;
  b.program.args = {{ArgSpec::Kind::Gm, DType::F16, "x"}};
  b.copyToL1(0, DType::F16, I(0), I(17), I(16), I(16), 0, 16, 16, 10);
  b.end();
  std::vector<uint16_t> x(17 * 16);
  r = simulate(b.program, arch, 1, {gmArg(x, DType::F16)});
  EXPECT_NE(r.error.find("copy larger than its tile in "
                         "ascendc.data_copy_nd2nz (MTE2) at kernel.py:10:5: "
                         "17 x 16 elements into a tile of 16 x 16"),
            std::string::npos)
      << r.error;
}

TEST(SimCube, AicOnlyTraceUsesCubeCoreProcesses) {
  MatmulCase mc;
  MatmulData d = makeData(mc, true);
  Program p = makeMatmul(mc);
  ArchModel arch = loadArchWithoutLaunchCosts();
  LaunchResult r = simulate(p, arch, 1,
                            {gmBytes(d.a, mc.in), gmBytes(d.b, mc.in),
                             gmBytes(d.c, mc.out)});
  ASSERT_TRUE(r.ok) << r.error;
  std::string json = traceToJson(r, p, arch);
  EXPECT_NE(json.find("core0.cubecore0"), std::string::npos);
  EXPECT_EQ(json.find("veccore"), std::string::npos);
  std::string csv = pipeUtilizationCsv(r, arch);
  // aic_total_cycles (column 4) is filled, aiv_total_cycles is 0.
  std::string row = csv.substr(csv.find('\n') + 1);
  EXPECT_EQ(row.rfind("0,0,", 0), 0u) << row;
  EXPECT_NE(row.find("," + std::to_string(r.totalCycles) + ","),
            std::string::npos)
      << row;
}

} // namespace
