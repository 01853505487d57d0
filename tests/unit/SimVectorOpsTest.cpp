//===- SimVectorOpsTest.cpp - Casts, compare/select, reductions, ... ------===//
//
// Each test loads tiles into UB, runs vector instructions and checks the
// numbers against references computed here (hand-derived tie cases, C++
// operators, double-precision sums).
//
//===----------------------------------------------------------------------===//

#include "SimTestUtil.h"

#include <climits>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <random>

using namespace asc2::sim;
using namespace asc2::sim::test;

namespace {

const float kNaN = std::numeric_limits<float>::quiet_NaN();
const float kInf = std::numeric_limits<float>::infinity();

uint16_t halfBits(float f) {
  _Float16 h = _Float16(f);
  uint16_t bits;
  std::memcpy(&bits, &h, 2);
  return bits;
}
float halfValue(uint16_t bits) {
  _Float16 h;
  std::memcpy(&h, &bits, 2);
  return float(h);
}
float bf16Value(uint16_t b) {
  uint32_t bits = uint32_t(b) << 16;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

/// A GM array that is loaded into (or stored from) UB at `ub`.
struct Tile {
  DType t = DType::F32;
  std::vector<uint8_t> bytes;
  int64_t ub = 0;
  int64_t elems() const { return int64_t(bytes.size()) / byteWidth(t); }
};

template <typename T> Tile tile(DType t, const std::vector<T> &v, int64_t ub) {
  Tile x{t, std::vector<uint8_t>(v.size() * sizeof(T)), ub};
  std::memcpy(x.bytes.data(), v.data(), x.bytes.size());
  return x;
}
/// An output tile of n elements, pre-filled with 0xAB so writes show.
Tile outTile(DType t, int64_t n, int64_t ub) {
  return Tile{t, std::vector<uint8_t>(size_t(n * byteWidth(t)), 0xAB), ub};
}
template <typename T> std::vector<T> values(const Tile &x) {
  std::vector<T> v(x.bytes.size() / sizeof(T));
  std::memcpy(v.data(), x.bytes.data(), x.bytes.size());
  return v;
}
/// A bool tile in UB is a bit mask (element i = bit i % 8 of byte i / 8):
/// the 0/1 flags of its first n elements, and a tile holding `flags` packed.
std::vector<uint8_t> unpackBits(const std::vector<uint8_t> &bytes, size_t n) {
  std::vector<uint8_t> v(n);
  for (size_t i = 0; i < n; ++i)
    v[i] = (bytes[i / 8] >> (i % 8)) & 1;
  return v;
}
std::vector<uint8_t> maskBits(const Tile &x) { return unpackBits(x.bytes, x.bytes.size()); }
Tile boolTile(const std::vector<uint8_t> &flags, int64_t ub) {
  Tile x{DType::Bool, std::vector<uint8_t>(flags.size(), 0), ub};
  for (size_t i = 0; i < flags.size(); ++i)
    x.bytes[i / 8] |= uint8_t((flags[i] & 1) << (i % 8));
  return x;
}

/// Copies `ins` into UB, runs `body` (lines 12+), copies `outs` back. Scalar
/// arguments follow the GM ones.
LaunchResult runV(std::vector<Tile *> ins, std::vector<Tile *> outs,
                  const std::function<void(ProgramBuilder &)> &body,
                  std::vector<LaunchArg> scalars = {}) {
  static ArchModel arch = loadArch();
  ProgramBuilder b;
  std::vector<LaunchArg> args;
  for (Tile *t : ins) {
    b.program.args.push_back({ArgSpec::Kind::Gm, t->t, "in"});
    args.push_back({ArgSpec::Kind::Gm, t->bytes.data(), int64_t(t->bytes.size()), t->t});
  }
  for (Tile *t : outs) {
    b.program.args.push_back({ArgSpec::Kind::Gm, t->t, "out"});
    args.push_back({ArgSpec::Kind::Gm, t->bytes.data(), int64_t(t->bytes.size()), t->t});
  }
  for (const LaunchArg &a : scalars) {
    b.program.args.push_back({a.kind, DType::F32, "s"});
    args.push_back(a);
  }
  auto I = Operand::ofImm;
  for (size_t i = 0; i < ins.size(); ++i)
    b.copyIn(int(i), ins[i]->t, I(0), I(ins[i]->elems()), ins[i]->ub, 10);
  b.set(Pipe::MTE2, Pipe::V, 0);
  b.wait(Pipe::MTE2, Pipe::V, 0);
  body(b);
  b.set(Pipe::V, Pipe::MTE3, 0);
  b.wait(Pipe::V, Pipe::MTE3, 0);
  for (size_t j = 0; j < outs.size(); ++j)
    b.copyOut(int(ins.size() + j), outs[j]->t, I(0), I(outs[j]->elems()),
              outs[j]->ub, 13);
  b.end();
  LaunchResult r = simulate(b.program, arch, 1, args);
  EXPECT_TRUE(r.races.empty()) << r.races[0].message;
  return r;
}

const RoundMode kModes[] = {RoundMode::None,  RoundMode::Rint,
                            RoundMode::Floor, RoundMode::Ceil,
                            RoundMode::Round, RoundMode::Trunc,
                            RoundMode::Odd};
const char *modeName(RoundMode m) {
  const char *names[] = {"none", "rint", "floor", "ceil", "round", "trunc", "odd"};
  return names[int(m)];
}

/// Runs one cast of `in` to `to` under each of `modes`; returns the outputs.
template <typename Out, typename In>
std::vector<std::vector<Out>> castAll(DType to, DType from,
                                      const std::vector<In> &in,
                                      const std::vector<RoundMode> &modes) {
  std::vector<std::vector<Out>> results;
  for (RoundMode m : modes) {
    Tile x = tile(from, in, 0);
    Tile y = outTile(to, int64_t(in.size()), 8192);
    LaunchResult r = runV({&x}, {&y}, [&](ProgramBuilder &b) {
      b.cast(to, from, m, y.ub, x.ub, Operand::ofImm(x.elems()), 12);
    });
    EXPECT_TRUE(r.ok) << modeName(m) << ": " << r.error;
    results.push_back(values<Out>(y));
  }
  return results;
}

//===----------------------------------------------------------------------===//
// Casts
//===----------------------------------------------------------------------===//

TEST(SimVectorOps, CastFloatToHalfEveryRoundModeOnTies) {
  const float t1 = 1 + 0x1p-11f, t3 = 1 + 3 * 0x1p-11f;
  std::vector<float> in = {t1,     -t1,    t3,        -t3,   1 + 0x1p-11f + 0x1p-20f,
                           70000,  -70000, 65520,     65519, 1e-8f,
                           0x1p-25f, kInf, -0.0f,     2.5f};
  // Rows: none, rint, floor, ceil, round, trunc, odd (hand-derived).
  std::vector<std::vector<uint16_t>> expected = {
      {0x3c00, 0xbc00, 0x3c02, 0xbc02, 0x3c01, 0x7c00, 0xfc00, 0x7c00, 0x7bff, 0, 0, 0x7c00, 0x8000, 0x4100},
      {0x3c00, 0xbc00, 0x3c02, 0xbc02, 0x3c01, 0x7c00, 0xfc00, 0x7c00, 0x7bff, 0, 0, 0x7c00, 0x8000, 0x4100},
      {0x3c00, 0xbc01, 0x3c01, 0xbc02, 0x3c00, 0x7bff, 0xfc00, 0x7bff, 0x7bff, 0, 0, 0x7c00, 0x8000, 0x4100},
      {0x3c01, 0xbc00, 0x3c02, 0xbc01, 0x3c01, 0x7c00, 0xfbff, 0x7c00, 0x7c00, 1, 1, 0x7c00, 0x8000, 0x4100},
      {0x3c01, 0xbc01, 0x3c02, 0xbc02, 0x3c01, 0x7c00, 0xfc00, 0x7c00, 0x7bff, 0, 1, 0x7c00, 0x8000, 0x4100},
      {0x3c00, 0xbc00, 0x3c01, 0xbc01, 0x3c00, 0x7bff, 0xfbff, 0x7bff, 0x7bff, 0, 0, 0x7c00, 0x8000, 0x4100},
      {0x3c01, 0xbc01, 0x3c01, 0xbc01, 0x3c01, 0x7bff, 0xfbff, 0x7bff, 0x7bff, 1, 1, 0x7c00, 0x8000, 0x4100},
  };
  auto got = castAll<uint16_t>(DType::F16, DType::F32, in,
                               std::vector<RoundMode>(std::begin(kModes), std::end(kModes)));
  for (size_t m = 0; m < expected.size(); ++m)
    for (size_t i = 0; i < in.size(); ++i)
      EXPECT_EQ(got[m][i], expected[m][i])
          << modeName(kModes[m]) << " of " << in[i] << std::hex << " got 0x"
          << got[m][i] << " want 0x" << expected[m][i];
  // NaN stays NaN in every mode.
  auto nan = castAll<uint16_t>(DType::F16, DType::F32, std::vector<float>{kNaN},
                               {RoundMode::Rint, RoundMode::Trunc, RoundMode::Odd});
  for (auto &v : nan)
    EXPECT_TRUE(std::isnan(halfValue(v[0]))) << std::hex << v[0];
}

/// Independent directed rounding to half: binary search over the positive
/// half patterns (monotonic), then compare distances.
uint16_t halfBySearch(float x, RoundMode m) {
  bool neg = std::signbit(x);
  double ax = std::fabs(double(x));
  uint32_t lo = 0, hi = 0x7c00; // value(lo) <= ax < value(hi) or ax == inf
  if (ax >= 65536.0) {
    lo = 0x7bff;
  } else {
    while (hi - lo > 1) {
      uint32_t mid = (lo + hi) / 2;
      (double(halfValue(uint16_t(mid))) <= ax ? lo : hi) = mid;
    }
  }
  double vlo = halfValue(uint16_t(lo));
  uint32_t up = lo + 1;
  double vup = up == 0x7c00 ? 65536.0 : double(halfValue(uint16_t(up)));
  uint32_t r = lo;
  if (vlo != ax) {
    double dLo = ax - vlo, dUp = vup - ax;
    switch (m) {
    case RoundMode::Floor: r = neg ? up : lo; break;
    case RoundMode::Ceil: r = neg ? lo : up; break;
    case RoundMode::Trunc: r = lo; break;
    case RoundMode::Odd: r = lo | 1; break;
    case RoundMode::Round: r = dLo < dUp ? lo : up; break;
    default: r = dLo < dUp ? lo : dLo > dUp ? up : (lo % 2 ? up : lo); break;
    }
  }
  return uint16_t(r | (neg ? 0x8000u : 0u));
}

TEST(SimVectorOps, CastFloatToHalfMatchesReferenceOnRandomValues) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> mant(-1, 1);
  std::uniform_int_distribution<int> exp(-26, 17);
  std::vector<float> in(4000);
  for (float &x : in)
    x = std::ldexp(mant(rng), exp(rng));
  std::vector<RoundMode> modes(std::begin(kModes), std::end(kModes));
  auto got = castAll<uint16_t>(DType::F16, DType::F32, in, modes);
  for (size_t m = 0; m < modes.size(); ++m)
    for (size_t i = 0; i < in.size(); ++i)
      ASSERT_EQ(got[m][i], halfBySearch(in[i], modes[m]))
          << modeName(modes[m]) << " of " << in[i];
  for (size_t i = 0; i < in.size(); ++i) // the compiler's own RNE conversion
    ASSERT_EQ(got[1][i], halfBits(in[i])) << in[i];
}

TEST(SimVectorOps, CastFloatToIntRoundsAndSaturates) {
  std::vector<float> in = {2.5f, -2.5f, 0.5f, 1.5f, -0.5f, 2.7f,
                           -2.7f, 3e9f, -3e9f, kNaN, kInf, -kInf};
  const int32_t mx = INT32_MAX, mn = INT32_MIN;
  std::vector<std::vector<int32_t>> expected = {
      {2, -2, 0, 2, 0, 3, -3, mx, mn, 0, mx, mn},  // none = rint
      {2, -2, 0, 2, 0, 3, -3, mx, mn, 0, mx, mn},  // rint: ties to even
      {2, -3, 0, 1, -1, 2, -3, mx, mn, 0, mx, mn}, // floor
      {3, -2, 1, 2, 0, 3, -2, mx, mn, 0, mx, mn},  // ceil
      {3, -3, 1, 2, -1, 3, -3, mx, mn, 0, mx, mn}, // round: half away
      {2, -2, 0, 1, 0, 2, -2, mx, mn, 0, mx, mn},  // trunc
  };
  std::vector<RoundMode> modes(std::begin(kModes), std::end(kModes) - 1);
  auto got = castAll<int32_t>(DType::I32, DType::F32, in, modes);
  for (size_t m = 0; m < modes.size(); ++m)
    EXPECT_EQ(got[m], expected[m]) << modeName(modes[m]);

  auto i8 = castAll<int8_t>(DType::I8, DType::F32,
                            std::vector<float>{300, -300, 127.5f, -128.5f, -3.5f},
                            {RoundMode::Rint});
  EXPECT_EQ(i8[0], (std::vector<int8_t>{127, -128, 127, -128, -4}));
  auto u8 = castAll<uint8_t>(DType::U8, DType::F32,
                             std::vector<float>{-5, 300, 254.5f, 2.5f, 3.5f},
                             {RoundMode::Rint});
  EXPECT_EQ(u8[0], (std::vector<uint8_t>{0, 255, 254, 2, 4}));
  auto i64 = castAll<int64_t>(DType::I64, DType::F32,
                              std::vector<float>{3e9f, 1e19f, -1e19f},
                              {RoundMode::Trunc});
  EXPECT_EQ(i64[0], (std::vector<int64_t>{3000000000LL, INT64_MAX, INT64_MIN}));
  // fp16 sources round the same way.
  auto fromHalf = castAll<int16_t>(
      DType::I16, DType::F16,
      std::vector<uint16_t>{halfBits(1.5f), halfBits(-2.5f), halfBits(60000.f)},
      {RoundMode::Rint, RoundMode::Round});
  EXPECT_EQ(fromHalf[0], (std::vector<int16_t>{2, -2, 32767}));
  EXPECT_EQ(fromHalf[1], (std::vector<int16_t>{2, -3, 32767}));
}

TEST(SimVectorOps, CastIntegersToFloatsRoundOnce) {
  std::vector<int32_t> in = {16777217, 16777219, 257, 2049, 70000,
                             (1 << 24) + (1 << 16) + 1, -16777217};
  auto f32 = castAll<float>(DType::F32, DType::I32, in,
                            {RoundMode::Rint, RoundMode::Round, RoundMode::Floor,
                             RoundMode::Ceil, RoundMode::Trunc});
  EXPECT_EQ(f32[0][0], 16777216.f); // tie -> even
  EXPECT_EQ(f32[0][1], 16777220.f); // tie -> even (...218 is odd)
  EXPECT_EQ(f32[1][0], 16777218.f); // tie -> away
  EXPECT_EQ(f32[2][6], -16777218.f);
  EXPECT_EQ(f32[3][6], -16777216.f);
  EXPECT_EQ(f32[4][0], 16777216.f);

  auto f16 = castAll<uint16_t>(DType::F16, DType::I32, in,
                               {RoundMode::Rint, RoundMode::Round, RoundMode::Trunc});
  EXPECT_EQ(f16[0][3], 0x6800); // 2049 -> 2048
  EXPECT_EQ(f16[1][3], 0x6801); // 2049 -> 2050
  EXPECT_EQ(f16[0][4], 0x7c00); // 70000 overflows to inf ...
  EXPECT_EQ(f16[2][4], 0x7bff); // ... unless truncated

  auto bf16 = castAll<uint16_t>(DType::BF16, DType::I32, in,
                                {RoundMode::Rint, RoundMode::Round});
  EXPECT_EQ(bf16[0][2], 0x4380); // 257 -> 256
  EXPECT_EQ(bf16[1][2], 0x4381); // 257 -> 258
  // 2^24 + 2^16 + 1 is just above the bf16 midpoint: via a float it would
  // round to 2^24 + 2^16 (a tie) and then down to 2^24.
  EXPECT_EQ(bf16[0][5], 0x4b81);
}

TEST(SimVectorOps, CastBetweenFloatFormats) {
  // Widening is exact.
  std::vector<uint16_t> halves;
  for (uint32_t h = 0; h < 0x7c00; h += 7)
    halves.push_back(uint16_t(h));
  auto wide = castAll<float>(DType::F32, DType::F16, halves, {RoundMode::None});
  for (size_t i = 0; i < halves.size(); ++i)
    ASSERT_EQ(wide[0][i], halfValue(halves[i])) << i;
  auto fromBf = castAll<float>(DType::F32, DType::BF16,
                               std::vector<uint16_t>{0x3f81, 0xc2f7, 0x7f80},
                               {RoundMode::None});
  EXPECT_EQ(fromBf[0], (std::vector<float>{bf16Value(0x3f81), bf16Value(0xc2f7), kInf}));

  const float tie = 1 + 0x1p-8f; // between bf16 1.0 and 1 + 2^-7
  auto bf = castAll<uint16_t>(DType::BF16, DType::F32, std::vector<float>{tie, -tie},
                              {RoundMode::Rint, RoundMode::Round, RoundMode::Floor});
  EXPECT_EQ(bf[0], (std::vector<uint16_t>{0x3f80, 0xbf80}));
  EXPECT_EQ(bf[1], (std::vector<uint16_t>{0x3f81, 0xbf81}));
  EXPECT_EQ(bf[2], (std::vector<uint16_t>{0x3f80, 0xbf81}));

  // fp16 1 + 2^-10 to bf16: nearest is 1.0, ceil is 1 + 2^-7.
  auto h2b = castAll<uint16_t>(DType::BF16, DType::F16, std::vector<uint16_t>{0x3c01},
                               {RoundMode::Rint, RoundMode::Ceil});
  EXPECT_EQ(h2b[0][0], 0x3f80);
  EXPECT_EQ(h2b[1][0], 0x3f81);
}

TEST(SimVectorOps, CastIntegersWrapAndBoolIsNonZero) {
  std::vector<int32_t> in = {300, -129, 128, -1, 70000, 0};
  EXPECT_EQ(castAll<int8_t>(DType::I8, DType::I32, in, {RoundMode::None})[0],
            (std::vector<int8_t>{44, 127, -128, -1, 112, 0}));
  EXPECT_EQ(castAll<uint8_t>(DType::U8, DType::I32, in, {RoundMode::None})[0],
            (std::vector<uint8_t>{44, 127, 128, 255, 112, 0}));
  EXPECT_EQ(castAll<int16_t>(DType::I16, DType::I32, in, {RoundMode::None})[0],
            (std::vector<int16_t>{300, -129, 128, -1, 4464, 0}));
  EXPECT_EQ(unpackBits(castAll<uint8_t>(DType::Bool, DType::I32, in, {RoundMode::None})[0], 6),
            (std::vector<uint8_t>{1, 1, 1, 1, 1, 0}));
  EXPECT_EQ(castAll<int32_t>(DType::I32, DType::I8, std::vector<int8_t>{-5, 127},
                             {RoundMode::None})[0],
            (std::vector<int32_t>{-5, 127}));
  EXPECT_EQ(castAll<int32_t>(DType::I32, DType::U8, std::vector<uint8_t>{250, 1},
                             {RoundMode::None})[0],
            (std::vector<int32_t>{250, 1}));
  EXPECT_EQ(unpackBits(castAll<uint8_t>(DType::Bool, DType::F32,
                                        std::vector<float>{0.f, -0.f, kNaN, 0.5f},
                                        {RoundMode::None})[0],
                       4),
            (std::vector<uint8_t>{0, 0, 1, 1}));
  std::vector<uint8_t> flags = boolTile({0, 1, 1, 0}, 0).bytes; // packed bits
  EXPECT_EQ(castAll<float>(DType::F32, DType::Bool, flags, {RoundMode::None})[0],
            (std::vector<float>{0, 1, 1, 0}));
  EXPECT_EQ(castAll<uint16_t>(DType::F16, DType::Bool, flags, {RoundMode::None})[0],
            (std::vector<uint16_t>{0, 0x3c00, 0x3c00, 0}));
}

//===----------------------------------------------------------------------===//
// Compare and select
//===----------------------------------------------------------------------===//

const CmpMode kCmpModes[] = {CmpMode::LT, CmpMode::LE, CmpMode::GT,
                             CmpMode::GE, CmpMode::EQ, CmpMode::NE};
template <typename T> bool cmpRef(CmpMode m, T x, T y) {
  switch (m) {
  case CmpMode::LT: return x < y;
  case CmpMode::LE: return x <= y;
  case CmpMode::GT: return x > y;
  case CmpMode::GE: return x >= y;
  case CmpMode::EQ: return x == y;
  case CmpMode::NE: return x != y;
  }
  return false;
}

TEST(SimVectorOps, CompareFloatsFollowsIeee) {
  std::vector<float> a = {1, 2, kNaN, -0.f, 5, -kInf, kNaN, 3};
  std::vector<float> c = {2, 2, 1, 0.f, kNaN, -kInf, kNaN, 2};
  for (CmpMode m : kCmpModes) {
    Tile x = tile(DType::F32, a, 0), y = tile(DType::F32, c, 64);
    Tile tt = outTile(DType::Bool, 8, 128), ts = outTile(DType::Bool, 8, 160),
         tr = outTile(DType::Bool, 8, 192);
    LaunchResult r = runV({&x, &y}, {&tt, &ts, &tr}, [&](ProgramBuilder &b) {
      int two = b.argF(5);
      b.compare(m, DType::F32, tt.ub, x.ub, y.ub, Operand::ofImm(8), 12);
      b.compare(m, DType::F32, ts.ub, x.ub, 0, Operand::ofImm(8), 13, true, 2.0);
      b.compare(m, DType::F32, tr.ub, x.ub, 0, Operand::ofImm(8), 14, true, 0, two);
    }, {floatArg(2.0)});
    ASSERT_TRUE(r.ok) << r.error;
    for (int i = 0; i < 8; ++i) {
      EXPECT_EQ(maskBits(tt)[i], cmpRef(m, a[i], c[i])) << int(m) << " " << i;
      EXPECT_EQ(maskBits(ts)[i], cmpRef(m, a[i], 2.f)) << int(m) << " " << i;
      EXPECT_EQ(maskBits(tr)[i], cmpRef(m, a[i], 2.f)) << int(m) << " " << i;
    }
  }
}

TEST(SimVectorOps, CompareIntegersAndHalfScalarRoundsToDtype) {
  std::vector<int32_t> a = {-1, 0, 5, INT32_MIN}, c = {1, 0, -5, INT32_MAX};
  std::vector<uint8_t> ua = {255, 1, 7}, uc = {1, 255, 7};
  for (CmpMode m : kCmpModes) {
    Tile x = tile(DType::I32, a, 0), y = tile(DType::I32, c, 64);
    Tile ux = tile(DType::U8, ua, 128), uy = tile(DType::U8, uc, 160);
    Tile o1 = outTile(DType::Bool, 4, 192), o2 = outTile(DType::Bool, 3, 224);
    LaunchResult r = runV({&x, &y, &ux, &uy}, {&o1, &o2}, [&](ProgramBuilder &b) {
      b.compare(m, DType::I32, o1.ub, x.ub, y.ub, Operand::ofImm(4), 12);
      b.compare(m, DType::U8, o2.ub, ux.ub, uy.ub, Operand::ofImm(3), 13);
    });
    ASSERT_TRUE(r.ok) << r.error;
    for (int i = 0; i < 4; ++i)
      EXPECT_EQ(maskBits(o1)[i], cmpRef(m, a[i], c[i])) << int(m);
    for (int i = 0; i < 3; ++i)
      EXPECT_EQ(maskBits(o2)[i], cmpRef(m, ua[i], uc[i])) << int(m);
  }
  // half(0.1) == 0.1 holds because the scalar is rounded to fp16 first.
  Tile h = tile(DType::F16, std::vector<uint16_t>{halfBits(0.1f), halfBits(0.2f)}, 0);
  Tile eq = outTile(DType::Bool, 2, 64);
  LaunchResult r = runV({&h}, {&eq}, [&](ProgramBuilder &b) {
    b.compare(CmpMode::EQ, DType::F16, eq.ub, h.ub, 0, Operand::ofImm(2), 12, true, 0.1);
  });
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(maskBits(eq), (std::vector<uint8_t>{1, 0}));
}

TEST(SimVectorOps, SelectTensorAndScalarForms) {
  std::vector<float> a = {1, -2, 3, -4, 5}, c = {10, 20, 30, 40, 50};
  Tile x = tile(DType::F32, a, 0), y = tile(DType::F32, c, 64);
  Tile sel = outTile(DType::F32, 5, 128), sels = outTile(DType::F32, 5, 192);
  Tile seli = outTile(DType::I16, 5, 256), mask = outTile(DType::Bool, 5, 320);
  LaunchResult r = runV({&x, &y}, {&sel, &sels, &seli, &mask}, [&](ProgramBuilder &b) {
    auto n = Operand::ofImm(5);
    b.compare(CmpMode::GT, DType::F32, mask.ub, x.ub, 0, n, 12, true, 0.0);
    b.select(DType::F32, sel.ub, mask.ub, x.ub, y.ub, n, 13);
    b.select(DType::F32, sels.ub, mask.ub, x.ub, 0, n, 14, true, 9.5);
    b.cast(DType::I16, DType::F32, RoundMode::Rint, 1024, x.ub, n, 15);
    int minus7 = b.constI(-7);
    b.select(DType::I16, seli.ub, mask.ub, 1024, 0, n, 16, true, 0, minus7);
  });
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(maskBits(mask), (std::vector<uint8_t>{1, 0, 1, 0, 1}));
  EXPECT_EQ(mask.bytes[0] & 0x1f, 0x15); // Compare's bit order: element i is bit i
  EXPECT_EQ(values<float>(sel), (std::vector<float>{1, 20, 3, 40, 5}));
  EXPECT_EQ(values<float>(sels), (std::vector<float>{1, 9.5, 3, 9.5, 5}));
  EXPECT_EQ(values<int16_t>(seli), (std::vector<int16_t>{1, -7, 3, -7, 5}));
}

//===----------------------------------------------------------------------===//
// Reductions and broadcasts
//===----------------------------------------------------------------------===//

// The level-0 calls of a reduction (WholeReduce*, binary folds): mask,
// repeatTime and the block/repeat strides (32-byte blocks) decide which
// elements take part; what they leave out keeps its 0xAB fill (the output
// tiles are loaded into UB too).
const uint8_t kFill[4] = {0xAB, 0xAB, 0xAB, 0xAB};
bool untouched(const Tile &t, int64_t elem) {
  int64_t w = byteWidth(t.t);
  return std::memcmp(t.bytes.data() + elem * w, kFill, size_t(w)) == 0;
}

TEST(SimVectorOps, WholeReduceSumMaskRepeatAndStrides) {
  // 4 rows of 80 floats (10 blocks); row r element i = r * 1000 + i.
  const int rows = 4, cols = 80;
  std::vector<float> src(rows * cols);
  for (int r = 0; r < rows; ++r)
    for (int i = 0; i < cols; ++i)
      src[r * cols + i] = float(r * 1000 + i);
  Tile x = tile(DType::F32, src, 0);
  Tile y = outTile(DType::F32, 8, 8192), z = outTile(DType::F32, 8, 8224);
  LaunchResult r = runV({&x, &y, &z}, {&y, &z}, [&](ProgramBuilder &b) {
    // mask 50, repeat 3 (rows 0..2), srcRepStride 10 blocks, results 2 apart.
    b.wholeReduce(ReduceKind::Sum, DType::F32, y.ub, x.ub, 50, 3, 2, 1, 10, 12);
    // srcBlkStride 2: lanes 8..15 come from block 2 (elements 16..23).
    b.wholeReduce(ReduceKind::Sum, DType::F32, z.ub, x.ub, 16, 1, 1, 2, 8, 13);
  });
  ASSERT_TRUE(r.ok) << r.error;
  std::vector<float> got = values<float>(y);
  for (int row = 0; row < 3; ++row) {
    double want = 0;
    for (int i = 0; i < 50; ++i)
      want += src[row * cols + i];
    EXPECT_EQ(got[2 * row], float(want)) << row;
    EXPECT_TRUE(untouched(y, 2 * row + 1)) << row;
  }
  EXPECT_TRUE(untouched(y, 6)); // repeat 3 is not run
  double blocks = 0;
  for (int i : {0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23})
    blocks += src[i];
  EXPECT_EQ(values<float>(z)[0], float(blocks));
  EXPECT_TRUE(untouched(z, 1));
}

TEST(SimVectorOps, WholeReduceMaxMinOrders) {
  std::vector<float> src(64);
  for (int i = 0; i < 64; ++i)
    src[i] = float((i * 37) % 64) - 20.f; // 0..63 shuffled, minus 20
  src[50] = src[37] = 100.f;              // ties: the first index wins
  src[5] = -50.f;
  Tile x = tile(DType::F32, src, 0);
  Tile vi = outTile(DType::F32, 8, 8192), iv = outTile(DType::F32, 8, 8224),
       v = outTile(DType::F32, 8, 8256), ix = outTile(DType::F32, 8, 8288);
  LaunchResult r = runV({&x, &vi, &iv, &v, &ix}, {&vi, &iv, &v, &ix}, [&](ProgramBuilder &b) {
    b.wholeReduce(ReduceKind::Max, DType::F32, vi.ub, x.ub, 64, 1, 1, 1, 8, 12,
                  ReduceOrder::ValueIndex);
    b.wholeReduce(ReduceKind::Min, DType::F32, iv.ub, x.ub, 64, 1, 1, 1, 8, 13,
                  ReduceOrder::IndexValue);
    b.wholeReduce(ReduceKind::Max, DType::F32, v.ub, x.ub, 64, 1, 1, 1, 8, 14,
                  ReduceOrder::OnlyValue);
    b.wholeReduce(ReduceKind::Max, DType::F32, ix.ub, x.ub, 64, 1, 1, 1, 8, 15,
                  ReduceOrder::OnlyIndex);
  });
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(values<float>(vi)[0], 100.f);
  EXPECT_EQ(values<uint32_t>(vi)[1], 37u);
  EXPECT_EQ(values<uint32_t>(iv)[0], 5u);
  EXPECT_EQ(values<float>(iv)[1], -50.f);
  EXPECT_EQ(values<float>(v)[0], 100.f);
  EXPECT_TRUE(untouched(v, 1)); // value only: one element per result
  EXPECT_EQ(values<uint32_t>(ix)[0], 37u);
  EXPECT_TRUE(untouched(ix, 1));

  // half: the index is a uint16 next to the value; a NaN wins a max.
  std::vector<uint16_t> h(128, halfBits(1.f));
  h[70] = halfBits(kNaN);
  h[3] = halfBits(2.f);
  Tile hx = tile(DType::F16, h, 0);
  Tile hy = outTile(DType::F16, 16, 8192);
  r = runV({&hx, &hy}, {&hy}, [&](ProgramBuilder &b) {
    b.wholeReduce(ReduceKind::Max, DType::F16, hy.ub, hx.ub, 64, 1, 1, 1, 8, 12);
    b.wholeReduce(ReduceKind::Max, DType::F16, hy.ub + 4, hx.ub, 128, 1, 1, 1, 8, 13);
  });
  ASSERT_TRUE(r.ok) << r.error;
  std::vector<uint16_t> got = values<uint16_t>(hy);
  EXPECT_EQ(got[0], halfBits(2.f)); // mask 64 stops before the NaN
  EXPECT_EQ(got[1], 3);
  EXPECT_TRUE(std::isnan(halfValue(got[2])));
  EXPECT_EQ(got[3], 70);
}

TEST(SimVectorOps, WholeReduceHalfSumRoundsOnce) {
  // 128 x fp16(0.1): a fp16 running sum drifts, the model rounds once.
  std::vector<uint16_t> src(128, halfBits(0.1f));
  Tile x = tile(DType::F16, src, 0);
  Tile y = outTile(DType::F16, 16, 8192);
  LaunchResult r = runV({&x}, {&y}, [&](ProgramBuilder &b) {
    b.wholeReduce(ReduceKind::Sum, DType::F16, y.ub, x.ub, 128, 1, 1, 1, 8, 12);
  });
  ASSERT_TRUE(r.ok) << r.error;
  double exact = 128.0 * halfValue(halfBits(0.1f));
  EXPECT_EQ(values<uint16_t>(y)[0], halfBits(float(exact)));
}

TEST(SimVectorOps, BinaryRepeatMaskRepeatAndStrides) {
  // Two rows of 128 floats (16 blocks): fold the second half of each row
  // onto the first, under a 20-lane mask, into 2 x 64.
  std::vector<float> src(256);
  for (int i = 0; i < 256; ++i)
    src[i] = float(i);
  Tile x = tile(DType::F32, src, 0);
  Tile y = outTile(DType::F32, 128, 8192), z = outTile(DType::F32, 64, 8704);
  LaunchResult r = runV({&x, &y, &z}, {&y, &z}, [&](ProgramBuilder &b) {
    b.binaryRepeat(VecOp::Add, DType::F32, y.ub, x.ub, x.ub + 64 * 4, 20, 2,
                   {1, 1, 1, 8, 16, 16}, 12);
    // src0 blocks 2 apart, src1 the same blocks: lanes 8..15 read x[16..23].
    b.binaryRepeat(VecOp::Max, DType::F32, z.ub, x.ub, x.ub, 16, 1,
                   {1, 2, 1, 8, 8, 8}, 13);
  });
  ASSERT_TRUE(r.ok) << r.error;
  std::vector<float> got = values<float>(y);
  for (int row = 0; row < 2; ++row)
    for (int i = 0; i < 64; ++i) {
      if (i < 20)
        EXPECT_EQ(got[row * 64 + i], src[row * 128 + i] + src[row * 128 + 64 + i])
            << row << " " << i;
      else
        EXPECT_TRUE(untouched(y, row * 64 + i)) << row << " " << i;
    }
  std::vector<float> zs = values<float>(z);
  for (int i = 0; i < 8; ++i)
    EXPECT_EQ(zs[i], src[i]);
  for (int i = 8; i < 16; ++i) // max(x[i + 8], x[i])
    EXPECT_EQ(zs[i], src[i + 8]);
  EXPECT_TRUE(untouched(z, 16));

  // int16 products over 128 lanes wrap like the elementwise Mul.
  std::vector<int16_t> a(128, 300), m(128, 300);
  Tile ta = tile(DType::I16, a, 0), tm = tile(DType::I16, m, 256);
  Tile p = outTile(DType::I16, 128, 8192);
  r = runV({&ta, &tm}, {&p}, [&](ProgramBuilder &b) {
    b.binaryRepeat(VecOp::Mul, DType::I16, p.ub, ta.ub, tm.ub, 128, 1,
                   {1, 1, 1, 8, 8, 8}, 12);
  });
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(values<int16_t>(p)[127], int16_t(300 * 300));
}

TEST(SimVectorOps, BinaryRepeatBlocksOfSeveralRows) {
  // The reduction's fold layout with one block of each row per repeat: 3
  // rows of 32 floats (4 blocks); block stride = the row stride (4 blocks
  // in x, 2 in y), repeat stride 1 block, a 24-lane mask = rows 0..2.
  std::vector<float> src(96);
  for (int i = 0; i < 96; ++i)
    src[i] = float(i * i % 97);
  Tile x = tile(DType::F32, src, 0);
  Tile y = outTile(DType::F32, 64, 8192);
  LaunchResult r = runV({&x, &y}, {&y}, [&](ProgramBuilder &b) {
    b.binaryRepeat(VecOp::Add, DType::F32, y.ub, x.ub, x.ub + 16 * 4, 24, 2,
                   {2, 4, 4, 1, 1, 1}, 12);
  });
  ASSERT_TRUE(r.ok) << r.error;
  std::vector<float> got = values<float>(y);
  for (int row = 0; row < 3; ++row)
    for (int i = 0; i < 16; ++i)
      EXPECT_EQ(got[row * 16 + i], src[row * 32 + i] + src[row * 32 + 16 + i])
          << row << " " << i;
  for (int i = 48; i < 64; ++i) // a fourth row is outside the mask
    EXPECT_TRUE(untouched(y, i)) << i;
}

TEST(SimVectorOps, RepeatCallsCheckTheirFields) {
  Tile x = tile(DType::F32, std::vector<float>(64, 1), 0);
  Tile y = outTile(DType::F32, 64, 8192);
  LaunchResult r = runV({&x}, {&y}, [&](ProgramBuilder &b) {
    b.wholeReduce(ReduceKind::Sum, DType::F32, y.ub, x.ub, 65, 1, 1, 1, 8, 17);
  });
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("mask 65 is outside [1, 64]"), std::string::npos) << r.error;
  r = runV({&x}, {&y}, [&](ProgramBuilder &b) {
    b.binaryRepeat(VecOp::Add, DType::F32, y.ub, x.ub, x.ub, 64, 1,
                   {1, 1, 1, 256, 8, 8}, 17);
  });
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("stride outside [0, 255]"), std::string::npos) << r.error;
  r = runV({&x}, {&y}, [&](ProgramBuilder &b) { // a repeat past UB's end
    b.binaryRepeat(VecOp::Add, DType::F32, y.ub, x.ub, x.ub, 64, 255,
                   {1, 1, 1, 255, 8, 8}, 17);
  });
  EXPECT_FALSE(r.ok);
}

//===----------------------------------------------------------------------===//
// Brcb, level-0 Copy, DataCopy within UB (strides in 32-byte blocks)
//===----------------------------------------------------------------------===//

TEST(SimVectorOps, BrcbFillsOneBlockPerElementWithItsStrides) {
  // 16 floats -> 2 repeats of 8 blocks. Block stride 2 leaves every other
  // block untouched; repeat stride 16 puts repeat 1 right after repeat 0.
  std::vector<float> a(16);
  for (int i = 0; i < 16; ++i)
    a[i] = float(i + 1);
  Tile x = tile(DType::F32, a, 0), y = outTile(DType::F32, 2 * 16 * 8, 64);
  Tile h = tile(DType::F16, std::vector<uint16_t>{1, 2, 3, 4, 5, 6, 7, 8}, 1088);
  Tile z = outTile(DType::F16, 8 * 16, 1120);
  LaunchResult r = runV({&x, &h}, {&y, &z}, [&](ProgramBuilder &b) {
    b.brcb(DType::F32, y.ub, x.ub, 2, /*dstBlk=*/2, /*dstRep=*/16, 12);
    b.brcb(DType::F16, z.ub, h.ub, 1, 1, 8, 13);
  });
  ASSERT_TRUE(r.ok) << r.error;
  std::vector<float> out = values<float>(y);
  for (int blk = 0; blk < 32; ++blk)
    for (int k = 0; k < 8; ++k) {
      float v = out[blk * 8 + k];
      uint32_t bits;
      std::memcpy(&bits, &v, 4);
      if (blk % 2)
        EXPECT_EQ(bits, 0u) << "block " << blk << " was written"; // UB starts zeroed
      else
        EXPECT_EQ(v, a[blk / 2]) << "block " << blk;
    }
  std::vector<uint16_t> hz = values<uint16_t>(z);
  for (int i = 0; i < 128; ++i)
    EXPECT_EQ(hz[i], uint16_t(i / 16 + 1)) << i; // 16 halves per block
}

TEST(SimVectorOps, GatherMaskPacksWhatItsPatternKeeps) {
  // 256 floats = 4 repeats of 64. Built-in pattern 4 keeps element 1 of
  // every 4 (16 a repeat, 64 in all, packed); pattern 2 the odd ones over
  // repeats two blocks apart with a block stride of 2 (every other block).
  // A pattern buffer in counter mode: 48 elements a repeat (16 rows of 3),
  // bit j set for j % 3 == 2, the same bits every repeat (src1 stride 0).
  std::vector<float> a(256);
  for (int i = 0; i < 256; ++i)
    a[i] = float(i);
  std::vector<uint32_t> bits(8, 0);
  for (int j = 2; j < 48; j += 3)
    bits[j / 32] |= 1u << (j % 32);
  Tile x = tile(DType::F32, a, 0), p = tile(DType::I32, bits, 1024);
  Tile o1 = outTile(DType::F32, 64, 1056), o2 = outTile(DType::F32, 32, 1312),
       o3 = outTile(DType::F32, 80, 1440);
  LaunchResult r = runV({&x, &p}, {&o1, &o2, &o3}, [&](ProgramBuilder &b) {
    b.gatherMask(DType::F32, o1.ub, x.ub, 4, 0, 64, 4, 1, 8, 0, 20);
    b.gatherMask(DType::F32, o2.ub, x.ub, 2, 0, 64, 1, 2, 16, 0, 21);
    b.gatherMask(DType::F32, o3.ub, x.ub, 0, p.ub, 48, 5, 1, 6, 0, 22);
  });
  ASSERT_TRUE(r.ok) << r.error;
  std::vector<float> g1 = values<float>(o1), g2 = values<float>(o2),
                     g3 = values<float>(o3);
  for (int i = 0; i < 64; ++i)
    EXPECT_EQ(g1[i], float(4 * i + 1)) << i;
  // Block b of the one repeat is source block 2b: elements 16 * (b / 1) ...
  for (int i = 0; i < 32; ++i) {
    int j = 2 * i + 1; // the repeat's odd lanes
    EXPECT_EQ(g2[i], float(j / 8 * 16 + j % 8)) << i;
  }
  for (int i = 0; i < 80; ++i) // column 2 of 80 rows of 3
    EXPECT_EQ(g3[i], float(3 * i + 2)) << i;
}

TEST(SimVectorOps, GatherMaskWritesOnlyTheKeptElements) {
  // Counter mode, 10 elements, pattern 1: 5 kept; the sixth output element
  // keeps its value, and the race detector sees a 20-byte write.
  std::vector<float> a(64, 7.0f), keep(16, -1.0f);
  Tile x = tile(DType::F32, a, 0), o = tile(DType::F32, keep, 256);
  LaunchResult r = runV({&x, &o}, {&o}, [&](ProgramBuilder &b) {
    b.gatherMask(DType::F32, o.ub, x.ub, 1, 0, 10, 1, 1, 8, 0, 30);
  });
  ASSERT_TRUE(r.ok) << r.error;
  std::vector<float> got = values<float>(o);
  for (int i = 0; i < 16; ++i)
    EXPECT_EQ(got[i], i < 5 ? 7.0f : -1.0f) << i;
}

TEST(SimVectorOps, CopyMaskAndZeroStridesBroadcast) {
  // Row broadcast: 3 rows of 8 floats from one row (srcRepeatSize 0).
  // Column broadcast: row r of 16 floats from block r (srcStride 0,
  // srcRepeatSize 1). A mask of 12 copies one block and half of the next.
  std::vector<float> row = {1, 2, 3, 4, 5, 6, 7, 8};
  std::vector<float> blocks(16);
  for (int i = 0; i < 16; ++i)
    blocks[i] = float(10 * (i / 8 + 1));
  Tile x = tile(DType::F32, row, 0), c = tile(DType::F32, blocks, 32);
  Tile o1 = outTile(DType::F32, 24, 128), o2 = outTile(DType::F32, 32, 256),
       o3 = outTile(DType::F32, 16, 384);
  LaunchResult r = runV({&x, &c}, {&o1, &o2, &o3}, [&](ProgramBuilder &b) {
    b.copy(DType::F32, o1.ub, x.ub, 8, 3, 1, 1, /*dstRep=*/1, /*srcRep=*/0, 12);
    b.copy(DType::F32, o2.ub, c.ub, 16, 2, 1, /*srcBlk=*/0, 2, 1, 13);
    b.copy(DType::F32, o3.ub, c.ub, /*mask=*/12, 1, 1, 1, 8, 8, 14);
  });
  ASSERT_TRUE(r.ok) << r.error;
  std::vector<float> want1;
  for (int r = 0; r < 3; ++r)
    want1.insert(want1.end(), row.begin(), row.end());
  EXPECT_EQ(values<float>(o1), want1);
  std::vector<float> want2(32);
  for (int i = 0; i < 32; ++i)
    want2[i] = i < 16 ? 10 : 20;
  EXPECT_EQ(values<float>(o2), want2);
  std::vector<float> got3 = values<float>(o3);
  for (int i = 0; i < 12; ++i)
    EXPECT_EQ(got3[i], blocks[i]) << i;
  for (int i = 12; i < 16; ++i) {
    uint32_t bits;
    std::memcpy(&bits, &got3[i], 4);
    EXPECT_EQ(bits, 0u) << "lane " << i << " is masked off (UB starts zeroed)";
  }
}

TEST(SimVectorOps, LevelZeroSubAndDivReadABroadcastInPlace) {
  // x - column: 2 rows of 64 floats, row r minus the value in block r of c
  // (block and repeat stride 0 along the row, one repeat per row, c's repeat
  // stride one block). x / row: each row divided by one row (repeat stride 0).
  std::vector<float> xs(128), cs(16), rs(64);
  for (int i = 0; i < 128; ++i)
    xs[i] = float(i);
  for (int i = 0; i < 16; ++i)
    cs[i] = float(100 * (i / 8 + 1));
  for (int i = 0; i < 64; ++i)
    rs[i] = float(i % 4 + 1);
  Tile x = tile(DType::F32, xs, 0), c = tile(DType::F32, cs, 512), row = tile(DType::F32, rs, 576);
  Tile d = outTile(DType::F32, 128, 1024), q = outTile(DType::F32, 128, 1536);
  LaunchResult r = runV({&x, &c, &row}, {&d, &q}, [&](ProgramBuilder &b) {
    b.binaryRepeat(VecOp::Sub, DType::F32, d.ub, x.ub, c.ub, 64, 2, {1, 1, 0, 8, 8, 1}, 12);
    b.binaryRepeat(VecOp::Div, DType::F32, q.ub, x.ub, row.ub, 64, 2, {1, 1, 1, 8, 8, 0}, 13);
  });
  ASSERT_TRUE(r.ok) << r.error;
  std::vector<float> gotD = values<float>(d), gotQ = values<float>(q);
  for (int i = 0; i < 128; ++i) {
    EXPECT_EQ(gotD[i], xs[i] - float(100 * (i / 64 + 1))) << i;
    EXPECT_EQ(gotQ[i], xs[i] / rs[i % 64]) << i;
  }
}

TEST(SimVectorOps, CopyRejectsAMaskWiderThanARepeat) {
  Tile x = tile(DType::F32, std::vector<float>(64, 1.0f), 0);
  Tile y = outTile(DType::F32, 128, 256);
  LaunchResult r = runV({&x}, {&y}, [&](ProgramBuilder &b) {
    b.copy(DType::F32, y.ub, x.ub, /*mask=*/65, 1, 1, 1, 8, 8, 12);
  });
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("mask 65 outside [1, 64]"), std::string::npos) << r.error;
}

TEST(SimVectorOps, LocalDataCopyGapsAreInBlocks) {
  // Two runs of one block (8 floats): the source runs are 2 blocks apart
  // (gap 1), the destination ones 3 blocks apart (gap 2).
  std::vector<float> a(24);
  for (int i = 0; i < 24; ++i)
    a[i] = float(i);
  Tile x = tile(DType::F32, a, 0), y = outTile(DType::F32, 32, 128);
  LaunchResult r = runV({&x}, {&y}, [&](ProgramBuilder &b) {
    Instr in = b.vecInstr(Opcode::LocalDataCopy, DType::F32, y.ub, x.ub, Operand::ofImm(0));
    in.blockCount = 2;
    in.blockLen = 1;
    in.srcGap = 1;
    in.dstGap = 2;
    b.emit(in, "ascendc.local_data_copy", 12);
  });
  ASSERT_TRUE(r.ok) << r.error;
  std::vector<float> got = values<float>(y);
  for (int k = 0; k < 8; ++k) {
    EXPECT_EQ(got[k], a[k]);
    EXPECT_EQ(got[24 + k], a[16 + k]);
  }
}

//===----------------------------------------------------------------------===//
// Vector-scalar forms, integer and new unary ops
//===----------------------------------------------------------------------===//

TEST(SimVectorOps, VecScalarBothSidesAndRegisterScalar) {
  std::vector<float> a = {1, 2, 4, -8};
  Tile x = tile(DType::F32, a, 0);
  std::vector<Tile> outs;
  for (int i = 0; i < 6; ++i)
    outs.push_back(outTile(DType::F32, 4, 64 + 32 * i));
  LaunchResult r = runV({&x}, {&outs[0], &outs[1], &outs[2], &outs[3], &outs[4], &outs[5]},
                        [&](ProgramBuilder &b) {
    auto n = Operand::ofImm(4);
    int s = b.argF(7); // 3.0
    b.vecScalar(VecOp::Sub, DType::F32, outs[0].ub, x.ub, 10, n, 12, true);
    b.vecScalar(VecOp::Sub, DType::F32, outs[1].ub, x.ub, 10, n, 13);
    b.vecScalar(VecOp::Div, DType::F32, outs[2].ub, x.ub, 1, n, 14, true);
    b.vecScalar(VecOp::Min, DType::F32, outs[3].ub, x.ub, 0, n, 15, false, s);
    b.vecScalar(VecOp::Max, DType::F32, outs[4].ub, x.ub, 0, n, 16, true, s);
    b.vecScalar(VecOp::Mul, DType::F32, outs[5].ub, x.ub, 0, n, 17, false, s);
  }, {floatArg(3.0)});
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(values<float>(outs[0]), (std::vector<float>{9, 8, 6, 18}));
  EXPECT_EQ(values<float>(outs[1]), (std::vector<float>{-9, -8, -6, -18}));
  EXPECT_EQ(values<float>(outs[2]), (std::vector<float>{1, 0.5, 0.25, -0.125}));
  EXPECT_EQ(values<float>(outs[3]), (std::vector<float>{1, 2, 3, -8}));
  EXPECT_EQ(values<float>(outs[4]), (std::vector<float>{3, 3, 4, 3}));
  EXPECT_EQ(values<float>(outs[5]), (std::vector<float>{3, 6, 12, -24}));
}

TEST(SimVectorOps, IntegerDivisionByZeroNamesOpAndLine) {
  for (bool scalarForm : {false, true}) {
    Tile x = tile(DType::I32, std::vector<int32_t>{4, 5, 6}, 0);
    Tile y = tile(DType::I32, std::vector<int32_t>{1, 0, 2}, 64);
    Tile q = outTile(DType::I32, 3, 128);
    LaunchResult r = runV({&x, &y}, {&q}, [&](ProgramBuilder &b) {
      if (scalarForm)
        b.vecScalar(VecOp::Div, DType::I32, q.ub, x.ub, 0, Operand::ofImm(3), 18);
      else
        b.vec(VecOp::Div, DType::I32, q.ub, x.ub, y.ub, Operand::ofImm(3), 18);
    });
    EXPECT_FALSE(r.ok);
    std::string op = scalarForm ? "ascendc.vec_scalar" : "ascendc.binary";
    EXPECT_EQ(r.error, "integer division by zero in " + op +
                           " (V) at kernel.py:18:5 on core 0");
  }
}

TEST(SimVectorOps, BitwiseShiftsAndNot) {
  std::vector<int32_t> a = {0x1234, -256, 1, -1};
  std::vector<int16_t> h = {1, -2, 0x4000, 3};
  std::vector<uint8_t> u = {200, 1, 255, 16};
  Tile x = tile(DType::I32, a, 0), xh = tile(DType::I16, h, 64), xu = tile(DType::U8, u, 96);
  Tile flags = boolTile({0, 1, 1, 0}, 128);
  std::vector<Tile> o;
  for (int i = 0; i < 6; ++i)
    o.push_back(outTile(DType::I32, 4, 256 + 32 * i));
  Tile oh = outTile(DType::I16, 4, 512), ou = outTile(DType::U8, 4, 544),
       ob = outTile(DType::Bool, 4, 576), oand = outTile(DType::Bool, 4, 608);
  LaunchResult r = runV({&x, &xh, &xu, &flags},
                        {&o[0], &o[1], &o[2], &o[3], &o[4], &o[5], &oh, &ou, &ob, &oand},
                        [&](ProgramBuilder &b) {
    auto n = Operand::ofImm(4);
    b.vecScalar(VecOp::And, DType::I32, o[0].ub, x.ub, 0x0ff0, n, 12);
    b.vecScalar(VecOp::Or, DType::I32, o[1].ub, x.ub, 0x000f, n, 13);
    b.vecScalar(VecOp::Xor, DType::I32, o[2].ub, x.ub, -1, n, 14);
    b.vecScalar(VecOp::Shr, DType::I32, o[3].ub, x.ub, 4, n, 15);
    b.vecScalar(VecOp::Shl, DType::I32, o[4].ub, x.ub, 40, n, 16);
    b.vec(VecOp::Not, DType::I32, o[5].ub, x.ub, 0, n, 17);
    b.vecScalar(VecOp::Shl, DType::I16, oh.ub, xh.ub, 14, n, 18);
    b.vecScalar(VecOp::Shr, DType::U8, ou.ub, xu.ub, 1, n, 19);
    b.vec(VecOp::Not, DType::Bool, ob.ub, flags.ub, 0, n, 20);
    b.vec(VecOp::And, DType::Bool, oand.ub, flags.ub, ob.ub, n, 21);
  });
  ASSERT_TRUE(r.ok) << r.error;
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(values<int32_t>(o[0])[i], a[i] & 0x0ff0);
    EXPECT_EQ(values<int32_t>(o[1])[i], a[i] | 0x000f);
    EXPECT_EQ(values<int32_t>(o[2])[i], ~a[i]);
    EXPECT_EQ(values<int32_t>(o[3])[i], a[i] >> 4); // arithmetic
    EXPECT_EQ(values<int32_t>(o[4])[i], 0);         // shifted out
    EXPECT_EQ(values<int32_t>(o[5])[i], ~a[i]);
    EXPECT_EQ(values<int16_t>(oh)[i], int16_t(uint16_t(uint32_t(uint16_t(h[i])) << 14)));
    EXPECT_EQ(values<uint8_t>(ou)[i], u[i] >> 1); // logical
  }
  EXPECT_EQ(values<int32_t>(o[3])[1], -16);
  EXPECT_EQ(maskBits(ob), (std::vector<uint8_t>{1, 0, 0, 1}));
  EXPECT_EQ(maskBits(oand), (std::vector<uint8_t>{0, 0, 0, 0}));
}

TEST(SimVectorOps, RsqrtReciprocalAndNarrowIntegers) {
  std::vector<float> a = {4, 0.25f, -2, 0};
  std::vector<float> c = {3, 0.1f, 0.5f, 1};
  Tile x = tile(DType::F32, a, 0), y = tile(DType::F32, c, 32);
  Tile i8 = tile(DType::I8, std::vector<int8_t>{100, -100, 127, 5}, 64);
  Tile rs = outTile(DType::F32, 4, 128), rc = outTile(DType::F32, 4, 160),
       fd = outTile(DType::F32, 4, 192), sum8 = outTile(DType::I8, 4, 224);
  LaunchResult r = runV({&x, &y, &i8}, {&rs, &rc, &fd, &sum8}, [&](ProgramBuilder &b) {
    auto n = Operand::ofImm(4);
    b.vec(VecOp::Rsqrt, DType::F32, rs.ub, x.ub, 0, n, 12);
    b.vec(VecOp::Reciprocal, DType::F32, rc.ub, x.ub, 0, n, 13);
    b.vec(VecOp::Div, DType::F32, fd.ub, x.ub, y.ub, n, 14);
    b.vec(VecOp::Add, DType::I8, sum8.ub, i8.ub, i8.ub, n, 15);
  });
  ASSERT_TRUE(r.ok) << r.error;
  for (int i = 0; i < 4; ++i) {
    float rsRef = 1.0f / std::sqrt(a[i]), rcRef = 1.0f / a[i];
    float fdRef = a[i] / c[i];
    if (std::isnan(rsRef))
      EXPECT_TRUE(std::isnan(values<float>(rs)[i]));
    else
      EXPECT_EQ(values<float>(rs)[i], rsRef) << i;
    EXPECT_EQ(values<float>(rc)[i], rcRef) << i;
    EXPECT_EQ(values<float>(fd)[i], fdRef) << i;
  }
  EXPECT_EQ(values<int8_t>(sum8), (std::vector<int8_t>{-56, 56, -2, 10}));
}

TEST(SimVectorOps, TypeErrorsAreRejectedBeforeRunning) {
  struct Case {
    std::function<void(ProgramBuilder &)> emit;
    std::string message;
  };
  auto n = Operand::ofImm(4);
  std::vector<Case> cases = {
      {[&](ProgramBuilder &b) { b.vecScalar(VecOp::And, DType::F32, 64, 0, 1, n, 12); },
       "bitwise ops and shifts need an integer or bool type, got float32"},
      {[&](ProgramBuilder &b) { b.vec(VecOp::Rsqrt, DType::I32, 64, 0, 0, n, 12); },
       "exp/log/sqrt/rsqrt/reciprocal need a float type, got int32"},
      {[&](ProgramBuilder &b) { b.vec(VecOp::Add, DType::Bool, 64, 0, 0, n, 12); },
       "bool operands support only and/or/xor/not/max/min"},
      {[&](ProgramBuilder &b) {
         b.cast(DType::BF16, DType::F32, RoundMode::Odd, 64, 0, n, 12);
       },
       "round mode odd only applies to float32 -> float16, not float32 -> bfloat16"},
      {[&](ProgramBuilder &b) {
         b.wholeReduce(ReduceKind::Sum, DType::I32, 64, 0, 8, 1, 1, 1, 8, 12);
       },
       "WholeReduce takes half or float, not int32"},
      {[&](ProgramBuilder &b) {
         b.binaryRepeat(VecOp::Exp, DType::F32, 64, 0, 0, 8, 1, {1, 1, 1, 8, 8, 8}, 12);
       },
       "a level-0 binary call is Add, Sub, Mul, Div, Max or Min"},
      {[&](ProgramBuilder &b) {
         b.binaryRepeat(VecOp::Div, DType::I32, 64, 0, 0, 8, 1, {1, 1, 1, 8, 8, 8}, 12);
       },
       "a level-0 Div takes half or float, not int32"},
  };
  for (const Case &c : cases) {
    Tile x = tile(DType::F32, std::vector<float>(4, 1), 0);
    Tile y = outTile(DType::F32, 4, 64);
    LaunchResult r = runV({&x}, {&y}, c.emit);
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.error.find("(ascendc."), std::string::npos) << r.error;
    EXPECT_NE(r.error.find(c.message), std::string::npos) << r.error;
  }
}

//===----------------------------------------------------------------------===//
// uint8 (unsigned order, logical shifts, wrap-around), asc2.mask bit masks,
// batched transposes
//===----------------------------------------------------------------------===//

TEST(SimVectorOps, Uint8IsUnsigned) {
  std::vector<uint8_t> a = {200, 1, 255, 16, 128, 0, 127, 250};
  std::vector<uint8_t> c = {100, 2, 1, 16, 127, 255, 128, 10};
  Tile x = tile(DType::U8, a, 0), y = tile(DType::U8, c, 32);
  Tile lt = outTile(DType::Bool, 8, 64), mx = outTile(DType::U8, 8, 96), mn = outTile(DType::U8, 8, 128),
       shr = outTile(DType::U8, 8, 160), dv = outTile(DType::U8, 8, 192), fd = outTile(DType::U8, 8, 224),
       add = outTile(DType::U8, 8, 256), nt = outTile(DType::U8, 8, 288), gts = outTile(DType::Bool, 8, 320);
  LaunchResult r = runV({&x, &y}, {&lt, &mx, &mn, &shr, &dv, &fd, &add, &nt, &gts}, [&](ProgramBuilder &b) {
    auto n = Operand::ofImm(8);
    b.compare(CmpMode::LT, DType::U8, lt.ub, x.ub, y.ub, n, 12);
    b.vec(VecOp::Max, DType::U8, mx.ub, x.ub, y.ub, n, 13);
    b.vec(VecOp::Min, DType::U8, mn.ub, x.ub, y.ub, n, 14);
    b.vecScalar(VecOp::Shr, DType::U8, shr.ub, x.ub, 3, n, 15);
    b.vec(VecOp::Div, DType::U8, dv.ub, x.ub, y.ub, n, 16);
    b.vecScalar(VecOp::Div, DType::U8, fd.ub, x.ub, 7, n, 17);
    b.vec(VecOp::Add, DType::U8, add.ub, x.ub, y.ub, n, 18);
    b.vec(VecOp::Not, DType::U8, nt.ub, x.ub, 0, n, 19);
    b.compare(CmpMode::GT, DType::U8, gts.ub, x.ub, 0, n, 20, true, 127);
  });
  ASSERT_TRUE(r.ok) << r.error;
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(maskBits(lt)[i], a[i] < c[i]) << i;
    EXPECT_EQ(values<uint8_t>(mx)[i], std::max(a[i], c[i])) << i;
    EXPECT_EQ(values<uint8_t>(mn)[i], std::min(a[i], c[i])) << i;
    EXPECT_EQ(values<uint8_t>(shr)[i], a[i] >> 3) << i;
    EXPECT_EQ(values<uint8_t>(dv)[i], a[i] / c[i]) << i;
    EXPECT_EQ(values<uint8_t>(fd)[i], a[i] / 7) << i;
    EXPECT_EQ(values<uint8_t>(add)[i], uint8_t(a[i] + c[i])) << i;
    EXPECT_EQ(values<uint8_t>(nt)[i], uint8_t(~a[i])) << i;
    EXPECT_EQ(maskBits(gts)[i], a[i] > 127) << i;
  }
}

TEST(SimVectorOps, BitMaskComputesOnlySelectedLanesOfEachRepeat) {
  // 160 floats = 2.5 repeats of 64 lanes; 300 halves = 2.3 repeats of 128.
  const uint64_t lo = 0x8000'0000'0000'0F0Full, hi = 0x0000'0001'0000'0003ull;
  auto selected = [&](int64_t i, int64_t lanes) {
    int64_t l = i % lanes;
    return ((l < 64 ? lo >> l : hi >> (l - 64)) & 1) != 0;
  };
  std::vector<float> a(160), c(160);
  for (int i = 0; i < 160; ++i)
    a[i] = float(i), c[i] = 0.5f;
  std::vector<uint16_t> h(300);
  for (int i = 0; i < 300; ++i)
    h[i] = halfBits(float(i % 50) - 25.0f);
  Tile x = tile(DType::F32, a, 0), y = tile(DType::F32, c, 1024), xh = tile(DType::F16, h, 2048);
  Tile sum = outTile(DType::F32, 160, 4096), neg = outTile(DType::F16, 300, 5120),
       cmp = outTile(DType::Bool, 160, 6144), wide = outTile(DType::F32, 300, 6400);
  LaunchResult r = runV({&x, &y, &xh}, {&sum, &neg, &cmp, &wide}, [&](ProgramBuilder &b) {
    int hiReg = b.constI(int64_t(hi)), loReg = b.constI(int64_t(lo));
    auto masked = [&](Instr &in) {
      in.bitMask = true;
      in.maskHigh = Operand::ofReg(hiReg);
      in.maskLow = Operand::ofReg(loReg);
    };
    // Lanes left out keep what the destinations hold: -7 (0xAB bytes for bools).
    b.dup(DType::F32, sum.ub, -7, Operand::ofImm(160), 11);
    b.dup(DType::F16, neg.ub, -7, Operand::ofImm(300), 11);
    b.dup(DType::U8, cmp.ub, 0xAB, Operand::ofImm(160), 11);
    b.dup(DType::F32, wide.ub, -7, Operand::ofImm(300), 11);
    b.vec(VecOp::Add, DType::F32, sum.ub, x.ub, y.ub, Operand::ofImm(160), 12);
    masked(b.program.code.back());
    b.vecScalar(VecOp::Mul, DType::F16, neg.ub, xh.ub, -1.0, Operand::ofImm(300), 13);
    masked(b.program.code.back());
    b.compare(CmpMode::GT, DType::F32, cmp.ub, x.ub, 0, Operand::ofImm(160), 14, true, 100.0);
    masked(b.program.code.back());
    b.cast(DType::F32, DType::F16, RoundMode::None, wide.ub, xh.ub, Operand::ofImm(300), 15);
    masked(b.program.code.back());
  });
  ASSERT_TRUE(r.ok) << r.error;
  for (int i = 0; i < 160; ++i) {
    bool on = selected(i, 64);
    EXPECT_EQ(values<float>(sum)[i], on ? a[i] + 0.5f : -7.0f) << i;
    // Bits left out keep the 0xAB bytes' bits.
    EXPECT_EQ(maskBits(cmp)[i], on ? uint8_t(a[i] > 100) : uint8_t((0xAB >> (i % 8)) & 1)) << i;
  }
  for (int i = 0; i < 300; ++i) {
    bool on = selected(i, 128);
    EXPECT_EQ(values<uint16_t>(neg)[i], on ? halfBits(-halfValue(h[i])) : halfBits(-7.0f)) << i;
    // A cast's repeat is 256 bytes of its wider type: 64 lanes of f32.
    EXPECT_EQ(values<float>(wide)[i], selected(i, 64) ? halfValue(h[i]) : -7.0f) << i;
  }
}

TEST(SimVectorOps, BitMaskOnEightBitElementsIsRejected) {
  Tile x = tile(DType::I8, std::vector<int8_t>(32, 1), 0);
  Tile y = outTile(DType::I8, 32, 64);
  LaunchResult r = runV({&x}, {&y}, [&](ProgramBuilder &b) {
    b.vec(VecOp::Add, DType::I8, y.ub, x.ub, x.ub, Operand::ofImm(32), 12);
    b.program.code.back().bitMask = true;
  });
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("a lane bit mask needs 16- or 32-bit elements"), std::string::npos) << r.error;
}

TEST(SimVectorOps, BatchedTranspose) {
  // Three 2 x 8 matrices -> three 8 x 2.
  std::vector<int32_t> a(48);
  for (int i = 0; i < 48; ++i)
    a[i] = i;
  Tile x = tile(DType::I32, a, 0), y = outTile(DType::I32, 48, 256);
  LaunchResult r = runV({&x}, {&y}, [&](ProgramBuilder &b) {
    Instr in = b.vecInstr(Opcode::VecTranspose, DType::I32, y.ub, x.ub, Operand::ofImm(0));
    in.a = Operand::ofImm(2);
    in.b = Operand::ofImm(8);
    in.batch = 3;
    in.tmpAddr = 512;
    in.tmpBytes = 4 * 512; // (c + 2) * 512
    b.emit(in, "ascendc.transpose", 12);
  });
  ASSERT_TRUE(r.ok) << r.error;
  for (int m = 0; m < 3; ++m)
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 8; ++j)
        EXPECT_EQ(values<int32_t>(y)[m * 16 + j * 2 + i], a[m * 16 + i * 8 + j]);
}

} // namespace
