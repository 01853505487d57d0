//===- VectorUnit.cpp - The vector unit of one simulated core --------------===//
//
// Vector instructions (pipe V) on one local space: which bytes each reads and
// writes and what it costs, then bounds, compute (VectorKernels), races and
// timing, in that order.
//
//===----------------------------------------------------------------------===//

#include "CoreRunner.h"
#include "ShapeKernels.h"
#include "ReduceKernels.h"
#include "VectorKernels.h"

namespace asc2::sim {

/// What a vector instruction touches and costs. The byte ranges are all in
/// the instruction's dstSpace; repeatBytes are the bytes that count towards
/// its 256-byte repeats.
struct CoreRunner::VecOperands {
  struct Range {
    int64_t addr = 0, bytes = 0;
  };
  Range reads[3];
  int numReads = 0;
  Range write;
  Range scratch; // also written (Transpose's tmp buffer); empty when bytes = 0
  VecCost cost;
  int64_t repeatBytes = 0;
  /// Element-wise ops: the element count; shaped ops: the rows x cols tile.
  int64_t n = 0, rows = 0, cols = 0;
};

namespace {

/// How a VecBinary or VecScalar instruction supplies its operands.
BinaryForm binaryForm(const Instr &in) {
  return in.op == Opcode::VecBinary ? BinaryForm::TensorTensor
         : in.scalarFirst           ? BinaryForm::ScalarTensor
                                    : BinaryForm::TensorScalar;
}

} // namespace

/// Brcb, Copy, GatherMask, DataCopy within UB and Transpose: the bytes their
/// block patterns span (ShapeKernels.h), costed per repeat of the real call.
bool CoreRunner::shapeCallOperands(const Instr &in, VecOperands &ops) {
  const int64_t w = byteWidth(in.dtype);
  switch (in.op) {
  case Opcode::VecBrcb:
    ops.reads[ops.numReads++] = {in.src0Addr, 8 * in.repeat * w};
    ops.write = {in.dstAddr, repeatSpanEnd(in.repeat, 8 * kBlockBytes / w, w,
                                           in.blkStride[0], in.repStride[0])};
    ops.repeatBytes = in.repeat * 256;
    ops.cost = arch.brcbCost;
    break;
  case Opcode::VecCopy:
    ops.reads[ops.numReads++] = {in.src0Addr,
                                 repeatSpanEnd(in.repeat, in.mask, w,
                                               in.blkStride[1], in.repStride[1])};
    ops.write = {in.dstAddr, repeatSpanEnd(in.repeat, in.mask, w,
                                           in.blkStride[0], in.repStride[0])};
    ops.repeatBytes = in.repeat * 256;
    ops.cost = arch.copyCost;
    break;
  case Opcode::VecGatherMask: {
    // The kept count (dst's extent) follows from the pattern's bits, so a
    // pattern buffer is bounds-checked before it is read.
    const uint8_t *pattern = nullptr;
    if (in.gatherPattern == 0) {
      const int64_t patternBytes =
          (in.repeat - 1) * in.repStride[2] * kBlockBytes + (in.mask + 7) / 8;
      if (!checkLocal(in, in.dstSpace, in.src1Addr, patternBytes))
        return false;
      ops.reads[ops.numReads++] = {in.src1Addr, patternBytes};
      pattern = memory[int(in.dstSpace)].data() + in.src1Addr;
    }
    ops.reads[ops.numReads++] = {
        in.src0Addr,
        repeatSpanEnd(in.repeat, in.mask, w, in.blkStride[1], in.repStride[1])};
    ops.write = {in.dstAddr,
                 w * gatherMaskKept(in.gatherPattern, pattern, in.repStride[2],
                                    in.repeat, in.mask)};
    ops.repeatBytes = in.repeat * 256;
    ops.cost = arch.gatherMaskCost;
    break;
  }
  case Opcode::LocalDataCopy: {
    auto span = [&](int64_t gap) {
      return in.blockCount <= 0 ? 0
             : ((in.blockCount - 1) * (in.blockLen + gap) + in.blockLen) * kBlockBytes;
    };
    ops.reads[ops.numReads++] = {in.src0Addr, span(in.srcGap)};
    ops.write = {in.dstAddr, span(in.dstGap)};
    ops.repeatBytes = in.blockCount * in.blockLen * kBlockBytes;
    ops.cost = arch.localDataCopyCost;
    break;
  }
  case Opcode::VecTranspose: {
    const int64_t bytes = in.batch * val(in.a) * val(in.b) * w;
    if (in.src0Addr < in.dstAddr + bytes && in.dstAddr < in.src0Addr + bytes)
      return fail(in, "Transpose (NCHW -> NHWC) cannot write its source");
    ops.reads[ops.numReads++] = {in.src0Addr, bytes};
    ops.write = {in.dstAddr, bytes};
    ops.scratch = {in.tmpAddr, in.tmpBytes};
    ops.repeatBytes = bytes;
    ops.cost = arch.transposeCost;
    break;
  }
  default:
    return fail(in, "not a shape call");
  }
  return true;
}

/// Level-0 calls (WholeReduce, binary folds): the spans their repeats touch;
/// each repeat is one issue of the instruction (its per-repeat cost).
bool CoreRunner::repeatOperands(const Instr &in, VecOperands &ops) {
  const bool reduce = in.op == Opcode::VecWholeReduce;
  ops.reads[ops.numReads++] = {in.src0Addr, repeatCallSpan(in, 1)};
  if (!reduce)
    ops.reads[ops.numReads++] = {in.src1Addr, repeatCallSpan(in, 2)};
  ops.write = {in.dstAddr, repeatCallSpan(in, 0)};
  ops.repeatBytes = in.repeat * 256;
  ops.cost = reduce ? arch.wholeReduceCost : arch.costOf(in.vecOp);
  return true;
}

/// Element-wise ops over `c` elements.
bool CoreRunner::elementwiseOperands(const Instr &in, VecOperands &ops) {
  const int64_t n = ops.n = val(in.c);
  if (n < 0)
    return fail(in, "negative element count", std::to_string(n) + " elements");
  const int64_t bytes = localBytes(in.dtype, n); // n bits for a Bool mask
  ops.repeatBytes = bytes;
  ops.write = {in.dstAddr, bytes};
  switch (in.op) {
  case Opcode::VecBinary:
    ops.reads[ops.numReads++] = {in.src0Addr, bytes};
    ops.reads[ops.numReads++] = {in.src1Addr, bytes};
    ops.cost = arch.costOf(in.vecOp);
    break;
  case Opcode::VecUnary:
    ops.reads[ops.numReads++] = {in.src0Addr, bytes};
    ops.cost = arch.costOf(in.vecOp);
    break;
  case Opcode::VecScalar:
    ops.reads[ops.numReads++] = {in.src0Addr, bytes};
    ops.cost = arch.costOfScalarForm(in.vecOp);
    break;
  case Opcode::VecDup:
    ops.cost = arch.vecDefault;
    break;
  case Opcode::VecCast: {
    int64_t srcBytes = localBytes(in.srcDtype, n);
    ops.reads[ops.numReads++] = {in.src0Addr, srcBytes};
    ops.repeatBytes = std::max(bytes, srcBytes);
    ops.cost = arch.castCost;
    break;
  }
  case Opcode::VecCompare:
    ops.reads[ops.numReads++] = {in.src0Addr, bytes};
    if (!in.scalarRhs)
      ops.reads[ops.numReads++] = {in.src1Addr, bytes};
    ops.write = {in.dstAddr, localBytes(DType::Bool, n)}; // the bit mask
    ops.cost = arch.compareCost;
    break;
  case Opcode::VecSelect:
    ops.reads[ops.numReads++] = {in.maskAddr, localBytes(DType::Bool, n)};
    ops.reads[ops.numReads++] = {in.src0Addr, bytes};
    if (!in.scalarRhs)
      ops.reads[ops.numReads++] = {in.src1Addr, bytes};
    ops.cost = arch.selectCost;
    break;
  default:
    return fail(in, "not a vector instruction");
  }
  return true;
}

/// asc2.mask(bits=...): only the selected lanes of each 256-byte repeat, as
/// runs of consecutive selected elements (the others keep dst).
bool CoreRunner::computeMasked(const Instr &in, const VecOperands &ops) {
  const DType t = in.dtype;
  const int64_t w = byteWidth(t);
  uint8_t *base = memory[int(in.dstSpace)].data();
  uint8_t *dst = base + in.dstAddr;
  const uint8_t *a = base + in.src0Addr;
  int64_t sw = in.op == Opcode::VecCast ? byteWidth(in.srcDtype) : w;
  int64_t lanes = 256 / std::max(w, sw);
  const uint64_t hi = uint64_t(val(in.maskHigh)), lo = uint64_t(val(in.maskLow));
  bool ok = true;
  forEachMaskRun(ops.n, lanes, hi, lo, [&](int64_t start, int64_t len) {
    if (!ok)
      return;
    uint8_t *d = dst + start * w;
    const uint8_t *x = a + start * (in.op == Opcode::VecCast ? sw : w);
    const uint8_t *y = base + in.src1Addr + (in.scalarRhs ? 0 : start * w);
    switch (in.op) {
    case Opcode::VecBinary:
    case Opcode::VecScalar:
      ok = binaryKernel(in.vecOp, t, binaryForm(in), d, x, y, scalarOf(in, t),
                        len);
      break;
    case Opcode::VecUnary:
      unaryKernel(in.vecOp, t, d, x, len);
      break;
    case Opcode::VecCast:
      castKernel(t, in.srcDtype, in.roundMode, d, x, len);
      break;
    case Opcode::VecCompare:
      compareKernel(in.cmpMode, t, dst, start, x, y, in.scalarRhs, scalarOf(in, t),
                    len);
      break;
    case Opcode::VecSelect:
      selectKernel(t, d, base + in.maskAddr, start, x, y, in.scalarRhs,
                   scalarOf(in, t), len);
      break;
    default:
      break;
    }
  });
  if (!ok)
    return fail(in, "integer division by zero");
  return true;
}

/// Every element (or the whole tile) of the instruction.
bool CoreRunner::computeDense(const Instr &in, const VecOperands &ops) {
  const DType t = in.dtype;
  const int64_t w = byteWidth(t);
  const int64_t n = ops.n, rows = ops.rows, cols = ops.cols;
  uint8_t *base = memory[int(in.dstSpace)].data();
  uint8_t *dst = base + in.dstAddr;
  const uint8_t *a = base + in.src0Addr;
  switch (in.op) {
  case Opcode::VecBinary:
  case Opcode::VecScalar:
    if (!binaryKernel(in.vecOp, t, binaryForm(in), dst, a, base + in.src1Addr,
                      scalarOf(in, t), n))
      return fail(in, "integer division by zero");
    break;
  case Opcode::VecUnary:
    unaryKernel(in.vecOp, t, dst, a, n);
    break;
  case Opcode::VecDup:
    dupKernel(t, dst, scalarOf(in, t), n);
    break;
  case Opcode::VecCast:
    castKernel(t, in.srcDtype, in.roundMode, dst, a, n);
    break;
  case Opcode::VecCompare:
    compareKernel(in.cmpMode, t, dst, 0, a, base + in.src1Addr, in.scalarRhs,
                  scalarOf(in, t), n);
    break;
  case Opcode::VecSelect:
    selectKernel(t, dst, base + in.maskAddr, 0, a, base + in.src1Addr,
                 in.scalarRhs, scalarOf(in, t), n);
    break;
  case Opcode::VecWholeReduce:
    wholeReduceKernel(in, base);
    break;
  case Opcode::VecBinaryRepeat:
    binaryRepeatKernel(in, base);
    break;
  case Opcode::VecBrcb:
    brcbKernel(w, dst, a, in.repeat, in.blkStride[0], in.repStride[0]);
    break;
  case Opcode::VecCopy:
    copyKernel(w, dst, a, in.mask, in.repeat, in.blkStride[0],
               in.blkStride[1], in.repStride[0], in.repStride[1]);
    break;
  case Opcode::VecGatherMask:
    gatherMaskKernel(w, dst, a, in.gatherPattern,
                     in.gatherPattern ? nullptr : base + in.src1Addr,
                     in.repStride[2], in.mask, in.repeat, in.blkStride[1],
                     in.repStride[1]);
    break;
  case Opcode::LocalDataCopy:
    localDataCopyKernel(dst, a, in.blockCount, in.blockLen, in.srcGap, in.dstGap);
    break;
  case Opcode::VecTranspose:
    transposeKernel(w, dst, a, in.batch, val(in.a), val(in.b));
    break;
  default:
    break;
  }
  return true;
}

bool CoreRunner::vector(const Instr &in, int32_t pc) {
  VecOperands ops;
  const bool shapeCall = in.op == Opcode::VecBrcb || in.op == Opcode::VecCopy ||
                         in.op == Opcode::VecGatherMask ||
                         in.op == Opcode::LocalDataCopy ||
                         in.op == Opcode::VecTranspose;
  const bool repeated =
      in.op == Opcode::VecWholeReduce || in.op == Opcode::VecBinaryRepeat;
  if (!(shapeCall  ? shapeCallOperands(in, ops)
        : repeated ? repeatOperands(in, ops)
                   : elementwiseOperands(in, ops)))
    return false;
  Space s = in.dstSpace;
  for (int i = 0; i < ops.numReads; ++i)
    if (!checkLocal(in, s, ops.reads[i].addr, ops.reads[i].bytes))
      return false;
  if (!checkLocal(in, s, ops.write.addr, ops.write.bytes) ||
      !checkLocal(in, s, ops.scratch.addr, ops.scratch.bytes))
    return false;
  if (!(in.bitMask ? computeMasked(in, ops) : computeDense(in, ops)))
    return false;
  if (races) {
    races->beginAccesses(in.pipe, pc);
    for (int i = 0; i < ops.numReads; ++i)
      races->read(s, ops.reads[i].addr, ops.reads[i].addr + ops.reads[i].bytes);
    races->write(s, ops.write.addr, ops.write.addr + ops.write.bytes);
    if (ops.scratch.bytes > 0)
      races->write(s, ops.scratch.addr, ops.scratch.addr + ops.scratch.bytes);
  }
  // Pipelined: the repeats stream through the pipe, the fixed part is the
  // latency after the last one (in-order issue, not in-order completion).
  int64_t repeats = (ops.repeatBytes + 255) / 256;
  const double stream = ops.cost.perRepeat * double(repeats);
  const uint64_t occupancy = std::max<uint64_t>(
      1, uint64_t(std::ceil(arch.vectorIssueCycles + stream)));
  const uint64_t dur = std::max(
      occupancy, uint64_t(std::ceil(ops.cost.fixed + stream)));
  const Pipe p = in.pipe;
  uint64_t start = startOn(p, enqueue(p));
  occupyPipelined(p, start, start + occupancy, start + dur);
  if (traceOn)
    emit(in, p, start, start + dur, 0);
  return true;
}

} // namespace asc2::sim
