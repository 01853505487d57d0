//===- Reduce.cpp - reductions as the repeat-level cascade -----------------===//
//
// A tile reduction becomes what an Ascend C programmer writes (no single
// call reduces a tile): few calls, each with many repeats, and no chain of
// dependent calls longer than a tree's depth.
//   rows  [rows, cols] -> [rows], float sum/max/min: WholeReduceSum/Max/Min
//         over every 256-byte repeat of the tile at once (repeatTime = chunks
//         x rows, 255 a call), the partials dstRepStride apart; then again
//         over the partials, until one value per row (Huawei's level-2
//         ReduceSum "方式二": a tree within each repeat and across repeats).
//         Max/Min write ORDER_ONLY_VALUE. A count mask takes a row's tail.
//         One call can cover several rows only when every row is a whole
//         number of repeats and its partials a whole number of 32-byte blocks
//         (WholeReduce's source starts on a block): one row, or
//         contiguous rows of k x 8 (float) / k x 16 (half) repeats. Other
//         rows wider than one repeat are first folded by halves to one
//         repeat per row with level-0 Add/Max/Min (chunk j and chunk j + h
//         of every row in one call), then one WholeReduce per 255 rows.
//         Integer tiles and products have no WholeReduce: each row's blocks
//         are folded by halves down to one 32-byte block, whose elements the
//         scalar unit combines (GetValue/SetValue). int64 (Ascend950): its
//         Add/Max/Min/Mul exist only in the count form (dav_3510's level-0
//         forms static_assert 16/32-bit types), which reads and writes
//         operands from their first element: each fold gathers its operands
//         into scratch runs (DataCopy within UB, or Copy on the uint32_t
//         view for a part block) unless they already are one, and scatters
//         the result the same way (foldWhole).
//   columns [rows, cols] -> [cols]: the rows folded by halves (rows 0..h-1
//         against the last h rows, one call over their contiguous elements),
//         then again, until one row.
//   narrow rows [rows, cols] -> [rows] when a row is not a whole number of
//         32-byte blocks (a reshape packs them: [1280, 4] float32): GatherMask
//         pulls column k of every row into row k of a [cols, rows] buffer,
//         then the columns path folds those rows. Two and four columns use
//         the built-in patterns (1/2: every 2nd element from 0/1, 3..6: every
//         4th from 0..3) over whole 256-byte repeats; other widths a pattern
//         buffer of our own, in counter mode over repeats of whole rows (a
//         multiple of 8 rows of float, 16 of half, so each repeat's results
//         start on a block). A tail of less than a repeat is one more call in
//         counter mode. Rows too wide for eight (sixteen) to fit one repeat
//         are an error: pad them to a whole block.
//         (GatherMask.md under 比较与选择/, and include/basic_api/
//         kernel_struct_gather.h for GatherMaskParams.)
//   all   the tile as one row of rows x cols elements.
// A fold level reads a source and writes a buffer of our own (the source is
// not ours to overwrite), then halves that in place; the middle unit of an
// odd count joins at the end. Each level-0 call is laid out the cheapest way
// (foldRowRuns): one contiguous run, a call per row, a call per 256-byte
// column chunk repeating over rows, or eight rows' blocks per repeat
// (block stride = the row stride). Operands never overlap across repeats
// (the API's address-overlap rule).
// bfloat16 (the vector reductions take only half and float) and half
// products are reduced in float: Cast, reduce, Cast back. The fold and
// partial buffers are ordinary local buffers, so memory planning and sync
// insertion see them.
// Sources: mirror-cann/asc-devkit@82b89a15f:docs/zh/api/SIMD-API/基础API/
// Memory矢量计算/归约计算/{ReduceRepeat,ReduceSum,ReduceMax}.md and
// docs/zh/api/SIMD-API/通用说明和约束.md (address alignment and overlap).
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

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// How many repeats one more call costs, for choosing between call layouts:
/// the level-0 vector fits are about 24 cycles a call plus 2 a repeat.
constexpr int64_t kCallRepeats = 12;

/// Rows per repeat when a repeat takes one block of each of eight rows.
constexpr int64_t kBlocksPerRepeat = kRepeatBytes / kBlockBytes;

/// Reduced in float: bfloat16 (the vector reductions take half and float
/// only) and half products (a half running product drifts by ~1e-3 a fold).
bool reducedInFloat(Type elem, ac::ReduceKind kind) {
  return elem.isBF16() || (elem.isF16() && kind == ac::ReduceKind::PROD);
}

/// Whether the vector calls can reduce `rows` rows of `cols` x `elem`
/// (bfloat16 is widened before); an error at `op` in the user's terms if not.
/// int64: Ascend950 only (A2/A3 have no 64-bit integer vector arithmetic, as
/// for int64 +, max, ... in Elementwise.cpp).
LogicalResult checkReducible(Operation *op, Type elem, int64_t rows,
                             int64_t cols, bool c310) {
  if (elem.isInteger(64) && !c310)
    return op->emitError()
           << "int64 tile reduction: the vector instructions of Atlas A2/A3 take 16- and "
              "32-bit integers (Ascend950 has 64-bit ones); reduce in int32 "
              "(.to(asc2.int32)) or target Ascend950";
  if (!elem.isF16() && !elem.isF32() && !elem.isInteger(16) && !elem.isInteger(32) &&
      !elem.isInteger(64))
    return op->emitOpError() << "reduces " << elem
                             << " tiles; reductions support float32, float16, "
                                "bfloat16, int64 (Ascend950), int32 and int16 (cast first)";
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
    // One repeat has no repeat stride to speak of: write the usual 8 (0 for
    // a view that reads one block).
    auto stride = [&](RowsView v) {
      return repeat == 1 ? (v.oneBlock ? 0 : 8) : repStride(v);
    };
    auto blk = [](RowsView v) { return v.oneBlock ? 0 : 1; };
    int64_t params[] = {blk(dst), blk(a), blk(b), stride(dst), stride(a), stride(b)};
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
  // A one-block view stays on its block: no step between chunks.
  auto chunked = [&](RowsView v) {
    return RowsView{v.buffer, v.offset, v.oneBlock ? 0 : lanes, v.oneBlock};
  };
  auto after = [&](RowsView v, int64_t k) {
    return RowsView{v.buffer, v.offset + (v.oneBlock ? 0 : k), v.oneBlock ? 0 : lanes,
                    v.oneBlock};
  };
  int64_t full = n / lanes, rest = n % lanes;
  if (full > 0)
    foldRows(loc, kind, chunked(dst), chunked(a), chunked(b), full, lanes);
  if (rest > 0)
    foldRows(loc, kind, after(dst, full * lanes), after(a, full * lanes),
             after(b, full * lanes), 1, rest);
}

/// dst[r][0, n) = kind(a[r][0, n), b[r][0, n)) for r < rows, in whichever
/// call layout costs least (calls weighted by kCallRepeats, plus repeats).
void Lowering::foldRowRuns(Location loc, ac::RepeatBinaryKind kind, RowsView dst,
                           RowsView a, RowsView b, int64_t rows, int64_t n) {
  const RowsView views[] = {dst, a, b};
  if (rows == 1 || llvm::all_of(views, [&](RowsView v) { return v.rowStride == n && !v.oneBlock; }))
    return foldRun(loc, kind, dst, a, b, rows * n);
  Type elem = cast<ac::LocalType>(dst.buffer.getType()).getElementType();
  const int64_t lanes = repeatLanes(bytesOf(elem)), be = blockElems(bytesOf(elem));
  auto row = [](RowsView v, int64_t r) {
    return RowsView{v.buffer, v.offset + r * v.rowStride, v.rowStride, v.oneBlock};
  };
  auto shifted = [](RowsView v, int64_t k) {
    return RowsView{v.buffer, v.offset + (v.oneBlock ? 0 : k), v.rowStride, v.oneBlock};
  };
  const int64_t chunks = ceilDiv(n, lanes), blocks = n / be;
  const int64_t runCalls = ceilDiv(n / lanes, kMaxRepeat) + (n % lanes ? 1 : 0);
  bool strided = llvm::all_of(views, [&](RowsView v) {
    return v.rowStride % be == 0 && v.rowStride / be <= kMaxBinaryStride;
  });
  enum Layout { PerRow, PerChunk, Transposed } best = PerRow;
  int64_t bestCost = kCallRepeats * rows * runCalls + rows * chunks;
  auto consider = [&](Layout l, int64_t calls, int64_t repeats) {
    int64_t cost = kCallRepeats * calls + repeats;
    if (cost < bestCost) {
      best = l;
      bestCost = cost;
    }
  };
  if (strided) {
    consider(PerChunk, chunks * ceilDiv(rows, kMaxRepeat), rows * chunks);
    if (n % be == 0)
      consider(Transposed, ceilDiv(rows, kBlocksPerRepeat) * ceilDiv(blocks, kMaxRepeat),
               ceilDiv(rows, kBlocksPerRepeat) * blocks);
  }
  switch (best) {
  case PerRow:
    for (int64_t r = 0; r < rows; ++r)
      foldRun(loc, kind, row(dst, r), row(a, r), row(b, r), n);
    return;
  case PerChunk:
    for (int64_t k = 0; k < n; k += lanes)
      foldRows(loc, kind, shifted(dst, k), shifted(a, k), shifted(b, k), rows,
               std::min(lanes, n - k));
    return;
  case Transposed:
    // Repeat j takes block j of eight rows (block stride = the row stride in
    // blocks, repeat stride one block); a count mask of g blocks takes g rows.
    for (int64_t r0 = 0; r0 < rows; r0 += kBlocksPerRepeat) {
      int64_t group = std::min(kBlocksPerRepeat, rows - r0);
      for (int64_t j0 = 0; j0 < blocks; j0 += kMaxRepeat) {
        int64_t repeat = std::min(kMaxRepeat, blocks - j0);
        auto rep = [](RowsView v) { return v.oneBlock ? 0 : 1; };
        int64_t params[] = {dst.rowStride / be, a.rowStride / be, b.rowStride / be,
                            rep(dst), rep(a), rep(b)};
        auto at = [&](RowsView v) {
          return v.offset + r0 * v.rowStride + (v.oneBlock ? 0 : j0 * be);
        };
        builder.create<ac::BinaryRepeatOp>(loc, kind, dst.buffer, a.buffer, b.buffer,
                                           group * be, repeat, params, at(dst), at(a), at(b));
      }
    }
    return;
  }
}

/// dst = kind(a, b) on the first `n` elements of `rows` rows with the
/// count-form call, which takes whole buffers from their first element: an
/// operand that is not one contiguous run at element 0 is gathered into a
/// scratch run first, and a result that is not one is scattered back.
LogicalResult Lowering::foldWhole(Operation *user, ac::RepeatBinaryKind kind, RowsView dst,
                                  RowsView a, RowsView b, int64_t rows, int64_t n) {
  Location loc = user->getLoc();
  Type elem = cast<ac::LocalType>(dst.buffer.getType()).getElementType();
  auto inPlace = [&](RowsView v) { return v.offset == 0 && (rows == 1 || v.rowStride == n); };
  auto run = [&](RowsView v, StringRef name) -> FailureOr<Value> {
    if (inPlace(v))
      return v.buffer;
    Value t = newBuffer(loc, {rows * n}, elem, ac::Position::VECCALC, name);
    if (failed(copyRows(user, t, v.buffer, RowCopy{rows, n, n, v.rowStride, 0, v.offset})))
      return failure();
    return t;
  };
  auto x = run(a, "fold_a");
  auto y = b.buffer == a.buffer && b.offset == a.offset && b.rowStride == a.rowStride
               ? x
               : run(b, "fold_b");
  if (failed(x) || failed(y))
    return failure();
  Value out = inPlace(dst) ? dst.buffer
                           : newBuffer(loc, {rows * n}, elem, ac::Position::VECCALC, "fold");
  Value count = indexConst(loc, rows * n);
  switch (kind) {
  case ac::RepeatBinaryKind::Add:
    builder.create<ac::AddOp>(loc, out, *x, *y, count, ValueRange{});
    break;
  case ac::RepeatBinaryKind::Max:
    builder.create<ac::MaxOp>(loc, out, *x, *y, count, ValueRange{});
    break;
  case ac::RepeatBinaryKind::Min:
    builder.create<ac::MinOp>(loc, out, *x, *y, count, ValueRange{});
    break;
  default:
    builder.create<ac::MulOp>(loc, out, *x, *y, count, ValueRange{});
    break;
  }
  if (out == dst.buffer)
    return success();
  return copyRows(user, dst.buffer, out, RowCopy{rows, n, dst.rowStride, n, dst.offset, 0});
}

/// Folds `count` units (unitElems elements each: a column chunk of every
/// row, a block of every row, a whole row) of `src` into unit 0 of `dst` by
/// halves: src's first count/2 units against its last count/2 into `tmp`
/// (into `dst` when that is one unit), then tmp's halves in place, the last
/// halving into `dst`; the middle unit of an odd count joins last.
void Lowering::foldByHalves(ac::RepeatBinaryKind kind, int64_t count,
                            int64_t unitElems, RowsView src, RowsView tmp,
                            RowsView dst, FoldUnits fold) {
  auto unit = [&](RowsView v, int64_t i) {
    return RowsView{v.buffer, v.offset + i * unitElems, v.rowStride};
  };
  if (count == 1) // max(x, x) = x: a copy by a repeat-level call
    return fold(ac::RepeatBinaryKind::Max, dst, src, src, 1);
  int64_t u = count / 2;
  fold(kind, u == 1 ? dst : tmp, src, unit(src, count - u), u);
  for (int64_t k = u; k > 1;) {
    int64_t h = (k + 1) / 2;
    fold(kind, h == 1 ? dst : tmp, tmp, unit(tmp, h), k - h);
    k = h;
  }
  if (count % 2)
    fold(kind, dst, dst, unit(src, u), 1);
}

/// The column chunks of `rows` rows of n > lanes elements of `src` folded
/// by halves into one repeat per row (the tail under a count mask): the
/// first `lanes` elements of each row of the view returned.
Lowering::RowsView Lowering::foldChunks(Location loc, ac::RepeatBinaryKind kind,
                                        RowsView src, int64_t rows, int64_t n) {
  Type elem = cast<ac::LocalType>(src.buffer.getType()).getElementType();
  const int64_t lanes = repeatLanes(bytesOf(elem));
  const int64_t full = n / lanes, rest = n % lanes;
  const int64_t stride = std::max<int64_t>(full / 2, 1) * lanes;
  Value tmp = newBuffer(loc, {rows * stride}, elem, ac::Position::VECCALC, "reduce_fold");
  RowsView acc{tmp, 0, stride};
  foldByHalves(kind, full, lanes, src, acc, acc,
               [&](ac::RepeatBinaryKind k, RowsView d, RowsView a, RowsView b, int64_t units) {
                 foldRowRuns(loc, k, d, a, b, rows, units * lanes);
               });
  if (rest > 0)
    foldRowRuns(loc, kind, acc, acc, RowsView{src.buffer, src.offset + full * lanes, src.rowStride},
                rows, rest);
  return acc;
}

/// dst[r] (r < rows) = kind (SUM/MAX/MIN of half or float) over the n
/// elements of row r of `src`: WholeReduce over every repeat at once, then
/// over the partials, until one per row.
void Lowering::wholeReduceRows(Location loc, ac::ReduceKind kind, Value dst,
                               RowsView src, int64_t rows, int64_t n) {
  Type elem = cast<ac::LocalType>(src.buffer.getType()).getElementType();
  const int64_t lanes = repeatLanes(bytesOf(elem)), be = blockElems(bytesOf(elem));
  auto order = kind == ac::ReduceKind::SUM ? ac::ReduceOrder::ORDER_VALUE_INDEX
                                           : ac::ReduceOrder::ORDER_ONLY_VALUE;
  // `count` repeats of `mask` lanes, the i-th `fromStep` elements after the
  // (i-1)-th in `from`, its result `toStep` results after the (i-1)-th.
  auto reduce = [&](Value to, int64_t toOffset, int64_t toStep, RowsView from,
                    int64_t fromStep, int64_t mask, int64_t count) {
    for (int64_t i0 = 0; i0 < count; i0 += kMaxRepeat) {
      int64_t repeat = std::min(kMaxRepeat, count - i0);
      builder.create<ac::WholeReduceOp>(
          loc, kind, to, from.buffer, mask, repeat,
          /*dstRepStride=*/repeat == 1 ? 1 : toStep, /*srcBlkStride=*/1,
          /*srcRepStride=*/repeat == 1 ? 8 : fromStep / be, order,
          toOffset + i0 * toStep, from.offset + i0 * fromStep);
    }
  };
  RowsView cur = src;
  while (true) {
    // One call covers the repeats of several rows only when the rows are
    // contiguous whole repeats whose partials fill whole blocks.
    bool flat = rows == 1 || (cur.rowStride == n && n % lanes == 0 &&
                              (n / lanes) % be == 0);
    if (n > lanes && !flat) {
      cur = foldChunks(loc, foldKind(kind), cur, rows, n);
      n = lanes;
    }
    if (n <= lanes)
      return reduce(dst, 0, 1, cur, cur.rowStride, n, rows);
    const int64_t full = n / lanes, rest = n % lanes, chunks = full + (rest > 0);
    // flat: rest > 0 only for one row; several rows' partials fill blocks.
    Value partial = newBuffer(loc, {rows * chunks}, elem, ac::Position::VECCALC,
                              "reduce_partial");
    reduce(partial, 0, 1, cur, lanes, lanes, rows * full);
    if (rest > 0)
      reduce(partial, full, 1, RowsView{cur.buffer, cur.offset + full * lanes, n},
             n, rest, 1);
    cur = RowsView{partial, 0, chunks};
    n = chunks;
  }
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
  if (failed(checkReducible(op, elem, 1, cols, c310)))
    return failure();
  if (rows > 1 && cols * bytesOf(elem) % kBlockBytes != 0)
    return reduceNarrowRows(op, kind, src, rows, cols);
  const int64_t be = blockElems(bytesOf(elem));
  Value dst = newBuffer(loc, {rows}, elem, ac::Position::VECCALC, name);
  if (isa<FloatType>(elem) && kind != ac::ReduceKind::PROD) {
    wholeReduceRows(loc, kind, dst, RowsView{src, 0, cols}, rows, cols);
    return dst;
  }
  // Integers and products: each row's whole blocks folded by halves into one
  // block (a one-row tile's tail under a count mask) ...
  RowsView cur{src, 0, cols};
  int64_t width = cols;
  const int64_t blocks = cols / be, tail = cols % be;
  if (blocks > 1 || (blocks == 1 && tail > 0)) {
    const int64_t stride = std::max<int64_t>(blocks / 2, 1) * be;
    Value tmp = newBuffer(loc, {rows * stride}, elem, ac::Position::VECCALC, "reduce_fold");
    RowsView acc{tmp, 0, stride};
    ac::RepeatBinaryKind fold = foldKind(kind);
    bool wide = bytesOf(elem) == 8; // int64: count-form calls only
    LogicalResult folded = success();
    foldByHalves(fold, blocks, be, cur, acc, acc,
                 [&](ac::RepeatBinaryKind k, RowsView d, RowsView a, RowsView b, int64_t units) {
                   if (!wide)
                     return foldRowRuns(loc, k, d, a, b, rows, units * be);
                   if (succeeded(folded))
                     folded = foldWhole(op, k, d, a, b, rows, units * be);
                 });
    RowsView rest{src, blocks * be, cols};
    if (tail > 0 && !wide) // one row only (rows of several are whole blocks)
      foldRun(loc, fold, acc, acc, rest, tail);
    else if (tail > 0 && succeeded(folded))
      folded = foldWhole(op, fold, acc, acc, rest, 1, tail);
    if (failed(folded))
      return failure();
    cur = acc;
    width = be;
  }
  // ... and the block's elements combined on the scalar unit.
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
/// a new [cols] buffer: the rows folded by halves.
FailureOr<Value> Lowering::reduceColumns(Operation *op, ac::ReduceKind kind,
                                         Value src, int64_t rows, int64_t cols,
                                         bool ownSource) {
  Location loc = op->getLoc();
  Type elem = cast<ac::LocalType>(src.getType()).getElementType();
  if (reducedInFloat(elem, kind))
    return widened(op, src, rows * cols, cols, [&](Value wide) {
      return reduceColumns(op, kind, wide, rows, cols);
    });
  if (failed(checkReducible(op, elem, rows, cols, c310)))
    return failure();
  Value dst = newBuffer(loc, {cols}, elem, ac::Position::VECCALC,
                        "reduce_" + ac::stringifyReduceKind(kind).lower());
  // Intermediate rows (count/2 of them) only when more than one is left; in
  // place when the source is ours (the first halving reads each row before
  // writing it, and the middle row of an odd count is never written).
  Value tmp = rows < 4    ? dst
              : ownSource ? src
                          : newBuffer(loc, {rows / 2 * cols}, elem,
                                      ac::Position::VECCALC, "reduce_fold");
  bool wide = bytesOf(elem) == 8; // int64: count-form calls only
  LogicalResult folded = success();
  foldByHalves(foldKind(kind), rows, cols, RowsView{src, 0, cols}, RowsView{tmp, 0, cols},
               RowsView{dst, 0, cols},
               [&](ac::RepeatBinaryKind k, RowsView d, RowsView a, RowsView b, int64_t units) {
                 if (!wide)
                   return foldRun(loc, k, d, a, b, units * cols);
                 if (succeeded(folded))
                   folded = foldWhole(op, k, d, a, b, 1, units * cols);
               });
  if (failed(folded))
    return failure();
  return dst;
}

FailureOr<Value> Lowering::reduceNarrowRows(Operation *op, ac::ReduceKind kind,
                                            Value src, int64_t rows,
                                            int64_t cols) {
  Location loc = op->getLoc();
  Type elem = cast<ac::LocalType>(src.getType()).getElementType();
  const int64_t w = bytesOf(elem), lanes = repeatLanes(w), be = blockElems(w);
  // One column per row: the tile already is that one row.
  if (cols == 1)
    return reduceColumns(op, kind, src, 1, rows);
  if (w != 2 && w != 4) // int64 (Ascend950): GatherMask takes 16/32-bit types
    return op->emitOpError()
           << "reduces packed rows of " << cols << " x " << elem << " ("
           << cols * w
           << " bytes, not whole 32-byte blocks) along the last dimension: "
              "GatherMask gathers 16- and 32-bit elements only; pad the last "
              "dimension to a multiple of "
           << be << " elements";
  // Rows whose results one repeat yields: the built-in patterns take a whole
  // repeat; a pattern buffer whole rows, in multiples of a block of results.
  const bool builtin = cols == 2 || cols == 4;
  const int64_t rowsPerRepeat = builtin ? lanes / cols : lanes / cols / be * be;
  if (rowsPerRepeat == 0)
    return op->emitOpError()
           << "reduces packed rows of " << cols << " x " << elem << " ("
           << cols * w
           << " bytes, not whole 32-byte blocks) along the last dimension: "
              "GatherMask gathers their columns only when "
           << be << " rows fit one 256-byte repeat (rows of at most "
           << lanes / be
           << " elements); pad the last dimension to a multiple of " << be
           << " elements";
  const int64_t perRepeat = rowsPerRepeat * cols, total = rows * cols;
  const int64_t full = total / perRepeat, tail = total % perRepeat;
  // Row k of `columns` (slot elements, whole blocks) gets column k.
  const int64_t slot = ceilDiv(rows, be) * be;
  Value columns = newBuffer(loc, {cols * slot}, elem, ac::Position::VECCALC,
                            "reduce_columns");
  Value pattern;
  Type word = builder.getIntegerType(w * 8);
  if (!builtin) {
    // Column k's bits for one repeat, a block per column.
    pattern = newBuffer(loc, {cols * be}, word, ac::Position::VECCALC,
                        "gather_pattern");
    const int64_t bitsPerWord = w * 8;
    for (int64_t k = 0; k < cols; ++k)
      for (int64_t q = 0; q * bitsPerWord < perRepeat; ++q) {
        uint64_t bits = 0;
        for (int64_t j = q * bitsPerWord;
             j < std::min(perRepeat, (q + 1) * bitsPerWord); ++j)
          if (j % cols == k)
            bits |= uint64_t(1) << (j - q * bitsPerWord);
        Value v = builder.create<arith::ConstantOp>(
            loc, builder.getIntegerAttr(word, llvm::APInt(bitsPerWord, bits)));
        builder.create<ac::SetValueOp>(loc, v, pattern,
                                       indexConst(loc, k * be + q));
      }
  }
  const int64_t repeatBlocks = perRepeat * w / kBlockBytes;
  for (int64_t k = 0; k < cols; ++k) {
    const int64_t builtinPattern = builtin ? (cols == 2 ? 1 : 3) + k : 0;
    auto gather = [&](int64_t first, int64_t repeats, bool counter,
                      int64_t mask) {
      builder.create<ac::GatherMaskOp>(
          loc, columns, src, pattern, builtinPattern, counter, mask, repeats,
          /*srcBlockStride=*/1, /*srcRepeatStride=*/repeatBlocks,
          /*src1RepeatStride=*/0,
          /*dstOffset=*/k * slot + first * rowsPerRepeat,
          /*srcOffset=*/first * perRepeat,
          /*patternOffset=*/builtin ? 0 : k * be);
    };
    for (int64_t r0 = 0; r0 < full; r0 += kMaxRepeat)
      gather(r0, std::min(kMaxRepeat, full - r0), !builtin,
             builtin ? 0 : perRepeat);
    if (tail > 0)
      gather(full, 1, true, tail);
  }
  FailureOr<Value> reduced =
      reduceColumns(op, kind, columns, cols, slot, /*ownSource=*/true);
  if (failed(reduced) || slot == rows)
    return reduced;
  Value dst = newBuffer(loc, {rows}, elem, ac::Position::VECCALC,
                        "reduce_" + ac::stringifyReduceKind(kind).lower());
  copyBuffer(loc, dst, *reduced,
             at::TileType::get(builder.getContext(), {rows}, elem,
                               at::TileLocation::UB));
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
  if (lastDim && rowDims) { // everything: the tile's buffer is one row
    current = reduceRows(op, kind, *in, 1, rows * cols);
  } else if (lastDim) {
    current = reduceRows(op, kind, *in, rows, cols);
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
