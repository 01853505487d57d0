//===- SimFunctionalTest.cpp - Numbers computed by the simulator ----------===//

#include "SimTestUtil.h"

#include <atomic>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstring>
#include <random>
#include <thread>

using namespace asc2::sim;
using namespace asc2::sim::test;

namespace {

uint16_t toHalfRef(float f) {
  _Float16 h = _Float16(f);
  uint16_t bits;
  std::memcpy(&bits, &h, 2);
  return bits;
}
float fromHalfRef(uint16_t bits) {
  _Float16 h;
  std::memcpy(&h, &bits, 2);
  return float(h);
}
/// bf16 reference by truncating a double-rounded value: independent of the
/// simulator's bit trick (frexp + nearbyint, ties to even).
uint16_t toBf16Ref(float x) {
  int e;
  double m = std::frexp(double(x), &e);
  float r = float(std::ldexp(std::nearbyint(std::ldexp(m, 8)), e - 8));
  uint32_t bits;
  std::memcpy(&bits, &r, 4);
  return uint16_t(bits >> 16);
}
float fromBf16(uint16_t b) {
  uint32_t bits = uint32_t(b) << 16;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

LaunchResult runVadd(const VaddOptions &o, void *x, void *y, void *z,
                     int64_t bytes, int64_t n, int blocks,
                     const ArchModel &arch, SimOptions opts = {}) {
  Program p = makeVadd(o);
  std::vector<LaunchArg> args(3);
  for (int i = 0; i < 3; ++i) {
    args[i].kind = ArgSpec::Kind::Gm;
    args[i].bytes = bytes;
    args[i].dtype = o.dtype;
  }
  args[0].data = x;
  args[1].data = y;
  args[2].data = z;
  args.push_back(intArg(n));
  return simulate(p, arch, blocks, args, opts);
}

TEST(SimFunctional, VaddF32MultiCorePartialTiles) {
  ArchModel arch = loadArch();
  const int64_t n = 8 * 3000 + 37; // 3005 per core: 2 full tiles + a partial
  std::vector<float> x(n), y(n), z(n, NAN);
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> d(-100, 100);
  for (int64_t i = 0; i < n; ++i) {
    x[i] = d(rng);
    y[i] = d(rng);
  }
  LaunchResult r = runVadd({}, x.data(), y.data(), z.data(), n * 4, n, 8, arch);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(r.races.empty()) << r.races[0].message;
  ASSERT_EQ(r.cores.size(), 8u);
  for (int64_t i = 0; i < n; ++i)
    ASSERT_EQ(z[i], x[i] + y[i]) << "element " << i;
  // 3 tiles per core: V runs 1 pre-set + 5 per tile (2 waits, the add, 2
  // sets) + 1 final wait; MTE2 runs 4 per tile + 1 final wait.
  // 3005 elements per core; the last core gets the remaining 3002.
  for (size_t i = 0; i < r.cores.size(); ++i) {
    const CoreStats &c = r.cores[i];
    EXPECT_EQ(c.instrs[int(Pipe::V)], 17u);
    EXPECT_EQ(c.instrs[int(Pipe::MTE2)], 13u);
    EXPECT_EQ(c.bytes[int(Pipe::MTE3)], (i == 7 ? 3002u : 3005u) * 4);
  }
}

TEST(SimFunctional, VaddF16RoundsToNearestEven) {
  ArchModel arch = loadArch();
  const int64_t n = 5000;
  std::vector<uint16_t> x(n), y(n), z(n, 0xffff);
  std::mt19937 rng(2);
  std::uniform_real_distribution<float> d(-2000, 2000);
  for (int64_t i = 0; i < n; ++i) {
    x[i] = toHalfRef(d(rng));
    y[i] = toHalfRef(d(rng) * 1e-3f);
  }
  for (VecOp op : {VecOp::Add, VecOp::Mul, VecOp::Div, VecOp::Sub}) {
    VaddOptions o;
    o.dtype = DType::F16;
    o.op = op;
    LaunchResult r = runVadd(o, x.data(), y.data(), z.data(), n * 2, n, 4, arch);
    ASSERT_TRUE(r.ok) << r.error;
    for (int64_t i = 0; i < n; ++i) {
      _Float16 a = _Float16(fromHalfRef(x[i])), b = _Float16(fromHalfRef(y[i]));
      _Float16 ref = op == VecOp::Add   ? _Float16(a + b)
                     : op == VecOp::Mul ? _Float16(a * b)
                     : op == VecOp::Div ? _Float16(a / b)
                                        : _Float16(a - b);
      uint16_t refBits;
      std::memcpy(&refBits, &ref, 2);
      ASSERT_EQ(z[i], refBits) << "op " << int(op) << " element " << i;
    }
  }
}

TEST(SimFunctional, VaddBf16RoundsToNearestEven) {
  ArchModel arch = loadArch();
  const int64_t n = 3000;
  std::vector<uint16_t> x(n), y(n), z(n, 0);
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> d(-10, 10);
  for (int64_t i = 0; i < n; ++i) {
    x[i] = toBf16Ref(d(rng));
    y[i] = toBf16Ref(d(rng) * 1e-2f);
  }
  VaddOptions o;
  o.dtype = DType::BF16;
  o.tile = 512;
  LaunchResult r = runVadd(o, x.data(), y.data(), z.data(), n * 2, n, 3, arch);
  ASSERT_TRUE(r.ok) << r.error;
  int inexact = 0;
  for (int64_t i = 0; i < n; ++i) {
    float exact = fromBf16(x[i]) + fromBf16(y[i]);
    ASSERT_EQ(z[i], toBf16Ref(exact)) << "element " << i;
    inexact += fromBf16(z[i]) != exact;
  }
  EXPECT_GT(inexact, n / 2); // the test exercises rounding, not exact sums
}

TEST(SimFunctional, VaddI32AndI16Wrap) {
  ArchModel arch = loadArch();
  const int64_t n = 1000;
  std::vector<int32_t> x(n), y(n), z(n);
  for (int64_t i = 0; i < n; ++i) {
    x[i] = i % 3 == 0 ? INT_MAX - int32_t(i) : int32_t(i * 7919);
    y[i] = int32_t(i * 104729) - 50'000'000;
  }
  x[0] = INT_MAX;
  y[0] = 1;
  VaddOptions o;
  o.dtype = DType::I32;
  o.tile = 256;
  LaunchResult r = runVadd(o, x.data(), y.data(), z.data(), n * 4, n, 2, arch);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(z[0], INT_MIN);
  for (int64_t i = 0; i < n; ++i)
    ASSERT_EQ(z[i], int32_t(uint32_t(x[i]) + uint32_t(y[i]))) << i;

  std::vector<int16_t> a(n), b(n), c(n);
  for (int64_t i = 0; i < n; ++i) {
    a[i] = int16_t(i * 97);
    b[i] = int16_t(30000 - i);
  }
  o.dtype = DType::I16;
  o.op = VecOp::Mul;
  r = runVadd(o, a.data(), b.data(), c.data(), n * 2, n, 2, arch);
  ASSERT_TRUE(r.ok) << r.error;
  for (int64_t i = 0; i < n; ++i)
    ASSERT_EQ(c[i], int16_t(uint16_t(int32_t(a[i]) * int32_t(b[i])))) << i;
}

TEST(SimFunctional, IntegerDivisionByZeroStops) {
  ArchModel arch = loadArch();
  std::vector<int32_t> x(100, 7), y(100, 1), z(100);
  y[42] = 0;
  VaddOptions o;
  o.dtype = DType::I32;
  o.op = VecOp::Div;
  LaunchResult r = runVadd(o, x.data(), y.data(), z.data(), 400, 100, 1, arch);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("integer division by zero in ascendc.binary (V) at "
                         "kernel.py:12:5"),
            std::string::npos)
      << r.error;
}

TEST(SimFunctional, PaddedPartialTileFillsPadValue) {
  ArchModel arch = loadArch();
  // Copy 5 elements into a 16-element tile padded with 7.5, then store the
  // whole tile.
  ProgramBuilder b;
  b.program.args = {{ArgSpec::Kind::Gm, DType::F32, "x"},
                    {ArgSpec::Kind::Gm, DType::F32, "out"}};
  b.copyIn(0, DType::F32, Operand::ofImm(3), Operand::ofImm(5), 64, 10, 16,
           true, 7.5);
  b.set(Pipe::MTE2, Pipe::MTE3, 0);
  b.wait(Pipe::MTE2, Pipe::MTE3, 0);
  b.copyOut(1, DType::F32, Operand::ofImm(0), Operand::ofImm(16), 64, 11);
  b.end();
  std::vector<float> x(8), out(16, -1);
  for (int i = 0; i < 8; ++i)
    x[i] = float(i);
  LaunchResult r = simulate(b.program, arch, 1,
                            {gmArg(x, DType::F32), gmArg(out, DType::F32)});
  ASSERT_TRUE(r.ok) << r.error;
  for (int i = 0; i < 5; ++i)
    EXPECT_EQ(out[i], float(i + 3));
  for (int i = 5; i < 16; ++i)
    EXPECT_EQ(out[i], 7.5f) << i;

  // A copy larger than its tile is an error.
  b.program.code[0].b = Operand::ofImm(17);
  std::vector<float> big(32);
  r = simulate(b.program, arch, 1, {gmArg(big, DType::F32), gmArg(out, DType::F32)});
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("copy larger than its tile"), std::string::npos) << r.error;
}

TEST(SimFunctional, PaddedVaddComputesWholeTiles) {
  ArchModel arch = loadArch();
  const int64_t n = 2 * 1000 + 1;
  std::vector<float> x(n), y(n), z(n, NAN);
  for (int64_t i = 0; i < n; ++i) {
    x[i] = float(i) * 0.5f;
    y[i] = 1.0f / float(i + 1);
  }
  VaddOptions o;
  o.pad = true;
  o.tile = 256;
  LaunchResult r = runVadd(o, x.data(), y.data(), z.data(), n * 4, n, 2, arch);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(r.races.empty());
  for (int64_t i = 0; i < n; ++i)
    ASSERT_EQ(z[i], x[i] + y[i]) << i;
}

TEST(SimFunctional, UnaryOpsAndDuplicate) {
  ArchModel arch = loadArch();
  const int64_t n = 300;
  std::vector<float> x(n), out(n);
  for (int64_t i = 0; i < n; ++i)
    x[i] = float(i - 150) * 0.37f;
  for (VecOp op : {VecOp::Abs, VecOp::Exp, VecOp::Log, VecOp::Sqrt,
                   VecOp::Relu, VecOp::Neg}) {
    ProgramBuilder b;
    b.program.args = {{ArgSpec::Kind::Gm, DType::F32, "x"},
                      {ArgSpec::Kind::Gm, DType::F32, "out"}};
    b.copyIn(0, DType::F32, Operand::ofImm(0), Operand::ofImm(n), 0, 10);
    b.set(Pipe::MTE2, Pipe::V, 0);
    b.wait(Pipe::MTE2, Pipe::V, 0);
    b.vec(op, DType::F32, 4096, 0, 0, Operand::ofImm(n), 11);
    b.set(Pipe::V, Pipe::MTE3, 0);
    b.wait(Pipe::V, Pipe::MTE3, 0);
    b.copyOut(1, DType::F32, Operand::ofImm(0), Operand::ofImm(n), 4096, 12);
    b.end();
    LaunchResult r = simulate(b.program, arch, 1,
                              {gmArg(x, DType::F32), gmArg(out, DType::F32)});
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_TRUE(r.races.empty());
    for (int64_t i = 0; i < n; ++i) {
      float v = x[i];
      float ref = op == VecOp::Abs    ? std::fabs(v)
                  : op == VecOp::Exp  ? std::exp(v)
                  : op == VecOp::Log  ? std::log(v)
                  : op == VecOp::Sqrt ? std::sqrt(v)
                  : op == VecOp::Relu ? (v < 0 ? 0.f : v)
                                      : -v;
      if (std::isnan(ref))
        ASSERT_TRUE(std::isnan(out[i])) << int(op) << " " << i;
      else
        ASSERT_EQ(out[i], ref) << int(op) << " " << i;
    }
  }

  ProgramBuilder b;
  b.program.args = {{ArgSpec::Kind::Gm, DType::F16, "out"}};
  b.dup(DType::F16, 0, 0.1, Operand::ofImm(n), 10);
  b.set(Pipe::V, Pipe::MTE3, 0);
  b.wait(Pipe::V, Pipe::MTE3, 0);
  b.copyOut(0, DType::F16, Operand::ofImm(0), Operand::ofImm(n), 0, 11);
  b.end();
  std::vector<uint16_t> h(n);
  LaunchResult r = simulate(b.program, arch, 1, {gmArg(h, DType::F16)});
  ASSERT_TRUE(r.ok) << r.error;
  for (uint16_t v : h)
    ASSERT_EQ(v, 0x2e66); // 0.1 in fp16
}

TEST(SimFunctional, GmOutOfBoundsNamesOpAndLine) {
  ArchModel arch = loadArch();
  const int64_t n = 1024;
  std::vector<float> x(n), y(n), z(n / 2); // z is too small
  Program p = makeVadd({});
  std::vector<LaunchArg> args = {gmArg(x, DType::F32), gmArg(y, DType::F32),
                                 gmArg(z, DType::F32), intArg(n)};
  SimOptions opts;
  opts.threads = 1;
  LaunchResult r = simulate(p, arch, 4, args, opts);
  ASSERT_FALSE(r.ok);
  EXPECT_EQ(r.error,
            "GM out-of-bounds in ascendc.data_copy (MTE3) at kernel.py:13:5: "
            "elements [512, 768) of argument 2 (512 elements) on core 2");
}

TEST(SimFunctional, LocalOutOfBoundsNamesSpace) {
  ArchModel arch = loadArch();
  ProgramBuilder b;
  b.program.args = {{ArgSpec::Kind::Gm, DType::F32, "x"}};
  b.copyIn(0, DType::F32, Operand::ofImm(0), Operand::ofImm(64), 188416 - 128,
           10);
  b.end();
  std::vector<float> x(64);
  LaunchResult r = simulate(b.program, arch, 1, {gmArg(x, DType::F32)});
  ASSERT_FALSE(r.ok);
  EXPECT_EQ(r.error, "UB out-of-bounds in ascendc.data_copy (MTE2) at "
                     "kernel.py:10:5: bytes [188288, 188544) outside UB "
                     "capacity 188416 on core 0");
}

TEST(SimFunctional, EveryCoreCoversItsSlice) {
  ArchModel arch = loadArch();
  const int64_t n = 48 * 777 + 5;
  std::vector<int32_t> x(n), y(n, 0), z(n, -1);
  for (int64_t i = 0; i < n; ++i)
    x[i] = int32_t(i);
  VaddOptions o;
  o.dtype = DType::I32;
  o.tile = 200;
  o.doubleBuffer = true;
  LaunchResult r = runVadd(o, x.data(), y.data(), z.data(), n * 4, n, 48, arch);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(r.races.empty());
  for (int64_t i = 0; i < n; ++i)
    ASSERT_EQ(z[i], i);
  uint64_t bytesIn = 0;
  for (const CoreStats &c : r.cores)
    bytesIn += c.bytes[int(Pipe::MTE2)];
  EXPECT_EQ(bytesIn, uint64_t(2 * n * 4));
}

TEST(SimFunctional, CancelStopsAnInfiniteLoop) {
  ArchModel arch = loadArch();
  ProgramBuilder b;
  int r0 = b.constI(0);
  int32_t loop = b.pc();
  b.scalar(ScalarOp::Add, Operand::ofReg(r0), Operand::ofImm(1), r0);
  b.jump(loop);
  b.end();
  std::atomic<bool> cancel{false};
  SimOptions opts;
  opts.cancel = &cancel;
  opts.collectTrace = false;
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    cancel = true;
  });
  auto t0 = std::chrono::steady_clock::now();
  LaunchResult r = simulate(b.program, arch, 4, {}, opts);
  auto elapsed = std::chrono::steady_clock::now() - t0;
  stopper.join();
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error, "cancelled");
  EXPECT_LT(elapsed, std::chrono::seconds(2));
}

TEST(SimFunctional, ScalarOpsAndLaunchValidation) {
  ArchModel arch = loadArch();
  ProgramBuilder b;
  b.program.args = {{ArgSpec::Kind::Gm, DType::I32, "out"}};
  auto I = Operand::ofImm;
  auto R = Operand::ofReg;
  // Each result v marks out[v + 10] by storing a one-element tile there.
  std::vector<int> results = {
      b.scalar(ScalarOp::CeilDivS, I(-7), I(2)), // -3
      b.scalar(ScalarOp::CeilDivS, I(7), I(2)),  // 4
      b.scalar(ScalarOp::RemS, I(-7), I(3)),     // -1
      b.scalar(ScalarOp::DivS, I(-9), I(2)),     // -4
  };
  Instr sel;
  sel.op = Opcode::Select;
  sel.dst = b.reg();
  sel.a = R(results[2]); // non-zero -> b
  sel.b = I(2);
  sel.c = I(5);
  b.emit(sel, "arith.select", 5);
  results.push_back(sel.dst);
  results.push_back(b.scalar(ScalarOp::CmpGE, I(3), I(3))); // 1
  b.dup(DType::I32, 0, 1, I(8), 6);
  b.set(Pipe::V, Pipe::MTE3, 0);
  b.wait(Pipe::V, Pipe::MTE3, 0);
  for (int r : results) {
    int idx = b.scalar(ScalarOp::Add, R(r), I(10));
    b.copyOut(0, DType::I32, R(idx), I(1), 0, 7);
  }
  b.end();
  std::vector<int32_t> out(20, 0);
  LaunchResult r = simulate(b.program, arch, 1, {gmArg(out, DType::I32)});
  ASSERT_TRUE(r.ok) << r.error;
  std::vector<int32_t> expected(20, 0);
  for (int i : {7, 14, 9, 6, 12, 11})
    expected[i] = 1;
  EXPECT_EQ(out, expected);

  // Wrong argument kinds and block counts are rejected before running.
  r = simulate(b.program, arch, 1, {intArg(3)});
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("must be a GM buffer"), std::string::npos) << r.error;
  r = simulate(b.program, arch, 0, {gmArg(out, DType::I32)});
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("block count"), std::string::npos) << r.error;
}

} // namespace
