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
  // In pre-order an op's nested ops follow it: its last point is the
  // largest of theirs, known once the post-order walk reaches it.
  lastPoints.resize(ops.size());
  for (int p = 0, e = ops.size(); p < e; ++p)
    lastPoints[p] = p;
  func.walk([&](Operation *op) {
    Operation *parent = op->getParentOp();
    if (op == func.getOperation() || parent == func.getOperation())
      return;
    int &last = lastPoints[pointOf(parent)];
    last = std::max(last, lastPoints[pointOf(op)]);
  });
}

int ProgramPoints::lastPointIn(Operation *op) const {
  int point = pointOf(op);
  return point < 0 ? -1 : lastPoints[point];
}

} // namespace asc2
