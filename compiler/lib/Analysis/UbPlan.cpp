//===- UbPlan.cpp ---------------------------------------------------------===//
#include "asc2/Analysis/UbPlan.h"
#include "asc2/Support/PassOptions.h"

#include <algorithm>
#include <climits>
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

/// Whether `result` may take `src`'s bytes (BufferLiveness::writesInPlaceOf).
bool writesInPlaceOf(const BufferLiveness &liveness, const BufferInterval &result,
                     const BufferInterval &src) {
  return liveness.writesInPlaceOf(result, src);
}

struct Placement {
  std::vector<BufferPlacement> buffers;
  llvm::StringMap<int64_t> peaks;
  int64_t peak = 0; // summed over spaces: one number to compare strategies
  int inPlace = 0;
};

/// Which buffers may conflict with which: each buffer's live range and, for
/// a DMA buffer of an unrolled loop, the loop's range, in a tree of the
/// ranges by first point keeping the largest last point of every subtree.
/// Two buffers interfere (BufferInterval::interferes) only when a range of
/// one overlaps a range of the other, or one is kept apart from the other:
/// the buffers near one are a superset of those it interferes with, found in
/// O(log n + k) instead of a pass over every buffer placed.
class NearIndex {
public:
  explicit NearIndex(const std::vector<BufferInterval> &intervals) {
    for (int id = 0, e = intervals.size(); id < e; ++id) {
      const BufferInterval &iv = intervals[id];
      ids[iv.alloc.getOperation()] = id;
      ranges.push_back({iv.start, iv.end, id});
      if (iv.loopStart <= iv.loopEnd)
        ranges.push_back({iv.loopStart, iv.loopEnd, id});
    }
    for (int id = 0, e = intervals.size(); id < e; ++id)
      if (AllocLocalOp other = intervals[id].apartFrom) {
        auto it = ids.find(other.getOperation());
        if (it != ids.end()) {
          apart[id].push_back(it->second);
          apart[it->second].push_back(id);
        }
      }
    llvm::sort(ranges, [](const Range &a, const Range &b) { return a.lo < b.lo; });
    maxHi.assign(4 * std::max<size_t>(ranges.size(), 1), INT_MIN);
    build(1, 0, ranges.size());
  }

  int idOf(const BufferInterval &iv) const {
    return ids.lookup(iv.alloc.getOperation());
  }

  /// Calls `fn(id)` for every buffer near `iv` (some more than once).
  void forEachNear(const BufferInterval &iv, llvm::function_ref<void(int)> fn) const {
    query(iv.start, iv.end, fn);
    if (iv.loopStart <= iv.loopEnd)
      query(iv.loopStart, iv.loopEnd, fn);
    auto it = apart.find(idOf(iv));
    if (it != apart.end())
      for (int id : it->second)
        fn(id);
  }

private:
  struct Range {
    int lo, hi, id;
  };

  int build(size_t node, size_t lo, size_t hi) {
    if (lo >= hi)
      return INT_MIN;
    if (hi - lo == 1)
      return maxHi[node] = ranges[lo].hi;
    size_t mid = (lo + hi) / 2;
    return maxHi[node] = std::max(build(2 * node, lo, mid), build(2 * node + 1, mid, hi));
  }

  /// The ranges [lo, hi] with lo <= b and a <= hi (the test of
  /// BufferInterval::overlaps, empty ranges included).
  void query(int a, int b, llvm::function_ref<void(int)> fn) const {
    size_t count = llvm::partition_point(ranges, [&](const Range &r) { return r.lo <= b; }) -
                   ranges.begin();
    visit(1, 0, ranges.size(), count, a, fn);
  }
  void visit(size_t node, size_t lo, size_t hi, size_t count, int a,
             llvm::function_ref<void(int)> fn) const {
    if (lo >= count || lo >= hi || maxHi[node] < a)
      return;
    if (hi - lo == 1) {
      fn(ranges[lo].id);
      return;
    }
    size_t mid = (lo + hi) / 2;
    visit(2 * node, lo, mid, count, a, fn);
    visit(2 * node + 1, mid, hi, count, a, fn);
  }

  llvm::DenseMap<Operation *, int> ids;
  llvm::DenseMap<int, SmallVector<int, 1>> apart;
  std::vector<Range> ranges;
  std::vector<int> maxHi; // by tree node
};

class Placer {
public:
  Placer(const BufferLiveness &liveness, const UbPlanOptions &options)
      : liveness(liveness), options(options), near(liveness.getIntervals()) {}

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
  NearIndex near;
};

Placement Placer::place(const std::vector<BufferInterval> &order,
                        bool keepDmaApart) const {
  bool reuse = options.reuse;
  Placement result;
  llvm::StringMap<std::vector<BufferPlacement>> placedBySpace;
  // Where each buffer went in its space's list; -1: not placed yet.
  std::vector<int> placedAt(liveness.getIntervals().size(), -1);
  std::vector<llvm::StringRef> spaceOf(placedAt.size());
  for (const BufferInterval &iv : liveness.getIntervals())
    spaceOf[near.idOf(iv)] = iv.alloc.getBuffer().getType().getSpaceName();
  SmallVector<int> candidates;
  // Buffers sharing bytes through in-place writes, by the first one's id.
  // Without reuse these are the only buffers that share bytes: an
  // elementwise result still takes the bytes of the source it overwrites
  // (upstream PyAsc2 marks reuse sources at every reuse_alloc level).
  std::vector<int> familyOf(placedAt.size(), -1);
  for (const BufferInterval &iv : order) {
    auto type = iv.alloc.getBuffer().getType();
    int64_t size = alignedSize(iv);
    std::vector<BufferPlacement> &placed = placedBySpace[type.getSpaceName()];
    auto isBusy = [&](const BufferPlacement &p) {
      return !reuse || iv.start > iv.end || p.interval.interferes(iv, keepDmaApart);
    };
    // The placed buffers of this space that may be busy, in placement order:
    // with reuse, only those near `iv`.
    candidates.clear();
    if (!reuse || iv.start > iv.end) {
      for (int at = 0, e = placed.size(); at < e; ++at)
        candidates.push_back(at);
    } else {
      near.forEachNear(iv, [&](int id) {
        if (placedAt[id] >= 0 && spaceOf[id] == type.getSpaceName())
          candidates.push_back(placedAt[id]);
      });
      llvm::sort(candidates);
      candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
    }
    // In-place partners already placed: a source `iv` may overwrite, or a
    // result that may overwrite `iv` (placed first by some orders).
    std::vector<const BufferPlacement *> partners;
    for (int at : candidates) {
      const BufferPlacement &p = placed[at];
      if ((writesInPlaceOf(liveness, iv, p.interval) ||
           writesInPlaceOf(liveness, p.interval, iv)) &&
          !(keepDmaApart && p.interval.dmaPair(iv)))
        partners.push_back(&p);
    }
    // A partner's exact bytes, when nothing else needs them meanwhile.
    std::optional<int64_t> offset;
    for (const BufferPlacement *partner : partners) {
      int64_t at = partner->offset;
      int family = familyOf[near.idOf(partner->interval)];
      bool free = llvm::none_of(candidates, [&](int i) {
        const BufferPlacement &p = placed[i];
        bool sameBytes = p.offset == at && p.size == size &&
                         llvm::is_contained(partners, &p);
        bool busy = reuse ? isBusy(p)
                          : familyOf[near.idOf(p.interval)] != family ||
                                p.interval.interferes(iv, keepDmaApart);
        return !sameBytes && busy && p.offset < at + size && at < p.offset + p.size;
      });
      if (free) {
        offset = at;
        familyOf[near.idOf(iv)] = family;
        ++result.inPlace;
        break;
      }
    }
    if (!offset)
      familyOf[near.idOf(iv)] = near.idOf(iv);
    if (!offset) {
      std::vector<std::pair<int64_t, int64_t>> busy;
      for (int i : candidates)
        if (isBusy(placed[i]))
          busy.push_back({placed[i].offset, placed[i].offset + placed[i].size});
      std::sort(busy.begin(), busy.end());
      offset = 0;
      for (auto [lo, hi] : busy) {
        if (*offset + size <= lo)
          break;
        offset = std::max(*offset, hi);
      }
    }
    placedAt[near.idOf(iv)] = placed.size();
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

namespace {
bool fits(const Placement &p, const UbPlanOptions &options) {
  return p.peaks.lookup("UB") <= options.ubCapacity && p.peaks.lookup("L1") <= options.l1Capacity;
}

/// The placement with the lowest peak over a few buffer orders, keeping the
/// DMA buffers of a loop's copy apart first when the kernel has any and that
/// fits. `dmaApart` says whether it did.
Placement bestPlacement(const BufferLiveness &liveness, const UbPlanOptions &options,
                        bool &dmaApart) {
  Placer placer(liveness, options);
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
  bool dmaInLoops = llvm::any_of(liveness.getIntervals(), [](const BufferInterval &iv) {
    return iv.loaded || iv.stored;
  });
  dmaApart = false;
  std::optional<Placement> best;
  for (bool keepDmaApart : {dmaInLoops, false}) {
    for (const auto &order : orders) {
      Placement p = placer.place(order, keepDmaApart);
      if (!best || p.peak < best->peak)
        best = std::move(p);
      if (!options.reuse)
        break; // without reuse the order only permutes the same sum
    }
    if (!keepDmaApart)
      break; // over capacity either way: the caller decides
    if (fits(*best, options)) {
      dmaApart = true;
      break;
    }
    best.reset();
  }
  return std::move(*best);
}
} // namespace

UbPlan::UbPlan(func::FuncOp func, const UbPlanOptions &options)
    : func(func), options(options),
      liveness(func, /*keepCopiesApart=*/!options.shareCopies) {
  Placement best = bestPlacement(liveness, this->options, dmaApart);
  // The copies of an unrolled loop keep their DMA buffers apart so that they
  // overlap; when that cannot fit, they share bytes (each copy then waits for
  // the previous one's buffers, as reuse_alloc=2 asks for outright) rather
  // than fail: the kernel runs, without that overlap.
  if (!fits(best, this->options) && options.reuse && !options.shareCopies) {
    BufferLiveness shared(func, /*keepCopiesApart=*/false);
    bool sharedApart = false;
    Placement other = bestPlacement(shared, this->options, sharedApart);
    if (other.peak < best.peak) {
      bool ubOver = best.peaks.lookup("UB") > this->options.ubCapacity;
      sharedSpace = ubOver ? "UB" : "L1";
      apartPeak = best.peaks.lookup(sharedSpace);
      sharedCapacity = ubOver ? this->options.ubCapacity : this->options.l1Capacity;
      best = std::move(other);
      liveness = std::move(shared);
      dmaApart = sharedApart;
      copiesShared = true;
    }
  }
  placements = std::move(best.buffers);
  peaks = std::move(best.peaks);
  numInPlace = best.inPlace;
}

void UbPlan::print(llvm::raw_ostream &os) const {
  os << "ub-plan @" << func.getSymName() << ": " << placements.size()
     << " buffers, " << numInPlace << " in place"
     << (dmaApart ? ", DMA buffers apart" : "")
     << (copiesShared ? ", unrolled copies share" : "") << "\n";
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
