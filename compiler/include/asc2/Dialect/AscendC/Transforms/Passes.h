//===- Passes.h - ascendc passes ------------------------------------*- C++ -*-===//
#ifndef ASC2_DIALECT_ASCENDC_TRANSFORMS_PASSES_H
#define ASC2_DIALECT_ASCENDC_TRANSFORMS_PASSES_H

#include "asc2/Dialect/AscendC/IR/AscendC.h"
#include "mlir/Pass/Pass.h"

namespace asc2::ascendc {
#define GEN_PASS_DECL
#include "asc2/Dialect/AscendC/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "asc2/Dialect/AscendC/Transforms/Passes.h.inc"
} // namespace asc2::ascendc

#endif
