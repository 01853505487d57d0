//===- Masks.cpp - asctile.mask: fused into its producer, or applied after -===//
//
// A mask whose value's producer is maskable and used only by it is fused: the
// producer computes the selected lanes (a clamped count, or lane bits) into a
// buffer prefilled with `other`. Any other mask copies the selected lanes of
// the value after the fact.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

#include "llvm/ADT/TypeSwitch.h"

namespace asc2::asctile_to_ascendc {

FamilyResult Lowering::lowerMaskFamily(Operation *op) {
  return llvm::TypeSwitch<Operation *, FamilyResult>(op)
      .Case<at::MaskOp>([&](at::MaskOp m) -> LogicalResult {
        if (fusedMasks.contains(m))
          return success();
        return lowerMask(m);
      })
      .Default([](Operation *) { return std::nullopt; });
}

/// Whether `v` is available at `op` (defined before it in its block, or in an
/// enclosing block).
static bool availableAt(Value v, Operation *op) {
  Operation *ancestor = v.getParentBlock()->findAncestorOpInBlock(*op);
  if (!ancestor)
    return false;
  Operation *def = v.getDefiningOp();
  return !def || def->isBeforeInBlock(ancestor);
}

/// Ops the lowering computes with a count or bit mask of their own.
static bool isMaskableOp(Operation *op) {
  if (isa<at::CastOp, at::CmpOp, at::SelectOp>(op))
    return true;
  StringRef dialect = op->getDialect() ? op->getDialect()->getNamespace() : "";
  if (dialect != "arith" && dialect != "math")
    return false;
  auto t = op->getNumResults() == 1 ? dyn_cast<at::TileType>(op->getResult(0).getType())
                                    : at::TileType();
  return t && t.getLocation() == at::TileLocation::UB && op->getNumRegions() == 0;
}

at::MaskOp Lowering::fusableMask(Operation *op, bool dryRun) {
  if (!isMaskableOp(op) || op->getNumResults() != 1 || !op->getResult(0).hasOneUse())
    return {};
  auto mask = dyn_cast<at::MaskOp>(*op->getResult(0).getUsers().begin());
  if (!mask || mask.getValue() != op->getResult(0) ||
      mask->getBlock() != op->getBlock())
    return {};
  if (auto lanes = mask.getLanesAttr()) {
    // A bit mask selects lanes of the repeats of the op's computing type (the
    // wider type of a cast, the operands of a compare); an op the compiler
    // expanded (floor -> casts through i32) may compute on another one.
    Type computed = op->getResult(0).getType();
    if (isa<at::CmpOp>(op) || isa<at::CastOp>(op))
      computed = op->getOperand(0).getType();
    unsigned bits = cast<at::TileType>(computed).getElementType().getIntOrFloatBitWidth();
    if (isa<at::CastOp>(op))
      bits = std::max(bits, cast<at::TileType>(op->getResult(0).getType())
                                .getElementType()
                                .getIntOrFloatBitWidth());
    if (bits == 0 || 2048 / bits != lanes.getInt())
      return {};
  }
  for (Value v : SmallVector<Value, 4>{mask.getCount(), mask.getHigh(), mask.getLow()})
    if (v && !availableAt(v, op))
      return {};
  // `other` is often converted right after the op (the frontend makes it
  // when it wraps the result): move a pure conversion of available values
  // before the op.
  Value other = mask.getOther();
  if (!availableAt(other, op)) {
    Operation *def = other.getDefiningOp();
    if (!def || def->getBlock() != op->getBlock() || def->getNumRegions() ||
        !isMemoryEffectFree(def) ||
        !llvm::all_of(def->getOperands(), [&](Value v) { return availableAt(v, op); }))
      return {};
    if (!dryRun)
      def->moveBefore(op);
  }
  return mask;
}

bool Lowering::onlyReadUnderMask(at::MaskOp mask) {
  for (OpOperand &use : mask.getResult().getUses()) {
    Operation *user = use.getOwner();
    at::MaskOp next = fusableMask(user, /*dryRun=*/true);
    if (!next || next.getCount() != mask.getCount() || next.getHigh() != mask.getHigh() ||
        next.getLow() != mask.getLow() || next.getLanesAttr() != mask.getLanesAttr())
      return false;
  }
  return true;
}

Lowering::MaskArgs Lowering::applyMask(Location loc, at::MaskOp mask, Value dst,
                                       at::TileType t) {
  Value total = countOf(loc, t);
  // The lanes left out are `other`, unless only ops under the same mask read
  // the result (they never look at those lanes).
  if (!onlyReadUnderMask(mask))
    builder.create<ac::DuplicateOp>(loc, dst, mask.getOther(), total);
  MaskArgs args;
  if (Value n = mask.getCount()) {
    Value c = builder.create<arith::MinSIOp>(loc, n, total);
    args.count = builder.create<arith::MaxSIOp>(loc, c, indexConst(loc, 0));
  } else {
    args.count = total;
    args.bits = {mask.getHigh(), mask.getLow()};
  }
  return args;
}

LogicalResult Lowering::lowerMask(at::MaskOp op) {
  builder.setInsertionPoint(op);
  Location loc = op.getLoc();
  at::TileType t = op.getResult().getType();
  auto src = bufferOf(op, op.getValue());
  if (failed(src))
    return failure();
  Type elem = t.getElementType();
  int64_t width = std::max<int64_t>(1, elem.getIntOrFloatBitWidth() / 8);
  if (op.getHigh() && 256 / width != op.getLanesAttr().getInt())
    return op.emitOpError()
           << "cannot apply a bit mask of " << op.getLanesAttr().getInt()
           << " lanes to " << elem << " elements after the fact (the masked "
           << "op's result is also used outside the mask)";
  Value dst = newBuffer(loc, t, positionFor(t.getLocation()), "masked");
  MaskArgs m = applyMask(loc, op, dst, t);
  // Copy the selected lanes: x * 1 (exact), or x | false for bools.
  if (elem.isInteger(1)) {
    Value f = builder.create<arith::ConstantOp>(loc, builder.getIntegerAttr(elem, 0));
    markCounter(builder.create<ac::OrsOp>(loc, dst, *src, f, m.count, false, m.bits), op);
  } else {
    Type scalarTy = elem.isUnsignedInteger()
                        ? builder.getIntegerType(elem.getIntOrFloatBitWidth())
                        : elem;
    Value one = isa<FloatType>(elem)
                    ? builder.create<arith::ConstantOp>(loc, builder.getFloatAttr(elem, 1.0))
                          .getResult()
                    : builder.create<arith::ConstantOp>(loc, builder.getIntegerAttr(scalarTy, 1))
                          .getResult();
    markCounter(builder.create<ac::MulsOp>(loc, dst, *src, one, m.count, false, m.bits), op);
  }
  buffers[op.getResult()] = dst;
  return success();
}

} // namespace asc2::asctile_to_ascendc
