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

LogicalResult Builder::emitLoadL1ToL0(Operation *op, Value dst, Value src, ValueRange origin,
                                      int64_t row, int64_t col, int64_t srcRows, int64_t srcCols,
                                      bool transpose) {
  const Local *d = local(dst), *s = local(src);
  if (!d || !s)
    return op->emitOpError() << "has an unplanned buffer operand";
  LocalType dt = cast<LocalType>(dst.getType());
  sim::Instr &in = add(op, sim::Opcode::LoadL1ToL0, sim::Pipe::MTE1);
  in.dtype = *dtypeOf(dt.getElementType());
  in.srcSpace = s->space;
  in.src0Addr = s->addr;
  in.dstSpace = d->space;
  in.dstAddr = d->addr;
  in.tileRows = dt.getShape()[0];
  in.tileCols = dt.getShape()[1];
  in.a = sim::Operand::ofImm(row);
  in.b = sim::Operand::ofImm(col);
  if (!origin.empty()) { // runtime origin (static part 0)
    auto r = operand(op, origin[0]);
    auto c = operand(op, origin[1]);
    if (failed(r) || failed(c) || row || col)
      return op->emitOpError() << "has a runtime origin the simulator cannot resolve";
    in.a = *r;
    in.b = *c;
  }
  in.srcTileRows = srcRows;
  in.srcTileCols = srcCols;
  in.transpose = transpose;
  return success();
}

LogicalResult Builder::emitFixpipeToLocal(Operation *op, sim::Opcode code, Value dst, Value src,
                                          bool relu) {
  const Local *d = local(dst), *s = local(src);
  if (!d || !s)
    return op->emitOpError() << "has an unplanned buffer operand";
  LocalType st = cast<LocalType>(src.getType());
  sim::Instr &in = add(op, code, sim::Pipe::FIX);
  in.dtype = *dtypeOf(cast<LocalType>(dst.getType()).getElementType());
  in.srcDtype = *dtypeOf(st.getElementType());
  in.srcSpace = s->space;
  in.src0Addr = s->addr;
  in.dstSpace = d->space;
  in.dstAddr = d->addr;
  in.tileRows = st.getShape()[0];
  in.tileCols = st.getShape()[1];
  in.relu = relu;
  return success();
}

FamilyResult Builder::emitCubeFamily(Operation *op) {
  return llvm::TypeSwitch<Operation *, FamilyResult>(op)
      .Case<LoadDataOp>([&](LoadDataOp l) -> LogicalResult {
        // Sub-tile of the L1 tile: its (row, col) origin and the L1 tile's
        // dims (an NZ sub-tile is not contiguous).
        LocalType st = l.getSrc().getType();
        return emitLoadL1ToL0(op, l.getDst(), l.getSrc(), l.getOrigin(), l.getRow(), l.getCol(),
                              st.getShape()[0], st.getShape()[1], l.getTranspose());
      })
      .Case<LoadData3DV2Op>([&](LoadData3DV2Op l) -> LogicalResult {
        // With a 1x1 filter the img2col window is a sub-tile of the NZ L1
        // tile (l1H * l1W rows, channelSize columns) at (mStartPt,
        // kStartPt): the same move LoadL1ToL0 makes, L0B getting the
        // window, L0A the window or (enTranspose) its transpose.
        return emitLoadL1ToL0(op, l.getDst(), l.getSrc(), l.getStart(), l.getMStartPt(),
                              l.getKStartPt(), l.getL1H() * l.getL1W(), l.getChannelSize(),
                              l.getEnTranspose());
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
        return emitFixpipeToLocal(op, sim::Opcode::FixpipeToL1, f.getDst(), f.getSrc(),
                                  f.getRelu());
      })
      .Case<FixpipeUbOp>([&](FixpipeUbOp f) -> LogicalResult {
        if (failed(emitFixpipeToLocal(op, sim::Opcode::FixpipeToUb, f.getDst(), f.getSrc(),
                                      f.getRelu())))
          return failure();
        sim::Instr &in = program.code.back();
        in.dual = f.getDual();
        // The band of rows moved.
        in.a = sim::Operand::ofImm(f.getRow());
        in.rows = sim::Operand::ofImm(f.getMovedRows());
        return success();
      })
      .Case<CopyUbToL1Op>([&](CopyUbToL1Op c) -> LogicalResult {
        const Local *d = local(c.getDst()), *src = local(c.getSrc());
        if (!d || !src)
          return c.emitOpError() << "has an unplanned buffer operand";
        LocalType dt = c.getDst().getType(), st = c.getSrc().getType();
        sim::Instr &in = add(op, sim::Opcode::CopyUbToL1, sim::Pipe::MTE3);
        in.dtype = in.srcDtype = *dtypeOf(dt.getElementType());
        in.srcSpace = src->space;
        in.src0Addr = src->addr;
        in.dstSpace = d->space;
        in.dstAddr = d->addr;
        in.a = sim::Operand::ofImm(0);
        in.b = sim::Operand::ofImm(0);
        for (auto [value, field] : {std::pair{c.getOffset(), &in.a}, std::pair{c.getRow(), &in.b}}) {
          if (!value)
            continue;
          auto o = operand(op, value);
          if (failed(o))
            return c.emitOpError() << "has an offset the simulator cannot resolve";
          *field = *o;
        }
        in.ndRow = dt.getShape().size() == 1;
        in.tileRows = in.ndRow ? 1 : dt.getShape()[0];
        in.tileCols = dt.getShape().back();
        in.rows = sim::Operand::ofImm(in.ndRow ? 1 : c.getCopiedRows());
        in.localRowStride = st.getShape().back();
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
        // The bias values (the burst tail a 16-bit copy also writes is never read).
        in.c = sim::Operand::ofImm(c.getValueCount());
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
