//===- RecomputeCasts.cpp - a widening cast again at each later user -------===//
//
// Kernels convert a narrow input to float32 where each computation needs it
// (rms_norm: once for the sum of squares, once for x * rstd * gamma); CSE
// merges the two casts into one, and the float32 tile then stays live from
// the first use to the last, twice the bytes of the float16 source it came
// from. When that is what overflows the UB, this pass undoes the merge: each
// user of the cast after the first (grouped by the op of the cast's block
// that holds them) gets its own copy of the cast, placed just before that
// op. The narrow source lives longer instead, and each wide copy dies at its
// own users, where an elementwise result may take its bytes.
//
// Only casts between UB tiles whose result has more bytes than the source
// are copied; a copy is never put inside a loop the cast is outside of (it
// goes before the loop). The driver adds the pass when a compile overflows
// the UB, after the last CSE.
//
//===----------------------------------------------------------------------===//
#include "asc2/Dialect/AscTile/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/MapVector.h"

namespace asc2::asctile {
#define GEN_PASS_DEF_ASCTILERECOMPUTECASTS
#include "asc2/Dialect/AscTile/Transforms/Passes.h.inc"
} // namespace asc2::asctile

using namespace mlir;
using namespace asc2::asctile;

namespace {

struct RecomputeCastsPass
    : public asc2::asctile::impl::AscTileRecomputeCastsBase<RecomputeCastsPass> {
  void runOnOperation() override {
    SmallVector<CastOp> casts;
    getOperation().walk([&](CastOp c) { casts.push_back(c); });
    for (CastOp cast : casts) {
      auto from = dyn_cast<TileType>(cast.getSource().getType());
      auto to = dyn_cast<TileType>(cast.getResult().getType());
      if (!from || !to || from.getLocation() != TileLocation::UB ||
          to.getLocation() != TileLocation::UB || to.getSizeInBytes() <= from.getSizeInBytes())
        continue;
      Block *block = cast->getBlock();
      // The users, by the op of the cast's block that holds them.
      llvm::MapVector<Operation *, SmallVector<OpOperand *>> byHolder;
      for (OpOperand &use : cast.getResult().getUses()) {
        Operation *holder = block->findAncestorOpInBlock(*use.getOwner());
        if (!holder)
          continue; // not below the cast's block (cannot happen in SSA form)
        byHolder[holder].push_back(&use);
      }
      if (byHolder.size() < 2)
        continue;
      SmallVector<Operation *> holders;
      for (auto &entry : byHolder)
        holders.push_back(entry.first);
      llvm::sort(holders, [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
      OpBuilder b(cast);
      for (Operation *holder : llvm::drop_begin(holders)) {
        b.setInsertionPoint(holder);
        Operation *copy = b.clone(*cast);
        for (OpOperand *use : byHolder[holder])
          use->set(copy->getResult(0));
      }
    }
  }
};

} // namespace
