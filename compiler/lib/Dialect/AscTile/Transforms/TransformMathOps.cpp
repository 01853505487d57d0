//===- TransformMathOps.cpp - math without a vector instruction ------------===//
#include "asc2/Dialect/AscTile/Transforms/Passes.h"
#include "asc2/Dialect/AscTile/Transforms/TileBuilder.h"

#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

#define DEBUG_TYPE "asctile-transform-math-ops"

namespace asc2::asctile {
#define GEN_PASS_DEF_ASCTILETRANSFORMMATHOPS
#include "asc2/Dialect/AscTile/Transforms/Passes.h.inc"
} // namespace asc2::asctile

using namespace mlir;
using namespace asc2::asctile;

namespace {

/// erf(x) = sign(x) (1 - poly(t) e^{-x^2}), t = 1 / (1 + p|x|)  (A&S 7.1.26)
Value expandErf(TileBuilder &t, OpBuilder &b, Location loc, Value x) {
  const double p = 0.3275911, a1 = 0.254829592, a2 = -0.284496736,
               a3 = 1.421413741, a4 = -1.453152027, a5 = 1.061405429;
  Value ax = t.abs(x);
  Value tt = t.div(t.splat(t.typeOf(x), 1.0), t.add(t.mul(ax, p), 1.0));
  Value poly = t.add(t.mul(tt, a5), a4);
  poly = t.add(t.mul(poly, tt), a3);
  poly = t.add(t.mul(poly, tt), a2);
  poly = t.add(t.mul(poly, tt), a1);
  poly = t.mul(poly, tt);
  Value y = t.sub(t.splat(t.typeOf(x), 1.0), t.mul(poly, t.exp(t.mul(t.mul(x, x), -1.0))));
  TileType type = t.typeOf(x);
  auto maskType = TileType::get(b.getContext(), type.getShape(),
                                b.getI1Type(), type.getLocation());
  Value negative = b.create<CmpOp>(loc, maskType, CmpPredicate::lt, x,
                                   t.splat(type, 0.0));
  return b.create<SelectOp>(loc, type, negative, t.mul(y, -1.0), y);
}

/// floor/ceil through an int32 cast with the matching rounding.
Value roundThroughInt(OpBuilder &b, Location loc, Value x, RoundMode mode) {
  auto type = cast<TileType>(x.getType());
  auto intType = TileType::get(b.getContext(), type.getShape(), b.getI32Type(),
                               type.getLocation());
  Value i = b.create<CastOp>(loc, intType, x, mode);
  return b.create<CastOp>(loc, type, i, RoundMode::none);
}

struct TransformMathOpsPass
    : public asc2::asctile::impl::AscTileTransformMathOpsBase<TransformMathOpsPass> {
  void runOnOperation() override {
    SmallVector<Operation *> ops;
    getOperation().walk([&](Operation *op) {
      if (op->getNumResults() == 1 && isa<TileType>(op->getResult(0).getType()) &&
          isa<math::TanhOp, math::SinhOp, math::CoshOp, math::ErfOp, math::Exp2Op,
              math::Log2Op, math::FloorOp, math::CeilOp>(op))
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      OpBuilder b(op);
      Location loc = op->getLoc();
      TileBuilder t(b, loc);
      Value x = op->getOperand(0);
      Value r = llvm::TypeSwitch<Operation *, Value>(op)
                    .Case<math::TanhOp>([&](auto) {
                      // 1 - 2 / (e^{2x} + 1): saturates to +-1 without NaN.
                      Value e = t.exp(t.mul(x, 2.0));
                      return t.sub(t.splat(t.typeOf(x), 1.0),
                                   t.div(t.splat(t.typeOf(x), 2.0), t.add(e, 1.0)));
                    })
                    .Case<math::SinhOp>([&](auto) {
                      return t.mul(t.sub(t.exp(x), t.exp(t.mul(x, -1.0))), 0.5);
                    })
                    .Case<math::CoshOp>([&](auto) {
                      return t.mul(t.add(t.exp(x), t.exp(t.mul(x, -1.0))), 0.5);
                    })
                    .Case<math::ErfOp>([&](auto) { return expandErf(t, b, loc, x); })
                    .Case<math::Exp2Op>([&](auto) { return t.exp(t.mul(x, M_LN2)); })
                    .Case<math::Log2Op>([&](auto) { return t.mul(t.log(x), 1.0 / M_LN2); })
                    .Case<math::FloorOp>([&](auto) {
                      return roundThroughInt(b, loc, x, RoundMode::floor);
                    })
                    .Case<math::CeilOp>([&](auto) {
                      return roundThroughInt(b, loc, x, RoundMode::ceil);
                    });
      op->getResult(0).replaceAllUsesWith(r);
      op->erase();
    }
  }
};

} // namespace
