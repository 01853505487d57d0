//===- DataMovementInstrs.cpp - GM <-> local copies, scalar access ----------===//
//
// data_copy_in (MTE2, GM ND -> L1 NZ for the cube), data_copy_out (MTE3),
// and the scalar unit's get/set_value on local buffers and GM tensors.
//
//===----------------------------------------------------------------------===//
#include "Builder.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace asc2::ascendc;

namespace asc2::program_builder {

LogicalResult Builder::rowsOf(Operation *user, Value rows, Value stride,
                              LocalType buffer, sim::Instr &in) {
  if (!rows)
    return success();
  auto r = operand(user, rows);
  auto s = operand(user, stride);
  if (failed(r) || failed(s))
    return failure();
  ArrayRef<int64_t> shape = buffer.getShape();
  in.rows = *r;
  in.gmRowStride = *s;
  in.localRowStride = shape.back();
  in.tileRows = buffer.getNumElements() / shape.back();
  return success();
}

LogicalResult Builder::localRegion(Operation *user, Value at, Value rows,
                                   LocalType buffer, sim::Instr &in) {
  if (!at)
    return success();
  auto off = operand(user, at);
  if (failed(off))
    return failure();
  // The region: `rows` (a constant; 1 when absent) rows of the buffer's row
  // length, from element `at`.
  int64_t regionRows = 1;
  if (rows) {
    if (in.rows.isReg())
      return user->emitOpError() << "`at` copies need a constant row count";
    regionRows = in.rows.imm;
  }
  in.localOffset = *off;
  in.localElems = buffer.getNumElements();
  in.tileRows = regionRows;
  in.tileElems = regionRows * buffer.getShape().back();
  return success();
}

sim::Instr &Builder::gmToLocal(Operation *op, sim::Opcode code, const Local &dst,
                               ascendc::LocalType type, int32_t gmArg, sim::Operand offset) {
  sim::Instr &in = add(op, code, sim::Pipe::MTE2);
  in.dtype = *dtypeOf(type.getElementType());
  in.dstSpace = dst.space;
  in.dstAddr = dst.addr;
  in.gmArg = gmArg;
  in.a = offset;
  in.tileElems = dst.elems;
  return in;
}

/// A copy into local memory that pads with `pad` (0 when absent).
static void padWith(TypedAttr pad, sim::Instr &in) {
  in.hasPad = true;
  if (auto f = dyn_cast_or_null<FloatAttr>(pad))
    in.fimm = f.getValueAsDouble();
  else if (auto i = dyn_cast_or_null<IntegerAttr>(pad))
    in.fimm = (double)i.getValue().getSExtValue();
}

FamilyResult Builder::emitDataMovementFamily(Operation *op) {
  return llvm::TypeSwitch<Operation *, FamilyResult>(op)
      .Case<DataCopyInOp>([&](DataCopyInOp c) -> LogicalResult {
        const Local *d = local(c.getDst());
        auto off = operand(op, c.getOffset());
        auto n = operand(op, c.getCount());
        auto gm = gmArgs.find(c.getSrc());
        if (!d || failed(off) || failed(n) || gm == gmArgs.end())
          return c.emitOpError() << "has operands the simulator cannot resolve";
        if (d->space == sim::Space::L1 && !c->hasAttr("nd")) {
          // GM (ND) -> L1 (NZ): always rows x cols.
          auto rows = operand(op, c.getRows());
          auto stride = operand(op, c.getRowStride());
          if (!c.getRows() || failed(rows) || failed(stride))
            return c.emitOpError() << "copies to L1 need rows and a row stride";
          sim::Instr &in = gmToLocal(op, sim::Opcode::CopyGmToL1Nz, *d, c.getDst().getType(),
                                     gm->second, *off);
          in.b = *n;
          in.rows = *rows;
          in.gmRowStride = *stride;
          in.tileRows = c.getDst().getType().getShape()[0];
          in.tileCols = c.getDst().getType().getShape()[1];
          return success();
        }
        sim::Instr &in = gmToLocal(op, sim::Opcode::CopyGmToLocal, *d, c.getDst().getType(),
                                   gm->second, *off);
        in.b = *n;
        if (failed(rowsOf(op, c.getRows(), c.getRowStride(),
                          c.getDst().getType(), in)))
          return failure();
        if (failed(localRegion(op, c.getLocalOffset(), c.getRows(), c.getDst().getType(), in)))
          return failure();
        if (auto pad = c.getPadValueAttr())
          padWith(pad, in);
        return success();
      })
      .Case<DataCopyNdOp>([&](DataCopyNdOp c) -> LogicalResult {
        const Local *d = local(c.getDst());
        auto off = operand(op, c.getOffset());
        auto gm = gmArgs.find(c.getSrc());
        if (!d || failed(off) || gm == gmArgs.end())
          return c.emitOpError() << "has operands the simulator cannot resolve";
        std::vector<sim::NdCopyLoop> loops;
        for (auto [k, size] : llvm::enumerate(c.getSizes())) {
          auto n = operand(op, size);
          if (failed(n))
            return failure();
          loops.push_back({*n, c.getExtents()[k], c.getSrcStrides()[k], c.getDstStrides()[k]});
        }
        sim::Instr &in = gmToLocal(op, sim::Opcode::CopyGmToLocalNd, *d, c.getDst().getType(),
                                   gm->second, *off);
        padWith(c.getPadValueAttr(), in);
        in.ndCopy = int32_t(program.ndCopies.size());
        program.ndCopies.push_back(std::move(loops));
        return success();
      })
      .Case<DataCopyOutOp>([&](DataCopyOutOp c) -> LogicalResult {
        const Local *s = local(c.getSrc());
        auto off = operand(op, c.getOffset());
        auto n = operand(op, c.getCount());
        auto gm = gmArgs.find(c.getDst());
        if (!s || failed(off) || failed(n) || gm == gmArgs.end())
          return c.emitOpError() << "has operands the simulator cannot resolve";
        sim::Instr &in = add(op, sim::Opcode::CopyLocalToGm, sim::Pipe::MTE3);
        in.dtype = *dtypeOf(c.getSrc().getType().getElementType());
        in.srcSpace = s->space;
        in.src0Addr = s->addr;
        in.gmArg = gm->second;
        in.a = *off;
        in.b = *n;
        in.tileElems = s->elems;
        in.atomic = static_cast<sim::AtomicKind>(c.getAtomic());
        if (failed(rowsOf(op, c.getRows(), c.getRowStride(), c.getSrc().getType(), in)))
          return failure();
        return localRegion(op, c.getLocalOffset(), c.getRows(), c.getSrc().getType(), in);
      })
      .Case<GetValueOp>([&](GetValueOp o) -> LogicalResult {
        const Local *b = local(o.getBuffer());
        auto i = operand(op, o.getIndex());
        if (!b || failed(i))
          return op->emitOpError() << "has an unplanned buffer operand";
        sim::Instr &in = add(op, sim::Opcode::ScalarLoadLocal, sim::Pipe::S);
        in.dtype = *dtypeOf(o.getBuffer().getType().getElementType());
        in.srcSpace = b->space;
        in.src0Addr = b->addr;
        in.a = *i;
        in.dst = regs[o.getResult()] = newReg();
        return success();
      })
      .Case<SetValueOp>([&](SetValueOp o) -> LogicalResult {
        const Local *b = local(o.getBuffer());
        auto i = operand(op, o.getIndex());
        if (!b || failed(i))
          return op->emitOpError() << "has an unplanned buffer operand";
        sim::Instr &in = add(op, sim::Opcode::ScalarStoreLocal, sim::Pipe::S);
        in.dtype = *dtypeOf(o.getBuffer().getType().getElementType());
        in.dstSpace = b->space;
        in.dstAddr = b->addr;
        in.a = *i;
        return scalarOperand(op, o.getValue(), in);
      })
      .Case<GmGetValueOp>([&](GmGetValueOp o) -> LogicalResult {
        auto gm = gmArgs.find(o.getTensor());
        auto i = operand(op, o.getIndex());
        if (gm == gmArgs.end() || failed(i))
          return op->emitOpError() << "has operands the simulator cannot resolve";
        sim::Instr &in = add(op, sim::Opcode::ScalarLoadGm, sim::Pipe::S);
        in.dtype = *dtypeOf(o.getTensor().getType().getElementType());
        in.gmArg = gm->second;
        in.a = *i;
        in.dst = regs[o.getResult()] = newReg();
        return success();
      })
      .Case<GmSetValueOp>([&](GmSetValueOp o) -> LogicalResult {
        auto gm = gmArgs.find(o.getTensor());
        auto i = operand(op, o.getIndex());
        if (gm == gmArgs.end() || failed(i))
          return op->emitOpError() << "has operands the simulator cannot resolve";
        sim::Instr &in = add(op, sim::Opcode::ScalarStoreGm, sim::Pipe::S);
        in.dtype = *dtypeOf(o.getTensor().getType().getElementType());
        in.gmArg = gm->second;
        in.a = *i;
        return scalarOperand(op, o.getValue(), in);
      })
      .Default([](Operation *) { return std::nullopt; });
}

} // namespace asc2::program_builder
