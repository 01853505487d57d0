//===- PlanMemory.cpp - byte offsets for local buffers --------------------===//
//
// Interval placement: buffers each take the lowest aligned offset whose bytes
// are free for their whole live range (or, written in place, the bytes of a
// source that dies at their op), so buffers that are never live together share
// memory and the peak stays at or near the most bytes live at any one point.
// A few buffer orders are tried; the lowest peak wins.
//
//===----------------------------------------------------------------------===//
#include "asc2/Analysis/BufferLiveness.h"
#include "asc2/Dialect/AscendC/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

#include <algorithm>
#include <optional>

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

struct Placement {
  std::vector<std::pair<BufferInterval, int64_t>> offsets;
  int64_t peak = 0; // summed over spaces: one number to compare strategies
  int inPlace = 0;
};

struct PlanMemoryPass
    : public asc2::ascendc::impl::AscendCPlanMemoryBase<PlanMemoryPass> {
  using AscendCPlanMemoryBase::AscendCPlanMemoryBase;

  int64_t alignedSize(const BufferInterval &iv) {
    int64_t bytes = iv.alloc.getBuffer().getType().getSizeInBytes();
    return (bytes + alignment - 1) / alignment * alignment;
  }

  /// First fit in `order`: each buffer takes its source's bytes when it may
  /// be written in place, else the lowest offset free over its live range.
  Placement place(const BufferLiveness &liveness,
                  const std::vector<BufferInterval> &order) {
    Placement result;
    llvm::StringMap<std::vector<Placed>> placedBySpace;
    llvm::StringMap<int64_t> peaks;
    for (const BufferInterval &iv : order) {
      auto type = iv.alloc.getBuffer().getType();
      int64_t size = alignedSize(iv);
      std::vector<Placed> &placed = placedBySpace[type.getSpaceName()];
      const Placed *source = reuse ? inPlaceSource(liveness, iv, placed) : nullptr;
      std::vector<std::pair<int64_t, int64_t>> busy;
      for (const Placed &p : placed)
        if (&p != source &&
            (!reuse || p.interval.interferes(iv) || iv.start > iv.end))
          busy.push_back({p.offset, p.offset + p.size});
      std::sort(busy.begin(), busy.end());
      bool sourceFree = source != nullptr;
      for (auto [lo, hi] : busy)
        if (source && lo < source->offset + size && source->offset < hi)
          sourceFree = false;
      int64_t offset = 0;
      if (sourceFree) {
        offset = source->offset;
        ++result.inPlace;
      } else {
        for (auto [lo, hi] : busy) {
          if (offset + size <= lo)
            break;
          offset = std::max(offset, hi);
        }
      }
      placed.push_back({iv, offset, size});
      result.offsets.push_back({iv, offset});
      int64_t &peak = peaks[type.getSpaceName()];
      peak = std::max(peak, offset + size);
    }
    for (auto &entry : peaks)
      result.peak += entry.getValue();
    return result;
  }

  void runOnOperation() override {
    BufferLiveness liveness(getOperation(), /*keepCopiesApart=*/!shareCopies);
    // A few orders; the placement with the lowest peak wins. By first use
    // keeps in-place chains; largest first and longest-lived first avoid the
    // fragmentation a large late buffer suffers behind small early ones.
    auto byStart = [](const BufferInterval &a, const BufferInterval &b) {
      return a.start < b.start;
    };
    std::vector<std::vector<BufferInterval>> orders(3, liveness.getIntervals());
    std::stable_sort(orders[0].begin(), orders[0].end(), byStart);
    std::stable_sort(orders[1].begin(), orders[1].end(),
                     [&](const BufferInterval &a, const BufferInterval &b) {
                       int64_t sa = alignedSize(a), sb = alignedSize(b);
                       return sa != sb ? sa > sb : a.start < b.start;
                     });
    std::stable_sort(orders[2].begin(), orders[2].end(),
                     [&](const BufferInterval &a, const BufferInterval &b) {
                       int la = a.end - a.start, lb = b.end - b.start;
                       return la != lb ? la > lb : a.start < b.start;
                     });
    std::optional<Placement> best;
    for (const auto &order : orders) {
      Placement p = place(liveness, order);
      if (!best || p.peak < best->peak)
        best = std::move(p);
      if (!reuse)
        break; // without reuse the order only permutes the same sum
    }
    Builder b(&getContext());
    for (auto &[iv, offset] : best->offsets) {
      iv.alloc.setOffsetAttr(b.getI64IntegerAttr(offset));
      ++numPlaced;
    }
    numInPlace += best->inPlace;
  }
};
} // namespace
