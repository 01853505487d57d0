//===- InsertSync.cpp - set_flag/wait_flag from buffer hazards -------------===//
//
// Walks each block in order keeping the accesses seen so far. An access that
// conflicts (same bytes, at least one write) with an earlier one on another
// pipe gets a set_flag after the earlier op and a wait_flag before itself,
// unless the two are already ordered (directly or through an earlier pair).
// Same-pipe read-after-write and write-after-write get a pipe_barrier.
//
// Loops: the body is walked with the body's own accesses as "carried" from
// the previous iteration. A carried hazard gets a flag set after the last
// conflicting op of the body, waited before the conflicting op, primed before
// the loop and drained after it, so set and wait stay balanced for any trip
// count. A loop seen from
// outside is one compound op whose accesses are those of its body.
//
// Event ids are binary flags per pipe pair: a new pair takes the lowest id of
// its pipe pair used by no other pair; when all are taken, the lowest id not
// live anywhere between its set and its wait.
//
// The inserter is also insertFlagSync() (FlagSync.h): on buffer-id targets,
// ascendc-insert-buf-id-sync runs it with the id-ordered hazards skipped.
//
//===----------------------------------------------------------------------===//
#include "FlagSync.h"
#include "asc2/Dialect/AscendC/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallBitVector.h"

#include <array>
#include <climits>
#include <optional>

#define DEBUG_TYPE "ascendc-insert-sync"

namespace asc2::ascendc {
#define GEN_PASS_DEF_ASCENDCINSERTSYNC
#include "asc2/Dialect/AscendC/Transforms/Passes.h.inc"
} // namespace asc2::ascendc

using namespace mlir;
using namespace asc2::ascendc;

namespace {

/// known[p][x]: records of pipe x with seq <= known[p][x] are ordered before
/// everything pipe p does from the current point on.
using Knowledge = std::array<std::array<int, kPipes>, kPipes>;

struct Record {
  Access access;
  int seq;      // order in the block; carried records are negative
  bool carried;
  std::array<int, kPipes> known; // what access.pipe knew at this op
};

class SyncInserter {
public:
  SyncInserter(MLIRContext *ctx, int64_t eventIds)
      : builder(ctx), eventIds(eventIds) {}

  void walkBlock(Block &block, bool isLoopBody);

  int numPairs = 0, numBarriers = 0;

private:
  void insertPair(Pipe src, Pipe dst, Operation *after, Operation *before,
                  const std::string &reason, Operation *afterLeaf = nullptr,
                  Operation *beforeLeaf = nullptr);
  void insertCarriedPair(Pipe src, Pipe dst, Block &body, Operation *after,
                         Operation *before, const std::string &reason,
                         Operation *afterLeaf = nullptr,
                         Operation *beforeLeaf = nullptr);
  template <typename OpT>
  SmallVector<Operation *> place(Pipe src, Pipe dst, int id, StringAttr reason,
                                 Operation *top, Operation *leaf);
  void insertBarrier(Pipe pipe, Operation *before, const std::string &reason);
  void tagCores(ArrayRef<Operation *> sets, ArrayRef<Operation *> waits,
                Operation *after, Operation *before);
  static StringRef coreName(CoreKind k) {
    return k == CoreKind::Cube ? "cube" : k == CoreKind::Vector ? "vector" : "";
  }
  void guardSkippedCopies(Block &body);
  bool loopEntryOrders(Operation *op, Pipe q, Pipe p);
  int carriedPairs = 0;
  int pickEventId(Pipe src, Pipe dst, Block &block, Operation *from,
                  Operation *to);
  void collectUsedIds(Pipe src, Pipe dst, Operation *op,
                      llvm::SmallBitVector &used);

  OpBuilder builder;
  int64_t eventIds;

public:
  /// A MIX kernel: every sync op records its core (`core`), and pairs between
  /// the cube and the vector core become cross-core flags.
  bool mix = false;
  /// Cross-pipe hazards ordered by other means (buffer ids); none if null.
  OrderedElsewhere orderedElsewhere = nullptr;

private:
};

void SyncInserter::collectUsedIds(Pipe src, Pipe dst, Operation *op,
                                  llvm::SmallBitVector &used) {
  op->walk([&](Operation *o) {
    if (auto s = dyn_cast<SetFlagOp>(o)) {
      if (s.getSrc() == src && s.getDst() == dst)
        used.set(s.getEvent());
    } else if (auto w = dyn_cast<WaitFlagOp>(o)) {
      if (w.getSrc() == src && w.getDst() == dst)
        used.set(w.getEvent());
    }
  });
}

/// Lowest event id of (src, dst) that is free from `from` to `to` (both in
/// `block`, inclusive): not open at `from`, not used between, and not open in
/// any enclosing block around this one.
int SyncInserter::pickEventId(Pipe src, Pipe dst, Block &block, Operation *from,
                              Operation *to) {
  llvm::SmallBitVector used(eventIds + 1);
  // Ids open at `from` in this block and at the enclosing op in every
  // enclosing block.
  Block *b = &block;
  Operation *at = from;
  while (b) {
    llvm::SmallBitVector open(eventIds + 1);
    for (Operation &o : *b) {
      if (&o == at)
        break;
      if (auto s = dyn_cast<SetFlagOp>(o); s && s.getSrc() == src && s.getDst() == dst)
        open.set(s.getEvent());
      if (auto w = dyn_cast<WaitFlagOp>(o); w && w.getSrc() == src && w.getDst() == dst)
        open.reset(w.getEvent());
    }
    used |= open;
    Operation *parent = b->getParentOp();
    if (!parent || isa<func::FuncOp>(parent))
      break;
    at = parent;
    b = parent->getBlock();
  }
  for (Operation *o = from; o; o = o->getNextNode()) {
    collectUsedIds(src, dst, o, used);
    if (o == to)
      break;
  }
  // Prefer an id no other pair of this pipe pair uses anywhere in the
  // function: two pairs sharing an id are only safe when the first wait is
  // ordered before the second set, which program order alone does not give
  // (the set's pipe may run ahead of the wait's pipe).
  llvm::SmallBitVector usedAnywhere(eventIds + 1);
  Operation *func = from->getParentOfType<func::FuncOp>();
  collectUsedIds(src, dst, func, usedAnywhere);
  for (int id = 0; id < eventIds; ++id)
    if (!used.test(id) && !usedAnywhere.test(id))
      return id;
  for (int id = 0; id < eventIds; ++id)
    if (!used.test(id))
      return id;
  return -1;
}

/// The op of the then-branch of guard `top` (a guarded copy of an unrolled
/// loop) that holds `leaf`, or null when `top` is not such a guard.
static Operation *guardedAncestor(Operation *top, Operation *leaf) {
  auto guard = dyn_cast<scf::IfOp>(top);
  if (!guard || !leaf || leaf == top)
    return nullptr;
  return guard.thenBlock()->findAncestorOpInBlock(*leaf);
}

static Block &elseBlockOf(OpBuilder &builder, scf::IfOp guard) {
  if (guard.getElseRegion().empty()) {
    OpBuilder::InsertionGuard g(builder);
    Block *elseBlock = builder.createBlock(&guard.getElseRegion());
    builder.setInsertionPointToEnd(elseBlock);
    builder.create<scf::YieldOp>(guard.getLoc());
  }
  return guard.getElseRegion().front();
}

/// A set after `top` (OpT = SetFlagOp) or a wait before it (WaitFlagOp). When
/// `top` is a guarded copy, the op goes right after / before the op in it
/// that conflicts (so pipes are held no longer than that op needs), with a
/// twin at the end / start of the skipped branch so the flag balances on both
/// paths.
template <typename OpT>
SmallVector<Operation *> SyncInserter::place(Pipe src, Pipe dst, int id,
                                             StringAttr reason, Operation *top,
                                             Operation *leaf) {
  constexpr bool isSet = std::is_same_v<OpT, SetFlagOp>;
  SmallVector<Operation *> out;
  Operation *at = guardedAncestor(top, leaf);
  if (at) {
    Block &other = elseBlockOf(builder, cast<scf::IfOp>(top));
    if (isSet)
      builder.setInsertionPoint(other.getTerminator());
    else
      builder.setInsertionPointToStart(&other);
    out.push_back(builder.create<OpT>(top->getLoc(), src, dst, id, reason));
  } else {
    at = top;
  }
  if (isSet)
    builder.setInsertionPointAfter(at);
  else
    builder.setInsertionPoint(at);
  out.push_back(builder.create<OpT>(at->getLoc(), src, dst, id, reason));
  return out;
}

void SyncInserter::insertPair(Pipe src, Pipe dst, Operation *after,
                              Operation *before, const std::string &reason,
                              Operation *afterLeaf, Operation *beforeLeaf) {
  Block &block = *before->getBlock();
  int id = pickEventId(src, dst, block, after, before);
  if (id < 0) {
    // Out of flags for this pipe pair: a full barrier is always correct.
    insertBarrier(Pipe::ALL, before, reason + " (no free event id)");
    return;
  }
  auto reasonAttr = builder.getStringAttr(reason);
  auto sets = place<SetFlagOp>(src, dst, id, reasonAttr, after, afterLeaf);
  auto waits = place<WaitFlagOp>(src, dst, id, reasonAttr, before, beforeLeaf);
  tagCores(sets, waits, after, before);
  ++numPairs;
}

/// A hazard from the previous iteration: `after` is the last op of the body
/// whose `src` access conflicts, `before` the op that must wait. The flag is
/// set right after `after` (not at the end of the body), so the next
/// iteration's `before` waits only for what it depends on: with the body
/// unrolled over two buffers, loads of one overlap compute on the other.
void SyncInserter::insertCarriedPair(Pipe src, Pipe dst, Block &body,
                                     Operation *after, Operation *before,
                                     const std::string &reason,
                                     Operation *afterLeaf, Operation *beforeLeaf) {
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
    insertBarrier(Pipe::ALL, before, reason + " (no free event id)");
    return;
  }
  auto reasonAttr = builder.getStringAttr(reason + " (loop-carried)");
  ++carriedPairs;
  builder.setInsertionPoint(loop);
  auto prime = builder.create<SetFlagOp>(loop->getLoc(), src, dst, id, reasonAttr);
  builder.setInsertionPointAfter(loop);
  auto drain = builder.create<WaitFlagOp>(loop->getLoc(), src, dst, id, reasonAttr);
  auto waits = place<WaitFlagOp>(src, dst, id, reasonAttr, before, beforeLeaf);
  auto sets = place<SetFlagOp>(src, dst, id, reasonAttr, after, afterLeaf);
  tagCores(sets, waits, after, before);
  tagCores({prime}, {drain}, after, before);
  ++numPairs;
}

void SyncInserter::insertBarrier(Pipe pipe, Operation *before,
                                 const std::string &reason) {
  builder.setInsertionPoint(before);
  auto barrier = builder.create<PipeBarrierOp>(before->getLoc(), pipe,
                                               builder.getStringAttr(reason));
  if (pipe != Pipe::ALL && mix)
    if (StringRef core = coreName(coreKindOf(before)); !core.empty())
      barrier->setAttr("core", builder.getStringAttr(core));
  ++numBarriers;
}

/// In a MIX kernel each sync op runs on one core: the set on the core of the
/// op it follows, the wait on the core of the op it guards (scalar ops run on
/// both, so the other side decides). A pair between the cube and the vector
/// core (through GM) becomes a cross-core flag.
void SyncInserter::tagCores(ArrayRef<Operation *> sets,
                            ArrayRef<Operation *> waits, Operation *after,
                            Operation *before) {
  if (!mix)
    return;
  CoreKind a = coreKindOf(after), b = coreKindOf(before);
  if (a == CoreKind::Either)
    a = b;
  if (b == CoreKind::Either)
    b = a;
  for (Operation *set : sets) {
    if (!coreName(a).empty())
      set->setAttr("core", builder.getStringAttr(coreName(a)));
    if (a != b)
      set->setAttr("cross_core", builder.getUnitAttr());
  }
  for (Operation *wait : waits) {
    if (!coreName(b).empty())
      wait->setAttr("core", builder.getStringAttr(coreName(b)));
    if (a != b)
      wait->setAttr("cross_core", builder.getUnitAttr());
  }
}

void SyncInserter::walkBlock(Block &block, bool isLoopBody) {
  SmallVector<Operation *> ops;
  for (Operation &op : block)
    ops.push_back(&op);

  // Nested regions first: their own syncs do not depend on the outside.
  for (Operation *op : ops)
    for (Region &region : op->getRegions())
      for (Block &nested : region)
        walkBlock(nested, isa<scf::ForOp>(op));

  Knowledge known;
  for (auto &row : known)
    row.fill(INT_MIN);

  std::vector<Record> records;
  if (isLoopBody) {
    // The previous iteration's accesses, one sequence number per leaf op in
    // program order (a flag set after a leaf orders the leaves up to it).
    std::array<int, kPipes> nothing;
    nothing.fill(INT_MIN);
    SmallVector<Access> carried;
    for (Operation *op : ops)
      collectAccesses(op, op, carried);
    int seq = -(int)carried.size() - 1;
    Operation *prevLeaf = nullptr;
    for (const Access &a : carried) {
      if (a.leaf != prevLeaf)
        ++seq;
      prevLeaf = a.leaf;
      records.push_back({a, seq, true, nothing});
    }
  }

  int seq = 0;
  for (Operation *op : ops) {
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

    // Per (src pipe, dst pipe): the latest conflicting record not yet ordered.
    std::array<std::array<const Record *, kPipes>, kPipes> need{};
    // The first op of this op's leaves that conflicts, per pipe pair.
    std::array<std::array<Operation *, kPipes>, kPipes> needLeaf{};
    std::array<std::string, kPipes * kPipes> reasons;
    std::array<const Record *, kPipes> barrier{};
    std::array<std::string, kPipes> barrierReason;
    // A guarded copy (scf.if of an unrolled loop) gets one wait per leaf that
    // needs a later record than the waits before it, placed at that leaf:
    // its first loads do not wait for work only its last ones conflict with.
    bool perLeaf = isa<scf::IfOp>(op);
    struct LeafNeed {
      Operation *leaf;
      const Record *record;
      std::string why;
    };
    std::array<std::array<SmallVector<LeafNeed, 4>, kPipes>, kPipes> leafNeeds;
    for (const Access &a : accesses) {
      int p = (int)a.pipe;
      for (const Record &r : records) {
        const Access &b = r.access;
        if (!(a.write || b.write) || !a.res.overlaps(b.res))
          continue;
        int q = (int)b.pipe;
        if (r.seq <= known[p][q])
          continue;
        if (q != p && orderedElsewhere && orderedElsewhere(a, b))
          continue;
        const char *kind = a.write ? (b.write ? "WAW" : "WAR") : "RAW";
        std::string why =
            (Twine(kind) + " on " + describe(a.res) + ": " +
             b.leaf->getName().getStringRef() + " (" + stringifyPipe(b.pipe) +
             ", " + lineOf(b.leaf) + ") -> " +
             a.leaf->getName().getStringRef() + " (" + stringifyPipe(a.pipe) +
             ", " + lineOf(a.leaf) + ")")
                .str();
        if (q == p) {
          // In-order issue is not in-order completion: RAW and WAW on the
          // same pipe over local memory need a barrier. Carried same-pipe
          // hazards are ordered by the cross-pipe flags of the iteration.
          bool needsBarrier = b.write && !r.carried && a.res.space != "GM" &&
                              p != (int)Pipe::S;
          if (needsBarrier && (!barrier[p] || barrier[p]->seq < r.seq)) {
            barrier[p] = &r;
            barrierReason[p] = why;
          }
          continue;
        }
        // The latest record; of one op, its last conflicting leaf.
        if (!need[q][p] || need[q][p]->seq <= r.seq) {
          need[q][p] = &r;
          reasons[q * kPipes + p] = why;
        }
        if (!needLeaf[q][p])
          needLeaf[q][p] = a.leaf;
        if (perLeaf)
          leafNeeds[q][p].push_back({a.leaf, &r, why});
      }
    }

    for (int p = 0; p < kPipes; ++p) {
      if (barrier[p]) {
        insertBarrier((Pipe)p, op, barrierReason[p]);
        known[p][p] = std::max(known[p][p], opSeq - 1);
      }
      for (int q = 0; q < kPipes; ++q) {
        const Record *r = need[q][p];
        if (!r)
          continue;
        if (perLeaf) {
          // Leaves in order, each with the latest record it conflicts with.
          SmallVector<LeafNeed, 4> latest;
          for (const LeafNeed &n : leafNeeds[q][p]) {
            auto it = llvm::find_if(latest, [&](const LeafNeed &l) { return l.leaf == n.leaf; });
            if (it == latest.end())
              latest.push_back(n);
            else if (it->record < n.record) // records are in program order
              *it = n;
          }
          const Record *covered = nullptr;
          for (const LeafNeed &n : latest) {
            if (covered && n.record <= covered)
              continue; // an earlier wait of pipe p already ordered it
            covered = n.record;
            if (n.record->carried) {
              insertCarriedPair((Pipe)q, (Pipe)p, block, n.record->access.op, op,
                                n.why, n.record->access.leaf, n.leaf);
              known[p][q] = std::max(known[p][q], n.record->seq);
            } else {
              insertPair((Pipe)q, (Pipe)p, n.record->access.op, op, n.why,
                         n.record->access.leaf, n.leaf);
              for (int x = 0; x < kPipes; ++x)
                known[p][x] = std::max(known[p][x], n.record->known[x]);
              known[p][q] = std::max(known[p][q], n.record->seq);
            }
          }
          continue;
        }
        if (r->carried) {
          insertCarriedPair((Pipe)q, (Pipe)p, block, r->access.op, op,
                            reasons[q * kPipes + p], r->access.leaf,
                            needLeaf[q][p]);
          // The flag is set after r's op: it orders the previous
          // iteration's q work up to r, not the rest of that iteration.
          known[p][q] = std::max(known[p][q], r->seq);
        } else {
          // A loop whose body starts its p work behind a loop-carried q->p
          // wait is already ordered after everything q did before the loop:
          // the flag's prime is set right before the loop.
          if (!loopEntryOrders(op, (Pipe)q, (Pipe)p))
            insertPair((Pipe)q, (Pipe)p, r->access.op, op, reasons[q * kPipes + p],
                       r->access.leaf, needLeaf[q][p]);
          // p now waits for q at that record, and for all q had waited for.
          for (int x = 0; x < kPipes; ++x)
            known[p][x] = std::max(known[p][x], r->known[x]);
          known[p][q] = std::max(known[p][q], r->seq);
        }
      }
    }

    for (const Access &a : accesses) {
      int p = (int)a.pipe;
      known[p][p] = std::max(known[p][p], opSeq - 1);
      records.push_back({a, leafSeq[a.leaf], false, known[p]});
    }
  }

  if (isLoopBody && carriedPairs)
    guardSkippedCopies(block);
}

/// Whether `op` is a loop whose p work all comes after a q->p wait at the top
/// of its body whose set follows every earlier q op: a loop-carried flag
/// primed right before the loop, or a flag set earlier in the body (q is in
/// order, so it is set after the q work before the loop). The first
/// iteration's wait then orders that work before all of the loop's p work.
bool SyncInserter::loopEntryOrders(Operation *op, Pipe q, Pipe p) {
  auto loop = dyn_cast<scf::ForOp>(op);
  if (!loop)
    return false;
  std::optional<int64_t> event;
  llvm::SmallDenseSet<int64_t> bodySets;
  for (Operation &bodyOp : *loop.getBody()) {
    if (auto set = dyn_cast<SetFlagOp>(bodyOp)) {
      if (set.getSrc() == q && set.getDst() == p)
        bodySets.insert(set.getEvent());
      continue;
    }
    if (auto wait = dyn_cast<WaitFlagOp>(bodyOp)) {
      if (wait.getSrc() != q || wait.getDst() != p)
        continue;
      // Set earlier in the body: on the in-order q pipe, after the loop's
      // q work of this iteration, hence after everything q did before it.
      if (bodySets.contains(wait.getEvent()))
        return true;
      if (!event && wait.getReason().value_or("").ends_with("(loop-carried)"))
        event = wait.getEvent();
      continue;
    }
    SmallVector<Access> accesses;
    collectAccesses(&bodyOp, &bodyOp, accesses);
    if (llvm::any_of(accesses, [&](const Access &a) { return a.pipe == p; }))
      break;
  }
  if (!event)
    return false;
  for (Operation *o = loop->getPrevNode(); o && isa<SetFlagOp, WaitFlagOp>(o);
       o = o->getPrevNode())
    if (auto set = dyn_cast<SetFlagOp>(o))
      if (set.getSrc() == q && set.getDst() == p && set.getEvent() == *event)
        return true;
  return false;
}

/// A loop-carried flag's wait (before op X) is ordered before its set (after
/// op Y) by the hazard X and Y themselves have within one iteration. When X
/// or Y sits in an scf.if that is skipped (the bounds guard of an unrolled
/// copy on the last, partial trip), nothing orders them and the set could
/// fire before the wait consumed the previous one. The skipped branch drains
/// every pipe instead: it runs at most once per loop, never in the steady
/// state.
void SyncInserter::guardSkippedCopies(Block &body) {
  for (Operation &op : body) {
    auto guard = dyn_cast<scf::IfOp>(op);
    if (!guard)
      continue;
    bool hasAccesses = false;
    guard.getThenRegion().walk([&](BufferAccessOpInterface) { hasAccesses = true; });
    if (!hasAccesses)
      continue;
    if (guard.getElseRegion().empty()) {
      OpBuilder::InsertionGuard g(builder);
      Block *elseBlock = builder.createBlock(&guard.getElseRegion());
      builder.setInsertionPointToEnd(elseBlock);
      builder.create<scf::YieldOp>(guard.getLoc());
    }
    builder.setInsertionPointToStart(&guard.getElseRegion().front());
    builder.create<PipeBarrierOp>(
        guard.getLoc(), Pipe::ALL,
        builder.getStringAttr("skipped guarded copy: the loop-carried waits "
                              "before it must finish before the sets after it"));
    ++numBarriers;
  }
}

struct InsertSyncPass
    : public asc2::ascendc::impl::AscendCInsertSyncBase<InsertSyncPass> {
  using AscendCInsertSyncBase::AscendCInsertSyncBase;

  void runOnOperation() override {
    FlagSyncStats stats = insertFlagSync(getOperation(), eventIds, nullptr);
    numPairs += stats.pairs;
    numBarriers += stats.barriers;
  }
};

} // namespace

FlagSyncStats asc2::ascendc::insertFlagSync(func::FuncOp func, int64_t eventIds,
                                            OrderedElsewhere orderedElsewhere) {
  SyncInserter inserter(func.getContext(), eventIds);
  inserter.mix = detectKernelType(func) == "MIX";
  inserter.orderedElsewhere = orderedElsewhere;
  for (Block &block : func.getBody())
    inserter.walkBlock(block, /*isLoopBody=*/false);
  return {inserter.numPairs, inserter.numBarriers};
}
