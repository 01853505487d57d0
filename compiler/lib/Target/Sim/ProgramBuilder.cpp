//===- ProgramBuilder.cpp - ascendc IR to a sim::Program ------------------===//
//
// The walk over a kernel, its arguments and registers, scalar code and
// control flow; emitOp asks each op family (Builder.h) in turn.
//
//===----------------------------------------------------------------------===//
#include "Builder.h"

#include "asc2/Dialect/AscendC/Transforms/Passes.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cstring>

using namespace mlir;
using namespace asc2::ascendc;

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

namespace program_builder {

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

static sim::Space spaceOf(LocalType t) {
  StringRef s = t.getSpaceName();
  if (s == "L1") return sim::Space::L1;
  if (s == "L0A") return sim::Space::L0A;
  if (s == "L0B") return sim::Space::L0B;
  if (s == "L0C") return sim::Space::L0C;
  if (s == "BT") return sim::Space::BT;
  return sim::Space::UB;
}

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

/// A float scalar result is rounded to its type (float32 arithmetic in
/// float32, as the scalar unit computes it); registers hold doubles.
static void roundToResultType(sim::Instr &in, Type type) {
  if (!isa<FloatType>(type))
    return;
  if (auto dt = dtypeOf(type)) {
    in.dtype = *dt;
    in.roundsToDtype = true;
  }
}

sim::Instr &Builder::add(Operation *op, sim::Opcode code, sim::Pipe pipe) {
  sim::Instr in;
  in.op = code;
  in.pipe = pipe;
  in.point = op ? points.pointOf(op) : -1;
  in.loc = op ? locIndex(op->getLoc()) : -1;
  in.cores = op ? coresOf(op) : sim::Instr::kBothCores;
  if (firstAivOnly && in.cores == sim::Instr::kAivCore && !holdsCrossCoreFlag(op))
    in.cores |= sim::Instr::kFirstAivOnly;
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

LogicalResult Builder::emitBlock(Block &block) {
  for (Operation &op : block)
    if (failed(emitOp(&op)))
      return failure();
  return success();
}

LogicalResult Builder::emitOp(Operation *op) {
  // Raw Ascend C has no instructions: the program records where it is, and
  // a launch is refused (sim::inlineCodeRefusal).
  if (auto code = dyn_cast<InlineCodeOpInterface>(op)) {
    program.inlineCode.push_back({code.getApiName().str(), locIndex(op->getLoc())});
    return success();
  }
  // The families own disjoint sets of ops; the one that claims `op` emits it.
  size_t before = program.code.size();
  FamilyResult status = dispatchToFamily(this, op, &Builder::emitScalarFamily,
                                         &Builder::emitControlFlowFamily,
                                         &Builder::emitVectorFamily,
                                         &Builder::emitShapeFamily,
                                         &Builder::emitReduceFamily,
                                         &Builder::emitDataMovementFamily,
                                         &Builder::emitCubeFamily,
                                         &Builder::emitSyncFamily);
  if (!status)
    return op->emitOpError() << "is not supported by the simulator yet";
  // The scalar op that defines a float result computes in the result's type.
  if (succeeded(*status) && op->getNumResults() == 1 &&
      program.code.size() == before + 1 && program.code.back().op == sim::Opcode::Scalar &&
      regs.count(op->getResult(0)) && program.code.back().dst == regs[op->getResult(0)])
    roundToResultType(program.code.back(), op->getResult(0).getType());
  return *status;
}

FamilyResult Builder::emitScalarFamily(Operation *op) {
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

  return llvm::TypeSwitch<Operation *, FamilyResult>(op)
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
      .Case<arith::MaximumFOp>([&](auto) { return scalar(sim::ScalarOp::FMax); })
      .Case<arith::MinimumFOp>([&](auto) { return scalar(sim::ScalarOp::FMin); })
      .Case<arith::MaxNumFOp>([&](auto) { return scalar(sim::ScalarOp::FMaxNum); })
      .Case<arith::MinNumFOp>([&](auto) { return scalar(sim::ScalarOp::FMinNum); })
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
      .Case<math::SqrtOp, math::AbsFOp>([&](Operation *o) -> LogicalResult {
        auto a = operand(op, o->getOperand(0));
        if (failed(a))
          return failure();
        sim::Instr &in = add(op, sim::Opcode::Scalar);
        in.scalarOp = isa<math::SqrtOp>(o) ? sim::ScalarOp::FSqrt : sim::ScalarOp::FAbs;
        in.a = *a;
        in.b = sim::Operand::ofImm(0);
        in.dst = regs[o->getResult(0)] = newReg();
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
      .Case<GetSubBlockIdxOp>([&](GetSubBlockIdxOp b) {
        add(op, sim::Opcode::SubBlockIdx).dst = regs[b.getResult()] = newReg();
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
      .Default([](Operation *) { return std::nullopt; });
}

FamilyResult Builder::emitControlFlowFamily(Operation *op) {
  return llvm::TypeSwitch<Operation *, FamilyResult>(op)
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
      .Default([](Operation *) { return std::nullopt; });
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
      roundToResultType(in, arg.getType());
      in.dst = regs[arg] = newReg();
    } else {
      return func.emitOpError() << "argument " << arg.getArgNumber()
                                << " has a type the simulator cannot pass";
    }
    program.args.push_back(spec);
  }
  firstAivOnly = firstVectorCoreOnly(func) && detectKernelType(func) == "MIX";
  if (failed(emitBlock(entry)))
    return failure();
  StringRef kind = detectKernelType(func);
  if (auto attr = func->getAttrOfType<StringAttr>("ascendc.kernel_type"))
    kind = attr.getValue();
  program.kernelType = kind == "AIC_ONLY" ? sim::KernelType::AicOnly
                       : kind == "MIX"    ? sim::KernelType::Mix
                                          : sim::KernelType::AivOnly;
  if (program.kernelType == sim::KernelType::Mix)
    program.vectorCoresPerGroup = vectorCoresPerGroup(func);
  if (program.code.empty() || program.code.back().op != sim::Opcode::End)
    add(nullptr, sim::Opcode::End);
  return std::move(program);
}

} // namespace program_builder

FailureOr<sim::Program> buildSimProgram(func::FuncOp func) {
  program_builder::Builder builder(func);
  return builder.build();
}

} // namespace asc2
