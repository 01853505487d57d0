//===- AscTileDialect.cpp - asctile types, ops and verifiers ---------------===//
#include "asc2/Dialect/AscTile/IR/AscTile.h"
#include "asc2/Support/InlineCode.h"
#include "asc2/Support/KindedError.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Transforms/InliningUtils.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <numeric>

using namespace mlir;

#include "asc2/Dialect/AscTile/IR/AscTileDialect.cpp.inc"
#include "asc2/Dialect/AscTile/IR/AscTileEnums.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "asc2/Dialect/AscTile/IR/AscTileTypes.cpp.inc"

#define GET_OP_CLASSES
#include "asc2/Dialect/AscTile/IR/AscTileOps.cpp.inc"

namespace asc2::asctile {

namespace {
/// Every asctile op may be inlined (nested @asc2.jit helpers).
struct AscTileInlinerInterface : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;
  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final {
    return true;
  }
  bool isLegalToInline(Region *, Region *, bool, IRMapping &) const final {
    return true;
  }
};
} // namespace

void AscTileDialect::initialize() {
  addInterfaces<AscTileInlinerInterface>();
  addTypes<
#define GET_TYPEDEF_LIST
#include "asc2/Dialect/AscTile/IR/AscTileTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "asc2/Dialect/AscTile/IR/AscTileOps.cpp.inc"
      >();
}

/// The loop annotations the frontend and the passes put on scf.for (and the
/// copy index on the ops of an unrolled body): integers in range, or a bool.
LogicalResult AscTileDialect::verifyOperationAttribute(Operation *op,
                                                       NamedAttribute attr) {
  StringRef name = attr.getName().strref();
  auto integerAtLeast = [&](int64_t min, int64_t max) -> LogicalResult {
    auto value = dyn_cast<IntegerAttr>(attr.getValue());
    if (!value || !value.getType().isSignlessInteger(64))
      return op->emitError() << "'" << name << "' must be an i64 integer, got "
                             << attr.getValue();
    if (value.getInt() < min || value.getInt() > max)
      return op->emitError() << "'" << name << "' must be in " << min << ".."
                             << max << ", got " << value.getInt();
    return success();
  };
  if (name == "asctile.unroll_factor")
    return integerAtLeast(1, kMaxUnrollFactor);
  if (name == "asctile.unrolled_by" || name == "asctile.rows_per_trip")
    return integerAtLeast(1, std::numeric_limits<int64_t>::max());
  if (name == "asctile.copy")
    return integerAtLeast(0, kMaxUnrollFactor - 1);
  if (name == "asctile.parallel" && !isa<BoolAttr>(attr.getValue()))
    return op->emitError() << "'" << name << "' must be true or false, got "
                           << attr.getValue();
  return success();
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

static unsigned elementBytes(Type t) {
  return std::max<unsigned>(1, (t.getIntOrFloatBitWidth() + 7) / 8);
}

unsigned TensorType::getNumDynamicDims() const {
  return llvm::count(getShape(), ShapedType::kDynamic);
}

// !asctile.tensor<?x1024xf32>
Type TensorType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type elementType;
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/true) ||
      parser.parseType(elementType) || parser.parseGreater())
    return {};
  return TensorType::get(parser.getContext(), shape, elementType);
}

void TensorType::print(AsmPrinter &printer) const {
  printer << "<";
  printer.printDimensionList(getShape());
  printer << "x" << getElementType() << ">";
}

// !asctile.tile<1x1024xf32, UB>
Type TileType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type elementType;
  StringRef locName;
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/false) ||
      parser.parseType(elementType) || parser.parseComma() ||
      parser.parseKeyword(&locName) || parser.parseGreater())
    return {};
  std::optional<TileLocation> loc = symbolizeTileLocation(locName);
  if (!loc) {
    parser.emitError(parser.getCurrentLocation(),
                     "unknown tile location '" + locName +
                         "' (expected UB, L1, L0A, L0B, L0C, BT or FIX)");
    return {};
  }
  return TileType::getChecked(
      [&] { return parser.emitError(parser.getNameLoc()); },
      parser.getContext(), shape, elementType, *loc);
}

void TileType::print(AsmPrinter &printer) const {
  printer << "<";
  printer.printDimensionList(getShape());
  printer << "x" << getElementType() << ", "
          << stringifyTileLocation(getLocation()) << ">";
}

LogicalResult
TileType::verify(function_ref<InFlightDiagnostic()> emitError,
                 ArrayRef<int64_t> shape, Type elementType,
                 TileLocation location) {
  if (shape.empty())
    return emitError() << "a tile needs at least one dimension";
  for (int64_t d : shape)
    if (d <= 0)
      return emitError() << "tile dimensions must be positive, got " << d;
  if (!elementType.isIntOrFloat())
    return emitError() << "tile elements must be integers or floats, got "
                       << elementType;
  // Tiles live on chip (a few MB at most); the bound keeps getSizeInBytes
  // and every size derived from it (padding, strides) clear of int64
  // overflow. The frontend reports the same bound at the kernel's line.
  constexpr int64_t kMaxTileBytes = int64_t(1) << 31;
  int64_t bytes = elementBytes(elementType);
  for (int64_t d : shape)
    if (llvm::MulOverflow(bytes, d, bytes) || bytes > kMaxTileBytes) {
      InFlightDiagnostic diag = emitError();
      diag << "a tile of shape [";
      llvm::interleaveComma(shape, diag);
      return diag << "] is larger than any on-chip memory (tiles are "
                  << "limited to " << kMaxTileBytes << " bytes)";
    }
  return success();
}

ShapedType TileType::cloneWith(std::optional<ArrayRef<int64_t>> shape,
                               Type elementType) const {
  return TileType::get(getContext(), shape ? *shape : getShape(), elementType,
                       getLocation());
}

int64_t TileType::getNumElements() const {
  int64_t n = 1;
  for (int64_t d : getShape())
    n *= d;
  return n;
}

int64_t TileType::getSizeInBytes() const {
  return getNumElements() * elementBytes(getElementType());
}

//===----------------------------------------------------------------------===//
// Ops
//===----------------------------------------------------------------------===//

LogicalResult TensorOp::verify() {
  auto type = getResult().getType();
  if (getDynamicDims().size() != type.getNumDynamicDims())
    return emitOpError() << "expects " << type.getNumDynamicDims()
                         << " dynamic dimension sizes, got "
                         << getDynamicDims().size();
  if (type.getElementType() != getPtr().getType().getElementType())
    return emitOpError() << "tensor element type " << type.getElementType()
                         << " differs from the pointer's "
                         << getPtr().getType().getElementType();
  return success();
}

LogicalResult DimOp::verify() {
  int64_t rank = getTensor().getType().getRank();
  if (getIndex() < 0 || getIndex() >= rank)
    return emitOpError() << "dimension " << getIndex()
                         << " is out of range for a rank-" << rank
                         << " tensor";
  return success();
}

/// UB tiles of rank 2 and more must have their last dimension aligned to 32
/// bytes: the vector unit and DataCopy work in 32-byte blocks, row by row. A
/// rank-1 tile may have any length: its buffer is rounded up to whole blocks
/// and DataCopyPad moves the exact bytes.
static LogicalResult verifyTileAlignment(Operation *op, TileType tile) {
  if (tile.getLocation() != TileLocation::UB || tile.getShape().size() == 1)
    return success();
  int64_t lastBytes = tile.getShape().back() * elementBytes(tile.getElementType());
  if (lastBytes % 32 != 0)
    return emitOpErrorOfKind(op, ErrorKind::Alignment)
           << "UB tile last dimension is " << tile.getShape().back() << " x "
           << elementBytes(tile.getElementType()) << " bytes = " << lastBytes
           << " bytes, not a multiple of 32 bytes; use a multiple of "
           << 32 / std::gcd<int64_t>(32, elementBytes(tile.getElementType()))
           << " elements";
  return success();
}

static LogicalResult verifyAccess(Operation *op, TensorType tensor,
                                  TileType tile, size_t numOffsets) {
  if ((int64_t)numOffsets != tensor.getRank())
    return op->emitOpError() << "expects " << tensor.getRank()
                             << " offsets for a rank-" << tensor.getRank()
                             << " tensor, got " << numOffsets;
  if ((int64_t)tile.getShape().size() != tensor.getRank())
    return op->emitOpError() << "tile rank " << tile.getShape().size()
                             << " differs from tensor rank "
                             << tensor.getRank();
  if (tile.getElementType() != tensor.getElementType())
    return op->emitOpError() << "tile element type " << tile.getElementType()
                             << " differs from tensor element type "
                             << tensor.getElementType();
  return verifyTileAlignment(op, tile);
}

/// A real_shape is absent or gives one extent per tile dimension.
static LogicalResult verifyRealShape(Operation *op, TileType tile,
                                     size_t realRank) {
  if (realRank != 0 && realRank != tile.getShape().size())
    return op->emitOpError() << "real_shape has " << realRank
                             << " extents for a rank-" << tile.getShape().size()
                             << " tile";
  return success();
}

/// A load's pad_value is absent or of the tile's element type.
static LogicalResult verifyPadValue(Operation *op, TypedAttr pad, TileType tile) {
  if (pad && pad.getType() != tile.getElementType())
    return op->emitOpError() << "pad_value type " << pad.getType()
                             << " differs from the element type";
  return success();
}

LogicalResult LoadOp::verify() {
  if (failed(verifyAccess(*this, getTensor().getType(), getResult().getType(),
                          getOffsets().size())) ||
      failed(verifyRealShape(*this, getResult().getType(), getRealShape().size())))
    return failure();
  return verifyPadValue(*this, getPadValueAttr(), getResult().getType());
}

SmallVector<int64_t> LoadTransposedOp::getSourceShape() {
  ArrayRef<int64_t> shape = getResult().getType().getShape();
  ArrayRef<int64_t> perm = getPermutation();
  SmallVector<int64_t> box(shape.size(), 0);
  for (size_t i = 0; i < perm.size() && i < shape.size(); ++i)
    if (perm[i] >= 0 && perm[i] < (int64_t)box.size())
      box[perm[i]] = shape[i];
  return box;
}

LogicalResult LoadTransposedOp::verify() {
  TileType tile = getResult().getType();
  ArrayRef<int64_t> perm = getPermutation();
  int64_t rank = tile.getShape().size();
  SmallVector<bool> seen(rank, false);
  bool isPermutation = (int64_t)perm.size() == rank;
  for (int64_t p : perm) {
    isPermutation = isPermutation && p >= 0 && p < rank && !seen[p];
    if (isPermutation)
      seen[p] = true;
  }
  if (!isPermutation)
    return emitOpError() << "[" << perm << "] is not a permutation of 0.." << rank - 1;
  if (tile.getLocation() != TileLocation::UB)
    return emitOpError() << "loads into UB only, not " << tile;
  if (failed(verifyAccess(*this, getTensor().getType(), tile, getOffsets().size())) ||
      failed(verifyRealShape(*this, tile, getRealShape().size())))
    return failure();
  return verifyPadValue(*this, getPadValueAttr(), tile);
}

LogicalResult StoreOp::verify() {
  if (failed(verifyAccess(*this, getTensor().getType(), getValue().getType(),
                          getOffsets().size())))
    return failure();
  return verifyRealShape(*this, getValue().getType(), getRealShape().size());
}

/// What gather and scatter share: the index tile (rank 1, UB, an integer
/// type), the indexed dimension d = offsets - 1 (below the last) and the
/// tile of rows `rows` ([>= N when scatter, N when gather], dims d+1 ..
/// rank-2 of the tensor, its last dimension rounded up to 32 bytes).
static LogicalResult verifyIndexedRows(Operation *op, TensorType tensor,
                                       size_t numOffsets, TileType index,
                                       TileType rows, bool exactRows) {
  Type it = index.getElementType();
  if (index.getShape().size() != 1 || index.getLocation() != TileLocation::UB ||
      !it.isSignlessInteger() || it.isInteger(1))
    return op->emitOpError() << "index must be a rank-1 UB tile of int8, "
                                "int16, int32 or int64, got "
                             << index;
  int64_t rank = tensor.getRank();
  if (numOffsets < 1 || (int64_t)numOffsets >= rank)
    return op->emitOpError() << "expects 1 to " << rank - 1
                             << " offsets (the indexed dimension is below "
                                "the last of the rank-"
                             << rank << " tensor), got " << numOffsets;
  int64_t d = numOffsets - 1;
  ArrayRef<int64_t> dims = tensor.getShape();
  for (int64_t k = d + 1; k < rank; ++k)
    if (ShapedType::isDynamic(dims[k]))
      return op->emitOpError() << "tensor dimension " << k
                               << " (after the indexed one) must be static";
  if (rows.getElementType() != tensor.getElementType())
    return op->emitOpError() << "tile element type " << rows.getElementType()
                             << " differs from tensor element type "
                             << tensor.getElementType();
  if (rows.getLocation() != TileLocation::UB)
    return op->emitOpError() << "the rows tile must be in UB";
  int64_t perBlock = 32 / elementBytes(tensor.getElementType());
  SmallVector<int64_t> want{index.getShape()[0]};
  for (int64_t k = d + 1; k < rank; ++k)
    want.push_back(dims[k]);
  want.back() = (want.back() + perBlock - 1) / perBlock * perBlock;
  ArrayRef<int64_t> got = rows.getShape();
  if (got.size() != want.size() || got.drop_front() != ArrayRef(want).drop_front() ||
      (exactRows ? got[0] != want[0] : got[0] < want[0])) {
    auto diag = op->emitOpError() << "rows tile " << rows << " does not match: expected [";
    diag << (exactRows ? "" : ">= ") << want[0];
    for (int64_t w : ArrayRef(want).drop_front())
      diag << ", " << w;
    return diag << "]";
  }
  return verifyTileAlignment(op, rows);
}

LogicalResult GatherOp::verify() {
  if (failed(verifyIndexedRows(*this, getTensor().getType(), getOffsets().size(),
                               getIndex().getType(), getResult().getType(),
                               /*exactRows=*/true)))
    return failure();
  return verifyPadValue(*this, getPadValueAttr(), getResult().getType());
}

LogicalResult ScatterOp::verify() {
  return verifyIndexedRows(*this, getTensor().getType(), getOffsets().size(),
                           getIndex().getType(), getValue().getType(),
                           /*exactRows=*/false);
}

/// The scalar type that fills a tile of `elem`: the element type itself, or
/// for unsigned integers (ui8) the signless integer of the same width that
/// holds the same bits (arith has no unsigned scalars).
static bool isFillScalarType(Type scalar, Type elem) {
  if (scalar == elem)
    return true;
  return elem.isUnsignedInteger() && scalar.isSignlessInteger() &&
         scalar.getIntOrFloatBitWidth() == elem.getIntOrFloatBitWidth();
}

LogicalResult SplatOp::verify() {
  if (!isFillScalarType(getValue().getType(), getResult().getType().getElementType()))
    return emitOpError() << "scalar type " << getValue().getType()
                         << " differs from the tile element type "
                         << getResult().getType().getElementType();
  return success();
}

static LogicalResult sameShape(Operation *op, TileType a, TileType b,
                               StringRef what) {
  if (a.getShape() != b.getShape())
    return op->emitOpError() << what << " shapes differ: " << a << " vs " << b;
  return success();
}

LogicalResult CmpOp::verify() {
  auto result = getResult().getType();
  if (!result.getElementType().isInteger(1))
    return emitOpError() << "result must be a tile of i1, got " << result;
  return sameShape(*this, getLhs().getType(), result, "operand and result");
}

LogicalResult SelectOp::verify() {
  auto mask = getMask().getType();
  if (!mask.getElementType().isInteger(1))
    return emitOpError() << "mask must be a tile of i1, got " << mask;
  return sameShape(*this, mask, getResult().getType(), "mask and result");
}

LogicalResult CastOp::verify() {
  return sameShape(*this, getSource().getType(), getResult().getType(),
                   "source and result");
}

LogicalResult ReduceOp::verify() {
  TileType src = getSource().getType();
  int64_t rank = src.getShape().size();
  ArrayRef<int64_t> dims = getDims();
  if (dims.empty())
    return emitOpError() << "needs at least one dimension to reduce";
  SmallVector<int64_t> expected(src.getShape());
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] < 0 || dims[i] >= rank)
      return emitOpError() << "dimension " << dims[i]
                           << " is out of range for a rank-" << rank << " tile";
    if (i && dims[i] <= dims[i - 1])
      return emitOpError() << "dimensions must be sorted and unique";
    expected[dims[i]] = getKeepDims() ? 1 : -1;
  }
  llvm::erase(expected, -1);
  Type result = getResult().getType();
  if (expected.empty()) {
    if (result != src.getElementType())
      return emitOpError() << "reducing every dimension gives a "
                           << src.getElementType() << " scalar, not " << result;
    return success();
  }
  auto tile = dyn_cast<TileType>(result);
  if (!tile || tile.getShape() != ArrayRef<int64_t>(expected) ||
      tile.getElementType() != src.getElementType())
    return emitOpError() << "result type " << result
                         << " does not match the reduced shape";
  return success();
}

LogicalResult BroadcastOp::verify() {
  TileType src = getSource().getType(), dst = getResult().getType();
  if (src.getShape().size() != dst.getShape().size() ||
      src.getElementType() != dst.getElementType())
    return emitOpError() << "cannot broadcast " << src << " to " << dst
                         << " (ranks and element types must match)";
  for (auto [s, d] : llvm::zip(src.getShape(), dst.getShape()))
    if (s != d && s != 1)
      return emitOpError() << "cannot broadcast " << src << " to " << dst
                           << ": dimension " << s << " is neither " << d
                           << " nor 1";
  return success();
}

LogicalResult ReshapeOp::verify() {
  TileType src = getSource().getType(), dst = getResult().getType();
  if (src.getNumElements() != dst.getNumElements() ||
      src.getElementType() != dst.getElementType())
    return emitOpError() << "cannot reshape " << src << " to " << dst
                         << " (element counts and types must match)";
  // A reshape may pack rows narrower than a 32-byte block (its buffer is
  // dense either way), but only a reduction along the last dimension has a
  // lowering for them (GatherMask, Conversion/AscTileToAscendC/Reduce.cpp),
  // also after an element-wise cast for it (asctile-compute-bf16-in-f32
  // reduces bfloat16 in float): every other use is an error at that use.
  ArrayRef<int64_t> shape = dst.getShape();
  int64_t lastBytes = shape.back() * elementBytes(dst.getElementType());
  if (dst.getLocation() != TileLocation::UB || shape.size() < 2 ||
      shape.back() == 1 || lastBytes % 32 == 0)
    return success();
  const int64_t last = int64_t(shape.size()) - 1;
  auto reducesLast = [&](Operation *op) {
    auto reduce = dyn_cast<ReduceOp>(op);
    return reduce && llvm::is_contained(reduce.getDims(), last);
  };
  for (Operation *user : getResult().getUsers()) {
    if (reducesLast(user) ||
        (isa<CastOp>(user) && llvm::all_of(user->getUsers(), reducesLast)))
      continue;
    std::string tile;
    llvm::raw_string_ostream os(tile);
    os << "[";
    llvm::interleaveComma(shape, os);
    os << "] of " << dst.getElementType();
    return emitOpErrorOfKind(user, ErrorKind::Alignment)
           << "uses the UB tile " << tile
           << " made by a reshape, whose rows are " << lastBytes
           << " bytes, not a multiple of 32: such packed rows can only be "
              "reduced along the last dimension (reduce_sum/max/min/prod over "
              "axis -1); for anything else use a multiple of "
           << 32 / std::gcd<int64_t>(32, elementBytes(dst.getElementType()))
           << " elements in the last dimension";
  }
  return success();
}

/// The scalar type a get_value/set_value of `elem` uses: the element type, or
/// for an unsigned element a wider signless integer (arith has no unsigned
/// scalars: a uint8 scalar is carried zero-extended and stored by its low bits).
static bool isScalarOfElement(Type scalar, Type elem) {
  if (scalar == elem)
    return true;
  auto e = dyn_cast<IntegerType>(elem);
  auto s = dyn_cast<IntegerType>(scalar);
  return e && s && e.isUnsigned() && s.isSignless() && s.getWidth() > e.getWidth();
}

LogicalResult GetValueOp::verify() {
  auto tensor = getTensor().getType();
  if ((int64_t)getOffsets().size() != tensor.getRank())
    return emitOpError() << "expects " << tensor.getRank() << " offsets, got "
                         << getOffsets().size();
  if (!isScalarOfElement(getResult().getType(), tensor.getElementType()))
    return emitOpError() << "result type must be the element type "
                         << tensor.getElementType()
                         << " (or a wider signless integer for an unsigned one)";
  return success();
}

LogicalResult SetValueOp::verify() {
  auto tensor = getTensor().getType();
  if ((int64_t)getOffsets().size() != tensor.getRank())
    return emitOpError() << "expects " << tensor.getRank() << " offsets, got "
                         << getOffsets().size();
  if (!isScalarOfElement(getValue().getType(), tensor.getElementType()))
    return emitOpError() << "value type " << getValue().getType()
                         << " differs from the element type "
                         << tensor.getElementType();
  return success();
}

SmallVector<int64_t> TransposeOp::getPermutationOrDefault() {
  if (auto perm = getPermutationAttr())
    return SmallVector<int64_t>(perm.asArrayRef());
  return {1, 0};
}

LogicalResult TransposeOp::verify() {
  TileType src = getSource().getType(), dst = getResult().getType();
  SmallVector<int64_t> perm = getPermutationOrDefault();
  int64_t rank = src.getShape().size();
  if (!getPermutationAttr() && rank != 2)
    return emitOpError() << "needs a permutation for a rank-" << rank << " tile";
  if ((int64_t)perm.size() != rank || (int64_t)dst.getShape().size() != rank)
    return emitOpError() << "permutation " << llvm::ArrayRef(perm)
                         << " does not match the ranks of " << src << " and "
                         << dst;
  SmallVector<bool> seen(rank, false);
  for (int64_t p : perm) {
    if (p < 0 || p >= rank || seen[p])
      return emitOpError() << "[" << llvm::ArrayRef(perm)
                           << "] is not a permutation of 0.." << rank - 1;
    seen[p] = true;
  }
  for (int64_t i = 0; i < rank; ++i)
    if (dst.getShape()[i] != src.getShape()[perm[i]])
      return emitOpError() << "permuting " << src << " cannot give " << dst;
  if (src.getElementType() != dst.getElementType())
    return emitOpError() << "changes the element type";
  return verifyTileAlignment(*this, dst);
}

LogicalResult MaskOp::verify() {
  bool hasCount = (bool)getCount(), hasBits = (bool)getHigh();
  if (hasCount == hasBits)
    return emitOpError() << "needs exactly one of `count` and `bits`";
  if ((bool)getHigh() != (bool)getLow())
    return emitOpError() << "`bits` needs both halves";
  Type elem = getValue().getType().getElementType();
  if (!isFillScalarType(getOther().getType(), elem))
    return emitOpError() << "`other` is a " << getOther().getType()
                         << ", not the element type " << elem;
  if (hasBits) {
    auto lanes = getLanesAttr();
    if (!lanes || (lanes.getInt() != 64 && lanes.getInt() != 128))
      return emitOpError() << "a bit mask needs `lanes` = 64 (32-bit "
                              "elements) or 128 (16-bit elements)";
  } else if (getLanesAttr()) {
    return emitOpError() << "`lanes` only applies to bit masks";
  }
  return success();
}

LogicalResult ConcatOp::verify() {
  TileType result = getResult().getType();
  int64_t rank = result.getShape().size();
  int64_t dim = getDim();
  if (getInputs().empty())
    return emitOpError() << "needs at least one tile";
  if (dim < 0 || dim >= rank)
    return emitOpError() << "dimension " << dim << " is out of range for rank "
                         << rank;
  int64_t total = 0;
  for (Value v : getInputs()) {
    auto t = cast<TileType>(v.getType());
    if ((int64_t)t.getShape().size() != rank ||
        t.getElementType() != result.getElementType())
      return emitOpError() << "input " << t << " differs from the result "
                           << result << " in rank or element type";
    for (int64_t d = 0; d < rank; ++d)
      if (d != dim && t.getShape()[d] != result.getShape()[d])
        return emitOpError() << "input " << t << " differs from the result "
                             << result << " outside dimension " << dim;
    total += t.getShape()[dim];
  }
  if (total != result.getShape()[dim])
    return emitOpError() << "inputs add up to " << total << " along dimension "
                         << dim << ", the result has " << result.getShape()[dim];
  return success();
}

LogicalResult AtomicRMWOp::verify() {
  return verifyAccess(*this, getTensor().getType(), getValue().getType(),
                      getOffsets().size());
}

//===----------------------------------------------------------------------===//
// Cube unit
//===----------------------------------------------------------------------===//

/// Cube tiles are whole fractals: both dimensions multiples of 16.
static LogicalResult verifyFractalTile(Operation *op, TileType t, StringRef what) {
  if (t.getShape().size() != 2)
    return op->emitOpError() << what << " must be a 2-D tile, got " << t;
  if (t.getShape()[0] % 16 != 0 || t.getShape()[1] % 16 != 0)
    return emitOpErrorOfKind(op, ErrorKind::Alignment)
           << what << " " << t
           << " must have both dimensions multiples of 16 (whole 16x16 fractals)";
  return success();
}

static LogicalResult verifyCubeOperands(Operation *op, TileType a, TileType b,
                                        TileType c) {
  if (a.getLocation() != TileLocation::L0A || b.getLocation() != TileLocation::L0B)
    return op->emitOpError() << "expects an L0A left operand and an L0B right "
                                "operand, got "
                             << stringifyTileLocation(a.getLocation()) << " and "
                             << stringifyTileLocation(b.getLocation());
  if (c.getLocation() != TileLocation::L0C)
    return op->emitOpError() << "result must be an L0C tile";
  if (failed(verifyFractalTile(op, a, "left operand")) ||
      failed(verifyFractalTile(op, b, "right operand")) ||
      failed(verifyFractalTile(op, c, "result")))
    return failure();
  if (a.getElementType() != b.getElementType())
    return op->emitOpError() << "operand element types differ: "
                             << a.getElementType() << " vs " << b.getElementType();
  Type in = a.getElementType();
  Type out = c.getElementType();
  bool floatIn = in.isF16() || in.isBF16() || in.isF32();
  bool intIn = in.isInteger(8);
  if (!floatIn && !intIn)
    return op->emitOpError() << "the cube unit multiplies f16, bf16, f32 or i8, not " << in;
  if ((floatIn && !out.isF32()) || (intIn && !out.isInteger(32)))
    return op->emitOpError() << "accumulates in " << (floatIn ? "f32" : "i32")
                             << ", not " << out;
  int64_t m = a.getShape()[0], k = a.getShape()[1];
  if (b.getShape()[0] != k || c.getShape()[0] != m || c.getShape()[1] != b.getShape()[1])
    return op->emitOpError() << "shapes do not chain: " << a << " x " << b
                             << " -> " << c;
  return success();
}

/// A matmul bias: one row of n f32 (or f16/bf16, widened on the way to the
/// bias table) values in BT.
static LogicalResult verifyBiasRow(Operation *op, TileType t, int64_t n) {
  Type e = t.getElementType();
  if (t.getLocation() != TileLocation::BT || !(e.isF32() || e.isF16() || e.isBF16()) ||
      t.getNumElements() != n || t.getShape().back() != n)
    return op->emitOpError() << "bias must be a BT tile of " << n
                             << " f32/f16/bf16 elements (one row), got " << t;
  return success();
}

LogicalResult MoveOp::verify() {
  TileType src = getSource().getType(), dst = getResult().getType();
  if (src.getElementType() != dst.getElementType())
    return emitOpError() << "changes the element type (" << src.getElementType()
                         << " -> " << dst.getElementType() << ")";
  if (src.getShape().size() != dst.getShape().size() ||
      (int64_t)getOffsets().size() != (int64_t)src.getShape().size())
    return emitOpError() << "ranks of source, result and offsets differ";
  // transpose (L1 -> L0A/L0B): the source sub-tile is the result transposed.
  bool transpose = getTranspose();
  bool cubeLoad = src.getLocation() == TileLocation::L1 &&
                  (dst.getLocation() == TileLocation::L0A ||
                   dst.getLocation() == TileLocation::L0B);
  bool biasLoad = src.getLocation() == TileLocation::L1 &&
                  dst.getLocation() == TileLocation::BT;
  bool toL1 = src.getLocation() == TileLocation::UB && dst.getLocation() == TileLocation::L1;
  if ((transpose && !cubeLoad) || (!getDynamic().empty() && !cubeLoad && !biasLoad && !toL1))
    return emitOpError() << "transposes are for L1 -> L0A/L0B moves, runtime "
                            "offsets for L1 -> L0A/L0B/BT and UB -> L1 moves";
  if (transpose && dst.getShape().size() != 2)
    return emitOpError() << "transposes 2-D tiles only";
  if (!getDynamic().empty() && getDynamic().size() != src.getShape().size())
    return emitOpError() << "expects one runtime offset per dimension, got "
                         << getDynamic().size();
  // split: the UB side holds half the rows the move covers (L0C -> UB: of
  // the accumulator's rows from the offset on, which may be all of them or a
  // band; UB -> L1: of the whole UB tile).
  bool fromL0C = src.getLocation() == TileLocation::L0C && dst.getLocation() == TileLocation::UB;
  if (getSplit() && (!(fromL0C || toL1) || src.getShape().size() != 2 ||
                     (toL1 && (getOffsets()[0] != 0 || dst.getShape()[0] != 2 * src.getShape()[0]))))
    return emitOpError() << "split moves L0C -> UB or UB -> L1 with half the rows on the UB side";
  int64_t rowScale = getSplit() && toL1 ? 2 : 1; // the source's rows, as the result counts them
  int64_t movedScale = getSplit() && fromL0C ? 2 : 1; // the rows moved, as the result counts them
  for (size_t d = 0; d < src.getShape().size(); ++d)
    if (getOffsets()[d] < 0 ||
        getOffsets()[d] + dst.getShape()[transpose ? 1 - d : d] * (d == 0 ? movedScale : 1) >
            src.getShape()[d] * (d == 0 ? rowScale : 1))
      return emitOpError() << "sub-tile " << dst << " at offsets ["
                           << llvm::make_range(getOffsets().begin(), getOffsets().end())
                           << "] is outside " << src;
  return verifyTileAlignment(*this, dst);
}

LogicalResult AccumulatorOp::verify() {
  TileType t = getResult().getType();
  if (t.getLocation() != TileLocation::L0C)
    return emitOpError() << "accumulators live in L0C, not "
                         << stringifyTileLocation(t.getLocation());
  if (!t.getElementType().isF32() && !t.getElementType().isInteger(32))
    return emitOpError() << "accumulators are f32 (or i32), not " << t.getElementType();
  if (Value bias = getBias())
    if (failed(verifyBiasRow(*this, cast<TileType>(bias.getType()), t.getShape()[1])))
      return failure();
  return verifyFractalTile(*this, t, "accumulator");
}

LogicalResult MatmulOp::verify() {
  if (failed(verifyCubeOperands(*this, getLhs().getType(), getRhs().getType(),
                                getResult().getType())))
    return failure();
  if (Value bias = getBias())
    return verifyBiasRow(*this, cast<TileType>(bias.getType()),
                         getResult().getType().getShape()[1]);
  return success();
}

LogicalResult MatmulAccOp::verify() {
  if (getAcc().getType() != getResult().getType())
    return emitOpError() << "accumulator and result types differ";
  return verifyCubeOperands(*this, getLhs().getType(), getRhs().getType(),
                            getResult().getType());
}

LogicalResult InlineOp::verify() {
  if (auto error = placeholderError(getCode(), getArgs().size(), "args"))
    return emitOpError() << *error;
  if (getBeforeFunction())
    for (Value arg : getArgs())
      if (!arg.getDefiningOp<arith::ConstantOp>())
        return emitOpError() << "before the kernel function takes constant args only: "
                                "the code sits outside the function, where the "
                                "kernel's values do not exist";
  return success();
}

LogicalResult InlineVFOp::verify() {
  TileType result = getResult().getType();
  if (result.getLocation() != TileLocation::UB)
    return emitOpError() << "makes a UB tile, not a "
                         << stringifyTileLocation(result.getLocation()) << " one";
  for (Value input : getInputs())
    if (cast<TileType>(input.getType()).getLocation() != TileLocation::UB)
      return emitOpError() << "takes UB tiles, got one in "
                           << stringifyTileLocation(cast<TileType>(input.getType()).getLocation());
  if (auto error = placeholderError(getCode(), getInputs().size() + 1,
                                    "tiles ($0 the result, then the inputs)"))
    return emitOpError() << *error;
  return verifyTileAlignment(*this, result);
}

} // namespace asc2::asctile
