//===- ExpandFusedOps.cpp - softmax / rms_norm / layer_norm ----------------===//
#include "asc2/Dialect/AscTile/Transforms/Passes.h"
#include "asc2/Dialect/AscTile/Transforms/TileBuilder.h"

#define DEBUG_TYPE "asctile-expand-fused-ops"

namespace asc2::asctile {
#define GEN_PASS_DEF_ASCTILEEXPANDFUSEDOPS
#include "asc2/Dialect/AscTile/Transforms/Passes.h.inc"
} // namespace asc2::asctile

using namespace mlir;
using namespace asc2::asctile;

namespace {

Value expandSoftmax(TileBuilder &t, SoftmaxOp op) {
  Value x = op.getSource();
  Value shifted = t.sub(x, t.broadcastLike(t.reduceLast(ReduceKind::max, x), x));
  Value e = t.exp(shifted);
  return t.div(e, t.broadcastLike(t.reduceLast(ReduceKind::sum, e), e));
}

Value expandRmsNorm(TileBuilder &t, RmsNormOp op) {
  Value x = op.getSource();
  double n = t.typeOf(x).getShape().back();
  Value meanSq = t.mul(t.reduceLast(ReduceKind::sum, t.mul(x, x)), 1.0 / n);
  Value scale = t.rsqrt(t.add(meanSq, op.getEps().convertToDouble()));
  Value y = t.mul(x, t.broadcastLike(scale, x));
  return t.mul(y, t.broadcastLike(op.getGamma(), x));
}

Value expandLayerNorm(TileBuilder &t, LayerNormOp op) {
  Value x = op.getSource();
  double n = t.typeOf(x).getShape().back();
  Value mean = t.mul(t.reduceLast(ReduceKind::sum, x), 1.0 / n);
  Value centered = t.sub(x, t.broadcastLike(mean, x));
  Value var = t.mul(t.reduceLast(ReduceKind::sum, t.mul(centered, centered)), 1.0 / n);
  Value scale = t.rsqrt(t.add(var, op.getEps().convertToDouble()));
  Value y = t.mul(centered, t.broadcastLike(scale, x));
  y = t.mul(y, t.broadcastLike(op.getGamma(), x));
  return t.add(y, t.broadcastLike(op.getBeta(), x));
}

struct ExpandFusedOpsPass
    : public asc2::asctile::impl::AscTileExpandFusedOpsBase<ExpandFusedOpsPass> {
  void runOnOperation() override {
    SmallVector<Operation *> fused;
    getOperation().walk([&](Operation *op) {
      if (isa<SoftmaxOp, RmsNormOp, LayerNormOp>(op))
        fused.push_back(op);
    });
    for (Operation *op : fused) {
      OpBuilder b(op);
      TileBuilder t(b, op->getLoc());
      Value result;
      if (auto s = dyn_cast<SoftmaxOp>(op))
        result = expandSoftmax(t, s);
      else if (auto r = dyn_cast<RmsNormOp>(op))
        result = expandRmsNorm(t, r);
      else
        result = expandLayerNorm(t, cast<LayerNormOp>(op));
      op->getResult(0).replaceAllUsesWith(result);
      op->erase();
    }
  }
};

} // namespace
