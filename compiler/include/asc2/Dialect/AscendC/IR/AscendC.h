//===- AscendC.h - ascendc dialect ---------------------------------*- C++ -*-===//
#ifndef ASC2_DIALECT_ASCENDC_IR_ASCENDC_H
#define ASC2_DIALECT_ASCENDC_IR_ASCENDC_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "asc2/Arch/Pipe.h"
#include "asc2/Dialect/AscendC/IR/AscendCDialect.h.inc"
#include "asc2/Dialect/AscendC/IR/AscendCEnums.h.inc"

namespace asc2::ascendc {
/// The ops' pipe attributes hold the one pipe enum of asc2/Arch/Pipe.h.
using ::asc2::Pipe;
/// pipeName() as an llvm::StringRef, for diagnostics and Twines.
inline llvm::StringRef stringifyPipe(Pipe p) { return pipeName(p); }

/// One buffer an op touches: a local buffer or a global tensor.
struct BufferAccess {
  mlir::Value buffer;
  bool isWrite = false;
};
} // namespace asc2::ascendc

#include "asc2/Dialect/AscendC/IR/AscendCInterfaces.h.inc"

#define GET_TYPEDEF_CLASSES
#include "asc2/Dialect/AscendC/IR/AscendCTypes.h.inc"

namespace asc2::ascendc {
/// True when every local-buffer operand of `op` has the same element type.
inline bool haveSameElementType(mlir::Operation *op) {
  mlir::Type elem;
  for (mlir::Value v : op->getOperands())
    if (auto t = mlir::dyn_cast<LocalType>(v.getType())) {
      if (elem && elem != t.getElementType())
        return false;
      elem = t.getElementType();
    }
  return true;
}
/// Two local buffer types with the same element type and size.
bool sameBytes(mlir::Type a, mlir::Type b);
} // namespace asc2::ascendc

#define GET_OP_CLASSES
#include "asc2/Dialect/AscendC/IR/AscendCOps.h.inc"

#endif
