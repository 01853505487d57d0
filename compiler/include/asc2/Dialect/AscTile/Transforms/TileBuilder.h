//===- TileBuilder.h - building tile arithmetic in rewrites ---------*- C++ -*-===//
#ifndef ASC2_DIALECT_ASCTILE_TRANSFORMS_TILEBUILDER_H
#define ASC2_DIALECT_ASCTILE_TRANSFORMS_TILEBUILDER_H

#include "asc2/Dialect/AscTile/IR/AscTile.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Builders.h"

#include <optional>

namespace asc2::asctile {

/// The scalar a splat tile holds, if `v` is a splat of a float constant.
inline std::optional<double> splatConstant(mlir::Value v) {
  auto splat = v.getDefiningOp<SplatOp>();
  if (!splat)
    return std::nullopt;
  if (auto c = splat.getValue().getDefiningOp<mlir::arith::ConstantOp>())
    if (auto f = mlir::dyn_cast<mlir::FloatAttr>(c.getValue()))
      return f.getValueAsDouble();
  return std::nullopt;
}

/// Small helpers so expansions read like the formulas they implement.
class TileBuilder {
public:
  TileBuilder(mlir::OpBuilder &b, mlir::Location loc) : b(b), loc(loc) {}

  TileType typeOf(mlir::Value v) { return mlir::cast<TileType>(v.getType()); }
  mlir::Value splat(TileType t, double v) {
    mlir::Value c = b.create<mlir::arith::ConstantOp>(
        loc, b.getFloatAttr(t.getElementType(), v));
    return b.create<SplatOp>(loc, t, c);
  }
  mlir::Value add(mlir::Value x, mlir::Value y) { return b.create<mlir::arith::AddFOp>(loc, x, y); }
  mlir::Value sub(mlir::Value x, mlir::Value y) { return b.create<mlir::arith::SubFOp>(loc, x, y); }
  mlir::Value mul(mlir::Value x, mlir::Value y) { return b.create<mlir::arith::MulFOp>(loc, x, y); }
  mlir::Value div(mlir::Value x, mlir::Value y) { return b.create<mlir::arith::DivFOp>(loc, x, y); }
  mlir::Value add(mlir::Value x, double y) { return add(x, splat(typeOf(x), y)); }
  mlir::Value mul(mlir::Value x, double y) { return mul(x, splat(typeOf(x), y)); }
  mlir::Value exp(mlir::Value x) { return b.create<mlir::math::ExpOp>(loc, x); }
  mlir::Value log(mlir::Value x) { return b.create<mlir::math::LogOp>(loc, x); }
  mlir::Value abs(mlir::Value x) { return b.create<mlir::math::AbsFOp>(loc, x); }
  mlir::Value rsqrt(mlir::Value x) { return b.create<mlir::math::RsqrtOp>(loc, x); }

  /// Reduction along the last dimension, keeping it (size 1).
  mlir::Value reduceLast(ReduceKind kind, mlir::Value x) {
    TileType t = typeOf(x);
    llvm::SmallVector<int64_t> shape(t.getShape());
    int64_t last = shape.size() - 1;
    shape[last] = 1;
    auto rt = TileType::get(b.getContext(), shape, t.getElementType(), t.getLocation());
    return b.create<ReduceOp>(loc, rt, kind, x, b.getDenseI64ArrayAttr({last}),
                              /*keep_dims=*/true);
  }
  /// numpy broadcast of `x` to the shape of `like` (identity when equal).
  mlir::Value broadcastLike(mlir::Value x, mlir::Value like) {
    TileType t = typeOf(like), s = typeOf(x);
    if (s.getShape() == t.getShape())
      return x;
    if (s.getShape().size() < t.getShape().size()) {
      llvm::SmallVector<int64_t> shape(t.getShape().size() - s.getShape().size(), 1);
      shape.append(s.getShape().begin(), s.getShape().end());
      x = b.create<ReshapeOp>(loc, TileType::get(b.getContext(), shape,
                                                 s.getElementType(), s.getLocation()), x);
    }
    return b.create<BroadcastOp>(loc, t, x);
  }

private:
  mlir::OpBuilder &b;
  mlir::Location loc;
};

} // namespace asc2::asctile

#endif
