//===- ShapeInstrs.cpp - the shape calls as instructions ------------------===//
//
// One V-pipe instruction per call, carrying the call's repeat count, mask,
// block and repeat strides as the API defines them (Sim/ShapeKernels.h);
// `dst[offset]` / `src[offset]` become byte offsets of the addresses.
//
//===----------------------------------------------------------------------===//
#include "Builder.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace asc2::ascendc;

namespace asc2::program_builder {

FamilyResult Builder::emitShapeFamily(Operation *op) {
  // The instruction with the element offsets into its buffers applied.
  auto instr = [&](sim::Opcode code, Value dst, Value src, int64_t dstOffset,
                   int64_t srcOffset) -> FailureOr<sim::Instr *> {
    auto in = vectorInstr(op, code, dst, src, {});
    if (failed(in))
      return failure();
    int64_t w = sim::byteWidth((*in)->dtype);
    (*in)->dstAddr += dstOffset * w;
    (*in)->src0Addr += srcOffset * w;
    return in;
  };
  return llvm::TypeSwitch<Operation *, FamilyResult>(op)
      .Case<BrcbOp>([&](BrcbOp o) -> LogicalResult {
        auto in = instr(sim::Opcode::VecBrcb, o.getDst(), o.getSrc(),
                        o.getDstOffset(), o.getSrcOffset());
        if (failed(in))
          return failure();
        (*in)->repeat = o.getRepeatTime();
        (*in)->blkStride[0] = o.getDstBlkStride();
        (*in)->repStride[0] = o.getDstRepStride();
        return success();
      })
      .Case<CopyOp>([&](CopyOp o) -> LogicalResult {
        auto in = instr(sim::Opcode::VecCopy, o.getDst(), o.getSrc(),
                        o.getDstOffset(), o.getSrcOffset());
        if (failed(in))
          return failure();
        (*in)->mask = o.getMask();
        (*in)->repeat = o.getRepeatTime();
        (*in)->blkStride[0] = o.getDstStride();
        (*in)->blkStride[1] = o.getSrcStride();
        (*in)->repStride[0] = o.getDstRepeatSize();
        (*in)->repStride[1] = o.getSrcRepeatSize();
        return success();
      })
      .Case<GatherMaskOp>([&](GatherMaskOp o) -> LogicalResult {
        auto in = instr(sim::Opcode::VecGatherMask, o.getDst(), o.getSrc(),
                        o.getDstOffset(), o.getSrcOffset());
        if (failed(in))
          return failure();
        (*in)->mask = o.repeatElements();
        (*in)->repeat = o.getRepeatTimes();
        (*in)->blkStride[1] = o.getSrcBlockStride();
        (*in)->repStride[1] = o.getSrcRepeatStride();
        (*in)->repStride[2] = o.getSrc1RepeatStride();
        (*in)->gatherPattern = o.getBuiltinPattern();
        if (Value pattern = o.getPattern()) {
          const Local *p = local(pattern);
          if (!p)
            return op->emitOpError() << "has an unplanned buffer operand";
          (*in)->src1Addr =
              p->addr + o.getPatternOffset() * sim::byteWidth((*in)->dtype);
        }
        return success();
      })
      .Case<LocalDataCopyOp>([&](LocalDataCopyOp o) -> LogicalResult {
        auto in = instr(sim::Opcode::LocalDataCopy, o.getDst(), o.getSrc(),
                        o.getDstOffset(), o.getSrcOffset());
        if (failed(in))
          return failure();
        (*in)->blockCount = o.getBlockCount();
        (*in)->blockLen = o.getBlockLen();
        (*in)->srcGap = o.getSrcGap();
        (*in)->dstGap = o.getDstGap();
        return success();
      })
      .Case<TransposeOp>([&](TransposeOp o) -> LogicalResult {
        const Local *tmp = local(o.getTmp());
        auto in = instr(sim::Opcode::VecTranspose, o.getDst(), o.getSrc(), 0, 0);
        if (failed(in) || !tmp)
          return op->emitOpError() << "has an unplanned buffer operand";
        (*in)->batch = o.getN();
        (*in)->a = sim::Operand::ofImm(o.getC());
        (*in)->b = sim::Operand::ofImm(o.getH() * o.getW());
        (*in)->tmpAddr = tmp->addr;
        (*in)->tmpBytes = o.getTmp().getType().getNumElements();
        return success();
      })
      .Default([](Operation *) { return std::nullopt; });
}

} // namespace asc2::program_builder
