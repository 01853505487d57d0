//===- TypeSupport.cpp - The casts and compares each target can issue -----===//
//
// Ascend C's Cast and Compare take only some element types per target
// (mirror-cann/asc-devkit@82b89a15f: docs/zh/api/SIMD-API/基础API/Memory矢量计算/
// 类型转换/Cast.md and 比较与选择/Compare.md, Compares.md, "数据类型"). A pair
// outside those tables compiles against the CPU-debug headers and computes
// garbage on the device, so the lowering issues only calls from the tables
// and composes every other conversion or comparison from them, the way an
// Ascend C programmer does:
//  - each hop of a composed cast is exact for the values it receives, except
//    one: the rounding the user asked for (int32/int64 -> half/bfloat16 on A2
//    and A3 round twice through float, documented in docs/ascendc-api.md);
//  - integer narrowing wraps like numpy (ShiftLeft + arithmetic ShiftRight,
//    or And 0xFF, in 16/32-bit lanes, before an exact conversion), float ->
//    integer saturates like the direct calls (Maxs/Mins in int32);
//  - on A2/A3 an int32 compare other than EQ is EQ against Max/Min plus Not;
//    8/16-bit integer and bfloat16 compares run in an exact float type.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "asc2/Dialect/AscendC/IR/CastSupport.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

namespace asc2::asctile_to_ascendc {

namespace {

using Elem = ac::CastElem;
using ac::castRoundModes;
using ac::modeBit;
using ac::widthOf;

constexpr auto isFloat = ac::isFloatElem;
constexpr ac::RoundModes kNone = modeBit(ac::RoundMode::CAST_NONE);

/// One step of a composed cast.
struct CastStep {
  enum Kind { Convert, WrapSigned, WrapUnsigned, Clamp } kind;
  Elem to;                                       // the type after the step
  ac::RoundMode mode = ac::RoundMode::CAST_NONE; // Convert
  unsigned bits = 0;                             // Wrap*: the result width
  int64_t lo = 0, hi = 0;                        // Clamp
};

/// Plans `from` -> `to` in calls the target has. `mode` is the user's
/// rounding (CAST_NONE: round to nearest even, as the simulator reads it).
class CastPlanner {
public:
  CastPlanner(bool c310, ac::RoundMode mode) : c310(c310), mode(mode) {}

  SmallVector<CastStep, 6> plan(Elem from, Elem to) {
    cur = from;
    if (from == to) {
      // A float rounded to an integral value in its own type (no steps: a
      // plain copy).
      if (mode == ac::RoundMode::CAST_NONE)
        return steps;
      if (from != Elem::F32)
        exact(Elem::F32);
      convert(Elem::F32, mode);
      if (from != Elem::F32)
        exact(from);
      return steps;
    }
    if (isFloat(from) && isFloat(to))
      toFloat(to, mode);
    else if (!isFloat(from) && isFloat(to))
      intToFloat(to);
    else if (isFloat(from))
      floatToInt(to);
    else
      intToInt(to);
    return steps;
  }

private:
  bool has(Elem from, Elem to) const { return castRoundModes(c310, from, to) != 0; }

  /// The call's mode for `want`: itself, or round-to-nearest-even for
  /// CAST_NONE where the pair has no NONE (the same result).
  ac::RoundMode pick(Elem from, Elem to, ac::RoundMode want) const {
    ac::RoundModes ok = castRoundModes(c310, from, to);
    if (ok & modeBit(want))
      return want;
    if (want == ac::RoundMode::CAST_NONE && (ok & modeBit(ac::RoundMode::CAST_RINT)))
      return ac::RoundMode::CAST_RINT;
    if (ok & kNone)
      return ac::RoundMode::CAST_NONE;
    return ac::RoundMode::CAST_RINT;
  }
  /// A hop that is exact for the values it receives.
  void exact(Elem to) { convert(to, ac::RoundMode::CAST_NONE); }
  void convert(Elem to, ac::RoundMode m) {
    steps.push_back({CastStep::Convert, to, pick(cur, to, m)});
    cur = to;
  }

  /// Float to float: direct, or through float (exact from half/bfloat16).
  void toFloat(Elem to, ac::RoundMode m) {
    if (cur == to)
      return;
    if (!has(cur, to)) {
      exact(Elem::F32);
      if (to == Elem::F32)
        return;
    }
    convert(to, m);
  }

  void intToFloat(Elem to) {
    if (has(cur, to)) {
      convert(to, mode);
      return;
    }
    // The smallest float holding the integer exactly, else float's rounding.
    if (cur == Elem::I8 || cur == Elem::U8)
      exact(Elem::F16);
    else if (cur == Elem::I16)
      exact(Elem::F32);
    else
      convert(Elem::F32, mode); // int32/int64: the user's rounding
    toFloat(to, mode);
  }

  void floatToInt(Elem to) {
    if (has(cur, to)) {
      convert(to, mode);
      return;
    }
    if (to == Elem::I64) {
      toFloat(Elem::F32, ac::RoundMode::CAST_NONE); // exact from half/bfloat16
      convert(Elem::I64, mode);
      return;
    }
    // Round into int32, saturate to the target's range like the direct calls.
    if (!has(cur, Elem::I32))
      toFloat(Elem::F32, ac::RoundMode::CAST_NONE);
    convert(Elem::I32, mode);
    if (to == Elem::I32)
      return;
    int64_t lo = to == Elem::U8 ? 0 : -(int64_t(1) << (widthOf(to) - 1));
    int64_t hi = to == Elem::U8 ? 255 : (int64_t(1) << (widthOf(to) - 1)) - 1;
    steps.push_back({CastStep::Clamp, Elem::I32, ac::RoundMode::CAST_NONE, 0, lo, hi});
    inRange(to);
  }

  void intToInt(Elem to) {
    if (cur == to)
      return;
    bool widening = widthOf(to) > widthOf(cur) && !(cur == Elem::U8 && to == Elem::I8);
    if (widening) {
      if (has(cur, to)) {
        exact(to);
        return;
      }
      if (cur == Elem::I8 || cur == Elem::U8)
        exact(Elem::F16); // then half -> int16/int32 is exact
      else if (cur == Elem::I16 && !has(cur, Elem::I32))
        exact(Elem::F32);
      if (to == Elem::I64) {
        if (cur != Elem::I32)
          exact(Elem::I32);
        exact(Elem::I64);
        return;
      }
      exact(to);
      return;
    }
    // Narrowing (or uint8 <-> int8): bring the value into 16/32-bit lanes
    // where shifts and And exist, wrap it there, convert it exactly.
    if (cur == Elem::I64)
      exact(Elem::I32);
    if (cur == Elem::I8 || cur == Elem::U8) {
      exact(Elem::F16);
      exact(Elem::I16);
    }
    if (widthOf(to) < widthOf(cur)) {
      if (to == Elem::U8)
        steps.push_back({CastStep::WrapUnsigned, cur, ac::RoundMode::CAST_NONE, 8});
      else
        steps.push_back({CastStep::WrapSigned, cur, ac::RoundMode::CAST_NONE, widthOf(to)});
    }
    inRange(to);
  }

  /// An integer already inside `to`'s range, converted exactly.
  void inRange(Elem to) {
    if (cur == to)
      return;
    if (has(cur, to)) {
      exact(to);
      return;
    }
    // 8-bit targets: through half (exact for |v| <= 2048), from int32
    // through float first (no direct int32 -> half).
    if (cur == Elem::I32)
      exact(Elem::F32);
    exact(Elem::F16);
    exact(to);
  }

  bool c310;
  ac::RoundMode mode;
  Elem cur = Elem::Other;
  SmallVector<CastStep, 6> steps;
};

Type typeOf(OpBuilder &b, Elem e) {
  switch (e) {
  case Elem::F32:
    return b.getF32Type();
  case Elem::F16:
    return b.getF16Type();
  case Elem::BF16:
    return b.getBF16Type();
  case Elem::I64:
    return b.getIntegerType(64);
  case Elem::I32:
    return b.getIntegerType(32);
  case Elem::I16:
    return b.getIntegerType(16);
  case Elem::I8:
    return b.getIntegerType(8);
  case Elem::U8:
    return IntegerType::get(b.getContext(), 8, IntegerType::Unsigned);
  case Elem::Other:
    break;
  }
  return {};
}

} // namespace

LogicalResult Lowering::emitCast(Operation *user, Value dst, Value src, at::TileType srcTile,
                                 Type to, ac::RoundMode mode, const MaskArgs &m,
                                 at::MaskOp mask) {
  Location loc = user->getLoc();
  Type fromType = srcTile.getElementType();
  Elem from = ac::castElemOf(fromType), target = ac::castElemOf(to);
  if (from == Elem::Other || target == Elem::Other)
    return user->emitOpError() << "cannot convert " << fromType << " tiles to " << to;
  SmallVector<CastStep, 6> steps;
  if (from != target || isFloat(from))
    steps = CastPlanner(c310, mode).plan(from, target);
  if (steps.empty()) {
    copyBuffer(loc, dst, src, srcTile);
    return success();
  }
  Value count = countOf(loc, srcTile);
  Value cur = src;
  for (size_t i = 0; i < steps.size(); ++i) {
    const CastStep &s = steps[i];
    bool last = i + 1 == steps.size();
    Type t = typeOf(builder, s.to);
    Value out = last ? dst
                     : newBuffer(loc, srcTile.getShape(), t, ac::Position::VECCALC, "cast_via");
    // The last step writes the result, under the fused mask's lanes.
    Value n = last ? m.count : count;
    ValueRange bits = last ? ValueRange(m.bits) : ValueRange{};
    auto issue = [&](Operation *op) {
      if (last)
        markCounter(op, mask);
    };
    auto intConst = [&](int64_t v) {
      return builder.create<arith::ConstantOp>(loc, builder.getIntegerAttr(t, v)).getResult();
    };
    switch (s.kind) {
    case CastStep::Convert:
      issue(builder.create<ac::CastOp>(loc, out, cur, n, s.mode, bits));
      break;
    case CastStep::WrapSigned: {
      Value k = intConst(int64_t(cast<IntegerType>(t).getWidth()) - s.bits);
      issue(builder.create<ac::ShlsOp>(loc, out, cur, k, n, false, bits));
      issue(builder.create<ac::ShrsOp>(loc, out, out, k, n, false, bits));
      break;
    }
    case CastStep::WrapUnsigned: {
      Value lowBits = newBuffer(loc, srcTile.getShape(), t, ac::Position::VECCALC, "low_bits");
      builder.create<ac::DuplicateOp>(loc, lowBits, intConst((int64_t(1) << s.bits) - 1), count);
      issue(builder.create<ac::AndOp>(loc, out, cur, lowBits, n, bits));
      break;
    }
    case CastStep::Clamp:
      issue(builder.create<ac::MaxsOp>(loc, out, cur, intConst(s.lo), n, false, bits));
      issue(builder.create<ac::MinsOp>(loc, out, out, intConst(s.hi), n, false, bits));
      break;
    }
    cur = out;
  }
  return success();
}

/// A scalar compared with a tile converted to `carrier`: an exact conversion
/// of the scalar as it was given.
static Value scalarAs(OpBuilder &b, Location loc, Value v, Type carrier, bool isUnsigned) {
  Type t = v.getType();
  if (t == carrier)
    return v;
  if (t.isIndex())
    v = b.create<arith::IndexCastOp>(loc, b.getI64Type(), v), t = v.getType();
  if (isa<IntegerType>(t))
    return isUnsigned ? b.create<arith::UIToFPOp>(loc, carrier, v).getResult()
                      : b.create<arith::SIToFPOp>(loc, carrier, v).getResult();
  if (t.getIntOrFloatBitWidth() < carrier.getIntOrFloatBitWidth())
    return b.create<arith::ExtFOp>(loc, carrier, v);
  return b.create<arith::TruncFOp>(loc, carrier, v);
}

LogicalResult Lowering::emitCompare(Operation *user, ac::CmpMode mode, Value dst, Value lhs,
                                    Value rhs, at::TileType operands, const MaskArgs &m,
                                    at::MaskOp mask) {
  Location loc = user->getLoc();
  Elem e = ac::castElemOf(operands.getElementType());
  bool scalar = !isa<ac::LocalType>(rhs.getType());
  auto compare = [&](ac::CmpMode md, Value a, Value b) {
    markCounter(builder.create<ac::CompareOp>(loc, md, dst, a, b, m.count, m.bits), mask);
  };
  // On c310 Compare takes every integer and float type we have; on A2/A3
  // half and float in every mode, int32 in EQ only.
  if (ac::compareSupported(c310, operands.getElementType(), mode)) {
    compare(mode, lhs, rhs);
    return success();
  }
  Value count = countOf(loc, operands);
  auto negate = [&]() {
    markCounter(builder.create<ac::NotOp>(loc, dst, dst, m.count, m.bits), mask);
  };
  if (e == Elem::I32) {
    // a >= b <=> max(a, b) == a; a <= b <=> min(a, b) == a; the others are
    // their negations (Max/Min/Maxs/Mins take int32 on A2/A3).
    if (mode == ac::CmpMode::NE) {
      compare(ac::CmpMode::EQ, lhs, rhs);
      negate();
      return success();
    }
    bool useMax = mode == ac::CmpMode::GE || mode == ac::CmpMode::LT;
    Value ext = newBuffer(loc, operands.getShape(), operands.getElementType(),
                          ac::Position::VECCALC, useMax ? "max_ab" : "min_ab");
    if (scalar) {
      if (useMax)
        builder.create<ac::MaxsOp>(loc, ext, lhs, rhs, count, false, ValueRange{});
      else
        builder.create<ac::MinsOp>(loc, ext, lhs, rhs, count, false, ValueRange{});
    } else if (useMax) {
      builder.create<ac::MaxOp>(loc, ext, lhs, rhs, count, ValueRange{});
    } else {
      builder.create<ac::MinOp>(loc, ext, lhs, rhs, count, ValueRange{});
    }
    compare(ac::CmpMode::EQ, ext, lhs);
    if (mode == ac::CmpMode::LT || mode == ac::CmpMode::GT)
      negate();
    return success();
  }
  if (e == Elem::I64 || e == Elem::Other)
    return user->emitOpError()
           << "comparing " << operands.getElementType()
           << " tiles: Compare on Atlas A2/A3 takes half, float and int32; cast the "
              "operands to int32 or float32 first";
  // 8/16-bit integers and bfloat16: compare in a float type that holds
  // every value exactly.
  Type carrier = (e == Elem::I16 || e == Elem::BF16) ? builder.getF32Type()
                                                      : builder.getF16Type();
  auto widen = [&](Value v) -> FailureOr<Value> {
    Value w = newBuffer(loc, operands.getShape(), carrier, ac::Position::VECCALC, "cmp_operand");
    if (failed(emitCast(user, w, v, operands, carrier, ac::RoundMode::CAST_NONE,
                        MaskArgs{count, {}}, at::MaskOp())))
      return failure();
    return w;
  };
  FailureOr<Value> a = widen(lhs);
  FailureOr<Value> b = scalar ? FailureOr<Value>(scalarAs(builder, loc, rhs, carrier, e == Elem::U8))
                              : widen(rhs);
  if (failed(a) || failed(b))
    return failure();
  compare(mode, *a, *b);
  return success();
}

} // namespace asc2::asctile_to_ascendc
