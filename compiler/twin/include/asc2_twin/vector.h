//===- vector.h - Elementwise vector ops: binary, scalar, unary, Duplicate -*- C++ -*-===//
//
// API: mirror-cann/asc-devkit@82b89a15f docs/zh/api/SIMD-API/基础API/
// Memory矢量计算/基础算术, 逻辑计算, 数据填充/Duplicate.md.
//
// Every op has the level-2 form (the first `count` elements) and the level-0
// forms (continuous or bit mask, repeatTime, Binary/UnaryRepeatParams; see
// repeat.h). Arithmetic is IEEE in the element type: fp32 natively, 16-bit
// floats through float with one rounding (exact for + - * / sqrt), integers
// wrap. Exp, Ln, Sqrt, Rsqrt use <cmath> in float: they can differ from the
// simulator's and the hardware's by a few ulp (docs/ascendc-api.md, CPU twin).
//
//===----------------------------------------------------------------------===//
#ifndef ASC2_TWIN_VECTOR_H
#define ASC2_TWIN_VECTOR_H

#include "asc2_twin/repeat.h"

#include <cmath>
#include <cstring>
#include <type_traits>

namespace asc2_twin {

template <typename T> struct IsLocalTensor : std::false_type {};
template <typename T> struct IsLocalTensor<AscendC::LocalTensor<T>> : std::true_type {};
template <typename T> inline constexpr bool kIsTensor = IsLocalTensor<std::decay_t<T>>::value;

/// Integers wrap (as the vector unit does) instead of overflowing in C++.
template <typename C> C WrapAdd(C a, C b) {
  if constexpr (std::is_integral_v<C>)
    return C(std::make_unsigned_t<C>(a) + std::make_unsigned_t<C>(b));
  else
    return a + b;
}
template <typename C> C WrapSub(C a, C b) {
  if constexpr (std::is_integral_v<C>)
    return C(std::make_unsigned_t<C>(a) - std::make_unsigned_t<C>(b));
  else
    return a - b;
}
template <typename C> C WrapMul(C a, C b) {
  if constexpr (std::is_integral_v<C>)
    return C(std::make_unsigned_t<C>(a) * std::make_unsigned_t<C>(b));
  else
    return a * b;
}
template <typename C> C CheckedDiv(C a, C b) {
  if constexpr (std::is_integral_v<C>) {
    if (b == 0)
      Fail("Div: integer division by zero");
    if constexpr (std::is_signed_v<C>)
      if (b == C(-1))
        return C(std::make_unsigned_t<C>(0) - std::make_unsigned_t<C>(a));
    return C(a / b);
  } else {
    return a / b;
  }
}

/// The element types each vector call takes on A2/A3, from the dtype checks
/// of asc-devkit@82b89a15f:impl/basic_api/dav_c220/kernel_operator_vec_*_impl.h
/// (static_asserts at level 0, debug-only asserts at level 2: there a wrong
/// type compiles and computes garbage on the device, so the twin refuses it
/// at run time, naming the call). c310's wider sets are not restricted here.
template <typename T> void CheckVectorType(const char *api, bool level0) {
#if ASC2_TWIN_NPU_ARCH == 2201
  enum : unsigned { H = 1, F = 2, I16 = 4, I32 = 8, U16 = 16, U32 = 32 };
  unsigned bit = std::is_same_v<T, half> ? H : std::is_same_v<T, float> ? F
               : std::is_same_v<T, int16_t> ? I16 : std::is_same_v<T, int32_t> ? I32
               : std::is_same_v<T, uint16_t> ? U16 : std::is_same_v<T, uint32_t> ? U32 : 0;
  static const struct { const char *api; unsigned types; const char *names; } kTypes[] = {
      {"Add", H | F | I16 | I32, "half, float, int16_t, int32_t"},
      {"Sub", H | F | I16 | I32, "half, float, int16_t, int32_t"},
      {"Mul", H | F | I16 | I32, "half, float, int16_t, int32_t"},
      {"Max", H | F | I16 | I32, "half, float, int16_t, int32_t"},
      {"Min", H | F | I16 | I32, "half, float, int16_t, int32_t"},
      {"Adds", H | F | I16 | I32, "half, float, int16_t, int32_t"},
      {"Muls", H | F | I16 | I32, "half, float, int16_t, int32_t"},
      {"Maxs", H | F | I16 | I32, "half, float, int16_t, int32_t"},
      {"Mins", H | F | I16 | I32, "half, float, int16_t, int32_t"},
      {"AddRelu", H | F | I16, "half, float, int16_t"},
      {"SubRelu", H | F | I16, "half, float, int16_t"},
      {"Div", H | F, "half, float"}, {"Exp", H | F, "half, float"}, {"Ln", H | F, "half, float"},
      {"Sqrt", H | F, "half, float"}, {"Rsqrt", H | F, "half, float"},
      {"Reciprocal", H | F, "half, float"}, {"Abs", H | F, "half, float"},
      {"LeakyRelu", H | F, "half, float"}, {"Relu", H | F | I32, "half, float, int32_t"},
      {"ShiftLeft", I16 | U16 | I32 | U32, "int16_t, uint16_t, int32_t, uint32_t"},
      {"ShiftRight", I16 | U16 | I32 | U32, "int16_t, uint16_t, int32_t, uint32_t"},
  };
  static const struct { const char *api; unsigned types; const char *names; } kBitwise[] = {
      {"And", I16 | U16, "int16_t, uint16_t"}, {"Or", I16 | U16, "int16_t, uint16_t"},
      {"Not", I16 | U16, "int16_t, uint16_t"}};
  auto check = [&](const auto &table) {
    for (const auto &e : table)
      if (std::strcmp(e.api, api) == 0 && !(e.types & bit))
        Fail(std::string(api) + (level0 ? " (level 0)" : "") + " on A2/A3 takes " + e.names +
             " elements (impl/basic_api/dav_c220); the kernel calls it on another type");
  };
  check(kTypes);
  if (level0)
    check(kBitwise);
#else
  (void)api;
  (void)level0;
#endif
}

template <typename T, typename F>
void Binary2(const char *api, const AscendC::LocalTensor<T> &dst, const AscendC::LocalTensor<T> &a,
             const AscendC::LocalTensor<T> &b, int64_t count, F f) {
  using C = ComputeType<T>;
  CheckVectorType<T>(api, false);
  for (int64_t i = 0; i < count; ++i)
    dst.Store(api, i, T(f(C(a.Load(api, i)), C(b.Load(api, i)))));
}

template <typename T, typename F>
void Binary0(const char *api, const AscendC::LocalTensor<T> &dst, const AscendC::LocalTensor<T> &a,
             const AscendC::LocalTensor<T> &b, const RepeatMask &m,
             const AscendC::BinaryRepeatParams &p, F f) {
  using C = ComputeType<T>;
  CheckVectorType<T>(api, true);
  constexpr int64_t epb = PerBlock<T>();
  Stride sd{p.dstBlkStride, p.dstRepStride}, s0{p.src0BlkStride, p.src0RepStride},
      s1{p.src1BlkStride, p.src1RepStride};
  ForEachMasked(m, [&](int64_t r, int64_t e) {
    C x = C(a.Load(api, s0.Offset(epb, r, e))), y = C(b.Load(api, s1.Offset(epb, r, e)));
    dst.Store(api, sd.Offset(epb, r, e), T(f(x, y)));
  });
}

template <typename D, typename S, typename F>
void Unary2(const char *api, const AscendC::LocalTensor<D> &dst, const AscendC::LocalTensor<S> &src,
            int64_t count, F f) {
  if constexpr (std::is_same_v<D, S>)
    CheckVectorType<D>(api, false);
  for (int64_t i = 0; i < count; ++i)
    dst.Store(api, i, f(src.Load(api, i)));
}

template <typename D, typename S, typename F>
void Unary0(const char *api, const AscendC::LocalTensor<D> &dst, const AscendC::LocalTensor<S> &src,
            const RepeatMask &m, const AscendC::UnaryRepeatParams &p, F f) {
  if constexpr (std::is_same_v<D, S>)
    CheckVectorType<D>(api, true);
  constexpr int64_t de = PerBlock<D>(), se = PerBlock<S>();
  Stride sd{p.dstBlkStride, p.dstRepStride}, ss{p.srcBlkStride, p.srcRepStride};
  ForEachMasked(m, [&](int64_t r, int64_t e) {
    dst.Store(api, sd.Offset(de, r, e), f(src.Load(api, ss.Offset(se, r, e))));
  });
}

/// Lifts an op on the compute type to one on the element type.
template <typename T, typename F> auto OnValues(F f) {
  using C = ComputeType<T>;
  return [f](T x) { return T(f(C(x))); };
}

template <typename T> RepeatMask MaskOf(const char *api, const uint64_t mask[], int64_t repeatTime, bool isSet) {
  CheckRepeat(api, repeatTime);
  return isSet ? BitMask(api, mask, PerRepeat<T>(), repeatTime) : StoredMask(api, PerRepeat<T>(), repeatTime);
}
template <typename T> RepeatMask MaskOf(const char *api, uint64_t mask, int64_t repeatTime, bool isSet) {
  CheckRepeat(api, repeatTime);
  return isSet ? ContinuousMask(api, mask, PerRepeat<T>(), repeatTime)
               : StoredMask(api, PerRepeat<T>(), repeatTime);
}

/// A tensor-and-scalar op at level 0: f(x, scalar) per element under the mask.
template <typename T, typename U, typename F>
void ScalarLevel0(const char *api, const AscendC::LocalTensor<T> &dst, const AscendC::LocalTensor<T> &src,
                  const U &scalar, const RepeatMask &m, const AscendC::UnaryRepeatParams &p, F f,
                  bool scalarFirst = false) {
  using C = ComputeType<T>;
  C s = C(T(scalar));
  Unary0(api, dst, src, m, p,
         OnValues<T>([s, f, scalarFirst](C x) { return scalarFirst ? f(s, x) : f(x, s); }));
}

} // namespace asc2_twin

namespace AscendC {

#define ASC2_TWIN_BINARY(Name, body)                                           \
  struct Name##Fn {                                                            \
    template <typename C> C operator()(C a, C b) const { body }                \
  };                                                                           \
  template <typename T>                                                        \
  void Name(const LocalTensor<T> &dst, const LocalTensor<T> &src0,             \
            const LocalTensor<T> &src1, const int32_t &count) {                \
    asc2_twin::Binary2(#Name, dst, src0, src1, count, Name##Fn{});             \
  }                                                                            \
  template <typename T, bool isSetMask = true>                                 \
  void Name(const LocalTensor<T> &dst, const LocalTensor<T> &src0,             \
            const LocalTensor<T> &src1, const uint64_t mask[],                 \
            const uint8_t repeatTime, const BinaryRepeatParams &p) {           \
    asc2_twin::Binary0(#Name, dst, src0, src1,                                 \
                       asc2_twin::MaskOf<T>(#Name, mask, repeatTime, isSetMask), p, \
                       Name##Fn{});                                            \
  }                                                                            \
  template <typename T, bool isSetMask = true>                                 \
  void Name(const LocalTensor<T> &dst, const LocalTensor<T> &src0,             \
            const LocalTensor<T> &src1, uint64_t mask, const uint8_t repeatTime, \
            const BinaryRepeatParams &p) {                                     \
    asc2_twin::Binary0(#Name, dst, src0, src1,                                 \
                       asc2_twin::MaskOf<T>(#Name, mask, repeatTime, isSetMask), p, \
                       Name##Fn{});                                            \
  }

ASC2_TWIN_BINARY(Add, return asc2_twin::WrapAdd(a, b);)
ASC2_TWIN_BINARY(Sub, return asc2_twin::WrapSub(a, b);)
ASC2_TWIN_BINARY(Mul, return asc2_twin::WrapMul(a, b);)
ASC2_TWIN_BINARY(Div, return asc2_twin::CheckedDiv(a, b);)
ASC2_TWIN_BINARY(Max, return a > b ? a : b;)
ASC2_TWIN_BINARY(Min, return a < b ? a : b;)
ASC2_TWIN_BINARY(And, static_assert(std::is_integral_v<C>, "And: integer types only"); return C(a & b);)
ASC2_TWIN_BINARY(Or, static_assert(std::is_integral_v<C>, "Or: integer types only"); return C(a | b);)
ASC2_TWIN_BINARY(AddRelu, C s = asc2_twin::WrapAdd(a, b); return s < C(0) ? C(0) : s;)
ASC2_TWIN_BINARY(SubRelu, C s = asc2_twin::WrapSub(a, b); return s < C(0) ? C(0) : s;)
#undef ASC2_TWIN_BINARY

// Tensor-and-scalar ops. On c310 they also take the scalar first
// ("灵活标量位置": Subs(dst, 2.0f, src, n) is 2 - src), at level 2 and level 0;
// A2/A3 have the tensor-first form only, and no Subs, Divs, Ands or Ors at
// all (asc-devkit@82b89a15f: impl/basic_api/dav_c220 implements Adds, Muls,
// Maxs, Mins, LeakyRelu and the shifts; the other names are declared for
// every arch, so calling them on A2/A3 compiles and fails to link).
#if ASC2_TWIN_NPU_ARCH == 3510
#define ASC2_TWIN_IF_C310(...) __VA_ARGS__
#else
#define ASC2_TWIN_IF_C310(...)
#endif
#define ASC2_TWIN_SCALAR(Name, body)                                           \
  struct Name##Fn {                                                            \
    template <typename C> C operator()(C a, C b) const { body }                \
  };                                                                           \
  template <typename T, typename U,                                            \
            typename = std::enable_if_t<!asc2_twin::kIsTensor<U>>>             \
  void Name(const LocalTensor<T> &dst, const LocalTensor<T> &src,              \
            const U &scalar, const int32_t &count) {                           \
    using C = asc2_twin::ComputeType<T>;                                       \
    C s = C(T(scalar));                                                        \
    asc2_twin::Unary2(#Name, dst, src, count,                                  \
                      asc2_twin::OnValues<T>([s](C x) { return Name##Fn{}(x, s); })); \
  }                                                                            \
  ASC2_TWIN_IF_C310(                                                           \
  template <typename T, typename U,                                            \
            typename = std::enable_if_t<!asc2_twin::kIsTensor<U>>>             \
  void Name(const LocalTensor<T> &dst, const U &scalar,                        \
            const LocalTensor<T> &src, const int32_t &count) {                 \
    using C = asc2_twin::ComputeType<T>;                                       \
    C s = C(T(scalar));                                                        \
    asc2_twin::Unary2(#Name, dst, src, count,                                  \
                      asc2_twin::OnValues<T>([s](C x) { return Name##Fn{}(s, x); })); \
  }                                                                            \
  template <typename T, bool isSetMask = true, typename U,                     \
            typename = std::enable_if_t<!asc2_twin::kIsTensor<U>>>             \
  void Name(const LocalTensor<T> &dst, const U &scalar,                        \
            const LocalTensor<T> &src, const uint64_t mask[],                  \
            const uint8_t repeatTime, const UnaryRepeatParams &p) {            \
    asc2_twin::ScalarLevel0(#Name, dst, src, scalar,                            \
                            asc2_twin::MaskOf<T>(#Name, mask, repeatTime, isSetMask), p, \
                            Name##Fn{}, true);                                 \
  }                                                                            \
  template <typename T, bool isSetMask = true, typename U,                     \
            typename = std::enable_if_t<!asc2_twin::kIsTensor<U>>>             \
  void Name(const LocalTensor<T> &dst, const U &scalar,                        \
            const LocalTensor<T> &src, uint64_t mask,                          \
            const uint8_t repeatTime, const UnaryRepeatParams &p) {            \
    asc2_twin::ScalarLevel0(#Name, dst, src, scalar,                            \
                            asc2_twin::MaskOf<T>(#Name, mask, repeatTime, isSetMask), p, \
                            Name##Fn{}, true);                                 \
  })                                                                           \
  /* Level 0: <T, isSetMask> with a T scalar, and <T, U, isSetMask> for    \
     another scalar type (kernel_operator_vec_binary_scalar_intf.h). */      \
  template <typename T, bool isSetMask = true>                                 \
  void Name(const LocalTensor<T> &dst, const LocalTensor<T> &src,              \
            const T &scalar, const uint64_t mask[], const uint8_t repeatTime,  \
            const UnaryRepeatParams &p) {                                      \
    asc2_twin::ScalarLevel0(#Name, dst, src, scalar,                            \
                            asc2_twin::MaskOf<T>(#Name, mask, repeatTime, isSetMask), p, Name##Fn{}); \
  }                                                                            \
  template <typename T, bool isSetMask = true>                                 \
  void Name(const LocalTensor<T> &dst, const LocalTensor<T> &src,              \
            const T &scalar, uint64_t mask, const uint8_t repeatTime,          \
            const UnaryRepeatParams &p) {                                      \
    asc2_twin::ScalarLevel0(#Name, dst, src, scalar,                            \
                            asc2_twin::MaskOf<T>(#Name, mask, repeatTime, isSetMask), p, Name##Fn{}); \
  }                                                                            \
  template <typename T, typename U, bool isSetMask = true,                     \
            typename = std::enable_if_t<!asc2_twin::kIsTensor<U> && !std::is_same_v<T, U>>> \
  void Name(const LocalTensor<T> &dst, const LocalTensor<T> &src,              \
            const U &scalar, const uint64_t mask[], const uint8_t repeatTime,  \
            const UnaryRepeatParams &p) {                                      \
    asc2_twin::ScalarLevel0(#Name, dst, src, scalar,                            \
                            asc2_twin::MaskOf<T>(#Name, mask, repeatTime, isSetMask), p, Name##Fn{}); \
  }                                                                            \
  template <typename T, typename U, bool isSetMask = true,                     \
            typename = std::enable_if_t<!asc2_twin::kIsTensor<U> && !std::is_same_v<T, U>>> \
  void Name(const LocalTensor<T> &dst, const LocalTensor<T> &src,              \
            const U &scalar, uint64_t mask, const uint8_t repeatTime,          \
            const UnaryRepeatParams &p) {                                      \
    asc2_twin::ScalarLevel0(#Name, dst, src, scalar,                            \
                            asc2_twin::MaskOf<T>(#Name, mask, repeatTime, isSetMask), p, Name##Fn{}); \
  }

ASC2_TWIN_SCALAR(Adds, return asc2_twin::WrapAdd(a, b);)
ASC2_TWIN_SCALAR(Muls, return asc2_twin::WrapMul(a, b);)
ASC2_TWIN_SCALAR(Maxs, return a > b ? a : b;)
ASC2_TWIN_SCALAR(Mins, return a < b ? a : b;)
ASC2_TWIN_SCALAR(LeakyRelu, return a < C(0) ? C(a * b) : a;)
#if ASC2_TWIN_NPU_ARCH == 3510
ASC2_TWIN_SCALAR(Subs, return asc2_twin::WrapSub(a, b);)
ASC2_TWIN_SCALAR(Divs, return asc2_twin::CheckedDiv(a, b);)
ASC2_TWIN_SCALAR(Ands, static_assert(std::is_integral_v<C>, "Ands: integer types only"); return C(a & b);)
ASC2_TWIN_SCALAR(Ors, static_assert(std::is_integral_v<C>, "Ors: integer types only"); return C(a | b);)
#endif
// Shifts: a shift of the type's width or more gives 0 (or the sign, right).
ASC2_TWIN_SCALAR(ShiftLeft, static_assert(std::is_integral_v<C>, "ShiftLeft: integer types only");
                 return uint64_t(b) >= sizeof(C) * 8 ? C(0)
                                                     : C(std::make_unsigned_t<C>(a) << b);)
ASC2_TWIN_SCALAR(ShiftRight, static_assert(std::is_integral_v<C>, "ShiftRight: integer types only");
                 return uint64_t(b) >= sizeof(C) * 8 ? C(a < C(0) ? C(-1) : C(0)) : C(a >> b);)
#undef ASC2_TWIN_SCALAR
#undef ASC2_TWIN_IF_C310

// Tensor-by-tensor shifts (kernel_operator_vec_binary_intf.h: ShiftLeft /
// ShiftRight<T, U>(dst, src0, src1, count), dst = src0 shifted by src1),
// element by element with the scalar forms' rules. c310 only: A2/A3 declare
// them but define them for __NPU_ARCH__ 3510 alone (a kernel calling them
// compiles there and fails to link), so the c220 twin does not have them.
#if ASC2_TWIN_NPU_ARCH == 3510
#define ASC2_TWIN_SHIFT(Name)                                                  \
  template <typename T, typename U>                                            \
  void Name(const LocalTensor<T> &dst, const LocalTensor<T> &src0,             \
            const LocalTensor<U> &src1, const int32_t &count) {                \
    using C = asc2_twin::ComputeType<T>;                                       \
    for (int32_t i = 0; i < count; ++i)                                        \
      dst.Store(#Name, i, T(Name##Fn{}(C(src0.Load(#Name, i)), C(src1.Load(#Name, i))))); \
  }
ASC2_TWIN_SHIFT(ShiftLeft)
ASC2_TWIN_SHIFT(ShiftRight)
#undef ASC2_TWIN_SHIFT
#endif

#define ASC2_TWIN_UNARY(Name, body)                                            \
  struct Name##Fn {                                                            \
    template <typename C> C operator()(C x) const { body }                     \
  };                                                                           \
  template <typename T>                                                        \
  void Name(const LocalTensor<T> &dst, const LocalTensor<T> &src, const int32_t &count) { \
    asc2_twin::Unary2(#Name, dst, src, count, asc2_twin::OnValues<T>(Name##Fn{})); \
  }                                                                            \
  template <typename T, bool isSetMask = true>                                 \
  void Name(const LocalTensor<T> &dst, const LocalTensor<T> &src,              \
            const uint64_t mask[], const uint8_t repeatTime, const UnaryRepeatParams &p) { \
    asc2_twin::Unary0(#Name, dst, src,                                         \
                      asc2_twin::MaskOf<T>(#Name, mask, repeatTime, isSetMask), p, \
                      asc2_twin::OnValues<T>(Name##Fn{}));                     \
  }                                                                            \
  template <typename T, bool isSetMask = true>                                 \
  void Name(const LocalTensor<T> &dst, const LocalTensor<T> &src, uint64_t mask, \
            const uint8_t repeatTime, const UnaryRepeatParams &p) {            \
    asc2_twin::Unary0(#Name, dst, src,                                         \
                      asc2_twin::MaskOf<T>(#Name, mask, repeatTime, isSetMask), p, \
                      asc2_twin::OnValues<T>(Name##Fn{}));                     \
  }

ASC2_TWIN_UNARY(Exp, return C(std::exp(x));)
ASC2_TWIN_UNARY(Ln, return C(std::log(x));)
ASC2_TWIN_UNARY(Sqrt, return C(std::sqrt(x));)
ASC2_TWIN_UNARY(Rsqrt, return C(C(1) / std::sqrt(x));)
ASC2_TWIN_UNARY(Reciprocal, return C(C(1) / x);)
ASC2_TWIN_UNARY(Relu, return x < C(0) ? C(0) : x;)
ASC2_TWIN_UNARY(Abs, if constexpr (std::is_integral_v<C>) return x < C(0) ? C(0 - std::make_unsigned_t<C>(x)) : x;
                else return C(std::fabs(x));)
ASC2_TWIN_UNARY(Neg, if constexpr (std::is_integral_v<C>) return C(0 - std::make_unsigned_t<C>(x)); else return -x;)
ASC2_TWIN_UNARY(Not, static_assert(std::is_integral_v<C>, "Not: integer types only"); return C(~x);)
#undef ASC2_TWIN_UNARY

// The advanced-API Erf (asc2 emits it for Ascend950, adv_api/math/erf.h):
// float math for half and float; the scratch buffer is the caller's, unused.
struct ErfFn {
  template <typename C> C operator()(C x) const { return C(std::erf(float(x))); }
};
template <typename T>
void Erf(const LocalTensor<T> &dst, const LocalTensor<T> &src,
         const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t calCount) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "Erf: half or float elements");
  (void)sharedTmpBuffer;
  asc2_twin::Unary2("Erf", dst, src, calCount, asc2_twin::OnValues<T>(ErfFn{}));
}

// ---- Duplicate: fill with a scalar ----
template <typename T, typename U, typename = std::enable_if_t<!asc2_twin::kIsTensor<U>>>
void Duplicate(const LocalTensor<T> &dst, const U &scalarValue, const int32_t &count) {
  T v = T(scalarValue);
  for (int64_t i = 0; i < count; ++i)
    dst.Store("Duplicate", i, v);
}
template <typename T, bool isSetMask = true, typename U,
          typename = std::enable_if_t<!asc2_twin::kIsTensor<U>>>
void Duplicate(const LocalTensor<T> &dst, const U &scalarValue, const uint64_t mask[],
               const uint8_t repeatTime, const uint16_t dstBlockStride, const uint8_t dstRepeatStride) {
  T v = T(scalarValue);
  asc2_twin::Stride sd{dstBlockStride, dstRepeatStride};
  asc2_twin::ForEachMasked(asc2_twin::MaskOf<T>("Duplicate", mask, repeatTime, isSetMask),
                           [&](int64_t r, int64_t e) {
                             dst.Store("Duplicate", sd.Offset(asc2_twin::PerBlock<T>(), r, e), v);
                           });
}
template <typename T, bool isSetMask = true, typename U,
          typename = std::enable_if_t<!asc2_twin::kIsTensor<U>>>
void Duplicate(const LocalTensor<T> &dst, const U &scalarValue, uint64_t mask, const uint8_t repeatTime,
               const uint16_t dstBlockStride, const uint8_t dstRepeatStride) {
  T v = T(scalarValue);
  asc2_twin::Stride sd{dstBlockStride, dstRepeatStride};
  asc2_twin::ForEachMasked(asc2_twin::MaskOf<T>("Duplicate", mask, repeatTime, isSetMask),
                           [&](int64_t r, int64_t e) {
                             dst.Store("Duplicate", sd.Offset(asc2_twin::PerBlock<T>(), r, e), v);
                           });
}

} // namespace AscendC

#endif // ASC2_TWIN_VECTOR_H
