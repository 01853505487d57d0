//===- LowerScalarMath.cpp - math on scalars the scalar unit can run -----===//
//
// The AI core's scalar unit has float add/sub/mul/div, compares, casts, and
// Ascend C's AscendC::Std::sqrt / Std::abs (utils/std/cmath.h), nothing
// else. A kernel that computes `1 / asc2.sqrt(mean + eps)`, `asc2.exp(s)` or
// `s // 2.0` on a scalar (a reduced value, a float argument) needs the rest:
//
//   sqrt, absf      stay scalar (Std::sqrt, Std::abs)
//   rsqrt           1 / sqrt(x)
//   floor, ceil     through int64 (fptosi truncates), exact; |x| >= 2^mantissa
//                   (integers already), NaN and +-Inf pass through unchanged
//   everything else (exp, log, erf, tanh, sin, ...) runs on one vector block:
//                   the scalar duplicated into a 32-byte tile, the tile op
//                   (expanded by asctile-transform-math-ops where the vector
//                   unit has no instruction), the block's max read back
//                   (every element is the same value)
//
//===----------------------------------------------------------------------===//
#include "asc2/Dialect/AscTile/Transforms/Passes.h"
#include "asc2/Dialect/AscTile/Transforms/TileBuilder.h"

#include <cmath>

#define DEBUG_TYPE "asctile-lower-scalar-math"

namespace asc2::asctile {
#define GEN_PASS_DEF_ASCTILELOWERSCALARMATH
#include "asc2/Dialect/AscTile/Transforms/Passes.h.inc"
} // namespace asc2::asctile

using namespace mlir;
using namespace asc2::asctile;

namespace {

/// floor (`up` false) or ceil of a scalar float, through a truncating cast.
Value roundScalar(OpBuilder &b, Location loc, Value x, bool up) {
  auto type = cast<FloatType>(x.getType());
  Value i = b.create<arith::FPToSIOp>(loc, b.getI64Type(), x);
  Value t = b.create<arith::SIToFPOp>(loc, type, i);
  Value one = b.create<arith::ConstantOp>(loc, b.getFloatAttr(type, 1.0));
  // Truncation moved toward zero: floor of a negative non-integer is one
  // lower, ceil of a positive one is one higher.
  Value off = b.create<arith::CmpFOp>(loc, up ? arith::CmpFPredicate::OLT
                                              : arith::CmpFPredicate::OGT,
                                      t, x);
  Value adjusted = up ? Value(b.create<arith::AddFOp>(loc, t, one))
                      : Value(b.create<arith::SubFOp>(loc, t, one));
  Value rounded = b.create<arith::SelectOp>(loc, off, adjusted, t);
  double limit = std::ldexp(1.0, type.getFPMantissaWidth() - 1);
  Value small = b.create<arith::CmpFOp>(
      loc, arith::CmpFPredicate::OLT, b.create<math::AbsFOp>(loc, x),
      b.create<arith::ConstantOp>(loc, b.getFloatAttr(type, limit)));
  return b.create<arith::SelectOp>(loc, small, rounded, x);
}

/// `op` (a unary math op on a scalar) computed on one vector block.
Value onVectorBlock(OpBuilder &b, Operation *op) {
  Location loc = op->getLoc();
  auto type = cast<FloatType>(op->getResult(0).getType());
  int64_t lanes = 32 / (type.getWidth() / 8);
  auto tile = TileType::get(b.getContext(), {lanes}, type, TileLocation::UB);
  Value block = b.create<SplatOp>(loc, tile, op->getOperand(0));
  OperationState state(loc, op->getName());
  state.addOperands(block);
  state.addTypes(tile);
  state.addAttributes(op->getAttrs());
  Value r = b.create(state)->getResult(0);
  return b.create<ReduceOp>(loc, type, ReduceKind::max, r, b.getDenseI64ArrayAttr({0}),
                            /*keep_dims=*/false);
}

struct LowerScalarMathPass
    : public asc2::asctile::impl::AscTileLowerScalarMathBase<LowerScalarMathPass> {
  void runOnOperation() override {
    SmallVector<Operation *> ops;
    getOperation().walk([&](Operation *op) {
      if (op->getDialect() && op->getDialect()->getNamespace() == "math" &&
          op->getNumOperands() == 1 && op->getNumResults() == 1 &&
          isa<FloatType>(op->getResult(0).getType()) &&
          !isa<math::SqrtOp, math::AbsFOp>(op))
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      OpBuilder b(op);
      Location loc = op->getLoc();
      Value x = op->getOperand(0);
      Value r;
      if (isa<math::RsqrtOp>(op)) {
        Value one = b.create<arith::ConstantOp>(loc, b.getFloatAttr(x.getType(), 1.0));
        r = b.create<arith::DivFOp>(loc, one, b.create<math::SqrtOp>(loc, x));
      } else if (isa<math::FloorOp>(op)) {
        r = roundScalar(b, loc, x, /*up=*/false);
      } else if (isa<math::CeilOp>(op)) {
        r = roundScalar(b, loc, x, /*up=*/true);
      } else {
        r = onVectorBlock(b, op);
      }
      op->getResult(0).replaceAllUsesWith(r);
      op->erase();
    }
  }
};

} // namespace
