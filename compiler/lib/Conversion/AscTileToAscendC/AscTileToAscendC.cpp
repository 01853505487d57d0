//===- AscTileToAscendC.cpp - tiles to buffers, ops to basic-API calls -----===//
//
// Each tile value becomes one local buffer. Loads and stores move the part of
// the tile that lies inside the tensor (count = clamp(extent - offset, 0,
// tile)), loads pad the rest, so partial tiles never touch memory out of
// bounds. Tile arithmetic becomes one vector op per arith/math op.
//
//===----------------------------------------------------------------------===//
#include "asc2/Conversion/Passes.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Builders.h"
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

class Lowering {
public:
  Lowering(func::FuncOp func) : func(func), builder(func.getContext()) {}

  LogicalResult run();

private:
  LogicalResult lowerOp(Operation *op);
  LogicalResult lowerLoad(at::LoadOp op);
  LogicalResult lowerStore(at::StoreOp op);
  LogicalResult lowerElementwise(Operation *op);
  Value newBuffer(Location loc, at::TileType tile, ac::Position pos,
                  StringRef name);
  Value indexConst(Location loc, int64_t v) {
    return builder.create<arith::ConstantIndexOp>(loc, v);
  }
  /// Element offset of `offsets` in a row-major tensor and the number of
  /// elements of the tile that lie inside it. Fails for tile shapes that are
  /// not one contiguous run of memory.
  LogicalResult linearise(Operation *op, const GlobalView &view,
                          at::TileType tile, ValueRange offsets, Value &offset,
                          Value &count);
  std::string argName(Value gm);

  func::FuncOp func;
  OpBuilder builder;
  DenseMap<Value, GlobalView> tensors;
  DenseMap<Value, Value> buffers; // tile value -> local buffer
  SmallVector<Operation *> dead;
  llvm::StringMap<int> nameCounts;
};

} // namespace

static ac::Position positionFor(at::TileLocation loc) {
  switch (loc) {
  case at::TileLocation::UB:
    return ac::Position::VECCALC;
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

std::string Lowering::argName(Value gm) {
  if (auto arg = dyn_cast<BlockArgument>(gm))
    if (auto names = func->getAttrOfType<ArrayAttr>("asctile.arg_names"))
      if (arg.getArgNumber() < names.size())
        if (auto s = dyn_cast<StringAttr>(names[arg.getArgNumber()]))
          return s.str();
  return "gm";
}

Value Lowering::newBuffer(Location loc, at::TileType tile, ac::Position pos,
                          StringRef base) {
  int n = nameCounts[base]++;
  std::string name = n == 0 ? base.str() : (base + "_" + Twine(n)).str();
  auto type = ac::LocalType::get(builder.getContext(), tile.getShape(),
                                 tile.getElementType(), pos);
  auto alloc = builder.create<ac::AllocLocalOp>(
      loc, type, /*offset=*/IntegerAttr(), builder.getStringAttr(name),
      /*slot=*/IntegerAttr());
  return alloc.getBuffer();
}

LogicalResult Lowering::linearise(Operation *op, const GlobalView &view,
                                  at::TileType tile, ValueRange offsets,
                                  Value &offset, Value &count) {
  Location loc = op->getLoc();
  ArrayRef<int64_t> shape = tile.getShape();
  int64_t rank = shape.size();
  // Contiguous when every dimension but the outermost non-unit one spans the
  // whole tensor (offset 0) - one run of memory.
  int firstNonUnit = 0;
  while (firstNonUnit < rank - 1 && shape[firstNonUnit] == 1)
    ++firstNonUnit;
  for (int d = firstNonUnit + 1; d < rank; ++d) {
    auto cst = view.dims[d].getDefiningOp<arith::ConstantIndexOp>();
    auto off = offsets[d].getDefiningOp<arith::ConstantIndexOp>();
    if (!cst || cst.value() != shape[d] || !off || off.value() != 0)
      return op->emitOpError()
             << "tile of shape " << tile << " is not one contiguous run of "
             << "the tensor (inner dimensions must span the whole tensor); "
             << "strided tiles are not supported yet";
  }
  // offset = sum(offsets[d] * stride[d])
  Value linear = offsets[rank - 1];
  Value stride = view.dims[rank - 1];
  for (int d = rank - 2; d >= 0; --d) {
    Value term = builder.create<arith::MulIOp>(loc, offsets[d], stride);
    linear = builder.create<arith::AddIOp>(loc, linear, term);
    stride = builder.create<arith::MulIOp>(loc, stride, view.dims[d]);
  }
  offset = linear;
  // Elements of the tile inside the tensor: rows of the outermost non-unit
  // dimension that fit, times the inner size.
  int64_t inner = 1;
  for (int d = firstNonUnit + 1; d < rank; ++d)
    inner *= shape[d];
  Value extent = view.dims[firstNonUnit];
  Value remaining =
      builder.create<arith::SubIOp>(loc, extent, offsets[firstNonUnit]);
  Value rows = builder.create<arith::MinSIOp>(
      loc, remaining, indexConst(loc, shape[firstNonUnit]));
  rows = builder.create<arith::MaxSIOp>(loc, rows, indexConst(loc, 0));
  // Leading unit dimensions must be inside the tensor too.
  for (int d = 0; d < firstNonUnit; ++d) {
    Value inside = builder.create<arith::CmpIOp>(
        loc, arith::CmpIPredicate::slt, offsets[d], view.dims[d]);
    rows = builder.create<arith::SelectOp>(loc, inside, rows,
                                           indexConst(loc, 0));
  }
  count = inner == 1 ? rows
                     : builder.create<arith::MulIOp>(loc, rows,
                                                     indexConst(loc, inner))
                           .getResult();
  return success();
}

LogicalResult Lowering::lowerLoad(at::LoadOp op) {
  auto it = tensors.find(op.getTensor());
  if (it == tensors.end())
    return op.emitOpError() << "loads from a tensor not made by asctile.tensor";
  builder.setInsertionPoint(op);
  at::TileType tile = op.getResult().getType();
  Value offset, count;
  if (failed(linearise(op, it->second, tile, op.getOffsets(), offset, count)))
    return failure();
  Value buf = newBuffer(op.getLoc(), tile, ac::Position::VECIN,
                        argName(it->second.gm));
  TypedAttr pad = op.getPadValueAttr();
  if (!pad)
    pad = builder.getZeroAttr(tile.getElementType());
  builder.create<ac::DataCopyInOp>(op.getLoc(), buf, it->second.gm, offset,
                                   count, pad);
  buffers[op.getResult()] = buf;
  return success();
}

LogicalResult Lowering::lowerStore(at::StoreOp op) {
  auto it = tensors.find(op.getTensor());
  if (it == tensors.end())
    return op.emitOpError() << "stores to a tensor not made by asctile.tensor";
  Value src = buffers.lookup(op.getValue());
  if (!src)
    return op.emitOpError() << "stored tile has no buffer";
  builder.setInsertionPoint(op);
  Value offset, count;
  if (failed(linearise(op, it->second, op.getValue().getType(),
                       op.getOffsets(), offset, count)))
    return failure();
  builder.create<ac::DataCopyOutOp>(op.getLoc(), it->second.gm, offset, src,
                                    count);
  return success();
}

LogicalResult Lowering::lowerElementwise(Operation *op) {
  auto tile = dyn_cast<at::TileType>(op->getResult(0).getType());
  builder.setInsertionPoint(op);
  Location loc = op->getLoc();
  SmallVector<Value> srcs;
  for (Value operand : op->getOperands()) {
    Value b = buffers.lookup(operand);
    if (!b)
      return op->emitOpError() << "operand has no buffer";
    srcs.push_back(b);
  }
  StringRef base = op->getName().stripDialect();
  Value dst = newBuffer(loc, tile, positionFor(tile.getLocation()), base);
  Value count = indexConst(loc, tile.getNumElements());
  bool isFloat = isa<FloatType>(tile.getElementType());
  auto binary = [&](auto tag) {
    using OpT = decltype(tag);
    builder.create<OpT>(loc, dst, srcs[0], srcs[1], count);
    return success();
  };
  auto unary = [&](auto tag) {
    using OpT = decltype(tag);
    builder.create<OpT>(loc, dst, srcs[0], count);
    return success();
  };
  LogicalResult result =
      llvm::TypeSwitch<Operation *, LogicalResult>(op)
          .Case<arith::AddFOp, arith::AddIOp>(
              [&](auto) { return binary(ac::AddOp()); })
          .Case<arith::SubFOp, arith::SubIOp>(
              [&](auto) { return binary(ac::SubOp()); })
          .Case<arith::MulFOp, arith::MulIOp>(
              [&](auto) { return binary(ac::MulOp()); })
          .Case<arith::DivFOp, arith::DivSIOp>(
              [&](auto) { return binary(ac::DivOp()); })
          .Case<arith::MaximumFOp, arith::MaxNumFOp, arith::MaxSIOp>(
              [&](auto) { return binary(ac::MaxOp()); })
          .Case<arith::MinimumFOp, arith::MinNumFOp, arith::MinSIOp>(
              [&](auto) { return binary(ac::MinOp()); })
          .Case<math::ExpOp>([&](auto) { return unary(ac::ExpOp()); })
          .Case<math::LogOp>([&](auto) { return unary(ac::LnOp()); })
          .Case<math::SqrtOp>([&](auto) { return unary(ac::SqrtOp()); })
          .Case<math::AbsFOp, math::AbsIOp>(
              [&](auto) { return unary(ac::AbsOp()); })
          .Default([&](Operation *o) {
            return o->emitOpError()
                   << "on tiles is not supported by the ascendc lowering yet";
          });
  (void)isFloat;
  if (failed(result))
    return failure();
  buffers[op->getResult(0)] = dst;
  return success();
}

LogicalResult Lowering::lowerOp(Operation *op) {
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
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
      .Case<at::StoreOp>([&](at::StoreOp s) { return lowerStore(s); })
      .Case<at::SplatOp>([&](at::SplatOp s) {
        builder.setInsertionPoint(s);
        auto tile = s.getResult().getType();
        Value dst = newBuffer(s.getLoc(), tile, positionFor(tile.getLocation()),
                              "splat");
        builder.create<ac::DuplicateOp>(s.getLoc(), dst, s.getValue(),
                                        indexConst(s.getLoc(),
                                                   tile.getNumElements()));
        buffers[s.getResult()] = dst;
        return success();
      })
      .Default([&](Operation *o) -> LogicalResult {
        bool producesTile = llvm::any_of(o->getResultTypes(), [](Type t) {
          return isa<at::TileType>(t);
        });
        if (producesTile && o->getNumResults() == 1 && o->getNumRegions() == 0)
          return lowerElementwise(o);
        for (Value v : o->getOperands())
          if (isa<at::TileType, at::TensorType>(v.getType()))
            return o->emitOpError()
                   << "with tile or tensor operands is not supported here "
                   << "(tiles cannot be loop-carried or returned yet)";
        if (producesTile)
          return o->emitOpError() << "producing tiles is not supported yet";
        return success(); // scalar arith, scf, func: kept as is
      });
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

  SmallVector<Operation *> ops;
  func.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op != func.getOperation())
      ops.push_back(op);
  });
  for (Operation *op : ops) {
    if (failed(lowerOp(op)))
      return failure();
    if (op->getDialect() &&
        op->getDialect()->getNamespace() == at::AscTileDialect::getDialectNamespace())
      dead.push_back(op);
    else if (llvm::any_of(op->getResultTypes(),
                          [](Type t) { return isa<at::TileType>(t); }))
      dead.push_back(op);
  }
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
      Lowering lowering(func);
      if (failed(lowering.run()))
        return signalPassFailure();
    }
  }
};
} // namespace
