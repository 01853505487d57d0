//===- UbPlan.cpp ---------------------------------------------------------===//
#include "asc2/Analysis/UbPlan.h"
#include "asc2/Support/PassOptions.h"

#include <algorithm>
#include <optional>

using namespace mlir;
using namespace asc2::ascendc;

namespace asc2 {

LogicalResult UbPlanOptions::check(Operation *op, StringRef pass) const {
  return success(succeeded(checkOption(op, pass, "alignment", alignment, 1, /*powerOfTwo=*/true)) &&
                 succeeded(checkOption(op, pass, "ub-capacity", ubCapacity, 0)) &&
                 succeeded(checkOption(op, pass, "l1-capacity", l1Capacity, 0)));
}

namespace {

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
  std::vector<BufferPlacement> buffers;
  llvm::StringMap<int64_t> peaks;
  int64_t peak = 0; // summed over spaces: one number to compare strategies
  int inPlace = 0;
};

class Placer {
public:
  Placer(const BufferLiveness &liveness, const UbPlanOptions &options)
      : liveness(liveness), options(options) {}

  int64_t alignedSize(const BufferInterval &iv) const {
    int64_t bytes = iv.alloc.getBuffer().getType().getSizeInBytes();
    return (bytes + options.alignment - 1) / options.alignment * options.alignment;
  }

  /// First fit in `order`: each buffer takes the bytes of an in-place partner
  /// (a source it overwrites, or a result that overwrites it) when nothing
  /// else needs them, else the lowest offset free over its live range.
  Placement place(const std::vector<BufferInterval> &order, bool keepDmaApart) const;

private:
  const BufferLiveness &liveness;
  const UbPlanOptions &options;
};

Placement Placer::place(const std::vector<BufferInterval> &order,
                        bool keepDmaApart) const {
  bool reuse = options.reuse;
  Placement result;
  llvm::StringMap<std::vector<BufferPlacement>> placedBySpace;
  for (const BufferInterval &iv : order) {
    auto type = iv.alloc.getBuffer().getType();
    int64_t size = alignedSize(iv);
    std::vector<BufferPlacement> &placed = placedBySpace[type.getSpaceName()];
    // In-place partners already placed: a source `iv` may overwrite, or a
    // result that may overwrite `iv` (placed first by some orders).
    std::vector<const BufferPlacement *> partners;
    if (reuse)
      for (const BufferPlacement &p : placed)
        if ((writesInPlaceOf(liveness, iv, p.interval) ||
             writesInPlaceOf(liveness, p.interval, iv)) &&
            !(keepDmaApart && p.interval.dmaPair(iv)))
          partners.push_back(&p);
    auto isBusy = [&](const BufferPlacement &p) {
      return !reuse || iv.start > iv.end || p.interval.interferes(iv, keepDmaApart);
    };
    // A partner's exact bytes, when nothing else needs them meanwhile.
    std::optional<int64_t> offset;
    for (const BufferPlacement *partner : partners) {
      int64_t at = partner->offset;
      bool free = llvm::none_of(placed, [&](const BufferPlacement &p) {
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
      for (const BufferPlacement &p : placed)
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
    result.buffers.push_back({iv, *offset, size});
    int64_t &peak = result.peaks[type.getSpaceName()];
    peak = std::max(peak, *offset + size);
  }
  for (auto &entry : result.peaks)
    result.peak += entry.getValue();
  return result;
}

} // namespace

UbPlan::UbPlan(func::FuncOp func, const UbPlanOptions &options)
    : func(func), options(options),
      liveness(func, /*keepCopiesApart=*/!options.shareCopies) {
  Placer placer(liveness, this->options);
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
                     int64_t sa = placer.alignedSize(a), sb = placer.alignedSize(b);
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
      Placement p = placer.place(order, keepDmaApart);
      if (!best || p.peak < best->peak)
        best = std::move(p);
      if (!options.reuse)
        break; // without reuse the order only permutes the same sum
    }
    if (!keepDmaApart)
      break; // over capacity either way: ComputeMemoryConsumption reports it
    if (best->peaks.lookup("UB") <= options.ubCapacity &&
        best->peaks.lookup("L1") <= options.l1Capacity) {
      dmaApart = true;
      break;
    }
    best.reset();
  }
  placements = std::move(best->buffers);
  peaks = std::move(best->peaks);
  numInPlace = best->inPlace;
}

void UbPlan::print(llvm::raw_ostream &os) const {
  os << "ub-plan @" << func.getSymName() << ": " << placements.size()
     << " buffers, " << numInPlace << " in place"
     << (dmaApart ? ", DMA buffers apart" : "") << "\n";
  // IR order: the order of the liveness intervals.
  for (const BufferInterval &iv : liveness.getIntervals()) {
    auto it = llvm::find_if(placements, [&](const BufferPlacement &p) {
      return p.interval.alloc == iv.alloc;
    });
    auto type = iv.alloc.getBuffer().getType();
    os << "  " << (iv.alloc.getNameAttr() ? iv.alloc.getNameAttr().getValue() : "buffer")
       << " " << type.getSpaceName() << " [" << it->offset << ", "
       << it->offset + it->size << ")";
    if (iv.start <= iv.end)
      os << " live " << iv.start << ".." << iv.end << "\n";
    else
      os << " unused\n";
  }
  std::vector<std::string> spaces;
  for (auto &entry : peaks)
    spaces.push_back(entry.getKey().str());
  llvm::sort(spaces);
  for (const std::string &space : spaces)
    os << "  peak " << space << " " << peaks.lookup(space) << ", lower bound "
       << liveness.maxLiveBytes(space, dmaApart) << "\n";
}

} // namespace asc2
