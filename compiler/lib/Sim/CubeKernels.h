//===- CubeKernels.h - Fractal layouts and the cube unit ------*- C++ -*-===//
//
// The functional half of the cube-path instructions (Program.h "cube path"),
// on raw local-memory pointers the executor has already bounds-checked.
// Timing, races and error messages stay in the executor.
//
// Layouts (C0 = 32 / element bytes: 16 for f16/bf16, 8 for f32, 32 for int8;
// a tile of R x C elements is stored padded to Rp x Cp, see padRows/padCols):
//   L1  NZ: (c / C0) * (Rp * C0) + r * C0 + c % C0
//   L0A ZZ: (r / 16) * (Cp * 16) + (c / C0) * (16 * C0) + (r % 16) * C0 + c % C0
//           on c220 (LoadData2DParams); on c310 L0A is NZ like L1
//           (LoadData2DParamsV2: "L0A数据排布为Nz格式", mirror-cann/asc-devkit@82b89a15f:
//           examples/01_simd_cpp_api/03_basic_api/03_matrix_compute/load_data_2dv2_l12l0)
//   L0B ZN: (r / C0) * (Cp * C0) + (c / 16) * (16 * C0) + (c % 16) * C0 + r % C0
//   L0C NZ: the L1 formula with C0 = 16 (f32 / int32 elements)
// Every fractal (16 x C0 for NZ/ZZ, C0 x 16 for ZN, 16 x 16 for L0C) is
// 512 bytes in L1/L0A/L0B and 1024 bytes in L0C.
//
// Numerics: products accumulate in f32 in k order (f16/bf16 products are
// exact in f32; an f32 product is rounded to f32, then added, no fused
// multiply-add); int8 products accumulate in int32 and wrap. Fixpipe converts
// f32 to f16/bf16 with round-to-nearest-even and applies relu before the
// conversion.
//
//===----------------------------------------------------------------------===//
#ifndef ASC2_LIB_SIM_CUBEKERNELS_H
#define ASC2_LIB_SIM_CUBEKERNELS_H

#include "asc2/Sim/Program.h"

#include <cstdint>
#include <vector>

namespace asc2::sim::cube {

/// Elements of one 32-byte fractal row: 32 / element bytes.
inline int64_t c0Of(DType t) { return 32 / int64_t(byteWidth(t)); }
inline int64_t roundUp(int64_t x, int64_t m) { return (x + m - 1) / m * m; }
/// Padded extent of a dimension that is split into C0-wide blocks: a multiple
/// of 16 and of C0 (16 for f16/bf16/f32, 32 for int8).
inline int64_t padSplit(DType t, int64_t x) {
  int64_t c0 = c0Of(t);
  return roundUp(x, c0 > 16 ? c0 : 16);
}
inline int64_t pad16(int64_t x) { return roundUp(x, 16); }

/// Which layout a local tile has.
enum class Layout : uint8_t { NZ, ZZ, ZN, L0C };

/// Padded rows / cols of an R x C tile in `layout` (L0C: element type f32 or
/// int32, both dimensions padded to 16).
inline int64_t padRows(Layout layout, DType t, int64_t rows) {
  return layout == Layout::ZN ? padSplit(t, rows) : pad16(rows);
}
inline int64_t padCols(Layout layout, DType t, int64_t cols) {
  return layout == Layout::NZ || layout == Layout::ZZ ? padSplit(t, cols)
                                                      : pad16(cols);
}
/// Bytes of an R x C tile of `t` in `layout`.
inline int64_t tileBytes(Layout layout, DType t, int64_t rows, int64_t cols) {
  return padRows(layout, t, rows) * padCols(layout, t, cols) *
         int64_t(byteWidth(t));
}

/// The layout of L0A on a target: ZZ on c220, NZ on c310.
inline Layout l0aLayout(bool c310) { return c310 ? Layout::NZ : Layout::ZZ; }

/// Element index of (r, c) in a tile with padded extents rp x cp.
inline int64_t nzIndex(int64_t r, int64_t c, int64_t rp, int64_t c0) {
  return (c / c0) * (rp * c0) + r * c0 + c % c0;
}
inline int64_t zzIndex(int64_t r, int64_t c, int64_t cp, int64_t c0) {
  return (r / 16) * (cp * 16) + (c / c0) * (16 * c0) + (r % 16) * c0 + c % c0;
}
inline int64_t znIndex(int64_t r, int64_t c, int64_t cp, int64_t c0) {
  return (r / c0) * (cp * c0) + (c / 16) * (16 * c0) + (c % 16) * c0 + r % c0;
}
inline int64_t l0cIndex(int64_t r, int64_t c, int64_t rp) {
  return (c / 16) * (rp * 16) + r * 16 + c % 16;
}
/// Element index of (r, c) in an NZ, ZZ or ZN tile of padded extents rp x cp.
inline int64_t indexIn(Layout layout, int64_t r, int64_t c, int64_t rp,
                       int64_t cp, int64_t c0) {
  return layout == Layout::NZ   ? nzIndex(r, c, rp, c0)
         : layout == Layout::ZZ ? zzIndex(r, c, cp, c0)
                                : znIndex(r, c, cp, c0);
}

/// GM ND rows -> NZ L1 tile of tileRows x tileCols (element type t) at dst
/// (DataCopy with Nd2NzParams). `rows` rows of `cols` elements, GM row r at
/// gm + r * gmStride elements. Everything of the padded tile outside the
/// valid region becomes zero.
void ndToL1(DType t, uint8_t *dst, int64_t tileRows,
            int64_t tileCols, const uint8_t *gm, int64_t rows, int64_t cols,
            int64_t gmStride);

/// The tileRows x tileCols sub-tile at (row0, col0) of an L1 NZ tile of
/// srcRows x srcCols -> `layout` (ZZ or NZ for L0A, ZN for L0B) at dst: element
/// (r, c) of the padded destination is source element (row0 + r, col0 + c),
/// or zero past the source's padded extents. src and dst must not overlap.
/// With `transpose` (LoadData's transpose), element (r, c) is source element
/// (row0 + c, col0 + r): the tileCols x tileRows source sub-tile, transposed.
void nzToL0(DType t, Layout layout, uint8_t *dst, const uint8_t *src,
            int64_t tileRows, int64_t tileCols, int64_t srcRows,
            int64_t srcCols, int64_t row0, int64_t col0,
            bool transpose = false);

/// Reusable dense buffers for mmadKernel (one per core, grown on demand).
struct MmadScratch {
  std::vector<float> a, b;
  std::vector<int32_t> ai, bi, ci;
};

/// C (L0C NZ, m x n, f32 or int32 for int8 inputs) = (init ? 0 : C) +
/// A (L0A in `aLayout`, ZZ or NZ, m x k) * B (L0B ZN, k x n); m, n multiples of 16, k a multiple
/// of 16 (32 for int8). `in` is the input type (F16, BF16, F32, I8).
/// `hf32` (SetHF32Mode): float32 operands are first rounded to HF32.
void mmadKernel(DType in, Layout aLayout, uint8_t *c, const uint8_t *a,
                const uint8_t *b, int64_t m, int64_t k, int64_t n, bool init,
                MmadScratch &scratch, bool hf32 = false);

/// count f16/bf16/f32 values (src) -> f32 at dst: a bias row widened on its
/// way to the bias table.
void widenToF32(DType src, uint8_t *dst, const uint8_t *from, int64_t count);

/// x rounded to HF32 (float32 with 11 explicit mantissa bits, round to
/// nearest even), as the cube reads float32 operands in HF32 mode.
float roundToHf32(float x);

/// C (L0C NZ, m x n, f32) = bias[j] in every row: the bias-table start
/// value of an mmad with a bias (which then accumulates onto it).
void loadBias(DType acc, uint8_t *c, const uint8_t *bias, int64_t m, int64_t n);

/// L0C NZ tile (rows x cols, srcT) -> L1 NZ tile of dstT: relu, convert.
void fixpipeToNz(DType dstT, DType srcT, bool relu, uint8_t *dst,
                 const uint8_t *l0c, int64_t rows, int64_t cols);

/// One GM row of a fixpipe: dst[j] = convert(relu?(L0C(r, j))) for j < cols,
/// from an L0C NZ tile with padded rows rp, source type srcT (F32 / I32),
/// destination type dstT (F32/F16/BF16 from F32, I32 from I32).
void fixpipeRow(DType dstT, DType srcT, bool relu, uint8_t *dst,
                const uint8_t *l0c, int64_t rp, int64_t r, int64_t cols);

} // namespace asc2::sim::cube

#endif
