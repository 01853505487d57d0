//===- Passes.h - ascendc passes ------------------------------------*- C++ -*-===//
#ifndef ASC2_DIALECT_ASCENDC_TRANSFORMS_PASSES_H
#define ASC2_DIALECT_ASCENDC_TRANSFORMS_PASSES_H

#include "asc2/Dialect/AscendC/IR/AscendC.h"
#include "mlir/Pass/Pass.h"

namespace asc2::ascendc {
#define GEN_PASS_DECL
#include "asc2/Dialect/AscendC/Transforms/Passes.h.inc"

/// Which cores an op needs: the vector core (PIPE_V, UB), the cube core
/// (L1/L0, MTE1/M/FIX), or either (scalar work, GM-only ops).
enum class CoreKind { Either, Vector, Cube };
CoreKind coreKindOf(mlir::Operation *op);
/// "AIV_ONLY", "AIC_ONLY" or "MIX" (also set as `ascendc.kernel_type` by
/// the ascendc-detect-kernel-type pass).
llvm::StringRef detectKernelType(mlir::func::FuncOp func);
/// Vector cores per cube core of a MIX kernel: 2 when
/// asctile-split-vector-work divided its vector work (KERNEL_TYPE_MIX_AIC_1_2),
/// else 1.
int vectorCoresPerGroup(mlir::func::FuncOp func);
/// A MIX_AIC_1_2 kernel whose vector work only the first vector core of a
/// group does (asctile-split-vector-work could not divide it): the second
/// runs the control flow and the cross-core flags, nothing else.
bool firstVectorCoreOnly(mlir::func::FuncOp func);
/// A set_flag/wait_flag between the cores of a MIX group (CrossCoreSetFlag /
/// CrossCoreWaitFlag), or an op holding one.
bool holdsCrossCoreFlag(mlir::Operation *op);

#define GEN_PASS_REGISTRATION
#include "asc2/Dialect/AscendC/Transforms/Passes.h.inc"
} // namespace asc2::ascendc

#endif
