//===- UbPlan.h - byte offsets for local buffers --------------------*- C++ -*-===//
//
// Interval placement: buffers each take the lowest aligned offset whose bytes
// are free for their whole live range (or, written in place, the bytes of a
// source that dies at their op, in whichever order the two are placed), so
// buffers that are never live together share memory and the peak stays at or
// near the most bytes live at any one point.
// A few buffer orders are tried; the lowest peak wins.
//
// In multi-buffered loops the DMA buffers (loaded and stored tiles) of a copy
// are first kept in separate bytes, so the next trip's load does not wait for
// this trip's store nor one load for the consumer of another; when that does
// not fit the UB, they may share after all; and when the copies' buffers
// kept apart from each other still do not fit, the copies share too.
//
// Every local space (UB, L1, L0A/B/C, BT) is planned, each on its own; the
// name is the space planning is mostly about. ascendc-plan-memory writes the
// offsets into the IR.
//
//===----------------------------------------------------------------------===//
#ifndef ASC2_ANALYSIS_UBPLAN_H
#define ASC2_ANALYSIS_UBPLAN_H

#include "asc2/Analysis/BufferLiveness.h"

#include <vector>

namespace asc2 {

/// In the order of ascendc-plan-memory's options, which passes brace-initialise
/// it from.
struct UbPlanOptions {
  int64_t alignment = 32;
  /// Above these, the DMA buffers of a copy may share bytes.
  int64_t ubCapacity = 188416, l1Capacity = 524160; // Ascend910B1 (resources/arch)
  /// Share bytes between buffers that are never live together. Without it
  /// an elementwise result still takes the bytes of a source that dies at
  /// its op (and so on along a chain of them), as upstream PyAsc2 does at
  /// every reuse_alloc level.
  bool reuse = true;
  /// Let the DMA buffers of the copies of an unrolled loop share bytes too.
  bool shareCopies = false;

  /// Fails (with an error on `op` naming `pass`) for an alignment that is
  /// not a power of two or a negative capacity.
  mlir::LogicalResult check(mlir::Operation *op, llvm::StringRef pass) const;
};

struct BufferPlacement {
  BufferInterval interval;
  int64_t offset, size; // size: aligned bytes
};

class UbPlan {
public:
  explicit UbPlan(mlir::func::FuncOp func, const UbPlanOptions &options = {});

  const BufferLiveness &getLiveness() const { return liveness; }
  /// Every buffer, in the order the winning strategy placed them.
  const std::vector<BufferPlacement> &getPlacements() const { return placements; }
  /// End of the highest buffer of `space` (0 when it has none).
  int64_t getPeak(llvm::StringRef space) const { return peaks.lookup(space); }
  /// Results placed over a source that dies at their op.
  int getNumInPlace() const { return numInPlace; }
  /// Whether the DMA buffers of each copy of a multi-buffered loop got bytes
  /// of their own (the lower bound of the report then counts them apart).
  bool keepsDmaApart() const { return dmaApart; }
  /// Whether the DMA buffers of an unrolled loop's copies share bytes because
  /// keeping them apart did not fit (the liveness is then the plain one).
  bool sharesCopies() const { return copiesShared; }
  /// When they share: the space kept apart would have overflowed ("UB" or "L1"), the bytes that
  /// would have needed and its capacity.
  llvm::StringRef getSharedSpace() const { return sharedSpace; }
  int64_t getApartPeak() const { return apartPeak; }
  int64_t getSharedCapacity() const { return sharedCapacity; }

  /// The buffers in IR order with their offsets, then the peak and lower
  /// bound of each space.
  void print(llvm::raw_ostream &os) const;

private:
  mutable mlir::func::FuncOp func; // op handles are used through const refs
  UbPlanOptions options;
  BufferLiveness liveness;
  std::vector<BufferPlacement> placements;
  llvm::StringMap<int64_t> peaks;
  int numInPlace = 0;
  bool dmaApart = false;
  bool copiesShared = false;
  llvm::StringRef sharedSpace;
  int64_t apartPeak = 0, sharedCapacity = 0;
};

} // namespace asc2

#endif
