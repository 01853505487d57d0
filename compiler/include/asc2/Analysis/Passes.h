//===- Passes.h - passes that print the analyses --------------------*- C++ -*-===//
#ifndef ASC2_ANALYSIS_PASSES_H
#define ASC2_ANALYSIS_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

namespace asc2 {
#define GEN_PASS_DECL
#include "asc2/Analysis/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "asc2/Analysis/Passes.h.inc"
} // namespace asc2

#endif
