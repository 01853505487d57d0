//===- PlanMemory.cpp - byte offsets for local buffers --------------------===//
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
// not fit the UB, they may share after all.
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

/// Whether the op that first writes `result` is the last access of `src` and
/// may overwrite it in place (elementwise, same bytes).
bool writesInPlaceOf(const BufferLiveness &liveness, const BufferInterval &result,
                     const BufferInterval &src) {
  if (result.start > result.end || src.end != result.start)
    return false;
  auto op = dyn_cast<BufferAccessOpInterface>(liveness.getPoints().opAt(result.start));
  if (!op || !op.canWriteInPlace(src.alloc.getBuffer()))
    return false;
  SmallVector<BufferAccess> accesses;
  op.getBufferAccesses(accesses);
  bool writes = false, reads = false;
  for (const BufferAccess &a : accesses) {
    writes |= a.isWrite && a.buffer == result.alloc.getBuffer();
    reads |= !a.isWrite && a.buffer == src.alloc.getBuffer();
  }
  return writes && reads;
}

struct Placement {
  std::vector<std::pair<BufferInterval, int64_t>> offsets;
  int64_t peak = 0; // summed over spaces: one number to compare strategies
  int64_t ubPeak = 0, l1Peak = 0;
  int inPlace = 0;
};

struct PlanMemoryPass
    : public asc2::ascendc::impl::AscendCPlanMemoryBase<PlanMemoryPass> {
  using AscendCPlanMemoryBase::AscendCPlanMemoryBase;

  int64_t alignedSize(const BufferInterval &iv) {
    int64_t bytes = iv.alloc.getBuffer().getType().getSizeInBytes();
    return (bytes + alignment - 1) / alignment * alignment;
  }

  /// First fit in `order`: each buffer takes the bytes of an in-place partner
  /// (a source it overwrites, or a result that overwrites it) when nothing
  /// else needs them, else the lowest offset free over its live range.
  Placement place(const BufferLiveness &liveness,
                  const std::vector<BufferInterval> &order, bool keepDmaApart) {
    Placement result;
    llvm::StringMap<std::vector<Placed>> placedBySpace;
    llvm::StringMap<int64_t> peaks;
    for (const BufferInterval &iv : order) {
      auto type = iv.alloc.getBuffer().getType();
      int64_t size = alignedSize(iv);
      std::vector<Placed> &placed = placedBySpace[type.getSpaceName()];
      // In-place partners already placed: a source `iv` may overwrite, or a
      // result that may overwrite `iv` (placed first by some orders).
      std::vector<const Placed *> partners;
      if (reuse)
        for (const Placed &p : placed)
          if ((writesInPlaceOf(liveness, iv, p.interval) ||
               writesInPlaceOf(liveness, p.interval, iv)) &&
              !(keepDmaApart && p.interval.dmaPair(iv)))
            partners.push_back(&p);
      auto isBusy = [&](const Placed &p) {
        return !reuse || iv.start > iv.end || p.interval.interferes(iv, keepDmaApart);
      };
      // A partner's exact bytes, when nothing else needs them meanwhile.
      std::optional<int64_t> offset;
      for (const Placed *partner : partners) {
        int64_t at = partner->offset;
        bool free = llvm::none_of(placed, [&](const Placed &p) {
          bool sameBytes = p.offset == at && p.size == size &&
                           llvm::is_contained(partners, &p);
          return !sameBytes && isBusy(p) && p.offset < at + size && at < p.offset + p.size;
        });
        if (free) {
          offset = at;
          ++result.inPlace;
          break;
        }
      }
      if (!offset) {
        std::vector<std::pair<int64_t, int64_t>> busy;
        for (const Placed &p : placed)
          if (isBusy(p))
            busy.push_back({p.offset, p.offset + p.size});
        std::sort(busy.begin(), busy.end());
        offset = 0;
        for (auto [lo, hi] : busy) {
          if (*offset + size <= lo)
            break;
          offset = std::max(*offset, hi);
        }
      }
      placed.push_back({iv, *offset, size});
      result.offsets.push_back({iv, *offset});
      int64_t &peak = peaks[type.getSpaceName()];
      peak = std::max(peak, *offset + size);
    }
    for (auto &entry : peaks)
      result.peak += entry.getValue();
    result.ubPeak = peaks.lookup("UB");
    result.l1Peak = peaks.lookup("L1");
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
    std::vector<std::vector<BufferInterval>> orders(4, liveness.getIntervals());
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
    // The DMA buffers of multi-buffered loops first (each copy's loaded and
    // stored tiles), then by first use: a copy's temporaries then fit into
    // its own DMA buffers' bytes while those are idle.
    std::stable_sort(orders[3].begin(), orders[3].end(),
                     [&](const BufferInterval &a, const BufferInterval &b) {
                       bool da = a.loopStart <= a.loopEnd, db = b.loopStart <= b.loopEnd;
                       return da != db ? da : a.start < b.start;
                     });
    bool multiBuffered = llvm::any_of(liveness.getIntervals(), [](const BufferInterval &iv) {
      return iv.loaded || iv.stored;
    });
    std::optional<Placement> best;
    for (bool keepDmaApart : {multiBuffered, false}) {
      for (const auto &order : orders) {
        Placement p = place(liveness, order, keepDmaApart);
        if (!best || p.peak < best->peak)
          best = std::move(p);
        if (!reuse)
          break; // without reuse the order only permutes the same sum
      }
      if (!keepDmaApart)
        break; // over capacity either way: ComputeMemoryConsumption reports it
      if (best->ubPeak <= ubCapacity && best->l1Peak <= l1Capacity) {
        // The lower bound in the report counts the same constraints.
        getOperation()->setAttr("ascendc.dma_apart", UnitAttr::get(&getContext()));
        break;
      }
      best.reset();
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
