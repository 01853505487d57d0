//===- UnrollLoop.cpp - unroll by asctile.unroll_factor --------------------===//
#include "asc2/Dialect/AscTile/Transforms/Passes.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"

#define DEBUG_TYPE "asctile-unroll-loop"

namespace asc2::asctile {
#define GEN_PASS_DEF_ASCTILEUNROLLLOOP
#include "asc2/Dialect/AscTile/Transforms/Passes.h.inc"
} // namespace asc2::asctile

using namespace mlir;
using namespace asc2::asctile;

namespace {

/// `root` and every operation nested in it.
int64_t countOps(Operation *root) {
  int64_t n = 0;
  root->walk([&](Operation *) { ++n; });
  return n;
}

int64_t unrollFactorOf(scf::ForOp loop) {
  if (auto f = loop->getAttrOfType<IntegerAttr>("asctile.unroll_factor"))
    return f.getInt();
  return 1;
}

/// Clones the body of `loop` with induction variable `iv` and iter_args
/// `iterValues` at the builder's insertion point; returns the yielded values.
SmallVector<Value> cloneBody(OpBuilder &b, scf::ForOp loop, Value iv,
                             ValueRange iterValues, int64_t copy) {
  IRMapping map;
  map.map(loop.getInductionVar(), iv);
  map.map(loop.getRegionIterArgs(), iterValues);
  for (Operation &op : loop.getBody()->without_terminator()) {
    Operation *clone = b.clone(op, map);
    // Which copy (ping/pong slot) each tile belongs to, for the memory plan,
    // and each GM store, for the sync planner (copies are different trips).
    clone->walk([&](Operation *nested) {
      if (llvm::any_of(nested->getResultTypes(),
                       [](Type t) { return isa<TileType>(t); }) ||
          isa<StoreOp, AtomicRMWOp>(nested))
        nested->setAttr("asctile.copy", b.getI64IntegerAttr(copy));
    });
  }
  SmallVector<Value> yielded;
  for (Value v : loop.getBody()->getTerminator()->getOperands())
    yielded.push_back(map.lookupOrDefault(v));
  return yielded;
}

void unroll(scf::ForOp loop, int64_t factor) {
  OpBuilder b(loop);
  Location loc = loop.getLoc();
  Value step = loop.getStep();
  Value bigStep = b.create<arith::MulIOp>(
      loc, step, b.create<arith::ConstantIndexOp>(loc, factor));
  auto newLoop = b.create<scf::ForOp>(loc, loop.getLowerBound(),
                                      loop.getUpperBound(), bigStep,
                                      loop.getInitArgs());
  newLoop->setAttrs(loop->getAttrs());
  newLoop->setAttr("asctile.unroll_factor", b.getI64IntegerAttr(1));
  newLoop->setAttr("asctile.unrolled_by", b.getI64IntegerAttr(factor));

  Block *body = newLoop.getBody();
  b.setInsertionPointToStart(body);
  if (!body->empty() && isa<scf::YieldOp>(body->back()))
    body->back().erase(); // replaced below
  b.setInsertionPointToEnd(body);
  SmallVector<Value> carried(newLoop.getRegionIterArgs());
  carried = cloneBody(b, loop, newLoop.getInductionVar(), carried, 0);
  // Static bounds with a whole number of unrolled trips: every copy runs, so
  // no copy needs a guard (a guard would also cost the sync inserter a full
  // barrier around the copy it may skip).
  bool wholeTrips = false;
  {
    auto lb = getConstantIntValue(loop.getLowerBound());
    auto ub = getConstantIntValue(loop.getUpperBound());
    auto st = getConstantIntValue(step);
    if (lb && ub && st && *st > 0) {
      int64_t trips = *ub > *lb ? (*ub - *lb + *st - 1) / *st : 0;
      wholeTrips = trips % factor == 0;
    }
  }
  for (int64_t k = 1; k < factor; ++k) {
    Value offset = b.create<arith::MulIOp>(
        loc, step, b.create<arith::ConstantIndexOp>(loc, k));
    Value iv = b.create<arith::AddIOp>(loc, newLoop.getInductionVar(), offset);
    if (wholeTrips) {
      carried = cloneBody(b, loop, iv, carried, k);
      continue;
    }
    Value inside = b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::slt, iv,
                                           loop.getUpperBound());
    auto guard = b.create<scf::IfOp>(loc, TypeRange(ValueRange(carried)), inside,
                                     /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(guard.thenBlock());
      if (!guard.thenBlock()->empty() && isa<scf::YieldOp>(guard.thenBlock()->back()))
        guard.thenBlock()->back().erase();
      b.setInsertionPointToEnd(guard.thenBlock());
      SmallVector<Value> out = cloneBody(b, loop, iv, carried, k);
      b.create<scf::YieldOp>(loc, out);
      if (!guard.elseBlock()->empty() && isa<scf::YieldOp>(guard.elseBlock()->back()))
        guard.elseBlock()->back().erase();
      b.setInsertionPointToEnd(guard.elseBlock());
      b.create<scf::YieldOp>(loc, carried);
    }
    carried = SmallVector<Value>(guard.getResults());
  }
  b.create<scf::YieldOp>(loc, carried);
  loop.replaceAllUsesWith(newLoop.getResults());
  loop.erase();
}

struct UnrollLoopPass
    : public asc2::asctile::impl::AscTileUnrollLoopBase<UnrollLoopPass> {
  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) {
      if (unrollFactorOf(loop) > 1)
        loops.push_back(loop);
    });
    // Unrolled bodies multiply: a walk is post-order, so an inner loop is
    // unrolled (and counted) before the loop around it.
    int64_t kernelOps = countOps(getOperation());
    for (scf::ForOp loop : loops) {
      // Tiles carried around a loop flow through the guards' scf.if results;
      // the lowering supports that only for L0C accumulators updated in place.
      // The loop runs one trip at a time; the remark says so at its line.
      if (llvm::any_of(loop.getInitArgs(), [](Value v) {
            auto t = dyn_cast<TileType>(v.getType());
            return t && t.getLocation() != TileLocation::L0C;
          })) {
        mlir::emitRemark(loop.getLoc())
            << "unroll_factor=" << unrollFactorOf(loop)
            << " is not applied: the loop carries a tile from one trip to the next (a running "
               "value in UB), and asc2 unrolls only loops whose trips carry no tile or an L0C "
               "accumulator; it runs one trip at a time";
        continue;
      }
      int64_t factor = unrollFactorOf(loop);
      int64_t bodyOps = countOps(loop) - 1;
      int64_t grown = kernelOps + bodyOps * (factor - 1);
      if (grown > AscTileDialect::kMaxKernelOps) {
        loop.emitError() << "unrolling this loop " << factor
                         << " times grows the kernel to " << grown
                         << " operations (its body has " << bodyOps
                         << "), more than the " << AscTileDialect::kMaxKernelOps
                         << " a kernel may have: use a smaller unroll_factor";
        return signalPassFailure();
      }
      unroll(loop, factor);
      kernelOps = grown;
      ++numUnrolled;
    }
  }
};

} // namespace
