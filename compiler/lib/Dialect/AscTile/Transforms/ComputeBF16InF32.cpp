//===- ComputeBF16InF32.cpp - bfloat16 arithmetic through float32 --------===//
//
// The vector unit has next to no bfloat16 arithmetic: dav_c220 (Atlas A2/A3)
// checks Add/Sub/Mul/Max/Min/Adds/Muls/... for half, float, int16 and int32
// and Div/Exp/Ln/Sqrt/Abs for half and float (static_asserts at level 0,
// debug-only asserts at level 2, so a bfloat16 call compiles and computes
// garbage); dav_3510 takes bfloat16 in some calls and not in others (Exp:
// half and float). asc-devkit@82b89a15f:impl/basic_api/dav_c220/
// kernel_operator_vec_{binary,unary,binary_scalar}_impl.h.
//
// So every arith/math op and reduction whose result is a bfloat16 UB tile
// computes in float32: its tile operands are cast up (exact), a splat of a
// constant becomes a float32 splat of the same value, and the result is cast
// back with round-to-nearest-even — one rounding per op, as numpy computing
// in float32 and rounding to bfloat16 does. Loads, stores, copies,
// broadcasts, selects, casts and compares are not arithmetic and keep their
// bfloat16 operands (compares widen themselves in the lowering).
//
// It runs first (so expansions of softmax, tanh, ... happen in float32) and
// again before the lowering (for bfloat16 ops later passes create).
//
//===----------------------------------------------------------------------===//
#include "asc2/Dialect/AscTile/Transforms/Passes.h"
#include "asc2/Dialect/AscTile/Transforms/TileBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/IRMapping.h"

namespace asc2::asctile {
#define GEN_PASS_DEF_ASCTILECOMPUTEBF16INF32
#include "asc2/Dialect/AscTile/Transforms/Passes.h.inc"
} // namespace asc2::asctile

using namespace mlir;
using namespace asc2::asctile;

namespace {

TileType bf16Tile(Type t) {
  auto tile = dyn_cast<TileType>(t);
  if (tile && tile.getElementType().isBF16() && tile.getLocation() == TileLocation::UB)
    return tile;
  return {};
}

TileType withF32(OpBuilder &b, TileType t) {
  return TileType::get(b.getContext(), t.getShape(), b.getF32Type(), t.getLocation());
}

/// Arithmetic that produces bfloat16 values: the float ops of arith and
/// math, and reductions.
bool computesInBF16(Operation *op) {
  if (op->getNumResults() != 1)
    return false;
  // A reduction to a tile or, over every dimension, to a scalar.
  if (auto r = dyn_cast<ReduceOp>(op))
    return bf16Tile(r.getSource().getType()) &&
           (bf16Tile(r.getResult().getType()) || r.getResult().getType().isBF16());
  if (!bf16Tile(op->getResult(0).getType()))
    return false;
  if (!isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) ||
      isa<arith::SelectOp, arith::ConstantOp, arith::BitcastOp>(op))
    return false;
  return llvm::all_of(op->getOperands(), [](Value v) { return bool(bf16Tile(v.getType())); });
}

Value asF32(OpBuilder &b, Location loc, Value v) {
  TileType t = bf16Tile(v.getType());
  TileType f = withF32(b, t);
  if (auto splat = v.getDefiningOp<SplatOp>())
    if (auto c = splat.getValue().getDefiningOp<arith::ConstantOp>())
      if (auto fa = dyn_cast<FloatAttr>(c.getValue())) {
        Value c32 = b.create<arith::ConstantOp>(loc, b.getF32FloatAttr(fa.getValueAsDouble()));
        return b.create<SplatOp>(loc, f, c32);
      }
  return b.create<CastOp>(loc, f, v, RoundMode::none);
}

struct ComputeBF16InF32Pass
    : public asc2::asctile::impl::AscTileComputeBF16InF32Base<ComputeBF16InF32Pass> {
  void runOnOperation() override {
    SmallVector<Operation *> ops;
    getOperation().walk([&](Operation *op) {
      if (computesInBF16(op))
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      OpBuilder b(op);
      Location loc = op->getLoc();
      IRMapping map;
      for (Value v : op->getOperands())
        map.map(v, asF32(b, loc, v));
      Operation *f32 = b.clone(*op, map);
      Value back;
      if (TileType resultType = bf16Tile(op->getResult(0).getType())) {
        f32->getResult(0).setType(withF32(b, resultType));
        back = b.create<CastOp>(loc, resultType, f32->getResult(0), RoundMode::rint);
      } else {
        f32->getResult(0).setType(b.getF32Type());
        back = b.create<arith::TruncFOp>(loc, b.getBF16Type(), f32->getResult(0));
      }
      op->getResult(0).replaceAllUsesWith(back);
      op->erase();
    }
  }
};

} // namespace
