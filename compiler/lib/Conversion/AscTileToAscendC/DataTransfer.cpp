//===- DataTransfer.cpp - GM views, tile loads and stores ------------------===//
//
// asctile.tensor becomes a GlobalView (the GM argument and its dimensions);
// UB loads and stores move the part of the tile inside the tensor (planAccess)
// with DataCopy; scalar get_value/set_value read and write GM directly. Cube
// locations (L1, L0*, BT) and L0C stores branch off to Cube.cpp.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

#include "asc2/Dialect/AscTile/IR/TransposedLoad.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/ADT/TypeSwitch.h"

namespace asc2::asctile_to_ascendc {

FamilyResult Lowering::lowerDataTransferFamily(Operation *op) {
  return llvm::TypeSwitch<Operation *, FamilyResult>(op)
      .Case<at::TensorOp>([&](at::TensorOp t) { return lowerTensor(t); })
      .Case<at::DimOp>([&](at::DimOp d) {
        auto it = tensors.find(d.getTensor());
        if (it == tensors.end())
          return LogicalResult(d.emitOpError() << "unknown tensor");
        d.getResult().replaceAllUsesWith(it->second.dims[d.getIndex()]);
        return success();
      })
      .Case<at::LoadOp>([&](at::LoadOp l) { return lowerLoad(l); })
      .Case<at::LoadTransposedOp>([&](at::LoadTransposedOp l) { return lowerTransposedLoad(l); })
      .Case<at::StoreOp>([&](at::StoreOp s) {
        return lowerStore(s, s.getValue(), s.getTensor(), s.getOffsets(),
                          ac::AtomicKind::NONE, s.getRealShape());
      })
      .Case<at::AtomicRMWOp>([&](at::AtomicRMWOp a) {
        ac::AtomicKind kind = a.getKind() == at::AtomicKind::add   ? ac::AtomicKind::ADD
                              : a.getKind() == at::AtomicKind::max ? ac::AtomicKind::MAX
                                                                   : ac::AtomicKind::MIN;
        return lowerStore(a, a.getValue(), a.getTensor(), a.getOffsets(), kind);
      })
      .Case<at::GatherOp>([&](at::GatherOp g) { return lowerGather(g); })
      .Case<at::ScatterOp>([&](at::ScatterOp s) { return lowerScatter(s); })
      .Case<at::GetValueOp>([&](at::GetValueOp g) { return lowerGetValue(g); })
      .Case<at::SetValueOp>([&](at::SetValueOp s) { return lowerSetValue(s); })
      .Default([](Operation *) { return std::nullopt; });
}

LogicalResult Lowering::lowerTensor(at::TensorOp t) {
  builder.setInsertionPoint(t);
  GlobalView view{t.getPtr(), {}};
  auto type = t.getResult().getType();
  unsigned dyn = 0;
  for (int64_t d : type.getShape())
    view.dims.push_back(d == ShapedType::kDynamic ? t.getDynamicDims()[dyn++]
                                                  : indexConst(t.getLoc(), d));
  tensors[t.getResult()] = view;
  return success();
}

LogicalResult Lowering::planAccess(Operation *op, const GlobalView &view,
                                   at::TileType tile, ValueRange offsets,
                                   AccessPlan &plan, ValueRange realShape) {
  Location loc = op->getLoc();
  ArrayRef<int64_t> shape = tile.getShape();
  int64_t rank = shape.size();
  for (int d = 0; d + 2 < rank; ++d)
    if (shape[d] != 1)
      return op->emitOpError()
             << "tile of shape " << tile << " has more than two non-unit "
             << "dimensions; only rows x columns tiles are supported yet";
  plan.offset = linearOffset(loc, view, offsets);
  auto clamp = [&](int64_t d) { return movedExtent(loc, view, offsets, d, shape[d], realShape); };
  int64_t cols = shape[rank - 1];
  plan.colCount = clamp(rank - 1);
  Value rows = indexConst(loc, 1);
  if (rank >= 2)
    rows = clamp(rank - 2);
  // Leading unit dimensions must be inside the tensor (and real_shape) too.
  for (int d = 0; d + 2 < rank; ++d) {
    Value inside = builder.create<arith::CmpIOp>(
        loc, arith::CmpIPredicate::sgt, clamp(d), indexConst(loc, 0));
    rows = builder.create<arith::SelectOp>(loc, inside, rows, indexConst(loc, 0));
  }
  plan.rowCount = rows;
  plan.rowStride = view.dims[rank - 1];
  int64_t tileRows = rank >= 2 ? shape[rank - 2] : 1;
  // Whole rows of the tensor are one contiguous run.
  auto cst = view.dims[rank - 1].getDefiningOp<arith::ConstantIndexOp>();
  auto off = offsets[rank - 1].getDefiningOp<arith::ConstantIndexOp>();
  auto realCols = realShape.empty()
                      ? arith::ConstantIndexOp()
                      : realShape[rank - 1].getDefiningOp<arith::ConstantIndexOp>();
  bool wholeRows = cst && cst.value() == cols && off && off.value() == 0 &&
                   (realShape.empty() || (realCols && realCols.value() >= cols));
  if (tileRows == 1) {
    // One row: colCount elements, or none when the row is outside.
    if (rank >= 2)
      plan.colCount = builder.create<arith::SelectOp>(
          loc,
          builder.create<arith::CmpIOp>(loc, arith::CmpIPredicate::sgt, rows,
                                        indexConst(loc, 0)),
          plan.colCount, indexConst(loc, 0));
    plan.twoD = false;
  } else if (wholeRows) {
    plan.colCount = builder.create<arith::MulIOp>(loc, rows, indexConst(loc, cols));
    plan.twoD = false;
  } else {
    plan.twoD = true;
  }
  return success();
}

Value Lowering::movedExtent(Location loc, const GlobalView &view, ValueRange offsets, int64_t d,
                            int64_t extent, ValueRange realShape) {
  Value remaining = builder.create<arith::SubIOp>(loc, view.dims[d], offsets[d]);
  Value n = builder.create<arith::MinSIOp>(loc, remaining, indexConst(loc, extent));
  if (!realShape.empty())
    n = builder.create<arith::MinSIOp>(loc, n, realShape[d]);
  return builder.create<arith::MaxSIOp>(loc, n, indexConst(loc, 0)).getResult();
}

LogicalResult Lowering::lowerLoad(at::LoadOp op) {
  auto it = tensors.find(op.getTensor());
  if (it == tensors.end())
    return op.emitOpError() << "loads from a tensor not made by asctile.tensor";
  builder.setInsertionPoint(op);
  at::TileType tile = op.getResult().getType();
  if (tile.getLocation() != at::TileLocation::UB)
    return lowerCubeLoad(op, it->second);
  AccessPlan plan;
  if (failed(planAccess(op, it->second, tile, op.getOffsets(), plan,
                        op.getRealShape())))
    return failure();
  bool isBool = tile.getElementType().isInteger(1);
  // A bool tensor is one byte per element in GM (numpy's layout): it comes in
  // as uint8 and becomes a bit mask in UB (boolFromBytes).
  Type elem = isBool ? builder.getIntegerType(8, /*isSigned=*/false) : tile.getElementType();
  Value buf = newBuffer(op.getLoc(), tile.getShape(), elem, ac::Position::VECIN,
                        argName(it->second.gm));
  TypedAttr pad = op.getPadValueAttr();
  if (!pad)
    pad = builder.getZeroAttr(tile.getElementType());
  if (isBool)
    pad = builder.getIntegerAttr(elem, cast<IntegerAttr>(pad).getValue().getBoolValue());
  builder.create<ac::DataCopyInOp>(
      op.getLoc(), buf, /*localOffset=*/Value(), it->second.gm, plan.offset, plan.colCount,
      plan.twoD ? plan.rowCount : Value(), plan.twoD ? plan.rowStride : Value(),
      pad);
  buffers[op.getResult()] = isBool ? boolFromBytes(op.getLoc(), buf, tile) : buf;
  return success();
}

// The box of the load as DMA loops in the tile's order (TransposedLoad.h):
// each loop moves the extent of its outermost box dimension inside the
// tensor (times its whole inner ones); a unit box dimension outside the
// tensor leaves the whole tile padding.
LogicalResult Lowering::lowerTransposedLoad(at::LoadTransposedOp op) {
  auto it = tensors.find(op.getTensor());
  if (it == tensors.end())
    return op.emitOpError() << "loads from a tensor not made by asctile.tensor";
  std::optional<SmallVector<at::NdLoop>> loops = at::planTransposedLoad(op);
  if (!loops || loops->empty())
    return op.emitOpError() << "has no N-dimensional DMA form (a run-time tensor extent after "
                               "the first, or nothing to move)";
  builder.setInsertionPoint(op);
  Location loc = op.getLoc();
  const GlobalView &view = it->second;
  SmallVector<int64_t> box = op.getSourceShape();
  auto moved = [&](int64_t d) {
    return movedExtent(loc, view, op.getOffsets(), d, box[d], op.getRealShape());
  };
  SmallVector<Value> sizes;
  SmallVector<int64_t> extents, srcStrides, dstStrides;
  for (const at::NdLoop &loop : *loops) {
    Value n = moved(loop.boxDims.front());
    int64_t inner = loop.extent / box[loop.boxDims.front()];
    if (inner > 1)
      n = builder.create<arith::MulIOp>(loc, n, indexConst(loc, inner));
    sizes.push_back(n);
    extents.push_back(loop.extent);
    srcStrides.push_back(loop.srcStride);
    dstStrides.push_back(loop.dstStride);
  }
  for (int64_t d = 0; d < (int64_t)box.size(); ++d)
    if (box[d] == 1) {
      Value inside = builder.create<arith::CmpIOp>(loc, arith::CmpIPredicate::sgt, moved(d),
                                                   indexConst(loc, 0));
      sizes.front() = builder.create<arith::SelectOp>(loc, inside, sizes.front(), indexConst(loc, 0));
    }
  at::TileType tile = op.getResult().getType();
  Value buf = newBuffer(loc, tile, ac::Position::VECIN, argName(view.gm));
  TypedAttr pad = op.getPadValueAttr();
  if (!pad)
    pad = builder.getZeroAttr(tile.getElementType());
  builder.create<ac::DataCopyNdOp>(loc, buf, view.gm, linearOffset(loc, view, op.getOffsets()), sizes,
                                   builder.getDenseI64ArrayAttr(extents),
                                   builder.getDenseI64ArrayAttr(srcStrides),
                                   builder.getDenseI64ArrayAttr(dstStrides), pad);
  buffers[op.getResult()] = buf;
  return success();
}

Value Lowering::boolFromBytes(Location loc, Value bytes, at::TileType tile) {
  // u8 -> half (exact), then Compares != 0 into the bit mask.
  Value count = countOf(loc, tile);
  Value halves = newBuffer(loc, tile.getShape(), builder.getF16Type(),
                           ac::Position::VECCALC, "bool_in");
  builder.create<ac::CastOp>(loc, halves, bytes, count, ac::RoundMode::CAST_NONE,
                             ValueRange{});
  Value zero = builder.create<arith::ConstantOp>(
      loc, builder.getFloatAttr(builder.getF16Type(), 0.0));
  Value bits = newBuffer(loc, tile, ac::Position::VECCALC, "mask");
  builder.create<ac::CompareOp>(loc, ac::CmpMode::NE, bits, halves, zero, count,
                                ValueRange{});
  return bits;
}

Value Lowering::bytesFromBool(Location loc, Value bits, at::TileType tile) {
  // Select 1.0 / 0.0 in half, then half -> u8 (exact for 0 and 1).
  Value count = countOf(loc, tile);
  Type f16 = builder.getF16Type();
  Value one = builder.create<arith::ConstantOp>(loc, builder.getFloatAttr(f16, 1.0));
  Value zero = builder.create<arith::ConstantOp>(loc, builder.getFloatAttr(f16, 0.0));
  Value ones = newBuffer(loc, tile.getShape(), f16, ac::Position::VECCALC, "ones");
  builder.create<ac::DuplicateOp>(loc, ones, one, count);
  Value halves = newBuffer(loc, tile.getShape(), f16, ac::Position::VECCALC, "bool_out");
  builder.create<ac::SelectOp>(loc, halves, bits, ones, zero, count, ValueRange{});
  Value bytes = newBuffer(loc, tile.getShape(), builder.getIntegerType(8, false),
                          ac::Position::VECOUT, "bool_bytes");
  builder.create<ac::CastOp>(loc, bytes, halves, count, ac::RoundMode::CAST_RINT,
                             ValueRange{});
  return bytes;
}

LogicalResult Lowering::lowerStore(Operation *op, Value tile, Value tensor,
                                   ValueRange offsets, ac::AtomicKind atomic,
                                   ValueRange realShape) {
  auto it = tensors.find(tensor);
  if (it == tensors.end())
    return op->emitOpError() << "stores to a tensor not made by asctile.tensor";
  builder.setInsertionPoint(op);
  if (cast<at::TileType>(tile.getType()).getLocation() == at::TileLocation::L0C)
    return lowerL0CStore(op, tile, it->second, offsets, atomic);
  auto src = bufferOf(op, tile);
  if (failed(src))
    return failure();
  AccessPlan plan;
  auto tileType = cast<at::TileType>(tile.getType());
  if (failed(planAccess(op, it->second, tileType, offsets, plan, realShape)))
    return failure();
  Value from = *src;
  if (tileType.getElementType().isInteger(1)) {
    if (atomic != ac::AtomicKind::NONE)
      return op->emitOpError() << "atomic stores of bool tiles are not supported";
    from = bytesFromBool(op->getLoc(), from, tileType);
  }
  builder.create<ac::DataCopyOutOp>(
      op->getLoc(), it->second.gm, plan.offset, from, /*localOffset=*/Value(), plan.colCount,
      plan.twoD ? plan.rowCount : Value(), plan.twoD ? plan.rowStride : Value(),
      atomic);
  return success();
}

// gather / scatter: one row (the sub-tensor after the indexed dimension) per
// index, in a loop on the scalar unit: read index[i] from its UB tile
// (GetValue), bounds-check it when asked, and move the row between GM and row
// i of the rows buffer with one DataCopyPad (data_copy_in/out `at` the row).
LogicalResult Lowering::forEachIndexedRow(Operation *op, const GlobalView &view,
                                          ValueRange offsets, Value indexTile,
                                          Value numIndices, bool checkBounds,
                                          at::TileType rowsTile, IndexedRowFn body) {
  Location loc = op->getLoc();
  auto idxBuf = bufferOf(op, indexTile);
  if (failed(idxBuf))
    return failure();
  auto idxType = cast<at::TileType>(indexTile.getType());
  int64_t d = offsets.size() - 1, rank = view.dims.size();
  // GM: the row at position p of dimension d starts at base + p * stride;
  // it is `rows` runs of `cols` elements (the last dimension), `cols` apart.
  SmallVector<Value> origin(offsets.begin(), offsets.end());
  origin.back() = indexConst(loc, 0);
  for (int64_t k = d + 1; k < rank; ++k)
    origin.push_back(indexConst(loc, 0));
  Value base = linearOffset(loc, view, origin);
  int64_t cols = *getConstantIntValue(view.dims.back()), rows = 1;
  for (int64_t k = d + 1; k + 1 < rank; ++k)
    rows *= *getConstantIntValue(view.dims[k]);
  Value stride = indexConst(loc, rows * cols);
  Value count = countOf(loc, idxType);
  if (numIndices)
    count = builder.create<arith::MaxSIOp>(
        loc, builder.create<arith::MinSIOp>(loc, numIndices, count), indexConst(loc, 0));
  auto loop = builder.create<scf::ForOp>(loc, indexConst(loc, 0), count, indexConst(loc, 1));
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(loop.getBody());
  Value i = loop.getInductionVar();
  Value raw = builder.create<ac::GetValueOp>(loc, idxType.getElementType(), *idxBuf, i);
  Value pos = builder.create<arith::AddIOp>(
      loc, offsets.back(), builder.create<arith::IndexCastOp>(loc, builder.getIndexType(), raw));
  if (checkBounds) {
    Value inside = builder.create<arith::AndIOp>(
        loc,
        builder.create<arith::CmpIOp>(loc, arith::CmpIPredicate::sge, pos, indexConst(loc, 0)),
        builder.create<arith::CmpIOp>(loc, arith::CmpIPredicate::slt, pos, view.dims[d]));
    auto guarded = builder.create<scf::IfOp>(loc, TypeRange{}, inside, /*withElse=*/false);
    builder.setInsertionPointToStart(&guarded.getThenRegion().front());
  }
  IndexedRow row;
  row.gmOffset =
      builder.create<arith::AddIOp>(loc, base, builder.create<arith::MulIOp>(loc, pos, stride));
  // Row i of the rows tile: its elements per index (the padded sub-tensor) from element i * that.
  int64_t perIndex = rowsTile.getNumElements() / rowsTile.getShape()[0];
  row.at = builder.create<arith::MulIOp>(loc, i, indexConst(loc, perIndex));
  row.count = indexConst(loc, cols);
  if (rows > 1) {
    row.rows = indexConst(loc, rows);
    row.rowStride = indexConst(loc, cols);
  }
  body(row);
  return success();
}

LogicalResult Lowering::lowerGather(at::GatherOp op) {
  auto it = tensors.find(op.getTensor());
  if (it == tensors.end())
    return op.emitOpError() << "gathers from a tensor not made by asctile.tensor";
  builder.setInsertionPoint(op);
  Location loc = op.getLoc();
  at::TileType tile = op.getResult().getType();
  Value buf = newBuffer(loc, tile, ac::Position::VECIN, argName(it->second.gm));
  TypedAttr pad = op.getPadValueAttr();
  if (!pad)
    pad = builder.getZeroAttr(tile.getElementType());
  // Rows left out (out of range, past num_indices) hold pad_value: the whole
  // buffer is filled first, on the vector pipe.
  if (op.getCheckBounds() || op.getNumIndices())
    builder.create<ac::DuplicateOp>(loc, buf, builder.create<arith::ConstantOp>(loc, pad),
                                    countOf(loc, tile));
  if (failed(forEachIndexedRow(op, it->second, op.getOffsets(), op.getIndex(), op.getNumIndices(),
                               op.getCheckBounds(), tile, [&](const IndexedRow &r) {
                                 builder.create<ac::DataCopyInOp>(loc, buf, r.at, it->second.gm,
                                                                  r.gmOffset, r.count, r.rows,
                                                                  r.rowStride, pad);
                               })))
    return failure();
  buffers[op.getResult()] = buf;
  return success();
}

LogicalResult Lowering::lowerScatter(at::ScatterOp op) {
  auto it = tensors.find(op.getTensor());
  if (it == tensors.end())
    return op.emitOpError() << "scatters to a tensor not made by asctile.tensor";
  builder.setInsertionPoint(op);
  Location loc = op.getLoc();
  auto src = bufferOf(op, op.getValue());
  if (failed(src))
    return failure();
  return forEachIndexedRow(op, it->second, op.getOffsets(), op.getIndex(), op.getNumIndices(),
                           op.getCheckBounds(), cast<at::TileType>(op.getValue().getType()),
                           [&](const IndexedRow &r) {
                             builder.create<ac::DataCopyOutOp>(loc, it->second.gm, r.gmOffset, *src,
                                                               r.at, r.count, r.rows, r.rowStride,
                                                               ac::AtomicKind::NONE);
                           });
}

LogicalResult Lowering::lowerGetValue(at::GetValueOp g) {
  auto it = tensors.find(g.getTensor());
  if (it == tensors.end())
    return g.emitOpError() << "unknown tensor";
  builder.setInsertionPoint(g);
  Value linear = linearOffset(g.getLoc(), it->second, g.getOffsets());
  auto v = builder.create<ac::GmGetValueOp>(g.getLoc(), g.getType(),
                                            it->second.gm, linear);
  g.getResult().replaceAllUsesWith(v.getResult());
  return success();
}

LogicalResult Lowering::lowerSetValue(at::SetValueOp s) {
  auto it = tensors.find(s.getTensor());
  if (it == tensors.end())
    return s.emitOpError() << "unknown tensor";
  builder.setInsertionPoint(s);
  Value linear = linearOffset(s.getLoc(), it->second, s.getOffsets());
  builder.create<ac::GmSetValueOp>(s.getLoc(), s.getValue(), it->second.gm, linear);
  return success();
}

} // namespace asc2::asctile_to_ascendc
