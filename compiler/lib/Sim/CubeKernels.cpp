//===- CubeKernels.cpp - Fractal layouts and what the cube unit computes --===//
//
// Built with -ffp-contract=off (CMakeLists.txt): the f32 accumulation must
// round the product and the sum separately on every host. Only where every
// product is exact (accumulateExact) may the compiler fuse them.
//
//===----------------------------------------------------------------------===//

#include "CubeKernels.h"

#include "Elements.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace asc2::sim::cube {

namespace {

/// An unsigned integer as wide as an element of `t` (layout moves are bit
/// copies).
template <typename F> decltype(auto) withWord(DType t, F &&f) {
  switch (byteWidth(t)) {
  case 1:
    return f(uint8_t{});
  case 2:
    return f(uint16_t{});
  case 4:
    return f(uint32_t{});
  default:
    return f(uint64_t{});
  }
}

/// Every layout's element index is a row term plus a column term
/// (indexIn(layout, r, c) = indexIn(layout, r, 0) + indexIn(layout, 0, c),
/// CubeKernels.h), so a move of a whole tile computes each term once per row
/// and once per column instead of an index with four divisions per element.
struct Terms {
  std::vector<int64_t> row, col;
};
void termsOf(Terms &t, Layout layout, int64_t rp, int64_t cp, int64_t c0) {
  t.row.resize(size_t(rp));
  t.col.resize(size_t(cp));
  for (int64_t r = 0; r < rp; ++r)
    t.row[size_t(r)] = indexIn(layout, r, 0, rp, cp, c0);
  for (int64_t c = 0; c < cp; ++c)
    t.col[size_t(c)] = indexIn(layout, 0, c, rp, cp, c0);
}

/// Dense row-major rows x cols from an L0 tile in `layout` (rows and cols
/// are already padded).
template <typename Codec>
void gatherFloat(const Codec &codec, float *out, const uint8_t *src,
                 int64_t rows, int64_t cols, Layout layout, int64_t c0) {
  constexpr int64_t w = Codec::kWidth;
  if constexpr (w == 2) {
    if (c0 == 16 && rows % 16 == 0 && cols % 16 == 0) {
      // 16 x 16 fractals, row-major (NZ, ZZ) or column-major (ZN) inside:
      // constant strides instead of an index lookup per element.
      const int64_t across = layout == Layout::ZN ? 16 : 1, down = 17 - across;
      for (int64_t rb = 0; rb < rows; rb += 16)
        for (int64_t cb = 0; cb < cols; cb += 16) {
          const uint8_t *f = src + indexIn(layout, rb, cb, rows, cols, 16) * w;
          for (int64_t i = 0; i < 16; ++i) {
            float *o = out + (rb + i) * cols + cb;
            for (int64_t j = 0; j < 16; ++j)
              o[j] = codec.load(f + (i * down + j * across) * w);
          }
        }
      return;
    }
  }
  thread_local Terms terms;
  Terms &t = terms; // one TLS lookup, not one per element
  termsOf(t, layout, rows, cols, c0);
  const int64_t *colTerm = t.col.data();
  for (int64_t r = 0; r < rows; ++r) {
    const uint8_t *base = src + t.row[size_t(r)] * w;
    float *o = out + r * cols;
    for (int64_t c = 0; c < cols; ++c)
      o[c] = codec.load(base + colTerm[c] * w);
  }
}

void gatherInt8(int32_t *out, const uint8_t *src, int64_t rows, int64_t cols,
                Layout layout) {
  thread_local Terms terms;
  Terms &t = terms;
  termsOf(t, layout, rows, cols, /*c0=*/32);
  const int64_t *colTerm = t.col.data();
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      out[r * cols + c] = int8_t(src[t.row[size_t(r)] + colTerm[c]]);
}

/// Dense row-major m x n <-> L0C NZ (rp = m) of 4-byte elements.
template <typename T> void loadL0c(T *out, const uint8_t *l0c, int64_t m, int64_t n) {
  for (int64_t nb = 0; nb < n / 16; ++nb)
    for (int64_t r = 0; r < m; ++r)
      std::memcpy(out + r * n + nb * 16, l0c + ((nb * m + r) * 16) * 4, 64);
}
template <typename T> void storeL0c(uint8_t *l0c, const T *in, int64_t m, int64_t n) {
  for (int64_t nb = 0; nb < n / 16; ++nb)
    for (int64_t r = 0; r < m; ++r)
      std::memcpy(l0c + ((nb * m + r) * 16) * 4, in + r * n + nb * 16, 64);
}

/// Sixteen floats: one NZ row of a 16-column block. GCC and Clang split it
/// into the host's vector registers (one zmm, two ymm or four xmm).
/// The helpers below are always inlined, so each target clone of the
/// accumulations compiles them for its own vector width.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi" // inlined only, never passed across an ABI
typedef float Lanes __attribute__((vector_size(64)));
#define ASC2_INLINE inline __attribute__((always_inline))
ASC2_INLINE Lanes loadLanes(const float *p) {
  Lanes v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
ASC2_INLINE void storeLanes(float *p, Lanes v) { std::memcpy(p, &v, sizeof v); }

/// C (m x n, L0C NZ: 16-column blocks of m rows) = (init ? 0 : C) +
/// A (m x k) * B (k x n), A and B dense row-major float; m and n multiples
/// of 16. Every C element sums its products in k order (the product rounded,
/// then the sum), so any blocking that keeps that order gives the same bits.
/// A block of kRows rows x kBlocks 16-column blocks stays in registers
/// across the whole k loop: per k, kBlocks loads of B serve kRows rows, and
/// C is read and written in place once per block, not once per k.
template <int kRows, int kBlocks>
ASC2_INLINE void accumulateTile(float *__restrict c, const float *__restrict am,
                           const float *__restrict bm, int64_t m, int64_t k,
                           int64_t n, int64_t i0, int64_t j0, bool init) {
  Lanes acc[kRows][kBlocks];
  for (int r = 0; r < kRows; ++r)
    for (int q = 0; q < kBlocks; ++q)
      acc[r][q] = init ? Lanes{} : loadLanes(c + ((j0 / 16 + q) * m + i0 + r) * 16);
  for (int64_t kk = 0; kk < k; ++kk) {
    Lanes b[kBlocks];
    for (int q = 0; q < kBlocks; ++q)
      b[q] = loadLanes(bm + kk * n + j0 + q * 16);
    for (int r = 0; r < kRows; ++r) {
      const float av = am[(i0 + r) * k + kk];
      for (int q = 0; q < kBlocks; ++q)
        acc[r][q] = acc[r][q] + av * b[q];
    }
  }
  for (int r = 0; r < kRows; ++r)
    for (int q = 0; q < kBlocks; ++q)
      storeLanes(c + ((j0 / 16 + q) * m + i0 + r) * 16, acc[r][q]);
}

/// The whole accumulation in blocks of 4 rows x 32 columns (8 vector
/// accumulators of 16: what AVX-512's 32 registers hold with B and A's
/// broadcasts), with a 16-column block at the end when n is an odd number of
/// 16s. m is a multiple of 16.
ASC2_INLINE void accumulate(float *__restrict c, const float *__restrict am,
                            const float *__restrict bm, int64_t m, int64_t k,
                            int64_t n, bool init) {
  for (int64_t i0 = 0; i0 < m; i0 += 4) {
    int64_t j0 = 0;
    for (; j0 + 32 <= n; j0 += 32)
      accumulateTile<4, 2>(c, am, bm, m, k, n, i0, j0, init);
    if (j0 < n)
      accumulateTile<4, 1>(c, am, bm, m, k, n, i0, j0, init);
  }
}

#pragma GCC diagnostic pop

/// The accumulation with separately rounded products (float32 operands:
/// their products need up to 48 bits). Built with -ffp-contract=off, so no
/// host fuses the multiply and the add.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#endif
void accumulateRounded(float *__restrict c, const float *__restrict am,
                       const float *__restrict bm, int64_t m, int64_t k,
                       int64_t n, bool init) {
  accumulate(c, am, bm, m, k, n, init);
}

/// The same accumulation where every product is exact in float32 (float16
/// operands always; bfloat16 and HF32 ones within productsExact's range).
/// There a fused multiply-add rounds exactly as the product and the sum
/// rounded separately do, so the compiler may fuse them (and does, where
/// the host has FMA): the same bits as accumulateRounded, about twice as
/// fast.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default"),
               optimize("fp-contract=fast")))
#endif
void accumulateExact(float *__restrict c, const float *__restrict am,
                     const float *__restrict bm, int64_t m, int64_t k,
                     int64_t n, bool init) {
  accumulate(c, am, bm, m, k, n, init);
}

/// The smallest nonzero and the largest magnitude in v (infinity for none
/// and for NaN or infinite elements).
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#endif
void magnitudeRange(const float *v, size_t count, float &lo, float &hi) {
  // On the magnitudes' bits (sign cleared), which order as the magnitudes
  // do; NaN and infinity are the largest. Zero wraps to the largest value
  // in `bits - 1`, so the minimum skips it; branch-free, so it vectorises.
  uint32_t loBitsLess1 = 0xffffffffu, hiBits = 0;
  for (size_t i = 0; i < count; ++i) {
    uint32_t bits;
    std::memcpy(&bits, v + i, 4);
    bits &= 0x7fffffffu;
    hiBits = std::max(hiBits, bits);
    loBitsLess1 = std::min(loBitsLess1, bits - 1);
  }
  const uint32_t loBits = loBitsLess1 + 1; // 0: no nonzero magnitude
  hi = INFINITY;
  if (hiBits < 0x7f800000u)
    std::memcpy(&hi, &hiBits, 4);
  lo = INFINITY;
  if (loBits != 0 && loBits < 0x7f800000u)
    std::memcpy(&lo, &loBits, 4);
}

/// Whether every product of an element of `a` and one of `b` is a float32
/// without rounding: no overflow, and the product's lowest significand bit
/// at or above float32's smallest subnormal, 2^-149. An operand's lowest
/// bit is above its magnitude times 2^-bits, so the two smallest nonzero
/// magnitudes bound every product's lowest bit from below. `bits` is the
/// operands' significand width (8 for bfloat16, 12 for HF32); 2 * bits <= 24
/// makes the significands' product fit.
bool productsExact(const float *a, size_t na, const float *b, size_t nb, int bits) {
  float loA, hiA, loB, hiB;
  magnitudeRange(a, na, loA, hiA);
  magnitudeRange(b, nb, loB, hiB);
  if (hiA == 0.0f || hiB == 0.0f)
    return true; // an all-zero operand: every product is zero
  const double maxFloat = 3.4028234663852886e38;
  return double(hiA) * double(hiB) <= maxFloat &&
         std::ldexp(double(loA) * double(loB), 149 - 2 * bits) >= 1.0;
}

} // namespace

void ndToL1(DType t, uint8_t *dst, int64_t tileRows,
            int64_t tileCols, const uint8_t *gm, int64_t rows, int64_t cols,
            int64_t gmStride) {
  const int64_t w = byteWidth(t), c0 = c0Of(t);
  const int64_t rp = padRows(Layout::NZ, t, tileRows);
  const int64_t cp = padCols(Layout::NZ, t, tileCols);
  // Zero the padding; a tile the rows fill completely needs none.
  if (rows < rp || cols < cp)
    std::memset(dst, 0, size_t(rp * cp * w));
  // Every C0 block is one 32-byte fractal row: whole blocks move as
  // fixed-size copies (one vector move each, no call), the last partial
  // block, if any, with its length.
  const int64_t whole = cols / c0 * c0;
  for (int64_t r = 0; r < rows; ++r) {
    const uint8_t *row = gm + r * gmStride * w;
    uint8_t *out = dst + nzIndex(r, 0, rp, c0) * w;
    for (int64_t c = 0; c < whole; c += c0)
      std::memcpy(out + c * rp * w, row + c * w, 32);
    if (whole < cols)
      std::memcpy(out + whole * rp * w, row + whole * w, size_t((cols - whole) * w));
  }
}

void nzToL0(DType t, Layout layout, uint8_t *dst, const uint8_t *src,
            int64_t tileRows, int64_t tileCols, int64_t srcRows,
            int64_t srcCols, int64_t row0, int64_t col0, bool transpose) {
  const int64_t w = byteWidth(t), c0 = c0Of(t);
  const int64_t srp = padRows(Layout::NZ, t, srcRows);
  const int64_t scp = padCols(Layout::NZ, t, srcCols);
  const int64_t drp = padRows(layout, t, tileRows);
  const int64_t dcp = padCols(layout, t, tileCols);
  if (!transpose && layout != Layout::ZN && row0 % 16 == 0 && col0 % c0 == 0 &&
      row0 + drp <= srp && col0 + dcp <= scp) {
    const size_t fractal = size_t(16 * c0 * w);
    if (layout == Layout::NZ) {
      // NZ -> NZ: each C0-wide column block is drp contiguous rows.
      for (int64_t cb = 0; cb < dcp / c0; ++cb)
        std::memcpy(dst + nzIndex(0, cb * c0, drp, c0) * w,
                    src + nzIndex(row0, col0 + cb * c0, srp, c0) * w,
                    size_t(drp / 16) * fractal);
      return;
    }
    // Whole 16 x C0 fractals, contiguous in both NZ and ZZ: 512-byte moves.
    for (int64_t rb = 0; rb < drp / 16; ++rb)
      for (int64_t cb = 0; cb < dcp / c0; ++cb)
        std::memcpy(dst + zzIndex(rb * 16, cb * c0, dcp, c0) * w,
                    src + nzIndex(row0 + rb * 16, col0 + cb * c0, srp, c0) * w,
                    fractal);
    return;
  }
  if (w == 2 && row0 % 16 == 0 && col0 % 16 == 0) {
    // 2-byte elements: every layout's fractal is 16 x 16, the source's
    // (NZ) row-major, the destination's row-major (NZ, ZZ) or column-major
    // (ZN), and a transposing load reads the source fractal column-major.
    // So each destination fractal is one source fractal copied as is (512
    // bytes) or transposed; fractals past the source's padded extents are
    // zero.
    const bool dstColumnMajor = layout == Layout::ZN;
    uint16_t *d = reinterpret_cast<uint16_t *>(dst);
    const uint16_t *sp = reinterpret_cast<const uint16_t *>(src);
    for (int64_t rb = 0; rb < drp; rb += 16)
      for (int64_t cb = 0; cb < dcp; cb += 16) {
        uint16_t *df = d + indexIn(layout, rb, cb, drp, dcp, 16);
        const int64_t sr = transpose ? row0 + cb : row0 + rb;
        const int64_t sc = transpose ? col0 + rb : col0 + cb;
        if (sr >= srp || sc >= scp) {
          std::memset(df, 0, 512);
          continue;
        }
        const uint16_t *sf = sp + nzIndex(sr, sc, srp, 16);
        if (transpose == dstColumnMajor) {
          std::memcpy(df, sf, 512);
          continue;
        }
        for (int i = 0; i < 16; ++i)
          for (int j = 0; j < 16; ++j)
            df[j * 16 + i] = sf[i * 16 + j];
      }
    return;
  }
  // Element by element: the destination index is a row term plus a column
  // term, and so is the source's (with the axes swapped when transposing);
  // -1 marks a source row or column outside the tile (zero fill).
  thread_local Terms dstTls, srcTls;
  thread_local std::vector<int64_t> rowTls, colTls;
  // One TLS lookup each, not one per element.
  Terms &dt = dstTls, &st = srcTls;
  std::vector<int64_t> &perRow = rowTls, &perCol = colTls;
  termsOf(dt, layout, drp, dcp, c0);
  termsOf(st, Layout::NZ, srp, scp, c0);
  perRow.resize(size_t(drp));
  perCol.resize(size_t(dcp));
  auto srcRow = [&](int64_t sr) { return sr < srp ? st.row[size_t(sr)] : -1; };
  auto srcCol = [&](int64_t sc) { return sc < scp ? st.col[size_t(sc)] : -1; };
  for (int64_t r = 0; r < drp; ++r)
    perRow[size_t(r)] = transpose ? srcCol(col0 + r) : srcRow(row0 + r);
  for (int64_t c = 0; c < dcp; ++c)
    perCol[size_t(c)] = transpose ? srcRow(row0 + c) : srcCol(col0 + c);
  const int64_t *srcTerm = perCol.data(), *dstTerm = dt.col.data();
  withWord(t, [&](auto word) {
    using W = decltype(word);
    W *d = reinterpret_cast<W *>(dst);
    const W *s = reinterpret_cast<const W *>(src);
    for (int64_t r = 0; r < drp; ++r) {
      const int64_t pr = perRow[size_t(r)];
      W *drow = d + dt.row[size_t(r)];
      if (pr < 0) {
        for (int64_t c = 0; c < dcp; ++c)
          drow[dstTerm[c]] = 0;
        continue;
      }
      for (int64_t c = 0; c < dcp; ++c) {
        const int64_t pc = srcTerm[c];
        W v = 0;
        if (pc >= 0)
          std::memcpy(&v, s + pr + pc, sizeof(W));
        std::memcpy(drow + dstTerm[c], &v, sizeof(W));
      }
    }
  });
}

void widenToF32(DType src, uint8_t *dst, const uint8_t *from, int64_t count) {
  withCodec(src, [&](auto codec) {
    using C = decltype(codec);
    if constexpr (C::kIsFloat)
      for (int64_t i = 0; i < count; ++i) {
        float v = codec.load(from + i * C::kWidth);
        std::memcpy(dst + i * 4, &v, 4);
      }
  });
}

float roundToHf32(float x) {
  // Round to nearest even at 11 explicit mantissa bits (drop the low 12 of
  // float32's 23); NaN and infinity pass through, overflow rounds to inf.
  uint32_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  if ((bits & 0x7f800000u) == 0x7f800000u)
    return x;
  const uint32_t dropped = 12, half = 1u << (dropped - 1);
  const uint32_t lsb = (bits >> dropped) & 1u;
  bits = (bits + half - 1 + lsb) & ~((1u << dropped) - 1);
  std::memcpy(&x, &bits, sizeof bits);
  return x;
}

void mmadKernel(DType in, Layout aLayout, uint8_t *c, const uint8_t *a,
                const uint8_t *b, int64_t m, int64_t k, int64_t n, bool init,
                MmadScratch &s, bool hf32) {
  const size_t mk = size_t(m * k), kn = size_t(k * n), mn = size_t(m * n);
  if (in == DType::I8) {
    s.ai.resize(mk);
    s.bi.resize(kn);
    s.ci.resize(mn);
    gatherInt8(s.ai.data(), a, m, k, aLayout);
    gatherInt8(s.bi.data(), b, k, n, Layout::ZN);
    if (init)
      std::fill(s.ci.begin(), s.ci.end(), 0);
    else
      loadL0c(s.ci.data(), c, m, n);
    for (int64_t i = 0; i < m; ++i) {
      uint32_t *crow = reinterpret_cast<uint32_t *>(s.ci.data() + i * n);
      for (int64_t kk = 0; kk < k; ++kk) {
        const int32_t av = s.ai[size_t(i * k + kk)];
        const int32_t *brow = s.bi.data() + kk * n;
        for (int64_t j = 0; j < n; ++j) // int32 accumulation wraps
          crow[j] += uint32_t(av * brow[j]);
      }
    }
    storeL0c(c, s.ci.data(), m, n);
    return;
  }
  s.a.resize(mk);
  s.b.resize(kn);
  withCodec(in, [&](auto codec) {
    using C = decltype(codec);
    if constexpr (C::kIsFloat) {
      gatherFloat(codec, s.a.data(), a, m, k, aLayout, c0Of(in));
      gatherFloat(codec, s.b.data(), b, k, n, Layout::ZN, c0Of(in));
    }
  });
  if (hf32 && in == DType::F32) {
    for (float &v : s.a)
      v = roundToHf32(v);
    for (float &v : s.b)
      v = roundToHf32(v);
  }
  // float16 products are always exact (11-bit significands, exponents far
  // inside float32's range); bfloat16 and HF32 ones when the values allow.
  const bool exact =
      in == DType::F16 ||
      (in == DType::BF16 && productsExact(s.a.data(), mk, s.b.data(), kn, 8)) ||
      (hf32 && in == DType::F32 && productsExact(s.a.data(), mk, s.b.data(), kn, 12));
  float *cf = reinterpret_cast<float *>(c);
  if (exact)
    accumulateExact(cf, s.a.data(), s.b.data(), m, k, n, init);
  else
    accumulateRounded(cf, s.a.data(), s.b.data(), m, k, n, init);
}

void fixpipeRow(DType dstT, DType srcT, bool relu, uint8_t *dst,
                const uint8_t *l0c, int64_t rp, int64_t r, int64_t cols) {
  if (srcT == DType::I32) {
    for (int64_t j = 0; j < cols; ++j) {
      int32_t v;
      std::memcpy(&v, l0c + l0cIndex(r, j, rp) * 4, 4);
      if (relu && v < 0)
        v = 0;
      std::memcpy(dst + j * 4, &v, 4);
    }
    return;
  }
  withCodec(dstT, [&](auto codec) {
    using C = decltype(codec);
    if constexpr (C::kIsFloat) {
      for (int64_t j = 0; j < cols; ++j) {
        float v;
        std::memcpy(&v, l0c + l0cIndex(r, j, rp) * 4, 4);
        if (relu && v < 0) // NaN passes through
          v = 0;
        codec.store(dst + j * C::kWidth, v); // f16/bf16: round to nearest even
      }
    }
  });
}

void loadBias(DType acc, uint8_t *c, const uint8_t *bias, int64_t m, int64_t n) {
  (void)acc; // float32 only (validated)
  const int64_t mp = pad16(m);
  float *out = reinterpret_cast<float *>(c);
  const float *b = reinterpret_cast<const float *>(bias);
  for (int64_t j = 0; j < n; ++j) {
    float *column = out + (j / 16) * mp * 16 + j % 16;
    for (int64_t r = 0; r < m; ++r)
      column[r * 16] = b[j];
  }
}

void fixpipeToNz(DType dstT, DType srcT, bool relu, uint8_t *dst,
                 const uint8_t *l0c, int64_t rows, int64_t cols) {
  // One fixpipe row at a time (the GM path's conversion), scattered to NZ.
  const int64_t rp = pad16(rows), drp = padRows(Layout::NZ, dstT, rows);
  const int64_t c0 = c0Of(dstT), w = byteWidth(dstT);
  std::vector<uint8_t> row(size_t(cols * w));
  for (int64_t r = 0; r < rows; ++r) {
    fixpipeRow(dstT, srcT, relu, row.data(), l0c, rp, r, cols);
    for (int64_t c = 0; c < cols; ++c)
      std::memcpy(dst + nzIndex(r, c, drp, c0) * w, row.data() + c * w, size_t(w));
  }
}

} // namespace asc2::sim::cube
