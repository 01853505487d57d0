//===- UserTerms.h - IR things spelled as a kernel author writes them -*- C++ -*-===//
//
// Errors a user sees name tiles the way the Python kernel does ("tile [64, 128]
// float32") and places as file:line:col, never as MLIR types or loc(...).
//
//===----------------------------------------------------------------------===//
#ifndef ASC2_SUPPORT_USERTERMS_H
#define ASC2_SUPPORT_USERTERMS_H

#include "mlir/IR/Location.h"
#include "mlir/IR/Types.h"
#include "llvm/ADT/ArrayRef.h"

#include <string>

namespace asc2 {

/// numpy-style element type name: float32, bfloat16, int8, uint8, bool.
std::string userElementTypeName(mlir::Type type);

/// "tile [40000] float32" for a tile of that shape and element type.
std::string userTileName(llvm::ArrayRef<int64_t> shape, mlir::Type elementType);

/// "file.py:7:19" for the first file location inside `loc` ("" when none).
std::string userLocation(mlir::Location loc);

} // namespace asc2

#endif // ASC2_SUPPORT_USERTERMS_H
