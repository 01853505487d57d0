//===- KindedError.h - Errors that carry their ErrorKind ----------*- C++ -*-===//
//
// An MLIR diagnostic carries text and a location only (MLIR 19 has no
// diagnostic metadata), so the code that emits an error of a known kind tags
// it on the way out and the driver's diagnostic handler takes the tag back
// with the diagnostic. The tag is per thread: the driver compiles with
// threading disabled, so a diagnostic reaches the handler on the thread that
// emitted it. Without a driver (asc2-opt) the tag is simply never read.
//
//===----------------------------------------------------------------------===//
#ifndef ASC2_SUPPORT_KINDEDERROR_H
#define ASC2_SUPPORT_KINDEDERROR_H

#include "asc2/Report/ErrorKind.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Operation.h"

namespace asc2 {

/// `op->emitOpError()`, tagged with `kind`.
mlir::InFlightDiagnostic emitOpErrorOfKind(mlir::Operation *op, ErrorKind kind);
/// `op->emitError()`, tagged with `kind`.
mlir::InFlightDiagnostic emitErrorOfKind(mlir::Operation *op, ErrorKind kind);

/// The kind `diag` was tagged with, or Compile; clears the tag. For the
/// handler that receives every diagnostic of a compile.
ErrorKind takeErrorKind(const mlir::Diagnostic &diag);

} // namespace asc2

#endif
