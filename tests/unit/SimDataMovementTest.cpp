//===- SimDataMovementTest.cpp - 2-D copies, atomics, scalar memory -------===//

#include "SimTestUtil.h"

#include <climits>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

using namespace asc2::sim;
using namespace asc2::sim::test;

namespace {

auto I = Operand::ofImm;
auto R = Operand::ofReg;

/// m[r][c] = r * 100 + c, 7 x 10.
std::vector<float> matrix() {
  std::vector<float> m(70);
  for (int r = 0; r < 7; ++r)
    for (int c = 0; c < 10; ++c)
      m[r * 10 + c] = float(r * 100 + c);
  return m;
}

// The N-dimensional DMA (Ascend950): rows 2..6, columns 3..8 of m land
// transposed in an 8 x 8 tile, each loop's tail padded; a size of 0 leaves
// the whole tile padding and reads nothing.
TEST(SimDataMovement, NdCopyTransposesAndPadsEachLoop) {
  ArchModel arch = loadArch("Ascend950");
  for (int64_t rows : {5, 0}) {
    ProgramBuilder b;
    b.program.args = {{ArgSpec::Kind::Gm, DType::F32, "m"},
                      {ArgSpec::Kind::Gm, DType::F32, "tileOut"}};
    int n = b.constI(rows);
    // Outer loop: the tile's rows = m's columns; inner: its columns = m's rows.
    b.copyInNd(0, DType::F32, I(23), {{I(6), 8, 1, 8}, {R(n), 8, 10, 1}}, 0, -1, 10);
    b.set(Pipe::MTE2, Pipe::MTE3, 0);
    b.wait(Pipe::MTE2, Pipe::MTE3, 0);
    b.copyOut(1, DType::F32, I(0), I(64), 0, 11);
    b.end();
    std::vector<float> m = matrix(), out(64, 7);
    LaunchResult r = simulate(b.program, arch, 1, {gmArg(m, DType::F32), gmArg(out, DType::F32)});
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_TRUE(r.races.empty());
    for (int i = 0; i < 8; ++i)
      for (int j = 0; j < 8; ++j)
        EXPECT_EQ(out[i * 8 + j], i < 6 && j < rows ? m[(2 + j) * 10 + 3 + i] : -1.0f)
            << i << ", " << j;
    EXPECT_EQ(r.cores[0].bytes[int(Pipe::MTE2)], uint64_t(6 * rows * 4));
  }
}

TEST(SimDataMovement, NdCopyChecksItsGmBoxAndTarget) {
  ArchModel arch = loadArch("Ascend950");
  auto run = [&](const ArchModel &a, int64_t offset) {
    ProgramBuilder b;
    b.program.args = {{ArgSpec::Kind::Gm, DType::F32, "m"}};
    b.copyInNd(0, DType::F32, I(offset), {{I(6), 8, 1, 8}, {I(5), 8, 10, 1}}, 0, 0, 10);
    b.end();
    std::vector<float> m = matrix();
    return simulate(b.program, a, 1, {gmArg(m, DType::F32)});
  };
  EXPECT_TRUE(run(arch, 23).ok);
  LaunchResult past = run(arch, 25); // the last element read: m[25 + 5 + 4 * 10], one past the end
  EXPECT_FALSE(past.ok);
  EXPECT_NE(past.error.find("GM out-of-bounds in ascendc.data_copy_nd"), std::string::npos) << past.error;
  LaunchResult a2 = run(loadArch("Ascend910B1"), 23);
  EXPECT_FALSE(a2.ok);
  EXPECT_NE(a2.error.find("which has none (nd_dma_dims)"), std::string::npos) << a2.error;
}

// Cost: one 32-byte burst per contiguous GM run. A 64 x 16 float tile read
// as rows of 16 (64-byte runs) moves its 4 KiB through the port; read
// transposed, each element is a run of its own: 1024 bursts, 32 KiB.
TEST(SimDataMovement, NdCopyHoldsThePortOneBurstPerRun) {
  ArchModel arch = loadArchWithoutLaunchCosts("Ascend950");
  auto mte2 = [&](std::vector<NdCopyLoop> loops) {
    ProgramBuilder b;
    b.program.args = {{ArgSpec::Kind::Gm, DType::F32, "x"}};
    b.copyInNd(0, DType::F32, I(0), std::move(loops), 0, 0, 10);
    b.end();
    std::vector<float> x(1024, 1);
    LaunchResult r = simulate(b.program, arch, 1, {gmArg(x, DType::F32)});
    EXPECT_TRUE(r.ok) << r.error;
    return r.cores[0].busy[int(Pipe::MTE2)];
  };
  double rate = arch.gmCopyBytesPerCycle(arch.gmToUbBytesPerCycle, /*write=*/false);
  auto expected = [&](double portBytes) {
    return copyOccupancy(arch, portBytes, rate) +
           uint64_t(arch.gmReadLatencyCycles);
  };
  EXPECT_EQ(arch.ndDmaBurstBytes, 32);
  EXPECT_EQ(mte2({{I(64), 64, 16, 16}, {I(16), 16, 1, 1}}), expected(4096));
  EXPECT_EQ(mte2({{I(16), 16, 1, 64}, {I(64), 64, 16, 1}}), expected(1024 * 32));
}

TEST(SimDataMovement, NdCopyWithoutItsWaitIsARace) {
  ArchModel arch = loadArch("Ascend950");
  ProgramBuilder b;
  b.program.args = {{ArgSpec::Kind::Gm, DType::F32, "m"}};
  b.copyInNd(0, DType::F32, I(0), {{I(7), 8, 10, 8}, {I(8), 8, 1, 1}}, 0, 0, 10);
  b.vec(VecOp::Add, DType::F32, 256, 0, 0, I(64), 11);
  b.end();
  std::vector<float> m = matrix();
  LaunchResult r = simulate(b.program, arch, 1, {gmArg(m, DType::F32)});
  ASSERT_FALSE(r.races.empty());
  EXPECT_EQ(r.races[0].firstPipe, Pipe::MTE2);
  EXPECT_EQ(r.races[0].secondPipe, Pipe::V);
  EXPECT_EQ(r.races[0].hi, 256);
}

TEST(SimDataMovement, Copy2dPadsRowTailsAndMissingRows) {
  ArchModel arch = loadArch();
  // Rows 2..6, columns 3..8 of m into a 6 x 8 tile padded with -1; then the
  // whole tile to `tileOut` and the 5 x 6 block back to `blockOut` at the
  // same place.
  ProgramBuilder b;
  b.program.args = {{ArgSpec::Kind::Gm, DType::F32, "m"},
                    {ArgSpec::Kind::Gm, DType::F32, "tileOut"},
                    {ArgSpec::Kind::Gm, DType::F32, "blockOut"}};
  b.copyIn2d(0, DType::F32, I(23), I(5), I(6), I(10), 0, 8, 6, true, -1, 10);
  b.set(Pipe::MTE2, Pipe::MTE3, 0);
  b.wait(Pipe::MTE2, Pipe::MTE3, 0);
  b.copyOut(1, DType::F32, I(0), I(48), 0, 11);
  b.copyOut2d(2, DType::F32, I(23), I(5), I(6), I(10), 0, 8, 12);
  b.end();
  std::vector<float> m = matrix(), tileOut(48, 99), blockOut(70, 0);
  LaunchResult r = simulate(b.program, arch, 1,
                            {gmArg(m, DType::F32), gmArg(tileOut, DType::F32),
                             gmArg(blockOut, DType::F32)});
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(r.races.empty()) << r.races[0].message;
  for (int row = 0; row < 6; ++row)
    for (int c = 0; c < 8; ++c) {
      float want = row < 5 && c < 6 ? float((row + 2) * 100 + c + 3) : -1.f;
      EXPECT_EQ(tileOut[row * 8 + c], want) << row << "," << c;
    }
  for (int row = 0; row < 7; ++row)
    for (int c = 0; c < 10; ++c) {
      bool inBlock = row >= 2 && c >= 3 && c < 9;
      EXPECT_EQ(blockOut[row * 10 + c], inBlock ? m[row * 10 + c] : 0.f)
          << row << "," << c;
    }
  // Bytes moved are the rows x cols elements, not the padded tile.
  EXPECT_EQ(r.cores[0].bytes[int(Pipe::MTE2)], 5u * 6 * 4);
  EXPECT_EQ(r.cores[0].busy[int(Pipe::MTE2)],
            copyOccupancy(arch, 120, 220.06e9 / 1850e6) +
                uint64_t(arch.gmReadLatencyCycles));
}

TEST(SimDataMovement, Copy2dWithoutPadKeepsGapsAndChecksBounds) {
  ArchModel arch = loadArch();
  ProgramBuilder b;
  b.program.args = {{ArgSpec::Kind::Gm, DType::I16, "m"},
                    {ArgSpec::Kind::Gm, DType::I16, "out"}};
  b.dup(DType::I16, 0, 7, I(12), 9);
  b.set(Pipe::V, Pipe::MTE2, 0);
  b.wait(Pipe::V, Pipe::MTE2, 0);
  // 3 rows of 2 from a 10-wide matrix into rows 4 apart; no padding.
  b.copyIn2d(0, DType::I16, I(1), I(3), I(2), I(10), 0, 4, 3, false, 0, 10);
  b.set(Pipe::MTE2, Pipe::MTE3, 0);
  b.wait(Pipe::MTE2, Pipe::MTE3, 0);
  b.copyOut(1, DType::I16, I(0), I(12), 0, 11);
  b.end();
  std::vector<int16_t> m(30), out(12);
  for (int i = 0; i < 30; ++i)
    m[i] = int16_t(i);
  LaunchResult r = simulate(b.program, arch, 1,
                            {gmArg(m, DType::I16), gmArg(out, DType::I16)});
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(r.races.empty()) << r.races[0].message;
  EXPECT_EQ(out, (std::vector<int16_t>{1, 2, 7, 7, 11, 12, 7, 7, 21, 22, 7, 7}));

  // The last row runs past the end of GM.
  Program tooTall = b.program;
  tooTall.code[3].rows = I(4);
  r = simulate(tooTall, arch, 1, {gmArg(m, DType::I16), gmArg(out, DType::I16)});
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error, "GM out-of-bounds in ascendc.data_copy_pad (MTE2) at "
                     "kernel.py:10:5: elements [31, 33) of argument 0 (30 "
                     "elements) on core 0");
  // Rows longer than the local row stride would overlap.
  Program tooWide = b.program;
  tooWide.code[3].b = I(5);
  r = simulate(tooWide, arch, 1, {gmArg(m, DType::I16), gmArg(out, DType::I16)});
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("copy row longer than the local row stride in "
                         "ascendc.data_copy_pad (MTE2) at kernel.py:10:5"),
            std::string::npos)
      << r.error;
}

/// Block b loads x[b * n, +n) and stores it into out[0, n) with `kind`; a
/// 2-D variant stores it as 2 rows of n / 2, `n` apart in GM (out has 2n).
Program atomicKernel(DType t, AtomicKind kind, int64_t n, bool twoD = false) {
  ProgramBuilder b;
  b.program.args = {{ArgSpec::Kind::Gm, t, "x"}, {ArgSpec::Kind::Gm, t, "out"}};
  int blk = b.special(Opcode::BlockIdx);
  int off = b.scalar(ScalarOp::Mul, R(blk), I(n));
  b.copyIn(0, t, R(off), I(n), 0, 10);
  b.set(Pipe::MTE2, Pipe::MTE3, 0);
  b.wait(Pipe::MTE2, Pipe::MTE3, 0);
  if (twoD)
    b.copyOut2d(1, t, I(0), I(2), I(n / 2), I(n), 0, n / 2, 11, kind);
  else
    b.copyOut2d(1, t, I(0), I(1), I(n), I(0), 0, 0, 11, kind);
  b.end();
  return b.program;
}

TEST(SimDataMovement, AtomicAddMaxMinAcrossEightCores) {
  ArchModel arch = loadArch();
  const int blocks = 8;
  const int64_t n = 1000;
  SimOptions opts;
  opts.threads = blocks; // one host thread per core: they really interleave
  std::mt19937 rng(5);
  std::vector<int32_t> x(blocks * n);
  for (int32_t &v : x)
    v = int32_t(rng()); // full range: the sums wrap
  for (AtomicKind kind : {AtomicKind::Add, AtomicKind::Max, AtomicKind::Min}) {
    for (int rep = 0; rep < 3; ++rep) {
      std::vector<int32_t> out(n);
      for (int64_t i = 0; i < n; ++i)
        out[i] = int32_t(i * 1000 - 7);
      std::vector<int32_t> expected = out;
      for (int b = 0; b < blocks; ++b)
        for (int64_t i = 0; i < n; ++i) {
          int32_t v = x[b * n + i];
          int32_t &e = expected[i];
          e = kind == AtomicKind::Add ? int32_t(uint32_t(e) + uint32_t(v))
              : kind == AtomicKind::Max ? std::max(e, v)
                                        : std::min(e, v);
        }
      LaunchResult r = simulate(atomicKernel(DType::I32, kind, n), arch, blocks,
                                {gmArg(x, DType::I32), gmArg(out, DType::I32)},
                                opts);
      ASSERT_TRUE(r.ok) << r.error;
      ASSERT_EQ(out, expected) << "kind " << int(kind) << " rep " << rep;
    }
  }
}

TEST(SimDataMovement, AtomicFloatAddAnd2dAtomicRows) {
  ArchModel arch = loadArch();
  const int blocks = 8;
  const int64_t n = 512;
  SimOptions opts;
  opts.threads = blocks;
  // Small integers: every order of the float adds gives the exact sum.
  std::vector<float> x(blocks * n);
  for (int64_t i = 0; i < blocks * n; ++i)
    x[i] = float(i % 97) - 40.f;
  std::vector<float> out(n, 0.5f), expected(n, 0.5f);
  for (int b = 0; b < blocks; ++b)
    for (int64_t i = 0; i < n; ++i)
      expected[i] += x[b * n + i];
  LaunchResult r = simulate(atomicKernel(DType::F32, AtomicKind::Add, n), arch,
                            blocks, {gmArg(x, DType::F32), gmArg(out, DType::F32)},
                            opts);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(out, expected);

  // 2 rows of n/2 into a GM matrix whose rows are n apart: half of out2 is
  // untouched.
  std::vector<float> out2(2 * n, 1.f), expected2(2 * n, 1.f);
  for (int b = 0; b < blocks; ++b)
    for (int row = 0; row < 2; ++row)
      for (int64_t c = 0; c < n / 2; ++c)
        expected2[row * n + c] = std::max(expected2[row * n + c],
                                          x[b * n + row * (n / 2) + c]);
  r = simulate(atomicKernel(DType::F32, AtomicKind::Max, n, true), arch, blocks,
               {gmArg(x, DType::F32), gmArg(out2, DType::F32)}, opts);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(out2, expected2);

  // fp16 max is exact too.
  std::vector<uint16_t> hx(blocks * 64), hout(64, 0xfc00); // -inf
  for (size_t i = 0; i < hx.size(); ++i) {
    _Float16 h = _Float16(float(int(i * 37 % 201) - 100) * 0.25f);
    std::memcpy(&hx[i], &h, 2);
  }
  r = simulate(atomicKernel(DType::F16, AtomicKind::Max, 64), arch, blocks,
               {gmArg(hx, DType::F16), gmArg(hout, DType::F16)}, opts);
  ASSERT_TRUE(r.ok) << r.error;
  for (int i = 0; i < 64; ++i) {
    float best = -INFINITY;
    for (int b = 0; b < blocks; ++b) {
      _Float16 h;
      std::memcpy(&h, &hx[b * 64 + i], 2);
      best = std::max(best, float(h));
    }
    _Float16 got;
    std::memcpy(&got, &hout[i], 2);
    EXPECT_EQ(float(got), best) << i;
  }
}

TEST(SimDataMovement, AtomicFloatAddsLandInBlockOrderWhateverTheThreads) {
  // Values whose float sum depends on the order: the result must be the
  // block-order sum (what the CPU twin, which runs blocks in order, gives),
  // with one host thread or many, on every run.
  ArchModel arch = loadArch();
  const int blocks = 16;
  const int64_t n = 256;
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> mag(-1.f, 1.f);
  std::vector<float> x(blocks * n);
  for (int64_t i = 0; i < blocks * n; ++i)
    x[i] = mag(rng) * std::ldexp(1.f, int(rng() % 40) - 20);
  std::vector<float> expected(n, 0.f);
  for (int b = 0; b < blocks; ++b)
    for (int64_t i = 0; i < n; ++i)
      expected[i] += x[b * n + i];
  std::vector<float> reversed(n, 0.f);
  for (int b = blocks - 1; b >= 0; --b)
    for (int64_t i = 0; i < n; ++i)
      reversed[i] += x[b * n + i];
  ASSERT_NE(expected, reversed) << "the data must make the order visible";
  for (int threads : {1, 2, 16}) {
    for (int rep = 0; rep < 4; ++rep) {
      SimOptions opts;
      opts.threads = threads;
      std::vector<float> out(n, 0.f);
      LaunchResult r = simulate(atomicKernel(DType::F32, AtomicKind::Add, n), arch,
                                blocks, {gmArg(x, DType::F32), gmArg(out, DType::F32)},
                                opts);
      ASSERT_TRUE(r.ok) << r.error;
      ASSERT_EQ(0, std::memcmp(out.data(), expected.data(), n * sizeof(float)))
          << threads << " threads, run " << rep;
    }
  }
}

TEST(SimDataMovement, ScalarLoadsAndStoresLocalAndGm) {
  ArchModel arch = loadArch();
  ProgramBuilder b;
  b.program.args = {{ArgSpec::Kind::Gm, DType::F32, "x"},
                    {ArgSpec::Kind::Gm, DType::F32, "out"},
                    {ArgSpec::Kind::Gm, DType::I32, "outI"},
                    {ArgSpec::Kind::Float, DType::F32, "scale"},
                    {ArgSpec::Kind::Gm, DType::F16, "outH"}};
  b.copyIn(0, DType::F32, I(0), I(16), 0, 10);
  b.set(Pipe::MTE2, Pipe::S, 0);
  b.wait(Pipe::MTE2, Pipe::S, 0);
  int x3 = b.loadLocal(DType::F32, 0, I(3), 11);
  int scale = b.argF(3);
  int p = b.scalar(ScalarOp::FMul, R(x3), R(scale));
  b.storeLocal(DType::F32, 256, I(2), p, 0, 12);
  b.storeLocal(DType::F16, 512, I(1), -1, 0.1, 13); // immediate, rounded to fp16
  int x5 = b.loadGm(0, DType::F32, I(5), 14);
  int q = b.scalar(ScalarOp::FAdd, R(x5), R(p));
  b.storeGm(1, DType::F32, I(7), q, 0, 15);
  int qi = b.scalar(ScalarOp::FPToSI, R(q), I(0));
  b.storeGm(2, DType::I32, I(1), qi, 0, 16);
  int back = b.loadLocal(DType::F32, 256, I(2), 17); // own store: no flag needed
  b.storeGm(1, DType::F32, I(8), back, 0, 18);
  b.set(Pipe::S, Pipe::MTE3, 0);
  b.wait(Pipe::S, Pipe::MTE3, 0);
  b.copyOut(1, DType::F32, I(0), I(4), 256, 19);
  b.copyOut(4, DType::F16, I(0), I(2), 512, 20);
  b.end();
  std::vector<float> x(16), out(16, -1);
  for (int i = 0; i < 16; ++i)
    x[i] = 1.5f * float(i);
  std::vector<int32_t> outI(4, -1);
  std::vector<uint16_t> outH(2, 0xffff);
  LaunchResult r = simulate(b.program, arch, 1,
                            {gmArg(x, DType::F32), gmArg(out, DType::F32),
                             gmArg(outI, DType::I32), floatArg(-2.25),
                             gmArg(outH, DType::F16)});
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(r.races.empty()) << r.races[0].message;
  float prod = x[3] * -2.25f; // exact in float and double
  EXPECT_EQ(out[2], prod);
  EXPECT_EQ(out[0], 0.f); // UB starts zeroed
  EXPECT_EQ(out[7], x[5] + prod);
  EXPECT_EQ(out[8], prod);
  EXPECT_EQ(outI[1], int32_t(x[5] + prod)); // truncated toward zero
  EXPECT_EQ(outH[1], 0x2e66);               // fp16(0.1)
  EXPECT_EQ(outH[0], 0);
}

TEST(SimDataMovement, ScalarAccessesAreBoundsChecked) {
  ArchModel arch = loadArch();
  std::vector<float> x(16);
  {
    ProgramBuilder b;
    b.program.args = {{ArgSpec::Kind::Gm, DType::F32, "x"}};
    b.loadLocal(DType::F32, 188408, I(2), 30);
    b.end();
    LaunchResult r = simulate(b.program, arch, 1, {gmArg(x, DType::F32)});
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.error, "UB out-of-bounds in ascendc.get_value (S) at "
                       "kernel.py:30:5: bytes [188416, 188420) outside UB "
                       "capacity 188416 on core 0");
  }
  {
    ProgramBuilder b;
    b.program.args = {{ArgSpec::Kind::Gm, DType::F32, "x"}};
    b.storeGm(0, DType::F32, I(16), -1, 1.0, 31);
    b.end();
    LaunchResult r = simulate(b.program, arch, 1, {gmArg(x, DType::F32)});
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.error, "GM out-of-bounds in ascendc.gm_set_value (S) at "
                       "kernel.py:31:5: elements [16, 17) of argument 0 (16 "
                       "elements) on core 0");
  }
}

TEST(SimDataMovement, FloatArgumentsAndFloatScalarOps) {
  ArchModel arch = loadArch();
  ProgramBuilder b;
  b.program.args = {{ArgSpec::Kind::Float, DType::F32, "a"},
                    {ArgSpec::Kind::Float, DType::F32, "neg"},
                    {ArgSpec::Kind::Gm, DType::F32, "f"},
                    {ArgSpec::Kind::Gm, DType::I64, "i"},
                    {ArgSpec::Kind::Gm, DType::F32, "dup"}};
  int a = b.argF(0);                                   // 2.5
  int neg = b.argF(1);                                 // -3.7
  int seven = b.scalar(ScalarOp::SIToFP, I(7), I(0));  // 7.0
  int zero = b.scalar(ScalarOp::SIToFP, I(0), I(0));
  int nan = b.scalar(ScalarOp::FDiv, R(zero), R(zero));
  int big = b.scalar(ScalarOp::FMul, R(seven), R(seven));
  for (int k = 0; k < 5; ++k)
    big = b.scalar(ScalarOp::FMul, R(big), R(big)); // 7^64 ~ 1e54
  std::vector<int> f = {
      b.scalar(ScalarOp::FAdd, R(a), R(seven)), b.scalar(ScalarOp::FSub, R(a), R(seven)),
      b.scalar(ScalarOp::FMul, R(a), R(seven)), b.scalar(ScalarOp::FDiv, R(a), R(seven)),
      b.scalar(ScalarOp::FMax, R(a), R(seven)), b.scalar(ScalarOp::FMin, R(a), R(seven)),
      b.scalar(ScalarOp::FMax, R(a), R(nan)),
  };
  std::vector<int> i = {
      b.scalar(ScalarOp::FCmpLT, R(a), R(seven)), b.scalar(ScalarOp::FCmpGE, R(a), R(seven)),
      b.scalar(ScalarOp::FCmpEQ, R(nan), R(nan)), b.scalar(ScalarOp::FCmpNE, R(nan), R(nan)),
      b.scalar(ScalarOp::FCmpLE, R(a), R(a)),     b.scalar(ScalarOp::FPToSI, R(neg), I(0)),
      b.scalar(ScalarOp::FPToSI, R(nan), I(0)),   b.scalar(ScalarOp::FPToSI, R(big), I(0)),
      b.scalar(ScalarOp::And, I(12), I(10)),      b.scalar(ScalarOp::Or, I(12), I(10)),
      b.scalar(ScalarOp::Xor, I(12), I(10)),      b.scalar(ScalarOp::Shl, I(1), I(40)),
      b.scalar(ScalarOp::ShrS, I(-256), I(4)),    b.scalar(ScalarOp::Shl, I(1), I(64)),
  };
  for (size_t k = 0; k < f.size(); ++k)
    b.storeGm(2, DType::F32, I(int64_t(k)), f[k], 0, 40);
  for (size_t k = 0; k < i.size(); ++k)
    b.storeGm(3, DType::I64, I(int64_t(k)), i[k], 0, 41);
  Instr dup = b.vecInstr(Opcode::VecDup, DType::F32, 0, 0, I(8));
  dup.scalar = R(a);
  b.emit(dup, "ascendc.duplicate", 42);
  b.set(Pipe::V, Pipe::MTE3, 0);
  b.wait(Pipe::V, Pipe::MTE3, 0);
  b.copyOut(4, DType::F32, I(0), I(8), 0, 43);
  b.end();
  std::vector<float> fo(f.size(), -1), dupOut(8);
  std::vector<int64_t> io(i.size(), -1);
  LaunchResult r = simulate(b.program, arch, 1,
                            {floatArg(2.5), floatArg(-3.7), gmArg(fo, DType::F32),
                             gmArg(io, DType::I64), gmArg(dupOut, DType::F32)});
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(fo[0], 9.5f);
  EXPECT_EQ(fo[1], -4.5f);
  EXPECT_EQ(fo[2], 17.5f);
  EXPECT_EQ(fo[3], float(2.5 / 7.0));
  EXPECT_EQ(fo[4], 7.f);
  EXPECT_EQ(fo[5], 2.5f);
  EXPECT_TRUE(std::isnan(fo[6])) << "max propagates NaN";
  EXPECT_EQ(io, (std::vector<int64_t>{1, 0, 0, 1, 1, -3, 0, INT64_MAX, 8, 14, 6,
                                      int64_t(1) << 40, -16, 0}));
  EXPECT_EQ(dupOut, std::vector<float>(8, 2.5f));
}

} // namespace
