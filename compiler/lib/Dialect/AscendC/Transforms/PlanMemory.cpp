//===- PlanMemory.cpp - byte offsets for local buffers --------------------===//
//
// Interval placement: buffers in order of their first use each take the
// lowest aligned offset whose bytes are free for their whole live range, so
// buffers that are never live together share memory (reuse), and the peak
// stays close to the most bytes live at any one point.
//
//===----------------------------------------------------------------------===//
#include "asc2/Analysis/BufferLiveness.h"
#include "asc2/Dialect/AscendC/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

#include <algorithm>

#define DEBUG_TYPE "ascendc-plan-memory"

namespace asc2::ascendc {
#define GEN_PASS_DEF_ASCENDCPLANMEMORY
#include "asc2/Dialect/AscendC/Transforms/Passes.h.inc"
} // namespace asc2::ascendc

using namespace mlir;
using namespace asc2;
using namespace asc2::ascendc;

namespace {
struct Placed {
  BufferInterval interval;
  int64_t offset, size;
};

/// A placed buffer whose last access is the op that first writes `iv`, and
/// which that op may overwrite in place.
const Placed *inPlaceSource(const BufferLiveness &liveness,
                            const BufferInterval &iv,
                            const std::vector<Placed> &placed) {
  if (iv.start > iv.end)
    return nullptr;
  auto op = dyn_cast<BufferAccessOpInterface>(liveness.getPoints().opAt(iv.start));
  if (!op)
    return nullptr;
  SmallVector<BufferAccess> accesses;
  op.getBufferAccesses(accesses);
  bool writesIt = llvm::any_of(accesses, [&](const BufferAccess &a) {
    return a.isWrite && a.buffer == iv.alloc.getBuffer();
  });
  if (!writesIt)
    return nullptr;
  for (const Placed &p : placed) {
    Value src = p.interval.alloc.getBuffer();
    if (p.interval.end != iv.start || !op.canWriteInPlace(src))
      continue;
    bool reads = llvm::any_of(accesses, [&](const BufferAccess &a) {
      return !a.isWrite && a.buffer == src;
    });
    if (reads)
      return &p;
  }
  return nullptr;
}

struct PlanMemoryPass
    : public asc2::ascendc::impl::AscendCPlanMemoryBase<PlanMemoryPass> {
  using AscendCPlanMemoryBase::AscendCPlanMemoryBase;

  void runOnOperation() override {
    BufferLiveness liveness(getOperation());
    std::vector<BufferInterval> order = liveness.getIntervals();
    std::stable_sort(order.begin(), order.end(),
                     [](const BufferInterval &a, const BufferInterval &b) {
                       return a.start < b.start;
                     });
    llvm::StringMap<std::vector<Placed>> placedBySpace;
    Builder b(&getContext());
    for (const BufferInterval &iv : order) {
      auto type = iv.alloc.getBuffer().getType();
      int64_t size = (type.getSizeInBytes() + alignment - 1) / alignment * alignment;
      std::vector<Placed> &placed = placedBySpace[type.getSpaceName()];
      // In place: the op that first writes this buffer may put its result in
      // a source that dies there (elementwise chains need no extra bytes).
      const Placed *source = reuse ? inPlaceSource(liveness, iv, placed) : nullptr;
      // Candidate offsets: 0 and the end of every buffer that conflicts.
      std::vector<std::pair<int64_t, int64_t>> busy;
      for (const Placed &p : placed)
        if (&p != source &&
            (!reuse || p.interval.interferes(iv) || iv.start > iv.end))
          busy.push_back({p.offset, p.offset + p.size});
      std::sort(busy.begin(), busy.end());
      int64_t offset = 0;
      bool sourceFree = source != nullptr;
      for (auto [lo, hi] : busy)
        if (source && lo < source->offset + size && source->offset < hi)
          sourceFree = false;
      if (sourceFree) {
        offset = source->offset;
        ++numInPlace;
      } else {
        for (auto [lo, hi] : busy) {
          if (offset + size <= lo)
            break;
          offset = std::max(offset, hi);
        }
      }
      iv.alloc.setOffsetAttr(b.getI64IntegerAttr(offset));
      placed.push_back({iv, offset, size});
      ++numPlaced;
    }
  }
};
} // namespace
