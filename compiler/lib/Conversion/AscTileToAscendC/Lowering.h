//===- Lowering.h - State of one kernel's asctile -> ascendc lowering -*- C++ -*-===//
//
// Internal to convert-asctile-to-ascendc. The lowering walks a kernel once,
// in order, keeping which local buffer holds each tile value; every op family
// (DataTransfer, Elementwise, Reduce, Shape, Masks, Cube, ControlFlow; one
// .cpp each) reads and extends that one state, so they are members of one
// class rather than independent rewrite patterns.
//
//===----------------------------------------------------------------------===//
#ifndef ASC2_LIB_CONVERSION_ASCTILETOASCENDC_LOWERING_H
#define ASC2_LIB_CONVERSION_ASCTILETOASCENDC_LOWERING_H

#include "asc2/Dialect/AscTile/IR/AscTile.h"
#include "asc2/Dialect/AscendC/IR/AscendC.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"

#include <optional>
#include <string>
#include <utility>

#include "asc2/Support/OpFamilies.h"

namespace asc2::asctile_to_ascendc {

using namespace mlir;
namespace at = asc2::asctile;
namespace ac = asc2::ascendc;

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
  /// c310: lower for Ascend 950 (else Atlas A2/A3, c220); decides which
  /// Cast/Compare calls exist (TypeSupport.cpp).
  Lowering(func::FuncOp func, bool c310)
      : func(func), builder(func.getContext()), c310(c310) {}
  LogicalResult run();

private:
  // --- the walk (AscTileToAscendC.cpp) ---
  LogicalResult lowerOp(Operation *op);
  LogicalResult lowerBlockOps(Block &block);
  /// An op no family claims: arith/math on tiles, or scalar code kept as is.
  LogicalResult lowerOtherOp(Operation *op);

  // --- data transfer: GM views, loads, stores, scalar GM access ---
  FamilyResult lowerDataTransferFamily(Operation *op);
  LogicalResult lowerTensor(at::TensorOp op);
  LogicalResult lowerLoad(at::LoadOp op);
  /// load_transposed: one DataCopy with NdDmaParams (Ascend950).
  LogicalResult lowerTransposedLoad(at::LoadTransposedOp op);
  LogicalResult lowerStore(Operation *op, Value tile, Value tensor,
                           ValueRange offsets, ac::AtomicKind atomic,
                           ValueRange realShape = {});
  /// A bool tile's GM bytes (uint8 0/1) <-> its bit mask in UB, with the
  /// calls a programmer writes: Cast to half and Compares != 0 in; Select
  /// 1/0 in half and Cast to uint8 out.
  Value boolFromBytes(Location loc, Value bytes, at::TileType tile);
  Value bytesFromBool(Location loc, Value bits, at::TileType tile);
  LogicalResult lowerGetValue(at::GetValueOp op);
  LogicalResult lowerGather(at::GatherOp op);
  LogicalResult lowerScatter(at::ScatterOp op);
  /// The row of one index: `count` elements (the last dimension) at GM
  /// element `gmOffset` (`rows` such runs, `rowStride` apart, for a
  /// sub-tensor of more than one row; else null), and the element `at` of
  /// the rows tile's buffer its row starts at.
  struct IndexedRow {
    Value gmOffset, at, count, rows, rowStride;
  };
  using IndexedRowFn = llvm::function_ref<void(const IndexedRow &)>;
  /// The loop of gather/scatter over the indices (the first `numIndices`
  /// when given): index i read from its UB tile, its row skipped when
  /// `checkBounds` finds it outside dimension offsets.size() - 1, and `body`
  /// emitted for it (inside the loop and the bounds guard) to move it
  /// between GM and row i of `rowsTile`.
  LogicalResult forEachIndexedRow(Operation *op, const GlobalView &view, ValueRange offsets,
                                  Value indexTile, Value numIndices, bool checkBounds,
                                  at::TileType rowsTile, IndexedRowFn body);
  LogicalResult lowerSetValue(at::SetValueOp op);
  /// The extent of dimension `d` a tile access of `extent` at `offsets`
  /// moves: inside the tensor, within the tile and within realShape[d] when
  /// given; never negative.
  Value movedExtent(Location loc, const GlobalView &view, ValueRange offsets, int64_t d,
                    int64_t extent, ValueRange realShape);
  LogicalResult planAccess(Operation *op, const GlobalView &view,
                           at::TileType tile, ValueRange offsets,
                           AccessPlan &plan, ValueRange realShape = {});

  // --- elementwise: arith/math on tiles, cast, compare, select, splat ---
  FamilyResult lowerElementwiseFamily(Operation *op);
  LogicalResult lowerElementwise(Operation *op);
  LogicalResult lowerCast(at::CastOp op);
  /// dst = floor(x / y) for integer tiles, composed of real calls.
  LogicalResult lowerFloorDiv(Operation *op, Location loc, Value dst, Value x, Value y,
                              at::TileType t, Value count, ValueRange bits, at::MaskOp mask);
  /// dst = trunc(a / b) (arith.divsi) of integer buffers. c310 has integer
  /// Div; A2/A3's takes half and float only, so there 8/16-bit integers
  /// divide exactly in float (Cast, Div, Cast with truncation) and int32 is a
  /// compile error at `op`'s line.
  LogicalResult emitIntDiv(Operation *op, Location loc, Value dst, Value a, Value b,
                           at::TileType t, Value count, ValueRange bits, at::MaskOp mask);
  /// dst = a ^ b on integer (or bit-mask) buffers, as Or, And, Not, And.
  void emitXor(Location loc, Value dst, Value a, Value b, at::TileType t, Value count,
               ValueRange bits, at::MaskOp mask);
  /// dst = x << y or x >> y (arithmetic) with a tile of shift amounts. Only
  /// c310 has the tensor-by-tensor call, in its count form only; A2/A3 and
  /// a lane mask get the composition of scalar shifts and bit operations.
  LogicalResult lowerShiftByTile(Operation *op, Location loc, Value dst, Value x, Value y,
                                 at::TileType t, Value count, ValueRange bits,
                                 at::MaskOp mask, bool left);
  /// dst's lanes under a mask (bits or a count) = r's, as a masked
  /// Adds(r, 0): how a result computed unmasked (a call with no masked form
  /// for its type) lands in a buffer prefilled with the mask's `other`.
  void copyUnderMask(Location loc, Value dst, Value r, Type elem, Value count,
                     ValueRange bits, at::MaskOp mask);
  static bool underMask(ValueRange bits, at::MaskOp mask) {
    return !bits.empty() || (mask && mask.getCount());
  }
  LogicalResult lowerCmp(at::CmpOp op);
  /// A cast from or to a bool tile (a bit mask): Compares / Select through a
  /// float type. `m`/`mask`: the lanes of the result's fused mask.
  struct MaskArgs;
  LogicalResult lowerBoolCast(at::CastOp c, Value dst, Value src,
                              const MaskArgs &m, at::MaskOp mask);
  LogicalResult lowerSelect(at::SelectOp op);

  // --- the Cast/Compare calls the target has (TypeSupport.cpp) ---
  /// dst (element type `to`) = src (a buffer of `srcTile`) converted with
  /// `mode`, as the target's Cast calls, composed where no single call does
  /// it; the last call writes the lanes of `m` (`mask` fused, or null).
  LogicalResult emitCast(Operation *user, Value dst, Value src, at::TileType srcTile,
                         Type to, ac::RoundMode mode, const MaskArgs &m, at::MaskOp mask);
  /// dst (bit mask) = lhs `mode` rhs (a buffer or a scalar) over `operands`
  /// tiles, in the target's Compare calls.
  LogicalResult emitCompare(Operation *user, ac::CmpMode mode, Value dst, Value lhs,
                            Value rhs, at::TileType operands, const MaskArgs &m,
                            at::MaskOp mask);

  // --- reductions: WholeReduce cascades and fold trees (Reduce.cpp) ---
  FamilyResult lowerReduceFamily(Operation *op);
  LogicalResult lowerReduce(at::ReduceOp op);
  /// Rows of a buffer: the first element of row 0 and the row length in
  /// elements (row r starts at offset + r * rowStride).
  struct RowsView {
    Value buffer;
    int64_t offset = 0, rowStride = 0;
    /// Every element of a row reads the row's one 32-byte block (a Brcb'd
    /// column: zero block and repeat strides along the row).
    bool oneBlock = false;
  };
  /// dst = kind(a, b) on the first `n` (<= one repeat) elements of `rows`
  /// rows: level-0 calls repeating over the rows.
  void foldRows(Location loc, ac::RepeatBinaryKind kind, RowsView dst,
                RowsView a, RowsView b, int64_t rows, int64_t n);
  /// dst = kind(a, b) on `n` contiguous elements.
  void foldRun(Location loc, ac::RepeatBinaryKind kind, RowsView dst,
               RowsView a, RowsView b, int64_t n);
  /// dst = kind(a, b) on the first `n` elements of `rows` rows, in the
  /// cheapest of the level-0 call layouts.
  void foldRowRuns(Location loc, ac::RepeatBinaryKind kind, RowsView dst,
                   RowsView a, RowsView b, int64_t rows, int64_t n);
  /// dst = kind(a, b) on the first `n` elements of `rows` rows in the
  /// count-form call (int64 on Ascend950 has no level-0 form): operands and
  /// result gathered into / scattered from contiguous scratch runs as needed.
  LogicalResult foldWhole(Operation *user, ac::RepeatBinaryKind kind, RowsView dst,
                          RowsView a, RowsView b, int64_t rows, int64_t n);
  /// fold(kind, dst, a, b, units): dst = kind(a, b) on `units` units.
  using FoldUnits = llvm::function_ref<void(ac::RepeatBinaryKind, RowsView, RowsView,
                                            RowsView, int64_t)>;
  /// `count` units of `src` folded by halves into unit 0 of `dst` (through
  /// `tmp`, count / 2 units); unit i starts i * unitElems after unit 0.
  void foldByHalves(ac::RepeatBinaryKind kind, int64_t count, int64_t unitElems,
                    RowsView src, RowsView tmp, RowsView dst, FoldUnits fold);
  /// Rows of n > one repeat folded by halves to one repeat per row.
  RowsView foldChunks(Location loc, ac::RepeatBinaryKind kind, RowsView src,
                      int64_t rows, int64_t n);
  /// dst[r] = SUM/MAX/MIN of row r's n elements: WholeReduce cascades.
  void wholeReduceRows(Location loc, ac::ReduceKind kind, Value dst, RowsView src,
                       int64_t rows, int64_t n);
  FailureOr<Value> reduceRows(Operation *op, ac::ReduceKind kind, Value src,
                              int64_t rows, int64_t cols);
  /// `ownSource`: `src` is a buffer of the reduction's own, which the folds
  /// may overwrite (no intermediate buffer).
  FailureOr<Value> reduceColumns(Operation *op, ac::ReduceKind kind, Value src,
                                 int64_t rows, int64_t cols,
                                 bool ownSource = false);
  /// Rows packed narrower than a 32-byte block: GatherMask pulls each column
  /// into a row of its own, then the columns are reduced.
  FailureOr<Value> reduceNarrowRows(Operation *op, ac::ReduceKind kind,
                                    Value src, int64_t rows, int64_t cols);
  FailureOr<Value> widened(Operation *op, Value src, int64_t n, int64_t results,
                           llvm::function_ref<FailureOr<Value>(Value)> reduce);

  // --- shape: broadcast, reshape, transpose, concat (Shape.cpp) ---
  FamilyResult lowerShapeFamily(Operation *op);
  LogicalResult lowerBroadcast(at::BroadcastOp op);
  LogicalResult lowerReshape(at::ReshapeOp op);
  LogicalResult lowerTranspose(at::TransposeOp op);
  LogicalResult lowerConcat(at::ConcatOp op);
  /// `rows` rows of `cols` elements between two local buffers: row r is read
  /// at srcOffset + r * srcRowStride and written at dstOffset + r *
  /// dstRowStride (elements).
  struct RowCopy {
    int64_t rows, cols, dstRowStride, srcRowStride, dstOffset, srcOffset;
  };
  /// The rows as DataCopy within UB (or level-0 Copy when a row ends inside
  /// a 32-byte block); an error at `user` when rows are not block aligned.
  LogicalResult copyRows(Operation *user, Value dst, Value src, const RowCopy &c);
  /// The rows as level-0 Copy calls; srcOneBlock: every 32-byte block of a
  /// row is read from the row's one source block (a zero block stride).
  LogicalResult repeatCopies(Operation *user, Value dst, Value src,
                             const RowCopy &c, bool srcOneBlock);
  LogicalResult checkBlockAligned(Operation *user, const RowCopy &c, Type elem,
                                  StringRef what);
  /// dst (rows x cols) [r][c] = src[r * srcStep], by Brcb then Copy.
  LogicalResult broadcastColumn(Operation *user, Value dst, Value src,
                                int64_t rows, int64_t cols, int64_t srcStep);
  /// A VECCALC buffer whose block v holds src[v] in every element (v <
  /// values), by Brcb; an error at `user` for 8- and 64-bit elements on
  /// A2/A3 (Ascend950 has those Brcb calls).
  FailureOr<Value> brcbBlocks(Operation *user, Value src, int64_t values, Type elem);

  // --- elementwise ops on a broadcast operand (BroadcastOperands.cpp) ---
  /// The operand of a binary elementwise op that is a column ([R, 1]) or row
  /// ([1, C]) broadcast the op can read in place, with zero strides.
  struct BroadcastOperand {
    at::BroadcastOp broadcast;
    unsigned index; // 0: lhs, 1: rhs
    bool column;
  };
  std::optional<BroadcastOperand> broadcastOperand(Operation *op);
  /// result = op(x, broadcast(s)) (or op(broadcast(s), x)) as level-0 calls
  /// reading s in place: no [R, C] tile of copies.
  LogicalResult lowerOnBroadcast(Operation *op, const BroadcastOperand &b, Value result);
  /// The `count` elements of dst = the one value in buffer `one`.
  LogicalResult fillFromValue(Operation *user, Value dst, Value one, int64_t count);
  /// An n x c x hw -> n x hw x c Transpose the API can do, or an error at op.
  LogicalResult checkTransposable(Operation *op, int64_t n, int64_t c,
                                  int64_t hw, Type elem);

  // --- control flow: scf.for / scf.if / scf.yield, the launch grid ---
  FamilyResult lowerControlFlowFamily(Operation *op);
  LogicalResult lowerFor(scf::ForOp op);
  LogicalResult lowerIf(scf::IfOp op);

  // --- masks (with asc2.mask) ---
  FamilyResult lowerMaskFamily(Operation *op);
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
  /// `other` replaces the mask's own (a bool mask computed on numbers).
  MaskArgs applyMask(Location loc, at::MaskOp mask, Value dst, at::TileType t,
                     Value other = {});
  /// A mask whose value could not be computed under it (a shared op): fill
  /// `other`, then copy the selected lanes of the value.
  LogicalResult lowerMask(at::MaskOp op);
  /// lowerMask of a bool tile (a bit mask in `bits`).
  LogicalResult lowerBoolMask(at::MaskOp op, Value bits);

  // --- cube unit ---
  FamilyResult lowerCubeFamily(Operation *op);
  LogicalResult lowerCubeLoad(at::LoadOp op, const GlobalView &view);
  LogicalResult lowerMove(at::MoveOp op);
  /// Ascend950: the fixpipe L0C -> UB (the cube core writes the vector
  /// core's UB) and UB -> L1 (the vector core writes the cube core's L1).
  LogicalResult lowerL0CToUB(at::MoveOp op);
  /// The buffer of the L0C tile a fixpipe moves (a relu or cast of a matmul
  /// result is a view the fixpipe applies: `relu`).
  FailureOr<Value> fixpipeSource(at::MoveOp op, bool &relu);
  LogicalResult lowerUBToL1(at::MoveOp op);
  /// Whether the L1 -> `dst` move of a `dtype` sub-tile needs
  /// LoadData3DV2: float32 on c220 moved to L0B as stored or to L0A
  /// transposed (LoadData2DParams transposes only 16-bit fractals).
  bool needsLoad3D(Type dtype, bool toL0b, bool transpose) const;
  /// int8 B to L0B as stored on c220: whole 32 x 32 squares, or an error.
  LogicalResult checkInt8Rhs(Operation *op, at::TileType dst, bool asStored, int64_t row0);
  /// The bias-table buffer for the bias tile `tile` of `elem` values: its
  /// shape, or (16-bit, widened in whole bursts) its length rounded up to
  /// the burst.
  Value newBiasTable(Location loc, at::TileType tile, Type elem, StringRef name);
  /// The `l0`-shaped window at (row0, col0) (+ the runtime (row, col) in
  /// `start`) of the NZ L1 buffer `l1` -> `l0` by LoadData3DV2; into L0A
  /// the window is the transpose of `l0`.
  void load3D(Location loc, Value l0, Value l1, int64_t row0, int64_t col0, ValueRange start);
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

  // --- asc2.inline / asc2.inline_vf: raw Ascend C (InlineCode.cpp) ---
  FamilyResult lowerInlineCodeFamily(Operation *op);
  /// What the emitter names for operand `v` of raw Ascend C: a tile's
  /// buffer, a global tensor's GM argument, a scalar or GM argument itself.
  FailureOr<Value> inlineOperand(Operation *user, Value v);

  // --- buffers (AscTileToAscendC.cpp) ---
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
  bool c310;
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

/// The local position a tile in `loc` is allocated in outside the cube paths.
inline ac::Position positionFor(at::TileLocation loc) {
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

inline bool isTile(Type t) { return isa<at::TileType>(t); }

/// rows x cols view of a tile: everything but the last dimension is rows.
inline std::pair<int64_t, int64_t> rowsCols(at::TileType t) {
  ArrayRef<int64_t> s = t.getShape();
  return {t.getNumElements() / s.back(), s.back()};
}

} // namespace asc2::asctile_to_ascendc

#endif
