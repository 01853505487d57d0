//===- AscTileDialect.cpp - asctile types, ops and verifiers ---------------===//
#include "asc2/Dialect/AscTile/IR/AscTile.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

#include <numeric>

using namespace mlir;

#include "asc2/Dialect/AscTile/IR/AscTileDialect.cpp.inc"
#include "asc2/Dialect/AscTile/IR/AscTileEnums.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "asc2/Dialect/AscTile/IR/AscTileTypes.cpp.inc"

#define GET_OP_CLASSES
#include "asc2/Dialect/AscTile/IR/AscTileOps.cpp.inc"

namespace asc2::asctile {

void AscTileDialect::initialize() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "asc2/Dialect/AscTile/IR/AscTileTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "asc2/Dialect/AscTile/IR/AscTileOps.cpp.inc"
      >();
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

/// UB tiles must have their last dimension aligned to 32 bytes: the vector
/// unit and DataCopy work in 32-byte blocks.
static LogicalResult verifyTileAlignment(Operation *op, TileType tile) {
  if (tile.getLocation() != TileLocation::UB)
    return success();
  int64_t lastBytes = tile.getShape().back() * elementBytes(tile.getElementType());
  if (lastBytes % 32 != 0)
    return op->emitOpError()
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

LogicalResult LoadOp::verify() {
  if (failed(verifyAccess(*this, getTensor().getType(), getResult().getType(),
                          getOffsets().size())))
    return failure();
  if (auto pad = getPadValueAttr())
    if (pad.getType() != getResult().getType().getElementType())
      return emitOpError() << "pad_value type " << pad.getType()
                           << " differs from the element type";
  return success();
}

LogicalResult StoreOp::verify() {
  return verifyAccess(*this, getTensor().getType(), getValue().getType(),
                      getOffsets().size());
}

LogicalResult SplatOp::verify() {
  if (getValue().getType() != getResult().getType().getElementType())
    return emitOpError() << "scalar type " << getValue().getType()
                         << " differs from the tile element type "
                         << getResult().getType().getElementType();
  return verifyTileAlignment(*this, getResult().getType());
}

} // namespace asc2::asctile
