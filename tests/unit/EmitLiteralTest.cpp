//===- EmitLiteralTest.cpp - float literals and kernel symbols of the emitter ===//
//
// Every float constant the emitter prints must be C++ that denotes exactly
// the constant's bits. The literals of special values (inf, NaN payloads,
// -0, denormals, max) are compiled with the host C++ compiler into a program
// that checks each one's bits, so a spelling that is not C++ ("inff") or not
// exact fails here.
//
//===----------------------------------------------------------------------===//
#include "asc2/Target/AscendC/EmitAscendC.h"

#include "llvm/ADT/APInt.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

using namespace asc2;

namespace {

struct Case {
  const llvm::fltSemantics *sem;
  uint32_t bits;     // in `sem`
  uint32_t expected; // IEEE single bits the literal must denote
};

llvm::APFloat valueOf(const Case &c) {
  unsigned width = llvm::APFloat::getSizeInBits(*c.sem);
  return llvm::APFloat(*c.sem, llvm::APInt(width, c.bits));
}

std::vector<Case> specialValues() {
  const llvm::fltSemantics *f32 = &llvm::APFloat::IEEEsingle(),
                           *f16 = &llvm::APFloat::IEEEhalf(),
                           *bf16 = &llvm::APFloat::BFloat();
  return {
      {f32, 0x7f800000, 0x7f800000}, // +inf
      {f32, 0xff800000, 0xff800000}, // -inf
      {f32, 0x7fc00000, 0x7fc00000}, // quiet NaN
      {f32, 0xffc00000, 0xffc00000}, // -NaN
      {f32, 0x7fc00123, 0x7fc00123}, // NaN with a payload
      {f32, 0x7f800001, 0x7f800001}, // signalling NaN
      {f32, 0x80000000, 0x80000000}, // -0.0
      {f32, 0x00000001, 0x00000001}, // smallest denormal
      {f32, 0x007fffff, 0x007fffff}, // largest denormal
      {f32, 0x00800000, 0x00800000}, // FLT_MIN
      {f32, 0x7f7fffff, 0x7f7fffff}, // FLT_MAX
      {f32, 0xff7fffff, 0xff7fffff}, // -FLT_MAX
      {f32, 0x3dcccccd, 0x3dcccccd}, // 0.1f
      {f32, 0x3f800000, 0x3f800000}, // 1.0f
      {f16, 0x7c00, 0x7f800000},     // half +inf
      {f16, 0xfc00, 0xff800000},     // half -inf
      {f16, 0x7e00, 0x7fc00000},     // half quiet NaN
      {f16, 0x7d01, 0x7fa02000},     // half signalling NaN, payload 0x101
      {f16, 0x8000, 0x80000000},     // half -0.0
      {f16, 0x0001, 0x33800000},     // half smallest denormal, 2^-24
      {f16, 0x7bff, 0x477fe000},     // half max, 65504
      {bf16, 0x7f80, 0x7f800000},    // bf16 +inf
      {bf16, 0xffc1, 0xffc10000},    // bf16 -NaN with a payload
      {bf16, 0x0001, 0x00010000},    // bf16 smallest denormal
      {bf16, 0x7f7f, 0x7f7f0000},    // bf16 max
  };
}

TEST(EmitLiteral, SpecialValuesAreCxxWithTheirBits) {
  std::vector<Case> cases = specialValues();
  llvm::SmallString<128> dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("asc2-literals", dir));
  llvm::SmallString<128> src(dir), exe(dir);
  llvm::sys::path::append(src, "literals.cpp");
  llvm::sys::path::append(exe, "literals");
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(src, ec);
    ASSERT_FALSE(ec);
    os << "#include <cstdint>\n#include <cstdio>\n#include <cstring>\n"
          "static int check(float f, uint32_t want, int i) {\n"
          "  uint32_t got; std::memcpy(&got, &f, 4);\n"
          "  if (got == want) return 0;\n"
          "  std::printf(\"case %d: 0x%08x, want 0x%08x\\n\", i, got, want);\n"
          "  return 1;\n}\n"
          "int main() {\n  int bad = 0;\n";
    for (size_t i = 0; i < cases.size(); ++i)
      os << llvm::formatv("  bad += check({0}, 0x{1:x-8}u, {2});\n",
                          cxxFloatLiteral(valueOf(cases[i])), cases[i].expected, i);
    os << "  return bad;\n}\n";
  }
  auto cxx = llvm::sys::findProgramByName(ASC2_HOST_CXX);
  ASSERT_TRUE(bool(cxx)) << ASC2_HOST_CXX;
  std::string errMsg;
  int rc = llvm::sys::ExecuteAndWait(*cxx, {*cxx, "-std=c++17", "-Werror", "-o", exe, src},
                                     std::nullopt, {}, 0, 0, &errMsg);
  ASSERT_EQ(rc, 0) << "the literals do not compile: " << errMsg << " (" << src.str().str() << ")";
  rc = llvm::sys::ExecuteAndWait(exe, {exe}, std::nullopt, {}, 0, 0, &errMsg);
  EXPECT_EQ(rc, 0) << rc << " literal(s) denote other bits (" << src.str().str() << ")";
}

TEST(EmitLiteral, SpellingsOfSpecialValues) {
  auto f32 = [](uint32_t bits) {
    return cxxFloatLiteral(llvm::APFloat(llvm::APFloat::IEEEsingle(), llvm::APInt(32, bits)));
  };
  EXPECT_EQ(f32(0xff800000), "-__builtin_inff()");
  EXPECT_EQ(f32(0x7fc00000), "__builtin_nanf(\"0x0\")");
  EXPECT_EQ(f32(0x80000000), "-0.0f");
  EXPECT_EQ(f32(0x3f800000), "1.0f");
  EXPECT_EQ(f32(0x3f000000), "0.5f");
}

TEST(EmitLiteral, KernelSymbolHasAFixedPrefix) {
  // `select` is also libc's select(2): the kernel's C symbol must differ.
  EXPECT_EQ(kernelSymbol("select"), "asc2_select");
  EXPECT_EQ(kernelSymbol("softmax_fused"), "asc2_softmax_fused");
}

TEST(EmitLiteral, SourceLinesAreReadFromTheLineComments) {
  // Index i is line i + 1; a statement names its Python line at its end, also
  // after an opening brace; a "// line" elsewhere in a line is not a source line.
  const std::vector<int> lines = sourceLinesOfAscendC(
      "// Generated by asc2\n"
      "  AscendC::Add(z, x, y, 64);  // line 28\n"
      "  for (int64_t v1 = 0; v1 < v0; v1 += 2) {  // line 24\n"
      "  // line numbers below\n"
      "}");
  EXPECT_EQ(lines, (std::vector<int>{0, 28, 24, 0, 0}));
}

} // namespace
