//===- EmitAscendC.cpp - one C++ statement per ascendc op ------------------===//
//
// The kernel's signature and buffers, the walk over its ops, scalar code and
// control flow; emitOp asks each op family (Emitter.h) in turn.
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"

#include "asc2/Dialect/AscendC/Transforms/Passes.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"

#include <map>

using namespace mlir;
using namespace asc2::ascendc;

namespace asc2::ascendc_emitter {

std::string Emitter::cType(Type t) {
  if (t.isF32()) return "float";
  if (t.isF16()) return "half";
  if (t.isBF16()) return "bfloat16_t";
  if (t.isIndex()) return "int64_t";
  if (t.isInteger(1)) return "bool";
  if (t.isSignlessInteger(8)) return "int8_t";
  if (t.isUnsignedInteger(8)) return "uint8_t";
  if (t.isInteger(16)) return "int16_t";
  if (t.isInteger(32)) return "int32_t";
  if (t.isInteger(64)) return "int64_t";
  return "/*unsupported*/ void";
}

std::string Emitter::name(Value v) {
  auto it = names.find(v);
  if (it != names.end())
    return it->second;
  // Constants are printed inline.
  if (auto c = v.getDefiningOp<arith::ConstantOp>()) {
    if (auto i = dyn_cast<IntegerAttr>(c.getValue()))
      return std::to_string(i.getInt());
    if (auto f = dyn_cast<FloatAttr>(c.getValue()))
      return cxxFloatLiteral(f.getValue());
  }
  std::string n = "v" + std::to_string(counter++);
  names[v] = n;
  return n;
}

static std::string tposition(Position p) {
  return ("AscendC::TPosition::" + stringifyPosition(p)).str();
}

/// What ends a statement that names its source line; sourceLinesOfAscendC
/// reads it back.
constexpr llvm::StringLiteral kLineComment = "  // line ";

std::string srcLine(Operation *op) {
  if (auto loc = dyn_cast<FileLineColLoc>(op->getLoc()))
    return (kLineComment + llvm::Twine(loc.getLine())).str();
  return "";
}

/// In a MIX kernel, the core an op runs on ("" = both: scalar work).
static StringRef mixGuard(Operation *op) {
  CoreKind kind = coreKindOf(op);
  if (auto core = op->getAttrOfType<StringAttr>("core"))
    kind = core.getValue() == "cube" ? CoreKind::Cube : CoreKind::Vector;
  return kind == CoreKind::Cube     ? "ASCEND_IS_AIC"
         : kind == CoreKind::Vector ? "ASCEND_IS_AIV"
                                    : "";
}

LogicalResult Emitter::emitBlock(Block &block) {
  for (Operation &op : block) {
    StringRef guard = mix ? mixGuard(&op) : "";
    // The second AIV of a first-AIV-only kernel skips the vector work but
    // keeps the cross-core flags (ops holding one put guards inside).
    bool firstAiv = firstAivOnly && guard == "ASCEND_IS_AIV" && !holdsCrossCoreFlag(&op);
    if (!guard.empty()) {
      line() << "if " << guard << " {\n";
      indent += 2;
    }
    if (firstAiv) {
      line() << "if (AscendC::GetSubBlockIdx() == 0) {\n";
      indent += 2;
    }
    LogicalResult status = emitOp(&op);
    if (firstAiv) {
      indent -= 2;
      line() << "}\n";
    }
    if (!guard.empty()) {
      indent -= 2;
      line() << "}\n";
    }
    if (failed(status))
      return failure();
  }
  return success();
}

LogicalResult Emitter::emitOp(Operation *op) {
  // The families own disjoint sets of ops; the one that claims `op` emits it.
  FamilyResult status = dispatchToFamily(this, op, &Emitter::emitScalarFamily,
                                         &Emitter::emitControlFlowFamily,
                                         &Emitter::emitVectorFamily,
                                         &Emitter::emitShapeFamily,
                                         &Emitter::emitReduceFamily,
                                         &Emitter::emitDataMovementFamily,
                                         &Emitter::emitCubeFamily,
                                         &Emitter::emitSyncFamily,
                                         &Emitter::emitInlineCodeFamily);
  if (!status)
    return op->emitOpError() << "cannot be emitted as Ascend C";
  return *status;
}

FamilyResult Emitter::emitScalarFamily(Operation *op) {
  auto binary = [&](StringRef fn, Value lhs, Value rhs) {
    Value r = op->getResult(0);
    line() << cType(r.getType()) << " " << name(r) << " = " << fn << "("
           << name(lhs) << ", " << name(rhs) << ");\n";
  };
  auto infix = [&](StringRef sym) {
    Value r = op->getResult(0);
    line() << cType(r.getType()) << " " << name(r) << " = " << name(op->getOperand(0))
           << " " << sym << " " << name(op->getOperand(1)) << ";\n";
  };

  return llvm::TypeSwitch<Operation *, FamilyResult>(op)
      .Case<arith::ConstantOp>([&](auto) { return success(); })
      .Case<arith::AddIOp>([&](auto) { infix("+"); return success(); })
      .Case<arith::SubIOp>([&](auto) { infix("-"); return success(); })
      .Case<arith::MulIOp>([&](auto) { infix("*"); return success(); })
      .Case<arith::DivSIOp>([&](auto) { infix("/"); return success(); })
      .Case<arith::RemSIOp>([&](auto) { infix("%"); return success(); })
      .Case<arith::MinSIOp>([&](auto o) { binary("AscendC::Std::min", o.getLhs(), o.getRhs()); return success(); })
      .Case<arith::MaxSIOp>([&](auto o) { binary("AscendC::Std::max", o.getLhs(), o.getRhs()); return success(); })
      .Case<arith::CeilDivSIOp>([&](auto o) {
        line() << "int64_t " << name(o.getResult()) << " = (" << name(o.getLhs())
               << " + " << name(o.getRhs()) << " - 1) / " << name(o.getRhs()) << ";\n";
        return success();
      })
      .Case<arith::CmpIOp>([&](arith::CmpIOp o) {
        const char *sym = "==";
        switch (o.getPredicate()) {
        case arith::CmpIPredicate::eq: sym = "=="; break;
        case arith::CmpIPredicate::ne: sym = "!="; break;
        case arith::CmpIPredicate::slt: case arith::CmpIPredicate::ult: sym = "<"; break;
        case arith::CmpIPredicate::sle: case arith::CmpIPredicate::ule: sym = "<="; break;
        case arith::CmpIPredicate::sgt: case arith::CmpIPredicate::ugt: sym = ">"; break;
        case arith::CmpIPredicate::sge: case arith::CmpIPredicate::uge: sym = ">="; break;
        }
        infix(sym);
        return success();
      })
      .Case<arith::SelectOp>([&](arith::SelectOp o) {
        line() << cType(o.getType()) << " " << name(o.getResult()) << " = "
               << name(o.getCondition()) << " ? " << name(o.getTrueValue())
               << " : " << name(o.getFalseValue()) << ";\n";
        return success();
      })
      .Case<arith::IndexCastOp, arith::ExtSIOp, arith::TruncIOp>([&](Operation *o) {
        line() << cType(o->getResult(0).getType()) << " " << name(o->getResult(0))
               << " = static_cast<" << cType(o->getResult(0).getType()) << ">("
               << name(o->getOperand(0)) << ");\n";
        return success();
      })
      .Case<GetBlockIdxOp>([&](GetBlockIdxOp o) {
        // With two AIVs per group an AIV's GetBlockIdx counts vector cores
        // (block * 2 + sub-block); the group's index is that over
        // GetSubBlockNum (1 on the AIC), as CANN's own MIX kernels compute it.
        line() << "int64_t " << name(o.getResult()) << " = AscendC::GetBlockIdx()"
               << (vectorCores == 2 ? " / AscendC::GetSubBlockNum()" : "") << ";\n";
        return success();
      })
      .Case<GetSubBlockIdxOp>([&](GetSubBlockIdxOp o) {
        line() << "int64_t " << name(o.getResult()) << " = AscendC::GetSubBlockIdx();\n";
        return success();
      })
      .Case<GetBlockNumOp>([&](GetBlockNumOp o) {
        line() << "int64_t " << name(o.getResult()) << " = AscendC::GetBlockNum();\n";
        return success();
      })
      .Case<AllocLocalOp>([&](AllocLocalOp o) {
        auto type = o.getBuffer().getType();
        int64_t offset = o.getOffsetAttr() ? o.getOffsetAttr().getInt() : 0;
        std::string n = o.getNameAttr() ? o.getNameAttr().str() : "buf";
        names[o.getBuffer()] = n + "_" + std::to_string(counter++);
        std::string elem = storageType(type.getElementType());
        // A bit mask holds its bytes.
        int64_t size = type.getElementType().isInteger(1) ? type.getSizeInBytes()
                                                          : type.getNumElements();
        if (staticAlloc)
          line() << "AscendC::LocalTensor<" << elem << "> " << name(o.getBuffer())
                 << "(" << tposition(type.getPosition()) << ", " << offset << ", "
                 << size << ");" << srcLine(o) << "\n";
        else
          line() << "AscendC::LocalTensor<" << elem << "> " << name(o.getBuffer())
                 << " = space" << type.getSpaceName() << ".GetWithOffset<" << elem
                 << ">(" << size << ", " << offset << ");" << srcLine(o) << "\n";
        return success();
      })
      .Case<arith::AddFOp>([&](auto) { infix("+"); return success(); })
      .Case<arith::SubFOp>([&](auto) { infix("-"); return success(); })
      .Case<arith::MulFOp>([&](auto) { infix("*"); return success(); })
      .Case<arith::DivFOp>([&](auto) { infix("/"); return success(); })
      .Case<arith::AndIOp>([&](auto) { infix("&"); return success(); })
      .Case<arith::OrIOp>([&](auto) { infix("|"); return success(); })
      .Case<arith::XOrIOp>([&](auto) { infix("^"); return success(); })
      .Case<arith::ShLIOp>([&](auto) { infix("<<"); return success(); })
      .Case<arith::ShRSIOp>([&](auto) { infix(">>"); return success(); })
      .Case<arith::MaximumFOp, arith::MaxNumFOp, arith::MinimumFOp, arith::MinNumFOp>(
          [&](Operation *o) {
            // Std::max/min are `a > b ? a : b`: NaN survives in one operand
            // order only. Spelled out: maximumf/minimumf propagate a NaN
            // (numpy), maxnumf/minnumf return the other operand (IEEE maxNum).
            bool isMax = isa<arith::MaximumFOp, arith::MaxNumFOp>(o);
            bool propagates = isa<arith::MaximumFOp, arith::MinimumFOp>(o);
            std::string a = name(o->getOperand(0)), b = name(o->getOperand(1));
            Value r = o->getResult(0);
            std::string nanTest = propagates ? a + " != " + a : b + " != " + b;
            line() << cType(r.getType()) << " " << name(r) << " = (" << nanTest << " || " << a
                   << (isMax ? " > " : " < ") << b << ") ? " << a << " : " << b << ";\n";
            return success();
          })
      .Case<math::SqrtOp, math::AbsFOp>([&](Operation *o) {
        // Ascend C's scalar sqrt and abs (utils/std/cmath.h) take float.
        Value r = o->getResult(0);
        std::string fn = isa<math::SqrtOp>(o) ? "AscendC::Std::sqrt" : "AscendC::Std::abs";
        std::string arg = name(o->getOperand(0));
        if (r.getType().isF32())
          line() << "float " << name(r) << " = " << fn << "(" << arg << ");\n";
        else
          line() << cType(r.getType()) << " " << name(r) << " = static_cast<" << cType(r.getType())
                 << ">(" << fn << "(static_cast<float>(" << arg << ")));\n";
        return success();
      })
      .Case<arith::NegFOp>([&](arith::NegFOp o) {
        line() << cType(o.getType()) << " " << name(o.getResult()) << " = -"
               << name(o.getOperand()) << ";\n";
        return success();
      })
      .Case<arith::CmpFOp>([&](arith::CmpFOp o) {
        const char *sym = "==";
        switch (o.getPredicate()) {
        case arith::CmpFPredicate::OLT: case arith::CmpFPredicate::ULT: sym = "<"; break;
        case arith::CmpFPredicate::OLE: case arith::CmpFPredicate::ULE: sym = "<="; break;
        case arith::CmpFPredicate::OGT: case arith::CmpFPredicate::UGT: sym = ">"; break;
        case arith::CmpFPredicate::OGE: case arith::CmpFPredicate::UGE: sym = ">="; break;
        case arith::CmpFPredicate::ONE: case arith::CmpFPredicate::UNE: sym = "!="; break;
        default: break;
        }
        infix(sym);
        return success();
      })
      .Case<arith::SIToFPOp, arith::FPToSIOp, arith::ExtFOp, arith::TruncFOp, arith::ExtUIOp>(
          [&](Operation *o) {
            line() << cType(o->getResult(0).getType()) << " " << name(o->getResult(0))
                   << " = static_cast<" << cType(o->getResult(0).getType()) << ">("
                   << name(o->getOperand(0)) << ");\n";
            return success();
          })
      .Default([](Operation *) { return std::nullopt; });
}

FamilyResult Emitter::emitControlFlowFamily(Operation *op) {
  return llvm::TypeSwitch<Operation *, FamilyResult>(op)
      .Case<scf::IfOp>([&](scf::IfOp i) -> LogicalResult {
        for (Value r : i.getResults())
          line() << cType(r.getType()) << " " << name(r) << ";\n";
        line() << "if (" << name(i.getCondition()) << ") {\n";
        indent += 2;
        if (failed(emitBlock(*i.thenBlock())))
          return failure();
        for (auto [r, v] : llvm::zip(i.getResults(), i.thenYield().getOperands()))
          line() << name(r) << " = " << name(v) << ";\n";
        indent -= 2;
        if (i.elseBlock()) {
          line() << "} else {\n";
          indent += 2;
          if (failed(emitBlock(*i.elseBlock())))
            return failure();
          for (auto [r, v] : llvm::zip(i.getResults(), i.elseYield().getOperands()))
            line() << name(r) << " = " << name(v) << ";\n";
          indent -= 2;
        }
        line() << "}\n";
        return success();
      })
      .Case<scf::ForOp>([&](scf::ForOp f) {
        // Loop-carried values: one variable each, also the loop's results.
        for (auto [arg, init, res] :
             llvm::zip(f.getRegionIterArgs(), f.getInitArgs(), f.getResults())) {
          line() << cType(arg.getType()) << " " << name(arg) << " = "
                 << name(init) << ";\n";
          names[res] = name(arg);
        }
        std::string iv = name(f.getInductionVar());
        line() << "for (int64_t " << iv << " = " << name(f.getLowerBound())
               << "; " << iv << " < " << name(f.getUpperBound()) << "; " << iv
               << " += " << name(f.getStep()) << ") {" << srcLine(f) << "\n";
        indent += 2;
        if (failed(emitBlock(*f.getBody())))
          return failure();
        auto yield = cast<scf::YieldOp>(f.getBody()->getTerminator());
        SmallVector<std::string> tmps;
        for (Value v : yield.getOperands()) {
          std::string t = "t" + std::to_string(counter++);
          line() << "auto " << t << " = " << name(v) << ";\n";
          tmps.push_back(t);
        }
        for (auto [arg, t] : llvm::zip(f.getRegionIterArgs(), tmps))
          line() << name(arg) << " = " << t << ";\n";
        indent -= 2;
        line() << "}\n";
        return success();
      })
      .Case<scf::YieldOp, func::ReturnOp>([&](auto) { return success(); })
      .Default([](Operation *) { return std::nullopt; });
}

LogicalResult Emitter::emitFunc(func::FuncOp func) {
  emitFileScopeCode(func);
  os << "extern \"C\" __global__ __aicore__ void " << kernelSymbol(func.getName()) << "(";
  Block &entry = func.getBody().front();
  for (BlockArgument arg : entry.getArguments()) {
    if (arg.getArgNumber())
      os << ", ";
    if (isa<GlobalType>(arg.getType()))
      os << "GM_ADDR a" << arg.getArgNumber();
    else
      os << cType(arg.getType()) << " " << name(arg);
  }
  os << ")\n{\n";
  StringRef kernelType = detectKernelType(func);
  if (auto attr = func->getAttrOfType<StringAttr>("ascendc.kernel_type"))
    kernelType = attr.getValue();
  mix = kernelType == "MIX";
  vectorCores = mix ? vectorCoresPerGroup(func) : 1;
  firstAivOnly = mix && firstVectorCoreOnly(func);
  os << "  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_" << kernelType
     << (!mix ? "" : vectorCores == 2 ? "_AIC_1_2" : "_AIC_1_1") << ");\n";
  if (!staticAlloc) {
    // One TBuf per memory space, as large as the planned peak.
    std::map<std::string, std::pair<int64_t, std::string>> spaces;
    func.walk([&](AllocLocalOp a) {
      auto type = a.getBuffer().getType();
      int64_t end = (a.getOffsetAttr() ? a.getOffsetAttr().getInt() : 0) +
                    (type.getSizeInBytes() + 31) / 32 * 32;
      auto &entry = spaces[type.getSpaceName().str()];
      entry.first = std::max(entry.first, end);
      entry.second = type.getSpaceName() == "UB" ? "VECCALC"
                     : type.getSpaceName() == "L1" ? "A1"
                     : type.getSpaceName() == "L0A" ? "A2"
                     : type.getSpaceName() == "L0B" ? "B2"
                     : type.getSpaceName() == "BT" ? "C2" : "CO1";
    });
    if (!spaces.empty())
      os << "  AscendC::TPipe pipe;\n";
    for (auto &[space, entry] : spaces) {
      os << "  AscendC::TBuf<AscendC::TPosition::" << entry.second << "> space"
         << space << ";\n";
      os << "  pipe.InitBuffer(space" << space << ", " << entry.first << ");\n";
    }
    tpipe = !spaces.empty();
  }
  // Without a TPipe (static-tensor code) the kernel itself initialises the
  // global state registers at entry and drains every pipe before it returns,
  // as the static-tensor guide requires (mirror-cann/asc-devkit@82b89a15f:
  // docs/zh/guide/编程指南/编程模型/AI-Core-SIMD编程/基于Tensor的CPP编程/
  // 静态Tensor编程.md, 约束说明); a TPipe does both in its constructor and
  // destructor (impl/basic_api/kernel_tpipe_impl.h), on c220 and c310 alike.
  if (tpipe)
    emitEventAllocs(func);
  else
    os << "  AscendC::InitSocState();\n";
  for (BlockArgument arg : entry.getArguments())
    if (auto gm = dyn_cast<GlobalType>(arg.getType())) {
      std::string elem = storageType(gm.getElementType());
      names[arg] = "gm" + std::to_string(arg.getArgNumber());
      os << "  AscendC::GlobalTensor<" << elem << "> " << names[arg] << ";\n";
      os << "  " << names[arg] << ".SetGlobalBuffer((__gm__ " << elem << " *)a"
         << arg.getArgNumber() << ");\n";
    }
  if (failed(emitBlock(entry)))
    return failure();
  if (tpipe)
    emitEventReleases();
  else
    os << "  AscendC::PipeBarrier<PIPE_ALL>();\n";
  os << "}\n";
  return success();
}

} // namespace asc2::ascendc_emitter

namespace asc2 {
LogicalResult emitAscendC(ModuleOp module, StringRef socVersion,
                          bool staticAlloc, raw_ostream &os) {
  bool bufIds = false;
  module.walk([&](GetBufOp) { bufIds = true; });
  os << "// Generated by asc2 for " << socVersion << ". "
     << (staticAlloc ? "Static UB addresses" : "TPipe-managed buffers at planned offsets")
     << (bufIds ? "; buffer ids (Mutex) inserted by ascendc-insert-buf-id-sync.\n"
                : "; flags inserted by ascendc-insert-sync.\n");
  os << "#include \"kernel_operator.h\"\n";
  // Scalar sqrt/abs are AscendC::Std's, which kernel_operator.h does not pull in.
  bool scalarMath = false;
  module.walk([&](Operation *op) {
    if (isa<math::SqrtOp, math::AbsFOp>(op) && !isa<ShapedType>(op->getResult(0).getType()))
      scalarMath = true;
  });
  if (scalarMath)
    os << "#include \"utils/std/cmath.h\"\n";
  os << "\n";
  // A Fixpipe into UB takes a FixpipeConfig with isToUB = true, which the
  // headers do not predefine (mirror-cann/asc-devkit@82b89a15f: docs/zh/api/
  // SIMD-API/基础API/矩阵计算（ISASI）/矩阵计算的搬出/Fixpipe（L0C到UB数据搬运）.md).
  bool toUb = false;
  module.walk([&](FixpipeUbOp) { toUb = true; });
  if (toUb)
    os << "constexpr AscendC::FixpipeConfig " << ascendc_emitter::kFixpipeToUbConfig
       << " = {AscendC::CO2Layout::ROW_MAJOR, true};\n\n";
  for (auto func : module.getOps<func::FuncOp>()) {
    ascendc_emitter::Emitter emitter(os, staticAlloc, socVersion);
    if (failed(emitter.emitFunc(func)))
      return failure();
    os << "\n";
  }
  return success();
}

std::vector<int> sourceLinesOfAscendC(StringRef source) {
  std::vector<int> lines;
  SmallVector<StringRef> text;
  source.split(text, '\n');
  lines.reserve(text.size());
  for (StringRef l : text) {
    int line = 0;
    size_t at = l.rfind(ascendc_emitter::kLineComment);
    if (at != StringRef::npos &&
        l.drop_front(at + ascendc_emitter::kLineComment.size()).trim().getAsInteger(10, line))
      line = 0;
    lines.push_back(line);
  }
  return lines;
}
} // namespace asc2
