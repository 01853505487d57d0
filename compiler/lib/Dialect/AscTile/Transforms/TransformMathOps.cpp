//===- TransformMathOps.cpp - math without a vector instruction ------------===//
#include "asc2/Dialect/AscTile/Transforms/Passes.h"
#include "asc2/Dialect/AscTile/Transforms/TileBuilder.h"

#include "llvm/ADT/TypeSwitch.h"

#include <cmath>
#include <optional>

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

/// floor/ceil through an int32 cast with the matching rounding. A float whose
/// magnitude is at least 2^(mantissa bits) is an integer already, and the
/// cast would overflow int32 from 2^31 and turn NaN and +-Inf into numbers:
/// those (|x| < limit is false for NaN) pass through unchanged, as in numpy.
Value roundThroughInt(TileBuilder &t, OpBuilder &b, Location loc, Value x,
                      RoundMode mode) {
  auto type = cast<TileType>(x.getType());
  auto intType = TileType::get(b.getContext(), type.getShape(), b.getI32Type(),
                               type.getLocation());
  Value i = b.create<CastOp>(loc, intType, x, mode);
  Value rounded = b.create<CastOp>(loc, type, i, RoundMode::none);
  auto element = cast<FloatType>(type.getElementType());
  double limit = std::ldexp(1.0, element.getFPMantissaWidth() - 1);
  auto maskType = TileType::get(b.getContext(), type.getShape(), b.getI1Type(),
                                type.getLocation());
  Value small = b.create<CmpOp>(loc, maskType, CmpPredicate::lt, t.abs(x),
                                t.splat(type, limit));
  return b.create<SelectOp>(loc, type, small, rounded, x);
}

/// sin(x) = (-1)^k sin(r), r = x - k pi, k = rint(x / pi), |r| <= pi/2; sin(r)
/// by its Taylor series to r^11 (error below 6e-8 on that range). pi is split
/// in two so r stays accurate for large x (k * piHi is exact while k < 2^16:
/// |x| up to 2e5). `cosine`: cos(x) = sin(x + pi/2), with the pi/2 added to
/// the reduced r, not to x (x + pi/2 would round away up to ulp(x) / 2).
Value expandSin(TileBuilder &t, OpBuilder &b, Location loc, Value x,
                bool cosine = false) {
  TileType type = t.typeOf(x);
  auto intType = TileType::get(b.getContext(), type.getShape(), b.getI32Type(),
                               type.getLocation());
  Value scaled = t.mul(x, 1.0 / M_PI);
  if (cosine)
    scaled = t.add(scaled, 0.5);
  Value k = b.create<CastOp>(loc, intType, scaled, RoundMode::rint);
  Value kf = b.create<CastOp>(loc, type, k, RoundMode::none);
  const double piHi = 3.140625, piLo = M_PI - 3.140625;
  Value r = t.sub(t.sub(x, t.mul(kf, piHi)), t.mul(kf, piLo));
  if (cosine)
    r = t.add(r, M_PI_2);
  Value s = t.mul(r, r);
  Value p = t.add(t.mul(s, -1.0 / 39916800.0), 1.0 / 362880.0);
  p = t.add(t.mul(p, s), -1.0 / 5040.0);
  p = t.add(t.mul(p, s), 1.0 / 120.0);
  p = t.add(t.mul(p, s), -1.0 / 6.0);
  p = t.add(t.mul(p, s), 1.0);
  Value sinR = t.mul(r, p);
  // (-1)^k = 1 - 2 (k & 1)
  Value one = b.create<arith::ConstantOp>(loc, b.getI32IntegerAttr(1));
  Value odd = b.create<arith::AndIOp>(loc, k, b.create<SplatOp>(loc, intType, one));
  Value sign = t.add(t.mul(b.create<CastOp>(loc, type, odd, RoundMode::none), -2.0), 1.0);
  // + (x - x): 0 for finite x, NaN for +-Inf (whose reduction above gives +-Inf), as numpy's sin.
  return t.add(t.mul(sinR, sign), t.sub(x, x));
}

/// 1 + tanh(x) = 2 / (1 + e^{-2x}): the GELU shape, in four vector ops
/// instead of six. Rewrites the add; returns true when it did.
bool rewriteOnePlusTanh(math::TanhOp tanh) {
  if (!tanh->hasOneUse())
    return false;
  auto add = dyn_cast<arith::AddFOp>(*tanh->getUsers().begin());
  if (!add)
    return false;
  Value other = add.getLhs() == tanh.getResult() ? add.getRhs() : add.getLhs();
  if (splatConstant(other) != 1.0)
    return false;
  OpBuilder b(add);
  TileBuilder t(b, add.getLoc());
  Value x = tanh.getOperand();
  Value e = t.exp(t.mul(x, -2.0));
  Value r = t.div(t.splat(t.typeOf(x), 2.0), t.add(e, 1.0));
  add.getResult().replaceAllUsesWith(r);
  add->erase();
  tanh->erase();
  return true;
}

struct TransformMathOpsPass
    : public asc2::asctile::impl::AscTileTransformMathOpsBase<TransformMathOpsPass> {
  using AscTileTransformMathOpsBase::AscTileTransformMathOpsBase;
  void runOnOperation() override {
    SmallVector<math::TanhOp> tanhs;
    getOperation().walk([&](math::TanhOp op) {
      if (isa<TileType>(op.getType()))
        tanhs.push_back(op);
    });
    for (math::TanhOp op : tanhs)
      (void)rewriteOnePlusTanh(op);

    SmallVector<Operation *> ops;
    getOperation().walk([&](Operation *op) {
      if (op->getNumResults() == 1 && isa<TileType>(op->getResult(0).getType()) &&
          isa<math::TanhOp, math::SinhOp, math::CoshOp, math::ErfOp, math::Exp2Op,
              math::Log2Op, math::FloorOp, math::CeilOp, math::SinOp,
              math::CosOp, math::TanOp>(op) &&
          !(keepErf && isa<math::ErfOp>(op)))
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
                    .Case<math::SinOp>([&](auto) { return expandSin(t, b, loc, x); })
                    .Case<math::CosOp>([&](auto) {
                      return expandSin(t, b, loc, x, /*cosine=*/true);
                    })
                    .Case<math::TanOp>([&](auto) {
                      return t.div(expandSin(t, b, loc, x),
                                   expandSin(t, b, loc, x, /*cosine=*/true));
                    })
                    .Case<math::Exp2Op>([&](auto) { return t.exp(t.mul(x, M_LN2)); })
                    .Case<math::Log2Op>([&](auto) { return t.mul(t.log(x), 1.0 / M_LN2); })
                    .Case<math::FloorOp>([&](auto) {
                      return roundThroughInt(t, b, loc, x, RoundMode::floor);
                    })
                    .Case<math::CeilOp>([&](auto) {
                      return roundThroughInt(t, b, loc, x, RoundMode::ceil);
                    });
      op->getResult(0).replaceAllUsesWith(r);
      op->erase();
    }
  }
};

} // namespace
