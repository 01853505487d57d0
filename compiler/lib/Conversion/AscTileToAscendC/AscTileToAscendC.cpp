//===- AscTileToAscendC.cpp - tiles to buffers, ops to basic-API calls -----===//
//
// Each tile value becomes one local buffer. Loads and stores move the part of
// the tile that lies inside the tensor (count = clamp(extent - offset, 0,
// tile) per dimension), loads pad the rest, so partial tiles never touch
// memory out of bounds. Tile arithmetic becomes one vector op per arith/math
// op; an operand made by asctile.splat becomes the scalar of the op's scalar
// form (Adds, Muls, ...) and gets a buffer only when an op needs one.
//
//===----------------------------------------------------------------------===//
#include "asc2/Conversion/Passes.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/TypeSwitch.h"

#define DEBUG_TYPE "convert-asctile-to-ascendc"

namespace asc2 {
#define GEN_PASS_DEF_CONVERTASCTILETOASCENDC
#include "asc2/Conversion/Passes.h.inc"
} // namespace asc2

using namespace mlir;
using namespace asc2;
namespace at = asc2::asctile;
namespace ac = asc2::ascendc;

namespace {

/// A global tensor after lowering: the GM argument and one index value per
/// dimension.
struct GlobalView {
  Value gm;
  SmallVector<Value> dims;
};

/// How a tile access maps onto GM: element offset of its first element, and
/// rows x cols of which `rowCount` x `colCount` are inside the tensor.
struct AccessPlan {
  Value offset, colCount, rowCount, rowStride;
  bool twoD = false; // strided rows (else one contiguous run of colCount)
};

class Lowering {
public:
  Lowering(func::FuncOp func) : func(func), builder(func.getContext()) {}
  LogicalResult run();

private:
  LogicalResult lowerOp(Operation *op);
  LogicalResult lowerBlockOps(Block &block);
  LogicalResult lowerLoad(at::LoadOp op);
  LogicalResult lowerStore(Operation *op, Value tile, Value tensor,
                           ValueRange offsets, ac::AtomicKind atomic,
                           ValueRange realShape = {});
  LogicalResult lowerElementwise(Operation *op);
  LogicalResult lowerReduce(at::ReduceOp op);
  LogicalResult lowerBroadcast(at::BroadcastOp op);
  LogicalResult lowerFor(scf::ForOp op);
  LogicalResult lowerIf(scf::IfOp op);
  LogicalResult lowerTranspose(at::TransposeOp op);
  // --- masks (with asc2.mask) ---
  /// The asctile.mask that is the only user of `op`'s result and whose mask
  /// operands are defined before `op`: `op` is then computed on the selected
  /// lanes only, into a buffer prefilled with the mask's `other`.
  at::MaskOp fusableMask(Operation *op, bool dryRun = false);
  /// Whether every user of the mask's result is an op computed under the
  /// same mask (so the lanes left out are never read).
  bool onlyReadUnderMask(at::MaskOp mask);
  /// How a masked op is issued: its element count (clamped for a count
  /// mask, the whole tile for a bit mask) and the (high, low) bits operands.
  struct MaskArgs {
    Value count;
    SmallVector<Value, 2> bits;
  };
  /// Tags a vector op issued under a count mask (`asc2.counter_mask`): the
  /// emitter writes it in counter mode (SetMaskCount ... SetMaskNorm).
  void markCounter(Operation *op, at::MaskOp mask) {
    if (mask && mask.getCount())
      op->setAttr("asc2.counter_mask", builder.getUnitAttr());
  }
  /// Count and lane bits of `op` writing `dst`: the whole tile, or the lanes
  /// of the mask fused into it (`mask`, null when none; dst prefilled).
  MaskArgs laneArgs(Operation *op, Value dst, at::TileType t, at::MaskOp &mask) {
    mask = fusableMask(op);
    if (mask)
      return applyMask(op->getLoc(), mask, dst, t);
    return MaskArgs{countOf(op->getLoc(), t), {}};
  }
  /// `result` (and the mask fused into its op) now live in `dst`.
  void setMaskedResult(Value result, Value dst, at::MaskOp mask) {
    buffers[result] = dst;
    if (mask) {
      buffers[mask.getResult()] = dst;
      fusedMasks.insert(mask);
    }
  }
  /// Fills `dst` with the mask's `other` and returns the op's MaskArgs.
  MaskArgs applyMask(Location loc, at::MaskOp mask, Value dst, at::TileType t);
  /// A mask whose value could not be computed under it (a shared op): fill
  /// `other`, then copy the selected lanes of the value.
  LogicalResult lowerMask(at::MaskOp op);
  // --- cube unit ---
  LogicalResult lowerCubeLoad(at::LoadOp op, const GlobalView &view);
  LogicalResult lowerMove(at::MoveOp op);
  LogicalResult lowerMatmul(Operation *op, Value acc, Value lhs, Value rhs,
                            Value bias);
  LogicalResult lowerL0CStore(Operation *op, Value tile, const GlobalView &view,
                              ValueRange offsets, ac::AtomicKind atomic);
  LogicalResult foldL0CElementwise(Operation *op);
  /// An L0C tile the fixpipe can store: its buffer and whether ReLU applies
  /// (relu and casts of L0C tiles fold into the store).
  struct L0CView {
    Value tile;   // the tile holding the accumulated values
    bool relu = false;
  };
  LogicalResult planAccess(Operation *op, const GlobalView &view,
                           at::TileType tile, ValueRange offsets,
                           AccessPlan &plan, ValueRange realShape = {});

  Value newBuffer(Location loc, at::TileType tile, ac::Position pos,
                  StringRef name);
  Value newBuffer(Location loc, ArrayRef<int64_t> shape, Type elem,
                  ac::Position pos, StringRef name);
  /// The buffer holding `tile`, materialising a splat on first use.
  FailureOr<Value> bufferOf(Operation *user, Value tile);
  /// The scalar of a splat tile, or null.
  Value splatScalar(Value tile) { return splats.lookup(tile); }
  Value indexConst(Location loc, int64_t v) {
    return builder.create<arith::ConstantIndexOp>(loc, v);
  }
  Value countOf(Location loc, at::TileType t) {
    return indexConst(loc, t.getNumElements());
  }
  /// Copies buffer `src` into `dst` on the vector pipe (x * 1 is exact).
  void copyBuffer(Location loc, Value dst, Value src, at::TileType t);
  std::string argName(Value gm);
  /// Element offset of `offsets` in the row-major tensor `view`.
  Value linearOffset(Location loc, const GlobalView &view, ValueRange offsets) {
    Value linear = offsets.back();
    Value stride = view.dims.back();
    for (int d = (int)offsets.size() - 2; d >= 0; --d) {
      Value term = builder.create<arith::MulIOp>(loc, offsets[d], stride);
      linear = builder.create<arith::AddIOp>(loc, linear, term);
      stride = builder.create<arith::MulIOp>(loc, stride, view.dims[d]);
    }
    return linear;
  }

  func::FuncOp func;
  OpBuilder builder;
  DenseMap<Value, GlobalView> tensors;
  DenseMap<Value, Value> buffers; // tile value -> local buffer
  DenseMap<Value, Value> splats;  // splat tile -> its scalar
  /// A scalar that a full reduction left in a one-element buffer, and splats
  /// of it: those fill their tile from the buffer on the vector pipe instead
  /// of a round trip through the scalar unit.
  DenseMap<Value, Value> reducedScalars;
  DenseMap<Value, Value> bufferSplats; // splat tile -> one-element buffer
  DenseSet<Operation *> fusedMasks;     // masks applied by their producer
  SmallVector<Operation *> dead;
  llvm::StringMap<int> nameCounts;
  /// Cube unit: zero accumulators (never materialised; an mmad into one, or
  /// into one carried by loops, overwrites on the loops' first trips), and
  /// relu/cast views of L0C tiles.
  DenseSet<Value> zeroAccumulators;
  /// The bias a zero accumulator starts from (zeros_acc(bias=...)).
  DenseMap<Value, Value> zeroBias;
  DenseMap<Value, L0CView> l0cViews;
};

} // namespace

static ac::Position positionFor(at::TileLocation loc) {
  switch (loc) {
  case at::TileLocation::L1:
    return ac::Position::A1;
  case at::TileLocation::L0A:
    return ac::Position::A2;
  case at::TileLocation::L0B:
    return ac::Position::B2;
  case at::TileLocation::L0C:
    return ac::Position::CO1;
  default:
    return ac::Position::VECCALC;
  }
}

static bool isTile(Type t) { return isa<at::TileType>(t); }

std::string Lowering::argName(Value gm) {
  if (auto arg = dyn_cast<BlockArgument>(gm))
    if (auto names = func->getAttrOfType<ArrayAttr>("asctile.arg_names"))
      if (arg.getArgNumber() < names.size())
        if (auto s = dyn_cast<StringAttr>(names[arg.getArgNumber()]))
          return s.str();
  return "gm";
}

Value Lowering::newBuffer(Location loc, ArrayRef<int64_t> shape, Type elem,
                          ac::Position pos, StringRef base) {
  int n = nameCounts[base]++;
  std::string name = n == 0 ? base.str() : (base + "_" + Twine(n)).str();
  auto type = ac::LocalType::get(builder.getContext(), shape, elem, pos);
  // The unrolled copy the tile belongs to is its ping/pong slot.
  IntegerAttr slot;
  if (Operation *at = builder.getInsertionBlock() && builder.getInsertionPoint() !=
                              builder.getInsertionBlock()->end()
                          ? &*builder.getInsertionPoint()
                          : nullptr)
    slot = at->getAttrOfType<IntegerAttr>("asctile.copy");
  auto alloc = builder.create<ac::AllocLocalOp>(
      loc, type, /*offset=*/IntegerAttr(), builder.getStringAttr(name), slot);
  return alloc.getBuffer();
}

Value Lowering::newBuffer(Location loc, at::TileType tile, ac::Position pos,
                          StringRef base) {
  return newBuffer(loc, tile.getShape(), tile.getElementType(), pos, base);
}

FailureOr<Value> Lowering::bufferOf(Operation *user, Value tile) {
  if (Value b = buffers.lookup(tile))
    return b;
  Value one = bufferSplats.lookup(tile), scalar = splats.lookup(tile);
  if (one || scalar) {
    // A splat gets a buffer only when an op needs one: filled from the
    // one-element buffer of a reduction on the vector pipe, or from a scalar.
    OpBuilder::InsertionGuard guard(builder);
    Operation *def = tile.getDefiningOp();
    builder.setInsertionPoint(def);
    auto type = cast<at::TileType>(tile.getType());
    Location loc = def->getLoc();
    Value b = newBuffer(loc, type, positionFor(type.getLocation()), "splat");
    if (one)
      builder.create<ac::BroadcastOp>(loc, b, one, indexConst(loc, 1),
                                      countOf(loc, type), 1);
    else
      builder.create<ac::DuplicateOp>(loc, b, scalar, countOf(loc, type));
    buffers[tile] = b;
    return b;
  }
  if (l0cViews.count(tile))
    return user->emitOpError()
           << "uses a relu/cast of an L0C tile; those only fold into copy_out "
              "(fixpipe): copy_out the matmul result and copy_in it to UB for "
              "vector work";
  return user->emitOpError() << "uses a tile that has no buffer";
}

void Lowering::copyBuffer(Location loc, Value dst, Value src, at::TileType t) {
  Type elem = t.getElementType();
  Value one = isa<FloatType>(elem)
                  ? builder.create<arith::ConstantOp>(loc, builder.getFloatAttr(elem, 1.0))
                  : builder.create<arith::ConstantOp>(loc, builder.getIntegerAttr(elem, 1));
  builder.create<ac::MulsOp>(loc, dst, src, one, countOf(loc, t),
                             /*scalar_first=*/false, ValueRange{});
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
  // The extent of dimension d moved: inside the tensor, within the tile and
  // within real_shape[d] when given.
  auto clamp = [&](int64_t d) {
    Value remaining = builder.create<arith::SubIOp>(loc, view.dims[d], offsets[d]);
    Value n = builder.create<arith::MinSIOp>(loc, remaining, indexConst(loc, shape[d]));
    if (!realShape.empty())
      n = builder.create<arith::MinSIOp>(loc, n, realShape[d]);
    return builder.create<arith::MaxSIOp>(loc, n, indexConst(loc, 0)).getResult();
  };
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
  Value buf = newBuffer(op.getLoc(), tile, ac::Position::VECIN,
                        argName(it->second.gm));
  TypedAttr pad = op.getPadValueAttr();
  if (!pad)
    pad = builder.getZeroAttr(tile.getElementType());
  builder.create<ac::DataCopyInOp>(
      op.getLoc(), buf, it->second.gm, plan.offset, plan.colCount,
      plan.twoD ? plan.rowCount : Value(), plan.twoD ? plan.rowStride : Value(),
      pad);
  buffers[op.getResult()] = buf;
  return success();
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
  if (failed(planAccess(op, it->second, cast<at::TileType>(tile.getType()),
                        offsets, plan, realShape)))
    return failure();
  builder.create<ac::DataCopyOutOp>(
      op->getLoc(), it->second.gm, plan.offset, *src, plan.colCount,
      plan.twoD ? plan.rowCount : Value(), plan.twoD ? plan.rowStride : Value(),
      atomic);
  return success();
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
          .Case<arith::AddFOp, arith::AddIOp>(
              [&](auto) { return binary(ac::AddOp(), ac::AddsOp()); })
          .Case<arith::SubFOp, arith::SubIOp>(
              [&](auto) { return binary(ac::SubOp(), ac::SubsOp()); })
          .Case<arith::MulFOp, arith::MulIOp>(
              [&](auto) { return binary(ac::MulOp(), ac::MulsOp()); })
          .Case<arith::DivFOp, arith::DivSIOp>(
              [&](auto) { return binary(ac::DivOp(), ac::DivsOp()); })
          .Case<arith::FloorDivSIOp>(
              [&](auto) { return binary(ac::FloorDivOp(), ac::FloorDivsOp()); })
          .Case<arith::MaximumFOp, arith::MaxNumFOp, arith::MaxSIOp>(
              [&](auto) { return binary(ac::MaxOp(), ac::MaxsOp()); })
          .Case<arith::MinimumFOp, arith::MinNumFOp, arith::MinSIOp>(
              [&](auto) { return binary(ac::MinOp(), ac::MinsOp()); })
          .Case<arith::AndIOp>([&](auto) { return binary(ac::AndOp(), ac::AndsOp()); })
          .Case<arith::OrIOp>([&](auto) { return binary(ac::OrOp(), ac::OrsOp()); })
          .Case<arith::XOrIOp>([&](auto) { return binary(ac::XorOp(), ac::XorsOp()); })
          .Case<arith::ShLIOp>([&](auto) { return binary(ac::ShlOp(), ac::ShlsOp()); })
          .Case<arith::ShRSIOp>([&](auto) { return binary(ac::ShrOp(), ac::ShrsOp()); })
          .Case<math::ExpOp>([&](auto) { return unary(ac::ExpOp()); })
          .Case<math::LogOp>([&](auto) { return unary(ac::LnOp()); })
          .Case<math::SqrtOp>([&](auto) { return unary(ac::SqrtOp()); })
          .Case<math::RsqrtOp>([&](auto) { return unary(ac::RsqrtOp()); })
          .Case<math::AbsFOp, math::AbsIOp>([&](auto) { return unary(ac::AbsOp()); })
          .Case<arith::NegFOp>([&](auto) { return unary(ac::NegOp()); })
          .Default([&](Operation *o) {
            return o->emitOpError()
                   << "on tiles is not supported by the ascendc lowering yet";
          });
  if (failed(status))
    return failure();
  setMaskedResult(op->getResult(0), result, mask);
  return success();
}

/// rows x cols view of a tile: everything but the last dimension is rows.
static std::pair<int64_t, int64_t> rowsCols(at::TileType t) {
  ArrayRef<int64_t> s = t.getShape();
  return {t.getNumElements() / s.back(), s.back()};
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

LogicalResult Lowering::lowerBroadcast(at::BroadcastOp op) {
  builder.setInsertionPoint(op);
  Location loc = op.getLoc();
  at::TileType src = op.getSource().getType(), dst = op.getResult().getType();
  Value result = newBuffer(loc, dst, positionFor(dst.getLocation()), "broadcast");
  Value count = countOf(loc, dst);
  if (Value s = splatScalar(op.getSource())) {
    builder.create<ac::DuplicateOp>(loc, result, s, count);
    buffers[op.getResult()] = result;
    return success();
  }
  auto in = bufferOf(op, op.getSource());
  if (failed(in))
    return failure();
  auto [rows, cols] = rowsCols(dst);
  auto [srows, scols] = rowsCols(src);
  if (src.getNumElements() == 1) {
    // One value to every element, on the vector pipe (no scalar round trip).
    builder.create<ac::BroadcastOp>(loc, result, *in, indexConst(loc, 1), count, 1);
  } else if (scols == 1 && srows == rows) {
    builder.create<ac::BroadcastOp>(loc, result, *in, indexConst(loc, rows),
                                    indexConst(loc, cols), 1);
  } else if (srows == 1 && scols == cols) {
    builder.create<ac::BroadcastOp>(loc, result, *in, indexConst(loc, rows),
                                    indexConst(loc, cols), 0);
  } else {
    return op.emitOpError() << "broadcast from " << src << " to " << dst
                            << " is not supported yet";
  }
  buffers[op.getResult()] = result;
  return success();
}

LogicalResult Lowering::lowerFor(scf::ForOp op) {
  // Loop-carried tiles live in one buffer for the whole loop: the init value
  // is copied in before the loop and each yielded value at the end of the
  // body.
  SmallVector<std::pair<unsigned, Value>> carried;
  for (auto [i, init] : llvm::enumerate(op.getInitArgs())) {
    if (!isTile(init.getType()))
      continue;
    auto t = cast<at::TileType>(init.getType());
    builder.setInsertionPoint(op);
    if (t.getLocation() == at::TileLocation::L0C) {
      // Accumulators stay in place in L0C (there is no L0C -> L0C copy): a
      // zero accumulator gets a fresh buffer whose first mmad overwrites it.
      Value buf;
      if (zeroAccumulators.contains(init)) {
        buf = newBuffer(op.getLoc(), t, ac::Position::CO1, "acc");
      } else {
        if (!init.hasOneUse())
          return op.emitOpError() << "carries an L0C accumulator that is also "
                                     "used elsewhere; L0C tiles are updated in place";
        auto initBuf = bufferOf(op, init);
        if (failed(initBuf))
          return failure();
        buf = *initBuf;
      }
      buffers[op.getRegionIterArgs()[i]] = buf;
      buffers[op.getResult(i)] = buf;
      carried.push_back({(unsigned)i, buf});
      continue;
    }
    auto initBuf = bufferOf(op, init);
    if (failed(initBuf))
      return failure();
    Value buf = newBuffer(op.getLoc(), t, positionFor(t.getLocation()), "carried");
    copyBuffer(op.getLoc(), buf, *initBuf, t);
    buffers[op.getRegionIterArgs()[i]] = buf;
    buffers[op.getResult(i)] = buf;
    carried.push_back({(unsigned)i, buf});
  }
  if (failed(lowerBlockOps(*op.getBody())))
    return failure();
  if (carried.empty())
    return success();
  auto yield = cast<scf::YieldOp>(op.getBody()->getTerminator());
  builder.setInsertionPoint(yield);
  for (auto [i, buf] : carried) {
    Value yielded = yield.getOperand(i);
    auto ybuf = bufferOf(yield, yielded);
    if (failed(ybuf))
      return failure();
    if (*ybuf != buf &&
        cast<at::TileType>(yielded.getType()).getLocation() == at::TileLocation::L0C)
      return yield.emitOpError()
             << "yields an L0C tile that is not the loop's accumulator updated "
                "in place (accumulate with acc = asc2.matmul_acc(acc, a, b))";
    if (*ybuf != buf)
      copyBuffer(yield.getLoc(), buf, *ybuf, cast<at::TileType>(yielded.getType()));
  }
  // Drop the tile iter_args: rebuild the loop without them.
  SmallVector<Value> keptInits;
  SmallVector<unsigned> keptIdx;
  for (auto [i, init] : llvm::enumerate(op.getInitArgs()))
    if (!isTile(init.getType())) {
      keptInits.push_back(init);
      keptIdx.push_back(i);
    }
  builder.setInsertionPoint(op);
  auto newFor = builder.create<scf::ForOp>(op.getLoc(), op.getLowerBound(),
                                           op.getUpperBound(), op.getStep(),
                                           keptInits);
  newFor->setAttrs(op->getAttrs());
  Block *newBody = newFor.getBody();
  // Move the body over.
  newBody->getOperations().splice(newBody->begin(), op.getBody()->getOperations());
  // The new body had an implicit terminator when it had no iter_args; remove
  // duplicates: keep the moved yield and erase any other.
  for (Operation &o : llvm::make_early_inc_range(*newBody))
    if (isa<scf::YieldOp>(o) && &o != yield.getOperation())
      o.erase();
  op.getInductionVar().replaceAllUsesWith(newFor.getInductionVar());
  for (auto [n, i] : llvm::enumerate(keptIdx)) {
    op.getRegionIterArgs()[i].replaceAllUsesWith(newFor.getRegionIterArgs()[n]);
    op.getResult(i).replaceAllUsesWith(newFor.getResult(n));
  }
  SmallVector<Value> yielded;
  for (unsigned i : keptIdx)
    yielded.push_back(yield.getOperand(i));
  builder.setInsertionPoint(yield);
  builder.create<scf::YieldOp>(yield.getLoc(), yielded);
  yield.erase();
  // Tile results of the old loop are read through `buffers`. Dead ops of the
  // moved body still use its block arguments: erase the old loop last.
  dead.insert(dead.begin(), op);
  return success();
}

/// An scf.if whose tile results both branches yield in the same buffer (the
/// guarded copies of an unrolled loop carrying an L0C accumulator, updated in
/// place): the result is that buffer and the if keeps its scalar results.
LogicalResult Lowering::lowerIf(scf::IfOp op) {
  for (Region *r : {&op.getThenRegion(), &op.getElseRegion()})
    for (Block &b : *r)
      if (failed(lowerBlockOps(b)))
        return failure();
  if (!llvm::any_of(op.getResultTypes(), isTile))
    return success();
  if (op.getElseRegion().empty())
    return op.emitOpError() << "yields tiles without an else branch";
  auto thenYield = cast<scf::YieldOp>(op.thenBlock()->getTerminator());
  auto elseYield = cast<scf::YieldOp>(op.elseBlock()->getTerminator());
  SmallVector<Type> keptTypes;
  SmallVector<unsigned> keptIdx;
  for (auto [idx, type] : llvm::enumerate(op.getResultTypes())) {
    if (!isTile(type)) {
      keptTypes.push_back(type);
      keptIdx.push_back(idx);
      continue;
    }
    auto tb = bufferOf(thenYield, thenYield.getOperand(idx));
    auto eb = bufferOf(elseYield, elseYield.getOperand(idx));
    if (failed(tb) || failed(eb))
      return failure();
    if (*tb != *eb)
      return op.emitOpError() << "branches yield tile #" << idx
                              << " in different buffers; only accumulators "
                                 "updated in place may leave an scf.if";
    buffers[op.getResult(idx)] = *tb;
  }
  builder.setInsertionPoint(op);
  auto newIf = builder.create<scf::IfOp>(op.getLoc(), keptTypes, op.getCondition(),
                                         /*withElseRegion=*/true);
  newIf->setAttrs(op->getAttrs());
  newIf.getThenRegion().takeBody(op.getThenRegion());
  newIf.getElseRegion().takeBody(op.getElseRegion());
  for (Region *r : {&newIf.getThenRegion(), &newIf.getElseRegion()}) {
    auto y = cast<scf::YieldOp>(r->front().getTerminator());
    SmallVector<Value> kept;
    for (unsigned i : keptIdx)
      kept.push_back(y.getOperand(i));
    builder.setInsertionPoint(y);
    builder.create<scf::YieldOp>(y.getLoc(), kept);
    y.erase();
  }
  for (auto [n, i] : llvm::enumerate(keptIdx))
    op.getResult(i).replaceAllUsesWith(newIf.getResult(n));
  dead.insert(dead.begin(), op);
  return success();
}

//===----------------------------------------------------------------------===//
// Transposes of any rank
//===----------------------------------------------------------------------===//

/// numpy.transpose of a row-major tile. Unit dimensions are dropped and
/// source dimensions that stay adjacent are merged, so the permutation is
/// over as few axes as possible. The axis that becomes the last one is moved
/// there by one batched 2-D transpose (outer x [axis x inner] ->
/// outer x [inner x axis]); the remaining permutation keeps the last axis in
/// place and moves whole rows with strided copies, one per index of the
/// destination's leading axes but the largest one.
LogicalResult Lowering::lowerTranspose(at::TransposeOp op) {
  builder.setInsertionPoint(op);
  Location loc = op.getLoc();
  auto src = bufferOf(op, op.getSource());
  if (failed(src))
    return failure();
  at::TileType type = op.getResult().getType();
  ArrayRef<int64_t> shape = op.getSource().getType().getShape();
  SmallVector<int64_t> perm = op.getPermutationOrDefault();

  // Non-unit source axes, then runs of them that stay adjacent in order.
  SmallVector<int64_t> kept; // permutation over non-unit source axes
  for (int64_t a : perm)
    if (shape[a] != 1)
      kept.push_back(a);
  SmallVector<int64_t> groupOf(shape.size(), -1); // source axis -> group
  SmallVector<int64_t> order; // kept, with adjacent source axes merged
  for (size_t i = 0; i < kept.size(); ++i) {
    if (i > 0) {
      int64_t prev = kept[i - 1], cur = kept[i];
      // Adjacent in the source when only unit axes lie between them.
      bool adjacent = cur > prev;
      for (int64_t a = prev + 1; adjacent && a < cur; ++a)
        adjacent = shape[a] == 1;
      if (adjacent)
        continue;
    }
    order.push_back(kept[i]);
  }
  // Sizes of the merged axes, numbered in source order.
  SmallVector<int64_t> firsts(order);
  llvm::sort(firsts);
  int64_t n = firsts.size();
  SmallVector<int64_t> size(n, 1);
  for (int64_t g = 0; g < n; ++g) {
    int64_t end = g + 1 < n ? firsts[g + 1] : (int64_t)shape.size();
    for (int64_t a = firsts[g]; a < end; ++a)
      size[g] *= shape[a];
  }
  SmallVector<int64_t> p; // the permutation over merged axes
  for (int64_t first : order)
    p.push_back(llvm::find(firsts, first) - firsts.begin());

  auto identity = [](ArrayRef<int64_t> q) {
    for (size_t i = 0; i < q.size(); ++i)
      if (q[i] != (int64_t)i)
        return false;
    return true;
  };
  if (identity(p)) { // the same bytes in another shape
    buffers[op.getResult()] = *src;
    return success();
  }
  Type elem = type.getElementType();
  ac::Position pos = positionFor(type.getLocation());
  // Step 1: the axis that ends up last goes last.
  Value cur = *src;
  SmallVector<int64_t> curOrder; // merged axes of `cur`, outermost first
  for (int64_t g = 0; g < n; ++g)
    curOrder.push_back(g);
  int64_t q = p.back();
  if (q != n - 1) {
    int64_t outer = 1, inner = 1;
    for (int64_t g = 0; g < q; ++g)
      outer *= size[g];
    for (int64_t g = q + 1; g < n; ++g)
      inner *= size[g];
    curOrder.erase(curOrder.begin() + q);
    curOrder.push_back(q);
    bool last = ArrayRef<int64_t>(curOrder) == ArrayRef<int64_t>(p);
    Value t = last ? newBuffer(loc, type, pos, "transpose")
                   : newBuffer(loc, {outer * inner * size[q]}, elem, pos,
                               "transpose_tmp");
    builder.create<ac::TransposeOp>(loc, t, cur, indexConst(loc, size[q]),
                                    indexConst(loc, inner), outer);
    cur = t;
    if (last) {
      buffers[op.getResult()] = t;
      return success();
    }
  }
  // Step 2: rows of L elements (the last axis) to their places.
  int64_t rowLen = size[p.back()];
  SmallVector<int64_t> srcStride(n, 0); // element stride of each merged axis in cur
  int64_t stride = 1;
  for (int64_t i = n - 1; i >= 0; --i) {
    srcStride[curOrder[i]] = stride;
    stride *= size[curOrder[i]];
  }
  SmallVector<int64_t> dstStride(n, 0); // per destination position
  stride = 1;
  for (int64_t i = n - 1; i >= 0; --i) {
    dstStride[i] = stride;
    stride *= size[p[i]];
  }
  // One copy moves the rows along the largest leading destination axis; every
  // index of the other leading axes is one copy.
  int64_t rowPos = 0;
  for (int64_t i = 1; i + 1 < n; ++i)
    if (size[p[i]] > size[p[rowPos]])
      rowPos = i;
  SmallVector<int64_t> iterPos;
  for (int64_t i = 0; i + 1 < n; ++i)
    if (i != rowPos)
      iterPos.push_back(i);
  int64_t copies = 1;
  for (int64_t i : iterPos)
    copies *= size[p[i]];
  constexpr int64_t kMaxCopies = 4096;
  if (copies > kMaxCopies)
    return op.emitOpError() << "this permutation moves " << copies
                            << " separate row blocks (at most " << kMaxCopies
                            << "); transpose a smaller tile";
  Value dst = newBuffer(loc, type, pos, "transpose");
  Value rowsV = indexConst(loc, size[p[rowPos]]), colsV = indexConst(loc, rowLen);
  SmallVector<int64_t> idx(iterPos.size(), 0);
  for (int64_t c = 0; c < copies; ++c) {
    int64_t srcOff = 0, dstOff = 0;
    for (auto [k, i] : llvm::enumerate(iterPos)) {
      srcOff += idx[k] * srcStride[p[i]];
      dstOff += idx[k] * dstStride[i];
    }
    builder.create<ac::CopyOp>(loc, dst, cur, rowsV, colsV, srcStride[p[rowPos]],
                               dstStride[rowPos], dstOff, srcOff);
    for (int64_t k = (int64_t)iterPos.size() - 1; k >= 0; --k) { // last fastest
      if (++idx[k] < size[p[iterPos[k]]])
        break;
      idx[k] = 0;
    }
  }
  buffers[op.getResult()] = dst;
  return success();
}

//===----------------------------------------------------------------------===//
// Masks
//===----------------------------------------------------------------------===//

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

LogicalResult Lowering::lowerBlockOps(Block &block) {
  SmallVector<Operation *> ops;
  for (Operation &op : block)
    ops.push_back(&op);
  for (Operation *op : ops)
    if (failed(lowerOp(op)))
      return failure();
  return success();
}

LogicalResult Lowering::lowerOp(Operation *op) {
  bool isAscTile = op->getDialect() && op->getDialect()->getNamespace() ==
                                           at::AscTileDialect::getDialectNamespace();
  bool producesTile = llvm::any_of(op->getResultTypes(), isTile);
  LogicalResult status =
      llvm::TypeSwitch<Operation *, LogicalResult>(op)
          .Case<at::TensorOp>([&](at::TensorOp t) {
            builder.setInsertionPoint(t);
            GlobalView view{t.getPtr(), {}};
            auto type = t.getResult().getType();
            unsigned dyn = 0;
            for (int64_t d : type.getShape())
              view.dims.push_back(d == ShapedType::kDynamic
                                      ? t.getDynamicDims()[dyn++]
                                      : indexConst(t.getLoc(), d));
            tensors[t.getResult()] = view;
            return success();
          })
          .Case<at::DimOp>([&](at::DimOp d) {
            auto it = tensors.find(d.getTensor());
            if (it == tensors.end())
              return LogicalResult(d.emitOpError() << "unknown tensor");
            d.getResult().replaceAllUsesWith(it->second.dims[d.getIndex()]);
            return success();
          })
          .Case<at::BlockIdxOp>([&](at::BlockIdxOp b) {
            builder.setInsertionPoint(b);
            auto n = builder.create<ac::GetBlockIdxOp>(b.getLoc(), builder.getIndexType());
            b.getResult().replaceAllUsesWith(n.getResult());
            return success();
          })
          .Case<at::BlockNumOp>([&](at::BlockNumOp b) {
            builder.setInsertionPoint(b);
            auto n = builder.create<ac::GetBlockNumOp>(b.getLoc(), builder.getIndexType());
            b.getResult().replaceAllUsesWith(n.getResult());
            return success();
          })
          .Case<at::LoadOp>([&](at::LoadOp l) { return lowerLoad(l); })
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
          .Case<at::SplatOp>([&](at::SplatOp s) {
            if (Value one = reducedScalars.lookup(s.getValue()))
              bufferSplats[s.getResult()] = one;
            else
              splats[s.getResult()] = s.getValue();
            return success();
          })
          .Case<at::CastOp>([&](at::CastOp c) -> LogicalResult {
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
            markCounter(builder.create<ac::CastOp>(
                            c.getLoc(), dst, *src, m.count,
                            static_cast<ac::RoundMode>(c.getRoundMode()), m.bits),
                        mask);
            setMaskedResult(c.getResult(), dst, mask);
            return success();
          })
          .Case<at::CmpOp>([&](at::CmpOp c) -> LogicalResult {
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
            markCounter(builder.create<ac::CompareOp>(
                            c.getLoc(), static_cast<ac::CmpMode>(c.getPredicate()),
                            dst, *lhs, rhs, m.count, m.bits),
                        mask);
            setMaskedResult(c.getResult(), dst, mask);
            return success();
          })
          .Case<at::SelectOp>([&](at::SelectOp s) -> LogicalResult {
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
            markCounter(builder.create<ac::SelectOp>(s.getLoc(), dst, *mask, *tv,
                                                     fv, m.count, m.bits),
                        laneMask);
            setMaskedResult(s.getResult(), dst, laneMask);
            return success();
          })
          .Case<at::TransposeOp>([&](at::TransposeOp t) { return lowerTranspose(t); })
          .Case<at::MaskOp>([&](at::MaskOp m) -> LogicalResult {
            if (fusedMasks.contains(m))
              return success();
            return lowerMask(m);
          })
          .Case<at::ConcatOp>([&](at::ConcatOp c) -> LogicalResult {
            builder.setInsertionPoint(c);
            at::TileType type = c.getResult().getType();
            ArrayRef<int64_t> shape = type.getShape();
            int64_t rank = shape.size(), dim = c.getDim();
            Value dst = newBuffer(c.getLoc(), type, positionFor(type.getLocation()), "concat");
            // The dimensions before `dim` are rows, `dim` and the ones after
            // it columns: each input fills its columns of every row (one
            // contiguous block when every dimension before `dim` is 1).
            int64_t inner = 1;
            for (int64_t d = dim + 1; d < rank; ++d)
              inner *= shape[d];
            int64_t rows = type.getNumElements() / (shape[dim] * inner);
            int64_t offset = 0;
            for (Value input : c.getInputs()) {
              auto src = bufferOf(c, input);
              if (failed(src))
                return failure();
              int64_t cols = cast<at::TileType>(input.getType()).getShape()[dim] * inner;
              builder.create<ac::CopyOp>(c.getLoc(), dst, *src,
                                         indexConst(c.getLoc(), rows),
                                         indexConst(c.getLoc(), cols), cols,
                                         shape[dim] * inner, offset, 0);
              offset += cols;
            }
            buffers[c.getResult()] = dst;
            return success();
          })
          .Case<at::ReduceOp>([&](at::ReduceOp r) { return lowerReduce(r); })
          .Case<at::BroadcastOp>([&](at::BroadcastOp b) { return lowerBroadcast(b); })
          .Case<at::ReshapeOp>([&](at::ReshapeOp r) -> LogicalResult {
            if (Value s = splatScalar(r.getSource())) {
              splats[r.getResult()] = s;
              return success();
            }
            auto src = bufferOf(r, r.getSource());
            if (failed(src))
              return failure();
            buffers[r.getResult()] = *src; // same bytes, another shape
            return success();
          })
          .Case<at::GetValueOp>([&](at::GetValueOp g) -> LogicalResult {
            auto it = tensors.find(g.getTensor());
            if (it == tensors.end())
              return g.emitOpError() << "unknown tensor";
            builder.setInsertionPoint(g);
            Value linear = linearOffset(g.getLoc(), it->second, g.getOffsets());
            auto v = builder.create<ac::GmGetValueOp>(g.getLoc(), g.getType(),
                                                      it->second.gm, linear);
            g.getResult().replaceAllUsesWith(v.getResult());
            return success();
          })
          .Case<at::SetValueOp>([&](at::SetValueOp s) -> LogicalResult {
            auto it = tensors.find(s.getTensor());
            if (it == tensors.end())
              return s.emitOpError() << "unknown tensor";
            builder.setInsertionPoint(s);
            Value linear = linearOffset(s.getLoc(), it->second, s.getOffsets());
            builder.create<ac::GmSetValueOp>(s.getLoc(), s.getValue(),
                                             it->second.gm, linear);
            return success();
          })
          .Case<scf::ForOp>([&](scf::ForOp f) { return lowerFor(f); })
          .Case<scf::IfOp>([&](scf::IfOp i) { return lowerIf(i); })
          .Case<scf::YieldOp>([&](auto) { return success(); })
          .Default([&](Operation *o) -> LogicalResult {
            if (producesTile && o->getNumResults() == 1 && o->getNumRegions() == 0) {
              auto t = cast<at::TileType>(o->getResult(0).getType());
              if (t.getLocation() == at::TileLocation::L0C)
                return foldL0CElementwise(o);
              return lowerElementwise(o);
            }
            if (producesTile || llvm::any_of(o->getOperandTypes(), isTile))
              return o->emitOpError()
                     << "with tile operands or results is not supported by "
                        "the ascendc lowering yet";
            for (Region &r : o->getRegions())
              for (Block &b : r)
                if (failed(lowerBlockOps(b)))
                  return failure();
            return success(); // scalar arith, func: kept as is
          });
  if (failed(status))
    return failure();
  if (isAscTile || (producesTile && !isa<scf::ForOp, scf::IfOp>(op)))
    dead.push_back(op);
  return success();
}

LogicalResult Lowering::run() {
  // Pointer arguments become GlobalTensors.
  Block &entry = func.getBody().front();
  SmallVector<Type> argTypes;
  for (BlockArgument arg : entry.getArguments()) {
    if (auto ptr = dyn_cast<at::PtrType>(arg.getType()))
      arg.setType(ac::GlobalType::get(func.getContext(), ptr.getElementType()));
    argTypes.push_back(arg.getType());
  }
  func.setFunctionType(
      FunctionType::get(func.getContext(), argTypes, func.getResultTypes()));
  if (failed(lowerBlockOps(entry)))
    return failure();
  for (Operation *op : llvm::reverse(dead)) {
    op->dropAllUses();
    op->erase();
  }
  return success();
}

namespace {
struct ConvertAscTileToAscendCPass
    : public asc2::impl::ConvertAscTileToAscendCBase<
          ConvertAscTileToAscendCPass> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (!func->hasAttr("asctile.kernel") &&
          llvm::none_of(func.getArgumentTypes(),
                        [](Type t) { return isa<at::PtrType>(t); }))
        continue;
      Lowering lowering(func);
      if (failed(lowering.run()))
        return signalPassFailure();
    }
  }
};
} // namespace

//===----------------------------------------------------------------------===//
// Cube unit: GM -> L1 (ND -> NZ) -> L0A/L0B, mmad into L0C, fixpipe to GM.
//===----------------------------------------------------------------------===//

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
        loc, l1, view.gm, plan.offset, plan.colCount, Value(), Value(),
        builder.getZeroAttr(tile.getElementType()));
    copy->setAttr("nd", builder.getUnitAttr()); // a plain row, not NZ fractals
    if (where == at::TileLocation::L1) {
      buffers[op.getResult()] = l1;
      return success();
    }
    // The bias table holds f32: f16/bf16 rows are widened by the copy.
    Value bt = newBuffer(loc, tile.getShape(), builder.getF32Type(), ac::Position::C2, name);
    builder.create<ac::CopyBiasOp>(loc, bt, l1, Value());
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
  builder.create<ac::DataCopyInOp>(loc, l1, view.gm, plan.offset, plan.colCount,
                                   plan.rowCount, plan.rowStride,
                                   builder.getZeroAttr(tile.getElementType()));
  if (where == at::TileLocation::L1) {
    buffers[op.getResult()] = l1;
    return success();
  }
  Value l0 = newBuffer(loc, tile, cubePosition(where, right), name);
  builder.create<ac::LoadDataOp>(loc, l0, l1, ValueRange(), 0, 0);
  buffers[op.getResult()] = l0;
  return success();
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
    Value l0 = newBuffer(op.getLoc(), dst,
                         cubePosition(dst.getLocation(), false), "l0");
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
    Value bt = newBuffer(loc, dst.getShape(), builder.getF32Type(), ac::Position::C2, "bias");
    builder.create<ac::CopyBiasOp>(loc, bt, *in, offset);
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
    builder.create<ac::CopyOp>(loc, out, *in, indexConst(loc, rows), indexConst(loc, cols),
                               srcCols, cols, 0, rowOff * srcCols + colOff);
    buffers[op.getResult()] = out;
    return success();
  }
  if (src.getLocation() == at::TileLocation::L0C &&
      dst.getLocation() == at::TileLocation::L1) {
    // The fixpipe stages a matmul result (relu and casts folded in) in L1.
    auto it = l0cViews.find(op.getSource());
    L0CView v = it == l0cViews.end() ? L0CView{op.getSource(), false} : it->second;
    if (zeroAccumulators.contains(v.tile))
      return op.emitOpError() << "moves a zero accumulator that no matmul_acc wrote";
    auto in = bufferOf(op, v.tile);
    if (failed(in))
      return failure();
    if (!llvm::all_of(op.getOffsets(), [](int64_t o) { return o == 0; }) ||
        dst.getShape() != src.getShape())
      return op.emitOpError() << "L0C -> L1 moves the whole tile";
    Value l1 = newBuffer(op.getLoc(), dst, ac::Position::A1, "staged");
    builder.create<ac::FixpipeL1Op>(op.getLoc(), l1, *in, v.relu);
    buffers[op.getResult()] = l1;
    return success();
  }
  if (src.getLocation() == at::TileLocation::L0C)
    return op.emitOpError()
           << "L0C -> " << at::stringifyTileLocation(dst.getLocation())
           << " has no data path on this target: store the accumulator with "
              "copy_out (fixpipe) and copy_in the result where you need it "
              "(or stage it in L1 for another matmul)";
  return op.emitOpError() << "moving a tile from "
                          << at::stringifyTileLocation(src.getLocation()) << " to "
                          << at::stringifyTileLocation(dst.getLocation())
                          << " is not supported (supported: UB sub-tiles, L1 -> L0A/L0B, L0C -> L1)";
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
