//===- ReduceOps.cpp - verifiers of the repeat-level reduction calls -------===//
//
// whole_reduce and binary_repeat carry the operands of the real calls; the
// verifiers hold them to the API's field widths and to the buffers they
// address (the shapes are static, so an access past a buffer is an IR bug).
//
//===----------------------------------------------------------------------===//
#include "asc2/Arch/VectorRepeat.h"
#include "asc2/Dialect/AscendC/IR/AscendC.h"

using namespace mlir;

namespace asc2::ascendc {

namespace {

int64_t elemBytes(LocalType t) {
  return t.getElementType().getIntOrFloatBitWidth() / 8;
}

/// `what` of `op`: 0 <= value <= max.
LogicalResult inRange(Operation *op, StringRef what, int64_t value,
                      int64_t min, int64_t max) {
  if (value < min || value > max)
    return op->emitOpError() << what << " " << value << " is outside [" << min
                             << ", " << max << "]";
  return success();
}

/// The elements [offset, offset + span) lie in buffer `t`.
LogicalResult inBuffer(Operation *op, StringRef operand, LocalType t,
                       int64_t offsetElems, int64_t spanBytes) {
  int64_t w = elemBytes(t);
  if (offsetElems < 0 || offsetElems * w + spanBytes > t.getNumElements() * w)
    return op->emitOpError()
           << "reads or writes " << operand << " past its "
           << t.getNumElements() << " elements (offset " << offsetElems
           << ", " << spanBytes << " bytes)";
  if ((offsetElems * w) % kBlockBytes != 0)
    return op->emitOpError() << operand << " offset " << offsetElems
                             << " is not 32-byte aligned";
  return success();
}

} // namespace

int64_t WholeReduceOp::resultElements() {
  if (getKind() == ReduceKind::SUM)
    return 1;
  switch (getOrder()) {
  case ReduceOrder::ORDER_ONLY_VALUE:
    return 1;
  case ReduceOrder::ORDER_ONLY_INDEX: // a 32-bit index
    return 4 / elemBytes(getDst().getType());
  default:
    return 2;
  }
}

LogicalResult WholeReduceOp::verify() {
  if (getKind() == ReduceKind::PROD)
    return emitOpError() << "has no PROD form (WholeReduceSum, Max, Min only)";
  LocalType src = getSrc().getType(), dst = getDst().getType();
  Type elem = src.getElementType();
  if (!elem.isF16() && !elem.isF32())
    return emitOpError() << "reduces half or float, not " << elem;
  int64_t w = elemBytes(src);
  if (failed(inRange(*this, "mask", getMask(), 1, repeatLanes(w))) ||
      failed(inRange(*this, "repeatTime", getRepeat(), 0, kMaxRepeat)) ||
      failed(inRange(*this, "dstRepStride", getDstRepStride(), 0, kMaxReduceStride)) ||
      failed(inRange(*this, "srcBlkStride", getSrcBlkStride(), 0, kMaxReduceStride)) ||
      failed(inRange(*this, "srcRepStride", getSrcRepStride(), 0, kMaxReduceStride)))
    return failure();
  int64_t srcSpan = repeatSpanBytes(w, getMask(), getRepeat(),
                                    getSrcBlkStride(), getSrcRepStride());
  int64_t results = resultElements();
  int64_t dstSpan = getRepeat() == 0
                        ? 0
                        : ((getRepeat() - 1) * getDstRepStride() + 1) * results * w;
  if (failed(inBuffer(*this, "src", src, getSrcOffset(), srcSpan)))
    return failure();
  // dst needs only the alignment of one result (not 32 bytes).
  int64_t dstOffset = getDstOffset();
  if (dstOffset * w + dstSpan > dst.getNumElements() * w)
    return emitOpError() << "writes dst past its " << dst.getNumElements()
                         << " elements";
  return success();
}

LogicalResult BinaryRepeatOp::verify() {
  LocalType dst = getDst().getType();
  Type elem = dst.getElementType();
  bool isInt = elem.isInteger(16) || elem.isInteger(32);
  if (!elem.isF16() && !elem.isF32() && !isInt)
    return emitOpError() << "computes half, float, int16 or int32, not " << elem;
  if (isInt && getKind() == RepeatBinaryKind::Div)
    return emitOpError() << "Div takes half or float, not " << elem;
  ArrayRef<int64_t> p = getParams();
  if (p.size() != 6)
    return emitOpError() << "params are BinaryRepeatParams' six strides "
                            "(dstBlk, src0Blk, src1Blk, dstRep, src0Rep, src1Rep)";
  int64_t w = elemBytes(dst);
  if (failed(inRange(*this, "mask", getMask(), 1, repeatLanes(w))) ||
      failed(inRange(*this, "repeatTime", getRepeat(), 0, kMaxRepeat)))
    return failure();
  for (int64_t s : p)
    if (failed(inRange(*this, "stride", s, 0, kMaxBinaryStride)))
      return failure();
  struct Access {
    const char *name;
    Value v;
    int64_t offset, blk, rep;
  } operands[] = {{"dst", getDst(), int64_t(getDstOffset()), p[0], p[3]},
                  {"src0", getSrc0(), int64_t(getSrc0Offset()), p[1], p[4]},
                  {"src1", getSrc1(), int64_t(getSrc1Offset()), p[2], p[5]}};
  for (const Access &o : operands)
    if (failed(inBuffer(*this, o.name, cast<LocalType>(o.v.getType()), o.offset,
                        repeatSpanBytes(w, getMask(), getRepeat(), o.blk, o.rep))))
      return failure();
  return success();
}

bool BinaryRepeatOp::canWriteInPlace(Value src) {
  if (src.getType() != getDst().getType() &&
      !sameBytes(src.getType(), getDst().getType()))
    return false;
  ArrayRef<int64_t> p = getParams();
  auto lockstep = [&](int k, int64_t offset) {
    return offset == int64_t(getDstOffset()) && p[k] == p[0] && p[3 + k] == p[3];
  };
  bool reads0 = src == getSrc0(), reads1 = src == getSrc1();
  return (reads0 || reads1) && (!reads0 || lockstep(1, getSrc0Offset())) &&
         (!reads1 || lockstep(2, getSrc1Offset()));
}

} // namespace asc2::ascendc
