//===- ReduceKernels.h - The level-0 reduction calls ---------------*- C++ -*-===//
//
// What VecWholeReduce (WholeReduceSum/Max/Min) and VecBinaryRepeat (level-0
// Add/Max/Min/Mul) compute and touch, with the API's repeat geometry
// (asc2/Arch/VectorRepeat.h): count mask, repeatTime, block and repeat
// strides, value-only or value/index results. The executor bounds-checks the
// spans these report before it calls the kernels.
//
// Numerics: a WholeReduceSum repeat accumulates in double and rounds once to
// the element type (the hardware adds in a binary tree; the two differ in the
// last bits, as numpy's pairwise sums do). Max/Min propagate NaN and report
// the first index of the winner. A binary repeat rounds each lane like the
// elementwise op (VectorKernels.h).
//
//===----------------------------------------------------------------------===//
#ifndef ASC2_LIB_SIM_REDUCEKERNELS_H
#define ASC2_LIB_SIM_REDUCEKERNELS_H

#include "asc2/Sim/Program.h"

#include <cstdint>
#include <string>

namespace asc2::sim {

/// Why a VecWholeReduce/VecBinaryRepeat instruction is malformed ("" if not).
std::string repeatCallError(const Instr &in);

/// Bytes from operand `which`'s address (0 dst, 1 src0, 2 src1) to the end
/// of the last byte the instruction touches there.
int64_t repeatCallSpan(const Instr &in, int which);

/// Executes the instruction on local memory `base` (its dst space).
void wholeReduceKernel(const Instr &in, uint8_t *base);
void binaryRepeatKernel(const Instr &in, uint8_t *base);

} // namespace asc2::sim

#endif
