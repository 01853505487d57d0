//===- AscendCDialect.cpp - ascendc types, ops and verifiers ---------------===//
#include "asc2/Dialect/AscendC/IR/AscendC.h"
#include "asc2/Arch/NdDma.h"
#include "asc2/Support/InlineCode.h"

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

/// `rows %r stride %s` of a data copy: the format's optional group only
/// requires its first operand, so "rows %r stride" parses without a stride.
static LogicalResult verifyRowCopy(Operation *op, Value rows, Value stride) {
  if ((bool)rows != (bool)stride)
    return op->emitOpError() << "a row copy needs both `rows` and `stride`";
  return success();
}

LogicalResult DataCopyInOp::verify() {
  if (failed(verifyRowCopy(*this, getRows(), getRowStride())))
    return failure();
  // Into L1 the rows become NZ fractals (Nd2Nz), which needs the row count
  // and stride; a bias row kept as it is says `nd`.
  LocalType dst = getDst().getType();
  if (dst.getSpaceName() == "L1" && !(*this)->hasAttr("nd")) {
    if (!getRows())
      return emitOpError() << "a copy into L1 needs `rows` and `stride` (NZ "
                              "fractals), or `nd` for a plain row";
    if (dst.getShape().size() != 2)
      return emitOpError() << "a row copy into L1 needs a 2-D buffer";
  }
  if (getLocalOffset() && dst.getSpaceName() == "L1")
    return emitOpError() << "`at` (a local offset) is for copies into UB";
  if (!copyableElements(getSrc().getType().getElementType(),
                        getDst().getType().getElementType()))
    return emitOpError() << "element types of source and destination differ";
  if (auto pad = getPadValueAttr())
    if (pad.getType() != getDst().getType().getElementType())
      return emitOpError() << "pad_value type differs from the element type";
  return success();
}

LogicalResult DataCopyNdOp::verify() {
  ArrayRef<int64_t> extents = getExtents(), src = getSrcStrides(), dst = getDstStrides();
  int64_t loops = extents.size();
  if (loops < 1 || loops > nd_dma::kMaxLoops)
    return emitOpError() << "takes 1 to " << nd_dma::kMaxLoops << " loops, got " << loops;
  if ((int64_t)getSizes().size() != loops || (int64_t)src.size() != loops ||
      (int64_t)dst.size() != loops)
    return emitOpError() << "needs one size, extent, source and destination stride per loop";
  LocalType buffer = getDst().getType();
  if (buffer.getSpaceName() != "UB")
    return emitOpError() << "copies into UB only";
  int64_t last = 0; // the last destination element written
  for (int64_t k = 0; k < loops; ++k) {
    if (extents[k] < 1 || extents[k] >= nd_dma::kSizeLimit)
      return emitOpError() << "extent " << extents[k] << " of loop " << k << " outside [1, "
                           << nd_dma::kSizeLimit << ")";
    if (dst[k] < 0 || dst[k] >= nd_dma::kDstStrideLimit || src[k] < 0 || src[k] >= nd_dma::kSrcStrideLimit)
      return emitOpError() << "strides of loop " << k << " outside the DMA's fields (source < "
                           << nd_dma::kSrcStrideLimit << ", destination < " << nd_dma::kDstStrideLimit << ")";
    last += (extents[k] - 1) * dst[k];
  }
  if (last >= buffer.getNumElements())
    return emitOpError() << "writes element " << last << " of a buffer of "
                         << buffer.getNumElements();
  if (getSrc().getType().getElementType() != buffer.getElementType())
    return emitOpError() << "element types of source and destination differ";
  if (auto pad = getPadValueAttr())
    if (pad.getType() != buffer.getElementType())
      return emitOpError() << "pad_value type differs from the element type";
  return success();
}

LogicalResult DataCopyOutOp::verify() {
  if (failed(verifyRowCopy(*this, getRows(), getRowStride())))
    return failure();
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

LogicalResult LoadData3DV2Op::verify() {
  LocalType src = getSrc().getType(), dst = getDst().getType();
  if (src.getSpaceName() != "L1" || (dst.getSpaceName() != "L0A" && dst.getSpaceName() != "L0B"))
    return emitOpError() << "loads from L1 into L0A or L0B";
  if (src.getShape().size() != 2 || dst.getShape().size() != 2)
    return emitOpError() << "moves 2-D tiles";
  const int64_t bytes = src.getSizeInBytes() / std::max<int64_t>(src.getNumElements(), 1);
  const bool toL0b = dst.getSpaceName() == "L0B";
  // LoadData_3D.md, data types: L1 -> L0B carries no b8/b4.
  if (bytes != 2 && bytes != 4 && !(bytes == 1 && !toL0b))
    return emitOpError() << "moves 16- or 32-bit elements (8-bit only into L0A)";
  if (!getStart().empty() && getStart().size() != 2)
    return emitOpError() << "expects a runtime start of two offsets (m, k)";
  int64_t l1H = getL1H(), l1W = getL1W(), c = getChannelSize();
  int64_t mExt = getMExtension(), kExt = getKExtension(), m0 = getMStartPt(), k0 = getKStartPt();
  if (l1H < 1 || l1H > 32767 || l1W < 1 || l1W > 32767)
    return emitOpError() << "l1H and l1W must be in [1, 32767]";
  if (c < 1 || c > 65535 || mExt < 1 || mExt > 65535 || kExt < 1 || kExt > 65535)
    return emitOpError() << "channelSize, mExtension and kExtension must be in [1, 65535]";
  if (m0 < 0 || m0 > 32767 || k0 < 0 || k0 > 65535 || (k0 * bytes) % 32)
    return emitOpError() << "mStartPt must be in [0, 32767] and kStartPt a multiple of "
                         << 32 / bytes << " in [0, 65535]";
  if (l1H * l1W != src.getShape()[0] || c != src.getShape()[1])
    return emitOpError() << "feature map " << l1H << " x " << l1W << " x " << c
                         << " does not describe the " << src.getShape()[0] << " x "
                         << src.getShape()[1] << " L1 tile (l1H * l1W rows, channelSize columns)";
  if (m0 + mExt > l1H * l1W || k0 + kExt > c)
    return emitOpError() << "the " << mExt << " x " << kExt << " window at (" << m0 << ", " << k0
                         << ") leaves the L1 tile";
  if (toL0b && getEnTranspose())
    return emitOpError() << "the L1 -> L0B path transposes on its own: enTranspose has no effect "
                            "there (LoadData_3D.md)";
  bool swap = getEnTranspose();
  if (dst.getShape()[0] != (swap ? kExt : mExt) || dst.getShape()[1] != (swap ? mExt : kExt))
    return emitOpError() << "destination must be " << (swap ? kExt : mExt) << " x "
                         << (swap ? mExt : kExt) << " (the window" << (swap ? ", transposed" : "")
                         << ")";
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
    if (bt.getSpaceName() != "BT" || bt.getNumElements() < c.getShape()[1])
      return emitOpError() << "bias must be at least " << c.getShape()[1]
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

LogicalResult FixpipeUbOp::verify() {
  LocalType dst = getDst().getType(), src = getSrc().getType();
  if (src.getSpaceName() != "L0C" || dst.getSpaceName() != "UB")
    return emitOpError() << "moves an L0C tile to UB";
  if (src.getShape().size() != 2 || dst.getShape().size() != 2)
    return emitOpError() << "moves 2-D tiles";
  // The moved rows: from `row` (a fractal row boundary) on, as many as dst
  // holds, twice that with dualDstCtl = 1 (M in halves, one per vector core).
  int64_t rows = getMovedRows(), first = getRow();
  if (first < 0 || first % 16)
    return emitOpError() << "starts at row " << first
                         << "; a band of L0C rows starts on a 16-row fractal boundary";
  if (first + rows > src.getShape()[0] || dst.getShape()[1] != src.getShape()[1])
    return emitOpError() << "writes " << (getDual() ? "half of " : "") << rows
                         << " rows from row " << first << " of the L0C tile " << src
                         << "; UB buffer shape does not match";
  // Fixpipe L0C -> UB data types (Fixpipe（L0C到UB数据搬运）.md) without the
  // quantisation modes: f32 -> f32/f16/bf16 (cast in the fixpipe), s32 -> s32.
  Type in = src.getElementType(), out = dst.getElementType();
  bool ok = in.isF32() ? (out.isF32() || out.isF16() || out.isBF16())
                       : in.isInteger(32) && out.isInteger(32);
  if (!ok)
    return emitOpError() << "converts " << in << " to " << out
                         << "; the fixpipe converts f32 to f32/f16/bf16 or keeps i32";
  return success();
}

LogicalResult CopyUbToL1Op::verify() {
  LocalType dst = getDst().getType(), src = getSrc().getType();
  if (src.getSpaceName() != "UB" || dst.getSpaceName() != "L1")
    return emitOpError() << "copies from UB to L1";
  if (src.getShape().size() != dst.getShape().size() || dst.getShape().size() > 2)
    return emitOpError() << "copies a 1-D row or a 2-D tile (source and destination of one rank)";
  int64_t bytes = dst.getSizeInBytes() / std::max<int64_t>(dst.getNumElements(), 1);
  // Bursts of 32-byte blocks (DataCopyParams): whole blocks on both sides.
  if (dst.getShape().back() * bytes % 32 || src.getShape().back() * bytes % 32)
    return emitOpError() << "copies whole 32-byte blocks: rows of " << dst.getShape().back()
                         << " (source " << src.getShape().back() << ") elements are not";
  if (getRow() && (dst.getShape().size() != 2 || src.getShape()[0] > dst.getShape()[0]))
    return emitOpError() << "`at` a row copies all of a 2-D source's rows into a taller tile";
  // blockCount of DataCopyParams is at most 4095 (one burst per row).
  if (dst.getShape().size() == 2 && getCopiedRows() > 4095)
    return emitOpError() << "copies " << getCopiedRows() << " rows; a DataCopy moves at most 4095";
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
  int64_t count = getValueCount();
  if (count < 0 || count > getDst().getType().getNumElements())
    return emitOpError() << "copies " << count << " values into a bias table buffer of "
                         << getDst().getType().getNumElements();
  if (getSrc().getType().getNumElements() < count)
    return emitOpError() << "copies a row shorter than its bias table buffer";
  return success();
}

LogicalResult FixpipeOp::verify() {
  if (getSrc().getType().getSpaceName() != "L0C")
    return emitOpError() << "reads L0C, not " << getSrc().getType().getSpaceName();
  return success();
}

LogicalResult ErfOp::verify() {
  LocalType d = getDst().getType(), s = getSrc().getType(), t = getTmp().getType();
  Type elem = d.getElementType();
  if (elem != s.getElementType())
    return emitOpError() << "element types of source and destination differ";
  if (!elem.isF16() && !elem.isF32())
    return emitOpError() << "takes half or float elements (the Erf API's types), not " << elem;
  if (!t.getElementType().isUnsignedInteger(8))
    return emitOpError() << "tmp is the uint8 scratch buffer (LocalTensor<uint8_t>), not " << t;
  int64_t need = tmpBytes(elem.getIntOrFloatBitWidth() / 8);
  if (t.getNumElements() < need)
    return emitOpError() << "tmp holds " << t.getNumElements() << " bytes; the API needs " << need;
  if (!getBits().empty())
    return emitOpError() << "Erf has no lane-mask form: compute it whole and copy the masked lanes";
  if (getDst() == getSrc())
    return emitOpError() << "Erf may not write its source (dst and src must not overlap)";
  return success();
}

LogicalResult InlineOp::verify() {
  if (auto error = placeholderError(getCode(), getArgs().size(), "args"))
    return emitOpError() << *error;
  return success();
}

LogicalResult InlineVFOp::verify() {
  for (Value v : getOperands())
    if (cast<LocalType>(v.getType()).getSpaceName() != "UB")
      return emitOpError() << "takes and makes UB buffers, got one in "
                           << cast<LocalType>(v.getType()).getSpaceName();
  if (auto error = placeholderError(getCode(), getNumOperands(),
                                    "buffers ($0 dst, then the inputs)"))
    return emitOpError() << *error;
  return success();
}

} // namespace asc2::ascendc
