//===- Elementwise.cpp - arith/math on tiles, cast, compare, select --------===//
//
// One vector op per arith/math op (the ascendc ops' lowersFrom, AscendCVectorOps.td);
// an operand made by asctile.splat becomes the scalar of the op's scalar form
// (Adds, Muls, ...) and gets a buffer only when an op needs one. Each op here may compute
// under the asctile.mask fused into it (Masks.cpp).
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/TypeSwitch.h"

namespace asc2::asctile_to_ascendc {

FamilyResult Lowering::lowerElementwiseFamily(Operation *op) {
  return llvm::TypeSwitch<Operation *, FamilyResult>(op)
      .Case<at::SplatOp>([&](at::SplatOp s) {
        if (Value one = reducedScalars.lookup(s.getValue()))
          bufferSplats[s.getResult()] = one;
        else
          splats[s.getResult()] = s.getValue();
        return success();
      })
      .Case<at::CastOp>([&](at::CastOp c) { return lowerCast(c); })
      .Case<at::CmpOp>([&](at::CmpOp c) { return lowerCmp(c); })
      .Case<at::SelectOp>([&](at::SelectOp s) { return lowerSelect(s); })
      .Default([](Operation *) { return std::nullopt; });
}

LogicalResult Lowering::lowerElementwise(Operation *op) {
  auto tile = cast<at::TileType>(op->getResult(0).getType());
  builder.setInsertionPoint(op);
  Location loc = op->getLoc();
  StringRef base = op->getName().stripDialect();
  Value count, result;
  at::MaskOp mask;
  SmallVector<Value, 2> bits;
  // The result buffer, prefilled with the mask's `other` when masked.
  auto newResult = [&]() {
    result = newBuffer(loc, tile, positionFor(tile.getLocation()), base);
    MaskArgs m = laneArgs(op, result, tile, mask);
    count = m.count;
    bits = m.bits;
  };

  auto binary = [&](auto vecTag, auto scalarTag) -> LogicalResult {
    using VecT = decltype(vecTag);
    using ScalarT = decltype(scalarTag);
    Value lhs = op->getOperand(0), rhs = op->getOperand(1);
    Value ls = splatScalar(lhs), rs = splatScalar(rhs);
    if (rs && !ls) {
      auto src = bufferOf(op, lhs);
      if (failed(src))
        return failure();
      newResult();
      markCounter(builder.create<ScalarT>(loc, result, *src, rs, count, false, bits), mask);
    } else if (ls && !rs) {
      auto src = bufferOf(op, rhs);
      if (failed(src))
        return failure();
      newResult();
      markCounter(builder.create<ScalarT>(loc, result, *src, ls, count, true, bits), mask);
    } else {
      auto a = bufferOf(op, lhs);
      auto b = bufferOf(op, rhs);
      if (failed(a) || failed(b))
        return failure();
      newResult();
      markCounter(builder.create<VecT>(loc, result, *a, *b, count, bits), mask);
    }
    return success();
  };
  auto unary = [&](auto tag) -> LogicalResult {
    using OpT = decltype(tag);
    auto src = bufferOf(op, op->getOperand(0));
    if (failed(src))
      return failure();
    newResult();
    markCounter(builder.create<OpT>(loc, result, *src, count, bits), mask);
    return success();
  };

  LogicalResult status =
      llvm::TypeSwitch<Operation *, LogicalResult>(op)
      // Which ascendc op each arith/math op becomes: the ops' `lowersFrom`
      // (AscendCVectorOps.td).
#define ASC2_LOWER_BINARY(SourceOp, Op, ScalarForm)                            \
  .Case<SourceOp>([&](auto) { return binary(ac::Op(), ac::ScalarForm()); })
#define ASC2_LOWER_UNARY(SourceOp, Op)                                         \
  .Case<SourceOp>([&](auto) { return unary(ac::Op()); })
#include "asc2/Dialect/AscendC/IR/AscendCVecOpDispatch.inc"
          .Default([&](Operation *o) {
            return o->emitOpError()
                   << "on tiles is not supported by the ascendc lowering yet";
          });
  if (failed(status))
    return failure();
  setMaskedResult(op->getResult(0), result, mask);
  return success();
}

LogicalResult Lowering::lowerCast(at::CastOp c) {
  if (c.getSource().getType().getLocation() == at::TileLocation::L0C)
    return foldL0CElementwise(c);
  builder.setInsertionPoint(c);
  auto src = bufferOf(c, c.getSource());
  if (failed(src))
    return failure();
  auto t = c.getResult().getType();
  Value dst = newBuffer(c.getLoc(), t, positionFor(t.getLocation()), "cast");
  at::MaskOp mask;
  MaskArgs m = laneArgs(c, dst, t, mask);
  markCounter(builder.create<ac::CastOp>(c.getLoc(), dst, *src, m.count,
                                         static_cast<ac::RoundMode>(c.getRoundMode()),
                                         m.bits),
              mask);
  setMaskedResult(c.getResult(), dst, mask);
  return success();
}

LogicalResult Lowering::lowerCmp(at::CmpOp c) {
  builder.setInsertionPoint(c);
  auto lhs = bufferOf(c, c.getLhs());
  if (failed(lhs))
    return failure();
  Value rhs = splatScalar(c.getRhs());
  if (!rhs) {
    auto b = bufferOf(c, c.getRhs());
    if (failed(b))
      return failure();
    rhs = *b;
  }
  auto t = c.getResult().getType();
  Value dst = newBuffer(c.getLoc(), t, ac::Position::VECCALC, "mask");
  at::MaskOp mask;
  MaskArgs m = laneArgs(c, dst, t, mask);
  markCounter(builder.create<ac::CompareOp>(c.getLoc(),
                                            static_cast<ac::CmpMode>(c.getPredicate()),
                                            dst, *lhs, rhs, m.count, m.bits),
              mask);
  setMaskedResult(c.getResult(), dst, mask);
  return success();
}

LogicalResult Lowering::lowerSelect(at::SelectOp s) {
  builder.setInsertionPoint(s);
  auto mask = bufferOf(s, s.getMask());
  auto tv = bufferOf(s, s.getTrueValue());
  if (failed(mask) || failed(tv))
    return failure();
  Value fv = splatScalar(s.getFalseValue());
  if (!fv) {
    auto b = bufferOf(s, s.getFalseValue());
    if (failed(b))
      return failure();
    fv = *b;
  }
  auto t = s.getResult().getType();
  Value dst = newBuffer(s.getLoc(), t, positionFor(t.getLocation()), "select");
  at::MaskOp laneMask;
  MaskArgs m = laneArgs(s, dst, t, laneMask);
  markCounter(builder.create<ac::SelectOp>(s.getLoc(), dst, *mask, *tv, fv, m.count,
                                           m.bits),
              laneMask);
  setMaskedResult(s.getResult(), dst, laneMask);
  return success();
}

} // namespace asc2::asctile_to_ascendc
