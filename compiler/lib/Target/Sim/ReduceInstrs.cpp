//===- ReduceInstrs.cpp - the reduction cascade's instructions -------------===//
//
// whole_reduce and binary_repeat: one V-pipe instruction each, carrying the
// call's mask, repeatTime and strides; element offsets into the buffers
// become byte addresses.
//
//===----------------------------------------------------------------------===//
#include "Builder.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace asc2::ascendc;

namespace asc2::program_builder {

namespace {

sim::VecOp simOpOf(RepeatBinaryKind k) {
  switch (k) {
  case RepeatBinaryKind::Add:
    return sim::VecOp::Add;
  case RepeatBinaryKind::Max:
    return sim::VecOp::Max;
  case RepeatBinaryKind::Min:
    return sim::VecOp::Min;
  case RepeatBinaryKind::Sub:
    return sim::VecOp::Sub;
  case RepeatBinaryKind::Div:
    return sim::VecOp::Div;
  case RepeatBinaryKind::Mul:
    break;
  }
  return sim::VecOp::Mul;
}

} // namespace

FamilyResult Builder::emitReduceFamily(Operation *op) {
  return llvm::TypeSwitch<Operation *, FamilyResult>(op)
      .Case<WholeReduceOp>([&](WholeReduceOp o) -> LogicalResult {
        auto in = vectorInstr(op, sim::Opcode::VecWholeReduce, o.getDst(),
                              o.getSrc(), {});
        if (failed(in))
          return failure();
        sim::Instr &i = **in;
        int64_t w = sim::byteWidth(i.dtype);
        i.dstAddr += o.getDstOffset() * w;
        i.src0Addr += o.getSrcOffset() * w;
        i.reduceKind = static_cast<sim::ReduceKind>(o.getKind());
        i.reduceOrder = static_cast<sim::ReduceOrder>(o.getOrder());
        i.mask = o.getMask();
        i.repeat = o.getRepeat();
        i.repStride[0] = o.getDstRepStride();
        i.blkStride[1] = o.getSrcBlkStride();
        i.repStride[1] = o.getSrcRepStride();
        return success();
      })
      .Case<BinaryRepeatOp>([&](BinaryRepeatOp o) -> LogicalResult {
        auto in = vectorInstr(op, sim::Opcode::VecBinaryRepeat, o.getDst(),
                              o.getSrc0(), {});
        const Local *b = local(o.getSrc1());
        if (failed(in) || !b)
          return op->emitOpError() << "has an unplanned buffer operand";
        sim::Instr &i = **in;
        int64_t w = sim::byteWidth(i.dtype);
        i.vecOp = simOpOf(o.getKind());
        i.dstAddr += o.getDstOffset() * w;
        i.src0Addr += o.getSrc0Offset() * w;
        i.src1Addr = b->addr + o.getSrc1Offset() * w;
        i.mask = o.getMask();
        i.repeat = o.getRepeat();
        ArrayRef<int64_t> p = o.getParams();
        for (int k = 0; k < 3; ++k) {
          i.blkStride[k] = p[k];
          i.repStride[k] = p[3 + k];
        }
        return success();
      })
      .Default([](Operation *) { return std::nullopt; });
}

} // namespace asc2::program_builder
