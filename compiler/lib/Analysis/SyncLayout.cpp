//===- SyncLayout.cpp - where planned sync ops sit, free event ids --------===//
//
// The planned ops are not in the IR yet, but the inserter's questions are
// about the flags placed so far. Each planned op records its place; a block's
// items are its ops with the planned ops where the builder will leave them:
// ops put right before an op stay in creation order, ops put right after an
// op (or at the start of a block) end up in reverse creation order, each
// closer to the op than the earlier ones.
//
//===----------------------------------------------------------------------===//
#include "SyncPlanner.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/DenseSet.h"

#include <optional>

using namespace mlir;
using namespace asc2::ascendc;

namespace asc2 {

SyncPlanner::SyncPlanner(SyncPlan &plan, int64_t eventIds,
                         OrderedElsewhere orderedElsewhere)
    : plan(plan), eventIds(eventIds), orderedElsewhere(orderedElsewhere),
      points(plan.func) {
  plan.func.walk([&](Operation *op) {
    if (auto v = flagOf(op); v.isSet || v.isWait)
      existingFlags.push_back(v);
  });
}

//===----------------------------------------------------------------------===//
// Layout
//===----------------------------------------------------------------------===//

int SyncPlanner::add(PlannedSyncOp op) {
  int index = plan.ops.size();
  using Where = PlannedSyncOp::Where;
  auto &places = op.where == Where::Before  ? before
                 : op.where == Where::After ? after
                 : op.where == Where::ElseStart ? elseStart
                                                : elseEnd;
  places[op.anchor].push_back(index);
  plan.ops.push_back(std::move(op));
  return index;
}

SmallVector<SyncPlanner::Item> SyncPlanner::itemsOf(Block &block) const {
  SmallVector<Item> items;
  auto guard = dyn_cast_or_null<scf::IfOp>(block.getParentOp());
  bool isElse = guard && block.getParent() == &guard.getElseRegion();
  auto append = [&](const DenseMap<Operation *, SmallVector<int, 2>> &places,
                    Operation *key, bool reversed) {
    auto it = places.find(key);
    if (it == places.end())
      return;
    if (reversed)
      for (int i : llvm::reverse(it->second))
        items.push_back({nullptr, i});
    else
      for (int i : it->second)
        items.push_back({nullptr, i});
  };
  if (isElse)
    append(elseStart, guard, /*reversed=*/true);
  for (Operation &op : block) {
    if (isElse && &op == block.getTerminator())
      append(elseEnd, guard, /*reversed=*/false);
    append(before, &op, /*reversed=*/false);
    items.push_back({&op, -1});
    append(after, &op, /*reversed=*/true);
  }
  return items;
}

void SyncPlanner::forEachNested(Operation *op,
                                function_ref<void(const PlannedSyncOp &)> fn) const {
  auto visit = [&](const DenseMap<Operation *, SmallVector<int, 2>> &places,
                   Operation *key) {
    auto it = places.find(key);
    if (it != places.end())
      for (int i : it->second)
        fn(plan.ops[i]);
  };
  op->walk([&](Operation *nested) {
    if (nested != op) {
      visit(before, nested);
      visit(after, nested);
    }
    visit(elseStart, nested);
    visit(elseEnd, nested);
  });
}

SyncPlanner::FlagView SyncPlanner::flagOf(Operation *op) {
  FlagView v;
  if (auto s = dyn_cast<SetFlagOp>(op)) {
    v = {true, false, s.getSrc(), s.getDst(), (int64_t)s.getEvent(),
         s.getReason().value_or(""), coreKindOf(op)};
  } else if (auto w = dyn_cast<WaitFlagOp>(op)) {
    v = {false, true, w.getSrc(), w.getDst(), (int64_t)w.getEvent(),
         w.getReason().value_or(""), coreKindOf(op)};
  }
  return v;
}

int SyncPlanner::laneOf(const Access &a) const {
  bool vectorSide = plan.mix && coreKindOf(a.leaf) == CoreKind::Vector;
  return (int)a.pipe + (vectorSide ? kPipes : 0);
}

CoreKind SyncPlanner::coreOfLane(int lane) const {
  if (!plan.mix)
    return CoreKind::Either;
  return lane >= kPipes ? CoreKind::Vector : CoreKind::Cube;
}

bool SyncPlanner::connects(const FlagView &v, int qLane, int pLane) const {
  if (v.src != pipeOfLane(qLane) || v.dst != pipeOfLane(pLane))
    return false;
  CoreKind want = v.isSet ? coreOfLane(qLane) : coreOfLane(pLane);
  // Lanes 0..6 of a MIX kernel also hold the work of either core (GM-only
  // scalar ops), which a flag on the vector core does not order.
  return want == CoreKind::Either || v.core == CoreKind::Either || v.core == want;
}

SyncPlanner::FlagView SyncPlanner::flagOf(const Item &item) const {
  if (item.op)
    return flagOf(item.op);
  const PlannedSyncOp &p = plan.ops[item.planned];
  FlagView v;
  if (!p.isFlag())
    return v;
  v.isSet = p.kind == PlannedSyncOp::Kind::SetFlag;
  v.isWait = !v.isSet;
  v.src = p.src;
  v.dst = p.dst;
  v.event = p.event;
  v.reason = p.reason;
  v.core = p.core;
  return v;
}

//===----------------------------------------------------------------------===//
// Event ids
//===----------------------------------------------------------------------===//

/// Ids of (src, dst) that `item` uses, nested ops included.
void SyncPlanner::collectUsedIds(Pipe src, Pipe dst, const Item &item,
                                 llvm::SmallBitVector &used) const {
  auto note = [&](const FlagView &v) {
    if ((v.isSet || v.isWait) && v.src == src && v.dst == dst)
      used.set(v.event);
  };
  if (!item.op) {
    note(flagOf(item));
    return;
  }
  item.op->walk([&](Operation *o) { note(flagOf(o)); });
  forEachNested(item.op, [&](const PlannedSyncOp &p) {
    if (p.isFlag() && p.src == src && p.dst == dst)
      used.set(p.event);
  });
}

Operation *SyncPlanner::guardedAncestor(Operation *top, Operation *leaf) {
  auto guard = dyn_cast<scf::IfOp>(top);
  if (!guard || !leaf || leaf == top)
    return nullptr;
  return guard.thenBlock()->findAncestorOpInBlock(*leaf);
}

/// Lowest event id of (src, dst) that is free from `from` to `to` (both in
/// `block`, inclusive): not open at `from`, not used between, and not open in
/// any enclosing block around this one. When `from` (`to`) is a guarded copy
/// whose set (wait) goes right after (before) the op holding `fromLeaf`
/// (`toLeaf`), only the part of its then-branch after (before) that op
/// counts; its skipped branch holds only the twins of such waits (first) and
/// sets (last).
int SyncPlanner::pickEventId(Pipe src, Pipe dst, Block &block, Operation *from,
                             Operation *to, Operation *fromLeaf,
                             Operation *toLeaf) {
  llvm::SmallBitVector used(eventIds + 1);
  // Ids open at `from` in this block and at the enclosing op in every
  // enclosing block.
  Block *b = &block;
  Operation *at = from;
  while (b) {
    llvm::SmallBitVector open(eventIds + 1);
    for (const Item &item : itemsOf(*b)) {
      if (item.op == at)
        break;
      FlagView v = flagOf(item);
      if (v.src != src || v.dst != dst)
        continue;
      if (v.isSet)
        open.set(v.event);
      if (v.isWait)
        open.reset(v.event);
    }
    used |= open;
    Operation *parent = b->getParentOp();
    if (!parent || isa<func::FuncOp>(parent))
      break;
    at = parent;
    b = parent->getBlock();
  }
  Operation *setAt = from != to ? guardedAncestor(from, fromLeaf) : nullptr;
  Operation *waitAt = from != to ? guardedAncestor(to, toLeaf) : nullptr;
  bool inRange = false;
  for (const Item &item : itemsOf(block)) {
    if (!inRange && item.op == from && setAt) {
      inRange = true;
      bool past = false;
      for (const Item &nested : itemsOf(*setAt->getBlock())) {
        if (past)
          collectUsedIds(src, dst, nested, used);
        past |= nested.op == setAt;
      }
      continue;
    }
    inRange |= item.op == from;
    if (!inRange)
      continue;
    if (item.op == to && waitAt) {
      for (const Item &nested : itemsOf(*waitAt->getBlock())) {
        if (nested.op == waitAt)
          break;
        collectUsedIds(src, dst, nested, used);
      }
      break;
    }
    collectUsedIds(src, dst, item, used);
    if (item.op == to)
      break;
  }
  // Prefer an id no other pair of this pipe pair uses anywhere in the
  // function: two pairs sharing an id are only safe when the first wait is
  // ordered before the second set, which program order alone does not give
  // (the set's pipe may run ahead of the wait's pipe).
  llvm::SmallBitVector usedAnywhere(eventIds + 1);
  for (const FlagView &v : existingFlags)
    if (v.src == src && v.dst == dst)
      usedAnywhere.set(v.event);
  for (const PlannedSyncOp &p : plan.ops)
    if (p.isFlag() && p.src == src && p.dst == dst)
      usedAnywhere.set(p.event);
  for (int id = 0; id < eventIds; ++id)
    if (!used.test(id) && !usedAnywhere.test(id))
      return id;
  // Shared: of the ids free between set and wait, the one this block used
  // longest ago before `from` (in a loop body, uses after `to` were in the
  // previous iteration). Taking the lowest would put the second set right
  // behind the first wait in program order, nothing in between ordering the
  // wait's pipe before the set's; rotating through the ids leaves the pairs
  // between them to do that (the slots of a ping-pong alternate).
  SmallVector<Item> items = itemsOf(block);
  SmallVector<int64_t> lastUse(eventIds, INT64_MIN);
  bool isLoopBody = isa_and_nonnull<scf::ForOp>(block.getParentOp());
  int64_t size = items.size();
  enum { Before, Between, After } phase = Before;
  for (int64_t i = 0; i < size; ++i) {
    if (phase == Before && items[i].op == from)
      phase = Between;
    if (phase == Between) {
      if (items[i].op == to)
        phase = After;
      continue;
    }
    if (phase == After && !isLoopBody)
      break;
    // Flag ops carry ids 0..7 whatever the budget.
    llvm::SmallBitVector ids(std::max<int64_t>(eventIds, 8) + 1);
    collectUsedIds(src, dst, items[i], ids);
    for (int id = 0; id < eventIds; ++id)
      if (ids.test(id))
        lastUse[id] = std::max(lastUse[id], phase == Before ? i : i - size);
  }
  int best = -1;
  for (int id = 0; id < eventIds; ++id)
    if (!used.test(id) && (best < 0 || lastUse[id] < lastUse[best]))
      best = id;
  return best;
}

const SyncPlanner::NestedWaits &
SyncPlanner::nestedWaits(Operation *top, Operation *leaf, int q, int p) {
  auto [it, added] = nestedWaitCache.try_emplace(
      std::make_tuple(top, leaf, q * kLanes + p));
  NestedWaits &w = it->second;
  if (!added)
    return w;
  SmallVector<Block *> path;
  for (Operation *o = leaf; o && o != top; o = o->getParentOp())
    path.push_back(o->getBlock());
  for (Block *b : llvm::reverse(path)) {
    Operation *at = b->findAncestorOpInBlock(*leaf);
    llvm::SmallDenseSet<int64_t> sets;
    for (const Item &item : itemsOf(*b)) {
      if (item.op == at)
        break;
      FlagView v = flagOf(item);
      if (!connects(v, q, p))
        continue;
      if (v.isSet) {
        sets.insert(v.event);
        continue;
      }
      if (!v.isWait)
        continue;
      // q issues in order: a set after `top` started follows all q work
      // before it, and the balanced protocol makes this wait consume that
      // set or a later one.
      if (sets.contains(v.event)) {
        w.ordersAll = true;
        return w;
      }
      if (item.planned < 0 || plan.ops[item.planned].edge < 0)
        continue;
      int edge = plan.ops[item.planned].edge;
      const SyncEdge &e = plan.edges[edge];
      if (e.kind != SyncEdge::Kind::Flag || !e.loopCarried)
        continue;
      Operation *loop = b->getParentOp();
      while (loop && !isa<scf::ForOp>(loop))
        loop = loop->getParentOp();
      if (!loop || !top->isAncestor(loop))
        continue;
      w.carried.push_back({loop, e.hazard.earlier.leaf});
      for (const PlannedSyncOp &o : plan.ops)
        if (o.edge == edge && o.kind == PlannedSyncOp::Kind::SetFlag &&
            o.where == PlannedSyncOp::Where::Before && o.anchor == top)
          w.primedBeforeTop = true;
    }
  }
  return w;
}

bool SyncPlanner::orderedInside(Operation *top, Operation *leaf,
                                Operation *earlierLeaf, bool carried, int q,
                                int p) {
  if (leaf == top)
    return false;
  const NestedWaits &w = nestedWaits(top, leaf, q, p);
  if (w.ordersAll)
    return true;
  // Before `top` in this block: the prime right before `top` follows it.
  if (!carried)
    return w.primedBeforeTop;
  // From the previous iteration: a loop-carried wait of a loop holding the
  // earlier op consumes a set issued after that op's latest instance when
  // the set follows it in the body (a loop run with no trips ran neither).
  int at = points.pointOf(earlierLeaf);
  return llvm::any_of(w.carried, [&](const auto &c) {
    return c.first->isAncestor(earlierLeaf) && at <= points.pointOf(c.second);
  });
}

/// Whether `op` is a loop whose p work all comes after a q->p wait at the top
/// of its body whose set follows every earlier q op: a loop-carried flag
/// primed right before the loop, or a flag set earlier in the body (q is in
/// order, so it is set after the q work before the loop). The first
/// iteration's wait then orders that work before all of the loop's p work.
bool SyncPlanner::loopEntryOrders(Operation *op, int q, int p) {
  auto loop = dyn_cast<scf::ForOp>(op);
  if (!loop)
    return false;
  std::optional<int64_t> event;
  llvm::SmallDenseSet<int64_t> bodySets;
  for (const Item &item : itemsOf(*loop.getBody())) {
    FlagView v = flagOf(item);
    if (v.isSet) {
      if (connects(v, q, p))
        bodySets.insert(v.event);
      continue;
    }
    if (v.isWait) {
      if (!connects(v, q, p))
        continue;
      // Set earlier in the body: on the in-order q pipe, after the loop's
      // q work of this iteration, hence after everything q did before it.
      if (bodySets.contains(v.event))
        return true;
      if (!event && v.reason.ends_with("(loop-carried)"))
        event = v.event;
      continue;
    }
    if (!item.op)
      continue; // a planned barrier touches no buffer
    SmallVector<Access> accesses;
    collectAccesses(item.op, item.op, accesses);
    if (llvm::any_of(accesses, [&](const Access &a) { return laneOf(a) == p; }))
      break;
  }
  if (!event)
    return false;
  SmallVector<Item> items = itemsOf(*loop->getBlock());
  auto at = llvm::find_if(items, [&](const Item &i) { return i.op == loop; });
  while (at != items.begin()) {
    FlagView v = flagOf(*--at);
    if (!v.isSet && !v.isWait)
      break;
    if (v.isSet && connects(v, q, p) && v.event == *event)
      return true;
  }
  return false;
}

} // namespace asc2
