//===- BufferLiveness.cpp -------------------------------------------------===//
#include "asc2/Analysis/BufferLiveness.h"

#include "llvm/ADT/DenseSet.h"

#include <algorithm>
#include <set>
#include <vector>

using namespace mlir;
using namespace asc2::ascendc;

namespace asc2 {

BufferLiveness::BufferLiveness(func::FuncOp func, bool keepCopiesApart)
    : func(func), points(func) {
  llvm::DenseMap<Value, size_t> index;
  func.walk([&](AllocLocalOp alloc) {
    index[alloc.getBuffer()] = intervals.size();
    int p = points.pointOf(alloc);
    BufferInterval iv{alloc, p, p - 1};
    if (auto slot = alloc.getSlotAttr())
      iv.slot = int(slot.getInt());
    intervals.push_back(iv);
  });

  // First access per (buffer, loop) decides whether the value is carried
  // around that loop's back-edge.
  llvm::DenseMap<std::pair<Value, Operation *>, bool> firstIsRead;
  // Buffers a DMA pipe touches inside an unrolled (multi-buffered) loop stay
  // apart from the other copies' buffers: sharing bytes with one would order
  // the DMA after that copy's compute and undo the overlap.
  llvm::DenseMap<Value, Operation *> dmaLoop;
  // The same for the copies of a loop unrolled whole (its trip count a
  // multiple of the factor that leaves one trip, which canonicalization then
  // folds away): the copies stand in a block of their own ops, and their DMA
  // buffers (tagged with the copy, `slot`) stay apart over the span of the
  // block's copies, as they would in the loop.
  llvm::DenseMap<Value, Block *> dmaStraight;
  llvm::DenseMap<Block *, std::pair<int, int>> straightSpan;
  for (int p = 0; p < points.size(); ++p) {
    Operation *op = points.opAt(p);
    auto access = dyn_cast<BufferAccessOpInterface>(op);
    if (!access)
      continue;
    SmallVector<BufferAccess> accesses;
    access.getBufferAccesses(accesses);
    auto pipeOp = dyn_cast<PipeOpInterface>(op);
    // GM transfers: the long DMAs whose overlap with compute ping-pong buys.
    bool dma = pipeOp && (pipeOp.getPipe() == Pipe::MTE2 || pipeOp.getPipe() == Pipe::MTE3);
    for (const BufferAccess &a : accesses) {
      auto it = index.find(a.buffer);
      if (it == index.end())
        continue;
      BufferInterval &iv = intervals[it->second];
      if (dma && keepCopiesApart) {
        for (Operation *loop = op->getParentOp(); loop && !isa<func::FuncOp>(loop);
             loop = loop->getParentOp())
          if (isa<scf::ForOp>(loop) && !loop->isAncestor(iv.alloc) &&
              loop->hasAttr("asctile.unrolled_by")) {
            dmaLoop[a.buffer] = loop; // ends at the outermost such loop
            (a.isWrite ? iv.loaded : iv.stored) = true;
          }
        if (!dmaLoop.count(a.buffer) && iv.slot < 0)
          if (auto loop = op->getParentOfType<scf::ForOp>();
              loop && !loop->isAncestor(iv.alloc) && !loop->hasAttr("asctile.unrolled_by")) {
            iv.plainLoop = points.pointOf(loop);
            (a.isWrite ? iv.loaded : iv.stored) = true;
          }
        if (!dmaLoop.count(a.buffer) && iv.slot >= 0) {
          Block *block = op->getBlock();
          dmaStraight[a.buffer] = block;
          (a.isWrite ? iv.loaded : iv.stored) = true;
          auto span = straightSpan.try_emplace(block, p, p).first;
          span->second.first = std::min(span->second.first, p);
          span->second.second = std::max(span->second.second, p);
        }
      }
      if (iv.start > iv.end)
        iv.start = iv.end = p;
      iv.start = std::min(iv.start, p);
      iv.end = std::max(iv.end, p);
      for (Operation *loop = op->getParentOp(); loop && !isa<func::FuncOp>(loop);
           loop = loop->getParentOp()) {
        if (!isa<scf::ForOp>(loop))
          continue;
        // Only loops that do not contain the allocation carry the value.
        if (loop->isAncestor(iv.alloc))
          break;
        auto key = std::make_pair(a.buffer, loop);
        if (!firstIsRead.count(key))
          firstIsRead[key] = !a.isWrite;
      }
    }
  }
  // Cube operands (L0A/L0B, filled by MTE1 from L1): each stays live until
  // the next one of its space is loaded, so consecutive operands never share
  // bytes and MTE1 loads operand i + 1 while the cube multiplies operand i
  // (double buffering at L0 without keeping every sub-tile of a loop apart).
  if (keepCopiesApart) {
    llvm::StringMap<SmallVector<std::pair<int, size_t>>> loads;
    for (int p = 0; p < points.size(); ++p)
      if (isa<LoadDataOp, LoadData3DV2Op>(points.opAt(p))) {
        Value dst = points.opAt(p)->getOperand(0); // both write their first operand
        auto it = index.find(dst);
        if (it != index.end())
          loads[cast<LocalType>(dst.getType()).getSpaceName()].push_back({p, it->second});
      }
    for (auto &entry : loads) {
      auto &seq = entry.getValue();
      for (size_t i = 0; i + 1 < seq.size(); ++i) {
        BufferInterval &iv = intervals[seq[i].second];
        if (seq[i + 1].second != seq[i].second)
          iv.end = std::max(iv.end, seq[i + 1].first);
      }
      // Around a loop's back-edge the last operand loaded in the body is
      // followed by the first one.
      llvm::DenseMap<Operation *, std::pair<size_t, size_t>> firstLast;
      for (auto [p, idx] : seq)
        if (auto loop = points.opAt(p)->getParentOfType<scf::ForOp>()) {
          auto it = firstLast.try_emplace(loop.getOperation(), idx, idx).first;
          it->second.second = idx;
        }
      for (auto &[loop, fl] : firstLast)
        if (fl.first != fl.second && !loop->isAncestor(intervals[fl.first].alloc))
          intervals[fl.second].apartFrom = intervals[fl.first].alloc;
    }
  }
  for (auto &[buffer, loop] : dmaLoop) {
    BufferInterval &iv = intervals[index[buffer]];
    iv.loopStart = points.pointOf(loop);
    iv.loopEnd = points.lastPointIn(loop);
  }
  for (auto &[buffer, block] : dmaStraight) {
    if (dmaLoop.count(buffer))
      continue; // also used by a DMA inside an unrolled loop: that one rules
    BufferInterval &iv = intervals[index[buffer]];
    std::tie(iv.loopStart, iv.loopEnd) = straightSpan[block];
  }
  for (auto &[key, isRead] : firstIsRead) {
    if (!isRead)
      continue;
    BufferInterval &iv = intervals[index[key.first]];
    iv.start = std::min(iv.start, points.pointOf(key.second));
    iv.end = std::max(iv.end, points.lastPointIn(key.second));
  }
  // An access anywhere in a loop keeps the buffer live while the loop runs
  // when the buffer is also used outside it (values flow in or out).
  // Loop ranges nest (pre-order): a loop holding an op of the range and
  // reaching past it holds the range's first or last op, so the loops around
  // those two are the ones to look at, until the range stops growing.
  for (BufferInterval &iv : intervals) {
    if (iv.start > iv.end)
      continue;
    for (bool grown = true; grown;) {
      grown = false;
      for (int p : {iv.start, iv.end})
        for (Operation *loop = points.opAt(p)->getParentOp();
             loop && !isa<func::FuncOp>(loop); loop = loop->getParentOp()) {
          if (!isa<scf::ForOp>(loop) || loop->isAncestor(iv.alloc))
            continue;
          int lo = points.pointOf(loop), hi = points.lastPointIn(loop);
          if ((iv.start < lo || iv.end > hi) && (lo < iv.start || hi > iv.end)) {
            iv.start = std::min(iv.start, lo);
            iv.end = std::max(iv.end, hi);
            grown = true;
          }
        }
    }
  }
}

namespace {

bool accesses(BufferAccessOpInterface op, Value buffer, bool write) {
  SmallVector<BufferAccess> all;
  op.getBufferAccesses(all);
  return llvm::any_of(all, [&](const BufferAccess &a) {
    return a.isWrite == write && a.buffer == buffer;
  });
}

bool writesTo(BufferAccessOpInterface op, Value buffer) {
  return accesses(op, buffer, /*write=*/true);
}

} // namespace

bool BufferLiveness::writesInPlaceOf(const BufferInterval &result,
                                     const BufferInterval &src) const {
  if (result.start > result.end || src.start >= result.start || src.end < result.start ||
      src.end > result.end)
    return false;
  Value r = result.alloc.getBuffer(), s = src.alloc.getBuffer();
  Block *block = points.opAt(result.start)->getBlock();
  for (int p = result.start; p <= src.end; ++p) {
    Operation *at = points.opAt(p);
    if (at->getBlock() != block)
      return false;
    auto op = dyn_cast<BufferAccessOpInterface>(at);
    if (!op) {
      if (at->getNumRegions() != 0)
        return false;
      continue; // a scalar op between the calls
    }
    bool readsSrc = accesses(op, s, /*write=*/false), writesResult = writesTo(op, r);
    if (!readsSrc && !writesResult && !accesses(op, s, true) && !accesses(op, r, false))
      continue;
    if (!readsSrc || !writesResult || accesses(op, s, /*write=*/true) ||
        !op.canWriteInPlace(s))
      return false;
  }
  return true;
}

int64_t BufferLiveness::maxLiveBytes(llvm::StringRef space,
                                     bool keepDmaApart) const {
  auto bytesOf = [](const BufferInterval &iv) {
    return (iv.alloc.getBuffer().getType().getSizeInBytes() + 31) / 32 * 32;
  };
  std::vector<const BufferInterval *> used, dma;
  for (const BufferInterval &iv : intervals)
    if (iv.start <= iv.end && iv.alloc.getBuffer().getType().getSpaceName() == space) {
      used.push_back(&iv);
      if (iv.loopStart <= iv.loopEnd)
        dma.push_back(&iv);
    }
  // Largest DMA buffers first when growing a clique.
  std::stable_sort(dma.begin(), dma.end(), [&](auto *a, auto *b) {
    return bytesOf(*a) > bytesOf(*b);
  });
  // A result written in place of a source that dies at its first op (or
  // within the run of calls that writes it) shares that source's bytes
  // there: it does not count while the source is live.
  llvm::DenseMap<int, SmallVector<const BufferInterval *, 2>> endingAt;
  for (const BufferInterval *iv : used)
    endingAt[iv->end].push_back(iv);
  llvm::DenseMap<const BufferInterval *, const BufferInterval *> inPlace;
  for (const BufferInterval *iv : used) {
    bool found = false;
    // The sources that end at the ops writing `iv` one after another.
    for (int p = iv->start; p <= iv->end && !found; ++p) {
      auto op = dyn_cast<BufferAccessOpInterface>(points.opAt(p));
      if (!op || (p > iv->start && !writesTo(op, iv->alloc.getBuffer())))
        break;
      auto sources = endingAt.find(p);
      if (sources == endingAt.end())
        continue;
      for (const BufferInterval *src : sources->second)
        if (src != iv && !(keepDmaApart && src->dmaPair(*iv)) &&
            writesInPlaceOf(*iv, *src)) {
          inPlace[iv] = src;
          found = true;
          break;
        }
    }
  }
  // At each point the buffers live there are pairwise apart; DMA buffers of
  // the loop that must stay apart from all of them (and from each other)
  // join them. Any such set must be disjoint in any placement (a result may
  // always take the bytes of its in-place source).
  auto apart = [&](const BufferInterval *a, const BufferInterval *b) {
    return a->interferes(*b, keepDmaApart) && inPlace.lookup(a) != b &&
           inPlace.lookup(b) != a;
  };
  // A sweep over the points: the buffers live at p (by start), and the DMA
  // buffers whose loop holds p (in the order above, by rank).
  std::vector<const BufferInterval *> byStart(used);
  llvm::stable_sort(byStart, [](auto *a, auto *b) { return a->start < b->start; });
  std::vector<std::pair<int, int>> dmaStarts; // (loopStart, rank)
  for (int rank = 0, e = dma.size(); rank < e; ++rank)
    dmaStarts.push_back({dma[rank]->loopStart, rank});
  llvm::sort(dmaStarts);
  std::vector<const BufferInterval *> live;
  std::set<int> dmaLive;
  llvm::DenseSet<const BufferInterval *> inClique;
  size_t nextStart = 0, nextDma = 0;
  int64_t best = 0;
  std::vector<const BufferInterval *> clique;
  for (int p = 0; p < points.size(); ++p) {
    while (nextStart < byStart.size() && byStart[nextStart]->start <= p)
      live.push_back(byStart[nextStart++]);
    llvm::erase_if(live, [&](const BufferInterval *iv) { return iv->end < p; });
    while (nextDma < dmaStarts.size() && dmaStarts[nextDma].first <= p)
      dmaLive.insert(dmaStarts[nextDma++].second);
    clique.clear();
    inClique.clear();
    int64_t bytes = 0;
    for (const BufferInterval *iv : live)
      if (const BufferInterval *src = inPlace.lookup(iv); !(src && p <= src->end)) {
        clique.push_back(iv);
        inClique.insert(iv);
        bytes += bytesOf(*iv);
      }
    for (auto it = dmaLive.begin(); it != dmaLive.end();) {
      const BufferInterval *d = dma[*it];
      if (p > d->loopEnd) {
        it = dmaLive.erase(it);
        continue;
      }
      ++it;
      if (inClique.contains(d))
        continue;
      if (llvm::all_of(clique, [&](const BufferInterval *o) { return apart(d, o); })) {
        clique.push_back(d);
        inClique.insert(d);
        bytes += bytesOf(*d);
      }
    }
    best = std::max(best, bytes);
  }
  return best;
}

void BufferLiveness::print(llvm::raw_ostream &os) const {
  auto nameOf = [](AllocLocalOp alloc) -> StringRef {
    return alloc.getNameAttr() ? alloc.getNameAttr().getValue() : "buffer";
  };
  os << "buffer-liveness @" << func.getSymName() << ": " << intervals.size()
     << " buffers\n";
  std::vector<std::string> spaces;
  for (const BufferInterval &iv : intervals) {
    auto type = iv.alloc.getBuffer().getType();
    if (!llvm::is_contained(spaces, type.getSpaceName()))
      spaces.push_back(type.getSpaceName().str());
    os << "  " << nameOf(iv.alloc) << " " << type.getSpaceName() << " "
       << type.getSizeInBytes() << "B";
    if (iv.start <= iv.end)
      os << " live " << iv.start << ".." << iv.end << " ("
         << points.opAt(iv.start)->getName() << " .. "
         << points.opAt(iv.end)->getName() << ")";
    else
      os << " unused";
    if (iv.slot >= 0)
      os << " slot " << iv.slot;
    if (iv.loopStart <= iv.loopEnd)
      os << " dma-loop " << iv.loopStart << ".." << iv.loopEnd
         << (iv.loaded ? " loaded" : "") << (iv.stored ? " stored" : "");
    else if (iv.plainLoop >= 0)
      os << " dma-in-loop " << iv.plainLoop << (iv.loaded ? " loaded" : "")
         << (iv.stored ? " stored" : "");
    if (iv.apartFrom)
      os << " apart-from " << nameOf(iv.apartFrom);
    os << "\n";
  }
  for (const std::string &space : spaces)
    os << "  max-live " << space << " " << maxLiveBytes(space) << ", DMA apart "
       << maxLiveBytes(space, /*keepDmaApart=*/true) << "\n";
}

} // namespace asc2
