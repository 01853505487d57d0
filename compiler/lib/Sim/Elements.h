//===- Elements.h - Stored elements and their compute values ------*- C++ -*-===//
//
// A codec loads a stored element into the type the vector unit computes in
// (float for fp32/fp16/bf16, int64 for integers) and stores a result back,
// rounding to nearest even (floats) or wrapping (integers). Kernels are
// templates over a codec so the dtype switch happens once per instruction,
// outside the element loops (withCodec).
//
//===----------------------------------------------------------------------===//
#ifndef ASC2_LIB_SIM_ELEMENTS_H
#define ASC2_LIB_SIM_ELEMENTS_H

#include "Rounding.h"

#include "asc2/Sim/Program.h"

#include <cstring>
#include <type_traits>

namespace asc2::sim {

/// fp16 -> float for all 65536 patterns (loads are the hot path).
const float *halfTable();

struct F32Codec {
  using Value = float;
  static constexpr bool kIsFloat = true, kIsBool = false;
  static constexpr int kWidth = 4;
  Value load(const uint8_t *p) const {
    float v;
    std::memcpy(&v, p, 4);
    return v;
  }
  void store(uint8_t *p, Value v) const { std::memcpy(p, &v, 4); }
};

struct F16Codec {
  using Value = float;
  static constexpr bool kIsFloat = true, kIsBool = false;
  static constexpr int kWidth = 2;
  const float *table = halfTable();
  Value load(const uint8_t *p) const {
    uint16_t h;
    std::memcpy(&h, p, 2);
    return table[h];
  }
  void store(uint8_t *p, Value v) const {
    uint16_t h = floatToHalf(v);
    std::memcpy(p, &h, 2);
  }
};

struct BF16Codec {
  using Value = float;
  static constexpr bool kIsFloat = true, kIsBool = false;
  static constexpr int kWidth = 2;
  Value load(const uint8_t *p) const {
    uint16_t h;
    std::memcpy(&h, p, 2);
    return bf16ToFloat(h);
  }
  void store(uint8_t *p, Value v) const {
    uint16_t h = floatToBf16(v);
    std::memcpy(p, &h, 2);
  }
};

template <typename Stored> struct IntCodec {
  // Integer lanes compute in int64 and wrap on store, as the hardware does.
  using Value = int64_t;
  static constexpr bool kIsFloat = false, kIsBool = false;
  static constexpr int kWidth = sizeof(Stored);
  static constexpr int kBits = 8 * sizeof(Stored);
  Value load(const uint8_t *p) const {
    Stored v;
    std::memcpy(&v, p, sizeof(Stored));
    return v;
  }
  void store(uint8_t *p, Value v) const {
    using U = std::make_unsigned_t<Stored>;
    U u = U(uint64_t(v));
    std::memcpy(p, &u, sizeof(Stored));
  }
};

/// One byte per element holding 0 or 1; any non-zero value stores as 1.
struct BoolCodec {
  using Value = int64_t;
  static constexpr bool kIsFloat = false, kIsBool = true;
  static constexpr int kWidth = 1;
  static constexpr int kBits = 1;
  Value load(const uint8_t *p) const { return *p != 0; }
  void store(uint8_t *p, Value v) const { *p = v != 0; }
};

/// Calls f(codec) with the codec of `t`.
template <typename F> decltype(auto) withCodec(DType t, F &&f) {
  switch (t) {
  case DType::F32:
    return f(F32Codec{});
  case DType::F16:
    return f(F16Codec{});
  case DType::BF16:
    return f(BF16Codec{});
  case DType::I32:
    return f(IntCodec<int32_t>{});
  case DType::I16:
    return f(IntCodec<int16_t>{});
  case DType::I8:
    return f(IntCodec<int8_t>{});
  case DType::U8:
    return f(IntCodec<uint8_t>{});
  case DType::I64:
    return f(IntCodec<int64_t>{});
  case DType::Bool:
    break;
  }
  return f(BoolCodec{});
}

inline bool isFloatDType(DType t) {
  return t == DType::F32 || t == DType::F16 || t == DType::BF16;
}

/// A scalar operand as the scalar unit holds it: a double (float registers,
/// immediates) or an int64 (integer registers).
struct Scalar {
  bool isInt = false;
  double f = 0;
  int64_t i = 0;
  static Scalar ofFloat(double v) { return {false, v, 0}; }
  static Scalar ofInt(int64_t v) { return {true, 0, v}; }
  double asDouble() const { return isInt ? double(i) : f; }
  int64_t asInt() const { return isInt ? i : truncToInt64(f); }
};

/// Stores `s` as one element of `t`: floats round to nearest even, integers
/// truncate toward zero (from doubles) and wrap, bool is s != 0.
inline void encodeScalar(DType t, Scalar s, uint8_t *p) {
  auto put = [p](auto x) { std::memcpy(p, &x, sizeof(x)); };
  switch (t) {
  case DType::F32:
    put(roundToFormat<F32Format>(s.asDouble(), RoundMode::Rint));
    return;
  case DType::F16:
    put(roundToFormat<F16Format>(s.asDouble(), RoundMode::Rint));
    return;
  case DType::BF16:
    put(roundToFormat<BF16Format>(s.asDouble(), RoundMode::Rint));
    return;
  case DType::Bool:
    *p = s.isInt ? s.i != 0 : s.f != 0;
    return;
  default:
    withCodec(t, [&](auto c) { c.store(p, s.asInt()); });
    return;
  }
}

/// The compute value of `s` after rounding it to `Codec`'s dtype, as the
/// vector unit sees a scalar operand.
template <typename Codec>
typename Codec::Value scalarValue(const Codec &c, DType t, Scalar s) {
  uint8_t bytes[8];
  encodeScalar(t, s, bytes);
  return c.load(bytes);
}

} // namespace asc2::sim

#endif
