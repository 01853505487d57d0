//===- Reduce.cpp - reductions as the repeat-level cascade -----------------===//
//
// A tile reduction becomes what an Ascend C programmer writes (no single
// call reduces a tile):
//   rows  [rows, cols] -> [rows]: rows wider than one 256-byte repeat are
//         folded column-chunk by column-chunk into a [rows, lanes] buffer
//         with level-0 Add/Max/Min/Mul (repeat over rows, repeat strides =
//         the row length in 32-byte blocks); then WholeReduceSum/Max/Min
//         reduces each row's repeat to one value (repeat over rows).
//         Integer tiles and products have no WholeReduce: the fold goes on
//         down to one 32-byte block per row, whose elements the scalar unit
//         combines (GetValue/SetValue).
//   columns [rows, cols] -> [cols]: level-0 folds of row r into the result.
//   all   rows first (one value per row), then that row of values.
// bfloat16 (the vector reductions take only half and float) and half
// products are reduced in float: Cast, reduce, Cast back. The fold buffers are ordinary local
// buffers, so memory planning and sync insertion see them.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

#include "asc2/Arch/VectorRepeat.h"

namespace asc2::asctile_to_ascendc {

namespace {

ac::RepeatBinaryKind foldKind(ac::ReduceKind k) {
  switch (k) {
  case ac::ReduceKind::SUM:
    return ac::RepeatBinaryKind::Add;
  case ac::ReduceKind::MAX:
    return ac::RepeatBinaryKind::Max;
  case ac::ReduceKind::MIN:
    return ac::RepeatBinaryKind::Min;
  case ac::ReduceKind::PROD:
    break;
  }
  return ac::RepeatBinaryKind::Mul;
}

int64_t bytesOf(Type elem) { return elem.getIntOrFloatBitWidth() / 8; }

/// Reduced in float: bfloat16 (the vector reductions take half and float
/// only) and half products (a half running product drifts by ~1e-3 a fold).
bool reducedInFloat(Type elem, ac::ReduceKind kind) {
  return elem.isBF16() || (elem.isF16() && kind == ac::ReduceKind::PROD);
}

/// Whether the vector calls can reduce `rows` rows of `cols` x `elem`
/// (bfloat16 is widened before); an error at `op` in the user's terms if not.
LogicalResult checkReducible(Operation *op, Type elem, int64_t rows,
                             int64_t cols) {
  if (!elem.isF16() && !elem.isF32() && !elem.isInteger(16) && !elem.isInteger(32))
    return op->emitOpError() << "reduces " << elem
                             << " tiles; reductions support float32, float16, "
                                "bfloat16, int32 and int16 (cast first)";
  const int64_t w = bytesOf(elem);
  if (rows > 1 && (cols * w) % kBlockBytes != 0)
    return op->emitOpError()
           << "reduces rows of " << cols << " x " << elem << " (" << cols * w
           << " bytes): each row must start on a 32-byte boundary; pad the "
              "last dimension to a multiple of "
           << blockElems(w) << " elements";
  return success();
}

} // namespace

/// `rows` rows of `n` <= lanes elements: dst = kind(a, b), one level-0 call
/// per 255 rows (per row when a row stride exceeds BinaryRepeatParams' 255
/// blocks).
void Lowering::foldRows(Location loc, ac::RepeatBinaryKind kind, RowsView dst,
                        RowsView a, RowsView b, int64_t rows, int64_t n) {
  Type elem = cast<ac::LocalType>(dst.buffer.getType()).getElementType();
  const int64_t be = blockElems(bytesOf(elem));
  auto repStride = [&](RowsView v) { return v.rowStride / be; };
  bool fits = rows == 1 || llvm::all_of(ArrayRef<RowsView>{dst, a, b}, [&](RowsView v) {
                return repStride(v) <= kMaxBinaryStride;
              });
  const int64_t perCall = fits ? kMaxRepeat : 1;
  for (int64_t r0 = 0; r0 < rows; r0 += perCall) {
    int64_t repeat = std::min(perCall, rows - r0);
    // One repeat has no repeat stride to speak of: write the usual 8.
    auto stride = [&](RowsView v) { return repeat == 1 ? 8 : repStride(v); };
    int64_t params[] = {1, 1, 1, stride(dst), stride(a), stride(b)};
    builder.create<ac::BinaryRepeatOp>(
        loc, kind, dst.buffer, a.buffer, b.buffer, n, repeat, params,
        dst.offset + r0 * dst.rowStride, a.offset + r0 * a.rowStride,
        b.offset + r0 * b.rowStride);
  }
}

/// dst[0, n) = kind(a[0, n), b[0, n)) over contiguous elements: whole
/// repeats, then the rest under a count mask.
void Lowering::foldRun(Location loc, ac::RepeatBinaryKind kind, RowsView dst,
                       RowsView a, RowsView b, int64_t n) {
  Type elem = cast<ac::LocalType>(dst.buffer.getType()).getElementType();
  const int64_t lanes = repeatLanes(bytesOf(elem));
  auto chunked = [&](RowsView v) { return RowsView{v.buffer, v.offset, lanes}; };
  auto after = [&](RowsView v, int64_t k) {
    return RowsView{v.buffer, v.offset + k, lanes};
  };
  int64_t full = n / lanes, rest = n % lanes;
  if (full > 0)
    foldRows(loc, kind, chunked(dst), chunked(a), chunked(b), full, lanes);
  if (rest > 0)
    foldRows(loc, kind, after(dst, full * lanes), after(a, full * lanes),
             after(b, full * lanes), 1, rest);
}

/// The per-row results of `kind` over `rows` rows of `cols` elements of
/// `src` (elem `elem`), in a new [rows] buffer.
FailureOr<Value> Lowering::reduceRows(Operation *op, ac::ReduceKind kind,
                                      Value src, int64_t rows, int64_t cols) {
  Location loc = op->getLoc();
  Type elem = cast<ac::LocalType>(src.getType()).getElementType();
  std::string name = "reduce_" + ac::stringifyReduceKind(kind).lower();
  if (reducedInFloat(elem, kind))
    return widened(op, src, rows * cols, rows, [&](Value wide) {
      return reduceRows(op, kind, wide, rows, cols);
    });
  if (failed(checkReducible(op, elem, rows, cols)))
    return failure();
  const int64_t w = bytesOf(elem);
  const int64_t lanes = repeatLanes(w), be = blockElems(w);
  ac::RepeatBinaryKind fold = foldKind(kind);
  RowsView cur{src, 0, cols};
  int64_t width = cols;
  if (cols > lanes) {
    // Fold the column chunks of every row into one repeat per row.
    Value tmp = newBuffer(loc, {rows * lanes}, elem, ac::Position::VECCALC,
                          "reduce_fold");
    RowsView acc{tmp, 0, lanes};
    int64_t chunks = cols / lanes, rest = cols % lanes;
    auto chunk = [&](int64_t k) { return RowsView{src, k * lanes, cols}; };
    if (chunks >= 2)
      foldRows(loc, fold, acc, chunk(0), chunk(1), rows, lanes);
    else // max(x, x) = x: the first chunk, copied by a repeat-level call
      foldRows(loc, ac::RepeatBinaryKind::Max, acc, chunk(0), chunk(0), rows,
               lanes);
    for (int64_t k = 2; k < chunks; ++k)
      foldRows(loc, fold, acc, acc, chunk(k), rows, lanes);
    if (rest > 0)
      foldRows(loc, fold, acc, acc, chunk(chunks), rows, rest);
    cur = acc;
    width = lanes;
  }
  Value dst = newBuffer(loc, {rows}, elem, ac::Position::VECCALC, name);
  if (isa<FloatType>(elem) && kind != ac::ReduceKind::PROD) {
    auto order = kind == ac::ReduceKind::SUM ? ac::ReduceOrder::ORDER_VALUE_INDEX
                                             : ac::ReduceOrder::ORDER_ONLY_VALUE;
    for (int64_t r0 = 0; r0 < rows; r0 += kMaxRepeat) {
      int64_t repeat = std::min(kMaxRepeat, rows - r0);
      builder.create<ac::WholeReduceOp>(
          loc, kind, dst, cur.buffer, width, repeat, /*dstRepStride=*/1,
          /*srcBlkStride=*/1, /*srcRepStride=*/repeat == 1 ? 8 : cur.rowStride / be,
          order, /*dst_offset=*/r0, cur.offset + r0 * cur.rowStride);
    }
    return dst;
  }
  // Integers and products: halve the blocks of each row down to one block
  // (in a buffer of our own: the source is not ours to overwrite) ...
  if (width > be) {
    if (cur.buffer == src) {
      Value tmp = newBuffer(loc, {rows * cols}, elem, ac::Position::VECCALC,
                            "reduce_fold");
      RowsView copy{tmp, 0, cols};
      foldRows(loc, ac::RepeatBinaryKind::Max, copy, cur, cur, rows, width);
      cur = copy;
    }
    while (width > be) {
      int64_t blocks = (width + be - 1) / be;
      int64_t half = (blocks + 1) / 2 * be, upper = width - half;
      foldRows(loc, fold, cur, cur, RowsView{cur.buffer, cur.offset + half, cur.rowStride},
               rows, upper);
      width = half;
    }
  }
  // ... and combine the block's elements on the scalar unit.
  bool isFloat = isa<FloatType>(elem);
  Type acc = isFloat ? builder.getF32Type() : elem;
  for (int64_t r = 0; r < rows; ++r) {
    Value v;
    for (int64_t i = 0; i < width; ++i) {
      Value x = builder.create<ac::GetValueOp>(
          loc, elem, cur.buffer, indexConst(loc, cur.offset + r * cur.rowStride + i));
      if (acc != elem)
        x = builder.create<arith::ExtFOp>(loc, acc, x);
      if (!v) {
        v = x;
        continue;
      }
      switch (kind) {
      case ac::ReduceKind::SUM:
        v = builder.create<arith::AddIOp>(loc, v, x);
        break;
      case ac::ReduceKind::MAX:
        v = builder.create<arith::MaxSIOp>(loc, v, x);
        break;
      case ac::ReduceKind::MIN:
        v = builder.create<arith::MinSIOp>(loc, v, x);
        break;
      case ac::ReduceKind::PROD:
        v = isFloat ? builder.create<arith::MulFOp>(loc, v, x).getResult()
                    : builder.create<arith::MulIOp>(loc, v, x).getResult();
        break;
      }
    }
    if (acc != elem)
      v = builder.create<arith::TruncFOp>(loc, elem, v);
    builder.create<ac::SetValueOp>(loc, v, dst, indexConst(loc, r));
  }
  return dst;
}

/// The per-column results of `kind` over `rows` rows of `cols` elements, in
/// a new [cols] buffer: row 0 kind row 1, then each further row folded in.
FailureOr<Value> Lowering::reduceColumns(Operation *op, ac::ReduceKind kind,
                                         Value src, int64_t rows, int64_t cols) {
  Location loc = op->getLoc();
  Type elem = cast<ac::LocalType>(src.getType()).getElementType();
  if (reducedInFloat(elem, kind))
    return widened(op, src, rows * cols, cols, [&](Value wide) {
      return reduceColumns(op, kind, wide, rows, cols);
    });
  if (failed(checkReducible(op, elem, rows, cols)))
    return failure();
  ac::RepeatBinaryKind fold = foldKind(kind);
  Value dst = newBuffer(loc, {cols}, elem, ac::Position::VECCALC,
                        "reduce_" + ac::stringifyReduceKind(kind).lower());
  auto row = [&](int64_t r) { return RowsView{src, r * cols, cols}; };
  RowsView acc{dst, 0, cols};
  if (rows == 1)
    foldRun(loc, ac::RepeatBinaryKind::Max, acc, row(0), row(0), cols); // a copy
  else
    foldRun(loc, fold, acc, row(0), row(1), cols);
  for (int64_t r = 2; r < rows; ++r)
    foldRun(loc, fold, acc, acc, row(r), cols);
  return dst;
}

/// `reduce` of `n` bfloat16 elements of `src` done in float: Cast up, reduce,
/// Cast the `results` values back (rounding to nearest even).
FailureOr<Value> Lowering::widened(
    Operation *op, Value src, int64_t n, int64_t results,
    llvm::function_ref<FailureOr<Value>(Value)> reduce) {
  Location loc = op->getLoc();
  Type elem = cast<ac::LocalType>(src.getType()).getElementType();
  Value wide = newBuffer(loc, {n}, builder.getF32Type(), ac::Position::VECCALC,
                         "reduce_wide");
  builder.create<ac::CastOp>(loc, wide, src, indexConst(loc, n),
                             ac::RoundMode::CAST_NONE, ValueRange{});
  FailureOr<Value> r = reduce(wide);
  if (failed(r))
    return failure();
  Value out = newBuffer(loc, {results}, elem, ac::Position::VECCALC, "reduce");
  builder.create<ac::CastOp>(loc, out, *r, indexConst(loc, results),
                             ac::RoundMode::CAST_RINT, ValueRange{});
  return out;
}

FamilyResult Lowering::lowerReduceFamily(Operation *op) {
  if (auto r = dyn_cast<at::ReduceOp>(op))
    return lowerReduce(r);
  return std::nullopt;
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
  FailureOr<Value> current = *in;
  if (lastDim) {
    current = reduceRows(op, kind, *in, rows, cols);
    if (succeeded(current) && rowDims && rows > 1) // then the row of results
      current = reduceRows(op, kind, *current, 1, rows);
  } else if (rowDims) {
    current = reduceColumns(op, kind, *in, rows, cols);
  } else { // reducing unit dims only: a copy
    Value dst = newBuffer(loc, src, ac::Position::VECCALC, "reduce");
    copyBuffer(loc, dst, *in, src);
    current = dst;
  }
  if (failed(current))
    return failure();
  if (isTile(op.getResult().getType())) {
    buffers[op.getResult()] = *current;
  } else {
    reducedScalars[op.getResult()] = *current;
    // The scalar unit reads the value only when something besides splats
    // (which refill a tile from the buffer) needs it as a scalar.
    bool scalarUse = llvm::any_of(op.getResult().getUsers(), [](Operation *u) {
      return !isa<at::SplatOp>(u);
    });
    if (scalarUse) {
      auto get = builder.create<ac::GetValueOp>(loc, elem, *current, indexConst(loc, 0));
      op.getResult().replaceUsesWithIf(get.getResult(), [](OpOperand &use) {
        return !isa<at::SplatOp>(use.getOwner());
      });
    }
  }
  return success();
}

} // namespace asc2::asctile_to_ascendc
