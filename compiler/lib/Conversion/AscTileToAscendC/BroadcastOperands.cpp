//===- BroadcastOperands.cpp - elementwise ops reading a broadcast in place -===//
//
// x (op) broadcast(s), where s is a column ([R, 1] -> [R, C]: the row
// statistics of softmax, rms_norm and layer_norm, R = 1 included: a
// one-row kernel's [1, 1] mean) or a row ([1, C] -> [R, C]: gamma, beta),
// needs no [R, C] tile of copies. The level-0 binary calls
// (Add/Sub/Mul/Div/Max/Min with BinaryRepeatParams) read an operand with any
// block and repeat stride from 0 to 255: a row is read with repeat stride 0
// for every row of x; a column is first put one value per 32-byte block by
// Brcb (as broadcastColumn does), then block r is read with block and repeat
// stride 0 for row r. Sources: mirror-cann/asc-devkit@82b89a15f
// include/basic_api/kernel_struct_binary.h (BinaryRepeatParams, uint8_t
// strides), docs/zh/api/SIMD-API/基础API/Memory矢量计算/数据填充/Brcb.md.
//
// The [R, C] tile is the size of x: dropping it halves the UB a broadcast
// binary needs and saves a pass of the vector unit over it. The result may
// be written in place of x (BinaryRepeatOp::canWriteInPlace: each call
// reads x exactly where it writes).
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

#include "asc2/Arch/VectorRepeat.h"

namespace asc2::asctile_to_ascendc {

namespace {

std::optional<ac::RepeatBinaryKind> repeatKindOf(Operation *op) {
  if (isa<arith::AddFOp, arith::AddIOp>(op))
    return ac::RepeatBinaryKind::Add;
  if (isa<arith::SubFOp, arith::SubIOp>(op))
    return ac::RepeatBinaryKind::Sub;
  if (isa<arith::MulFOp, arith::MulIOp>(op))
    return ac::RepeatBinaryKind::Mul;
  if (isa<arith::DivFOp>(op))
    return ac::RepeatBinaryKind::Div;
  if (isa<arith::MaximumFOp, arith::MaxNumFOp, arith::MaxSIOp>(op))
    return ac::RepeatBinaryKind::Max;
  if (isa<arith::MinimumFOp, arith::MinNumFOp, arith::MinSIOp>(op))
    return ac::RepeatBinaryKind::Min;
  return std::nullopt;
}

} // namespace

std::optional<Lowering::BroadcastOperand> Lowering::broadcastOperand(Operation *op) {
  auto kind = repeatKindOf(op);
  if (!kind || op->getNumOperands() != 2 || op->getNumResults() != 1)
    return std::nullopt;
  auto tile = dyn_cast<at::TileType>(op->getResult(0).getType());
  if (!tile || tile.getLocation() != at::TileLocation::UB || tile.getRank() < 2)
    return std::nullopt;
  Type elem = tile.getElementType();
  bool isInt = elem.isInteger(16) || elem.isInteger(32);
  if ((!elem.isF16() && !elem.isF32() && !isInt) ||
      (isInt && *kind == ac::RepeatBinaryKind::Div))
    return std::nullopt;
  auto [rows, cols] = rowsCols(tile);
  if (cols % blockElems(elem.getIntOrFloatBitWidth() / 8) != 0)
    return std::nullopt;
  if (fusableMask(op, /*dryRun=*/true))
    return std::nullopt; // computed under asc2.mask: the masked path
  for (unsigned i = 0; i < 2; ++i) {
    auto b = op->getOperand(i).getDefiningOp<at::BroadcastOp>();
    Value other = op->getOperand(1 - i);
    if (!b || other.getDefiningOp<at::BroadcastOp>() || other.getDefiningOp<at::SplatOp>() ||
        b.getSource().getDefiningOp<at::SplatOp>())
      continue;
    at::TileType src = b.getSource().getType();
    // One value broadcast over several rows is a splat (filled on the vector pipe); over the one
    // row of a [1, C] tile it is that row's column: Brcb'd to a block, read with stride 0.
    if (src.getLocation() != at::TileLocation::UB || (src.getNumElements() == 1 && rows > 1))
      continue;
    auto [srows, scols] = rowsCols(src);
    bool column = scols == 1 && srows == rows, row = rows > 1 && srows == 1 && scols == cols;
    if (column || row)
      return BroadcastOperand{b, i, column};
  }
  return std::nullopt;
}

LogicalResult Lowering::lowerOnBroadcast(Operation *op, const BroadcastOperand &b,
                                         Value result) {
  auto tile = cast<at::TileType>(op->getResult(0).getType());
  Type elem = tile.getElementType();
  auto [rows, cols] = rowsCols(tile);
  auto x = bufferOf(op, op->getOperand(1 - b.index));
  auto s = bufferOf(op, at::BroadcastOp(b.broadcast).getSource());
  if (failed(x) || failed(s))
    return failure();
  RowsView wide{*s, 0, 0};
  if (b.column) {
    auto blocks = brcbBlocks(op, *s, rows, elem);
    if (failed(blocks))
      return failure();
    wide = RowsView{*blocks, 0, blockElems(elem.getIntOrFloatBitWidth() / 8),
                    /*oneBlock=*/true};
  }
  RowsView full{*x, 0, cols};
  foldRowRuns(op->getLoc(), *repeatKindOf(op), RowsView{result, 0, cols},
              b.index == 0 ? wide : full, b.index == 0 ? full : wide, rows, cols);
  return success();
}

} // namespace asc2::asctile_to_ascendc
