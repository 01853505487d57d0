//===- FoldTransposeIntoLoad.cpp - a load and its transpose as one DMA ----===//
//
// On Ascend950 a GM -> UB DMA can walk up to five nested loops with element
// strides on both sides (DataCopy with NdDmaParams), so a tile can land in
// UB already transposed. A transpose done by the vector unit needs the
// loaded tile and a second one for the result; upstream's tilings size the
// loaded tile to the whole UB, which only the folded form fits.
//
// The frontend merges dimensions a tile spans whole before it loads ([62, 8,
// 128] of a [7000, 8, 128] tensor is one run of 63488 elements) and
// reshapes the loaded tile back, so the pattern is load -> reshape ->
// transpose. A merged dimension is split again into the reshape's
// dimensions when that is exact: its tensor extent, offset and real_shape
// are multiples of the product of the inner parts (so clamping at the
// tensor's end cuts whole inner blocks). The result is a load_transposed of
// a tensor view with those dimensions, then a reshape to the transpose's
// type when unit dimensions differ.
//
//===----------------------------------------------------------------------===//
#include "asc2/Dialect/AscTile/IR/TransposedLoad.h"
#include "asc2/Dialect/AscTile/Transforms/Passes.h"
#include "asc2/Support/PassOptions.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"

#include <numeric>

#define DEBUG_TYPE "asctile-fold-transpose-into-load"

namespace asc2::asctile {
#define GEN_PASS_DEF_ASCTILEFOLDTRANSPOSEINTOLOAD
#include "asc2/Dialect/AscTile/Transforms/Passes.h.inc"
} // namespace asc2::asctile

using namespace mlir;
using namespace asc2::asctile;

namespace {

/// A number `v` is known to be a multiple of: 0 when it is 0 (a multiple of
/// everything), 1 when nothing is known.
int64_t knownDivisor(Value v, int depth = 0) {
  if (std::optional<int64_t> c = getConstantIntValue(v))
    return *c == INT64_MIN ? 1 : std::abs(*c);
  Operation *op = v.getDefiningOp();
  if (!op || depth > 8)
    return 1;
  auto of = [&](unsigned i) {
    return knownDivisor(op->getOperand(i), depth + 1);
  };
  if (isa<arith::MulIOp>(op)) {
    int64_t a = of(0), b = of(1), product;
    if (a == 0 || b == 0)
      return 0;
    return __builtin_mul_overflow(a, b, &product) ? std::max(a, b) : product;
  }
  if (isa<arith::AddIOp, arith::SubIOp, arith::MinSIOp, arith::MaxSIOp>(op))
    return std::gcd(of(0), of(1));
  if (isa<arith::SelectOp>(op))
    return std::gcd(of(1), of(2));
  return 1;
}

bool multipleOf(Value v, int64_t q) {
  int64_t d = knownDivisor(v);
  return d == 0 || d % q == 0;
}

/// One dimension of the view the folded load reads.
struct ViewDim {
  int64_t size;       // static extent, or ShapedType::kDynamic
  Value dynamicSize;  // its value when dynamic
  Value offset, real; // real: null without a real_shape
  int64_t box;        // extent of the tile in it
  int64_t fromSource; // the transpose source's dimension, -1 for a unit load
                      // dimension
};

struct FoldTransposeIntoLoadPass
    : public asc2::asctile::impl::AscTileFoldTransposeIntoLoadBase<
          FoldTransposeIntoLoadPass> {
  using AscTileFoldTransposeIntoLoadBase::AscTileFoldTransposeIntoLoadBase;

  void runOnOperation() override {
    if (failed(asc2::checkOption(getOperation(),
                                 "asctile-fold-transpose-into-load", "max-dims",
                                 maxDims, 1)))
      return signalPassFailure();
    SmallVector<TransposeOp> transposes;
    getOperation().walk([&](TransposeOp t) { transposes.push_back(t); });
    for (TransposeOp t : transposes)
      if (succeeded(fold(t)))
        ++numFolded;
  }

  LogicalResult fold(TransposeOp t);
  /// `v / q` for a `v` known to be a multiple of q.
  Value exactDiv(OpBuilder &b, Location loc, Value v, int64_t q);
};

Value FoldTransposeIntoLoadPass::exactDiv(OpBuilder &b, Location loc, Value v,
                                          int64_t q) {
  if (q == 1)
    return v;
  if (std::optional<int64_t> c = getConstantIntValue(v))
    return b.create<arith::ConstantIndexOp>(loc, *c / q);
  if (auto mul = v.getDefiningOp<arith::MulIOp>())
    for (unsigned i = 0; i < 2; ++i)
      if (std::optional<int64_t> c = getConstantIntValue(mul.getOperand(i));
          c && *c % q == 0)
        return *c == q ? mul.getOperand(1 - i)
                       : b.create<arith::MulIOp>(
                             loc, mul.getOperand(1 - i),
                             b.create<arith::ConstantIndexOp>(loc, *c / q));
  return b.create<arith::DivSIOp>(loc, v,
                                  b.create<arith::ConstantIndexOp>(loc, q));
}

LogicalResult FoldTransposeIntoLoadPass::fold(TransposeOp t) {
  TileType result = t.getResult().getType();
  Type elem = result.getElementType();
  // Bool tiles are bit masks in UB; 64-bit elements take the DMA twice.
  if (result.getLocation() != TileLocation::UB || elem.isInteger(1) ||
      elem.getIntOrFloatBitWidth() > 32)
    return failure();
  Value source = t.getSource();
  auto reshape = source.getDefiningOp<ReshapeOp>();
  Value loaded = reshape ? reshape.getSource() : source;
  auto load = loaded.getDefiningOp<LoadOp>();
  if ((reshape && !source.hasOneUse()) || !load || !loaded.hasOneUse())
    return failure();
  auto tensor = load.getTensor().getDefiningOp<TensorOp>();
  if (!tensor || load.getType().getLocation() != TileLocation::UB)
    return failure();

  // The view's dimensions: each load dimension, split into the transpose
  // source's non-unit dimensions it holds.
  ArrayRef<int64_t> loadShape = load.getType().getShape();
  ArrayRef<int64_t> shape = t.getSource().getType().getShape();
  ArrayRef<int64_t> tensorShape = tensor.getType().getShape();
  SmallVector<int64_t> nonUnit;
  for (int64_t n = 0; n < (int64_t)shape.size(); ++n)
    if (shape[n] != 1)
      nonUnit.push_back(n);
  // Every op built here is erased again when the fold is not taken.
  struct Recorder : OpBuilder::Listener {
    SmallVector<Operation *> ops;
    void notifyOperationInserted(Operation *op,
                                 OpBuilder::InsertPoint) override {
      ops.push_back(op);
    }
  } recorder;
  OpBuilder b(load, &recorder);
  Location loc = load.getLoc();
  llvm::SmallDenseMap<int64_t, Value> constants;
  auto index = [&](int64_t v) -> Value {
    Value &c = constants[v];
    if (!c)
      c = b.create<arith::ConstantIndexOp>(loc, v);
    return c;
  };
  auto rollback = [&]() {
    for (Operation *op : llvm::reverse(recorder.ops))
      if (op->use_empty())
        op->erase();
    return failure();
  };
  SmallVector<ViewDim> view;
  unsigned dynamic = 0;
  size_t next = 0; // in nonUnit
  for (size_t m = 0; m < loadShape.size(); ++m) {
    Value dynamicSize = ShapedType::isDynamic(tensorShape[m])
                            ? tensor.getDynamicDims()[dynamic++]
                            : Value();
    Value offset = load.getOffsets()[m];
    Value real = load.getRealShape().empty() ? Value() : load.getRealShape()[m];
    if (loadShape[m] == 1) {
      view.push_back({tensorShape[m], dynamicSize, offset, real, 1, -1});
      continue;
    }
    SmallVector<int64_t> group;
    int64_t product = 1;
    while (product < loadShape[m] && next < nonUnit.size()) {
      group.push_back(nonUnit[next++]);
      product *= shape[group.back()];
    }
    if (product != loadShape[m])
      return rollback(); // the reshape is not a split of the load's dimensions
    int64_t inner = loadShape[m] / shape[group.front()];
    if (inner > 1) {
      bool exact = ShapedType::isDynamic(tensorShape[m])
                       ? multipleOf(dynamicSize, inner)
                       : tensorShape[m] % inner == 0;
      if (!exact || !multipleOf(offset, inner) ||
          (real && !multipleOf(real, inner)))
        return rollback();
    }
    ViewDim outer{ShapedType::kDynamic,
                  Value(),
                  exactDiv(b, loc, offset, inner),
                  real ? exactDiv(b, loc, real, inner) : Value(),
                  shape[group.front()],
                  group.front()};
    if (!ShapedType::isDynamic(tensorShape[m]))
      outer.size = tensorShape[m] / inner;
    else
      outer.dynamicSize = exactDiv(b, loc, dynamicSize, inner);
    view.push_back(outer);
    for (int64_t n : ArrayRef(group).drop_front())
      view.push_back({shape[n], Value(), index(0),
                      real ? index(shape[n]) : Value(), shape[n], n});
  }
  if (next != nonUnit.size())
    return rollback();

  // The result: unit load dimensions first, then the transpose's order.
  SmallVector<int64_t> perm;
  for (int64_t v = 0; v < (int64_t)view.size(); ++v)
    if (view[v].fromSource < 0)
      perm.push_back(v);
  int64_t units = perm.size();
  for (int64_t n : t.getPermutationOrDefault())
    for (int64_t v = 0; v < (int64_t)view.size(); ++v)
      if (view[v].fromSource == n && shape[n] != 1)
        perm.push_back(v);
  if (std::is_sorted(perm.begin() + units, perm.end()))
    return rollback(); // the same bytes in another shape: no data moves
  SmallVector<int64_t> viewShape, resultShape;
  SmallVector<Value> dynamicDims, offsets, reals;
  for (const ViewDim &d : view) {
    viewShape.push_back(d.size);
    if (d.dynamicSize)
      dynamicDims.push_back(d.dynamicSize);
    offsets.push_back(d.offset);
    if (d.real)
      reals.push_back(d.real);
  }
  for (int64_t v : perm)
    resultShape.push_back(view[v].box);

  Value viewTensor = load.getTensor();
  if (ArrayRef<int64_t>(viewShape) != tensorShape)
    viewTensor = b.create<TensorOp>(
        tensor.getLoc(),
        asc2::asctile::TensorType::get(b.getContext(), viewShape, elem),
        tensor.getPtr(), dynamicDims);
  auto folded = b.create<LoadTransposedOp>(
      loc, TileType::get(b.getContext(), resultShape, elem, TileLocation::UB),
      viewTensor, offsets, reals, b.getDenseI64ArrayAttr(perm),
      load.getPadValueAttr());
  std::optional<SmallVector<NdLoop>> loops = planTransposedLoad(folded);
  if (!loops || !fitsNdDma(*loops, maxDims))
    return rollback();

  Value replacement = folded.getResult();
  if (replacement.getType() != result) {
    b.setInsertionPoint(t);
    replacement = b.create<ReshapeOp>(t.getLoc(), result, replacement);
  }
  t.getResult().replaceAllUsesWith(replacement);
  t->erase();
  if (reshape)
    reshape->erase();
  load->erase();
  return success();
}

} // namespace
