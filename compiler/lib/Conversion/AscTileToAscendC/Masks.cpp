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

/// Ops the lowering computes with a count or bit mask of their own. Not a
/// compare (Compare/Compares ignore the vector mask on A2/A3: asc-devkit
/// docs/zh/api/.../比较与选择/Compare.md, "mask/mask[]参数说明") and not an op
/// with a bool result (its lanes are bits, not 256-byte-repeat lanes): those
/// compute every lane and lowerMask selects lanes after the fact.
static bool isMaskableOp(Operation *op) {
  if (op->getNumResults() == 1)
    if (auto t = dyn_cast<at::TileType>(op->getResult(0).getType()))
      if (t.getElementType().isInteger(1))
        return false;
  if (isa<at::CmpOp>(op))
    return false;
  if (isa<at::CastOp, at::SelectOp>(op))
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
                                       at::TileType t, Value other) {
  Value total = countOf(loc, t);
  // The lanes left out are `other`, unless only ops under the same mask read
  // the result (they never look at those lanes).
  if (!onlyReadUnderMask(mask))
    builder.create<ac::DuplicateOp>(loc, dst, other ? other : mask.getOther(), total);
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
  if (elem.isInteger(1))
    return lowerBoolMask(op, *src);
  int64_t width = std::max<int64_t>(1, elem.getIntOrFloatBitWidth() / 8);
  if (op.getHigh() && 256 / width != op.getLanesAttr().getInt())
    return op.emitOpError()
           << "cannot apply a bit mask of " << op.getLanesAttr().getInt()
           << " lanes to " << elem << " elements after the fact (the masked "
           << "op's result is also used outside the mask)";
  Value dst = newBuffer(loc, t, positionFor(t.getLocation()), "masked");
  MaskArgs m = applyMask(loc, op, dst, t);
  // Copy the selected lanes: x * 1 (exact).
  Type scalarTy = elem.isUnsignedInteger()
                      ? builder.getIntegerType(elem.getIntOrFloatBitWidth())
                      : elem;
  Value one = isa<FloatType>(elem)
                  ? builder.create<arith::ConstantOp>(loc, builder.getFloatAttr(elem, 1.0))
                        .getResult()
                  : builder.create<arith::ConstantOp>(loc, builder.getIntegerAttr(scalarTy, 1))
                        .getResult();
  markCounter(builder.create<ac::MulsOp>(loc, dst, *src, one, m.count, false, m.bits), op);
  buffers[op.getResult()] = dst;
  return success();
}

LogicalResult Lowering::lowerBoolMask(at::MaskOp op, Value bits) {
  // The lanes of a bit mask are bits: select them on numbers instead, as an
  // Ascend C programmer would. 0/1 in the lane type of the mask (float for
  // 64 lanes per repeat, half for 128 and for a count), Select from the bits
  // under the mask into a buffer holding `other`, then Compares != 0 back.
  Location loc = op.getLoc();
  at::TileType t = op.getResult().getType();
  Type num = op.getLanesAttr() && op.getLanesAttr().getInt() == 64
                 ? Type(builder.getF32Type())
                 : Type(builder.getF16Type());
  Value numbers = newBuffer(loc, t.getShape(), num, ac::Position::VECCALC, "lanes");
  Value one = builder.create<arith::ConstantOp>(loc, builder.getFloatAttr(num, 1.0));
  Value zero = builder.create<arith::ConstantOp>(loc, builder.getFloatAttr(num, 0.0));
  Value other;
  if (auto c = op.getOther().getDefiningOp<arith::ConstantOp>()) {
    if (auto i = dyn_cast<IntegerAttr>(c.getValue()))
      other = i.getValue().isZero() ? zero : one;
    else if (auto f = dyn_cast<FloatAttr>(c.getValue()))
      other = f.getValue().isZero() ? zero : one;
  }
  if (!other && op.getOther().getType().isInteger(1))
    other = builder.create<arith::SelectOp>(loc, op.getOther(), one, zero);
  if (!other)
    return op.emitOpError() << "other of a bool result must be a bool, got "
                            << op.getOther().getType();
  MaskArgs m = applyMask(loc, op, numbers, t, other);
  Value ones = newBuffer(loc, t.getShape(), num, ac::Position::VECCALC, "ones");
  builder.create<ac::DuplicateOp>(loc, ones, one, countOf(loc, t));
  markCounter(builder.create<ac::SelectOp>(loc, numbers, bits, ones, zero, m.count, m.bits),
              op);
  Value dst = newBuffer(loc, t, ac::Position::VECCALC, "masked");
  builder.create<ac::CompareOp>(loc, ac::CmpMode::NE, dst, numbers, zero,
                                countOf(loc, t), ValueRange{});
  buffers[op.getResult()] = dst;
  return success();
}

} // namespace asc2::asctile_to_ascendc
