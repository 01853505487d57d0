//===- VectorInstrs.cpp - the vector pipe's instructions --------------------===//
//
// Elementwise ops (their cases generated from the op records), cast,
// compare, select and duplicate: each one V-pipe instruction over planned
// local buffers, masked under asc2.mask. Brcb, Copy, DataCopy within UB and
// Transpose are in ShapeInstrs.cpp, the reduction calls in ReduceInstrs.cpp.
//
//===----------------------------------------------------------------------===//
#include "Builder.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace asc2::ascendc;

namespace asc2::program_builder {

/// The (high, low) lane-mask operands of a vector op under
/// asc2.mask(bits=...), or none.
static ValueRange maskBitsOf(Operation *op) {
  return llvm::TypeSwitch<Operation *, ValueRange>(op)
#define ASC2_VEC_BINARY(Op, ScalarForm, SimOp)                                 \
  .Case<Op>([](Op o) { return ValueRange(o.getBits()); })
#define ASC2_VEC_SCALAR(Op, SimOp) ASC2_VEC_BINARY(Op, , SimOp)
#define ASC2_VEC_UNARY(Op, SimOp) ASC2_VEC_BINARY(Op, , SimOp)
#include "asc2/Dialect/AscendC/IR/AscendCVecOpDispatch.inc"
      .Case<CastOp, CompareOp, SelectOp>(
          [](auto o) { return ValueRange(o.getBits()); })
      .Default([](Operation *) { return ValueRange(); });
}

FailureOr<sim::Instr *> Builder::vectorInstr(Operation *op, sim::Opcode code,
                                             Value dst, Value src, Value count,
                                             Type elem) {
  auto d = locals.find(dst);
  auto a = src ? locals.find(src) : locals.end();
  FailureOr<sim::Operand> n = sim::Operand::ofImm(0);
  if (count)
    n = operand(op, count);
  if (d == locals.end() || (src && a == locals.end()) || failed(n))
    return op->emitOpError() << "has an unplanned buffer operand";
  sim::Instr &in = add(op, code, sim::Pipe::V);
  in.dtype = *dtypeOf(elem ? elem : cast<LocalType>(dst.getType()).getElementType());
  in.dstSpace = d->second.space;
  in.dstAddr = d->second.addr;
  if (src) {
    in.srcSpace = a->second.space;
    in.src0Addr = a->second.addr;
  }
  in.c = *n;
  ValueRange bits = maskBitsOf(op);
  if (!bits.empty()) {
    auto hi = operand(op, bits[0]);
    auto lo = operand(op, bits[1]);
    if (failed(hi) || failed(lo))
      return failure();
    sim::Instr &last = program.code.back();
    last.bitMask = true;
    last.maskHigh = *hi;
    last.maskLow = *lo;
    return &last;
  }
  return &in;
}

FamilyResult Builder::emitVectorFamily(Operation *op) {
  auto vecBinary = [&](sim::VecOp vop, Value dst, Value s0, Value s1,
                       Value count) -> LogicalResult {
    auto in = vectorInstr(op, sim::Opcode::VecBinary, dst, s0, count);
    auto b = locals.find(s1);
    if (failed(in) || b == locals.end())
      return failure();
    (*in)->vecOp = vop;
    (*in)->src1Addr = b->second.addr;
    return success();
  };
  auto vecScalar = [&](sim::VecOp vop, auto o) -> LogicalResult {
    auto in = vectorInstr(op, sim::Opcode::VecScalar, o.getDst(), o.getSrc(),
                          o.getCount());
    if (failed(in))
      return failure();
    (*in)->vecOp = vop;
    (*in)->scalarFirst = o.getScalarFirst();
    return scalarOperand(op, o.getScalar(), **in);
  };
  auto vecUnary = [&](sim::VecOp vop, Value dst, Value s, Value count) -> LogicalResult {
    auto in = vectorInstr(op, sim::Opcode::VecUnary, dst, s, count);
    if (failed(in))
      return failure();
    (*in)->vecOp = vop;
    return success();
  };

  return llvm::TypeSwitch<Operation *, FamilyResult>(op)
      // The elementwise vector ops, from their records (AscendCOps.td).
#define ASC2_VEC_BINARY(Op, ScalarForm, SimOp)                                 \
  .Case<Op>([&](Op o) {                                                        \
    return vecBinary(sim::VecOp::SimOp, o.getDst(), o.getSrc0(), o.getSrc1(),  \
                     o.getCount());                                            \
  })
#define ASC2_VEC_SCALAR(Op, SimOp)                                             \
  .Case<Op>([&](Op o) { return vecScalar(sim::VecOp::SimOp, o); })
#define ASC2_VEC_UNARY(Op, SimOp)                                              \
  .Case<Op>([&](Op o) {                                                        \
    return vecUnary(sim::VecOp::SimOp, o.getDst(), o.getSrc(), o.getCount());  \
  })
#include "asc2/Dialect/AscendC/IR/AscendCVecOpDispatch.inc"
      .Case<CastOp>([&](CastOp o) -> LogicalResult {
        auto in = vectorInstr(op, sim::Opcode::VecCast, o.getDst(), o.getSrc(),
                              o.getCount());
        if (failed(in))
          return failure();
        (*in)->srcDtype = *dtypeOf(o.getSrc().getType().getElementType());
        (*in)->roundMode = static_cast<sim::RoundMode>(o.getRoundMode());
        return success();
      })
      .Case<CompareOp>([&](CompareOp o) -> LogicalResult {
        auto in = vectorInstr(op, sim::Opcode::VecCompare, o.getDst(), o.getLhs(),
                              o.getCount(), o.getLhs().getType().getElementType());
        if (failed(in))
          return failure();
        (*in)->cmpMode = static_cast<sim::CmpMode>(o.getMode());
        if (const Local *b = local(o.getRhs())) {
          (*in)->src1Addr = b->addr;
          return success();
        }
        (*in)->scalarRhs = true;
        return scalarOperand(op, o.getRhs(), **in);
      })
      .Case<SelectOp>([&](SelectOp o) -> LogicalResult {
        const Local *m = local(o.getMask());
        auto in = vectorInstr(op, sim::Opcode::VecSelect, o.getDst(),
                              o.getTrueValue(), o.getCount());
        if (failed(in) || !m)
          return op->emitOpError() << "has an unplanned buffer operand";
        (*in)->maskAddr = m->addr;
        if (const Local *f = local(o.getFalseValue())) {
          (*in)->src1Addr = f->addr;
          return success();
        }
        (*in)->scalarRhs = true;
        return scalarOperand(op, o.getFalseValue(), **in);
      })
      .Case<DuplicateOp>([&](DuplicateOp d) -> LogicalResult {
        auto in = vectorInstr(op, sim::Opcode::VecDup, d.getDst(), {}, d.getCount());
        if (failed(in))
          return failure();
        return scalarOperand(op, d.getValue(), **in);
      })
      .Default([](Operation *) { return std::nullopt; });
}

} // namespace asc2::program_builder
