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
         op == VecOp::Rsqrt || op == VecOp::Reciprocal;
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

/// x / y rounded toward -inf; y != 0. Avoids the INT64_MIN / -1 trap.
inline int64_t floorDivInt(int64_t x, int64_t y) {
  if (y == -1)
    return int64_t(0 - uint64_t(x));
  int64_t q = x / y;
  if (x % y != 0 && ((x < 0) != (y < 0)))
    --q;
  return q;
}

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
  case VecOp::FloorDiv:
    if constexpr (kFloat) {
      binaryLoop(c, dst, a, b, n, [](V x, V y) { return std::floor(x / y); });
    } else {
      if (b.anyZero(c, n))
        return false;
      binaryLoop(c, dst, a, b, n, [](V x, V y) { return floorDivInt(x, y); });
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

} // namespace

//===----------------------------------------------------------------------===//
// Entry points.
//===----------------------------------------------------------------------===//

bool binaryKernel(VecOp op, DType t, BinaryForm form, uint8_t *dst,
                  const uint8_t *a, const uint8_t *b, Scalar s, int64_t n) {
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
  withCodec(t, [&](auto c) { unaryOp(op, c, dst, a, n); });
}

void dupKernel(DType t, uint8_t *dst, Scalar s, int64_t n) {
  uint8_t pattern[8];
  encodeScalar(t, s, pattern);
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
    std::memmove(dst, src, size_t(n) * byteWidth(dstT));
    return;
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
    case DType::Bool:
      castLoop(s, dst, 1, src, n, [](auto v, uint8_t *p) { *p = v != 0; });
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

void compareKernel(CmpMode mode, DType t, uint8_t *dst, const uint8_t *a,
                   const uint8_t *b, bool scalarRhs, Scalar s, int64_t n) {
  withCodec(t, [&](auto c) {
    using C = decltype(c);
    using V = typename C::Value;
    auto run = [&](auto rhs) {
      auto loop = [&](auto cmp) {
        for (int64_t i = 0; i < n; ++i)
          dst[i] = cmp(c.load(a + i * C::kWidth), rhs.at(c, i));
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
void selectLoop(uint8_t *dst, const uint8_t *mask, const uint8_t *a,
                const uint8_t *b, bool splat, int64_t n) {
  constexpr int w = sizeof(T);
  for (int64_t i = 0; i < n; ++i) {
    const uint8_t *from = mask[i] ? a + i * w : (splat ? b : b + i * w);
    std::memcpy(dst + i * w, from, w);
  }
}
} // namespace

void selectKernel(DType t, uint8_t *dst, const uint8_t *mask, const uint8_t *a,
                  const uint8_t *b, bool scalarRhs, Scalar s, int64_t n) {
  uint8_t pattern[8];
  if (scalarRhs) {
    encodeScalar(t, s, pattern);
    b = pattern;
  }
  switch (byteWidth(t)) {
  case 1:
    return selectLoop<uint8_t>(dst, mask, a, b, scalarRhs, n);
  case 2:
    return selectLoop<uint16_t>(dst, mask, a, b, scalarRhs, n);
  case 4:
    return selectLoop<uint32_t>(dst, mask, a, b, scalarRhs, n);
  default:
    return selectLoop<uint64_t>(dst, mask, a, b, scalarRhs, n);
  }
}

namespace {
/// Accumulates in double (floats) or int64 (integers, wrapping).
template <typename Codec> struct Accumulator {
  using Acc = std::conditional_t<Codec::kIsFloat, double, int64_t>;
  static Acc init(ReduceKind k) {
    switch (k) {
    case ReduceKind::Sum:
      return 0;
    case ReduceKind::Prod:
      return 1;
    case ReduceKind::Max:
      if constexpr (Codec::kIsFloat)
        return -std::numeric_limits<double>::infinity();
      else
        return std::numeric_limits<int64_t>::min();
    case ReduceKind::Min:
      break;
    }
    if constexpr (Codec::kIsFloat)
      return std::numeric_limits<double>::infinity();
    else
      return std::numeric_limits<int64_t>::max();
  }
};

template <typename Codec, typename F>
void reduceLoop(const Codec &c, int axis, std::vector<typename Accumulator<
                                              Codec>::Acc> &acc,
                const uint8_t *src, int64_t rows, int64_t cols, F f) {
  constexpr int w = Codec::kWidth;
  if (axis == 1) {
    for (int64_t r = 0; r < rows; ++r) {
      auto x = acc[r];
      const uint8_t *row = src + r * cols * w;
      for (int64_t j = 0; j < cols; ++j)
        x = f(x, c.load(row + j * w));
      acc[r] = x;
    }
  } else {
    for (int64_t r = 0; r < rows; ++r) {
      const uint8_t *row = src + r * cols * w;
      for (int64_t j = 0; j < cols; ++j)
        acc[j] = f(acc[j], c.load(row + j * w));
    }
  }
}
} // namespace

void reduceKernel(ReduceKind kind, DType t, int axis, uint8_t *dst,
                  const uint8_t *src, int64_t rows, int64_t cols) {
  withCodec(t, [&](auto c) {
    using C = decltype(c);
    using Acc = typename Accumulator<C>::Acc;
    std::vector<Acc> acc(size_t(axis == 1 ? rows : cols),
                         Accumulator<C>::init(kind));
    switch (kind) {
    case ReduceKind::Sum:
      if constexpr (C::kIsFloat)
        reduceLoop(c, axis, acc, src, rows, cols,
                   [](Acc x, auto v) { return x + Acc(v); });
      else
        reduceLoop(c, axis, acc, src, rows, cols, [](Acc x, auto v) {
          return Acc(uint64_t(x) + uint64_t(v));
        });
      break;
    case ReduceKind::Prod:
      if constexpr (C::kIsFloat)
        reduceLoop(c, axis, acc, src, rows, cols,
                   [](Acc x, auto v) { return x * Acc(v); });
      else
        reduceLoop(c, axis, acc, src, rows, cols, [](Acc x, auto v) {
          return Acc(uint64_t(x) * uint64_t(v));
        });
      break;
    case ReduceKind::Max: // a NaN, once seen, wins
      reduceLoop(c, axis, acc, src, rows, cols, [](Acc x, auto v) {
        Acc y = Acc(v);
        if constexpr (C::kIsFloat)
          return (y > x || std::isnan(y)) && !std::isnan(x) ? y : x;
        else
          return y > x ? y : x;
      });
      break;
    case ReduceKind::Min:
      reduceLoop(c, axis, acc, src, rows, cols, [](Acc x, auto v) {
        Acc y = Acc(v);
        if constexpr (C::kIsFloat)
          return (y < x || std::isnan(y)) && !std::isnan(x) ? y : x;
        else
          return y < x ? y : x;
      });
      break;
    }
    // One rounding from the double accumulator to the dtype.
    for (size_t i = 0; i < acc.size(); ++i) {
      if constexpr (C::kIsFloat)
        encodeScalar(t, Scalar::ofFloat(acc[i]), dst + i * C::kWidth);
      else
        c.store(dst + i * C::kWidth, acc[i]);
    }
  });
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
