//===- Cube.cpp - the cube unit: L1/L0 tiles, mmad, fixpipe ----------------===//
//
// GM -> L1 (ND -> NZ) -> L0A/L0B, mmad into L0C, fixpipe to GM or L1. Zero
// accumulators are never materialised (the first mmad into one overwrites),
// and relu/casts of L0C tiles are folded into the fixpipe that stores them.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

#include "mlir/IR/Matchers.h"
#include "llvm/ADT/TypeSwitch.h"

namespace asc2::asctile_to_ascendc {

FamilyResult Lowering::lowerCubeFamily(Operation *op) {
  return llvm::TypeSwitch<Operation *, FamilyResult>(op)
      .Case<at::MoveOp>([&](at::MoveOp m) { return lowerMove(m); })
      .Case<at::AccumulatorOp>([&](at::AccumulatorOp a) {
        zeroAccumulators.insert(a.getResult());
        if (Value bias = a.getBias())
          zeroBias[a.getResult()] = bias;
        return success();
      })
      .Case<at::MatmulOp>([&](at::MatmulOp m) {
        return lowerMatmul(m, Value(), m.getLhs(), m.getRhs(), m.getBias());
      })
      .Case<at::MatmulAccOp>([&](at::MatmulAccOp m) {
        return lowerMatmul(m, m.getAcc(), m.getLhs(), m.getRhs(), Value());
      })
      .Default([](Operation *) { return std::nullopt; });
}

static ac::Position cubePosition(at::TileLocation loc, bool rightOperand) {
  switch (loc) {
  case at::TileLocation::L1:
    return rightOperand ? ac::Position::B1 : ac::Position::A1;
  case at::TileLocation::L0A:
    return ac::Position::A2;
  case at::TileLocation::L0B:
    return ac::Position::B2;
  default:
    return ac::Position::CO1;
  }
}

/// rows x cols of a 2-D cube access: element offset of the first element and
/// the part inside the tensor (clamped like every other access) and inside
/// real_shape when given (a tile padded to whole fractals reads only its
/// logical part; the padding is zero).
static LogicalResult cubeAccessPlan(Operation *op, OpBuilder &builder,
                                    ArrayRef<Value> dims, ValueRange offsets,
                                    at::TileType tile, Value linear,
                                    AccessPlan &plan, ValueRange realShape = {}) {
  Location loc = op->getLoc();
  if (tile.getShape().size() != 2 || dims.size() != 2)
    return op->emitOpError() << "cube tiles are 2-D (rows x columns), got " << tile;
  auto clamp = [&](Value extent, Value off, int64_t size, int d) {
    Value remaining = builder.create<arith::SubIOp>(loc, extent, off);
    Value n = builder.create<arith::MinSIOp>(
        loc, remaining, builder.create<arith::ConstantIndexOp>(loc, size));
    if (!realShape.empty())
      n = builder.create<arith::MinSIOp>(loc, n, realShape[d]);
    return builder
        .create<arith::MaxSIOp>(loc, n, builder.create<arith::ConstantIndexOp>(loc, 0))
        .getResult();
  };
  plan.offset = linear;
  plan.rowCount = clamp(dims[0], offsets[0], tile.getShape()[0], 0);
  plan.colCount = clamp(dims[1], offsets[1], tile.getShape()[1], 1);
  plan.rowStride = dims[1];
  plan.twoD = true;
  return success();
}

LogicalResult Lowering::lowerCubeLoad(at::LoadOp op, const GlobalView &view) {
  Location loc = op.getLoc();
  at::TileType tile = op.getResult().getType();
  at::TileLocation where = tile.getLocation();
  bool biasRow = where == at::TileLocation::BT ||
                 (where == at::TileLocation::L1 && tile.getShape().size() == 1);
  if (biasRow) {
    // A bias row: GM -> L1 as it is (MTE2), L1 -> bias table (MTE1); a 1-D
    // L1 tile is a row staged for later L1 -> BT moves (asctile.move).
    Type elem = tile.getElementType();
    if (!(elem.isF32() || elem.isF16() || elem.isBF16()) || tile.getShape().back() % 16 ||
        tile.getNumElements() != tile.getShape().back())
      return op.emitOpError() << "bias tiles are one row of f32/f16/bf16 values, a "
                                 "multiple of 16 long; got "
                              << tile;
    AccessPlan plan;
    if (failed(planAccess(op, view, tile, op.getOffsets(), plan)))
      return failure();
    std::string name = argName(view.gm);
    Value l1 = newBuffer(loc, tile.getShape(), tile.getElementType(),
                         ac::Position::A1, name);
    auto copy = builder.create<ac::DataCopyInOp>(
        loc, l1, /*localOffset=*/Value(), view.gm, plan.offset, plan.colCount, Value(), Value(),
        builder.getZeroAttr(tile.getElementType()));
    copy->setAttr("nd", builder.getUnitAttr()); // a plain row, not NZ fractals
    if (where == at::TileLocation::L1) {
      buffers[op.getResult()] = l1;
      return success();
    }
    // The bias table holds f32: f16/bf16 rows are widened by the copy.
    Value bt = newBiasTable(loc, tile, elem, name);
    builder.create<ac::CopyBiasOp>(loc, bt, l1, Value(), tile.getNumElements());
    buffers[op.getResult()] = bt;
    return success();
  }
  if (where != at::TileLocation::L1 && where != at::TileLocation::L0A &&
      where != at::TileLocation::L0B)
    return op.emitOpError() << "copy_in to "
                            << at::stringifyTileLocation(where)
                            << " is not supported: load into UB, L1, L0A, L0B or BT";
  if (tile.getShape().size() != 2 || tile.getShape()[0] % 16 ||
      tile.getShape()[1] % 16)
    return op.emitOpError() << "cube tiles must be 2-D with both dimensions "
                               "multiples of 16 (whole fractals), got "
                            << tile;
  // A row of an NZ fractal is 32 bytes: an 8-bit tile's fractals are 16 x 32,
  // so narrower columns would be padded in L1 (the ND -> NZ copy writes, and
  // the load to L0 reads, 32 bytes a row) past the buffer the tile was given.
  // (An int8 B bound for L0B on c220 has its own, stricter rule: checkInt8Rhs.)
  bool c220Rhs = !c310 && where == at::TileLocation::L0B;
  if (tile.getElementType().getIntOrFloatBitWidth() == 8 && tile.getShape()[1] % 32 && !c220Rhs)
    return op->emitError() << "an 8-bit cube tile is made of 16 x 32 fractals (32 bytes a row): "
                              "its columns must be a multiple of 32, got "
                            << tile.getShape()[0] << " x " << tile.getShape()[1];
  AccessPlan plan;
  if (failed(cubeAccessPlan(op, builder, view.dims, op.getOffsets(), tile,
                            linearOffset(loc, view, op.getOffsets()), plan,
                            op.getRealShape())))
    return failure();
  // GM only reaches L1 (MTE2, ND -> NZ); L0A/L0B are filled from L1 (MTE1).
  // L0B operands stage through B1, everything else through A1.
  bool right = where == at::TileLocation::L0B;
  std::string name = argName(view.gm);
  Value l1 = newBuffer(loc, tile.getShape(), tile.getElementType(),
                       cubePosition(at::TileLocation::L1, right), name);
  builder.create<ac::DataCopyInOp>(loc, l1, /*localOffset=*/Value(), view.gm, plan.offset, plan.colCount, plan.rowCount,
                                   plan.rowStride, builder.getZeroAttr(tile.getElementType()));
  if (where == at::TileLocation::L1) {
    buffers[op.getResult()] = l1;
    return success();
  }
  if (failed(checkInt8Rhs(op, tile, right, 0)))
    return failure();
  Value l0 = newBuffer(loc, tile, cubePosition(where, right), name);
  if (needsLoad3D(tile.getElementType(), right, false))
    load3D(loc, l0, l1, 0, 0, ValueRange());
  else
    builder.create<ac::LoadDataOp>(loc, l0, l1, ValueRange(), 0, 0);
  buffers[op.getResult()] = l0;
  return success();
}

Value Lowering::newBiasTable(Location loc, at::TileType tile, Type elem, StringRef name) {
  int64_t n = tile.getNumElements();
  if (elem.isF32()) // the same-type copy moves exactly n (a multiple of 16)
    return newBuffer(loc, tile.getShape(), builder.getF32Type(), ac::Position::C2, name);
  // DataCopy L1 -> BiasTable with two element types moves blockLen units of
  // 64 (c220) / 32 (c310) bytes of the source (its page; Huawei's Matmul
  // rounds the same way, load_bias_to_c2.h): the widened bursts land in the
  // buffer's tail.
  int64_t burst = (c310 ? 32 : 64) / (elem.getIntOrFloatBitWidth() / 8);
  return newBuffer(loc, {(n + burst - 1) / burst * burst}, builder.getF32Type(), ac::Position::C2,
                   name);
}

LogicalResult Lowering::checkInt8Rhs(Operation *op, at::TileType dst, bool asStored,
                                     int64_t row0) {
  // int8 B goes to L0B as stored through LoadDataWithTranspose on c220,
  // whose b8 squares are 32 x 32 (the emitter, CubeCalls.cpp).
  if (c310 || !asStored || !dst.getElementType().isInteger(8) ||
      dst.getLocation() != at::TileLocation::L0B)
    return success();
  if (dst.getShape()[0] % 32 || dst.getShape()[1] % 32 || row0 % 32)
    return op->emitError() << "an int8 right operand is moved to L0B in 32 x 32 squares on Atlas "
                              "A2/A3 (LoadDataWithTranspose): its rows, columns and first row must "
                              "be multiples of 32, got "
                           << dst.getShape()[0] << " x " << dst.getShape()[1] << " from row "
                           << row0;
  return success();
}

bool Lowering::needsLoad3D(Type dtype, bool toL0b, bool transpose) const {
  return !c310 && dtype.isF32() && toL0b != transpose;
}

void Lowering::load3D(Location loc, Value l0, Value l1, int64_t row0, int64_t col0,
                      ValueRange start) {
  // Huawei's Matmul on c220 (load_to_l0b_loadInstr.h, load_to_l0a_loadInstr.h,
  // LOAD3DV2): the L1 tile is a 1 x rows feature map of `cols` channels;
  // B's window is K x N, A's is A^T (K x M) with enTranspose.
  auto src = cast<ac::LocalType>(l1.getType());
  auto dst = cast<ac::LocalType>(l0.getType());
  bool toL0a = dst.getSpaceName() == "L0A";
  int64_t mExt = dst.getShape()[toL0a ? 1 : 0], kExt = dst.getShape()[toL0a ? 0 : 1];
  builder.create<ac::LoadData3DV2Op>(loc, l0, l1, start, /*l1H=*/1, /*l1W=*/src.getShape()[0],
                                     /*channelSize=*/src.getShape()[1], mExt, kExt, row0, col0,
                                     /*enTranspose=*/toL0a);
}

LogicalResult Lowering::lowerMove(at::MoveOp op) {
  builder.setInsertionPoint(op);
  at::TileType src = op.getSource().getType(), dst = op.getResult().getType();
  if (src.getLocation() == at::TileLocation::L1 &&
      (dst.getLocation() == at::TileLocation::L0A ||
       dst.getLocation() == at::TileLocation::L0B)) {
    auto in = bufferOf(op, op.getSource());
    if (failed(in))
      return failure();
    ArrayRef<int64_t> offs = op.getOffsets();
    if (dst.getShape().size() != 2 || offs[0] % 16 || offs[1] % 16 ||
        dst.getShape()[0] % 16 || dst.getShape()[1] % 16)
      return op.emitOpError() << "L1 -> " << at::stringifyTileLocation(dst.getLocation())
                              << " moves whole 16x16 fractals: offsets and shape "
                                 "must be multiples of 16";
    bool toL0b = dst.getLocation() == at::TileLocation::L0B;
    if (failed(checkInt8Rhs(op, dst, toL0b && !op.getTranspose(), offs[0])))
      return failure();
    Value l0 = newBuffer(op.getLoc(), dst,
                         cubePosition(dst.getLocation(), false), "l0");
    if (needsLoad3D(src.getElementType(), toL0b, op.getTranspose())) {
      // float32 on c220: B's K x N sub-tile as stored, or A's transposed one.
      load3D(op.getLoc(), l0, *in, offs[0], offs[1], op.getDynamic());
      buffers[op.getResult()] = l0;
      return success();
    }
    auto load = builder.create<ac::LoadDataOp>(op.getLoc(), l0, *in, op.getDynamic(),
                                               offs[0], offs[1]);
    if (op.getTranspose()) // LoadData transposes the sub-tile on the way
      load.setTranspose(true);
    buffers[op.getResult()] = l0;
    return success();
  }
  if (src.getLocation() == at::TileLocation::L1 &&
      dst.getLocation() == at::TileLocation::BT) {
    // Part of a bias row staged in L1 -> the bias table (f32, widened).
    auto in = bufferOf(op, op.getSource());
    if (failed(in))
      return failure();
    Location loc = op.getLoc();
    Value offset = op.getDynamic().empty() ? indexConst(loc, op.getOffsets().back())
                                           : op.getDynamic().back();
    Value bt = newBiasTable(loc, dst, src.getElementType(), "bias");
    builder.create<ac::CopyBiasOp>(loc, bt, *in, offset, dst.getNumElements());
    buffers[op.getResult()] = bt;
    return success();
  }
  if (src.getLocation() == at::TileLocation::UB &&
      dst.getLocation() == at::TileLocation::UB) {
    // A sub-tile of a UB tile: its rows copied on the vector pipe.
    auto in = bufferOf(op, op.getSource());
    if (failed(in))
      return failure();
    auto [srcRows, srcCols] = rowsCols(src);
    auto [rows, cols] = rowsCols(dst);
    ArrayRef<int64_t> offs = op.getOffsets();
    int64_t rank = offs.size();
    int64_t colOff = offs[rank - 1], rowOff = 0, stride = 1;
    for (int64_t d = rank - 2; d >= 0; --d) { // leading dims fold into rows
      rowOff += offs[d] * stride;
      stride *= src.getShape()[d];
    }
    if (rank > 2 && llvm::any_of(dst.getShape().drop_back(2), [](int64_t d) { return d != 1; }))
      return op.emitOpError() << "UB sub-tiles keep at most two non-unit dimensions";
    Location loc = op.getLoc();
    Value out = newBuffer(loc, dst, ac::Position::VECCALC, "copy");
    if (failed(copyRows(op, out, *in,
                        RowCopy{rows, cols, cols, srcCols, 0, rowOff * srcCols + colOff})))
      return failure();
    buffers[op.getResult()] = out;
    return success();
  }
  if (src.getLocation() == at::TileLocation::L0C &&
      dst.getLocation() == at::TileLocation::L1) {
    // The fixpipe stages a matmul result (relu and casts folded in) in L1.
    bool relu = false;
    auto in = fixpipeSource(op, relu);
    if (failed(in))
      return failure();
    if (!llvm::all_of(op.getOffsets(), [](int64_t o) { return o == 0; }) ||
        dst.getShape() != src.getShape())
      return op.emitOpError() << "L0C -> L1 moves the whole tile";
    Value l1 = newBuffer(op.getLoc(), dst, ac::Position::A1, "staged");
    builder.create<ac::FixpipeL1Op>(op.getLoc(), l1, *in, relu);
    buffers[op.getResult()] = l1;
    return success();
  }
  if (src.getLocation() == at::TileLocation::L0C &&
      dst.getLocation() == at::TileLocation::UB && c310)
    return lowerL0CToUB(op);
  if (src.getLocation() == at::TileLocation::UB &&
      dst.getLocation() == at::TileLocation::L1 && c310)
    return lowerUBToL1(op);
  if (src.getLocation() == at::TileLocation::L0C)
    return op.emitOpError()
           << "L0C -> " << at::stringifyTileLocation(dst.getLocation())
           << " has no data path on " << (c310 ? "Ascend950" : "Atlas A2/A3 (only Ascend950 moves L0C -> UB)")
           << ": store the accumulator with copy_out (fixpipe) and copy_in the result where you "
              "need it (or stage it in L1 for another matmul)";
  if (src.getLocation() == at::TileLocation::UB && dst.getLocation() == at::TileLocation::L1)
    return op.emitOpError() << "UB -> L1 has no data path on Atlas A2/A3 (only Ascend950 copies "
                               "UB -> L1): copy_out the tile and copy_in it to L1";
  return op.emitOpError() << "moving a tile from "
                          << at::stringifyTileLocation(src.getLocation()) << " to "
                          << at::stringifyTileLocation(dst.getLocation())
                          << " is not supported (supported: UB sub-tiles, L1 -> L0A/L0B, L0C -> L1; "
                             "on Ascend950 also L0C -> UB and UB -> L1)";
}

FailureOr<Value> Lowering::fixpipeSource(at::MoveOp op, bool &relu) {
  auto it = l0cViews.find(op.getSource());
  L0CView v = it == l0cViews.end() ? L0CView{op.getSource(), false} : it->second;
  if (zeroAccumulators.contains(v.tile))
    return op.emitOpError() << "moves a zero accumulator that no matmul_acc wrote";
  relu = v.relu;
  return bufferOf(op, v.tile);
}

LogicalResult Lowering::lowerL0CToUB(at::MoveOp op) {
  // The cube core's fixpipe writes the matmul result (relu and casts folded
  // in, as into L1) into its vector core's UB: NZ -> ND rows.
  at::TileType src = op.getSource().getType(), dst = op.getResult().getType();
  bool relu = false;
  auto in = fixpipeSource(op, relu);
  if (failed(in))
    return failure();
  // The whole tile or a band of its rows from a fractal row boundary, all
  // columns; split: this vector core's half of them (the dual-destination
  // fixpipe).
  ArrayRef<int64_t> offsets = op.getOffsets();
  if (src.getShape().size() != 2 || offsets[1] != 0 || dst.getShape()[1] != src.getShape()[1])
    return op.emitOpError() << "L0C -> UB moves whole rows of a 2-D tile";
  if (offsets[0] % 16)
    return op.emitOpError() << "L0C -> UB moves rows from a 16-row fractal boundary, not from row "
                            << offsets[0];
  Type from = cast<ac::LocalType>(in->getType()).getElementType(), to = dst.getElementType();
  if (!(from.isF32() ? (to.isF32() || to.isF16() || to.isBF16()) : from == to))
    return op.emitOpError() << "the fixpipe moves a " << from << " accumulator to UB as f32, f16 or "
                            << "bf16 (i32 as it is), not as " << to;
  Value ub = newBuffer(op.getLoc(), dst, ac::Position::VECCALC, "fixpiped");
  builder.create<ac::FixpipeUbOp>(op.getLoc(), ub, *in, relu, /*dual=*/op.getSplit(),
                                  /*row=*/offsets[0]);
  buffers[op.getResult()] = ub;
  return success();
}

LogicalResult Lowering::lowerUBToL1(at::MoveOp op) {
  // The vector core copies its UB (sub-)tile into the cube core's L1, ND ->
  // NZ (a 1-D row stays a row: a bias row for the bias table).
  at::TileType src = op.getSource().getType(), dst = op.getResult().getType();
  auto in = bufferOf(op, op.getSource());
  if (failed(in))
    return failure();
  Location loc = op.getLoc();
  int64_t bytes = std::max<int64_t>(1, dst.getElementType().getIntOrFloatBitWidth() / 8);
  int64_t rank = dst.getShape().size();
  if (rank > 2)
    return op.emitOpError() << "UB -> L1 copies 1-D rows or 2-D tiles, not " << dst;
  // The first element: static offsets plus the runtime ones, row-major in src.
  ArrayRef<int64_t> offs = op.getOffsets();
  ValueRange dyn = op.getDynamic();
  Value first = indexConst(loc, 0);
  int64_t stride = 1;
  for (int64_t d = rank - 1; d >= 0; --d) {
    Value o = indexConst(loc, offs[d]);
    if (!dyn.empty())
      o = builder.create<arith::AddIOp>(loc, o, dyn[d]);
    Value term = builder.create<arith::MulIOp>(loc, o, indexConst(loc, stride));
    first = builder.create<arith::AddIOp>(loc, first, term);
    stride *= src.getShape()[d];
  }
  // A DataCopy moves 32-byte blocks: the sub-tile's columns start on one
  // (runtime offsets are checked when the copy runs).
  if ((offs.back() * bytes) % 32)
    return op.emitOpError() << "UB -> L1 copies start on a 32-byte block: column offset "
                            << offs.back() << " of " << dst.getElementType() << " is "
                            << offs.back() * bytes << " bytes";
  if (rank == 2 && (dst.getShape()[0] % 16 || dst.getShape()[1] % 16))
    return op.emitOpError() << "UB -> L1 fills whole 16 x 16 fractals: " << dst;
  if ((dst.getShape().back() * bytes) % 32)
    return op.emitOpError() << "UB -> L1 copies whole 32-byte blocks: a row of "
                            << dst.getShape().back() << " x " << dst.getElementType() << " is not";
  // split: this vector core's rows land from row sub_block_idx * rows.
  Value row;
  if (op.getSplit())
    row = builder.create<arith::MulIOp>(
        loc, builder.create<ac::GetSubBlockIdxOp>(loc, builder.getIndexType()),
        indexConst(loc, src.getShape()[0]));
  Value l1 = newBuffer(loc, dst, ac::Position::A1, "from_ub");
  builder.create<ac::CopyUbToL1Op>(loc, l1, *in, first, row);
  buffers[op.getResult()] = l1;
  return success();
}

LogicalResult Lowering::lowerMatmul(Operation *op, Value acc, Value lhs, Value rhs,
                                    Value bias) {
  builder.setInsertionPoint(op);
  Location loc = op->getLoc();
  auto a = bufferOf(op, lhs);
  auto b = bufferOf(op, rhs);
  if (failed(a) || failed(b))
    return failure();
  auto tile = cast<at::TileType>(op->getResult(0).getType());
  Value dst, init;
  if (!acc || zeroAccumulators.contains(acc)) {
    dst = newBuffer(loc, tile, ac::Position::CO1, acc ? "acc" : "matmul");
    init = builder.create<arith::ConstantIntOp>(loc, 1, 1);
    if (acc)
      bias = zeroBias.lookup(acc);
  } else {
    // matmul_acc updates the accumulator in place, so the accumulator must
    // not be read after it (value semantics would need an L0C copy).
    auto readAfter = [&](Operation *user) {
      // Walk out from `op` to the first block that also holds `user`; a use
      // in another branch of an enclosing scf.if never runs after `op`.
      for (Operation *cur = op; cur; cur = cur->getParentOp()) {
        if (!cur->getBlock())
          return false;
        if (Operation *u = cur->getBlock()->findAncestorOpInBlock(*user))
          return u != cur && cur->isBeforeInBlock(u);
      }
      return false;
    };
    for (Operation *user : acc.getUsers()) {
      if (user == op)
        continue;
      if (readAfter(user))
        return op->emitOpError()
               << "updates its accumulator in place, but the accumulator is "
                  "used again afterwards; use the result of matmul_acc instead";
    }
    if (l0cViews.count(acc))
      return op->emitOpError() << "accumulates into a relu/cast of an L0C tile; "
                                  "those only fold into copy_out";
    auto ab = bufferOf(op, acc);
    if (failed(ab))
      return failure();
    dst = *ab;
    // A zero accumulator carried into (nested) loops: the mmad overwrites on
    // the first trip of every loop between it and the zero (iv == lb for
    // each), and starts from the zero's bias then.
    Value first, zero;
    for (Value cur = acc; auto arg = dyn_cast<BlockArgument>(cur);) {
      auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
      if (!loop || arg.getArgNumber() == 0)
        break;
      Value trip = builder.create<arith::CmpIOp>(loc, arith::CmpIPredicate::eq,
                                                 loop.getInductionVar(), loop.getLowerBound());
      first = first ? builder.create<arith::AndIOp>(loc, first, trip).getResult() : trip;
      Value initArg = loop.getInitArgs()[arg.getArgNumber() - 1];
      if (zeroAccumulators.contains(initArg)) {
        zero = initArg;
        break;
      }
      cur = initArg;
    }
    if (zero) {
      init = first;
      bias = zeroBias.lookup(zero);
    } else {
      init = builder.create<arith::ConstantIntOp>(loc, 0, 1);
    }
  }
  Value biasBuffer;
  if (bias) {
    auto bb = bufferOf(op, bias);
    if (failed(bb))
      return failure();
    biasBuffer = *bb;
  }
  auto mmad = builder.create<ac::MmadOp>(loc, dst, *a, *b, init, biasBuffer);
  if (op->hasAttr("hf32")) // float32 operands rounded to HF32 (SetHF32Mode)
    mmad.setHf32(true);
  buffers[op->getResult(0)] = dst;
  return success();
}

LogicalResult Lowering::foldL0CElementwise(Operation *op) {
  Value result = op->getResult(0);
  auto base = [&](Value v) {
    auto it = l0cViews.find(v);
    return it == l0cViews.end() ? L0CView{v, false} : it->second;
  };
  if (auto c = dyn_cast<at::CastOp>(op)) {
    l0cViews[result] = base(c.getSource());
    return success();
  }
  if (isa<arith::MaximumFOp, arith::MaxNumFOp, arith::MaxSIOp>(op)) {
    for (unsigned i = 0; i < 2; ++i) {
      Value s = splatScalar(op->getOperand(i));
      if (s && (matchPattern(s, m_AnyZeroFloat()) || matchPattern(s, m_Zero()))) {
        L0CView v = base(op->getOperand(1 - i));
        v.relu = true;
        l0cViews[result] = v;
        return success();
      }
    }
  }
  return op->emitOpError()
         << "on an L0C tile: only relu and dtype casts apply to matmul results "
            "(the fixpipe does them on copy_out); for other vector work, "
            "copy_out the result and copy_in it to UB";
}

LogicalResult Lowering::lowerL0CStore(Operation *op, Value tile,
                                      const GlobalView &view, ValueRange offsets,
                                      ac::AtomicKind atomic) {
  Location loc = op->getLoc();
  auto it = l0cViews.find(tile);
  L0CView v = it == l0cViews.end() ? L0CView{tile, false} : it->second;
  if (zeroAccumulators.contains(v.tile))
    return op->emitOpError() << "stores a zero accumulator that no matmul_acc "
                                "wrote; store asc2.zeros from UB instead";
  auto src = bufferOf(op, v.tile);
  if (failed(src))
    return failure();
  AccessPlan plan;
  at::TileType type = cast<at::TileType>(tile.getType());
  if (failed(cubeAccessPlan(op, builder, view.dims, offsets, type,
                            linearOffset(loc, view, offsets), plan)))
    return failure();
  builder.create<ac::FixpipeOp>(loc, view.gm, plan.offset, *src, plan.colCount,
                                plan.rowCount, plan.rowStride, v.relu, atomic);
  return success();
}

} // namespace asc2::asctile_to_ascendc
