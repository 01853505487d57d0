//===- Float16Test.cpp - fp16/bf16 conversions round to nearest even ------===//

#include "Float16.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

using namespace asc2::sim;

namespace {

/// Independent bf16 reference: round to the bf16 quantum of x's binade
/// (8 significant bits; a fixed 2^-133 below the normal range) with
/// nearbyint, which ties to even in the default rounding mode.
float bf16Reference(float x) {
  if (std::isnan(x) || std::isinf(x) || x == 0)
    return x;
  int e;
  std::frexp(double(x), &e); // |x| in [2^(e-1), 2^e)
  int quantum = std::max(e - 8, -133);
  double r = std::ldexp(std::nearbyint(std::ldexp(double(x), -quantum)), quantum);
  return float(r); // exact: r is a bf16 value (or 2^128, which overflows)
}

TEST(Float16, KnownHalfValues) {
  EXPECT_EQ(floatToHalf(1.0f), 0x3c00);
  EXPECT_EQ(floatToHalf(-2.0f), 0xc000);
  EXPECT_EQ(floatToHalf(65504.0f), 0x7bff);
  EXPECT_EQ(floatToHalf(65519.0f), 0x7bff); // below the rounding midpoint
  EXPECT_EQ(floatToHalf(65520.0f), 0x7c00); // midpoint rounds to inf
  EXPECT_EQ(floatToHalf(0x1p-24f), 0x0001); // smallest subnormal
  EXPECT_EQ(floatToHalf(0x1p-25f), 0x0000); // tie to even (zero)
  EXPECT_EQ(floatToHalf(0x1.8p-24f), 0x0002); // tie to even (two)
  EXPECT_EQ(floatToHalf(1.0f + 0x1p-11f), 0x3c00); // tie, even stays
  EXPECT_EQ(floatToHalf(1.0f + 0x3p-11f), 0x3c02); // tie, odd rounds up
  EXPECT_EQ(floatToHalf(-0.0f), 0x8000);
  EXPECT_EQ(floatToHalf(INFINITY), 0x7c00);
  EXPECT_TRUE(std::isnan(halfToFloat(floatToHalf(NAN))));
  EXPECT_EQ(halfToFloat(0x3555), 0.333251953125f);
  EXPECT_EQ(halfToFloat(0x0001), 0x1p-24f);
}

TEST(Float16, HalfRoundTripsEveryValue) {
  for (uint32_t h = 0; h < 65536; ++h) {
    float f = halfToFloat(uint16_t(h));
    if (std::isnan(f))
      continue;
    ASSERT_EQ(floatToHalf(f), h) << std::hex << h;
  }
}

#if defined(__FLT16_MAX__)
TEST(Float16, MatchesCompilerFloat16OnRandomFloats) {
  std::mt19937 rng(42);
  for (int i = 0; i < 2'000'000; ++i) {
    float f = bitsFloat(uint32_t(rng()));
    if (std::isnan(f))
      continue;
    _Float16 ref = _Float16(f);
    uint16_t refBits;
    std::memcpy(&refBits, &ref, 2);
    ASSERT_EQ(floatToHalf(f), refBits) << f;
  }
}
#endif

TEST(BFloat16, MatchesFrexpReference) {
  std::mt19937 rng(7);
  for (int i = 0; i < 2'000'000; ++i) {
    float f = bitsFloat(uint32_t(rng()));
    if (std::isnan(f) || std::fabs(f) > 3.38e38f)
      continue;
    ASSERT_EQ(bf16ToFloat(floatToBf16(f)), bf16Reference(f)) << f;
  }
  EXPECT_EQ(floatToBf16(1.0f + 0x1p-8f), 0x3f80); // tie to even
  EXPECT_EQ(floatToBf16(1.0f + 0x3p-8f), 0x3f82);
  EXPECT_TRUE(std::isnan(bf16ToFloat(floatToBf16(NAN))));
}

} // namespace
