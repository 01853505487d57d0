//===- Literals.cpp - C++ spellings of float constants and kernel symbols --===//
//
// A float constant must reach the kernel with exactly its bits: "inff" and
// "nanf" are not C++ (softmax pads with -inf), and a decimal with too few
// digits changes the value. Every spelling here is plain C++ that GCC and
// Clang (bisheng) fold to one float.
//
//===----------------------------------------------------------------------===//
#include "asc2/Target/AscendC/EmitAscendC.h"

#include "llvm/ADT/APInt.h"
#include "llvm/Support/FormatVariadic.h"

#include <cstdio>
#include <cstring>

namespace asc2 {

std::string kernelSymbol(llvm::StringRef name) { return ("asc2_" + name).str(); }

/// The IEEE single bits of `v`: exact for f16, bf16 and f32 (both narrow
/// formats are subsets of f32); a NaN keeps its sign, quiet bit and payload,
/// moved to the top of float's mantissa (where narrowing truncates it back).
static uint32_t floatBitsOf(const llvm::APFloat &v) {
  const llvm::fltSemantics &sem = v.getSemantics();
  if (&sem == &llvm::APFloat::IEEEsingle())
    return uint32_t(v.bitcastToAPInt().getZExtValue());
  if (v.isNaN() && (&sem == &llvm::APFloat::IEEEhalf() ||
                    &sem == &llvm::APFloat::BFloat())) {
    uint64_t bits = v.bitcastToAPInt().getZExtValue();
    bool half = &sem == &llvm::APFloat::IEEEhalf();
    unsigned mantBits = half ? 10 : 7, width = 16;
    uint32_t sign = uint32_t(bits >> (width - 1)) & 1;
    uint32_t mant = uint32_t(bits) & ((1u << mantBits) - 1);
    return (sign << 31) | 0x7f800000u | (mant << (23 - mantBits));
  }
  llvm::APFloat f = v;
  bool lost = false;
  f.convert(llvm::APFloat::IEEEsingle(), llvm::APFloat::rmNearestTiesToEven, &lost);
  return uint32_t(f.bitcastToAPInt().getZExtValue());
}

std::string cxxFloatLiteral(const llvm::APFloat &v) {
  uint32_t bits = floatBitsOf(v);
  std::string sign = (bits >> 31) ? "-" : "";
  uint32_t exponent = (bits >> 23) & 0xff, mant = bits & 0x7fffff;
  if (exponent == 0xff && mant == 0)
    return sign + "__builtin_inff()";
  if (exponent == 0xff) {
    // Quiet NaNs (bit 22 set) take the payload below the quiet bit;
    // __builtin_nansf sets a signalling NaN's payload as is.
    bool quiet = mant & 0x400000;
    uint32_t payload = quiet ? (mant & 0x3fffff) : mant;
    return sign + llvm::formatv("__builtin_nan{0}f(\"{1:x}\")", quiet ? "" : "s",
                                payload)
                      .str();
  }
  float f;
  std::memcpy(&f, &bits, sizeof f);
  // 9 significant digits name every float uniquely (FLT_DECIMAL_DIG).
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.9g", double(f));
  std::string s = buf;
  if (s.find_first_of(".eE") == std::string::npos)
    s += ".0";
  return s + "f";
}

} // namespace asc2
