//===- BufferLiveness.h - live ranges of local buffers -------------*- C++ -*-===//
//
// A buffer is live from its first to its last access. Loops are understood:
// a buffer whose first access inside a loop body is a read carries its value
// around the back-edge, so it is live for the whole loop; so is a buffer a
// DMA pipe (MTE*) moves inside an unrolled loop, so the ping/pong copies of
// the body never share bytes.
//
//===----------------------------------------------------------------------===//
#ifndef ASC2_ANALYSIS_BUFFERLIVENESS_H
#define ASC2_ANALYSIS_BUFFERLIVENESS_H

#include "asc2/Analysis/ProgramPoints.h"
#include "asc2/Dialect/AscendC/IR/AscendC.h"

#include <vector>

namespace asc2 {

struct BufferInterval {
  mutable ascendc::AllocLocalOp alloc; // op handles are used through const refs
  int start = 0, end = 0; // inclusive program points; start > end if unused
  /// A buffer that must not share bytes with this one although their ranges
  /// are disjoint in program order (the last and the first cube operand of a
  /// loop body meet across the back-edge).
  mutable ascendc::AllocLocalOp apartFrom;
  bool interferes(const BufferInterval &o) const {
    if ((apartFrom && apartFrom == o.alloc) || (o.apartFrom && o.apartFrom == alloc))
      return true;
    return start <= o.end && o.start <= end;
  }
};

class BufferLiveness {
public:
  /// `keepCopiesApart`: DMA buffers of unrolled loops live for the whole
  /// loop (see above); false gives the plain first-to-last-access ranges.
  explicit BufferLiveness(mlir::func::FuncOp func, bool keepCopiesApart = true);

  const ProgramPoints &getPoints() const { return points; }
  const std::vector<BufferInterval> &getIntervals() const { return intervals; }
  /// Largest number of bytes live at any point of `space` (lower bound for
  /// any placement).
  int64_t maxLiveBytes(llvm::StringRef space) const;

private:
  ProgramPoints points;
  std::vector<BufferInterval> intervals;
};

} // namespace asc2

#endif
