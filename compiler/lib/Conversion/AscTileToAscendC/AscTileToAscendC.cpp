//===- AscTileToAscendC.cpp - tiles to buffers, ops to basic-API calls -----===//
//
// Each tile value becomes one local buffer. Loads and stores move the part of
// the tile that lies inside the tensor (count = clamp(extent - offset, 0,
// tile) per dimension), loads pad the rest, so partial tiles never touch
// memory out of bounds. Tile arithmetic becomes one vector op per arith/math
// op; an operand made by asctile.splat becomes the scalar of the op's scalar
// form (Adds, Muls, ...) and gets a buffer only when an op needs one.
//
// This file holds the pass, the walk over a kernel and the buffers every
// family allocates; lowerOp routes each op to its family's file (Lowering.h).
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

#include "asc2/Conversion/Passes.h"

#define DEBUG_TYPE "convert-asctile-to-ascendc"

namespace asc2 {
#define GEN_PASS_DEF_CONVERTASCTILETOASCENDC
#include "asc2/Conversion/Passes.h.inc"
} // namespace asc2

namespace asc2::asctile_to_ascendc {

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
    if (one) {
      if (failed(fillFromValue(def, b, one, type.getNumElements())))
        return failure();
    } else
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
  if (elem.isInteger(1)) { // a bit mask: its bytes, x | x
    builder.create<ac::OrOp>(loc, dst, src, src, countOf(loc, t), ValueRange{});
    return;
  }
  Value one = isa<FloatType>(elem)
                  ? builder.create<arith::ConstantOp>(loc, builder.getFloatAttr(elem, 1.0))
                  : builder.create<arith::ConstantOp>(loc, builder.getIntegerAttr(elem, 1));
  builder.create<ac::MulsOp>(loc, dst, src, one, countOf(loc, t),
                             /*scalar_first=*/false, ValueRange{});
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
  // The families own disjoint sets of ops; the one that claims `op` lowers it.
  // The ops the lowering puts before `op` (its GM copies among them) inherit
  // the unrolled copy it belongs to, for the sync planner.
  auto copy = op->getAttrOfType<IntegerAttr>("asctile.copy");
  Operation *before = copy ? op->getPrevNode() : nullptr;
  FamilyResult status = dispatchToFamily(this, op, &Lowering::lowerDataTransferFamily,
                                         &Lowering::lowerElementwiseFamily,
                                         &Lowering::lowerReduceFamily,
                                         &Lowering::lowerShapeFamily,
                                         &Lowering::lowerMaskFamily,
                                         &Lowering::lowerCubeFamily,
                                         &Lowering::lowerControlFlowFamily,
                                         &Lowering::lowerInlineCodeFamily);
  if (failed(status ? *status : lowerOtherOp(op)))
    return failure();
  if (copy && isAscTile)
    for (Operation *made = before ? before->getNextNode() : &op->getBlock()->front();
         made && made != op; made = made->getNextNode())
      made->walk([&](Operation *nested) {
        if (llvm::any_of(nested->getOperandTypes(),
                         [](Type t) { return isa<ac::GlobalType>(t); }))
          nested->setAttr("asctile.copy", copy);
      });
  if (isAscTile || (producesTile && !isa<scf::ForOp, scf::IfOp>(op)))
    dead.push_back(op);
  return success();
}

LogicalResult Lowering::lowerOtherOp(Operation *op) {
  bool producesTile = llvm::any_of(op->getResultTypes(), isTile);
  if (producesTile && op->getNumResults() == 1 && op->getNumRegions() == 0) {
    auto t = cast<at::TileType>(op->getResult(0).getType());
    if (t.getLocation() == at::TileLocation::L0C)
      return foldL0CElementwise(op);
    return lowerElementwise(op);
  }
  if (producesTile || llvm::any_of(op->getOperandTypes(), isTile))
    return op->emitOpError() << "with tile operands or results is not supported by "
                                "the ascendc lowering yet";
  for (Region &r : op->getRegions())
    for (Block &b : r)
      if (failed(lowerBlockOps(b)))
        return failure();
  return success(); // scalar arith, func: kept as is
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
    : public asc2::impl::ConvertAscTileToAscendCBase<ConvertAscTileToAscendCPass> {
  using ConvertAscTileToAscendCBase::ConvertAscTileToAscendCBase;
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (!func->hasAttr("asctile.kernel") &&
          llvm::none_of(func.getArgumentTypes(),
                        [](Type t) { return isa<at::PtrType>(t); }))
        continue;
      Lowering lowering(func, socVersion == "c310");
      if (failed(lowering.run()))
        return signalPassFailure();
    }
  }
};
} // namespace

} // namespace asc2::asctile_to_ascendc
