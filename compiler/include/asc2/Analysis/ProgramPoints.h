//===- ProgramPoints.h - stable op numbering -----------------------*- C++ -*-===//
//
// Program points number the ops of a function in pre-order. Computed on the
// final IR they are the indices every report entry and every view links by.
//
//===----------------------------------------------------------------------===//
#ifndef ASC2_ANALYSIS_PROGRAMPOINTS_H
#define ASC2_ANALYSIS_PROGRAMPOINTS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseMap.h"

#include <vector>

namespace asc2 {

class ProgramPoints {
public:
  explicit ProgramPoints(mlir::func::FuncOp func);

  int pointOf(mlir::Operation *op) const {
    auto it = points.find(op);
    return it == points.end() ? -1 : it->second;
  }
  mlir::Operation *opAt(int point) const { return ops[point]; }
  int size() const { return ops.size(); }
  /// Last program point nested in `op` (op itself when it has no regions).
  int lastPointIn(mlir::Operation *op) const;

private:
  llvm::DenseMap<mlir::Operation *, int> points;
  std::vector<mlir::Operation *> ops;
  std::vector<int> lastPoints; // by point
};

} // namespace asc2

#endif
