//===- EmitAscendC.h - ascendc IR to Ascend C source ---------------*- C++ -*-===//
#ifndef ASC2_TARGET_ASCENDC_EMITASCENDC_H
#define ASC2_TARGET_ASCENDC_EMITASCENDC_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

namespace asc2 {
/// Writes one Ascend C kernel per function. `socVersion` is the arch
/// model's ("c220" for A2/A3, "c310" for A5) and goes into the header comment.
/// `staticAlloc`: LocalTensors at fixed UB addresses; otherwise a TPipe owns
/// one TBuf per memory space, sized to the planned peak, and every buffer is
/// a view at its planned offset (the addresses, hence the simulation, are the
/// same in both modes).
mlir::LogicalResult emitAscendC(mlir::ModuleOp module,
                                llvm::StringRef socVersion, bool staticAlloc,
                                llvm::raw_ostream &os);
} // namespace asc2

#endif
