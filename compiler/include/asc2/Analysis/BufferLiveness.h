//===- BufferLiveness.h - live ranges of local buffers -------------*- C++ -*-===//
//
// A buffer is live from its first to its last access. Loops are understood:
// a buffer whose first access inside a loop body is a read carries its value
// around the back-edge, so it is live for the whole loop. A buffer a DMA pipe
// (MTE*) moves inside an unrolled loop is kept apart from every buffer of the
// other copies (ping/pong slots) of that loop's body, so the next copy's load
// and this copy's store never wait for the other copy's compute; within its
// own copy it shares bytes like any other buffer (in-place chains from the
// loaded tile to the stored one). The loaded and stored buffers of one loop
// (unrolled or not) are its "DMA pair": the planner keeps them apart when it
// can, so that a load never waits for the store of the trip before.
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
  /// The unrolled copy (ping/pong slot) the buffer belongs to; -1: none.
  int slot = -1;
  /// A DMA buffer of an unrolled loop: the loop's program points; empty
  /// (loopStart > loopEnd) otherwise.
  int loopStart = 0, loopEnd = -1;
  /// A DMA buffer of a loop that is not unrolled (single-buffered): the
  /// innermost such loop's first program point; -1 otherwise.
  int plainLoop = -1;
  /// Filled by MTE2 / read by MTE3 inside that loop (unrolled or not).
  bool loaded = false, stored = false;

  bool overlaps(const BufferInterval &o) const {
    return start <= o.end && o.start <= end;
  }
  /// This DMA buffer and `o`, a buffer of another copy of the same loop.
  bool apartInLoop(const BufferInterval &o) const {
    return loopStart <= loopEnd && o.start <= o.end && o.start <= loopEnd &&
           loopStart <= o.end && (o.slot < 0 || o.slot != slot);
  }
  /// Two DMA buffers of one loop: sharing bytes would make one transfer
  /// wait for the other's consumer (the next trip's load behind this trip's
  /// store, or a load behind the compute that reads the other load).
  /// In a loop that is not unrolled the same holds for one copy: a tile
  /// stored in place of the tile its trip loaded makes the next trip's load
  /// wait for this trip's store.
  bool dmaPair(const BufferInterval &o) const {
    if (loopStart <= loopEnd)
      return loopStart == o.loopStart;
    return plainLoop >= 0 && plainLoop == o.plainLoop && o.loopStart > o.loopEnd;
  }
  /// `keepDmaApart`: also keep the DMA buffers of a loop's copy apart (a
  /// preference: the planner drops it when the buffers do not fit).
  bool interferes(const BufferInterval &o, bool keepDmaApart = false) const {
    if ((apartFrom && apartFrom == o.alloc) || (o.apartFrom && o.apartFrom == alloc))
      return true;
    return overlaps(o) || apartInLoop(o) || o.apartInLoop(*this) ||
           (keepDmaApart && dmaPair(o));
  }
};

class BufferLiveness {
public:
  /// `keepCopiesApart`: DMA buffers of unrolled loops stay apart from the
  /// other copies (see above); false gives the plain first-to-last-access
  /// ranges and nothing else.
  explicit BufferLiveness(mlir::func::FuncOp func, bool keepCopiesApart = true);

  const ProgramPoints &getPoints() const { return points; }
  const std::vector<BufferInterval> &getIntervals() const { return intervals; }
  /// Lower bound for any placement of `space`: the most bytes live at one
  /// point, plus, inside an unrolled loop, the DMA buffers that must stay
  /// apart from everything live there (other copies' buffers; with
  /// `keepDmaApart`, also the other DMA buffers of the same copy).
  int64_t maxLiveBytes(llvm::StringRef space, bool keepDmaApart = false) const;

  /// Whether `result` may take the bytes of `src`: from result's first
  /// access to src's last, every op that touches either writes `result`
  /// reading `src` in lockstep (canWriteInPlace: each element read before
  /// it is written), in one block, and src's last access is one of them. One
  /// op in the common case; a run of level-0 calls (one per row) when an
  /// op on a broadcast operand was lowered row by row.
  bool writesInPlaceOf(const BufferInterval &result, const BufferInterval &src) const;

  /// One line per buffer in IR order (live range with the ops at its ends,
  /// slot, DMA loop, the buffer it stays apart from), then the most bytes
  /// live at once per space.
  void print(llvm::raw_ostream &os) const;

private:
  mutable mlir::func::FuncOp func; // op handles are used through const refs
  ProgramPoints points;
  std::vector<BufferInterval> intervals;
};

} // namespace asc2

#endif
