//===- CastSupport.cpp - Which Cast and Compare calls each target has -----===//

#include "asc2/Dialect/AscendC/IR/CastSupport.h"

namespace asc2::ascendc {

CastElem castElemOf(mlir::Type t) {
  if (t.isF32())
    return CastElem::F32;
  if (t.isF16())
    return CastElem::F16;
  if (t.isBF16())
    return CastElem::BF16;
  if (auto i = mlir::dyn_cast<mlir::IntegerType>(t)) {
    switch (i.getWidth()) {
    case 64:
      return CastElem::I64;
    case 32:
      return CastElem::I32;
    case 16:
      return CastElem::I16;
    case 8:
      return i.isUnsigned() ? CastElem::U8 : CastElem::I8;
    default:
      break;
    }
  }
  return CastElem::Other;
}

bool isFloatElem(CastElem e) {
  return e == CastElem::F32 || e == CastElem::F16 || e == CastElem::BF16;
}

unsigned widthOf(CastElem e) {
  switch (e) {
  case CastElem::I64:
    return 64;
  case CastElem::F32:
  case CastElem::I32:
    return 32;
  case CastElem::F16:
  case CastElem::BF16:
  case CastElem::I16:
    return 16;
  default:
    return 8;
  }
}

RoundModes castRoundModes(bool c310, CastElem from, CastElem to) {
  using E = CastElem;
  constexpr RoundModes none = modeBit(RoundMode::CAST_NONE);
  constexpr RoundModes rounding =
      modeBit(RoundMode::CAST_RINT) | modeBit(RoundMode::CAST_FLOOR) |
      modeBit(RoundMode::CAST_CEIL) | modeBit(RoundMode::CAST_ROUND) |
      modeBit(RoundMode::CAST_TRUNC);
  auto is = [&](E f, E t) { return from == f && to == t; };
  // Pairs both tables have, with the same modes.
  if (is(E::I8, E::F16) || is(E::U8, E::F16) || is(E::I16, E::F32) ||
      is(E::F16, E::F32) || is(E::BF16, E::F32) || is(E::I32, E::I16) ||
      is(E::I32, E::I64) || is(E::I64, E::I32))
    return none;
  if (is(E::F16, E::I16) || is(E::F16, E::I32) || is(E::BF16, E::I32) ||
      is(E::F32, E::I16) || is(E::F32, E::BF16) || is(E::F32, E::I32) ||
      is(E::F32, E::I64) || is(E::F32, E::F32) || is(E::I64, E::F32))
    return rounding;
  if (is(E::F32, E::F16))
    return rounding | modeBit(RoundMode::CAST_ODD) | none;
  if (!c310) {
    if (is(E::I16, E::F16) || is(E::F16, E::I8) || is(E::F16, E::U8) ||
        is(E::I32, E::F32))
      return rounding | none;
    return 0;
  }
  if (is(E::I8, E::I16) || is(E::I8, E::I32) || is(E::I16, E::U8) ||
      is(E::I16, E::I32) || is(E::I32, E::U8))
    return none;
  if (is(E::I16, E::F16) || is(E::F16, E::I8) || is(E::F16, E::U8) ||
      is(E::F16, E::BF16) || is(E::BF16, E::F16) || is(E::I32, E::F32))
    return rounding;
  return 0;
}

bool compareSupported(bool c310, mlir::Type elem, CmpMode mode) {
  CastElem e = castElemOf(elem);
  if (c310)
    return e != CastElem::Other;
  return e == CastElem::F16 || e == CastElem::F32 ||
         (e == CastElem::I32 && mode == CmpMode::EQ);
}

} // namespace asc2::ascendc
