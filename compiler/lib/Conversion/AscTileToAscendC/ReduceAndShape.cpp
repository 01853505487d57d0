//===- ReduceAndShape.cpp - broadcasts and tile reshaping ------------------===//
//
// (Reductions are in Reduce.cpp; a full one leaves its scalar in a
// one-element buffer that splats refill tiles from on the vector pipe.)
// Broadcasts of rows, columns and single values, reshapes (the same bytes),
// transposes of any rank and concatenation along one dimension.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

#include "llvm/ADT/TypeSwitch.h"

namespace asc2::asctile_to_ascendc {

FamilyResult Lowering::lowerReduceAndShapeFamily(Operation *op) {
  // A bool tile is a bit mask in UB: element moves would move bytes.
  if (isa<at::BroadcastOp, at::TransposeOp, at::ConcatOp>(op))
    if (cast<at::TileType>(op->getResult(0).getType()).getElementType().isInteger(1))
      return LogicalResult(op->emitOpError()
                           << "on bool tiles is not supported (a bool tile is a bit mask "
                              "in UB); convert it with .to(asc2.float16) first");
  return llvm::TypeSwitch<Operation *, FamilyResult>(op)
      .Case<at::BroadcastOp>([&](at::BroadcastOp b) { return lowerBroadcast(b); })
      .Case<at::ReshapeOp>([&](at::ReshapeOp r) { return lowerReshape(r); })
      .Case<at::TransposeOp>([&](at::TransposeOp t) { return lowerTranspose(t); })
      .Case<at::ConcatOp>([&](at::ConcatOp c) { return lowerConcat(c); })
      .Default([](Operation *) { return std::nullopt; });
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

LogicalResult Lowering::lowerReshape(at::ReshapeOp r) {
  if (Value s = splatScalar(r.getSource())) {
    splats[r.getResult()] = s;
    return success();
  }
  auto src = bufferOf(r, r.getSource());
  if (failed(src))
    return failure();
  buffers[r.getResult()] = *src; // same bytes, another shape
  return success();
}

LogicalResult Lowering::lowerConcat(at::ConcatOp c) {
  builder.setInsertionPoint(c);
  at::TileType type = c.getResult().getType();
  ArrayRef<int64_t> shape = type.getShape();
  int64_t rank = shape.size(), dim = c.getDim();
  Value dst = newBuffer(c.getLoc(), type, positionFor(type.getLocation()), "concat");
  // The dimensions before `dim` are rows, `dim` and the ones after it
  // columns: each input fills its columns of every row (one contiguous block
  // when every dimension before `dim` is 1).
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
    builder.create<ac::CopyOp>(c.getLoc(), dst, *src, indexConst(c.getLoc(), rows),
                               indexConst(c.getLoc(), cols), cols, shape[dim] * inner,
                               offset, 0);
    offset += cols;
  }
  buffers[c.getResult()] = dst;
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

} // namespace asc2::asctile_to_ascendc
