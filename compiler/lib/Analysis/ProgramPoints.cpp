//===- ProgramPoints.cpp --------------------------------------------------===//
#include "asc2/Analysis/ProgramPoints.h"

using namespace mlir;

namespace asc2 {

ProgramPoints::ProgramPoints(func::FuncOp func) {
  func.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op == func.getOperation())
      return;
    points[op] = ops.size();
    ops.push_back(op);
  });
}

int ProgramPoints::lastPointIn(Operation *op) const {
  int last = pointOf(op);
  op->walk([&](Operation *nested) { last = std::max(last, pointOf(nested)); });
  return last;
}

} // namespace asc2
