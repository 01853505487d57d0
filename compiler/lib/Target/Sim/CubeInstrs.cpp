//===- CubeInstrs.cpp - the cube unit's instructions ------------------------===//
//
// L1 -> L0A/L0B (load_data), mmad into L0C, fixpipe to GM or L1 and the
// bias copy L1 -> BT.
//
//===----------------------------------------------------------------------===//
#include "Builder.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace asc2::ascendc;

namespace asc2::program_builder {

FamilyResult Builder::emitCubeFamily(Operation *op) {
  return llvm::TypeSwitch<Operation *, FamilyResult>(op)
      .Case<LoadDataOp>([&](LoadDataOp l) -> LogicalResult {
        const Local *d = local(l.getDst()), *src = local(l.getSrc());
        if (!d || !src)
          return l.emitOpError() << "has an unplanned buffer operand";
        LocalType st = l.getSrc().getType(), dt = l.getDst().getType();
        int64_t srcRows = st.getShape()[0], srcCols = st.getShape()[1];
        sim::Instr &in = add(op, sim::Opcode::LoadL1ToL0, sim::Pipe::MTE1);
        in.dtype = *dtypeOf(dt.getElementType());
        in.srcSpace = src->space;
        in.src0Addr = src->addr;
        in.dstSpace = d->space;
        in.dstAddr = d->addr;
        in.tileRows = dt.getShape()[0];
        in.tileCols = dt.getShape()[1];
        // Sub-tile of the L1 tile: its (row, col) origin and the L1 tile's
        // dims (an NZ sub-tile is not contiguous).
        in.a = sim::Operand::ofImm(l.getRow());
        in.b = sim::Operand::ofImm(l.getCol());
        if (!l.getOrigin().empty()) { // runtime origin (static part 0)
          auto row = operand(op, l.getOrigin()[0]);
          auto col = operand(op, l.getOrigin()[1]);
          if (failed(row) || failed(col) || l.getRow() || l.getCol())
            return l.emitOpError() << "has a runtime origin the simulator cannot resolve";
          in.a = *row;
          in.b = *col;
        }
        in.srcTileRows = srcRows;
        in.srcTileCols = srcCols;
        in.transpose = l.getTranspose();
        return success();
      })
      .Case<LoadDataWithTransposeOp>([&](LoadDataWithTransposeOp l) -> LogicalResult {
        const Local *d = local(l.getDst()), *src = local(l.getSrc());
        if (!d || !src)
          return l.emitOpError() << "has an unplanned buffer operand";
        sim::Operand dyn = sim::Operand::ofImm(0);
        if (Value off = l.getDynamicSrcOffset()) {
          auto o = operand(op, off);
          if (failed(o))
            return l.emitOpError() << "has a source offset the simulator cannot resolve";
          dyn = *o;
        }
        // One instruction per trip of the emitted loop, one call each.
        for (int64_t i = 0; i < l.getLoops(); ++i) {
          sim::Instr &in = add(op, sim::Opcode::LoadL1ToL0B32Transpose, sim::Pipe::MTE1);
          in.dtype = *dtypeOf(l.getDst().getType().getElementType());
          in.srcSpace = src->space;
          in.src0Addr = src->addr;
          in.dstSpace = d->space;
          in.dstAddr = d->addr + (l.getDstOffset() + i * l.getDstLoopStride()) * 4;
          in.a = dyn;
          in.b = sim::Operand::ofImm(l.getSrcOffset() + i * l.getSrcLoopStride());
          in.repeat = l.getRepeatTimes();
          in.ldStartIndex = l.getStartIndex();
          in.ldSrcStride = l.getSrcStride();
          in.dstGap = l.getDstGap();
          in.ldDstFracGap = l.getDstFracGap();
        }
        return success();
      })
      .Case<MmadOp>([&](MmadOp m) -> LogicalResult {
        const Local *c = local(m.getDst()), *a = local(m.getLhs()), *b = local(m.getRhs());
        auto init = operand(op, m.getInit());
        if (!c || !a || !b || failed(init))
          return m.emitOpError() << "has operands the simulator cannot resolve";
        LocalType at = m.getLhs().getType(), bt = m.getRhs().getType();
        sim::Instr &in = add(op, sim::Opcode::Mmad, sim::Pipe::M);
        in.dtype = *dtypeOf(m.getDst().getType().getElementType());
        in.srcDtype = *dtypeOf(at.getElementType());
        in.dstSpace = c->space;
        in.dstAddr = c->addr;
        in.srcSpace = a->space;
        in.src0Addr = a->addr;
        in.src1Addr = b->addr;
        in.a = sim::Operand::ofImm(at.getShape()[0]);
        in.b = sim::Operand::ofImm(at.getShape()[1]);
        in.c = sim::Operand::ofImm(bt.getShape()[1]);
        in.init = *init;
        in.hf32 = m.getHf32();
        if (Value bias = m.getBias()) {
          const Local *bt = local(bias);
          if (!bt)
            return m.emitOpError() << "has an unplanned bias buffer";
          in.hasBias = true;
          in.biasAddr = bt->addr;
        }
        return success();
      })
      .Case<FixpipeL1Op>([&](FixpipeL1Op f) -> LogicalResult {
        const Local *d = local(f.getDst()), *src = local(f.getSrc());
        if (!d || !src)
          return f.emitOpError() << "has an unplanned buffer operand";
        LocalType st = f.getSrc().getType();
        sim::Instr &in = add(op, sim::Opcode::FixpipeToL1, sim::Pipe::FIX);
        in.dtype = *dtypeOf(f.getDst().getType().getElementType());
        in.srcDtype = *dtypeOf(st.getElementType());
        in.srcSpace = src->space;
        in.src0Addr = src->addr;
        in.dstSpace = d->space;
        in.dstAddr = d->addr;
        in.tileRows = st.getShape()[0];
        in.tileCols = st.getShape()[1];
        in.relu = f.getRelu();
        return success();
      })
      .Case<CopyBiasOp>([&](CopyBiasOp c) -> LogicalResult {
        const Local *d = local(c.getDst()), *src = local(c.getSrc());
        if (!d || !src)
          return c.emitOpError() << "has an unplanned buffer operand";
        sim::Instr &in = add(op, sim::Opcode::CopyL1ToBt, sim::Pipe::MTE1);
        in.dtype = *dtypeOf(c.getDst().getType().getElementType());
        in.srcDtype = *dtypeOf(c.getSrc().getType().getElementType());
        in.a = sim::Operand::ofImm(0); // element offset into the L1 row
        if (Value off = c.getOffset()) {
          auto o = operand(op, off);
          if (failed(o))
            return c.emitOpError() << "has an offset the simulator cannot resolve";
          in.a = *o;
        }
        in.tileElems = c.getSrc().getType().getNumElements();
        in.srcSpace = src->space;
        in.src0Addr = src->addr;
        in.dstSpace = d->space;
        in.dstAddr = d->addr;
        in.c = sim::Operand::ofImm(c.getDst().getType().getNumElements());
        return success();
      })
      .Case<FixpipeOp>([&](FixpipeOp f) -> LogicalResult {
        const Local *src = local(f.getSrc());
        auto off = operand(op, f.getOffset());
        auto n = operand(op, f.getCount());
        auto rows = operand(op, f.getRows());
        auto stride = operand(op, f.getRowStride());
        auto gm = gmArgs.find(f.getDst());
        if (!src || failed(off) || failed(n) || failed(rows) || failed(stride) ||
            gm == gmArgs.end())
          return f.emitOpError() << "has operands the simulator cannot resolve";
        LocalType st = f.getSrc().getType();
        sim::Instr &in = add(op, sim::Opcode::FixpipeToGm, sim::Pipe::FIX);
        in.dtype = *dtypeOf(f.getDst().getType().getElementType());
        in.srcDtype = *dtypeOf(st.getElementType());
        in.srcSpace = src->space;
        in.src0Addr = src->addr;
        in.gmArg = gm->second;
        in.a = *off;
        in.b = *n;
        in.rows = *rows;
        in.gmRowStride = *stride;
        in.tileRows = st.getShape()[0];
        in.tileCols = st.getShape()[1];
        in.relu = f.getRelu();
        in.atomic = static_cast<sim::AtomicKind>(f.getAtomic());
        return success();
      })
      .Default([](Operation *) { return std::nullopt; });
}

} // namespace asc2::program_builder
