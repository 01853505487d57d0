//===- Shape.cpp - broadcasts, reshapes, transposes, concatenation ---------===//
//
// Tile shape ops become the calls an Ascend C programmer writes for them
// (docs/ascendc-api.md, "Broadcast, transpose, copy"):
//   - a column broadcast (dst[r][c] = src[r]): Brcb spreads each value over
//     a 32-byte block, then the level-0 Copy with a zero source block stride
//     repeats that block along the row; a row broadcast (dst[r][c] = src[c])
//     is a Copy whose source repeat stride is zero; one value to a whole tile
//     is the column case with one row;
//   - concatenation and row moves: DataCopy within UB (whole 32-byte blocks),
//     or the level-0 Copy with a count mask for rows that end inside a block;
//   - a transpose of the last axis: the NCHW -> NHWC form of Transpose.
// The API works on 32-byte blocks at 32-byte aligned addresses: a shape whose
// rows do not start on a block has no such lowering and is reported, in the
// user's terms, at the op.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

#include "llvm/ADT/TypeSwitch.h"

namespace asc2::asctile_to_ascendc {

namespace {
constexpr int64_t kBlockBytes = 32, kRepeatBytes = 256;
constexpr int64_t kMaxRepeat = 255;       // repeatTime is a uint8_t
constexpr int64_t kMaxRepeatSize = 4095;  // Copy's dst/srcRepeatSize
constexpr int64_t kMaxBlockCount = 4095;  // DataCopyParams::blockCount

std::string typeName(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << t;
  return s;
}
int64_t elemBytes(Type t) {
  return std::max<int64_t>(1, t.getIntOrFloatBitWidth() / 8);
}

/// Brcb spreads values over 32-byte blocks: 16- and 32-bit types on A2/A3,
/// also 8- and 64-bit ones on Ascend950 (the static_asserts of
/// mirror-cann/asc-devkit@82b89a15f:impl/basic_api/dav_c220/
/// kernel_operator_vec_brcb_impl.h and dav_3510/kernel_operator_vec_brcb_impl.h).
/// A column broadcast of 8- or 64-bit values on A2/A3 is refused in the
/// user's terms: no call there puts one such value in every lane of a block
/// (the 32-bit view of an int64 spreads its halves into separate blocks).
LogicalResult checkBrcbWidth(Operation *user, Type elem, bool c310) {
  int64_t w = elemBytes(elem);
  if (w == 2 || w == 4 || (c310 && (w == 1 || w == 8)))
    return success();
  if (w != 1 && w != 8)
    return user->emitOpError() << "has no Ascend C lowering for " << typeName(elem)
                               << " elements: Brcb takes 8- to 64-bit types";
  bool wide = w == 8;
  auto it = dyn_cast<IntegerType>(elem);
  std::string dtype = it ? (it.isUnsigned() ? "uint" : "int") + std::to_string(w * 8)
                         : typeName(elem);
  return user->emitError()
         << dtype << " broadcast of a column ([R, 1] -> [R, C]) or of one value: "
         << "Atlas A2/A3 have no " << (wide ? "64" : "8")
         << "-bit Brcb (it takes 16- and 32-bit types; Ascend950 has " << (wide ? "64" : "8")
         << "-bit ones); broadcast in " << (wide ? "int32 (.to(asc2.int32))" : "float16 (.to(asc2.float16))")
         << " or target Ascend950";
}

/// The level-0 Copy takes 16- and 32-bit types; the emitter moves 64-bit
/// elements as uint32_t halves and 8-bit ones as uint16_t pairs (CopyOp's
/// description), so 8-bit rows must be an even number of elements long.
LogicalResult checkCopyWidth(Operation *user, Type elem, int64_t cols) {
  if (elemBytes(elem) == 1 && cols % 2 != 0)
    return user->emitOpError()
           << "has no Ascend C lowering: it moves rows of " << cols << " x "
           << typeName(elem) << "; the level-0 Copy moves 8-bit elements in "
           << "16-bit pairs, so rows of an odd length cannot be moved";
  return success();
}
} // namespace

FamilyResult Lowering::lowerShapeFamily(Operation *op) {
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

//===----------------------------------------------------------------------===//
// Level-0 Copy and DataCopy plans
//===----------------------------------------------------------------------===//

LogicalResult Lowering::checkBlockAligned(Operation *user, const RowCopy &c,
                                          Type elem, StringRef what) {
  int64_t w = elemBytes(elem);
  auto misaligned = [&](int64_t elems) { return elems * w % kBlockBytes != 0; };
  bool rowsMove = c.rows > 1;
  if (misaligned(c.dstOffset) || misaligned(c.srcOffset) ||
      (rowsMove && (misaligned(c.dstRowStride) || misaligned(c.srcRowStride))))
    return user->emitOpError()
           << "has no Ascend C lowering: " << what << " moves rows of " << c.cols
           << " x " << typeName(elem) << " that start " << c.dstRowStride
           << " (destination) and " << c.srcRowStride
           << " (source) elements apart, at element " << c.dstOffset << " / "
           << c.srcOffset << "; UB copies (DataCopy, Copy) start at 32-byte "
           << "aligned addresses, so row starts must be multiples of "
           << kBlockBytes / w << " elements";
  return success();
}

LogicalResult Lowering::repeatCopies(Operation *user, Value dst, Value src,
                                     const RowCopy &c, bool srcOneBlock) {
  Location loc = user->getLoc();
  Type elem = cast<ac::LocalType>(dst.getType()).getElementType();
  int64_t w = elemBytes(elem);
  if (failed(checkCopyWidth(user, elem, c.cols)) ||
      failed(checkBlockAligned(user, c, elem, "this op")))
    return failure();
  int64_t lanes = kRepeatBytes / w, perBlock = kBlockBytes / w;
  int64_t dstRow = c.dstRowStride / perBlock, srcRow = c.srcRowStride / perBlock;
  int64_t srcBlk = srcOneBlock ? 0 : 1;
  auto copy = [&](int64_t dstOff, int64_t srcOff, int64_t mask, int64_t repeat,
                  int64_t dstRep, int64_t srcRep) {
    builder.create<ac::CopyOp>(loc, dst, src, mask, repeat, /*dst_stride=*/1,
                               srcBlk, dstRep, srcRep, c.dstOffset + dstOff,
                               c.srcOffset + srcOff);
  };
  // Either one repeat per row and a call per 256-byte column chunk, or one
  // call per row with a repeat per chunk: whichever issues fewer calls.
  int64_t chunks = (c.cols + lanes - 1) / lanes;
  int64_t rowGroups = (c.rows + kMaxRepeat - 1) / kMaxRepeat;
  int64_t full = c.cols / lanes, rest = c.cols % lanes;
  int64_t perRow = (full + kMaxRepeat - 1) / kMaxRepeat + (rest ? 1 : 0);
  bool rowRepeats = c.rows > 1 && dstRow <= kMaxRepeatSize &&
                    srcRow <= kMaxRepeatSize && chunks * rowGroups < c.rows * perRow;
  if (rowRepeats) {
    for (int64_t k = 0; k < chunks; ++k)
      for (int64_t r0 = 0; r0 < c.rows; r0 += kMaxRepeat)
        copy(r0 * c.dstRowStride + k * lanes, r0 * c.srcRowStride + srcBlk * k * lanes,
             std::min(lanes, c.cols - k * lanes), std::min(kMaxRepeat, c.rows - r0),
             dstRow, srcRow);
    return success();
  }
  for (int64_t r = 0; r < c.rows; ++r) {
    int64_t d = r * c.dstRowStride, s = r * c.srcRowStride;
    for (int64_t f0 = 0; f0 < full; f0 += kMaxRepeat)
      copy(d + f0 * lanes, s + srcBlk * f0 * lanes, lanes,
           std::min(kMaxRepeat, full - f0), 8, 8 * srcBlk);
    if (rest)
      copy(d + full * lanes, s + srcBlk * full * lanes, rest, 1, 8, 8 * srcBlk);
  }
  return success();
}

LogicalResult Lowering::copyRows(Operation *user, Value dst, Value src,
                                 const RowCopy &c) {
  Type elem = cast<ac::LocalType>(dst.getType()).getElementType();
  int64_t w = elemBytes(elem);
  if (c.rows == 0 || c.cols == 0)
    return success();
  // Rows that end inside a block: the level-0 Copy masks the tail.
  if (c.cols * w % kBlockBytes != 0)
    return repeatCopies(user, dst, src, c, /*srcOneBlock=*/false);
  if (failed(checkBlockAligned(user, c, elem, "this op")))
    return failure();
  int64_t perBlock = kBlockBytes / w;
  bool contiguous = c.rows == 1 ||
                    (c.dstRowStride == c.cols && c.srcRowStride == c.cols);
  int64_t rows = contiguous ? 1 : c.rows;
  int64_t len = (contiguous ? c.rows * c.cols : c.cols) / perBlock;
  int64_t srcGap = contiguous ? 0 : (c.srcRowStride - c.cols) / perBlock;
  int64_t dstGap = contiguous ? 0 : (c.dstRowStride - c.cols) / perBlock;
  if (srcGap < 0 || dstGap < 0)
    return user->emitOpError() << "has no Ascend C lowering: rows overlap";
  for (int64_t r0 = 0; r0 < rows; r0 += kMaxBlockCount)
    builder.create<ac::LocalDataCopyOp>(
        user->getLoc(), dst, src, std::min(kMaxBlockCount, rows - r0), len,
        srcGap, dstGap, c.dstOffset + r0 * c.dstRowStride,
        c.srcOffset + r0 * c.srcRowStride);
  return success();
}

LogicalResult Lowering::fillFromValue(Operation *user, Value dst, Value one,
                                      int64_t count) {
  return broadcastColumn(user, dst, one, /*rows=*/1, count, /*srcStep=*/0);
}

FailureOr<Value> Lowering::brcbBlocks(Operation *user, Value src, int64_t values,
                                      Type elem) {
  Location loc = user->getLoc();
  if (failed(checkBrcbWidth(user, elem, c310)))
    return failure();
  int64_t w = elemBytes(elem), perBlock = kBlockBytes / w;
  int64_t repeats = (values + 7) / 8;
  Value blocks = newBuffer(loc, {repeats * 8 * perBlock}, elem,
                           ac::Position::VECCALC, "brcb");
  // A repeat reads 8 values: 64 bytes of int64, more than the block a
  // buffer may end with. Repeats inside the source buffer read it in place;
  // a last one that would read past it takes its values from a scratch of 8
  // (at most one repeat: the buffer holds whole blocks).
  int64_t inBuffer = (cast<ac::LocalType>(src.getType()).getNumElements() * w +
                      kBlockBytes - 1) / kBlockBytes * kBlockBytes / w;
  int64_t inPlace = std::min(repeats, inBuffer / 8);
  for (int64_t i0 = 0; i0 < inPlace; i0 += kMaxRepeat)
    builder.create<ac::BrcbOp>(loc, blocks, src, std::min(kMaxRepeat, inPlace - i0),
                               /*dst_blk_stride=*/1, /*dst_rep_stride=*/8,
                               i0 * 8 * perBlock, i0 * 8);
  if (inPlace < repeats) {
    Value last = newBuffer(loc, {8}, elem, ac::Position::VECCALC, "brcb_last");
    int64_t first = inPlace * 8;
    builder.create<ac::LocalDataCopyOp>(loc, last, src, /*blockCount=*/1,
                                        (inBuffer - first) * w / kBlockBytes,
                                        /*srcGap=*/0, /*dstGap=*/0, /*dstOffset=*/0, first);
    builder.create<ac::BrcbOp>(loc, blocks, last, 1, /*dst_blk_stride=*/1,
                               /*dst_rep_stride=*/8, first * perBlock, 0);
  }
  return blocks;
}

/// dst[r][c] = src[r * srcStep]: Brcb puts each value in a block of its own
/// (repeat i fills blocks 8i..8i+7), then Copy repeats block r along row r.
LogicalResult Lowering::broadcastColumn(Operation *user, Value dst, Value src,
                                        int64_t rows, int64_t cols,
                                        int64_t srcStep) {
  Type elem = cast<ac::LocalType>(dst.getType()).getElementType();
  auto blocks = brcbBlocks(user, src, srcStep ? rows : 1, elem);
  if (failed(blocks))
    return failure();
  int64_t perBlock = kBlockBytes / elemBytes(elem);
  return repeatCopies(user, dst, *blocks,
                      RowCopy{rows, cols, cols, srcStep ? perBlock : 0, 0, 0},
                      /*srcOneBlock=*/true);
}

//===----------------------------------------------------------------------===//
// The ops
//===----------------------------------------------------------------------===//

LogicalResult Lowering::lowerBroadcast(at::BroadcastOp op) {
  // Every user reads the source in place (BroadcastOperands.cpp): no tile.
  if (!op->use_empty() && llvm::all_of(op->getUses(), [&](OpOperand &use) {
        auto b = broadcastOperand(use.getOwner());
        return b && b->broadcast == op && b->index == use.getOperandNumber();
      }))
    return success();
  builder.setInsertionPoint(op);
  Location loc = op.getLoc();
  at::TileType src = op.getSource().getType(), dst = op.getResult().getType();
  Value result = newBuffer(loc, dst, positionFor(dst.getLocation()), "broadcast");
  if (Value s = splatScalar(op.getSource())) {
    builder.create<ac::DuplicateOp>(loc, result, s, countOf(loc, dst));
    buffers[op.getResult()] = result;
    return success();
  }
  auto in = bufferOf(op, op.getSource());
  if (failed(in))
    return failure();
  auto [rows, cols] = rowsCols(dst);
  auto [srows, scols] = rowsCols(src);
  LogicalResult status = failure();
  if (src.getNumElements() == 1) // one value everywhere, without a scalar round trip
    status = fillFromValue(op, result, *in, dst.getNumElements());
  else if (scols == 1 && srows == rows)
    status = broadcastColumn(op, result, *in, rows, cols, /*srcStep=*/1);
  else if (srows == 1 && scols == cols) // every row a copy of the source row
    status = repeatCopies(op, result, *in, RowCopy{rows, cols, cols, 0, 0, 0},
                          /*srcOneBlock=*/false);
  else
    return op.emitOpError() << "broadcast from " << src << " to " << dst
                            << " is not supported yet";
  if (failed(status))
    return failure();
  buffers[op.getResult()] = result;
  return success();
}

LogicalResult Lowering::checkTransposable(Operation *op, int64_t n, int64_t c,
                                          int64_t hw, Type elem) {
  int64_t w = elemBytes(elem);
  if (hw * w % kBlockBytes != 0)
    return op->emitOpError()
           << "has no Ascend C lowering: it moves an axis of " << c
           << " past blocks of " << hw << " x " << typeName(elem) << " ("
           << hw * w << " bytes); Transpose (NCHW -> NHWC) needs those blocks "
           << "to be whole 32-byte units, i.e. the dimensions after the moved "
           << "axis must multiply to a multiple of " << kBlockBytes / w;
  if (c > 4095 || hw > 4095 || n > 65535)
    return op->emitOpError()
           << "has no Ascend C lowering: Transpose takes at most 4095 x 4095 "
           << "matrices (65535 of them), not " << n << " x " << c << " x " << hw;
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
    if (failed(copyRows(c, dst, *src,
                        RowCopy{rows, cols, shape[dim] * inner, cols, offset, 0})))
      return failure();
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
    if (failed(checkTransposable(op, outer, size[q], inner, elem)))
      return failure();
    Value t = last ? newBuffer(loc, type, pos, "transpose")
                   : newBuffer(loc, {outer * inner * size[q]}, elem, pos,
                               "transpose_out");
    // The scratch grows with c ((c + 2) * 512 bytes): a long axis goes in
    // slices of cc rows, each copied out, transposed and copied into its
    // columns of the result.
    int64_t w = elemBytes(elem), cc = size[q];
    constexpr int64_t kMaxTransposeScratch = 32 * 1024;
    while (ac::TransposeOp::tmpBytes(cc, w) > kMaxTransposeScratch && cc % 2 == 0 &&
           (cc / 2) * w % kBlockBytes == 0)
      cc /= 2;
    Value tmp = newBuffer(loc, {ac::TransposeOp::tmpBytes(cc, w)},
                          builder.getIntegerType(8, false), ac::Position::VECCALC,
                          "transpose_tmp");
    if (cc == size[q]) {
      // n x c x (h * w) -> n x (h * w) x c with h = 1: `outer` matrices of
      // size[q] x inner, each transposed.
      builder.create<ac::TransposeOp>(loc, t, cur, tmp, outer, size[q], 1, inner);
    } else {
      if (outer * (size[q] / cc) * 3 > 4096)
        return op.emitOpError() << "transposes " << outer << " matrices of " << size[q]
                                << " x " << inner << "; transpose a smaller tile";
      Value part = newBuffer(loc, {cc * inner}, elem, pos, "transpose_part");
      Value partT = newBuffer(loc, {inner * cc}, elem, pos, "transpose_part_t");
      for (int64_t b = 0; b < outer; ++b)
        for (int64_t c0 = 0; c0 < size[q]; c0 += cc) {
          int64_t base = b * size[q] * inner;
          if (failed(copyRows(op, part, cur, RowCopy{1, cc * inner, 0, 0, 0, base + c0 * inner})))
            return failure();
          builder.create<ac::TransposeOp>(loc, partT, part, tmp, 1, cc, 1, inner);
          if (failed(copyRows(op, t, partT, RowCopy{inner, cc, size[q], cc, base + c0, 0})))
            return failure();
        }
    }
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
  SmallVector<int64_t> idx(iterPos.size(), 0);
  for (int64_t c = 0; c < copies; ++c) {
    int64_t srcOff = 0, dstOff = 0;
    for (auto [k, i] : llvm::enumerate(iterPos)) {
      srcOff += idx[k] * srcStride[p[i]];
      dstOff += idx[k] * dstStride[i];
    }
    if (failed(copyRows(op, dst, cur,
                        RowCopy{size[p[rowPos]], rowLen, dstStride[rowPos],
                                srcStride[p[rowPos]], dstOff, srcOff})))
      return failure();
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
