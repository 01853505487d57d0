//===- SyncPlan.cpp - hazards, flag pairs and event ids --------------------===//
#include "SyncPlanner.h"
#include "asc2/Analysis/ProgramPoints.h"
#include "asc2/Dialect/AscTile/Transforms/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include <array>
#include <climits>
#include <map>
#include <tuple>

using namespace mlir;
using namespace asc2::ascendc;

namespace asc2 {

StringRef stringifyHazardKind(HazardKind kind) {
  static const char *const names[] = {"RAW", "WAR", "WAW"};
  return names[(int)kind];
}

std::string Hazard::describe() const {
  return (stringifyHazardKind(kind) + " on " + ascendc::describe(later.res) +
          ": " + earlier.leaf->getName().getStringRef() + " (" +
          stringifyPipe(earlier.pipe) + ", " + lineOf(earlier.leaf) + ") -> " +
          later.leaf->getName().getStringRef() + " (" +
          stringifyPipe(later.pipe) + ", " + lineOf(later.leaf) + ")")
      .str();
}

namespace {

constexpr int kLanes = SyncPlanner::kLanes;

/// known[p][x]: records of lane x with seq <= known[p][x] are ordered before
/// everything lane p does from the current point on. A lane is a pipe of one
/// core (SyncPlanner::kLanes): what the vector core's MTE2 waited for orders
/// nothing on the cube's MTE2.
using Knowledge = std::array<std::array<int, kLanes>, kLanes>;

struct Record {
  Access access;
  int lane;
  int seq;      // order in the block; carried records are negative
  bool carried;
  std::array<int, kLanes> known; // what the lane knew at this op
};

/// The records of a block by what they access, so that an access meets only
/// the records it may conflict with: planned local bytes by space and range,
/// other buffers by value (Resource::overlaps); per lane, writes and reads
/// apart, each in record order.
class RecordIndex {
public:
  struct Lists {
    std::array<llvm::SmallVector<int, 4>, kLanes> writes, reads;
  };
  void add(const Record &r, int index) {
    Lists &lists = r.access.res.planned
                       ? planned[r.access.res.space][{r.access.res.lo, r.access.res.hi}]
                       : byValue[r.access.res.value];
    (r.access.write ? lists.writes : lists.reads)[r.lane].push_back(index);
  }
  /// Calls `fn` on the lists of every group whose resource overlaps `res`.
  void forEachOverlapping(const Resource &res,
                          llvm::function_ref<void(const Lists &)> fn) const {
    if (!res.planned) {
      // A buffer not planned overlaps only itself (the same value, never a
      // planned one).
      auto it = byValue.find(res.value);
      if (it != byValue.end())
        fn(it->second);
      return;
    }
    auto it = planned.find(res.space);
    if (it == planned.end())
      return;
    for (const auto &[range, lists] : it->second) {
      if (range.first >= res.hi)
        break;
      if (res.lo < range.second)
        fn(lists);
    }
  }

private:
  llvm::StringMap<std::map<std::pair<int64_t, int64_t>, Lists>> planned;
  llvm::DenseMap<Value, Lists> byValue;
};

/// Records of one sequence number: the first and the last (indices into the
/// records), or none (last < 0).
struct SeqRange {
  int seq = INT_MIN, first = -1, last = -1;
  /// Keeps the latest sequence number of the two.
  void merge(const SeqRange &o) {
    if (o.last < 0 || (last >= 0 && o.seq < seq))
      return;
    if (last < 0 || o.seq > seq) {
      *this = o;
      return;
    }
    first = std::min(first, o.first);
    last = std::max(last, o.last);
  }
};

/// Of the records in `list` (indices, in record order) with a sequence
/// number above `known` that `take` accepts, those with the latest one.
/// Records are in sequence order, so the walk back stops at the first
/// record known to be ordered.
template <typename Take>
SeqRange latestOf(const std::vector<Record> &records,
                  llvm::ArrayRef<int> list, int known, Take take) {
  SeqRange out;
  for (int i = list.size() - 1; i >= 0; --i) {
    const Record &r = records[list[i]];
    if (r.seq <= known || (out.last >= 0 && r.seq < out.seq))
      break;
    if (!take(r))
      continue;
    if (out.last < 0) {
      out.last = list[i];
      out.seq = r.seq;
    }
    out.first = list[i];
  }
  return out;
}

/// Whether `op` is a loop whose trips are independent in GM: the kernel
/// declared it (`asc2.range(..., parallel=True)`) or asctile-disjoint-trips
/// proved it.
bool isParallelLoop(Operation *op) {
  if (!isa_and_nonnull<scf::ForOp>(op))
    return false;
  auto parallel = op->getAttrOfType<BoolAttr>("asctile.parallel");
  return (parallel && parallel.getValue()) || op->hasAttr(asctile::kDisjointTripsAttr);
}

/// The unrolled copy (ping/pong slot) a copy between GM and a local buffer
/// belongs to: the one the lowering recorded on it, its local buffer's slot,
/// or -1.
int64_t copySlotOf(Operation *leaf) {
  if (auto copy = leaf->getAttrOfType<IntegerAttr>("asctile.copy"))
    return copy.getInt();
  for (Value v : leaf->getOperands())
    if (auto alloc = v.getDefiningOp<AllocLocalOp>())
      if (auto slot = alloc.getSlotAttr())
        return slot.getInt();
  return -1;
}

/// Whether two GM accesses belong to different unrolled copies of a loop
/// body (different trips).
bool otherTripInGm(const Access &a, const Access &b) {
  if (a.res.space != "GM" || b.res.space != "GM")
    return false;
  int64_t sa = copySlotOf(a.leaf), sb = copySlotOf(b.leaf);
  return sa >= 0 && sb >= 0 && sa != sb;
}

} // namespace

//===----------------------------------------------------------------------===//
// Pairs and barriers
//===----------------------------------------------------------------------===//

int SyncPlanner::addEdge(SyncEdge::Kind kind, const Hazard &hazard,
                         bool carried, int id) {
  SyncEdge edge{kind, hazard};
  edge.loopCarried = carried;
  edge.eventId = id;
  plan.edges.push_back(edge);
  return plan.edges.size() - 1;
}

/// A set after `top` (kind SetFlag) or a wait before it (WaitFlag). When
/// `top` is a guarded copy, the op goes right after / before the op in it
/// that conflicts (so pipes are held no longer than that op needs), with a
/// twin at the end / start of the skipped branch so the flag balances on both
/// paths.
SmallVector<int> SyncPlanner::place(PlannedSyncOp::Kind kind, Pipe src,
                                    Pipe dst, int id, const std::string &reason,
                                    int edge, Operation *top, Operation *leaf) {
  using Where = PlannedSyncOp::Where;
  bool isSet = kind == PlannedSyncOp::Kind::SetFlag;
  SmallVector<int> out;
  Operation *at = guardedAncestor(top, leaf);
  if (at)
    out.push_back(add({kind, src, dst, id, reason,
                       isSet ? Where::ElseEnd : Where::ElseStart, top,
                       top->getLoc(), CoreKind::Either, false, edge}));
  else
    at = top;
  out.push_back(add({kind, src, dst, id, reason,
                     isSet ? Where::After : Where::Before, at, at->getLoc(),
                     CoreKind::Either, false, edge}));
  return out;
}

void SyncPlanner::planPair(const Hazard &hazard, Operation *after,
                           Operation *before, Operation *afterLeaf,
                           Operation *beforeLeaf) {
  Pipe src = hazard.earlier.pipe, dst = hazard.later.pipe;
  Block &block = *before->getBlock();
  int id = pickEventId(src, dst, block, after, before, afterLeaf, beforeLeaf);
  std::string reason = hazard.describe();
  if (id < 0) {
    // Out of flags for this pipe pair: a full barrier is always correct.
    int edge = addEdge(SyncEdge::Kind::FullBarrier, hazard, false, -1);
    planBarrier(Pipe::ALL, before, reason + " (no free event id)", edge);
    return;
  }
  int edge = addEdge(SyncEdge::Kind::Flag, hazard, false, id);
  auto sets = place(PlannedSyncOp::Kind::SetFlag, src, dst, id, reason, edge,
                    after, afterLeaf);
  auto waits = place(PlannedSyncOp::Kind::WaitFlag, src, dst, id, reason, edge,
                     before, beforeLeaf);
  tagCores(sets, waits, after, before, edge);
  ++plan.numPairs;
}

/// A hazard from the previous iteration: `after` is the last op of the body
/// whose `src` access conflicts, `before` the op that must wait. The flag is
/// set right after `after` (not at the end of the body), so the next
/// iteration's `before` waits only for what it depends on: with the body
/// unrolled over two buffers, loads of one overlap compute on the other.
void SyncPlanner::planCarriedPair(const Hazard &hazard, Block &body,
                                  Operation *after, Operation *before,
                                  Operation *afterLeaf, Operation *beforeLeaf) {
  using Kind = PlannedSyncOp::Kind;
  using Where = PlannedSyncOp::Where;
  Pipe src = hazard.earlier.pipe, dst = hazard.later.pipe;
  // Prime before the loop and drain after it; for a loop nested in loops,
  // before and after the outermost one. A drain after an inner loop and the
  // prime before its next run would be unordered: the prime's pipe can run
  // ahead of the drain's and set the flag again before the wait consumed it.
  // Kept set across the outer iterations, the flag orders the last `after` of
  // one run before the first `before` of the next, which that hazard needs.
  Operation *loop = body.getParentOp();
  while (isa_and_nonnull<scf::ForOp>(loop->getParentOp()))
    loop = loop->getParentOp();
  // Live from the prime to the drain: free around the loop and unused inside.
  int id = pickEventId(src, dst, *loop->getBlock(), loop, loop);
  if (id < 0) {
    int edge = addEdge(SyncEdge::Kind::FullBarrier, hazard, true, -1);
    planBarrier(Pipe::ALL, before, hazard.describe() + " (no free event id)", edge);
    return;
  }
  std::string reason = hazard.describe() + " (loop-carried)";
  ++carriedPairs;
  int edge = addEdge(SyncEdge::Kind::Flag, hazard, true, id);
  int prime = add({Kind::SetFlag, src, dst, id, reason, Where::Before, loop,
                   loop->getLoc(), CoreKind::Either, false, edge});
  int drain = add({Kind::WaitFlag, src, dst, id, reason, Where::After, loop,
                   loop->getLoc(), CoreKind::Either, false, edge});
  auto waits = place(Kind::WaitFlag, src, dst, id, reason, edge, before, beforeLeaf);
  auto sets = place(Kind::SetFlag, src, dst, id, reason, edge, after, afterLeaf);
  tagCores(sets, waits, after, before, edge);
  tagCores({prime}, {drain}, after, before, edge);
  ++plan.numPairs;
}

void SyncPlanner::planBarrier(Pipe pipe, Operation *before,
                              const std::string &reason, int edge) {
  CoreKind core = CoreKind::Either;
  if (pipe != Pipe::ALL && plan.mix)
    core = coreKindOf(before);
  add({PlannedSyncOp::Kind::PipeBarrier, pipe, pipe, -1, reason,
       PlannedSyncOp::Where::Before, before, before->getLoc(), core, false, edge});
  ++plan.numBarriers;
}

void SyncPlanner::planFence(Operation *op) {
  using Where = PlannedSyncOp::Where;
  std::string why = cast<InlineCodeOpInterface>(op).getApiName().str() + " (" +
                    lineOf(op) + ") may use any pipe and buffer: ";
  add({PlannedSyncOp::Kind::PipeBarrier, Pipe::ALL, Pipe::ALL, -1,
       why + "every earlier instruction finishes before it", Where::Before, op,
       op->getLoc()});
  add({PlannedSyncOp::Kind::PipeBarrier, Pipe::ALL, Pipe::ALL, -1,
       why + "its work finishes before any later instruction", Where::After, op,
       op->getLoc()});
  plan.numBarriers += 2;
}

/// In a MIX kernel each sync op runs on one core: the set on the core of the
/// op it follows, the wait on the core of the op it guards (scalar ops run on
/// both, so the other side decides). A pair between the cube and the vector
/// core (through GM) becomes a cross-core flag. The planned ops inside a
/// compound op take its cores from the ops they order, so the core of a loop
/// or guard is the same whether they exist yet or not.
void SyncPlanner::tagCores(ArrayRef<int> sets, ArrayRef<int> waits,
                           Operation *after, Operation *before, int edge) {
  if (!plan.mix)
    return;
  // The cores of the two accesses, not of the compound ops holding them: a
  // guard or loop with work of both cores is "either", and a flag left
  // untagged would run on both (a V flag on the cube core).
  const Hazard &h = plan.edges[edge].hazard;
  auto coreOf = [](Operation *leaf, Operation *top) {
    CoreKind k = coreKindOf(leaf);
    return k != CoreKind::Either ? k : coreKindOf(top);
  };
  CoreKind a = coreOf(h.earlier.leaf, after), b = coreOf(h.later.leaf, before);
  if (a == CoreKind::Either)
    a = b;
  if (b == CoreKind::Either)
    b = a;
  for (int set : sets) {
    plan.ops[set].core = a;
    plan.ops[set].crossCore = a != b;
  }
  for (int wait : waits) {
    plan.ops[wait].core = b;
    plan.ops[wait].crossCore = a != b;
  }
  SyncEdge &e = plan.edges[edge];
  e.setCore = a;
  e.waitCore = b;
  e.crossCore = a != b;
}

//===----------------------------------------------------------------------===//
// The walk
//===----------------------------------------------------------------------===//

void SyncPlanner::walkBlock(Block &block, bool isLoopBody) {
  SmallVector<Operation *> blockOps;
  for (Operation &op : block)
    blockOps.push_back(&op);

  // Nested regions first: their own syncs do not depend on the outside.
  for (Operation *op : blockOps)
    for (Region &region : op->getRegions())
      for (Block &nested : region)
        walkBlock(nested, isa<scf::ForOp>(op));

  Knowledge known;
  for (auto &row : known)
    row.fill(INT_MIN);

  // The trips of a `parallel=True` loop are independent in GM (upstream's
  // semantics: the stores of trip n run beside the loads of trip n + 1), so
  // GM accesses of different trips of one core need no order: none are
  // carried, and in an unrolled body the copies (ping/pong slots) of one
  // trip are different trips. The cores of a MIX group stay ordered.
  Operation *loop = block.getParentOp();
  bool parallelTrips = isLoopBody && isParallelLoop(loop);
  bool parallelCopies = parallelTrips && loop->hasAttr("asctile.unrolled_by");
  // Proved byte-disjoint (asctile-disjoint-trips) rather than declared: the
  // copies' GM accesses are independent across the cores of a MIX group too.
  bool disjointCopies = parallelCopies && loop->hasAttr(asctile::kDisjointTripsAttr);

  std::vector<Record> records;
  RecordIndex index;
  if (isLoopBody) {
    // The previous iteration's accesses, one sequence number per leaf op in
    // program order (a flag set after a leaf orders the leaves up to it).
    std::array<int, kLanes> nothing;
    nothing.fill(INT_MIN);
    SmallVector<Access> carried;
    for (Operation *op : blockOps)
      collectAccesses(op, op, carried);
    int seq = -(int)carried.size() - 1;
    Operation *prevLeaf = nullptr;
    for (const Access &a : carried) {
      if (a.leaf != prevLeaf)
        ++seq;
      prevLeaf = a.leaf;
      if (parallelTrips && a.res.space == "GM")
        continue;
      records.push_back({a, laneOf(a), seq, true, nothing});
      index.add(records.back(), records.size() - 1);
    }
  }

  int seq = 0;
  for (Operation *op : blockOps) {
    if (usesAnyPipe(op)) {
      // The barrier before it completes everything issued so far (this
      // block's records and, in a loop, the previous iteration's): every
      // lane is ordered after all of them.
      planFence(op);
      for (auto &row : known)
        row.fill(seq - 1);
      continue;
    }
    SmallVector<Access> accesses;
    collectAccesses(op, op, accesses);
    if (accesses.empty())
      continue;
    // Sequence numbers per leaf: opSeq is this op's first.
    int opSeq = seq;
    llvm::SmallDenseMap<Operation *, int, 8> leafSeq;
    for (const Access &a : accesses)
      if (leafSeq.try_emplace(a.leaf, seq).second)
        ++seq;

    // Per (src lane, dst lane): the latest conflicting record not yet ordered.
    std::array<std::array<const Record *, kLanes>, kLanes> need{};
    // The first op of this op's leaves that conflicts, per lane pair.
    std::array<std::array<Operation *, kLanes>, kLanes> needLeaf{};
    std::array<Hazard, kLanes * kLanes> hazards;
    std::array<const Record *, kLanes> barrier{};
    std::array<Hazard, kLanes> barrierHazard;
    // A guarded copy (scf.if of an unrolled loop) gets one wait per leaf that
    // needs a later record than the waits before it, placed at that leaf:
    // its first loads do not wait for work only its last ones conflict with.
    bool perLeaf = isa<scf::IfOp>(op);
    struct LeafNeed {
      Operation *leaf;
      const Record *record;
      Hazard hazard;
    };
    std::array<std::array<SmallVector<LeafNeed, 4>, kLanes>, kLanes> leafNeeds;
    SmallVector<int, 8> lanes;
    for (const Access &a : accesses)
      lanes.push_back(laneOf(a));
    for (auto [ai, a] : llvm::enumerate(accesses)) {
      int p = lanes[ai];
      auto hazardWith = [&](const Record &r) {
        const Access &b = r.access;
        HazardKind kind = a.write ? (b.write ? HazardKind::WAW : HazardKind::WAR)
                                  : HazardKind::RAW;
        return Hazard{kind, b, a};
      };
      // Per lane, the conflicting records not yet ordered with the latest
      // sequence number: the first and the last of them in record order.
      SeqRange same;
      // In-order issue is not in-order completion: RAW and WAW on the same
      // pipe over local memory need a barrier. Carried same-pipe hazards are
      // ordered by the cross-pipe flags of the iteration.
      if (a.res.space != "GM" && pipeOfLane(p) != Pipe::S)
        index.forEachOverlapping(a.res, [&](const RecordIndex::Lists &lists) {
          same.merge(latestOf(records, lists.writes[p], known[p][p],
                              [](const Record &r) { return !r.carried; }));
        });
      if (same.last >= 0 && (!barrier[p] || barrier[p]->seq < records[same.first].seq)) {
        barrier[p] = &records[same.first];
        barrierHazard[p] = hazardWith(records[same.first]);
      }
      for (int q = 0; q < kLanes; ++q) {
        if (q == p)
          continue;
        auto unordered = [&](const Record &r) {
          if (parallelCopies && otherTripInGm(a, r.access) &&
              (disjointCopies || coreOfLane(p) == coreOfLane(q)))
            return false;
          // A wait the nested walk placed inside this compound op before the
          // access already orders it (one pair covers every earlier q op).
          return !(orderedElsewhere && orderedElsewhere(a, r.access)) &&
                 !orderedInside(op, a.leaf, r.access.leaf, r.carried, q, p);
        };
        SeqRange latest;
        index.forEachOverlapping(a.res, [&](const RecordIndex::Lists &lists) {
          latest.merge(latestOf(records, lists.writes[q], known[p][q], unordered));
          if (a.write)
            latest.merge(latestOf(records, lists.reads[q], known[p][q], unordered));
        });
        if (latest.last < 0)
          continue;
        // The latest record; of one op, its last conflicting leaf.
        const Record &r = records[latest.last];
        if (!need[q][p] || need[q][p]->seq <= r.seq) {
          need[q][p] = &r;
          hazards[q * kLanes + p] = hazardWith(r);
        }
        if (!needLeaf[q][p])
          needLeaf[q][p] = a.leaf;
        if (perLeaf)
          leafNeeds[q][p].push_back({a.leaf, &records[latest.first],
                                     hazardWith(records[latest.first])});
      }
    }

    for (int p = 0; p < kLanes; ++p) {
      if (barrier[p]) {
        int edge = addEdge(SyncEdge::Kind::Barrier, barrierHazard[p], false, -1);
        planBarrier(pipeOfLane(p), op, barrierHazard[p].describe(), edge);
        known[p][p] = std::max(known[p][p], opSeq - 1);
      }
      for (int q = 0; q < kLanes && perLeaf; ++q) {
        const Record *r = need[q][p];
        if (!r)
          continue;
        // Leaves in order, each with the latest record it conflicts with.
        SmallVector<LeafNeed, 4> latest;
        for (const LeafNeed &n : leafNeeds[q][p]) {
          auto it = llvm::find_if(latest, [&](const LeafNeed &l) { return l.leaf == n.leaf; });
          if (it == latest.end())
            latest.push_back(n);
          else if (it->record->seq < n.record->seq)
            *it = n;
        }
        const Record *covered = nullptr;
        for (const LeafNeed &n : latest) {
          // An earlier wait of pipe p already ordered it (the records of
          // one op share its sequence number).
          if (covered && n.record->seq <= covered->seq)
            continue;
          covered = n.record;
          if (n.record->carried) {
            planCarriedPair(n.hazard, block, n.record->access.op, op,
                            n.record->access.leaf, n.leaf);
            known[p][q] = std::max(known[p][q], n.record->seq);
          } else {
            planPair(n.hazard, n.record->access.op, op, n.record->access.leaf,
                     n.leaf);
            for (int x = 0; x < kLanes; ++x)
              known[p][x] = std::max(known[p][x], n.record->known[x]);
            known[p][q] = std::max(known[p][q], n.record->seq);
          }
        }
      }
      if (perLeaf)
        continue;
      // The lanes p still waits for, the one whose record orders most of the
      // others first: a wait for the vector core's copy-out, which itself
      // followed the cube's fixpipe, orders the cube's earlier loads too
      // (across the cores), so they need no flag of their own.
      SmallVector<int, 4> open;
      for (int q = 0; q < kLanes; ++q)
        if (need[q][p])
          open.push_back(q);
      for (;;) {
        llvm::erase_if(open, [&](int q) { return need[q][p]->seq <= known[p][q]; });
        if (open.empty())
          break;
        auto covers = [&](int q) {
          const Record *r = need[q][p];
          if (r->carried)
            return 0;
          return (int)llvm::count_if(open, [&](int x) {
            return x != q && need[x][p]->seq <= r->known[x];
          });
        };
        int q = open.front(), most = covers(q);
        for (int c : open)
          if (int n = covers(c); n > most) {
            q = c;
            most = n;
          }
        llvm::erase(open, q);
        const Record *r = need[q][p];
        const Hazard &hazard = hazards[q * kLanes + p];
        if (r->carried) {
          planCarriedPair(hazard, block, r->access.op, op, r->access.leaf,
                          needLeaf[q][p]);
          // The flag is set after r's op: it orders the previous
          // iteration's q work up to r, not the rest of that iteration.
          known[p][q] = std::max(known[p][q], r->seq);
        } else {
          // A loop whose body starts its p work behind a loop-carried q->p
          // wait is already ordered after everything q did before the loop:
          // the flag's prime is set right before the loop.
          if (!loopEntryOrders(op, q, p))
            planPair(hazard, r->access.op, op, r->access.leaf, needLeaf[q][p]);
          // p now waits for q at that record, and for all q had waited for.
          for (int x = 0; x < kLanes; ++x)
            known[p][x] = std::max(known[p][x], r->known[x]);
          known[p][q] = std::max(known[p][q], r->seq);
        }
      }
    }

    for (auto [ai, a] : llvm::enumerate(accesses)) {
      int p = lanes[ai];
      known[p][p] = std::max(known[p][p], opSeq - 1);
      records.push_back({a, p, leafSeq[a.leaf], false, known[p]});
      index.add(records.back(), records.size() - 1);
    }
  }

  if (isLoopBody && carriedPairs)
    guardSkippedCopies(block);
}

/// A loop-carried flag's wait (before op X) is ordered before its set (after
/// op Y) by the hazard X and Y themselves have within one iteration. When X
/// or Y sits in an scf.if that is skipped (the bounds guard of an unrolled
/// copy on the last, partial trip), nothing orders them and the set could
/// fire before the wait consumed the previous one. The skipped branch drains
/// every pipe instead: it runs at most once per loop, never in the steady
/// state.
void SyncPlanner::guardSkippedCopies(Block &body) {
  for (Operation &op : body) {
    auto guard = dyn_cast<scf::IfOp>(op);
    if (!guard)
      continue;
    bool hasAccesses = false;
    guard.getThenRegion().walk([&](BufferAccessOpInterface) { hasAccesses = true; });
    if (!hasAccesses)
      continue;
    add({PlannedSyncOp::Kind::PipeBarrier, Pipe::ALL, Pipe::ALL, -1,
         "skipped guarded copy: the loop-carried waits before it must finish "
         "before the sets after it",
         PlannedSyncOp::Where::ElseStart, guard, guard.getLoc()});
    ++plan.numBarriers;
  }
}

//===----------------------------------------------------------------------===//
// SyncPlan
//===----------------------------------------------------------------------===//

SyncPlan::SyncPlan(func::FuncOp func, int64_t eventIds,
                   OrderedElsewhere orderedElsewhere)
    : func(func) {
  mix = detectKernelType(func) == "MIX";
  SyncPlanner planner(*this, eventIds, orderedElsewhere);
  for (Block &block : func.getBody())
    planner.walkBlock(block, /*isLoopBody=*/false);
  if (mix)
    renumberCrossCoreIds();
}

void SyncPlan::renumberCrossCoreIds() {
  // (direction, src, dst, planned id) -> the id of the direction's counter.
  std::map<std::tuple<int, int, int, int>, int> ids;
  std::array<int, 2> used{0, 0};
  for (SyncEdge &e : edges) {
    if (!e.crossCore || e.kind != SyncEdge::Kind::Flag)
      continue;
    int dir = e.setCore == CoreKind::Vector ? 1 : 0;
    auto [it, added] =
        ids.try_emplace({dir, (int)e.src(), (int)e.dst(), e.eventId}, used[dir]);
    if (added)
      ++used[dir];
    e.eventId = it->second;
  }
  for (PlannedSyncOp &op : ops)
    if (op.crossCore && op.edge >= 0)
      op.event = edges[op.edge].eventId;
  crossCoreIds = std::max(used[0], used[1]);
}

void SyncPlan::print(llvm::raw_ostream &os) const {
  ProgramPoints points(func);
  auto opAt = [&](Operation *op) {
    return (op->getName().getStringRef() + " @" + Twine(points.pointOf(op))).str();
  };
  auto coreName = [](CoreKind k) {
    return k == CoreKind::Cube ? "cube" : k == CoreKind::Vector ? "vector" : "either";
  };
  os << "sync-plan @" << func.getSymName() << ": " << numPairs << " pairs, "
     << numBarriers << " barriers\n";
  for (const SyncEdge &e : edges) {
    const Hazard &h = e.hazard;
    os << "  " << stringifyHazardKind(h.kind) << " " << stringifyPipe(e.src())
       << " -> " << stringifyPipe(e.dst()) << " on " << ascendc::describe(h.later.res)
       << ": " << opAt(h.earlier.leaf) << " -> " << opAt(h.later.leaf) << "; ";
    switch (e.kind) {
    case SyncEdge::Kind::Flag:
      os << "event " << e.eventId;
      break;
    case SyncEdge::Kind::Barrier:
      os << "pipe_barrier " << stringifyPipe(e.src());
      break;
    case SyncEdge::Kind::FullBarrier:
      os << "pipe_barrier ALL (no free event id)";
      break;
    }
    if (e.loopCarried)
      os << ", loop-carried";
    if (mix && e.kind == SyncEdge::Kind::Flag)
      os << ", set on " << coreName(e.setCore) << ", wait on " << coreName(e.waitCore);
    if (e.crossCore)
      os << ", cross-core";
    os << "\n";
  }
  for (const PlannedSyncOp &op : ops)
    if (op.edge < 0)
      os << "  pipe_barrier ALL "
         << (op.where == PlannedSyncOp::Where::Before  ? "before "
             : op.where == PlannedSyncOp::Where::After ? "after "
                                                       : "in the skipped branch of ")
         << opAt(op.anchor) << "\n";
}

} // namespace asc2
