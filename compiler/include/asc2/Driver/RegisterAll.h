//===- RegisterAll.h - every dialect and pass of asc2 --------------*- C++ -*-===//
#ifndef ASC2_DRIVER_REGISTERALL_H
#define ASC2_DRIVER_REGISTERALL_H

#include "mlir/IR/DialectRegistry.h"

namespace asc2 {
/// One registration serves asc2-opt, the Python module, the app and tests.
void registerAllDialects(mlir::DialectRegistry &registry);
void registerAllPasses();
} // namespace asc2

#endif
