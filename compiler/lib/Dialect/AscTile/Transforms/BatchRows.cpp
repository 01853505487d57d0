//===- BatchRows.cpp - k rows per trip for row-parallel loops --------------===//
//
// A kernel that walks the rows of a tensor one [1, N] tile at a time
//
//   for row in asc2.range(asc2.block_idx(), rows, asc2.block_num(), parallel=True):
//       x = asc2.copy_in(x_gm, [row, 0], [1, N]); ...; asc2.copy_out(y, out_gm, [row, 0])
//
// pays every vector instruction and every DMA once per row. The rows are
// independent (parallel=True), so which core takes which row is free: the
// loop is rewritten to take k consecutive rows per trip,
//
//   for row0 in range(block_idx * k, rows, block_num * k): [k, N] tiles
//
// (the loads and stores clamp the last block at the tensor's extent). Row
// values become [k, N] tiles; reductions of a row to a scalar become
// per-row [k, 1] reductions; scalar arithmetic on them becomes [k, 1] tile
// arithmetic; splats of them become broadcasts. Anything else in the body
// (index arithmetic on the row, scalar stores, nested control flow) leaves
// the loop as it is. k: the largest power of two up to `max-rows` (8) whose
// loaded rows plus two working tiles, two copies of each, fit the UB; when
// planning overflows after all, the driver compiles again without.
//
//===----------------------------------------------------------------------===//
#include "asc2/Support/PassOptions.h"
#include "asc2/Dialect/AscTile/Transforms/Passes.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/IRMapping.h"

#define DEBUG_TYPE "asctile-batch-rows"

namespace asc2::asctile {
#define GEN_PASS_DEF_ASCTILEBATCHROWS
#include "asc2/Dialect/AscTile/Transforms/Passes.h.inc"
} // namespace asc2::asctile

using namespace mlir;
using namespace asc2::asctile;

namespace {

bool isRowTile(Type t, int64_t cols) {
  auto tile = dyn_cast<TileType>(t);
  return tile && tile.getLocation() == TileLocation::UB && tile.getRank() == 2 &&
         tile.getShape()[0] == 1 && (cols < 0 || tile.getShape()[1] == cols);
}

bool isZero(Value v) {
  auto c = v.getDefiningOp<arith::ConstantIndexOp>();
  return c && c.value() == 0;
}

/// The tensor's extent along dimension 0 is `extent`.
bool rowsAre(Value tensor, Value extent) {
  auto def = tensor.getDefiningOp<TensorOp>();
  if (!def)
    return false;
  auto type = def.getResult().getType();
  return type.getShape()[0] == ShapedType::kDynamic && !def.getDynamicDims().empty() &&
         def.getDynamicDims()[0] == extent;
}

struct Batcher {
  scf::ForOp loop;
  int64_t k = 1;
  IRMapping map;
  /// Old scalar values that are per-row: now [k, 1] tiles.
  llvm::DenseSet<Value> rowScalars;

  TileType widen(TileType t) {
    SmallVector<int64_t> shape(t.getShape());
    shape[0] = k;
    return TileType::get(t.getContext(), shape, t.getElementType(), t.getLocation());
  }
  TileType column(Type elem) {
    return TileType::get(loop.getContext(), {k, 1}, elem, TileLocation::UB);
  }

  /// Whether the body can be batched; its loads and their largest row.
  bool check(int64_t &loaded, int64_t &rowBytes) {
    Value iv = loop.getInductionVar();
    if (!loop.getLowerBound().getDefiningOp<BlockIdxOp>() ||
        !loop.getStep().getDefiningOp<BlockNumOp>() || loop.getNumResults() != 0)
      return false;
    auto parallel = loop->getAttrOfType<BoolAttr>("asctile.parallel");
    auto unroll = loop->getAttrOfType<IntegerAttr>("asctile.unroll_factor");
    if (!parallel || !parallel.getValue() || (unroll && unroll.getInt() > 1))
      return false;
    int64_t cols = -1;
    loaded = rowBytes = 0;
    for (Operation &op : loop.getBody()->without_terminator()) {
      if (op.getNumRegions() != 0)
        return false;
      if (isa<arith::ConstantOp>(op))
        continue;
      for (Value v : op.getOperands())
        if (v == iv && !isa<LoadOp, StoreOp>(op))
          return false;
      if (auto load = dyn_cast<LoadOp>(op)) {
        if (!load.getRealShape().empty() || load.getOffsets().size() != 2 ||
            load.getOffsets()[0] != iv || !isZero(load.getOffsets()[1]) ||
            !rowsAre(load.getTensor(), loop.getUpperBound()) ||
            !isRowTile(load.getType(), cols))
          return false;
        cols = load.getType().getShape()[1];
        ++loaded;
        rowBytes = std::max<int64_t>(rowBytes, (load.getType().getSizeInBytes() + 31) / 32 * 32);
        continue;
      }
      if (auto store = dyn_cast<StoreOp>(op)) {
        if (!store.getRealShape().empty() || store.getOffsets().size() != 2 ||
            store.getOffsets()[0] != iv || !isZero(store.getOffsets()[1]) ||
            !rowsAre(store.getTensor(), loop.getUpperBound()) ||
            !isRowTile(store.getValue().getType(), cols))
          return false;
        continue;
      }
      if (auto reduce = dyn_cast<ReduceOp>(op)) {
        auto src = reduce.getSource().getType();
        if (!isRowTile(src, cols))
          return false;
        bool full = reduce.getDims().size() == 2 && !reduce.getKeepDims();
        bool rowwise = reduce.getDims().size() == 1 && reduce.getDims()[0] == 1 &&
                       reduce.getKeepDims();
        if (!full && !rowwise)
          return false;
        continue;
      }
      bool elementwise = isa<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::DivFOp,
                             arith::MaximumFOp, arith::MinimumFOp, arith::NegFOp,
                             math::ExpOp, math::LogOp, math::SqrtOp, math::RsqrtOp,
                             math::AbsFOp, SplatOp, BroadcastOp>(op);
      if (!elementwise || op.getNumResults() != 1)
        return false;
      Type t = op.getResult(0).getType();
      if (auto tile = dyn_cast<TileType>(t)) {
        if (tile.getLocation() != TileLocation::UB || tile.getRank() != 2 ||
            tile.getShape()[0] != 1)
          return false;
      } else if (!isa<FloatType>(t)) {
        return false;
      }
    }
    return loaded > 0;
  }

  /// The new value of an old operand: mapped inside the loop, else as is.
  Value lookup(Value v) { return map.lookupOrDefault(v); }

  scf::ForOp batched;

  /// `v` (new) as a tile of `type` (new): broadcast [k,1]/[1,N] or splat;
  /// before the loop when `v` is loop-invariant (once, not every trip).
  Value asTile(OpBuilder &b, Location loc, Value v, TileType type) {
    if (v.getType() == type)
      return v;
    OpBuilder::InsertionGuard guard(b);
    if (!batched->isAncestor(v.getParentRegion()->getParentOp()))
      b.setInsertionPoint(batched);
    if (isa<TileType>(v.getType()))
      return b.create<BroadcastOp>(loc, type, v);
    return b.create<SplatOp>(loc, type, v);
  }

  LogicalResult rewrite() {
    OpBuilder b(loop);
    Location loc = loop.getLoc();
    Value kc = b.create<arith::ConstantIndexOp>(loc, k);
    Value lb = b.create<arith::MulIOp>(loc, loop.getLowerBound(), kc);
    Value step = b.create<arith::MulIOp>(loc, loop.getStep(), kc);
    batched = b.create<scf::ForOp>(loc, lb, loop.getUpperBound(), step);
    batched->setAttrs(loop->getAttrs());
    batched->setAttr("asctile.rows_per_trip", b.getI64IntegerAttr(k));
    map.map(loop.getInductionVar(), batched.getInductionVar());
    b.setInsertionPointToStart(batched.getBody());
    for (Operation &op : loop.getBody()->without_terminator()) {
      Location l = op.getLoc();
      if (isa<arith::ConstantOp>(op)) {
        b.clone(op, map);
        continue;
      }
      if (auto load = dyn_cast<LoadOp>(op)) {
        Operation *c = b.clone(op, map);
        c->getResult(0).setType(widen(load.getType()));
        continue;
      }
      if (isa<StoreOp>(op)) {
        b.clone(op, map);
        continue;
      }
      if (auto reduce = dyn_cast<ReduceOp>(op)) {
        Value src = lookup(reduce.getSource());
        Type elem = reduce.getSource().getType().getElementType();
        auto r = b.create<ReduceOp>(l, column(elem), reduce.getKind(), src,
                                    b.getDenseI64ArrayAttr({1}), /*keep_dims=*/true);
        map.map(reduce.getResult(), r.getResult());
        if (!isa<TileType>(reduce.getType()))
          rowScalars.insert(reduce.getResult());
        continue;
      }
      if (auto splat = dyn_cast<SplatOp>(op)) {
        TileType t = widen(splat.getType());
        map.map(splat.getResult(), asTile(b, l, lookup(splat.getValue()), t));
        continue;
      }
      if (auto bc = dyn_cast<BroadcastOp>(op)) {
        TileType t = widen(bc.getType());
        map.map(bc.getResult(), asTile(b, l, lookup(bc.getSource()), t));
        continue;
      }
      // Elementwise on tiles or on scalars; per-row scalars become [k, 1].
      Value result = op.getResult(0);
      TileType type;
      if (auto tile = dyn_cast<TileType>(result.getType())) {
        type = widen(tile);
      } else if (llvm::any_of(op.getOperands(),
                              [&](Value v) { return rowScalars.count(v); })) {
        type = column(result.getType());
        rowScalars.insert(result);
      } else {
        b.clone(op, map); // scalar arithmetic on loop-invariant values
        continue;
      }
      // Operands of a tile op: same shape, or [k, 1] columns stretched.
      SmallVector<Value> operands;
      for (Value v : op.getOperands()) {
        Value n = lookup(v);
        operands.push_back(asTile(b, l, n, type)); // e.g. a loop-invariant [1, N] row
      }
      Operation *c = b.clone(op, map);
      c->setOperands(operands);
      c->getResult(0).setType(type);
      map.map(result, c->getResult(0));
    }
    loop->erase();
    return success();
  }
};

struct BatchRowsPass : public asc2::asctile::impl::AscTileBatchRowsBase<BatchRowsPass> {
  using AscTileBatchRowsBase::AscTileBatchRowsBase;

  void runOnOperation() override {
    if (failed(asc2::checkOption(getOperation(), "asctile-batch-rows", "max-rows", maxRows, 1)) ||
        failed(asc2::checkOption(getOperation(), "asctile-batch-rows", "ub-capacity", ubCapacity, 0)))
      return signalPassFailure();
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) { loops.push_back(loop); });
    for (scf::ForOp loop : loops) {
      Batcher batcher{loop};
      int64_t loaded = 0, rowBytes = 0;
      if (!batcher.check(loaded, rowBytes))
        continue;
      // Per copy the loaded rows and two working tiles (elementwise chains
      // run in place), two copies for ping-pong, within the UB; the driver
      // compiles again without batching when planning overflows.
      int64_t k = 1;
      while (2 * k <= maxRows &&
             2 * (loaded + 2) * (2 * k) * rowBytes <= ubCapacity)
        k *= 2;
      if (k == 1)
        continue;
      batcher.k = k;
      (void)batcher.rewrite();
    }
  }
};

} // namespace
