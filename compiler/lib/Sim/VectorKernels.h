//===- VectorKernels.h - What the vector unit computes ------------*- C++ -*-===//
//
// The functional half of every vector instruction, on raw local-memory
// pointers that the executor has already bounds-checked. Timing, races and
// error messages stay in the executor.
//
// Numerics (see also Elements.h and Rounding.h):
//   * fp16/bf16 compute in float and round to nearest even per instruction;
//     integers compute in int64 and wrap to their width.
//   * Div on integers truncates (floor division is composed from it by the
//     lowering: Ascend C has no FloorDiv).
//   * Bool is a bit mask in local memory (Program.h): Compare writes bits,
//     Select reads them, And/Or/Xor/Not work on the mask's bytes.
//   * Shl/Shr take the count as unsigned: counts >= the width give 0 (Shl) or
//     the sign fill (Shr). Shr is arithmetic for signed types, logical for u8.
//   * Casts: float -> int rounds by the mode and saturates (NaN -> 0), as
//     Ascend's conversions do; int -> int wraps (numpy astype); anything ->
//     bool is != 0 (NaN -> true); to a float format see Rounding.h.
//   * Reductions: ReduceKernels.h (WholeReduce, level-0 folds).
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
/// Ops a Bool operand supports: And, Or, Xor, Not, Max, Min. They work on the
/// bit mask's whole bytes (ceil(n / 8)), as the emitted uint16 And/Or/Xor/Not
/// on the mask's bytes do.
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
/// Bits dstBit .. dstBit + n of the bit mask at dst = cmp(a, b or s), bit
/// order as Compare's (element i -> bit i % 8 of byte i / 8); the other bits
/// keep their value. NaN compares unordered (only NE holds).
void compareKernel(CmpMode mode, DType t, uint8_t *dst, int64_t dstBit,
                   const uint8_t *a, const uint8_t *b, bool scalarRhs, Scalar s,
                   int64_t n);
/// dst[i] = bit maskBit + i of the bit mask at `mask` ? a[i] : (b[i] or s).
void selectKernel(DType t, uint8_t *dst, const uint8_t *mask, int64_t maskBit,
                  const uint8_t *a, const uint8_t *b, bool scalarRhs, Scalar s,
                  int64_t n);
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
