//===- Elementwise.cpp - arith/math on tiles, cast, compare, select --------===//
//
// One vector op per arith/math op (the ascendc ops' lowersFrom, AscendCVectorOps.td);
// an operand made by asctile.splat becomes the scalar of the op's scalar form
// (Adds, Muls, ...) and gets a buffer only when an op needs one. Each op here may compute
// under the asctile.mask fused into it (Masks.cpp).
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/TypeSwitch.h"

namespace asc2::asctile_to_ascendc {

FamilyResult Lowering::lowerElementwiseFamily(Operation *op) {
  return llvm::TypeSwitch<Operation *, FamilyResult>(op)
      .Case<at::SplatOp>([&](at::SplatOp s) {
        if (Value one = reducedScalars.lookup(s.getValue()))
          bufferSplats[s.getResult()] = one;
        else
          splats[s.getResult()] = s.getValue();
        return success();
      })
      .Case<at::CastOp>([&](at::CastOp c) { return lowerCast(c); })
      .Case<at::CmpOp>([&](at::CmpOp c) { return lowerCmp(c); })
      .Case<at::SelectOp>([&](at::SelectOp s) { return lowerSelect(s); })
      .Default([](Operation *) { return std::nullopt; });
}

LogicalResult Lowering::lowerElementwise(Operation *op) {
  auto tile = cast<at::TileType>(op->getResult(0).getType());
  builder.setInsertionPoint(op);
  Location loc = op->getLoc();
  StringRef base = op->getName().stripDialect();
  Value count, result;
  at::MaskOp mask;
  SmallVector<Value, 2> bits;
  // A2/A3 vector arithmetic takes half, float, int16 and int32 lanes (the
  // static_asserts of mirror-cann/asc-devkit@82b89a15f:impl/basic_api/
  // dav_c220/kernel_operator_vec_binary_impl.h and its unary and scalar
  // siblings; the count form compiles for int64 but is not a documented
  // call). Bit operations are width-blind: unmasked, they run on the uint16
  // view like every other integer width.
  auto bitwise = [&] {
    return isa<arith::AndIOp, arith::OrIOp, arith::XOrIOp>(op) &&
           !fusableMask(op, /*dryRun=*/true);
  };
  if (auto it = dyn_cast<IntegerType>(tile.getElementType());
      !c310 && it && it.getWidth() == 64 && !bitwise())
    return op->emitError()
           << "int64 tile arithmetic: the vector instructions of Atlas A2/A3 take 16- and "
              "32-bit integers (Ascend950 has 64-bit ones); compute in int32 "
              "(.to(asc2.int32)) or target Ascend950";
  // The result buffer, prefilled with the mask's `other` when masked.
  auto newResult = [&]() {
    result = newBuffer(loc, tile, positionFor(tile.getLocation()), base);
    MaskArgs m = laneArgs(op, result, tile, mask);
    count = m.count;
    bits = m.bits;
  };

  // And, Or and Not take 16-bit lanes only on A2/A3 at level 0 (the masked
  // form; dav_c220 And/Or/Not static_asserts), and Abs float lanes only:
  // under a lane mask a 32-bit bit operation runs unmasked on a scratch
  // buffer (the level-2 call, on the uint16 view) and a masked Adds(r, 0)
  // copies the mask's lanes into the result.
  auto unmaskedThenCopy = [&]() {
    Type elem = tile.getElementType();
    return !c310 && underMask(bits, mask) && isa<IntegerType>(elem) &&
           elem.getIntOrFloatBitWidth() == 32;
  };
  auto copyMasked = [&](Value r) {
    copyUnderMask(loc, result, r, tile.getElementType(), count, bits, mask);
  };
  auto binary = [&](auto vecTag, auto scalarTag) -> LogicalResult {
    using VecT = decltype(vecTag);
    using ScalarT = decltype(scalarTag);
    Value lhs = op->getOperand(0), rhs = op->getOperand(1);
    // No vector-scalar call (Xor; And/Or outside Ascend 950): ScalarT is VecT
    // and a splat operand gets a Duplicate'd buffer for the tensor-tensor op.
    if constexpr (!std::is_same_v<VecT, ScalarT>) {
      Value ls = splatScalar(lhs), rs = splatScalar(rhs);
      // ShiftLeft/ShiftRight shift a tile by a scalar only: s << x takes the
      // tensor-tensor call with the scalar Duplicate'd.
      constexpr bool shift = std::is_same_v<VecT, ac::ShlOp> || std::is_same_v<VecT, ac::ShrOp>;
      if ((rs && !ls) || (ls && !rs && !shift)) {
        auto src = bufferOf(op, rs ? lhs : rhs);
        if (failed(src))
          return failure();
        newResult();
        // Subs and Divs are c310 calls (asc-devkit@82b89a15f: SubsImpl and
        // DivsImpl exist in impl/basic_api/dav_3510 only; A2/A3 declare the
        // API and the kernel fails to link). On A2/A3: x - s = x + (-s),
        // s - x = (-x) + s (negation is exact) and x / s, s / x are Div with
        // a Duplicate'd s (the same single rounding as the scalar form).
        constexpr bool sub = std::is_same_v<VecT, ac::SubOp>, div = std::is_same_v<VecT, ac::DivOp>;
        if constexpr (sub || div) {
          if (!c310) {
            Value full = countOf(loc, tile);
            Value scalar = rs ? rs : ls;
            Type elem = tile.getElementType();
            if constexpr (sub) {
              if (rs) {
                Value negated =
                    isa<FloatType>(scalar.getType())
                        ? builder.create<arith::NegFOp>(loc, scalar).getResult()
                        : builder.create<arith::SubIOp>(
                              loc, builder.create<arith::ConstantOp>(
                                       loc, builder.getIntegerAttr(scalar.getType(), 0)),
                              scalar).getResult();
                markCounter(builder.create<ac::AddsOp>(loc, result, *src, negated, count,
                                                       false, bits),
                            mask);
                return success();
              }
              Value t = newBuffer(loc, tile, ac::Position::VECCALC, "negated");
              Value minusOne = builder.create<arith::ConstantOp>(
                  loc, isa<FloatType>(elem) ? TypedAttr(builder.getFloatAttr(elem, -1.0))
                                            : TypedAttr(builder.getIntegerAttr(elem, -1)));
              builder.create<ac::MulsOp>(loc, t, *src, minusOne, full, false, ValueRange{});
              markCounter(builder.create<ac::AddsOp>(loc, result, t, ls, count, false, bits),
                          mask);
            } else {
              Value t = newBuffer(loc, tile, ac::Position::VECCALC, rs ? "divisor" : "dividend");
              builder.create<ac::DuplicateOp>(loc, t, scalar, full);
              Value num = rs ? *src : t, den = rs ? t : *src;
              if (isa<IntegerType>(elem))
                return emitIntDiv(op, loc, result, num, den, tile, count, bits, mask);
              markCounter(builder.create<ac::DivOp>(loc, result, num, den, count, bits), mask);
            }
            return success();
          }
        }
        markCounter(builder.create<ScalarT>(loc, result, *src, rs ? rs : ls, count,
                                            /*scalar_first=*/!rs, bits),
                    mask);
        return success();
      }
    }
    if (auto onBroadcast = broadcastOperand(op)) {
      newResult();
      return lowerOnBroadcast(op, *onBroadcast, result);
    }
    auto a = bufferOf(op, lhs);
    auto b = bufferOf(op, rhs);
    if (failed(a) || failed(b))
      return failure();
    newResult();
    if constexpr (std::is_same_v<VecT, ac::ShlOp> || std::is_same_v<VecT, ac::ShrOp>)
      return lowerShiftByTile(op, loc, result, *a, *b, tile, count, bits, mask,
                              std::is_same_v<VecT, ac::ShlOp>);
    if constexpr (std::is_same_v<VecT, ac::DivOp>)
      if (isa<IntegerType>(tile.getElementType()))
        return emitIntDiv(op, loc, result, *a, *b, tile, count, bits, mask);
    if constexpr (std::is_same_v<VecT, ac::AndOp> || std::is_same_v<VecT, ac::OrOp>)
      if (unmaskedThenCopy()) {
        Value r = newBuffer(loc, tile, ac::Position::VECCALC, "bits_unmasked");
        builder.create<VecT>(loc, r, *a, *b, countOf(loc, tile), ValueRange{});
        copyMasked(r);
        return success();
      }
    markCounter(builder.create<VecT>(loc, result, *a, *b, count, bits), mask);
    return success();
  };
  auto unary = [&](auto tag) -> LogicalResult {
    using OpT = decltype(tag);
    auto src = bufferOf(op, op->getOperand(0));
    if (failed(src))
      return failure();
    newResult();
    Type elem = tile.getElementType();
    if constexpr (std::is_same_v<OpT, ac::AbsOp>) {
      // |x| of integers on A2/A3 (Abs takes half/float there): Max(x, -x),
      // which wraps at the minimum like numpy.
      if (!c310 && isa<IntegerType>(elem)) {
        Value neg = newBuffer(loc, tile, ac::Position::VECCALC, "negated");
        Value minusOne = builder.create<arith::ConstantOp>(loc, builder.getIntegerAttr(elem, -1));
        builder.create<ac::MulsOp>(loc, neg, *src, minusOne, countOf(loc, tile), false,
                                   ValueRange{});
        markCounter(builder.create<ac::MaxOp>(loc, result, *src, neg, count, bits), mask);
        return success();
      }
    }
    if constexpr (std::is_same_v<OpT, ac::NotOp>)
      if (unmaskedThenCopy()) {
        Value r = newBuffer(loc, tile, ac::Position::VECCALC, "bits_unmasked");
        builder.create<OpT>(loc, r, *src, countOf(loc, tile), ValueRange{});
        copyMasked(r);
        return success();
      }
    markCounter(builder.create<OpT>(loc, result, *src, count, bits), mask);
    return success();
  };

  LogicalResult status =
      llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case<arith::XOrIOp>([&](arith::XOrIOp x) -> LogicalResult {
        // x ^ all-ones (how `~x` arrives) is Not: one basic call, no Xor
        // scratch buffer.
        auto allOnes = [&](Value v) {
          Value s = splatScalar(v);
          auto c = s ? s.getDefiningOp<arith::ConstantOp>() : arith::ConstantOp();
          auto i = c ? dyn_cast<IntegerAttr>(c.getValue()) : IntegerAttr();
          return i && i.getValue().isAllOnes();
        };
        Value src = allOnes(x.getRhs()) ? x.getLhs() : allOnes(x.getLhs()) ? x.getRhs() : Value();
        if (!src) {
          auto a = bufferOf(op, x.getLhs());
          auto b = bufferOf(op, x.getRhs());
          if (failed(a) || failed(b))
            return failure();
          newResult();
          if (unmaskedThenCopy()) {
            Value r = newBuffer(loc, tile, ac::Position::VECCALC, "bits_unmasked");
            emitXor(loc, r, *a, *b, tile, countOf(loc, tile), ValueRange{}, at::MaskOp());
            copyMasked(r);
            return success();
          }
          emitXor(loc, result, *a, *b, tile, count, bits, mask);
          return success();
        }
        auto a = bufferOf(op, src);
        if (failed(a))
          return failure();
        newResult();
        if (unmaskedThenCopy()) {
          Value r = newBuffer(loc, tile, ac::Position::VECCALC, "bits_unmasked");
          builder.create<ac::NotOp>(loc, r, *a, countOf(loc, tile), ValueRange{});
          copyMasked(r);
          return success();
        }
        markCounter(builder.create<ac::NotOp>(loc, result, *a, count, bits), mask);
        return success();
      })
      .Case<math::ErfOp>([&](auto) -> LogicalResult {
        // Ascend950 only (asctile-transform-math-ops expands erf elsewhere):
        // the advanced-API Erf, one vector function there. It has no masked
        // form: under a mask the whole tile's erf, then the mask's lanes.
        if (!c310)
          return op->emitOpError() << "erf reaches the lowering on a target without one-call "
                                      "Erf (asctile-transform-math-ops expands it there)";
        auto src = bufferOf(op, op->getOperand(0));
        if (failed(src))
          return failure();
        newResult();
        Type elem = tile.getElementType();
        Value tmp = newBuffer(loc, {ac::ErfOp::tmpBytes(elem.getIntOrFloatBitWidth() / 8)},
                              builder.getIntegerType(8, /*isSigned=*/false),
                              ac::Position::VECCALC, "erf_tmp");
        bool masked = underMask(bits, mask);
        Value r = masked ? newBuffer(loc, tile, ac::Position::VECCALC, "erf_whole") : result;
        builder.create<ac::ErfOp>(loc, r, *src, tmp, masked ? countOf(loc, tile) : count,
                                  ValueRange{});
        if (masked)
          copyMasked(r);
        return success();
      })
      .Case<arith::FloorDivSIOp>([&](auto) {
        auto a = bufferOf(op, op->getOperand(0));
        auto b = bufferOf(op, op->getOperand(1));
        if (failed(a) || failed(b))
          return failure();
        newResult();
        return lowerFloorDiv(op, loc, result, *a, *b, tile, count, bits, mask);
      })
      // Which ascendc op each arith/math op becomes: the ops' `lowersFrom`
      // (AscendCVectorOps.td).
#define ASC2_LOWER_BINARY(SourceOp, Op, ScalarForm)                            \
  .Case<SourceOp>([&](auto) { return binary(ac::Op(), ac::ScalarForm()); })
#define ASC2_LOWER_UNARY(SourceOp, Op)                                         \
  .Case<SourceOp>([&](auto) { return unary(ac::Op()); })
#include "asc2/Dialect/AscendC/IR/AscendCVecOpDispatch.inc"
          .Default([&](Operation *o) {
            return o->emitOpError()
                   << "on tiles is not supported by the ascendc lowering yet";
          });
  if (failed(status))
    return failure();
  setMaskedResult(op->getResult(0), result, mask);
  return success();
}

void Lowering::emitXor(Location loc, Value dst, Value a, Value b, at::TileType t,
                       Value count, ValueRange bits, at::MaskOp mask) {
  // a ^ b = (a | b) & ~(a & b) in basic-API calls. Xor itself is only in the
  // advanced API, which takes a scratch buffer from the TPipe's stack when
  // none is passed: a static-tensor kernel (c310) has none.
  Value both = newBuffer(loc, t, ac::Position::VECCALC, "xor_and");
  auto issue = [&](Operation *o) { markCounter(o, mask); };
  issue(builder.create<ac::OrOp>(loc, dst, a, b, count, bits));
  builder.create<ac::AndOp>(loc, both, a, b, count, bits);
  builder.create<ac::NotOp>(loc, both, both, count, bits);
  issue(builder.create<ac::AndOp>(loc, dst, dst, both, count, bits));
}

LogicalResult Lowering::emitIntDiv(Operation *op, Location loc, Value dst, Value a, Value b,
                                   at::TileType t, Value count, ValueRange bits,
                                   at::MaskOp mask) {
  Type elem = t.getElementType();
  if (c310) {
    markCounter(builder.create<ac::DivOp>(loc, dst, a, b, count, bits), mask);
    return success();
  }
  // Div on A2/A3 is half/float only (asc-devkit@82b89a15f:impl/basic_api/
  // dav_c220/kernel_operator_vec_binary_impl.h, DivImpl: a static_assert at
  // level 0, a debug-only assert at level 2 — an int Div there compiles and
  // computes garbage on the device).
  if (elem.getIntOrFloatBitWidth() > 16)
    return mlir::emitError(loc)
           << "integer division (/, // or %) of int" << elem.getIntOrFloatBitWidth()
           << " tiles: Atlas A2/A3 have no integer division (their Div takes float16 and "
              "float32; Ascend950 has it). Divide int16 tiles, or float32 tiles (exact while the "
              "values stay below 2**24)";
  // |a|, |b| < 2^15 are exact in float and the correctly rounded quotient
  // truncates to trunc(a / b): its rounding error, below |a / b| * 2^-24 <=
  // 2^-9 / |b|, is less than the distance 1 / |b| from a non-integral
  // quotient to the next integer. Division by zero gives the saturated
  // infinity (the simulator and numpy differ; docs/ascendc-api.md).
  Type f32 = builder.getF32Type();
  auto ft = cast<at::TileType>(t.cloneWith(std::nullopt, f32));
  Value full = countOf(loc, t);
  Value fa = newBuffer(loc, t.getShape(), f32, ac::Position::VECCALC, "div_num");
  Value fb = newBuffer(loc, t.getShape(), f32, ac::Position::VECCALC, "div_den");
  if (failed(emitCast(op, fa, a, t, f32, ac::RoundMode::CAST_NONE, MaskArgs{full, {}}, at::MaskOp())) ||
      failed(emitCast(op, fb, b, t, f32, ac::RoundMode::CAST_NONE, MaskArgs{full, {}}, at::MaskOp())))
    return failure();
  builder.create<ac::DivOp>(loc, fa, fa, fb, countOf(loc, ft), ValueRange{});
  return emitCast(op, dst, fa, ft, elem, ac::RoundMode::CAST_TRUNC, MaskArgs{count, bits}, mask);
}

LogicalResult Lowering::lowerFloorDiv(Operation *op, Location loc, Value dst, Value x, Value y,
                                      at::TileType t, Value count, ValueRange bits,
                                      at::MaskOp mask) {
  // Div truncates toward zero; floor division is one less where the
  // remainder is non-zero and its sign differs from the divisor's:
  //   q = x / y;  r = x - q * y;  q + (((r ^ y) & (r | -r)) >> (width - 1))
  // (the shift is arithmetic: -1 or 0). Unsigned division already floors.
  // Every step is one Ascend C call on the lanes the result's mask selects.
  Type elem = t.getElementType();
  auto tmp = [&](StringRef name) {
    return newBuffer(loc, t, ac::Position::VECCALC, name);
  };
  auto issue = [&](Operation *o) { markCounter(o, mask); };
  if (elem.isUnsignedInteger())
    return emitIntDiv(op, loc, dst, x, y, t, count, bits, mask);
  unsigned width = elem.getIntOrFloatBitWidth();
  Value q = tmp("quot"), p = tmp("prod"), r = tmp("rem"), s = tmp("sign"),
        nr = tmp("neg_rem"), z = tmp("nonzero"), adj = tmp("adjust");
  Value minusOne = builder.create<arith::ConstantOp>(
      loc, builder.getIntegerAttr(elem, -1));
  Value shift = builder.create<arith::ConstantOp>(
      loc, builder.getIntegerAttr(elem, width - 1));
  if (failed(emitIntDiv(op, loc, q, x, y, t, count, bits, mask)))
    return failure();
  issue(builder.create<ac::MulOp>(loc, p, q, y, count, bits));
  issue(builder.create<ac::SubOp>(loc, r, x, p, count, bits));
  emitXor(loc, s, r, y, t, count, bits, mask);
  issue(builder.create<ac::MulsOp>(loc, nr, r, minusOne, count, false, bits));
  issue(builder.create<ac::OrOp>(loc, z, r, nr, count, bits));
  issue(builder.create<ac::AndOp>(loc, adj, s, z, count, bits));
  issue(builder.create<ac::ShrsOp>(loc, adj, adj, shift, count, false, bits));
  issue(builder.create<ac::AddOp>(loc, dst, q, adj, count, bits));
  return success();
}

void Lowering::copyUnderMask(Location loc, Value dst, Value r, Type elem, Value count,
                             ValueRange bits, at::MaskOp mask) {
  Value zero = builder.create<arith::ConstantOp>(loc, builder.getIntegerAttr(elem, 0));
  markCounter(builder.create<ac::AddsOp>(loc, dst, r, zero, count, false, bits), mask);
}

LogicalResult Lowering::lowerShiftByTile(Operation *op, Location loc, Value dst, Value x,
                                          Value y, at::TileType t, Value count,
                                          ValueRange bits, at::MaskOp mask, bool left) {
  // The tensor-by-tensor ShiftLeft/ShiftRight<T, U>(dst, src0, src1, count)
  // is defined for __NPU_ARCH__ 3510 only (asc-devkit@82b89a15f:impl/basic_api/
  // kernel_operator_vec_binary_intf_impl.h; A2/A3 declare it but have no
  // body, so the kernel fails to link) and has no level-0 (masked) form.
  Type elem = t.getElementType();
  Value full = countOf(loc, t);
  auto tmp = [&](StringRef name) { return newBuffer(loc, t, ac::Position::VECCALC, name); };
  // Under a mask: the unmasked result, then copyUnderMask.
  auto finish = [&](Value r) { copyUnderMask(loc, dst, r, elem, count, bits, mask); };
  bool masked = underMask(bits, mask);
  if (c310) {
    Value r = masked ? tmp("shifted") : dst;
    if (left)
      builder.create<ac::ShlOp>(loc, r, x, y, full, ValueRange{});
    else
      builder.create<ac::ShrOp>(loc, r, x, y, full, ValueRange{});
    if (masked)
      finish(r);
    return success();
  }
  unsigned width = elem.isSignedInteger() || elem.isSignlessInteger() ? elem.getIntOrFloatBitWidth() : 0;
  if (width != 16 && width != 32)
    return op->emitOpError() << "shifting " << elem << " elements by a tile of amounts has no "
                                "Ascend C form on Atlas A2/A3 (int16 and int32 only)";
  // A2/A3 shift by a scalar only. Binary decomposition of the amount: for
  // each bit k of y, cur = bit ? cur shifted by 2^k : cur, the choice made
  // with a lane mask m = (y << (w-1-k)) >> (w-1) (all ones where the bit is
  // set; the right shift is arithmetic) as (s & m) | (cur & ~m). Amounts of
  // w or more (or negative) shift everything out: 0, or the sign for >>,
  // as the scalar shifts and numpy do.
  auto konst = [&](int64_t v) {
    return builder.create<arith::ConstantOp>(loc, builder.getIntegerAttr(elem, v)).getResult();
  };
  Value cur = tmp("shift_acc"), m = tmp("shift_bit"), s = tmp("shift_step"),
        keep = tmp("shift_keep");
  unsigned rounds = width == 32 ? 5 : 4;
  Value in = x;
  for (unsigned k = 0; k < rounds; ++k) {
    builder.create<ac::ShlsOp>(loc, m, y, konst(width - 1 - k), full, false, ValueRange{});
    builder.create<ac::ShrsOp>(loc, m, m, konst(width - 1), full, false, ValueRange{});
    if (left)
      builder.create<ac::ShlsOp>(loc, s, in, konst(int64_t(1) << k), full, false, ValueRange{});
    else
      builder.create<ac::ShrsOp>(loc, s, in, konst(int64_t(1) << k), full, false, ValueRange{});
    builder.create<ac::AndOp>(loc, s, s, m, full, ValueRange{});
    builder.create<ac::NotOp>(loc, m, m, full, ValueRange{});
    builder.create<ac::AndOp>(loc, keep, in, m, full, ValueRange{});
    builder.create<ac::OrOp>(loc, cur, s, keep, full, ValueRange{});
    in = cur;
  }
  // Overshift: o = y >> log2(w) is non-zero; m = (o | -o) >> (w-1).
  builder.create<ac::ShrsOp>(loc, m, y, konst(rounds), full, false, ValueRange{});
  builder.create<ac::MulsOp>(loc, s, m, konst(-1), full, false, ValueRange{});
  builder.create<ac::OrOp>(loc, m, m, s, full, ValueRange{});
  builder.create<ac::ShrsOp>(loc, m, m, konst(width - 1), full, false, ValueRange{});
  Value r = masked ? s : dst;
  if (left) {
    builder.create<ac::NotOp>(loc, m, m, full, ValueRange{});
    builder.create<ac::AndOp>(loc, r, cur, m, full, ValueRange{});
  } else {
    // The sign where everything is shifted out.
    builder.create<ac::ShrsOp>(loc, keep, x, konst(width - 1), full, false, ValueRange{});
    builder.create<ac::AndOp>(loc, keep, keep, m, full, ValueRange{});
    builder.create<ac::NotOp>(loc, m, m, full, ValueRange{});
    builder.create<ac::AndOp>(loc, cur, cur, m, full, ValueRange{});
    builder.create<ac::OrOp>(loc, r, cur, keep, full, ValueRange{});
  }
  if (masked)
    finish(r);
  return success();
}

LogicalResult Lowering::lowerCast(at::CastOp c) {
  if (c.getSource().getType().getLocation() == at::TileLocation::L0C)
    return foldL0CElementwise(c);
  builder.setInsertionPoint(c);
  auto src = bufferOf(c, c.getSource());
  if (failed(src))
    return failure();
  auto t = c.getResult().getType();
  Value dst = newBuffer(c.getLoc(), t, positionFor(t.getLocation()), "cast");
  at::MaskOp mask;
  MaskArgs m = laneArgs(c, dst, t, mask);
  Type from = c.getSource().getType().getElementType(), to = t.getElementType();
  if (from.isInteger(1) || to.isInteger(1)) {
    if (failed(lowerBoolCast(c, dst, *src, m, mask)))
      return failure();
  } else if (failed(emitCast(c, dst, *src, c.getSource().getType(), to,
                              static_cast<ac::RoundMode>(c.getRoundMode()), m, mask))) {
    return failure();
  }
  setMaskedResult(c.getResult(), dst, mask);
  return success();
}

/// The float type a bool conversion of `elem` goes through: Compares and
/// Select take half or float only on A2/A3 (asc-devkit docs/zh/api/.../比较与
/// 选择/Compares.md, Select.md "数据类型"). 0/1 and "!= 0" are exact in it:
/// float for 32-bit and bfloat16 elements, half for 8/16-bit integers.
static Type boolCarrier(OpBuilder &b, Type elem) {
  if (elem.isF16() || elem.isF32())
    return elem;
  if (elem.isBF16() || elem.getIntOrFloatBitWidth() >= 32)
    return b.getF32Type();
  return b.getF16Type();
}

LogicalResult Lowering::lowerBoolCast(at::CastOp c, Value dst, Value src,
                                      const MaskArgs &m, at::MaskOp mask) {
  Location loc = c.getLoc();
  at::TileType st = c.getSource().getType(), t = c.getResult().getType();
  Type from = st.getElementType(), to = t.getElementType();
  if (from == to) {
    copyBuffer(loc, dst, src, t);
    return success();
  }
  if (from.getIntOrFloatBitWidth() > 32 || to.getIntOrFloatBitWidth() > 32)
    return c.emitOpError() << "cannot convert between " << from << " and " << to
                           << " tiles: 64-bit elements have no bool conversion";
  if (to.isInteger(1)) {
    // x != 0, compared in a float type (after an exact widening cast).
    Type carrier = boolCarrier(builder, from);
    Value x = src;
    if (carrier != from) {
      x = newBuffer(loc, st.getShape(), carrier, ac::Position::VECCALC, "nonzero");
      if (failed(emitCast(c, x, src, st, carrier, ac::RoundMode::CAST_NONE,
                          MaskArgs{countOf(loc, st), {}}, at::MaskOp())))
        return failure();
    }
    Value zero = builder.create<arith::ConstantOp>(loc, builder.getFloatAttr(carrier, 0.0));
    builder.create<ac::CompareOp>(loc, ac::CmpMode::NE, dst, x, zero, countOf(loc, st),
                                  ValueRange{});
    return success();
  }
  // 1 where the bit is set, else 0: Select in a float type, then an exact
  // cast to the result type. The last call computes the mask's lanes.
  Type carrier = boolCarrier(builder, to);
  Value one = builder.create<arith::ConstantOp>(loc, builder.getFloatAttr(carrier, 1.0));
  Value zero = builder.create<arith::ConstantOp>(loc, builder.getFloatAttr(carrier, 0.0));
  Value ones = newBuffer(loc, t.getShape(), carrier, ac::Position::VECCALC, "ones");
  builder.create<ac::DuplicateOp>(loc, ones, one, countOf(loc, t));
  if (carrier == to) {
    markCounter(builder.create<ac::SelectOp>(loc, dst, src, ones, zero, m.count, m.bits),
                mask);
    return success();
  }
  Value numbers = newBuffer(loc, t.getShape(), carrier, ac::Position::VECCALC, "numbers");
  builder.create<ac::SelectOp>(loc, numbers, src, ones, zero, countOf(loc, t),
                               ValueRange{});
  markCounter(builder.create<ac::CastOp>(loc, dst, numbers, m.count,
                                         ac::RoundMode::CAST_RINT, m.bits),
              mask);
  return success();
}

LogicalResult Lowering::lowerCmp(at::CmpOp c) {
  builder.setInsertionPoint(c);
  auto lhs = bufferOf(c, c.getLhs());
  if (failed(lhs))
    return failure();
  Value rhs = splatScalar(c.getRhs());
  if (!rhs) {
    auto b = bufferOf(c, c.getRhs());
    if (failed(b))
      return failure();
    rhs = *b;
  }
  auto t = c.getResult().getType();
  Value dst = newBuffer(c.getLoc(), t, ac::Position::VECCALC, "mask");
  at::MaskOp mask;
  MaskArgs m = laneArgs(c, dst, t, mask);
  if (failed(emitCompare(c, static_cast<ac::CmpMode>(c.getPredicate()), dst, *lhs, rhs,
                         c.getLhs().getType(), m, mask)))
    return failure();
  setMaskedResult(c.getResult(), dst, mask);
  return success();
}

LogicalResult Lowering::lowerSelect(at::SelectOp s) {
  builder.setInsertionPoint(s);
  auto mask = bufferOf(s, s.getMask());
  auto tv = bufferOf(s, s.getTrueValue());
  if (failed(mask) || failed(tv))
    return failure();
  Value fv = splatScalar(s.getFalseValue());
  if (!fv) {
    auto b = bufferOf(s, s.getFalseValue());
    if (failed(b))
      return failure();
    fv = *b;
  }
  auto t = s.getResult().getType();
  Value dst = newBuffer(s.getLoc(), t, positionFor(t.getLocation()), "select");
  if (t.getElementType().isInteger(1)) {
    // Between bit masks: (m & a) | (~m & b) on the masks' bytes (Select
    // moves whole elements of half or float only).
    auto b = bufferOf(s, s.getFalseValue());
    if (failed(b))
      return failure();
    Location loc = s.getLoc();
    Value n = countOf(loc, t), picked = newBuffer(loc, t, ac::Position::VECCALC, "picked"),
          notMask = newBuffer(loc, t, ac::Position::VECCALC, "not_mask");
    builder.create<ac::AndOp>(loc, picked, *mask, *tv, n, ValueRange{});
    builder.create<ac::NotOp>(loc, notMask, *mask, n, ValueRange{});
    builder.create<ac::AndOp>(loc, notMask, notMask, *b, n, ValueRange{});
    builder.create<ac::OrOp>(loc, dst, picked, notMask, n, ValueRange{});
    buffers[s.getResult()] = dst;
    return success();
  }
  // Select takes half/float on A2/A3: other 16/32-bit types are selected as
  // the half/float of their bits (the emitter's views), so a scalar of them
  // goes in a buffer; 8-bit elements are selected as halves (exact casts).
  Type elem = t.getElementType();
  bool native = elem.isF16() || elem.isF32();
  if (!native && !isa<ac::LocalType>(fv.getType())) {
    auto b = bufferOf(s, s.getFalseValue());
    if (failed(b))
      return failure();
    fv = *b;
  }
  at::MaskOp laneMask;
  MaskArgs m = laneArgs(s, dst, t, laneMask);
  if (elem.getIntOrFloatBitWidth() == 8) {
    Location loc = s.getLoc();
    Value n = countOf(loc, t);
    auto widen = [&](Value v, StringRef name) {
      Value h = newBuffer(loc, t.getShape(), builder.getF16Type(), ac::Position::VECCALC, name);
      builder.create<ac::CastOp>(loc, h, v, n, ac::RoundMode::CAST_NONE, ValueRange{});
      return h;
    };
    Value a = widen(*tv, "sel_true"), b = widen(fv, "sel_false");
    Value h = newBuffer(loc, t.getShape(), builder.getF16Type(), ac::Position::VECCALC, "sel");
    builder.create<ac::SelectOp>(loc, h, *mask, a, b, n, ValueRange{});
    markCounter(builder.create<ac::CastOp>(loc, dst, h, m.count, ac::RoundMode::CAST_RINT,
                                           m.bits),
                laneMask);
  } else {
    markCounter(builder.create<ac::SelectOp>(s.getLoc(), dst, *mask, *tv, fv, m.count,
                                             m.bits),
                laneMask);
  }
  setMaskedResult(s.getResult(), dst, laneMask);
  return success();
}

} // namespace asc2::asctile_to_ascendc
