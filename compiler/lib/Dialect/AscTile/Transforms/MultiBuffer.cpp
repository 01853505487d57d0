//===- MultiBuffer.cpp - choose a ping-pong depth per loop -----------------===//
#include "asc2/Support/PassOptions.h"
#include "asc2/Dialect/AscTile/Transforms/Passes.h"

#define DEBUG_TYPE "asctile-multi-buffer"

namespace asc2::asctile {
#define GEN_PASS_DEF_ASCTILEMULTIBUFFER
#include "asc2/Dialect/AscTile/Transforms/Passes.h.inc"
} // namespace asc2::asctile

using namespace mlir;
using namespace asc2::asctile;

namespace {

struct MultiBufferPass
    : public asc2::asctile::impl::AscTileMultiBufferBase<MultiBufferPass> {
  using AscTileMultiBufferBase::AscTileMultiBufferBase;

  void runOnOperation() override {
    if (failed(asc2::checkOption(getOperation(), "asctile-multi-buffer", "num-stages", numStages, 0)))
      return signalPassFailure();
    if (numStages == 1)
      return;
    getOperation().walk([&](scf::ForOp loop) {
      if (auto f = loop->getAttrOfType<IntegerAttr>("asctile.unroll_factor"))
        if (f.getInt() > 1)
          return; // the user's unroll factor already gives several buffers
      bool innermost = true, loads = false;
      // Per copy: the loaded tiles (a DMA buffer lives for the whole loop)
      // and a working tile (elementwise chains run in place). Optimistic:
      // an overflow after planning falls back to one buffer per tile.
      int64_t loadedBytes = 0, largestWorking = 0;
      bool rawCode = false;
      loop.getBody()->walk([&](Operation *op) {
        if (isa<scf::ForOp>(op))
          innermost = false;
        // asc2.inline runs between PIPE_ALL barriers (nothing overlaps it),
        // and copies of it would declare its names twice in one scope.
        if (auto code = dyn_cast<InlineOp>(op))
          rawCode |= !code.getBeforeFunction();
        if (isa<LoadOp, LoadTransposedOp>(op))
          loads = true;
        if (isa<ReshapeOp>(op)) {
          Operation *src = op;
          while (isa_and_nonnull<ReshapeOp>(src))
            src = src->getOperand(0).getDefiningOp();
          if (isa_and_nonnull<LoadOp, LoadTransposedOp>(src))
            return; // the loaded tile's bytes (the frontend reshapes merged loads)
        }
        for (Type t : op->getResultTypes())
          if (auto tile = dyn_cast<TileType>(t)) {
            // Cube tiles (L1/L0) are checked by planning; fall back on overflow.
            if (tile.getLocation() != TileLocation::UB)
              continue;
            int64_t bytes = (tile.getSizeInBytes() + 31) / 32 * 32;
            if (isa<LoadOp, LoadTransposedOp>(op))
              loadedBytes += bytes;
            else
              largestWorking = std::max(largestWorking, bytes);
          }
      });
      int64_t tileBytes = loadedBytes + largestWorking;
      // L0C accumulators carried by the loop are updated in place (a K loop
      // of matmul_acc): they do not stop multi-buffering its loads.
      if (!innermost || !loads || rawCode ||
          llvm::any_of(loop.getInitArgs(), [](Value v) {
            auto t = dyn_cast<TileType>(v.getType());
            return t && t.getLocation() != TileLocation::L0C;
          }))
        return;
      // An estimate: when planning finds the copies do not fit after all,
      // the driver compiles again with one buffer per tile.
      int64_t depth = numStages > 1 ? numStages : 2;
      while (depth > 1 && depth * tileBytes > ubCapacity)
        --depth;
      if (depth < 2)
        return;
      loop->setAttr("asctile.unroll_factor",
                    IntegerAttr::get(IntegerType::get(&getContext(), 64), depth));
      loop->setAttr("asctile.multi_buffer", UnitAttr::get(&getContext()));
      ++numBuffered;
    });
  }
};

} // namespace
