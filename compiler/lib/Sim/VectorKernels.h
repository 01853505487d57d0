//===- VectorKernels.h - What the vector unit computes ------------*- C++ -*-===//
//
// The functional half of every vector instruction, on raw local-memory
// pointers that the executor has already bounds-checked. Timing, races and
// error messages stay in the executor.
//
// Numerics (see also Elements.h and Rounding.h):
//   * fp16/bf16 compute in float and round to nearest even per instruction;
//     integers compute in int64 and wrap to their width.
//   * Div on integers truncates; FloorDiv rounds toward -inf (Python //);
//     FloorDiv on floats is floor(a / b) with a / b rounded first.
//   * Shl/Shr take the count as unsigned: counts >= the width give 0 (Shl) or
//     the sign fill (Shr). Shr is arithmetic for signed types, logical for u8.
//   * Casts: float -> int rounds by the mode and saturates (NaN -> 0), as
//     Ascend's conversions do; int -> int wraps (numpy astype); anything ->
//     bool is != 0 (NaN -> true); to a float format see Rounding.h.
//   * Reductions accumulate in double (floats) or int64 (wrapping) in row
//     order and round once to the dtype; Max/Min propagate NaN (numpy). The
//     hardware's float tree and numpy's pairwise float32 sums differ from this
//     in the last bits: compare with a tolerance.
//
//===----------------------------------------------------------------------===//
#ifndef ASC2_LIB_SIM_VECTORKERNELS_H
#define ASC2_LIB_SIM_VECTORKERNELS_H

#include "Elements.h"

#include "asc2/Sim/Program.h"

#include <cstdint>

namespace asc2::sim {

bool isBinaryVecOp(VecOp op);
/// Exp, Log, Sqrt, Rsqrt, Reciprocal.
bool isFloatOnlyVecOp(VecOp op);
/// And, Or, Xor, Shl, Shr, Not.
bool isIntegerOnlyVecOp(VecOp op);
/// Ops a Bool operand supports: And, Or, Xor, Not, Max, Min.
bool isBoolVecOp(VecOp op);

/// How the two operands of a binary op are supplied.
enum class BinaryForm : uint8_t { TensorTensor, TensorScalar, ScalarTensor };

/// dst[i] = op(a[i], b[i]) (TensorTensor), op(a[i], s) or op(s, a[i]);
/// `b` is unused in the scalar forms. Returns false on an integer division by
/// zero (nothing is written then).
bool binaryKernel(VecOp op, DType t, BinaryForm form, uint8_t *dst,
                  const uint8_t *a, const uint8_t *b, Scalar s, int64_t n);
void unaryKernel(VecOp op, DType t, uint8_t *dst, const uint8_t *a, int64_t n);
/// dst[0..n) = s rounded to t.
void dupKernel(DType t, uint8_t *dst, Scalar s, int64_t n);
void castKernel(DType dstT, DType srcT, RoundMode mode, uint8_t *dst,
                const uint8_t *src, int64_t n);
/// dst (bool bytes) = cmp(a, b or s); NaN compares unordered (only NE holds).
void compareKernel(CmpMode mode, DType t, uint8_t *dst, const uint8_t *a,
                   const uint8_t *b, bool scalarRhs, Scalar s, int64_t n);
/// dst = mask ? a : (b or s).
void selectKernel(DType t, uint8_t *dst, const uint8_t *mask, const uint8_t *a,
                  const uint8_t *b, bool scalarRhs, Scalar s, int64_t n);
/// Reduces a rows x cols row-major tile along `axis` (1: per row, 0: per
/// column). `dst` may overlap `src`.
void reduceKernel(ReduceKind kind, DType t, int axis, uint8_t *dst,
                  const uint8_t *src, int64_t rows, int64_t cols);
/// Calls f(start, length) for each run of consecutive elements among the
/// first n that a 128-bit lane mask (hi:lo, bit l < 64 in lo) selects, lane =
/// index mod `lanes` (one 256-byte repeat). Runs may span repeats.
template <typename F>
void forEachMaskRun(int64_t n, int64_t lanes, uint64_t hi, uint64_t lo, F f) {
  auto selected = [&](int64_t i) {
    int64_t l = i % lanes;
    return ((l < 64 ? lo >> l : hi >> (l - 64)) & 1) != 0;
  };
  int64_t start = -1;
  for (int64_t i = 0; i < n; ++i) {
    bool on = selected(i);
    if (on && start < 0)
      start = i;
    else if (!on && start >= 0) {
      f(start, i - start);
      start = -1;
    }
  }
  if (start >= 0)
    f(start, n - start);
}

/// gm[i] = kind(gm[i], src[i]) for one row of an atomic store; the caller
/// serialises concurrent calls.
void atomicKernel(AtomicKind kind, DType t, uint8_t *gm, const uint8_t *src,
                  int64_t n);

} // namespace asc2::sim

#endif
