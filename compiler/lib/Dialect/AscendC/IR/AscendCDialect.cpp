//===- AscendCDialect.cpp - ascendc types, ops and verifiers ---------------===//
#include "asc2/Dialect/AscendC/IR/AscendC.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;

#include "asc2/Dialect/AscendC/IR/AscendCDialect.cpp.inc"
#include "asc2/Dialect/AscendC/IR/AscendCEnums.cpp.inc"
#include "asc2/Dialect/AscendC/IR/AscendCInterfaces.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "asc2/Dialect/AscendC/IR/AscendCTypes.cpp.inc"

// custom<PipeName>: a pipe attribute written as its name (MTE2, V, ..., ALL).
static ParseResult parsePipeName(OpAsmParser &parser, IntegerAttr &attr) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef name;
  if (parser.parseKeyword(&name))
    return failure();
  std::optional<asc2::Pipe> pipe = asc2::parsePipe({name.data(), name.size()});
  if (!pipe)
    return parser.emitError(loc) << "unknown pipe '" << name << "'";
  attr = parser.getBuilder().getI32IntegerAttr(static_cast<int32_t>(*pipe));
  return success();
}

static void printPipeName(OpAsmPrinter &printer, Operation *, IntegerAttr attr) {
  printer << asc2::ascendc::stringifyPipe(
      static_cast<asc2::Pipe>(attr.getValue().getZExtValue()));
}

#define GET_OP_CLASSES
#include "asc2/Dialect/AscendC/IR/AscendCOps.cpp.inc"

namespace asc2::ascendc {

void AscendCDialect::initialize() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "asc2/Dialect/AscendC/IR/AscendCTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "asc2/Dialect/AscendC/IR/AscendCOps.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

// !ascendc.local<256xf32, VECIN>
Type LocalType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type elementType;
  StringRef posName;
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/false) ||
      parser.parseType(elementType) || parser.parseComma() ||
      parser.parseKeyword(&posName) || parser.parseGreater())
    return {};
  std::optional<Position> pos = symbolizePosition(posName);
  if (!pos) {
    parser.emitError(parser.getCurrentLocation(),
                     "unknown position '" + posName + "'");
    return {};
  }
  return LocalType::get(parser.getContext(), shape, elementType, *pos);
}

void LocalType::print(AsmPrinter &printer) const {
  printer << "<";
  printer.printDimensionList(getShape());
  printer << "x" << getElementType() << ", "
          << stringifyPosition(getPosition()) << ">";
}

int64_t LocalType::getNumElements() const {
  int64_t n = 1;
  for (int64_t d : getShape())
    n *= d;
  return n;
}

int64_t LocalType::getSizeInBytes() const {
  unsigned bits = getElementType().getIntOrFloatBitWidth();
  // An i1 buffer is a bit mask (Compare's output, Select's selMask): one bit
  // per element, the uint8_t bytes Ascend C's LocalTensor<uint8_t> holds.
  if (bits == 1)
    return (getNumElements() + 7) / 8;
  return getNumElements() * ((bits + 7) / 8);
}

StringRef LocalType::getSpaceName() const {
  switch (getPosition()) {
  case Position::VECIN:
  case Position::VECOUT:
  case Position::VECCALC:
    return "UB";
  case Position::A1:
  case Position::B1:
    return "L1";
  case Position::A2:
    return "L0A";
  case Position::B2:
    return "L0B";
  case Position::CO1:
    return "L0C";
  case Position::CO2:
    return "UB";
  case Position::C2:
    return "BT";
  }
  return "UB";
}

//===----------------------------------------------------------------------===//
// Ops
//===----------------------------------------------------------------------===//

bool sameBytes(Type a, Type b) {
  auto la = dyn_cast<LocalType>(a), lb = dyn_cast<LocalType>(b);
  return la && lb && la.getElementType() == lb.getElementType() &&
         la.getNumElements() == lb.getNumElements();
}

LogicalResult AllocLocalOp::verify() {
  if (auto offset = getOffsetAttr())
    if (offset.getInt() < 0)
      return emitOpError() << "offset must be non-negative";
  return success();
}

/// Whether a GM tensor of `gm` elements moves to or from a local buffer of
/// `local` elements: the same type, or bool in GM (one byte each) and uint8
/// locally (a bool buffer is a bit mask; the bytes are converted in UB).
static bool copyableElements(Type gm, Type local) {
  return gm == local || (gm.isInteger(1) && local.isUnsignedInteger(8));
}

LogicalResult DataCopyInOp::verify() {
  if (!copyableElements(getSrc().getType().getElementType(),
                        getDst().getType().getElementType()))
    return emitOpError() << "element types of source and destination differ";
  if (auto pad = getPadValueAttr())
    if (pad.getType() != getDst().getType().getElementType())
      return emitOpError() << "pad_value type differs from the element type";
  return success();
}

LogicalResult DataCopyOutOp::verify() {
  if (!copyableElements(getDst().getType().getElementType(),
                        getSrc().getType().getElementType()))
    return emitOpError() << "element types of source and destination differ";
  return success();
}

static LogicalResult verifyFlag(Operation *op, Pipe src, Pipe dst,
                                int64_t event) {
  if (src == Pipe::ALL || dst == Pipe::ALL)
    return op->emitOpError() << "flags connect two pipes; use pipe_barrier ALL";
  if (src == dst && !op->hasAttr("cross_core"))
    return op->emitOpError()
           << "a flag from a pipe to itself is not allowed; use pipe_barrier";
  if (event < 0 || event > 7)
    return op->emitOpError() << "event id " << event << " is outside 0..7";
  return success();
}

LogicalResult SetFlagOp::verify() {
  return verifyFlag(*this, getSrc(), getDst(), getEvent());
}

LogicalResult WaitFlagOp::verify() {
  return verifyFlag(*this, getSrc(), getDst(), getEvent());
}

LogicalResult PipeBarrierOp::verify() {
  if (getPipe() == Pipe::S)
    return emitOpError() << "PipeBarrier is not supported for PIPE_S (the "
                            "scalar pipe is ordered by hardware)";
  return success();
}

/// Mutex ids a kernel may choose itself: 0..27 (Ascend C Mutex, "MutexID
/// ... user-defined range 0-27").
static LogicalResult verifyBufId(Operation *op, Pipe pipe, int64_t id) {
  if (pipe == Pipe::ALL)
    return op->emitOpError() << "a buffer id is taken on one pipe, not ALL";
  if (id < 0 || id > 27)
    return op->emitOpError() << "buffer id " << id << " is outside 0..27";
  return success();
}

LogicalResult GetBufOp::verify() { return verifyBufId(*this, getPipe(), getId()); }

LogicalResult RlsBufOp::verify() { return verifyBufId(*this, getPipe(), getId()); }

//===----------------------------------------------------------------------===//
// Cube unit
//===----------------------------------------------------------------------===//

LogicalResult LoadDataOp::verify() {
  LocalType src = getSrc().getType(), dst = getDst().getType();
  if (src.getSpaceName() != "L1")
    return emitOpError() << "loads from L1, not " << src.getSpaceName();
  if (dst.getSpaceName() != "L0A" && dst.getSpaceName() != "L0B")
    return emitOpError() << "loads into L0A or L0B, not " << dst.getSpaceName();
  if (src.getShape().size() != 2 || dst.getShape().size() != 2)
    return emitOpError() << "expects 2-D buffers";
  int64_t row = getRow(), col = getCol();
  // transpose: the source sub-tile is dst transposed (LoadData's transpose).
  bool transpose = getTranspose();
  if (!getOrigin().empty() && getOrigin().size() != 2)
    return emitOpError() << "expects a runtime origin of two offsets (row, col)";
  int64_t rows = dst.getShape()[transpose ? 1 : 0];
  int64_t cols = dst.getShape()[transpose ? 0 : 1];
  if (row % 16 || col % 16 || row < 0 || col < 0 ||
      row + rows > src.getShape()[0] || col + cols > src.getShape()[1])
    return emitOpError() << "sub-tile at (" << row << ", " << col
                         << ") is not a whole-fractal part of the source";
  return success();
}

LogicalResult LoadDataWithTransposeOp::verify() {
  LocalType src = getSrc().getType(), dst = getDst().getType();
  if (src.getSpaceName() != "L1" || (dst.getSpaceName() != "L0A" && dst.getSpaceName() != "L0B"))
    return emitOpError() << "loads from L1 into L0A or L0B";
  if (src.getSizeInBytes() != src.getNumElements() * 4)
    return emitOpError() << "transposes 32-bit elements (16x8 fractals paired into 16x16 squares)";
  for (int64_t v : {int64_t(getStartIndex()), int64_t(getSrcStride()), int64_t(getDstGap()),
                    int64_t(getDstFracGap())})
    if (v < 0 || v > 65535)
      return emitOpError() << "startIndex, srcStride, dstGap and dstFracGap are uint16_t";
  if (int64_t(getRepeatTimes()) < 1 || int64_t(getRepeatTimes()) > 255)
    return emitOpError() << "repeatTimes must be in [1, 255]";
  for (int64_t v : {int64_t(getSrcOffset()), int64_t(getDstOffset()), int64_t(getSrcLoopStride()),
                    int64_t(getDstLoopStride())})
    if (v < 0)
      return emitOpError() << "expects non-negative offsets and strides";
  if (int64_t(getLoops()) < 1)
    return emitOpError() << "expects at least one trip";
  // Alignment: L0B starts on 512 bytes, L1 on 32 bytes (LoadDataWithTranspose.md).
  if ((getDstOffset() * 4) % 512 || (getDstLoopStride() * 4) % 512 || (getSrcOffset() * 4) % 32 ||
      (getSrcLoopStride() * 4) % 32)
    return emitOpError() << "destination offsets must be 512-byte and source offsets 32-byte aligned";
  // The last trip's extents (256 elements a square, 128 a fractal).
  int64_t last = int64_t(getLoops()) - 1, r = int64_t(getRepeatTimes()) - 1;
  int64_t srcEnd = int64_t(getSrcOffset()) + last * int64_t(getSrcLoopStride()) +
                   (int64_t(getStartIndex()) + r * int64_t(getSrcStride()) + 1) * 256;
  int64_t dstEnd = int64_t(getDstOffset()) + last * int64_t(getDstLoopStride()) +
                   (r * (int64_t(getDstGap()) + 1) + int64_t(getDstFracGap()) + 2) * 128;
  if (srcEnd > src.getNumElements() || dstEnd > dst.getNumElements())
    return emitOpError() << "reads or writes past its buffers (source elements up to " << srcEnd
                         << " of " << src.getNumElements() << ", destination up to " << dstEnd
                         << " of " << dst.getNumElements() << ")";
  return success();
}

LogicalResult MmadOp::verify() {
  LocalType c = getDst().getType(), a = getLhs().getType(), b = getRhs().getType();
  if (a.getSpaceName() != "L0A" || b.getSpaceName() != "L0B" || c.getSpaceName() != "L0C")
    return emitOpError() << "expects L0C = L0A x L0B, got " << c.getSpaceName()
                         << " = " << a.getSpaceName() << " x " << b.getSpaceName();
  if (a.getShape().size() != 2 || b.getShape().size() != 2 || c.getShape().size() != 2 ||
      a.getShape()[1] != b.getShape()[0] || c.getShape()[0] != a.getShape()[0] ||
      c.getShape()[1] != b.getShape()[1])
    return emitOpError() << "shapes do not chain (m x k, k x n -> m x n)";
  if (Value bias = getBias()) {
    auto bt = cast<LocalType>(bias.getType());
    if (bt.getSpaceName() != "BT" || bt.getNumElements() != c.getShape()[1])
      return emitOpError() << "bias must be " << c.getShape()[1]
                           << " elements in the bias table (BT)";
  }
  return success();
}

LogicalResult FixpipeL1Op::verify() {
  LocalType dst = getDst().getType(), src = getSrc().getType();
  if (src.getSpaceName() != "L0C" || dst.getSpaceName() != "L1")
    return emitOpError() << "moves an L0C tile to L1";
  if (src.getShape() != dst.getShape())
    return emitOpError() << "changes the tile shape";
  return success();
}

LogicalResult CopyBiasOp::verify() {
  if (getSrc().getType().getSpaceName() != "L1" || getDst().getType().getSpaceName() != "BT")
    return emitOpError() << "copies a bias row from L1 to the bias table (BT)";
  if (!getDst().getType().getElementType().isF32())
    return emitOpError() << "the bias table holds f32";
  Type src = getSrc().getType().getElementType();
  if (!src.isF32() && !src.isF16() && !src.isBF16())
    return emitOpError() << "copies an f32, f16 or bf16 bias row, not " << src;
  if (getSrc().getType().getNumElements() < getDst().getType().getNumElements())
    return emitOpError() << "copies a row shorter than its bias table buffer";
  return success();
}

LogicalResult FixpipeOp::verify() {
  if (getSrc().getType().getSpaceName() != "L0C")
    return emitOpError() << "reads L0C, not " << getSrc().getType().getSpaceName();
  return success();
}

} // namespace asc2::ascendc
