//===- VectorCalls.cpp - the vector unit's API calls ------------------------===//
//
// Elementwise ops (their cases generated from the op records), cast, compare,
// select and duplicate; under asc2.mask each becomes its level-0 form inside
// the mask setup. Bool buffers are bit masks (LocalTensor<uint8_t>, element
// i = bit i % 8 of byte i / 8). Reductions are ReduceCalls.cpp's; broadcasts,
// copies and transposes ShapeCalls.cpp's.
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"

#include "asc2/Dialect/AscendC/IR/CastSupport.h"

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

std::string Emitter::scaledCount(Value count, int64_t mul, int64_t div) {
  if (auto c = count.getDefiningOp<arith::ConstantOp>())
    if (auto i = dyn_cast<IntegerAttr>(c.getValue()))
      return std::to_string((i.getInt() * mul + div - 1) / div);
  std::string n = name(count);
  if (mul != 1)
    n = n + " * " + std::to_string(mul);
  if (div == 1)
    return n;
  return "((" + n + " + " + std::to_string(div - 1) + ") / " + std::to_string(div) + ")";
}

std::string Emitter::alignedCount(Value count, int64_t multiple) {
  if (auto c = count.getDefiningOp<arith::ConstantOp>())
    if (auto i = dyn_cast<IntegerAttr>(c.getValue()))
      return std::to_string((i.getInt() + multiple - 1) / multiple * multiple);
  return "((" + name(count) + " + " + std::to_string(multiple - 1) + ") / " +
         std::to_string(multiple) + " * " + std::to_string(multiple) + ")";
}

/// And, Or, Xor and Not are bit operations: the API has them for 16-bit
/// integers only on A2/A3 (asc-devkit docs/zh/api/SIMD-API/基础API/Memory矢量计算/
/// 逻辑计算/And.md "数据类型"; Xor: adv_api/math/xor.h), so other element types
/// (a bool bit mask, int32, int8) run on a uint16_t view of the same bytes.
/// On a bit mask Max is Or and Min is And.
static bool isBitwiseCall(Operation *op, Type elem) {
  if (isa<AndOp, OrOp, XorOp, NotOp>(op))
    return true;
  return elem.isInteger(1) && isa<MaxOp, MinOp>(op);
}

std::string Emitter::bitwiseOperand(Value v) {
  Type elem = cast<LocalType>(v.getType()).getElementType();
  if (elem.getIntOrFloatBitWidth() == 16)
    return name(v);
  return name(v) + ".ReinterpretCast<uint16_t>()";
}

std::string Emitter::bitwiseCount(Value count, Type elem) {
  unsigned bits = elem.getIntOrFloatBitWidth();
  if (bits == 16)
    return name(count);
  if (bits < 16)
    return scaledCount(count, 1, 16 / bits); // whole uint16_t words
  return scaledCount(count, bits / 16, 1);
}

FamilyResult Emitter::emitVectorFamily(Operation *op) {
  // A bit operation on a uint16_t view (isBitwiseCall).
  auto emitBitwise = [&](Operation *o, StringRef api, Value dst, ValueRange srcs,
                         Value count) {
    Type elem = cast<LocalType>(dst.getType()).getElementType();
    if (elem.isInteger(1))
      api = isa<MaxOp>(o) ? "Or" : isa<MinOp>(o) ? "And" : api;
    line() << "AscendC::" << api << "(" << bitwiseOperand(dst);
    for (Value v : srcs)
      os << ", " << bitwiseOperand(v);
    os << ", " << bitwiseCount(count, elem) << ");" << srcLine(o) << "\n";
  };
  // The three forms of elementwise vector op, one API call each.
  auto emitBinary = [&](auto o) {
    Type elem = o.getDst().getType().getElementType();
    if (isBitwiseCall(o, elem) && o.getBits().empty() &&
        !o->hasAttr("asc2.counter_mask")) {
      emitBitwise(o, o.getApiName(), o.getDst(), {o.getSrc0(), o.getSrc1()}, o.getCount());
      return success();
    }
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
  auto emitScalarForm = [&](auto o) -> LogicalResult {
    if (o.getDst().getType().getElementType().isInteger(1))
      return o.emitOpError() << "on a bool bit mask has no Ascend C call; "
                                "use the tensor-tensor op with a Duplicate'd mask";
    std::string elem = cType(o.getDst().getType().getElementType());
    std::string scalar = "static_cast<" + elem + ">(" + name(o.getScalar()) + ")";
    // s - x, s / x: the API takes the scalar as src0 (Subs/Divs and the other
    // "one of src0 and src1 is a scalar" calls,
    // mirror-cann/asc-devkit@82b89a15f:include/basic_api/kernel_operator_vec_binary_scalar_intf.h);
    // the shifts take a shift amount only.
    // Adds/Muls/Maxs/Mins/Ands/Ors commute: tensor first, the one form every
    // target has (c220 has no scalar-first Muls).
    std::string operands = name(o.getSrc()) + ", " + scalar;
    StringRef api = o.getApiName();
    // A2/A3 implement Adds, Muls, Maxs, Mins, LeakyRelu and the shifts, tensor
    // first (impl/basic_api/dav_c220); Subs, Divs, Ands and Ors are declared
    // there but defined for c310 only, so they would compile and fail to
    // link. The lowering never issues them there.
    if (!c310 && (api == "Subs" || api == "Divs" || api == "Ands" || api == "Ors"))
      return o.emitOpError() << "is not an Ascend C call on c220 (" << api
                             << " is implemented for c310 only)";
    if (o.getScalarFirst() && (api == "Subs" || api == "Divs" || api.starts_with("Shift"))) {
      if (api.starts_with("Shift"))
        return o.emitOpError() << "a scalar shifted by a tile has no Ascend C call ("
                               << api << " shifts a tile by a scalar); shift a tile "
                                  "filled with the scalar instead";
      operands = scalar + ", " + name(o.getSrc());
    }
    if (emitMasked(o, o.getDst().getType().getElementType(), o.getBits(), o.getCount(),
                   "AscendC::" + o.getApiName().str() + "<" + elem + ", false>(" +
                       name(o.getDst()) + ", " + operands,
                   "AscendC::UnaryRepeatParams{1, 1, 8, 8}"))
      return success();
    line() << "AscendC::" << o.getApiName() << "(" << name(o.getDst()) << ", "
           << operands << ", " << name(o.getCount()) << ");" << srcLine(o) << "\n";
    return success();
  };
  auto emitUnary = [&](auto o) {
    Type elem = o.getDst().getType().getElementType();
    if constexpr (std::is_same_v<decltype(o), ErfOp>) {
      // The four-argument form: calCount lanes (a counter mask is that count;
      // the verifier refuses lane bits), the scratch buffer passed.
      line() << "AscendC::Erf(" << name(o.getDst()) << ", " << name(o.getSrc()) << ", "
             << name(o.getTmp()) << ", static_cast<uint32_t>(" << name(o.getCount()) << "));"
             << srcLine(o) << "\n";
      return success();
    }
    if (isBitwiseCall(o, elem) && o.getBits().empty() &&
        !o->hasAttr("asc2.counter_mask")) {
      emitBitwise(o, o.getApiName(), o.getDst(), {o.getSrc()}, o.getCount());
      return success();
    }
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
      // The elementwise vector ops, from their records (AscendCOps.td).
#define ASC2_VEC_BINARY(Op, ScalarForm, SimOp) .Case<Op>(emitBinary)
#define ASC2_VEC_SCALAR(Op, SimOp) .Case<Op>(emitScalarForm)
#define ASC2_VEC_UNARY(Op, SimOp) .Case<Op>(emitUnary)
#include "asc2/Dialect/AscendC/IR/AscendCVecOpDispatch.inc"
      .Case<CastOp>([&](CastOp o) -> LogicalResult {
        Type d = o.getDst().getType().getElementType(), sTy = o.getSrc().getType().getElementType();
        // Only the calls the target has (the lowering composes the rest).
        if (!(castRoundModes(c310, castElemOf(sTy), castElemOf(d)) &
              modeBit(o.getRoundMode())))
          return o.emitOpError() << "Cast " << sTy << " -> " << d << " with "
                                 << stringifyRoundMode(o.getRoundMode())
                                 << " is not an Ascend C call on " << (c310 ? "c310" : "c220");
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
      .Case<CompareOp>([&](CompareOp o) -> LogicalResult {
        Type operand = o.getLhs().getType().getElementType();
        if (!compareSupported(c310, operand, o.getMode()))
          return o.emitOpError() << "Compare of " << operand << " in "
                                 << stringifyCmpMode(o.getMode()) << " is not an Ascend C call on "
                                 << (c310 ? "c310" : "c220");
        // Compare (two tensors) / Compares (a scalar) write dst's bits; the
        // count must cover whole 256-byte repeats (asc-devkit docs/zh/api/
        // SIMD-API/基础API/Memory矢量计算/比较与选择/Compare.md, "count"), so it is
        // rounded up: the extra lanes' bits land in the rest of the mask's
        // 32-byte block and are never read.
        if (!o.getBits().empty() || o->hasAttr("asc2.counter_mask"))
          return o.emitOpError() << "under a lane mask has no Ascend C form "
                                    "(Compare ignores the vector mask on A2/A3)";
        bool scalar = !isa<LocalType>(o.getRhs().getType());
        Type elem = o.getLhs().getType().getElementType();
        int64_t lanes = 256 / std::max<int64_t>(1, elem.getIntOrFloatBitWidth() / 8);
        std::string rhs = name(o.getRhs());
        if (scalar)
          rhs = "static_cast<" + cType(elem) + ">(" + rhs + ")";
        line() << "AscendC::Compare" << (scalar ? "s" : "") << "(" << name(o.getDst())
               << ", " << name(o.getLhs()) << ", " << rhs << ", AscendC::CMPMODE::"
               << stringifyCmpMode(o.getMode()) << ", "
               << alignedCount(o.getCount(), lanes) << ");"
               << srcLine(o) << "\n";
        return success();
      })
      .Case<SelectOp>([&](SelectOp o) -> LogicalResult {
        // Select moves half or float elements on A2/A3 (Select.md "数据类型"):
        // other 16/32-bit types are selected as the half/float of the same
        // bits. Under a count mask the count form already runs in counter
        // mode over `count` elements; under a bit mask the lanes go in the
        // mask[] form, which sets the vector mask itself (c220 VselImpl).
        bool scalar = !isa<LocalType>(o.getFalseValue().getType());
        Type elem = o.getDst().getType().getElementType();
        unsigned bits = elem.getIntOrFloatBitWidth();
        if (bits != 16 && bits != 32)
          return o.emitOpError() << "selects " << elem
                                 << " elements; Ascend C's Select takes 16- or 32-bit ones";
        std::string as = bits == 16 ? "half" : "float";
        bool native = cType(elem) == as;
        auto view = [&](Value v) {
          return native ? name(v) : name(v) + ".ReinterpretCast<" + as + ">()";
        };
        std::string falseValue = view(o.getFalseValue());
        if (scalar) {
          if (!native)
            return o.emitOpError() << "selects a " << elem
                                   << " scalar; the lowering passes a buffer";
          falseValue = "static_cast<" + as + ">(" + name(o.getFalseValue()) + ")";
        }
        std::string head = "AscendC::Select(" + view(o.getDst()) + ", " + name(o.getMask()) +
                           ", " + view(o.getTrueValue()) + ", " + falseValue +
                           ", AscendC::SELMODE::" +
                           (scalar ? "VSEL_TENSOR_SCALAR_MODE" : "VSEL_TENSOR_TENSOR_MODE");
        if (!o.getBits().empty()) {
          auto half = [&](Value v) { return "static_cast<uint64_t>(" + name(v) + ")"; };
          line() << "{\n";
          line() << "  uint64_t lanes[2] = {" << half(o.getBits()[1]) << ", "
                 << half(o.getBits()[0]) << "};  // asc2.mask(bits=...)\n";
          line() << "  " << head << ", lanes, "
                 << "static_cast<uint8_t>(" << scaledCount(o.getCount(), bits / 8, 256)
                 << "), AscendC::BinaryRepeatParams{1, 1, 1, 8, 8, 8});" << srcLine(o)
                 << "\n";
          line() << "}\n";
          return success();
        }
        line() << head << ", " << name(o.getCount()) << ");"
               << (o->hasAttr("asc2.counter_mask") ? "  // asc2.mask(count=...)" : "")
               << srcLine(o) << "\n";
        return success();
      })
      .Case<DuplicateOp>([&](DuplicateOp o) {
        Type elem = o.getDst().getType().getElementType();
        if (elem.isInteger(1)) { // every bit of the mask: uint16_t words
          line() << "AscendC::Duplicate(" << bitwiseOperand(o.getDst())
                 << ", static_cast<uint16_t>((" << name(o.getValue())
                 << ") ? 0xFFFFu : 0u), " << bitwiseCount(o.getCount(), elem) << ");"
                 << srcLine(o) << "\n";
          return success();
        }
        if (elem.getIntOrFloatBitWidth() == 8) {
          // Duplicate has no 8-bit form on A2/A3 (its static_assert: half,
          // bfloat16, int16/uint16, int32/uint32, float): the byte twice in
          // uint16_t words (the odd last byte stays in the 32-byte block).
          line() << "AscendC::Duplicate(" << bitwiseOperand(o.getDst())
                 << ", static_cast<uint16_t>(static_cast<uint8_t>(" << name(o.getValue())
                 << ") * 0x0101u), " << bitwiseCount(o.getCount(), elem) << ");"
                 << srcLine(o) << "\n";
          return success();
        }
        if (!c310 && elem.getIntOrFloatBitWidth() == 64) {
          // No 64-bit Duplicate on A2/A3 (dav_c220's static_assert, as
          // above): a value whose 32-bit halves are equal (0, -1) fills the
          // uint32_t view; any other is written by the scalar unit, between
          // full barriers (its UB stores are not ordered by the V pipe's
          // flags).
          std::string c = cType(elem), v = name(o.getValue()), n = name(o.getCount());
          line() << "{\n";
          line() << "  uint64_t bits = static_cast<uint64_t>(static_cast<" << c << ">(" << v
                 << "));" << srcLine(o) << "\n";
          line() << "  if (static_cast<uint32_t>(bits) == static_cast<uint32_t>(bits >> 32)) {\n";
          line() << "    AscendC::Duplicate(" << name(o.getDst())
                 << ".ReinterpretCast<uint32_t>(), static_cast<uint32_t>(bits), " << n << " * 2);\n";
          line() << "  } else {\n";
          line() << "    AscendC::PipeBarrier<PIPE_ALL>();\n";
          line() << "    for (uint32_t k = 0; k < static_cast<uint32_t>(" << n << "); ++k)\n";
          line() << "      " << name(o.getDst()) << ".SetValue(k, static_cast<" << c << ">(" << v
                 << "));\n";
          line() << "    AscendC::PipeBarrier<PIPE_ALL>();\n";
          line() << "  }\n";
          line() << "}\n";
          return success();
        }
        // The scalar in the buffer's type (a float literal for a half buffer
        // would not deduce Duplicate's T).
        line() << "AscendC::Duplicate(" << name(o.getDst()) << ", static_cast<"
               << cType(elem) << ">(" << name(o.getValue()) << "), "
               << name(o.getCount()) << ");" << srcLine(o) << "\n";
        return success();
      })
      .Default([](Operation *) { return std::nullopt; });
}

} // namespace asc2::ascendc_emitter
