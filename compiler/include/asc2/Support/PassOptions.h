//===- PassOptions.h - range checks of numeric pass options -----*- C++ -*-===//
//
// A pass option of 0 or a negative value where the pass divides by it or
// counts with it (alignment=0 divided by zero) is an error naming the pass
// and the option, not a crash or a silently odd plan.
//
//===----------------------------------------------------------------------===//
#ifndef ASC2_SUPPORT_PASSOPTIONS_H
#define ASC2_SUPPORT_PASSOPTIONS_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/StringRef.h"

namespace asc2 {

/// Fails (with an error on `op`) unless `value >= min`; with `powerOfTwo`,
/// also unless it is a power of two.
inline mlir::LogicalResult checkOption(mlir::Operation *op, llvm::StringRef pass,
                                       llvm::StringRef option, int64_t value,
                                       int64_t min, bool powerOfTwo = false) {
  bool ok = value >= min && (!powerOfTwo || (value & (value - 1)) == 0);
  if (ok)
    return mlir::success();
  auto diag = op->emitError() << pass << ": option " << option << "=" << value
                              << " is invalid; it must be ";
  if (powerOfTwo)
    diag << "a power of two";
  else
    diag << "at least " << min;
  return mlir::failure();
}

} // namespace asc2

#endif // ASC2_SUPPORT_PASSOPTIONS_H
