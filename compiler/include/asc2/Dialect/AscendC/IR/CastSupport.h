//===- CastSupport.h - Which Cast and Compare calls each target has -*- C++ -*-===//
//
// The element types and round modes Ascend C's Cast and Compare take on
// Atlas A2/A3 (c220) and Ascend 950 (c310), from the API reference's tables
// (mirror-cann/asc-devkit@82b89a15f: docs/zh/api/SIMD-API/基础API/Memory矢量计算/
// 类型转换/Cast.md, 比较与选择/Compare.md and Compares.md, "数据类型"). The
// lowering plans every conversion in these calls (Conversion/AscTileToAscendC/
// TypeSupport.cpp) and the emitter refuses anything else, so code that the
// CPU-debug headers accept but the device cannot run is never written.
//
//===----------------------------------------------------------------------===//
#ifndef ASC2_DIALECT_ASCENDC_IR_CASTSUPPORT_H
#define ASC2_DIALECT_ASCENDC_IR_CASTSUPPORT_H

#include "asc2/Dialect/AscendC/IR/AscendC.h"

namespace asc2::ascendc {

/// The element types conversions are planned over.
enum class CastElem { F32, F16, BF16, I64, I32, I16, I8, U8, Other };

CastElem castElemOf(mlir::Type t);
bool isFloatElem(CastElem e);
unsigned widthOf(CastElem e);

/// Round modes as a bit set: bit `unsigned(RoundMode)`.
using RoundModes = unsigned;
constexpr RoundModes modeBit(RoundMode m) { return 1u << unsigned(m); }

/// The round modes Cast(dst `to`, src `from`) takes on the target, 0 when
/// there is no such call. int32 -> half needs SetDeqScale and is left out.
RoundModes castRoundModes(bool c310, CastElem from, CastElem to);

/// Whether Compare/Compares take `elem` operands in `mode` on the target
/// (A2/A3: half and float in every mode, int32 in EQ only).
bool compareSupported(bool c310, mlir::Type elem, CmpMode mode);

} // namespace asc2::ascendc

#endif
