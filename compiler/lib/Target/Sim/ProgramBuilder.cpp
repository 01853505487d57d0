//===- ProgramBuilder.cpp -------------------------------------------------===//
#include "asc2/Target/Sim/ProgramBuilder.h"

#include "asc2/Analysis/ProgramPoints.h"
#include "asc2/Dialect/AscendC/IR/AscendC.h"
#include "asc2/Dialect/AscendC/Transforms/Passes.h"

#include "llvm/ADT/TypeSwitch.h"

#include <cstring>

using namespace mlir;
using namespace asc2::ascendc;
namespace sim = asc2::sim;

namespace asc2 {

std::optional<sim::SourceLoc> sourceLocOf(Location loc) {
  if (auto flc = dyn_cast<FileLineColLoc>(loc))
    return sim::SourceLoc{flc.getFilename().str(), (int)flc.getLine(),
                          (int)flc.getColumn()};
  if (auto fused = dyn_cast<FusedLoc>(loc))
    for (Location inner : fused.getLocations())
      if (auto s = sourceLocOf(inner))
        return s;
  if (auto named = dyn_cast<NameLoc>(loc))
    return sourceLocOf(named.getChildLoc());
  if (auto call = dyn_cast<CallSiteLoc>(loc))
    return sourceLocOf(call.getCallee());
  return std::nullopt;
}

namespace {

std::optional<sim::DType> dtypeOf(Type t) {
  if (t.isF32()) return sim::DType::F32;
  if (t.isF16()) return sim::DType::F16;
  if (t.isBF16()) return sim::DType::BF16;
  if (t.isInteger(1)) return sim::DType::Bool;
  if (t.isUnsignedInteger(8)) return sim::DType::U8;
  if (t.isInteger(8)) return sim::DType::I8;
  if (t.isInteger(16)) return sim::DType::I16;
  if (t.isInteger(32)) return sim::DType::I32;
  if (t.isInteger(64) || t.isIndex()) return sim::DType::I64;
  return std::nullopt;
}

sim::Space spaceOf(LocalType t) {
  StringRef s = t.getSpaceName();
  if (s == "L1") return sim::Space::L1;
  if (s == "L0A") return sim::Space::L0A;
  if (s == "L0B") return sim::Space::L0B;
  if (s == "L0C") return sim::Space::L0C;
  if (s == "BT") return sim::Space::BT;
  return sim::Space::UB;
}

class Builder {
public:
  Builder(func::FuncOp func) : func(func), points(func) {}
  FailureOr<sim::Program> build();

private:
  LogicalResult emitBlock(Block &block);
  LogicalResult emitOp(Operation *op);
  sim::Instr &add(Operation *op, sim::Opcode code, sim::Pipe pipe = sim::Pipe::S);
  FailureOr<sim::Operand> operand(Operation *user, Value v);
  int32_t newReg() { return program.numRegs++; }
  void copyReg(Operation *op, sim::Operand from, int32_t to) {
    sim::Instr &in = add(op, sim::Opcode::Scalar);
    in.scalarOp = sim::ScalarOp::Add;
    in.a = from;
    in.b = sim::Operand::ofImm(0);
    in.dst = to;
  }
  /// Copies the yielded values into the registers of `targets` (through
  /// temporaries: a yield may permute loop-carried values).
  LogicalResult yieldInto(scf::YieldOp yield, ValueRange targets) {
    SmallVector<int32_t> temps;
    for (Value v : yield.getOperands()) {
      auto o = operand(yield, v);
      if (failed(o))
        return failure();
      int32_t t = newReg();
      copyReg(yield, *o, t);
      temps.push_back(t);
    }
    for (auto [t, target] : llvm::zip(temps, targets))
      copyReg(yield, sim::Operand::ofReg(t), regs[target]);
    return success();
  }
  /// The scalar of a vector op: an immediate (fimm) for constants, else the
  /// register holding it.
  LogicalResult scalarOperand(Operation *user, Value v, sim::Instr &in);
  /// A vector-pipe instruction that writes local buffer `dst` and reads
  /// `src` (null: no buffer source), typed by `dst`'s elements unless
  /// `elem` is given; `count` (null: none) goes to operand c.
  FailureOr<sim::Instr *> vectorInstr(Operation *op, sim::Opcode code,
                                      Value dst, Value src, Value count,
                                      Type elem = {});
  /// vectorInstr for ops over a rows x cols shape (operands a and b).
  FailureOr<sim::Instr *> shapedVectorInstr(Operation *op, sim::Opcode code,
                                            Value dst, Value src, Value rows,
                                            Value cols);
  /// 2-D copy fields from the optional rows/stride operands.
  LogicalResult rowsOf(Operation *user, Value rows, Value stride,
                       LocalType buffer, sim::Instr &in);
  int32_t locIndex(Location loc);

  func::FuncOp func;
  ProgramPoints points;
  sim::Program program;
  DenseMap<Value, int32_t> regs;
  DenseMap<Value, int32_t> gmArgs;
  struct Local { sim::Space space; int64_t addr; int64_t elems; };
  DenseMap<Value, Local> locals;
  std::map<std::tuple<std::string, int, int>, int32_t> locIds;
};

/// The cores of a MIX group that execute `op`: sync ops carry the core
/// InsertSync chose; other ops follow the pipe and memory they use.
static uint8_t coresOf(Operation *op) {
  if (op->getNumRegions()) // control flow runs on both cores of a group
    return sim::Instr::kBothCores;
  if (auto core = op->getAttrOfType<StringAttr>("core"))
    return core.getValue() == "cube" ? sim::Instr::kAicCore : sim::Instr::kAivCore;
  switch (coreKindOf(op)) {
  case CoreKind::Cube:
    return sim::Instr::kAicCore;
  case CoreKind::Vector:
    return sim::Instr::kAivCore;
  case CoreKind::Either:
    break;
  }
  return sim::Instr::kBothCores;
}

int32_t Builder::locIndex(Location loc) {
  auto s = sourceLocOf(loc);
  if (!s)
    return -1;
  auto key = std::make_tuple(s->file, s->line, s->col);
  auto it = locIds.find(key);
  if (it != locIds.end())
    return it->second;
  int32_t id = program.locs.size();
  program.locs.push_back(*s);
  locIds[key] = id;
  return id;
}

sim::Instr &Builder::add(Operation *op, sim::Opcode code, sim::Pipe pipe) {
  sim::Instr in;
  in.op = code;
  in.pipe = pipe;
  in.point = op ? points.pointOf(op) : -1;
  in.loc = op ? locIndex(op->getLoc()) : -1;
  in.cores = op ? coresOf(op) : sim::Instr::kBothCores;
  program.code.push_back(in);
  return program.code.back();
}

FailureOr<sim::Operand> Builder::operand(Operation *user, Value v) {
  if (auto c = v.getDefiningOp<arith::ConstantOp>())
    if (auto i = dyn_cast<IntegerAttr>(c.getValue()))
      return sim::Operand::ofImm(i.getValue().getSExtValue());
  auto it = regs.find(v);
  if (it == regs.end())
    return user->emitOpError() << "uses a scalar the simulator does not know";
  return sim::Operand::ofReg(it->second);
}



static int64_t doubleBits(double d) {
  int64_t bits;
  std::memcpy(&bits, &d, sizeof(bits));
  return bits;
}

LogicalResult Builder::scalarOperand(Operation *user, Value v, sim::Instr &in) {
  if (auto c = v.getDefiningOp<arith::ConstantOp>()) {
    if (auto f = dyn_cast<FloatAttr>(c.getValue())) {
      in.scalar = sim::Operand::ofImm(0);
      in.fimm = f.getValueAsDouble();
      return success();
    }
    if (auto i = dyn_cast<IntegerAttr>(c.getValue())) {
      in.scalar = sim::Operand::ofImm(0);
      in.fimm = (double)i.getValue().getSExtValue();
      return success();
    }
  }
  auto it = regs.find(v);
  if (it == regs.end())
    return user->emitOpError() << "uses a scalar the simulator does not know";
  in.scalar = sim::Operand::ofReg(it->second);
  return success();
}

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

FailureOr<sim::Instr *> Builder::shapedVectorInstr(Operation *op,
                                                   sim::Opcode code, Value dst,
                                                   Value src, Value rows,
                                                   Value cols) {
  auto in = vectorInstr(op, code, dst, src, {});
  auto r = operand(op, rows);
  auto c = operand(op, cols);
  if (failed(in) || failed(r) || failed(c))
    return failure();
  (*in)->a = *r;
  (*in)->b = *c;
  return in;
}

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

LogicalResult Builder::emitBlock(Block &block) {
  for (Operation &op : block)
    if (failed(emitOp(&op)))
      return failure();
  return success();
}

LogicalResult Builder::emitOp(Operation *op) {
  auto scalar = [&](sim::ScalarOp sop) -> LogicalResult {
    auto a = operand(op, op->getOperand(0));
    auto b = operand(op, op->getOperand(1));
    if (failed(a) || failed(b))
      return failure();
    sim::Instr &in = add(op, sim::Opcode::Scalar);
    in.scalarOp = sop;
    in.a = *a;
    in.b = *b;
    in.dst = regs[op->getResult(0)] = newReg();
    return success();
  };
  auto local = [&](Value v) -> const Local * {
    auto it = locals.find(v);
    return it == locals.end() ? nullptr : &it->second;
  };
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

  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case<arith::ConstantOp>([&](arith::ConstantOp c) -> LogicalResult {
        if (auto i = dyn_cast<IntegerAttr>(c.getValue())) {
          sim::Instr &in = add(op, sim::Opcode::ConstI);
          in.a = sim::Operand::ofImm(i.getValue().getSExtValue());
          in.dst = regs[c.getResult()] = newReg();
        } else if (auto f = dyn_cast<FloatAttr>(c.getValue())) {
          sim::Instr &in = add(op, sim::Opcode::ConstI);
          in.a = sim::Operand::ofImm(doubleBits(f.getValueAsDouble()));
          in.dst = regs[c.getResult()] = newReg();
        }
        return success();
      })
      .Case<arith::AddFOp>([&](auto) { return scalar(sim::ScalarOp::FAdd); })
      .Case<arith::SubFOp>([&](auto) { return scalar(sim::ScalarOp::FSub); })
      .Case<arith::MulFOp>([&](auto) { return scalar(sim::ScalarOp::FMul); })
      .Case<arith::DivFOp>([&](auto) { return scalar(sim::ScalarOp::FDiv); })
      .Case<arith::MaximumFOp, arith::MaxNumFOp>([&](auto) { return scalar(sim::ScalarOp::FMax); })
      .Case<arith::MinimumFOp, arith::MinNumFOp>([&](auto) { return scalar(sim::ScalarOp::FMin); })
      .Case<arith::AndIOp>([&](auto) { return scalar(sim::ScalarOp::And); })
      .Case<arith::OrIOp>([&](auto) { return scalar(sim::ScalarOp::Or); })
      .Case<arith::XOrIOp>([&](auto) { return scalar(sim::ScalarOp::Xor); })
      .Case<arith::ShLIOp>([&](auto) { return scalar(sim::ScalarOp::Shl); })
      .Case<arith::ShRSIOp>([&](auto) { return scalar(sim::ScalarOp::ShrS); })
      .Case<arith::NegFOp>([&](arith::NegFOp n) -> LogicalResult {
        auto a = operand(op, n.getOperand());
        if (failed(a))
          return failure();
        sim::Instr &in = add(op, sim::Opcode::Scalar);
        in.scalarOp = sim::ScalarOp::FSub;
        in.a = sim::Operand::ofImm(doubleBits(0.0));
        in.b = *a;
        in.dst = regs[n.getResult()] = newReg();
        return success();
      })
      .Case<arith::CmpFOp>([&](arith::CmpFOp c) {
        switch (c.getPredicate()) {
        case arith::CmpFPredicate::OEQ: case arith::CmpFPredicate::UEQ: return scalar(sim::ScalarOp::FCmpEQ);
        case arith::CmpFPredicate::ONE: case arith::CmpFPredicate::UNE: return scalar(sim::ScalarOp::FCmpNE);
        case arith::CmpFPredicate::OLT: case arith::CmpFPredicate::ULT: return scalar(sim::ScalarOp::FCmpLT);
        case arith::CmpFPredicate::OLE: case arith::CmpFPredicate::ULE: return scalar(sim::ScalarOp::FCmpLE);
        case arith::CmpFPredicate::OGT: case arith::CmpFPredicate::UGT: return scalar(sim::ScalarOp::FCmpGT);
        case arith::CmpFPredicate::OGE: case arith::CmpFPredicate::UGE: return scalar(sim::ScalarOp::FCmpGE);
        default:
          return LogicalResult(c.emitOpError() << "predicate is not simulated");
        }
      })
      .Case<arith::SIToFPOp>([&](arith::SIToFPOp c) -> LogicalResult {
        auto a = operand(op, c.getIn());
        if (failed(a))
          return failure();
        sim::Instr &in = add(op, sim::Opcode::Scalar);
        in.scalarOp = sim::ScalarOp::SIToFP;
        in.a = *a;
        in.b = sim::Operand::ofImm(0);
        in.dst = regs[c.getResult()] = newReg();
        return success();
      })
      .Case<arith::FPToSIOp>([&](arith::FPToSIOp c) -> LogicalResult {
        auto a = operand(op, c.getIn());
        if (failed(a))
          return failure();
        sim::Instr &in = add(op, sim::Opcode::Scalar);
        in.scalarOp = sim::ScalarOp::FPToSI;
        in.a = *a;
        in.b = sim::Operand::ofImm(0);
        in.dst = regs[c.getResult()] = newReg();
        return success();
      })
      .Case<arith::ExtFOp, arith::TruncFOp>([&](Operation *o) -> LogicalResult {
        // Scalars are doubles in the simulator: a copy.
        auto a = operand(op, o->getOperand(0));
        if (failed(a))
          return failure();
        sim::Instr &in = add(op, sim::Opcode::Scalar);
        in.scalarOp = sim::ScalarOp::Add;
        in.a = *a;
        in.b = sim::Operand::ofImm(0);
        in.dst = regs[o->getResult(0)] = newReg();
        return success();
      })
      .Case<arith::AddIOp>([&](auto) { return scalar(sim::ScalarOp::Add); })
      .Case<arith::SubIOp>([&](auto) { return scalar(sim::ScalarOp::Sub); })
      .Case<arith::MulIOp>([&](auto) { return scalar(sim::ScalarOp::Mul); })
      .Case<arith::DivSIOp>([&](auto) { return scalar(sim::ScalarOp::DivS); })
      .Case<arith::FloorDivSIOp>([&](arith::FloorDivSIOp f) -> LogicalResult {
        // floor(a / b) = a / b - ((a % b != 0) && ((a < 0) != (b < 0)))
        return f.emitOpError() << "on scalars is not simulated yet";
      })
      .Case<arith::RemSIOp>([&](auto) { return scalar(sim::ScalarOp::RemS); })
      .Case<arith::MinSIOp>([&](auto) { return scalar(sim::ScalarOp::MinS); })
      .Case<arith::MaxSIOp>([&](auto) { return scalar(sim::ScalarOp::MaxS); })
      .Case<arith::CeilDivSIOp>([&](auto) { return scalar(sim::ScalarOp::CeilDivS); })
      .Case<arith::CmpIOp>([&](arith::CmpIOp c) {
        switch (c.getPredicate()) {
        case arith::CmpIPredicate::eq: return scalar(sim::ScalarOp::CmpEQ);
        case arith::CmpIPredicate::ne: return scalar(sim::ScalarOp::CmpNE);
        case arith::CmpIPredicate::slt: return scalar(sim::ScalarOp::CmpLT);
        case arith::CmpIPredicate::sle: return scalar(sim::ScalarOp::CmpLE);
        case arith::CmpIPredicate::sgt: return scalar(sim::ScalarOp::CmpGT);
        case arith::CmpIPredicate::sge: return scalar(sim::ScalarOp::CmpGE);
        default:
          return LogicalResult(c.emitOpError() << "unsigned comparisons are not simulated");
        }
      })
      .Case<arith::SelectOp>([&](arith::SelectOp s) -> LogicalResult {
        auto c = operand(op, s.getCondition());
        auto t = operand(op, s.getTrueValue());
        auto f = operand(op, s.getFalseValue());
        if (failed(c) || failed(t) || failed(f))
          return failure();
        sim::Instr &in = add(op, sim::Opcode::Select);
        in.a = *c;
        in.b = *t;
        in.c = *f;
        in.dst = regs[s.getResult()] = newReg();
        return success();
      })
      .Case<arith::IndexCastOp, arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp>(
          [&](Operation *o) -> LogicalResult {
            auto a = operand(op, o->getOperand(0));
            if (failed(a))
              return failure();
            sim::Instr &in = add(op, sim::Opcode::Scalar);
            in.scalarOp = sim::ScalarOp::Add;
            in.a = *a;
            in.b = sim::Operand::ofImm(0);
            in.dst = regs[o->getResult(0)] = newReg();
            return success();
          })
      .Case<GetBlockIdxOp>([&](GetBlockIdxOp b) {
        add(op, sim::Opcode::BlockIdx).dst = regs[b.getResult()] = newReg();
        return success();
      })
      .Case<GetBlockNumOp>([&](GetBlockNumOp b) {
        add(op, sim::Opcode::BlockNum).dst = regs[b.getResult()] = newReg();
        return success();
      })
      .Case<AllocLocalOp>([&](AllocLocalOp a) -> LogicalResult {
        if (!a.getOffsetAttr())
          return a.emitOpError() << "has no offset; memory planning did not run";
        auto type = a.getBuffer().getType();
        locals[a.getBuffer()] = {spaceOf(type), a.getOffsetAttr().getInt(),
                                 type.getNumElements()};
        return success();
      })
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
          sim::Instr &in = add(op, sim::Opcode::CopyGmToL1Nz, sim::Pipe::MTE2);
          in.dtype = *dtypeOf(c.getDst().getType().getElementType());
          in.dstSpace = d->space;
          in.dstAddr = d->addr;
          in.gmArg = gm->second;
          in.a = *off;
          in.b = *n;
          in.rows = *rows;
          in.gmRowStride = *stride;
          in.tileRows = c.getDst().getType().getShape()[0];
          in.tileCols = c.getDst().getType().getShape()[1];
          in.tileElems = d->elems;
          return success();
        }
        sim::Instr &in = add(op, sim::Opcode::CopyGmToLocal, sim::Pipe::MTE2);
        in.dtype = *dtypeOf(c.getDst().getType().getElementType());
        in.dstSpace = d->space;
        in.dstAddr = d->addr;
        in.gmArg = gm->second;
        in.a = *off;
        in.b = *n;
        in.tileElems = d->elems;
        if (failed(rowsOf(op, c.getRows(), c.getRowStride(),
                          c.getDst().getType(), in)))
          return failure();
        if (auto pad = c.getPadValueAttr()) {
          in.hasPad = true;
          if (auto f = dyn_cast<FloatAttr>(pad))
            in.fimm = f.getValueAsDouble();
          else if (auto i = dyn_cast<IntegerAttr>(pad))
            in.fimm = (double)i.getValue().getSExtValue();
        }
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
        return rowsOf(op, c.getRows(), c.getRowStride(), c.getSrc().getType(), in);
      })
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
      .Case<ReduceOp>([&](ReduceOp o) -> LogicalResult {
        auto in = shapedVectorInstr(op, sim::Opcode::VecReduce, o.getDst(),
                                    o.getSrc(), o.getRows(), o.getCols());
        if (failed(in))
          return failure();
        (*in)->reduceKind = static_cast<sim::ReduceKind>(o.getKind());
        (*in)->axis = o.getAxis();
        return success();
      })
      .Case<TransposeOp>([&](TransposeOp o) -> LogicalResult {
        auto in = shapedVectorInstr(op, sim::Opcode::VecTranspose, o.getDst(),
                                    o.getSrc(), o.getRows(), o.getCols());
        if (failed(in))
          return failure();
        (*in)->batch = o.getBatch();
        return success();
      })
      .Case<CopyOp>([&](CopyOp o) -> LogicalResult {
        auto in = shapedVectorInstr(op, sim::Opcode::VecCopy, o.getDst(),
                                    o.getSrc(), o.getRows(), o.getCols());
        if (failed(in))
          return failure();
        (*in)->dstAddr += o.getDstOffset() * sim::byteWidth((*in)->dtype);
        (*in)->src0Addr += o.getSrcOffset() * sim::byteWidth((*in)->dtype);
        (*in)->srcRowStride = o.getSrcStride();
        (*in)->dstRowStride = o.getDstStride();
        return success();
      })
      .Case<BroadcastOp>([&](BroadcastOp o) -> LogicalResult {
        auto in = shapedVectorInstr(op, sim::Opcode::VecBroadcast, o.getDst(),
                                    o.getSrc(), o.getRows(), o.getCols());
        if (failed(in))
          return failure();
        (*in)->axis = o.getAxis();
        return success();
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
      .Case<DuplicateOp>([&](DuplicateOp d) -> LogicalResult {
        auto in = vectorInstr(op, sim::Opcode::VecDup, d.getDst(), {}, d.getCount());
        if (failed(in))
          return failure();
        return scalarOperand(op, d.getValue(), **in);
      })
      .Case<SetFlagOp>([&](SetFlagOp s) {
        bool cross = s->hasAttr("cross_core");
        sim::Instr &in = add(op, cross ? sim::Opcode::CrossCoreSetFlag : sim::Opcode::SetFlag,
                             s.getSrc());
        in.flagSrc = s.getSrc();
        in.flagDst = s.getDst();
        in.eventId = s.getEvent();
        return success();
      })
      .Case<WaitFlagOp>([&](WaitFlagOp w) {
        bool cross = w->hasAttr("cross_core");
        sim::Instr &in = add(op, cross ? sim::Opcode::CrossCoreWaitFlag : sim::Opcode::WaitFlag,
                             w.getDst());
        in.flagSrc = w.getSrc();
        in.flagDst = w.getDst();
        in.eventId = w.getEvent();
        return success();
      })
      .Case<GetBufOp>([&](GetBufOp g) {
        add(op, sim::Opcode::GetBuf, g.getPipe()).eventId = g.getId();
        return success();
      })
      .Case<RlsBufOp>([&](RlsBufOp r) {
        add(op, sim::Opcode::RlsBuf, r.getPipe()).eventId = r.getId();
        return success();
      })
      .Case<PipeBarrierOp>([&](PipeBarrierOp b) {
        bool all = b.getPipe() == Pipe::ALL;
        sim::Instr &in = add(op, sim::Opcode::PipeBarrier,
                             all ? sim::Pipe::S : b.getPipe());
        in.allPipes = all;
        return success();
      })
      .Case<scf::ForOp>([&](scf::ForOp f) -> LogicalResult {
        auto lb = operand(op, f.getLowerBound());
        auto ub = operand(op, f.getUpperBound());
        auto step = operand(op, f.getStep());
        if (failed(lb) || failed(ub) || failed(step))
          return failure();
        int32_t iv = regs[f.getInductionVar()] = newReg();
        copyReg(op, *lb, iv);
        // Loop-carried scalars: one register each, also the loop's results.
        for (auto [arg, init, res] : llvm::zip(f.getRegionIterArgs(),
                                               f.getInitArgs(), f.getResults())) {
          auto in = operand(op, init);
          if (failed(in))
            return failure();
          int32_t r = regs[arg] = regs[res] = newReg();
          copyReg(op, *in, r);
        }
        int32_t cond = newReg();
        size_t head = program.code.size();
        sim::Instr &cmp = add(op, sim::Opcode::Scalar);
        cmp.scalarOp = sim::ScalarOp::CmpLT;
        cmp.a = sim::Operand::ofReg(iv);
        cmp.b = *ub;
        cmp.dst = cond;
        size_t exitBranch = program.code.size();
        add(op, sim::Opcode::BranchIfZero).a = sim::Operand::ofReg(cond);
        if (failed(emitBlock(*f.getBody())))
          return failure();
        auto yield = cast<scf::YieldOp>(f.getBody()->getTerminator());
        if (failed(yieldInto(yield, f.getRegionIterArgs())))
          return failure();
        sim::Instr &inc = add(op, sim::Opcode::Scalar);
        inc.scalarOp = sim::ScalarOp::Add;
        inc.a = sim::Operand::ofReg(iv);
        inc.b = *step;
        inc.dst = iv;
        add(op, sim::Opcode::Jump).target = head;
        program.code[exitBranch].target = program.code.size();
        return success();
      })
      .Case<scf::IfOp>([&](scf::IfOp i) -> LogicalResult {
        auto c = operand(op, i.getCondition());
        if (failed(c))
          return failure();
        for (Value r : i.getResults())
          regs[r] = newReg();
        size_t toElse = program.code.size();
        add(op, sim::Opcode::BranchIfZero).a = *c;
        if (failed(emitBlock(*i.thenBlock())) ||
            failed(yieldInto(i.thenYield(), i.getResults())))
          return failure();
        size_t toEnd = program.code.size();
        add(op, sim::Opcode::Jump);
        program.code[toElse].target = program.code.size();
        if (i.elseBlock()) {
          if (failed(emitBlock(*i.elseBlock())) ||
              failed(yieldInto(i.elseYield(), i.getResults())))
            return failure();
        }
        program.code[toEnd].target = program.code.size();
        return success();
      })
      .Case<scf::YieldOp>([&](auto) { return success(); })
      .Case<func::ReturnOp>([&](auto) {
        add(op, sim::Opcode::End);
        return success();
      })
      .Default([&](Operation *o) {
        return o->emitOpError() << "is not supported by the simulator yet";
      });
}

FailureOr<sim::Program> Builder::build() {
  program.kernelName = func.getName().str();
  program.pointNames.resize(points.size());
  for (int p = 0; p < points.size(); ++p)
    program.pointNames[p] = points.opAt(p)->getName().getStringRef().str();
  auto names = func->getAttrOfType<ArrayAttr>("asctile.arg_names");
  Block &entry = func.getBody().front();
  for (BlockArgument arg : entry.getArguments()) {
    sim::ArgSpec spec;
    if (names && arg.getArgNumber() < names.size())
      if (auto s = dyn_cast<StringAttr>(names[arg.getArgNumber()]))
        spec.name = s.str();
    if (auto gm = dyn_cast<GlobalType>(arg.getType())) {
      auto dt = dtypeOf(gm.getElementType());
      if (!dt)
        return func.emitOpError() << "argument " << arg.getArgNumber()
                                  << " has an unsupported element type";
      spec.kind = sim::ArgSpec::Kind::Gm;
      spec.dtype = *dt;
      gmArgs[arg] = arg.getArgNumber();
    } else if (arg.getType().isIntOrIndex()) {
      spec.kind = sim::ArgSpec::Kind::Int;
      spec.dtype = sim::DType::I64;
      sim::Instr &in = add(nullptr, sim::Opcode::ArgI);
      in.argIndex = arg.getArgNumber();
      in.dst = regs[arg] = newReg();
    } else if (isa<FloatType>(arg.getType())) {
      spec.kind = sim::ArgSpec::Kind::Float;
      spec.dtype = sim::DType::F32;
      sim::Instr &in = add(nullptr, sim::Opcode::ArgF);
      in.argIndex = arg.getArgNumber();
      in.dst = regs[arg] = newReg();
    } else {
      return func.emitOpError() << "argument " << arg.getArgNumber()
                                << " has a type the simulator cannot pass";
    }
    program.args.push_back(spec);
  }
  if (failed(emitBlock(entry)))
    return failure();
  StringRef kind = detectKernelType(func);
  if (auto attr = func->getAttrOfType<StringAttr>("ascendc.kernel_type"))
    kind = attr.getValue();
  program.kernelType = kind == "AIC_ONLY" ? sim::KernelType::AicOnly
                       : kind == "MIX"    ? sim::KernelType::Mix
                                          : sim::KernelType::AivOnly;
  if (program.code.empty() || program.code.back().op != sim::Opcode::End)
    add(nullptr, sim::Opcode::End);
  return std::move(program);
}

} // namespace

FailureOr<sim::Program> buildSimProgram(func::FuncOp func) {
  Builder builder(func);
  return builder.build();
}

} // namespace asc2
