//===- AscendCShapeOps.cpp - verifiers of the shape calls -----------------===//
//
// The operand ranges and alignment the API reference gives each call, and
// that every byte it touches lies inside its buffers: the lowering must
// never build a call the real API would reject or that writes past a tile.
//
//===----------------------------------------------------------------------===//
#include "asc2/Arch/VectorRepeat.h"
#include "asc2/Dialect/AscendC/IR/AscendC.h"

using namespace mlir;

namespace asc2::ascendc {

namespace {

int64_t elemBytes(LocalType t) {
  return std::max<int64_t>(1, t.getElementType().getIntOrFloatBitWidth() / 8);
}

/// The buffer's planned bytes: allocations are whole 32-byte blocks.
int64_t blockRoundedBytes(LocalType t) {
  int64_t bytes = t.getNumElements() * elemBytes(t);
  return (bytes + kBlockBytes - 1) / kBlockBytes * kBlockBytes;
}

LogicalResult inRange(Operation *op, StringRef name, int64_t v, int64_t lo,
                      int64_t hi) {
  if (v < lo || v > hi)
    return op->emitOpError() << name << " = " << v << " is outside [" << lo
                             << ", " << hi << "]";
  return success();
}

LogicalResult aligned(Operation *op, StringRef name, int64_t offset,
                      LocalType t) {
  if (offset < 0 || offset * elemBytes(t) % kBlockBytes != 0)
    return op->emitOpError() << name << " = " << offset
                             << " elements is not a whole number of 32-byte "
                                "blocks (UB operands start 32-byte aligned)";
  return success();
}

LogicalResult fits(Operation *op, StringRef which, int64_t endByte,
                   LocalType t) {
  if (endByte > blockRoundedBytes(t))
    return op->emitOpError() << "touches " << endByte << " bytes of " << which
                             << " " << t << " (" << blockRoundedBytes(t)
                             << " bytes)";
  return success();
}

/// Brcb takes 16- and 32-bit elements on A2/A3 and also 8- and 64-bit ones
/// on Ascend950 (the lowering picks per target); the level-0 Copy takes 16-
/// and 32-bit types everywhere and the emitter moves 8- and 64-bit elements
/// on their uint16_t / uint32_t view (CopyOp's description).
LogicalResult repeatWidth(Operation *op, LocalType t) {
  int64_t w = elemBytes(t);
  if (w != 1 && w != 2 && w != 4 && w != 8)
    return op->emitOpError() << "takes 8-, 16-, 32- or 64-bit elements, not "
                             << t.getElementType();
  return success();
}

} // namespace

LogicalResult BrcbOp::verify() {
  LocalType d = getDst().getType(), s = getSrc().getType();
  int64_t w = elemBytes(d), repeat = getRepeatTime();
  if (failed(repeatWidth(*this, d)) ||
      failed(inRange(*this, "repeat_time", repeat, 0, 255)) ||
      failed(inRange(*this, "dst_blk_stride", getDstBlkStride(), 1, 65535)) ||
      failed(inRange(*this, "dst_rep_stride", getDstRepStride(), 0, 65535)) ||
      failed(aligned(*this, "dst_offset", getDstOffset(), d)) ||
      failed(aligned(*this, "src_offset", getSrcOffset(), s)))
    return failure();
  if (repeat == 0)
    return success();
  int64_t lastBlock = (repeat - 1) * getDstRepStride() + 7 * getDstBlkStride();
  if (failed(fits(*this, "dst", getDstOffset() * w + (lastBlock + 1) * kBlockBytes, d)))
    return failure();
  return fits(*this, "src", (getSrcOffset() + 8 * repeat) * w, s);
}

LogicalResult CopyOp::verify() {
  LocalType d = getDst().getType(), s = getSrc().getType();
  int64_t w = elemBytes(d), repeat = getRepeatTime();
  int64_t lanes = 256 / w, perBlock = kBlockBytes / w;
  if (failed(repeatWidth(*this, d)) ||
      failed(inRange(*this, "mask", getMask(), 1, lanes)) ||
      failed(inRange(*this, "repeat_time", repeat, 0, 255)) ||
      failed(inRange(*this, "dst_stride", getDstStride(), 0, 65535)) ||
      failed(inRange(*this, "src_stride", getSrcStride(), 0, 65535)) ||
      failed(inRange(*this, "dst_repeat_size", getDstRepeatSize(), 0, 4095)) ||
      failed(inRange(*this, "src_repeat_size", getSrcRepeatSize(), 0, 4095)) ||
      failed(aligned(*this, "dst_offset", getDstOffset(), d)) ||
      failed(aligned(*this, "src_offset", getSrcOffset(), s)))
    return failure();
  if (w == 1 && getMask() % 2 != 0)
    return emitOpError() << "mask = " << getMask()
                         << " is odd: 8-bit elements move in uint16_t pairs";
  if (repeat == 0)
    return success();
  // The last element of the last repeat is the furthest one (strides >= 0).
  int64_t block = (getMask() - 1) / perBlock, within = (getMask() - 1) % perBlock;
  auto end = [&](int64_t offset, int64_t rep, int64_t blk) {
    return offset * w + ((repeat - 1) * rep + block * blk) * kBlockBytes +
           (within + 1) * w;
  };
  if (failed(fits(*this, "dst", end(getDstOffset(), getDstRepeatSize(), getDstStride()), d)))
    return failure();
  return fits(*this, "src", end(getSrcOffset(), getSrcRepeatSize(), getSrcStride()), s);
}

LogicalResult LocalDataCopyOp::verify() {
  LocalType d = getDst().getType(), s = getSrc().getType();
  int64_t count = getBlockCount(), len = getBlockLen();
  if (failed(inRange(*this, "block_count", count, 1, 4095)) ||
      failed(inRange(*this, "block_len", len, 1, 65535)) ||
      failed(inRange(*this, "src_gap", getSrcGap(), 0, 65535)) ||
      failed(inRange(*this, "dst_gap", getDstGap(), 0, 65535)) ||
      failed(aligned(*this, "dst_offset", getDstOffset(), d)) ||
      failed(aligned(*this, "src_offset", getSrcOffset(), s)))
    return failure();
  auto end = [&](int64_t offset, int64_t gap, LocalType t) {
    return offset * elemBytes(t) + ((count - 1) * (len + gap) + len) * kBlockBytes;
  };
  if (failed(fits(*this, "dst", end(getDstOffset(), getDstGap(), d), d)))
    return failure();
  return fits(*this, "src", end(getSrcOffset(), getSrcGap(), s), s);
}

LogicalResult TransposeOp::verify() {
  LocalType d = getDst().getType(), s = getSrc().getType(), t = getTmp().getType();
  if (d.getElementType() != s.getElementType())
    return emitOpError() << "element types of source and destination differ";
  if (!t.getElementType().isUnsignedInteger(8))
    return emitOpError() << "tmp is the uint8 scratch buffer (LocalTensor<uint8_t>), not "
                         << t;
  int64_t w = elemBytes(d), hw = getH() * getW();
  if (failed(inRange(*this, "n", getN(), 1, 65535)) ||
      failed(inRange(*this, "c", getC(), 1, 4095)) ||
      failed(inRange(*this, "h * w", hw, 1, 4095)))
    return failure();
  if (hw * w % kBlockBytes != 0)
    return emitOpError() << "h * w * sizeof(T) = " << hw * w
                         << " bytes is not a multiple of 32";
  int64_t bytes = getN() * getC() * hw * w;
  if (failed(fits(*this, "dst", bytes, d)) || failed(fits(*this, "src", bytes, s)))
    return failure();
  if (t.getNumElements() < tmpBytes(getC(), w))
    return emitOpError() << "tmp holds " << t.getNumElements() << " bytes; the API needs "
                         << tmpBytes(getC(), w);
  return success();
}

int64_t GatherMaskOp::repeatElements() {
  return getReduceMode() ? int64_t(getMask())
                         : 256 / elemBytes(getSrc().getType());
}

int64_t GatherMaskOp::builtinKept(int64_t pattern, int64_t n) {
  if (pattern == 7)
    return n;
  if (pattern <= 2) // every 2nd element from element pattern - 1
    return (n - (pattern - 1) + 1) / 2;
  return (n - (pattern - 3) + 3) / 4; // every 4th from element pattern - 3
}

LogicalResult GatherMaskOp::verify() {
  LocalType d = getDst().getType(), s = getSrc().getType();
  if (d.getElementType() != s.getElementType())
    return emitOpError() << "element types of source and destination differ";
  int64_t w = elemBytes(d), repeat = getRepeatTimes(), lanes = 256 / w;
  int64_t builtin = getBuiltinPattern();
  if (failed(repeatWidth(*this, d)) ||
      failed(inRange(*this, "builtin_pattern", builtin, 0, 7)) ||
      failed(inRange(*this, "repeat_times", repeat, 1, 255)) ||
      failed(inRange(*this, "src_block_stride", getSrcBlockStride(), 0, 255)) ||
      failed(inRange(*this, "src_repeat_stride", getSrcRepeatStride(), 0,
                     65535)) ||
      failed(inRange(*this, "src1_repeat_stride", getSrc1RepeatStride(), 0,
                     255)) ||
      failed(aligned(*this, "dst_offset", getDstOffset(), d)) ||
      failed(aligned(*this, "src_offset", getSrcOffset(), s)))
    return failure();
  if (getReduceMode() && failed(inRange(*this, "mask", getMask(), 1, lanes)))
    return failure();
  if (!getReduceMode() && getMask() != 0)
    return emitOpError() << "mask is 0 in normal mode (reduce_mode = false)";
  if ((builtin == 0) != bool(getPattern()))
    return emitOpError()
           << "takes a pattern buffer exactly when builtin_pattern is 0";
  const int64_t n = repeatElements();
  if (failed(fits(*this, "src",
                  getSrcOffset() * w + repeatSpanBytes(w, n, repeat,
                                                       getSrcBlockStride(),
                                                       getSrcRepeatStride()),
                  s)))
    return failure();
  if (builtin != 0)
    return fits(*this, "dst",
                (getDstOffset() + repeat * builtinKept(builtin, n)) * w, d);
  auto p = cast<LocalType>(getPattern().getType());
  if (!p.getElementType().isInteger(w * 8))
    return emitOpError() << "pattern holds " << w * 8
                         << "-bit words (the element width), not "
                         << p.getElementType();
  if (failed(aligned(*this, "pattern_offset", getPatternOffset(), p)))
    return failure();
  // Repeat i's bits start i * src1_repeat_stride blocks in; the kept count
  // depends on the bits, so dst's bound is the simulator's to check.
  return fits(*this, "pattern",
              getPatternOffset() * w +
                  (repeat - 1) * getSrc1RepeatStride() * kBlockBytes +
                  (n + 7) / 8,
              p);
}

} // namespace asc2::ascendc
