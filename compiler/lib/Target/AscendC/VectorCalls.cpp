//===- VectorCalls.cpp - the vector unit's API calls ------------------------===//
//
// Elementwise ops (their cases generated from the op records), floor
// division, cast, compare, select, reduce and duplicate; under asc2.mask each
// becomes its level-0 form inside the mask setup. Broadcasts, copies and
// transposes are in ShapeCalls.cpp.
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"

#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace asc2::ascendc;

namespace asc2::ascendc_emitter {

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

FamilyResult Emitter::emitVectorFamily(Operation *op) {
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

  return llvm::TypeSwitch<Operation *, FamilyResult>(op)
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
      .Case<DuplicateOp>([&](DuplicateOp o) {
        line() << "AscendC::Duplicate(" << name(o.getDst()) << ", "
               << name(o.getValue()) << ", " << name(o.getCount()) << ");"
               << srcLine(o) << "\n";
        return success();
      })
      .Default([](Operation *) { return std::nullopt; });
}

} // namespace asc2::ascendc_emitter
