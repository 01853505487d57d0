//===- ReduceAndShape.cpp - reductions -------------------------------------===//
//
// Reductions over the last two dimensions (a full one leaves its scalar in a
// one-element buffer that splats refill tiles from on the vector pipe).
// Broadcasts, reshapes, transposes and concatenation are in Shape.cpp.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

#include "llvm/ADT/TypeSwitch.h"

namespace asc2::asctile_to_ascendc {

FamilyResult Lowering::lowerReduceAndShapeFamily(Operation *op) {
  return llvm::TypeSwitch<Operation *, FamilyResult>(op)
      .Case<at::ReduceOp>([&](at::ReduceOp r) { return lowerReduce(r); })
      .Default([](Operation *) { return std::nullopt; });
}

LogicalResult Lowering::lowerReduce(at::ReduceOp op) {
  builder.setInsertionPoint(op);
  Location loc = op.getLoc();
  at::TileType src = op.getSource().getType();
  auto in = bufferOf(op, op.getSource());
  if (failed(in))
    return failure();
  ac::ReduceKind kind = static_cast<ac::ReduceKind>(op.getKind());
  ArrayRef<int64_t> shape = src.getShape();
  int64_t rank = shape.size();
  Type elem = src.getElementType();
  // Which dims are reduced, as rows (all but last) and/or columns (last).
  bool lastDim = false, rowDims = false;
  for (int64_t d : op.getDims()) {
    if (d == rank - 1)
      lastDim = true;
    else if (shape[d] != 1)
      rowDims = true;
  }
  for (int64_t d = 0; d + 1 < rank; ++d) {
    bool reduced = llvm::is_contained(op.getDims(), d);
    if (!reduced && shape[d] != 1 && rowDims)
      return op.emitOpError() << "reduces only some of the leading dimensions; "
                                 "only the last two dimensions are supported";
  }
  auto [rows, cols] = rowsCols(src);
  Value current = *in;
  int64_t curRows = rows, curCols = cols;
  auto reduceAxis = [&](int64_t axis) {
    int64_t n = axis == 1 ? curRows : curCols;
    Value dst = newBuffer(loc, {n}, elem, ac::Position::VECCALC,
                          "reduce_" + ac::stringifyReduceKind(kind).lower());
    builder.create<ac::ReduceOp>(loc, kind, dst, current,
                                 indexConst(loc, curRows),
                                 indexConst(loc, curCols), axis);
    current = dst;
    if (axis == 1) {
      curCols = curRows;
      curRows = 1;
    } else {
      curRows = 1;
    }
  };
  if (lastDim)
    reduceAxis(1);
  if (rowDims) {
    if (lastDim) // already a single row of `rows` values: reduce it whole
      reduceAxis(1);
    else
      reduceAxis(0);
  }
  if (!lastDim && !rowDims) { // reducing unit dims only: a copy
    Value dst = newBuffer(loc, src, ac::Position::VECCALC, "reduce");
    copyBuffer(loc, dst, current, src);
    current = dst;
  }
  if (isTile(op.getResult().getType())) {
    buffers[op.getResult()] = current;
  } else {
    reducedScalars[op.getResult()] = current;
    // The scalar unit reads the value only when something besides splats
    // (which refill a tile from the buffer) needs it as a scalar.
    bool scalarUse = llvm::any_of(op.getResult().getUsers(), [](Operation *u) {
      return !isa<at::SplatOp>(u);
    });
    if (scalarUse) {
      auto get = builder.create<ac::GetValueOp>(loc, elem, current, indexConst(loc, 0));
      op.getResult().replaceUsesWithIf(get.getResult(), [](OpOperand &use) {
        return !isa<at::SplatOp>(use.getOwner());
      });
    }
  }
  return success();
}

} // namespace asc2::asctile_to_ascendc
