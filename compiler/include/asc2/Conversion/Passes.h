//===- Passes.h - conversions ----------------------------------------*- C++ -*-===//
#ifndef ASC2_CONVERSION_PASSES_H
#define ASC2_CONVERSION_PASSES_H

#include "asc2/Dialect/AscTile/IR/AscTile.h"
#include "asc2/Dialect/AscendC/IR/AscendC.h"
#include "mlir/Pass/Pass.h"

namespace asc2 {
#define GEN_PASS_DECL
#include "asc2/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "asc2/Conversion/Passes.h.inc"
} // namespace asc2

#endif
