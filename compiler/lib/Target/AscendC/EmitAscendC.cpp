//===- EmitAscendC.cpp - one C++ statement per ascendc op ------------------===//
#include "asc2/Target/AscendC/EmitAscendC.h"

#include "asc2/Dialect/AscendC/IR/AscendC.h"
#include "asc2/Dialect/AscendC/Transforms/Passes.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"

#include <cstdio>
#include <map>

using namespace mlir;
using namespace asc2::ascendc;

namespace {

/// A C++ literal for a float that reads back to the same value.
std::string floatLiteral(double v) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.9g", v);
  std::string s = buf;
  if (s.find_first_of(".eEn") == std::string::npos)
    s += ".0";
  return s + "f";
}

class Emitter {
public:
  Emitter(raw_ostream &os, bool staticAlloc) : os(os), staticAlloc(staticAlloc) {}
  LogicalResult emitFunc(func::FuncOp func);

private:
  LogicalResult emitOp(Operation *op);
  LogicalResult emitBlock(Block &block);
  /// Under asc2.mask: the level-0 form of a vector call (`call` up to its
  /// mask argument) between the mask setup and ResetMask; false when `op`
  /// is not masked. Bit masks set the 128-bit lane mask in normal mode and
  /// run whole repeats of `repeatType`; count masks use counter mode.
  bool emitMasked(Operation *op, Type repeatType, ValueRange bits, Value count,
                  const std::string &call, StringRef params);
  std::string name(Value v);
  std::string cType(Type t);
  raw_ostream &line() {
    os.indent(indent);
    return os;
  }

  raw_ostream &os;
  bool staticAlloc;
  bool mix = false; // MIX kernel: core-specific ops run under ASCEND_IS_AIC/AIV
  unsigned indent = 2;
  llvm::DenseMap<Value, std::string> names;
  unsigned counter = 0;
};

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
      return floatLiteral(f.getValueAsDouble());
  }
  std::string n = "v" + std::to_string(counter++);
  names[v] = n;
  return n;
}

static std::string hardEvent(Pipe src, Pipe dst) {
  return std::string("AscendC::HardEvent::") + pipeName(src) + "_" + pipeName(dst);
}

static std::string tposition(Position p) {
  return ("AscendC::TPosition::" + stringifyPosition(p)).str();
}

static std::string srcLine(Operation *op) {
  if (auto loc = dyn_cast<FileLineColLoc>(op->getLoc()))
    return llvm::formatv("  // line {0}", loc.getLine()).str();
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

bool Emitter::emitMasked(Operation *op, Type repeatType, ValueRange bits,
                         Value count, const std::string &call, StringRef params) {
  bool counter = op->hasAttr("asc2.counter_mask");
  if (bits.empty() && !counter)
    return false;
  std::string t = cType(repeatType);
  if (counter) {
    line() << "AscendC::SetMaskCount();\n";
    line() << "AscendC::SetVectorMask<" << t << ", AscendC::MaskMode::COUNTER>(0, "
           << "static_cast<uint64_t>(" << name(count) << "));  // asc2.mask(count=...)\n";
    line() << call << ", AscendC::MASK_PLACEHOLDER, 1, " << params << ");" << srcLine(op)
           << "\n";
    line() << "AscendC::SetMaskNorm();\n";
  } else {
    line() << "AscendC::SetMaskNorm();\n";
    auto half = [&](Value v) -> std::string {
      if (auto c = v.getDefiningOp<arith::ConstantOp>())
        if (auto i = dyn_cast<IntegerAttr>(c.getValue()))
          return llvm::formatv("{0:x16}ULL", uint64_t(i.getInt())).str();
      return "static_cast<uint64_t>(" + name(v) + ")";
    };
    line() << "AscendC::SetVectorMask<" << t << ", AscendC::MaskMode::NORMAL>("
           << half(bits[0]) << ", " << half(bits[1]) << ");  // asc2.mask(bits=...)\n";
    line() << call << ", AscendC::MASK_PLACEHOLDER, static_cast<uint8_t>(("
           << name(count) << " * sizeof(" << t << ") + 255) / 256), " << params << ");"
           << srcLine(op) << "\n";
  }
  line() << "AscendC::ResetMask();\n";
  return true;
}

LogicalResult Emitter::emitBlock(Block &block) {
  for (Operation &op : block) {
    StringRef guard = mix ? mixGuard(&op) : "";
    if (!guard.empty()) {
      line() << "if " << guard << " {\n";
      indent += 2;
    }
    LogicalResult status = emitOp(&op);
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
  // The three forms of elementwise vector op, one API call each.
  auto emitBinary = [&](auto o) {
    Type elem = o.getDst().getType().getElementType();
    if (emitMasked(o, elem, o.getBits(), o.getCount(),
                   "AscendC::" + o.getApiName().str() + "<" + cType(elem) + ", false>(" +
                       name(o.getDst()) + ", " + name(o.getSrc0()) + ", " +
                       name(o.getSrc1()),
                   "AscendC::BinaryRepeatParams{1, 1, 1, 8, 8, 8}"))
      return success();
    line() << "AscendC::" << o.getApiName() << "(" << name(o.getDst()) << ", "
           << name(o.getSrc0()) << ", " << name(o.getSrc1()) << ", "
           << name(o.getCount()) << ");" << srcLine(o) << "\n";
    return success();
  };
  auto emitScalarForm = [&](auto o) {
    std::string elem = cType(o.getDst().getType().getElementType());
    std::string scalar = "static_cast<" + elem + ">(" + name(o.getScalar()) + ")";
    if (o.getScalarFirst())
      line() << "// scalar on the left: " << o.getApiName() << "(s, x)\n";
    if (emitMasked(o, o.getDst().getType().getElementType(), o.getBits(), o.getCount(),
                   "AscendC::" + o.getApiName().str() + "<" + elem + ", false>(" +
                       name(o.getDst()) + ", " + name(o.getSrc()) + ", " + scalar,
                   "AscendC::UnaryRepeatParams{1, 1, 8, 8}"))
      return success();
    line() << "AscendC::" << o.getApiName() << "(" << name(o.getDst()) << ", "
           << name(o.getSrc()) << ", " << scalar << ", " << name(o.getCount())
           << ");" << srcLine(o) << "\n";
    return success();
  };
  auto emitUnary = [&](auto o) {
    Type elem = o.getDst().getType().getElementType();
    if (emitMasked(o, elem, o.getBits(), o.getCount(),
                   "AscendC::" + o.getApiName().str() + "<" + cType(elem) + ", false>(" +
                       name(o.getDst()) + ", " + name(o.getSrc()),
                   "AscendC::UnaryRepeatParams{1, 1, 8, 8}"))
      return success();
    line() << "AscendC::" << o.getApiName() << "(" << name(o.getDst()) << ", "
           << name(o.getSrc()) << ", " << name(o.getCount()) << ");"
           << srcLine(o) << "\n";
    return success();
  };

  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
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
        line() << "int64_t " << name(o.getResult()) << " = AscendC::GetBlockIdx();\n";
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
        std::string elem = cType(type.getElementType());
        if (staticAlloc)
          line() << "AscendC::LocalTensor<" << elem << "> " << name(o.getBuffer())
                 << "(" << tposition(type.getPosition()) << ", " << offset << ", "
                 << type.getNumElements() << ");" << srcLine(o) << "\n";
        else
          line() << "AscendC::LocalTensor<" << elem << "> " << name(o.getBuffer())
                 << " = space" << type.getSpaceName() << ".GetWithOffset<" << elem
                 << ">(" << type.getNumElements() << ", " << offset << ");"
                 << srcLine(o) << "\n";
        return success();
      })
      .Case<DataCopyInOp>([&](DataCopyInOp o) {
        auto type = o.getDst().getType();
        std::string elem = cType(type.getElementType());
        if (type.getSpaceName() == "L1" && o->hasAttr("nd")) {
          // A bias row, kept as it is in L1.
          line() << "AscendC::DataCopy(" << name(o.getDst()) << ", " << name(o.getSrc()) << "["
                 << name(o.getOffset()) << "], " << type.getNumElements() << ");" << srcLine(o) << "\n";
          return success();
        }
        if (type.getSpaceName() == "L1") {
          // GM (ND) -> L1 (NZ) on MTE2; missing rows/cols are zeroed first.
          int64_t rows = type.getShape()[0];
          int64_t c0 = 32 / std::max<int64_t>(1, type.getSizeInBytes() / type.getNumElements());
          line() << "{\n";
          indent += 2;
          line() << "uint16_t r = static_cast<uint16_t>(" << name(o.getRows()) << ");\n";
          line() << "uint16_t c = static_cast<uint16_t>(" << name(o.getCount()) << ");\n";
          line() << "if (r < " << rows << " || c < " << type.getShape()[1] << ") {\n";
          line() << "  AscendC::InitConstValue(" << name(o.getDst())
                 << ", AscendC::InitConstValueParams<" << elem << ">{1, static_cast<uint16_t>("
                 << type.getSizeInBytes() / 32 << "), 0, static_cast<" << elem << ">(0)});\n";
          line() << "  AscendC::PipeBarrier<PIPE_ALL>();\n";
          line() << "}\n";
          line() << "AscendC::Nd2NzParams nd2nz{1, r, c, 0, static_cast<uint16_t>("
                 << name(o.getRowStride()) << "), " << rows << ", 1, 0}; // C0 = "
                 << c0 << "\n";
          line() << "AscendC::DataCopy(" << name(o.getDst()) << ", " << name(o.getSrc())
                 << "[" << name(o.getOffset()) << "], nd2nz);" << srcLine(o) << "\n";
          indent -= 2;
          line() << "}\n";
          return success();
        }
        std::string pad = "0";
        if (auto p = o.getPadValueAttr()) {
          if (auto f = dyn_cast<FloatAttr>(p))
            pad = floatLiteral(f.getValueAsDouble());
          else if (auto i = dyn_cast<IntegerAttr>(p))
            pad = std::to_string(i.getInt());
        }
        // DataCopyPad pads the last 32-byte block; a partial tile's tail
        // beyond it is filled on the vector pipe, ordered by a full barrier
        // (only the last, partial tile of a tensor takes that branch).
        int64_t perBlock = 32 / std::max<int64_t>(1, type.getSizeInBytes() /
                                                         type.getNumElements());
        std::string n = name(o.getCount());
        line() << "{\n";
        indent += 2;
        line() << "uint32_t n = static_cast<uint32_t>(" << n << ");\n";
        line() << "uint8_t right = static_cast<uint8_t>((" << perBlock
               << " - n % " << perBlock << ") % " << perBlock << ");\n";
        std::string blocks = o.getRows() ? "static_cast<uint16_t>(" + name(o.getRows()) + ")" : "1";
        std::string srcGap = o.getRows()
            ? "static_cast<uint32_t>((" + name(o.getRowStride()) + " - n) * sizeof(" + elem + "))"
            : "0";
        std::string dstGap = o.getRows()
            ? "static_cast<uint32_t>((" + std::to_string(type.getShape().back()) + " - n - right) * sizeof(" + elem + ") / 32)"
            : "0";
        line() << "AscendC::DataCopyPad(" << name(o.getDst()) << ", "
               << name(o.getSrc()) << "[" << name(o.getOffset())
               << "], AscendC::DataCopyExtParams{" << blocks
               << ", static_cast<uint32_t>(n * sizeof(" << elem << ")), " << srcGap
               << ", " << dstGap << ", 0}, AscendC::DataCopyPadExtParams<" << elem
               << ">{true, 0, right, static_cast<" << elem << ">(" << pad << ")});"
               << srcLine(o) << "\n";
        line() << "uint32_t padded = n + right;\n";
        line() << "if (padded < " << type.getNumElements() << ") {\n";
        line() << "  AscendC::PipeBarrier<PIPE_ALL>();\n";
        line() << "  AscendC::Duplicate(" << name(o.getDst()) << "[padded], static_cast<"
               << elem << ">(" << pad << "), " << type.getNumElements()
               << " - padded);\n";
        line() << "  AscendC::PipeBarrier<PIPE_ALL>();\n";
        line() << "}\n";
        indent -= 2;
        line() << "}\n";
        return success();
      })
      .Case<LoadDataOp>([&](LoadDataOp o) {
        // One LoadData2D per 16-row band of fractals: L1 NZ -> L0A ZZ / L0B ZN.
        auto dst = o.getDst().getType(), src = o.getSrc().getType();
        int64_t c0 = 32 / std::max<int64_t>(1, dst.getSizeInBytes() / dst.getNumElements());
        int64_t bands = dst.getShape()[0] / 16;
        int64_t perBand = dst.getShape()[1] / c0;
        int64_t srcBand = src.getShape()[0] / 16;
        bool right = dst.getSpaceName() == "L0B";
        // {transpose}: dst band `band` is source column block col/C0 + band,
        // its fractals consecutive source row blocks, each transposed.
        bool transpose = o.getTranspose();
        // The origin's fractal row / column block: static, or runtime (at [r, c]).
        std::string rowBlock = std::to_string(o.getRow() / 16);
        std::string colBlock = std::to_string(o.getCol() / c0);
        if (!o.getOrigin().empty()) {
          rowBlock = "(" + name(o.getOrigin()[0]) + ") / 16";
          colBlock = "(" + name(o.getOrigin()[1]) + ") / " + std::to_string(c0);
        }
        line() << "for (int band = 0; band < " << bands << "; ++band) {\n";
        line() << "  AscendC::LoadData2DParams p;\n";
        if (transpose)
          line() << "  p.startIndex = static_cast<uint16_t>((" << colBlock << " + band) * "
                 << srcBand << " + " << rowBlock << ");\n";
        else
          line() << "  p.startIndex = static_cast<uint16_t>((" << colBlock << ") * "
                 << srcBand << " + " << rowBlock << " + band);\n";
        line() << "  p.repeatTimes = " << perBand << ";\n";
        line() << "  p.srcStride = " << (transpose ? 1 : srcBand) << ";\n";
        line() << "  p.ifTranspose = " << (right != transpose ? "true" : "false") << ";\n";
        line() << "  AscendC::LoadData(" << name(o.getDst()) << "[band * " << perBand * 16 * c0
               << "], " << name(o.getSrc()) << ", p);" << srcLine(o) << "\n";
        line() << "}\n";
        return success();
      })
      .Case<MmadOp>([&](MmadOp o) {
        auto a = o.getLhs().getType(), b = o.getRhs().getType();
        bool hf32 = o.getHf32();
        if (hf32)
          line() << "AscendC::SetHF32Mode(true);\n";
        line() << "AscendC::Mmad(" << name(o.getDst()) << ", " << name(o.getLhs()) << ", "
               << name(o.getRhs()) << (o.getBias() ? ", " + name(o.getBias()) : std::string())
               << ", AscendC::MmadParams{" << a.getShape()[0] << ", "
               << b.getShape()[1] << ", " << a.getShape()[1] << ", 0, false, "
               << "static_cast<bool>(" << name(o.getInit()) << ")});" << srcLine(o) << "\n";
        if (hf32)
          line() << "AscendC::SetHF32Mode(false);\n";
        return success();
      })
      .Case<FixpipeL1Op>([&](FixpipeL1Op o) {
        auto src = o.getSrc().getType();
        std::string out = cType(o.getDst().getType().getElementType());
        std::string in = cType(src.getElementType());
        std::string quant = out == in ? "NoQuant" : out == "half" ? "F322F16" : "F322BF16";
        line() << "{\n";
        indent += 2;
        line() << "AscendC::FixpipeParamsV220 p;\n";
        line() << "p.nSize = " << src.getShape()[1] << ";\n";
        line() << "p.mSize = " << src.getShape()[0] << ";\n";
        line() << "p.srcStride = " << src.getShape()[0] << ";\n";
        line() << "p.dstStride = " << src.getShape()[0] << ";\n";
        line() << "p.quantPre = QuantMode_t::" << quant << ";\n";
        line() << "p.reluEn = " << (o.getRelu() ? "true" : "false") << ";\n";
        line() << "AscendC::Fixpipe<" << out << ", " << in << ", AscendC::CFG_NZ>(" << name(o.getDst())
               << ", " << name(o.getSrc()) << ", p);" << srcLine(o) << "\n";
        indent -= 2;
        line() << "}\n";
        return success();
      })
      .Case<CopyBiasOp>([&](CopyBiasOp o) {
        std::string src = name(o.getSrc());
        if (Value off = o.getOffset())
          src += "[" + name(off) + "]";
        line() << "AscendC::DataCopy(" << name(o.getDst()) << ", " << src << ", "
               << o.getDst().getType().getNumElements() << ");" << srcLine(o) << "\n";
        return success();
      })
      .Case<FixpipeOp>([&](FixpipeOp o) {
        auto src = o.getSrc().getType();
        std::string out = cType(o.getDst().getType().getElementType());
        std::string in = cType(src.getElementType());
        std::string quant = out == in ? "NoQuant" : out == "half" ? "F322F16" : "F322BF16";
        auto atomic = o.getAtomic();
        if (atomic != AtomicKind::NONE)
          line() << "AscendC::SetAtomic"
                 << (atomic == AtomicKind::ADD ? "Add" : atomic == AtomicKind::MAX ? "Max" : "Min")
                 << "<" << out << ">();\n";
        line() << "{\n";
        indent += 2;
        line() << "AscendC::FixpipeParamsV220 p;\n";
        line() << "p.nSize = static_cast<uint16_t>(" << name(o.getCount()) << ");\n";
        line() << "p.mSize = static_cast<uint16_t>(" << name(o.getRows()) << ");\n";
        line() << "p.srcStride = " << src.getShape()[0] << ";\n";
        line() << "p.dstStride = static_cast<uint32_t>(" << name(o.getRowStride()) << ");\n";
        line() << "p.quantPre = QuantMode_t::" << quant << ";\n";
        line() << "p.reluEn = " << (o.getRelu() ? "true" : "false") << ";\n";
        line() << "AscendC::Fixpipe<" << out << ", " << in << ", AscendC::CFG_ROW_MAJOR>("
               << name(o.getDst()) << "[" << name(o.getOffset()) << "], " << name(o.getSrc())
               << ", p);" << srcLine(o) << "\n";
        indent -= 2;
        line() << "}\n";
        if (atomic != AtomicKind::NONE)
          line() << "AscendC::SetAtomicNone();\n";
        return success();
      })
      .Case<DataCopyOutOp>([&](DataCopyOutOp o) {
        std::string elem = cType(o.getSrc().getType().getElementType());
        auto atomic = o.getAtomic();
        if (atomic != AtomicKind::NONE)
          line() << "AscendC::SetAtomic"
                 << (atomic == AtomicKind::ADD ? "Add" : atomic == AtomicKind::MAX ? "Max" : "Min")
                 << "<" << elem << ">();\n";
        std::string blocks = o.getRows() ? "static_cast<uint16_t>(" + name(o.getRows()) + ")" : "1";
        int64_t cols = o.getSrc().getType().getShape().back();
        std::string srcGap = o.getRows()
            ? "static_cast<uint32_t>((" + std::to_string(cols) + " - " + name(o.getCount()) + ") * sizeof(" + elem + ") / 32)"
            : "0";
        std::string dstGap = o.getRows()
            ? "static_cast<uint32_t>((" + name(o.getRowStride()) + " - " + name(o.getCount()) + ") * sizeof(" + elem + "))"
            : "0";
        line() << "AscendC::DataCopyPad(" << name(o.getDst()) << "["
               << name(o.getOffset()) << "], " << name(o.getSrc())
               << ", AscendC::DataCopyExtParams{" << blocks << ", static_cast<uint32_t>("
               << name(o.getCount()) << " * sizeof(" << elem << ")), " << srcGap << ", "
               << dstGap << ", 0});" << srcLine(o) << "\n";
        if (atomic != AtomicKind::NONE)
          line() << "AscendC::SetAtomicNone();\n";
        return success();
      })
      .Case<FloorDivOp>([&](FloorDivOp o) {
        Type elem = o.getDst().getType().getElementType();
        if (emitMasked(o, elem, o.getBits(), o.getCount(),
                       "AscendC::Div<" + cType(elem) + ", false>(" + name(o.getDst()) +
                           ", " + name(o.getSrc0()) + ", " + name(o.getSrc1()),
                       "AscendC::BinaryRepeatParams{1, 1, 1, 8, 8, 8}")) {
          line() << "AscendC::PipeBarrier<PIPE_V>();\n";
          emitMasked(o, elem, o.getBits(), o.getCount(),
                     "AscendC::Floor<" + cType(elem) + ", false>(" + name(o.getDst()) +
                         ", " + name(o.getDst()),
                     "AscendC::UnaryRepeatParams{1, 1, 8, 8}");
          return success();
        }
        line() << "AscendC::Div(" << name(o.getDst()) << ", " << name(o.getSrc0())
               << ", " << name(o.getSrc1()) << ", " << name(o.getCount()) << ");"
               << srcLine(o) << "\n";
        line() << "AscendC::PipeBarrier<PIPE_V>();\n";
        line() << "AscendC::Floor(" << name(o.getDst()) << ", " << name(o.getDst())
               << ", " << name(o.getCount()) << ");  // floor division\n";
        return success();
      })
      // The elementwise vector ops, from their records (AscendCOps.td).
#define ASC2_VEC_BINARY(Op, ScalarForm, SimOp) .Case<Op>(emitBinary)
#define ASC2_VEC_SCALAR(Op, SimOp) .Case<Op>(emitScalarForm)
#define ASC2_VEC_UNARY(Op, SimOp) .Case<Op>(emitUnary)
#include "asc2/Dialect/AscendC/IR/AscendCVecOpDispatch.inc"
      .Case<CastOp>([&](CastOp o) {
        Type d = o.getDst().getType().getElementType(), sTy = o.getSrc().getType().getElementType();
        // Repeat strides in 32-byte blocks: 8 for the wider type.
        unsigned db = d.getIntOrFloatBitWidth(), sb = sTy.getIntOrFloatBitWidth();
        unsigned wide = std::max(db, sb);
        int64_t dBlocks = 8 * db / wide, sBlocks = 8 * sb / wide;
        if (emitMasked(o, db >= sb ? d : sTy, o.getBits(), o.getCount(),
                       "AscendC::Cast<" + cType(d) + ", " + cType(sTy) + ", false>(" +
                           name(o.getDst()) + ", " + name(o.getSrc()) +
                           ", AscendC::RoundMode::" + stringifyRoundMode(o.getRoundMode()).str(),
                       "AscendC::UnaryRepeatParams{1, 1, " + std::to_string(dBlocks) + ", " +
                           std::to_string(sBlocks) + "}"))
          return success();
        line() << "AscendC::Cast(" << name(o.getDst()) << ", " << name(o.getSrc())
               << ", AscendC::RoundMode::" << stringifyRoundMode(o.getRoundMode())
               << ", " << name(o.getCount()) << ");" << srcLine(o) << "\n";
        return success();
      })
      .Case<CompareOp>([&](CompareOp o) {
        bool scalar = !isa<LocalType>(o.getRhs().getType());
        Type elem = o.getLhs().getType().getElementType();
        if (emitMasked(o, elem, o.getBits(), o.getCount(),
                       std::string("AscendC::Compare") + (scalar ? "Scalar" : "") + "<" +
                           cType(elem) + ", uint8_t, false>(" + name(o.getDst()) + ", " +
                           name(o.getLhs()) + ", " + name(o.getRhs()) +
                           ", AscendC::CMPMODE::" + stringifyCmpMode(o.getMode()).str(),
                       scalar ? "AscendC::UnaryRepeatParams{1, 1, 8, 8}"
                              : "AscendC::BinaryRepeatParams{1, 1, 1, 8, 8, 8}"))
          return success();
        line() << "AscendC::Compare" << (scalar ? "Scalar" : "") << "("
               << name(o.getDst()) << ", " << name(o.getLhs()) << ", "
               << name(o.getRhs()) << ", AscendC::CMPMODE::"
               << stringifyCmpMode(o.getMode()) << ", " << name(o.getCount())
               << ");" << srcLine(o) << "\n";
        return success();
      })
      .Case<SelectOp>([&](SelectOp o) {
        bool scalar = !isa<LocalType>(o.getFalseValue().getType());
        Type elem = o.getDst().getType().getElementType();
        if (emitMasked(o, elem, o.getBits(), o.getCount(),
                       "AscendC::Select<" + cType(elem) + ", uint8_t, false>(" +
                           name(o.getDst()) + ", " + name(o.getMask()) + ", " +
                           name(o.getTrueValue()) + ", " + name(o.getFalseValue()) +
                           ", AscendC::SELMODE::" +
                           (scalar ? "VSEL_TENSOR_SCALAR_MODE" : "VSEL_TENSOR_TENSOR_MODE"),
                       "AscendC::BinaryRepeatParams{1, 1, 1, 8, 8, 8}"))
          return success();
        line() << "AscendC::Select(" << name(o.getDst()) << ", " << name(o.getMask())
               << ", " << name(o.getTrueValue()) << ", " << name(o.getFalseValue())
               << ", AscendC::SELMODE::"
               << (scalar ? "VSEL_TENSOR_SCALAR_MODE" : "VSEL_TENSOR_TENSOR_MODE")
               << ", " << name(o.getCount()) << ");" << srcLine(o) << "\n";
        return success();
      })
      .Case<ReduceOp>([&](ReduceOp o) {
        StringRef kind = stringifyReduceKind(o.getKind());
        std::string fn = kind == "SUM" ? "Sum" : kind == "MAX" ? "Max" : kind == "MIN" ? "Min" : "Prod";
        if (o.getAxis() == 1)
          line() << "AscendC::WholeReduce" << fn << "(" << name(o.getDst()) << ", "
                 << name(o.getSrc()) << ", " << name(o.getRows()) << ", "
                 << name(o.getCols()) << ");  // one result per row" << srcLine(o) << "\n";
        else
          line() << "AscendC::Reduce" << fn << "Columns(" << name(o.getDst()) << ", "
                 << name(o.getSrc()) << ", " << name(o.getRows()) << ", "
                 << name(o.getCols()) << ");  // one result per column" << srcLine(o) << "\n";
        return success();
      })
      .Case<TransposeOp>([&](TransposeOp o) {
        if (o.getBatch() > 1) {
          // One rows x cols matrix after another.
          int64_t elems = o.getSrc().getType().getNumElements() / o.getBatch();
          line() << "for (int32_t b = 0; b < " << o.getBatch() << "; ++b) {\n";
          line() << "  AscendC::Transpose(" << name(o.getDst()) << "[b * " << elems
                 << "], " << name(o.getSrc()) << "[b * " << elems << "], {"
                 << name(o.getRows()) << ", " << name(o.getCols())
                 << "});  // rows x cols -> cols x rows" << srcLine(o) << "\n";
          line() << "}\n";
          return success();
        }
        line() << "AscendC::Transpose(" << name(o.getDst()) << ", " << name(o.getSrc())
               << ", {" << name(o.getRows()) << ", " << name(o.getCols())
               << "});  // rows x cols -> cols x rows" << srcLine(o) << "\n";
        return success();
      })
      .Case<CopyOp>([&](CopyOp o) {
        std::string elem = cType(o.getDst().getType().getElementType());
        line() << "AscendC::DataCopy(" << name(o.getDst()) << "[" << o.getDstOffset()
               << "], " << name(o.getSrc()) << "[" << o.getSrcOffset()
               << "], AscendC::DataCopyParams{static_cast<uint16_t>("
               << name(o.getRows()) << "), static_cast<uint16_t>(" << name(o.getCols())
               << " * sizeof(" << elem << ") / 32), static_cast<uint16_t>(("
               << o.getSrcStride() << " - " << name(o.getCols()) << ") * sizeof(" << elem
               << ") / 32), static_cast<uint16_t>((" << o.getDstStride() << " - "
               << name(o.getCols()) << ") * sizeof(" << elem << ") / 32)});"
               << srcLine(o) << "\n";
        return success();
      })
      .Case<BroadcastOp>([&](BroadcastOp o) {
        line() << "AscendC::Broadcast(" << name(o.getDst()) << ", " << name(o.getSrc())
               << ", {" << name(o.getRows()) << ", " << name(o.getCols()) << "}, "
               << "/*axis=*/" << o.getAxis() << ");" << srcLine(o) << "\n";
        return success();
      })
      .Case<GetValueOp>([&](GetValueOp o) {
        line() << cType(o.getType()) << " " << name(o.getResult()) << " = "
               << name(o.getBuffer()) << ".GetValue(" << name(o.getIndex()) << ");"
               << srcLine(o) << "\n";
        return success();
      })
      .Case<SetValueOp>([&](SetValueOp o) {
        line() << name(o.getBuffer()) << ".SetValue(" << name(o.getIndex()) << ", "
               << name(o.getValue()) << ");" << srcLine(o) << "\n";
        return success();
      })
      .Case<GmGetValueOp>([&](GmGetValueOp o) {
        line() << cType(o.getType()) << " " << name(o.getResult()) << " = "
               << name(o.getTensor()) << ".GetValue(" << name(o.getIndex()) << ");"
               << srcLine(o) << "\n";
        return success();
      })
      .Case<GmSetValueOp>([&](GmSetValueOp o) {
        // A uint8 scalar is carried in a wider integer: the tensor keeps its low byte.
        Type elem = o.getTensor().getType().getElementType();
        std::string value = name(o.getValue());
        if (o.getValue().getType() != elem)
          value = "static_cast<" + cType(elem) + ">(" + value + ")";
        line() << name(o.getTensor()) << ".SetValue(" << name(o.getIndex()) << ", "
               << value << ");" << srcLine(o) << "\n";
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
      .Case<arith::MaximumFOp, arith::MaxNumFOp>([&](Operation *o) { binary("AscendC::Std::max", o->getOperand(0), o->getOperand(1)); return success(); })
      .Case<arith::MinimumFOp, arith::MinNumFOp>([&](Operation *o) { binary("AscendC::Std::min", o->getOperand(0), o->getOperand(1)); return success(); })
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
      .Case<DuplicateOp>([&](DuplicateOp o) {
        line() << "AscendC::Duplicate(" << name(o.getDst()) << ", "
               << name(o.getValue()) << ", " << name(o.getCount()) << ");"
               << srcLine(o) << "\n";
        return success();
      })
      .Case<SetFlagOp>([&](SetFlagOp o) {
        if (o->hasAttr("cross_core")) {
          // Mode 2: the AIC and the AIV of a group signal each other.
          line() << "AscendC::CrossCoreSetFlag<0x2, " << pipeApiName(o.getSrc())
                 << ">(" << o.getEvent() << ");\n";
          return success();
        }
        line() << "AscendC::SetFlag<" << hardEvent(o.getSrc(), o.getDst())
               << ">(" << o.getEvent() << ");\n";
        return success();
      })
      .Case<WaitFlagOp>([&](WaitFlagOp o) {
        if (o->hasAttr("cross_core")) {
          line() << "AscendC::CrossCoreWaitFlag(" << o.getEvent() << ");\n";
          return success();
        }
        line() << "AscendC::WaitFlag<" << hardEvent(o.getSrc(), o.getDst())
               << ">(" << o.getEvent() << ");\n";
        return success();
      })
      .Case<PipeBarrierOp>([&](PipeBarrierOp o) {
        line() << "AscendC::PipeBarrier<" << pipeApiName(o.getPipe()) << ">();\n";
        return success();
      })
      // Buffer ids with kernel-chosen MutexIDs (0..27): the buffers are TBufs
      // or static addresses, never TQue/TQueBind/TBufPool, which the Ascend C
      // Mutex docs rule out next to self-chosen ids.
      .Case<GetBufOp>([&](GetBufOp o) {
        line() << "AscendC::Mutex::Lock<" << pipeApiName(o.getPipe()) << ">("
               << o.getId() << ");\n";
        return success();
      })
      .Case<RlsBufOp>([&](RlsBufOp o) {
        line() << "AscendC::Mutex::Unlock<" << pipeApiName(o.getPipe()) << ">("
               << o.getId() << ");\n";
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
      .Default([&](Operation *o) {
        return o->emitOpError() << "cannot be emitted as Ascend C";
      });
}

LogicalResult Emitter::emitFunc(func::FuncOp func) {
  os << "extern \"C\" __global__ __aicore__ void " << func.getName() << "(";
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
  os << "  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_" << kernelType
     << (kernelType == "MIX" ? "_AIC_1_1" : "") << ");\n";
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
  }
  for (BlockArgument arg : entry.getArguments())
    if (auto gm = dyn_cast<GlobalType>(arg.getType())) {
      std::string elem = cType(gm.getElementType());
      names[arg] = "gm" + std::to_string(arg.getArgNumber());
      os << "  AscendC::GlobalTensor<" << elem << "> " << names[arg] << ";\n";
      os << "  " << names[arg] << ".SetGlobalBuffer((__gm__ " << elem << " *)a"
         << arg.getArgNumber() << ");\n";
    }
  if (failed(emitBlock(entry)))
    return failure();
  os << "}\n";
  return success();
}

} // namespace

namespace asc2 {
LogicalResult emitAscendC(ModuleOp module, StringRef socVersion,
                          bool staticAlloc, raw_ostream &os) {
  bool bufIds = false;
  module.walk([&](GetBufOp) { bufIds = true; });
  os << "// Generated by asc2 for " << socVersion << ". "
     << (staticAlloc ? "Static UB addresses" : "TPipe-managed buffers at planned offsets")
     << (bufIds ? "; buffer ids (Mutex) inserted by ascendc-insert-buf-id-sync.\n"
                : "; flags inserted by ascendc-insert-sync.\n");
  os << "#include \"kernel_operator.h\"\n\n";
  for (auto func : module.getOps<func::FuncOp>()) {
    Emitter emitter(os, staticAlloc);
    if (failed(emitter.emitFunc(func)))
      return failure();
    os << "\n";
  }
  return success();
}
} // namespace asc2
