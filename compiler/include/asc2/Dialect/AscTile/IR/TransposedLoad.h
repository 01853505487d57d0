//===- TransposedLoad.h - DMA loops of asctile.load_transposed -*- C++ -*-===//
//
// A transposing load is one N-dimensional DMA (Ascend C DataCopy with
// NdDmaParams): nested loops in the destination tile's order, each with an
// element stride in GM and one in the tile. The fold pass asks whether a
// load fits the DMA; the lowering builds the copy from the same plan.
//
//===----------------------------------------------------------------------===//
#ifndef ASC2_DIALECT_ASCTILE_IR_TRANSPOSEDLOAD_H
#define ASC2_DIALECT_ASCTILE_IR_TRANSPOSEDLOAD_H

#include "asc2/Dialect/AscTile/IR/AscTile.h"

#include <optional>

namespace asc2::asctile {

/// One loop of the DMA, outermost first.
struct NdLoop {
  int64_t extent = 1;    // positions in the tile (data and right padding)
  int64_t srcStride = 0; // elements in GM between positions
  int64_t dstStride = 0; // elements in the tile between positions
  /// The box dimensions (the tensor's order) it runs over, outermost first:
  /// more than one when dimensions adjacent on both sides merged; all but
  /// the first are always read whole.
  llvm::SmallVector<int64_t, 2> boxDims;
};

/// Whether dimension d of the box `op` reads is read whole on every trip
/// (static: tensor extent, constant offset, no shorter constant real_shape).
llvm::SmallVector<bool> wholeBoxDims(LoadTransposedOp op);

/// The loops of `op`, outermost first: one per destination dimension that is
/// not a unit, adjacent ones merged where both sides are contiguous and the
/// inner one is whole. std::nullopt when a tensor dimension after the first
/// is dynamic (the strides are the DMA's static fields).
std::optional<llvm::SmallVector<NdLoop>>
planTransposedLoad(LoadTransposedOp op);

/// Whether `loops` fit the DMA: 1 to `maxLoops` loops, every extent and
/// stride within the API's fields (asc2/Arch/NdDma.h).
bool fitsNdDma(llvm::ArrayRef<NdLoop> loops, int64_t maxLoops);

} // namespace asc2::asctile

#endif
