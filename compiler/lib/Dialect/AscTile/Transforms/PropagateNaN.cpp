//===- PropagateNaN.cpp - numpy's NaN rule for tile maximum/minimum -------===//
//
// arith.maximumf/minimumf return NaN when either operand is NaN (numpy's
// np.maximum/np.minimum, asc2.maximum/minimum/relu). The vector unit's
// Max/Min (and Maxs/Mins) make no such promise: Huawei's API reference
// (asc-devkit docs/zh/api/SIMD-API/基础API/Memory矢量计算/基础算术/Max.md)
// says nothing about NaN, and the simulator, like a compare-and-pick
// instruction, returns one of the operands. So each UB tile maximumf/minimumf
// becomes the NaN-agnostic maxnumf/minnumf (Max/Min) followed by, per operand
// that can be NaN, Compare(x != x) + Select(x): the sequence a careful Ascend
// C programmer writes, identical on the simulator, the CPU twin and an NPU.
// An operand that is a splat of a non-NaN constant (relu's 0) needs none.
//
// It runs after row batching and multi-buffering (which know maximumf but
// not the compare/select pair) and just before the lowering to Ascend C.
//
//===----------------------------------------------------------------------===//
#include "asc2/Dialect/AscTile/Transforms/Passes.h"
#include "asc2/Dialect/AscTile/Transforms/TileBuilder.h"

#include <cmath>

namespace asc2::asctile {
#define GEN_PASS_DEF_ASCTILEPROPAGATENAN
#include "asc2/Dialect/AscTile/Transforms/Passes.h.inc"
} // namespace asc2::asctile

using namespace mlir;
using namespace asc2::asctile;

namespace {

bool mayBeNaN(Value v) {
  std::optional<double> c = splatConstant(v);
  return !c || std::isnan(*c);
}

template <typename NaNAgnosticOp>
void rewrite(Operation *op) {
  auto type = cast<TileType>(op->getResult(0).getType());
  OpBuilder b(op);
  Location loc = op->getLoc();
  Value lhs = op->getOperand(0), rhs = op->getOperand(1);
  Value r = b.create<NaNAgnosticOp>(loc, lhs, rhs);
  auto maskType = TileType::get(b.getContext(), type.getShape(), b.getI1Type(),
                                type.getLocation());
  for (Value x : {rhs, lhs}) {
    if (!mayBeNaN(x))
      continue;
    Value nan = b.create<CmpOp>(loc, maskType, CmpPredicate::ne, x, x);
    r = b.create<SelectOp>(loc, type, nan, x, r);
  }
  op->getResult(0).replaceAllUsesWith(r);
  op->erase();
}

struct PropagateNaNPass
    : public asc2::asctile::impl::AscTilePropagateNaNBase<PropagateNaNPass> {
  void runOnOperation() override {
    SmallVector<Operation *> ops;
    getOperation().walk([&](Operation *op) {
      if (!isa<arith::MaximumFOp, arith::MinimumFOp>(op))
        return;
      auto tile = dyn_cast<TileType>(op->getResult(0).getType());
      if (tile && tile.getLocation() == TileLocation::UB)
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      if (isa<arith::MaximumFOp>(op))
        rewrite<arith::MaxNumFOp>(op);
      else
        rewrite<arith::MinNumFOp>(op);
    }
  }
};

} // namespace
