//===- VectorKernels.cpp - What the vector unit computes ------------------===//

#include "VectorKernels.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace asc2::sim {

const float *halfTable() {
  static const std::vector<float> table = [] {
    std::vector<float> t(65536);
    for (uint32_t i = 0; i < 65536; ++i)
      t[i] = halfToFloat(uint16_t(i));
    return t;
  }();
  return table.data();
}

bool isBinaryVecOp(VecOp op) { return vecOpArity(op) == 2; }

bool isFloatOnlyVecOp(VecOp op) {
  return op == VecOp::Exp || op == VecOp::Log || op == VecOp::Sqrt ||
         op == VecOp::Rsqrt || op == VecOp::Reciprocal || op == VecOp::Erf;
}

bool isIntegerOnlyVecOp(VecOp op) {
  return op == VecOp::And || op == VecOp::Or || op == VecOp::Xor ||
         op == VecOp::Shl || op == VecOp::Shr || op == VecOp::Not;
}

bool isBoolVecOp(VecOp op) {
  return op == VecOp::And || op == VecOp::Or || op == VecOp::Xor ||
         op == VecOp::Not || op == VecOp::Max || op == VecOp::Min;
}

namespace {

//===----------------------------------------------------------------------===//
// Operand sources: a tensor in local memory or one scalar for every lane.
//===----------------------------------------------------------------------===//

template <typename Codec> struct Tensor {
  const uint8_t *p;
  typename Codec::Value at(const Codec &c, int64_t i) const {
    return c.load(p + i * Codec::kWidth);
  }
  bool anyZero(const Codec &c, int64_t n) const {
    for (int64_t i = 0; i < n; ++i)
      if (at(c, i) == 0)
        return true;
    return false;
  }
};

template <typename Codec> struct Splat {
  typename Codec::Value v;
  typename Codec::Value at(const Codec &, int64_t) const { return v; }
  bool anyZero(const Codec &, int64_t n) const { return n > 0 && v == 0; }
};

template <typename Codec, typename A, typename B, typename F>
void binaryLoop(const Codec &c, uint8_t *dst, A a, B b, int64_t n, F f) {
  constexpr int w = Codec::kWidth;
  for (int64_t i = 0; i < n; ++i)
    c.store(dst + i * w, f(a.at(c, i), b.at(c, i)));
}

template <typename Codec, typename F>
void unaryLoop(const Codec &c, uint8_t *dst, const uint8_t *a, int64_t n,
               F f) {
  constexpr int w = Codec::kWidth;
  for (int64_t i = 0; i < n; ++i)
    c.store(dst + i * w, f(c.load(a + i * w)));
}

//===----------------------------------------------------------------------===//
// Elementwise ops.
//===----------------------------------------------------------------------===//

template <typename Codec, typename A, typename B>
bool binaryOp(VecOp op, const Codec &c, uint8_t *dst, A a, B b, int64_t n) {
  using V = typename Codec::Value;
  constexpr bool kFloat = Codec::kIsFloat;
  switch (op) {
  case VecOp::Add:
    if constexpr (kFloat)
      binaryLoop(c, dst, a, b, n, [](V x, V y) { return x + y; });
    else // wrap like the hardware instead of overflowing int64
      binaryLoop(c, dst, a, b, n,
                 [](V x, V y) { return V(uint64_t(x) + uint64_t(y)); });
    return true;
  case VecOp::Sub:
    if constexpr (kFloat)
      binaryLoop(c, dst, a, b, n, [](V x, V y) { return x - y; });
    else
      binaryLoop(c, dst, a, b, n,
                 [](V x, V y) { return V(uint64_t(x) - uint64_t(y)); });
    return true;
  case VecOp::Mul:
    if constexpr (kFloat)
      binaryLoop(c, dst, a, b, n, [](V x, V y) { return x * y; });
    else
      binaryLoop(c, dst, a, b, n,
                 [](V x, V y) { return V(uint64_t(x) * uint64_t(y)); });
    return true;
  case VecOp::Div:
    if constexpr (kFloat) {
      binaryLoop(c, dst, a, b, n, [](V x, V y) { return x / y; });
    } else {
      if (b.anyZero(c, n))
        return false;
      binaryLoop(c, dst, a, b, n, [](V x, V y) {
        return y == -1 ? V(0 - uint64_t(x)) : V(x / y);
      });
    }
    return true;
  case VecOp::AddRelu: // Add, then Relu of the sum as Add stores it
    binaryOp(VecOp::Add, c, dst, a, b, n); // (rounded, or wrapped for ints)
    unaryLoop(c, dst, dst, n, [](V x) { return x < 0 ? V(0) : x; });
    return true;
  case VecOp::Max:
    binaryLoop(c, dst, a, b, n, [](V x, V y) { return x > y ? x : y; });
    return true;
  case VecOp::Min:
    binaryLoop(c, dst, a, b, n, [](V x, V y) { return x < y ? x : y; });
    return true;
  default:
    break;
  }
  if constexpr (!kFloat) {
    constexpr int64_t bits = Codec::kBits;
    switch (op) {
    case VecOp::And:
      binaryLoop(c, dst, a, b, n, [](V x, V y) { return x & y; });
      return true;
    case VecOp::Or:
      binaryLoop(c, dst, a, b, n, [](V x, V y) { return x | y; });
      return true;
    case VecOp::Xor:
      binaryLoop(c, dst, a, b, n, [](V x, V y) { return x ^ y; });
      return true;
    case VecOp::Shl:
      binaryLoop(c, dst, a, b, n, [](V x, V y) {
        return uint64_t(y) >= uint64_t(bits) ? V(0) : V(uint64_t(x) << y);
      });
      return true;
    case VecOp::Shr:
      binaryLoop(c, dst, a, b, n, [](V x, V y) {
        return uint64_t(y) >= uint64_t(bits) ? V(x < 0 ? -1 : 0) : V(x >> y);
      });
      return true;
    default:
      break;
    }
  }
  return true; // other ops are rejected before execution
}

template <typename Codec>
void unaryOp(VecOp op, const Codec &c, uint8_t *dst, const uint8_t *a,
             int64_t n) {
  using V = typename Codec::Value;
  if constexpr (Codec::kIsFloat) {
    switch (op) {
    case VecOp::Abs:
      return unaryLoop(c, dst, a, n, [](V x) { return std::fabs(x); });
    case VecOp::Neg:
      return unaryLoop(c, dst, a, n, [](V x) { return -x; });
    case VecOp::Relu:
      return unaryLoop(c, dst, a, n, [](V x) { return x < 0 ? V(0) : x; });
    case VecOp::Exp:
      return unaryLoop(c, dst, a, n, [](V x) { return std::exp(x); });
    case VecOp::Log:
      return unaryLoop(c, dst, a, n, [](V x) { return std::log(x); });
    case VecOp::Sqrt:
      return unaryLoop(c, dst, a, n, [](V x) { return std::sqrt(x); });
    case VecOp::Rsqrt:
      return unaryLoop(c, dst, a, n, [](V x) { return V(1) / std::sqrt(x); });
    case VecOp::Reciprocal:
      return unaryLoop(c, dst, a, n, [](V x) { return V(1) / x; });
    case VecOp::Erf: // Ascend950's Erf computes half in float too
      return unaryLoop(c, dst, a, n, [](V x) { return V(std::erf(float(x))); });
    default:
      return;
    }
  } else if constexpr (Codec::kIsBool) {
    if (op == VecOp::Not)
      unaryLoop(c, dst, a, n, [](V x) { return V(x == 0); });
  } else {
    switch (op) {
    case VecOp::Abs:
      return unaryLoop(c, dst, a, n,
                       [](V x) { return x < 0 ? V(0 - uint64_t(x)) : x; });
    case VecOp::Neg:
      return unaryLoop(c, dst, a, n, [](V x) { return V(0 - uint64_t(x)); });
    case VecOp::Relu:
      return unaryLoop(c, dst, a, n, [](V x) { return x < 0 ? V(0) : x; });
    case VecOp::Not:
      return unaryLoop(c, dst, a, n, [](V x) { return ~x; });
    default:
      return;
    }
  }
}

//===----------------------------------------------------------------------===//
// Casts.
//===----------------------------------------------------------------------===//

template <typename Codec, typename F>
void castLoop(const Codec &c, uint8_t *dst, int dstWidth, const uint8_t *src,
              int64_t n, F f) {
  constexpr int w = Codec::kWidth;
  for (int64_t i = 0; i < n; ++i)
    f(c.load(src + i * w), dst + i * dstWidth);
}

template <typename Fmt, typename Codec>
void castToFloat(const Codec &c, RoundMode mode, uint8_t *dst,
                 const uint8_t *src, int64_t n) {
  using Bits = typename Fmt::Bits;
  castLoop(c, dst, sizeof(Bits), src, n, [mode](auto v, uint8_t *p) {
    Bits b = roundToFormat<Fmt>(double(v), mode);
    std::memcpy(p, &b, sizeof(Bits));
  });
}

/// Exact or round-to-nearest-even conversions with a single rounding from a
/// float-exact source: the storage codec of the destination does it.
template <typename Src, typename Dst>
void castByCodecs(const Src &s, const Dst &d, uint8_t *dst, const uint8_t *src,
                  int64_t n) {
  castLoop(s, dst, Dst::kWidth, src, n, [&d](auto v, uint8_t *p) {
    d.store(p, typename Dst::Value(v));
  });
}

template <typename T> constexpr int64_t minOf() {
  return int64_t(std::numeric_limits<T>::min());
}
template <typename T> constexpr int64_t maxOf() {
  return int64_t(std::numeric_limits<T>::max());
}

void intRange(DType t, int64_t &lo, int64_t &hi) {
  switch (t) {
  case DType::I32:
    lo = minOf<int32_t>(), hi = maxOf<int32_t>();
    return;
  case DType::I16:
    lo = minOf<int16_t>(), hi = maxOf<int16_t>();
    return;
  case DType::I8:
    lo = minOf<int8_t>(), hi = maxOf<int8_t>();
    return;
  case DType::U8:
    lo = 0, hi = 255;
    return;
  default:
    lo = minOf<int64_t>(), hi = maxOf<int64_t>();
    return;
  }
}

/// And/Or/Xor (Min = And, Max = Or) and Not on bit masks: whole bytes, as
/// the emitted calls on the mask's bytes compute them.
bool boolMaskOp(VecOp op, BinaryForm form, uint8_t *dst, const uint8_t *a,
                const uint8_t *b, Scalar s, int64_t n) {
  const int64_t bytes = localBytes(DType::Bool, n);
  uint8_t splat = s.asDouble() != 0 ? 0xff : 0x00;
  for (int64_t i = 0; i < bytes; ++i) {
    uint8_t x = a[i], y = form == BinaryForm::TensorTensor ? b[i] : splat;
    switch (op) {
    case VecOp::And:
    case VecOp::Min:
      dst[i] = x & y;
      break;
    case VecOp::Or:
    case VecOp::Max:
      dst[i] = x | y;
      break;
    case VecOp::Xor:
      dst[i] = x ^ y;
      break;
    case VecOp::Not:
      dst[i] = uint8_t(~x);
      break;
    default:
      return true; // rejected before execution
    }
  }
  return true;
}

} // namespace

//===----------------------------------------------------------------------===//
// Entry points.
//===----------------------------------------------------------------------===//

bool binaryKernel(VecOp op, DType t, BinaryForm form, uint8_t *dst,
                  const uint8_t *a, const uint8_t *b, Scalar s, int64_t n) {
  if (t == DType::Bool)
    return boolMaskOp(op, form, dst, a, b, s, n);
  return withCodec(t, [&](auto c) {
    using C = decltype(c);
    switch (form) {
    case BinaryForm::TensorTensor:
      return binaryOp(op, c, dst, Tensor<C>{a}, Tensor<C>{b}, n);
    case BinaryForm::TensorScalar:
      return binaryOp(op, c, dst, Tensor<C>{a}, Splat<C>{scalarValue(c, t, s)},
                      n);
    case BinaryForm::ScalarTensor:
      break;
    }
    return binaryOp(op, c, dst, Splat<C>{scalarValue(c, t, s)}, Tensor<C>{a},
                    n);
  });
}

void unaryKernel(VecOp op, DType t, uint8_t *dst, const uint8_t *a,
                 int64_t n) {
  if (t == DType::Bool) {
    boolMaskOp(op, BinaryForm::TensorScalar, dst, a, nullptr, Scalar{}, n);
    return;
  }
  withCodec(t, [&](auto c) { unaryOp(op, c, dst, a, n); });
}

void dupKernel(DType t, uint8_t *dst, Scalar s, int64_t n) {
  uint8_t pattern[8];
  encodeScalar(t, s, pattern);
  if (t == DType::Bool) { // every bit of the mask's bytes
    std::memset(dst, pattern[0] ? 0xff : 0x00, size_t(localBytes(t, n)));
    return;
  }
  const unsigned w = byteWidth(t);
  switch (w) {
  case 1:
    std::memset(dst, pattern[0], size_t(n));
    return;
  case 2:
  case 4:
  case 8:
    for (int64_t i = 0; i < n; ++i)
      std::memcpy(dst + i * w, pattern, w);
    return;
  }
}

void castKernel(DType dstT, DType srcT, RoundMode mode, uint8_t *dst,
                const uint8_t *src, int64_t n) {
  if (dstT == srcT) {
    std::memmove(dst, src, size_t(localBytes(dstT, n)));
    return;
  }
  std::vector<uint8_t> unpacked;
  if (srcT == DType::Bool) { // bits -> one 0/1 byte per element first
    unpacked.resize(size_t(n));
    for (int64_t i = 0; i < n; ++i)
      unpacked[size_t(i)] = (src[i / 8] >> (i % 8)) & 1;
    src = unpacked.data();
  }
  // In-place widening casts would overwrite unread sources: go via a copy.
  std::vector<uint8_t> copy;
  if (dst < src + n * int64_t(byteWidth(srcT)) &&
      src < dst + n * int64_t(byteWidth(dstT))) {
    copy.assign(src, src + n * byteWidth(srcT));
    src = copy.data();
  }
  bool rne = mode == RoundMode::None || mode == RoundMode::Rint;
  withCodec(srcT, [&](auto s) {
    using S = decltype(s);
    switch (dstT) {
    case DType::Bool: // bit i of the mask
      for (int64_t i = 0; i < n; ++i) {
        uint8_t m = uint8_t(1u << (i % 8));
        if (s.load(src + i * S::kWidth) != 0)
          dst[i / 8] |= m;
        else
          dst[i / 8] &= uint8_t(~m);
      }
      return;
    case DType::F32:
      // fp16/bf16/ints up to 16 bits are exact in float; int32/int64 to float
      // is one correctly rounded conversion.
      if (rne || S::kIsFloat || S::kWidth <= 2)
        castByCodecs(s, F32Codec{}, dst, src, n);
      else
        castToFloat<F32Format>(s, mode, dst, src, n);
      return;
    case DType::F16:
      // float -> half is the codec's single RNE rounding; ints may exceed
      // float's 24 bits, so they take the exact path.
      if (rne && S::kIsFloat)
        castByCodecs(s, F16Codec{}, dst, src, n);
      else
        castToFloat<F16Format>(s, mode, dst, src, n);
      return;
    case DType::BF16:
      if (rne && S::kIsFloat)
        castByCodecs(s, BF16Codec{}, dst, src, n);
      else
        castToFloat<BF16Format>(s, mode, dst, src, n);
      return;
    default:
      break;
    }
    withCodec(dstT, [&](auto d) {
      if constexpr (S::kIsFloat) {
        int64_t lo, hi;
        intRange(dstT, lo, hi);
        castLoop(s, dst, decltype(d)::kWidth, src, n,
                 [&](auto v, uint8_t *p) {
                   d.store(p, roundToInt(double(v), mode, lo, hi));
                 });
      } else {
        castByCodecs(s, d, dst, src, n); // integers wrap, bool is 0/1
      }
    });
  });
}

void compareKernel(CmpMode mode, DType t, uint8_t *dst, int64_t dstBit,
                   const uint8_t *a, const uint8_t *b, bool scalarRhs, Scalar s,
                   int64_t n) {
  withCodec(t, [&](auto c) {
    using C = decltype(c);
    using V = typename C::Value;
    auto run = [&](auto rhs) {
      auto loop = [&](auto cmp) {
        for (int64_t i = 0; i < n; ++i) {
          int64_t bit = dstBit + i;
          uint8_t m = uint8_t(1u << (bit % 8));
          if (cmp(c.load(a + i * C::kWidth), rhs.at(c, i)))
            dst[bit / 8] |= m;
          else
            dst[bit / 8] &= uint8_t(~m);
        }
      };
      switch (mode) {
      case CmpMode::LT:
        return loop([](V x, V y) { return x < y; });
      case CmpMode::LE:
        return loop([](V x, V y) { return x <= y; });
      case CmpMode::GT:
        return loop([](V x, V y) { return x > y; });
      case CmpMode::GE:
        return loop([](V x, V y) { return x >= y; });
      case CmpMode::EQ:
        return loop([](V x, V y) { return x == y; });
      case CmpMode::NE:
        return loop([](V x, V y) { return x != y; });
      }
    };
    if (scalarRhs)
      run(Splat<C>{scalarValue(c, t, s)});
    else
      run(Tensor<C>{b});
  });
}

namespace {
template <typename T>
void selectLoop(uint8_t *dst, const uint8_t *mask, int64_t maskBit,
                const uint8_t *a, const uint8_t *b, bool splat, int64_t n) {
  constexpr int w = sizeof(T);
  for (int64_t i = 0; i < n; ++i) {
    int64_t bit = maskBit + i;
    bool set = (mask[bit / 8] >> (bit % 8)) & 1;
    const uint8_t *from = set ? a + i * w : (splat ? b : b + i * w);
    std::memcpy(dst + i * w, from, w);
  }
}
} // namespace

void selectKernel(DType t, uint8_t *dst, const uint8_t *mask, int64_t maskBit,
                  const uint8_t *a, const uint8_t *b, bool scalarRhs, Scalar s,
                  int64_t n) {
  uint8_t pattern[8];
  if (scalarRhs) {
    encodeScalar(t, s, pattern);
    b = pattern;
  }
  switch (byteWidth(t)) {
  case 1:
    return selectLoop<uint8_t>(dst, mask, maskBit, a, b, scalarRhs, n);
  case 2:
    return selectLoop<uint16_t>(dst, mask, maskBit, a, b, scalarRhs, n);
  case 4:
    return selectLoop<uint32_t>(dst, mask, maskBit, a, b, scalarRhs, n);
  default:
    return selectLoop<uint64_t>(dst, mask, maskBit, a, b, scalarRhs, n);
  }
}


void atomicKernel(AtomicKind kind, DType t, uint8_t *gm, const uint8_t *src,
                  int64_t n) {
  withCodec(t, [&](auto c) {
    using C = decltype(c);
    using V = typename C::Value;
    auto loop = [&](auto f) {
      for (int64_t i = 0; i < n; ++i) {
        uint8_t *p = gm + i * C::kWidth;
        c.store(p, f(c.load(p), c.load(src + i * C::kWidth)));
      }
    };
    switch (kind) {
    case AtomicKind::Add:
      if constexpr (C::kIsFloat)
        loop([](V x, V y) { return x + y; });
      else
        loop([](V x, V y) { return V(uint64_t(x) + uint64_t(y)); });
      return;
    case AtomicKind::Max:
      loop([](V x, V y) { return y > x ? y : x; });
      return;
    case AtomicKind::Min:
      loop([](V x, V y) { return y < x ? y : x; });
      return;
    case AtomicKind::None:
      std::memcpy(gm, src, size_t(n * C::kWidth));
      return;
    }
  });
}

} // namespace asc2::sim
