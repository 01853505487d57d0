//===- Passes.td - asctile passes ----------------------------*- tablegen -*-===//
#ifndef ASCTILE_PASSES
#define ASCTILE_PASSES

include "mlir/Pass/PassBase.td"

def AscTileExpandFusedOps : Pass<"asctile-expand-fused-ops", "::mlir::func::FuncOp"> {
  let summary = "Expand softmax, rms_norm and layer_norm into tile ops";
  let description = [{
    Each fused op becomes reductions along the last dimension, broadcasts and
    elementwise arith/math on tiles, so later passes see only primitives.
  }];
  let dependentDialects = ["::mlir::math::MathDialect"];
}

def AscTileTransformMathOps : Pass<"asctile-transform-math-ops", "::mlir::func::FuncOp"> {
  let summary = "Rewrite math ops without a vector instruction";
  let description = [{
    tanh, sinh, cosh, erf, exp2, log2, floor and ceil on tiles become
    exp/log/div/cast sequences the vector unit has instructions for. erf
    uses Abramowitz & Stegun 7.1.26 (absolute error below 1.5e-7).
  }];
  let dependentDialects = ["::mlir::math::MathDialect"];
}

#endif
