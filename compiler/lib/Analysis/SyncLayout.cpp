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

#include <algorithm>
#include <climits>
#include <optional>

using namespace mlir;
using namespace asc2::ascendc;

namespace asc2 {

SyncPlanner::SyncPlanner(SyncPlan &plan, int64_t eventIds,
                         OrderedElsewhere orderedElsewhere)
    : plan(plan), eventIds(eventIds), orderedElsewhere(orderedElsewhere),
      points(plan.func) {
  plan.func.walk([&](Operation *op) {
    // Flags of the input IR (none unless it was synchronised before).
    if (auto v = flagOf(op); v.isSet || v.isWait)
      noteFlag(op->getBlock(), keyOf(op), v.src, v.dst, v.event, v.isSet);
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
  const PlannedSyncOp &added = plan.ops.back();
  if (added.isFlag()) {
    bool isSet = added.kind == PlannedSyncOp::Kind::SetFlag;
    if (added.where != Where::ElseStart && added.where != Where::ElseEnd)
      noteFlag(added.anchor->getBlock(), keyOfPlanned(index), added.src,
               added.dst, added.event, isSet);
    else if (Block *elseBlock = cast<scf::IfOp>(added.anchor).elseBlock())
      noteFlag(elseBlock, keyOfPlanned(index), added.src, added.dst,
               added.event, isSet);
    else // no else branch yet: not an item of any block, a use of the guard
      noteFlag(added.anchor->getBlock(), keyOf(added.anchor), added.src,
               added.dst, added.event, isSet, /*isItem=*/false);
  }
  return index;
}

//===----------------------------------------------------------------------===//
// The flags of each block
//===----------------------------------------------------------------------===//

SyncPlanner::BlockFlags &SyncPlanner::flagsOf(Block *block) {
  auto [it, added] = blockFlags.try_emplace(block);
  if (added) {
    int i = 0;
    for (Operation &op : *block)
      it->second.index[&op] = i++;
  }
  return it->second;
}

SyncPlanner::ItemKey SyncPlanner::keyOf(Operation *op) {
  return {flagsOf(op->getBlock()).index.lookup(op), 1, 0};
}

/// In itemsOf's order: an op's "before" ops in creation order, the op, its
/// "after" ops in reverse creation order; an else branch's ElseStart ops
/// (reversed) first, its ElseEnd ops right before its terminator's items.
SyncPlanner::ItemKey SyncPlanner::keyOfPlanned(int planned) {
  const PlannedSyncOp &p = plan.ops[planned];
  using Where = PlannedSyncOp::Where;
  switch (p.where) {
  case Where::Before:
    return {keyOf(p.anchor).index, 0, planned};
  case Where::After:
    return {keyOf(p.anchor).index, 2, -planned};
  case Where::ElseStart:
    return {-1, 0, -planned};
  case Where::ElseEnd:
    return {keyOf(cast<scf::IfOp>(p.anchor).elseBlock()->getTerminator()).index,
            -1, planned};
  }
  llvm_unreachable("unknown place");
}

template <typename Key>
static void insertSorted(std::vector<Key> &keys, Key key) {
  keys.insert(std::upper_bound(keys.begin(), keys.end(), key), key);
}

void SyncPlanner::noteFlag(Block *host, ItemKey key, Pipe src, Pipe dst,
                           int64_t event, bool isSet, bool isItem) {
  if (event < 0)
    return;
  int pair = (int)src * kPipes + (int)dst;
  llvm::SmallBitVector &anywhere = idsAnywhere[pair];
  if ((int64_t)anywhere.size() <= event)
    anywhere.resize(event + 1);
  anywhere.set(event);
  auto slot = [&](auto &byId) -> std::vector<ItemKey> & {
    if ((int64_t)byId.size() <= event)
      byId.resize(event + 1);
    return byId[event];
  };
  if (isItem) {
    PairFlags &own = flagsOf(host).pairs[pair];
    insertSorted(slot(isSet ? own.sets : own.waits), key);
  }
  // A use of the item itself and of every op holding it, in its block.
  for (Block *b = host;;) {
    insertSorted(slot(flagsOf(b).pairs[pair].uses), key);
    Operation *parent = b->getParentOp();
    if (!parent || isa<func::FuncOp>(parent) || !parent->getBlock())
      break;
    key = keyOf(parent);
    b = parent->getBlock();
  }
}

/// The last key in `keys` before `key` (< key), if any.
template <typename Key>
static const Key *lastBefore(const std::vector<Key> &keys, Key key) {
  auto it = std::lower_bound(keys.begin(), keys.end(), key);
  return it == keys.begin() ? nullptr : &*std::prev(it);
}

bool SyncPlanner::isOpen(Block *block, Pipe src, Pipe dst, int64_t event,
                         ItemKey key) {
  auto &pairs = flagsOf(block).pairs;
  auto it = pairs.find((int)src * kPipes + (int)dst);
  if (it == pairs.end())
    return false;
  const PairFlags &f = it->second;
  const ItemKey *set = (int64_t)f.sets.size() > event ? lastBefore(f.sets[event], key) : nullptr;
  if (!set)
    return false;
  const ItemKey *wait = (int64_t)f.waits.size() > event ? lastBefore(f.waits[event], key) : nullptr;
  return !wait || *wait < *set;
}

std::optional<SyncPlanner::ItemKey>
SyncPlanner::lastUse(Block *block, Pipe src, Pipe dst, int64_t event,
                     std::optional<ItemKey> lo, std::optional<ItemKey> hi) {
  auto &pairs = flagsOf(block).pairs;
  auto it = pairs.find((int)src * kPipes + (int)dst);
  if (it == pairs.end() || (int64_t)it->second.uses.size() <= event)
    return std::nullopt;
  const std::vector<ItemKey> &keys = it->second.uses[event];
  auto end = hi ? std::upper_bound(keys.begin(), keys.end(), *hi) : keys.end();
  if (end == keys.begin())
    return std::nullopt;
  const ItemKey &last = *std::prev(end);
  if (lo && last < *lo)
    return std::nullopt;
  return last;
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

void SyncPlanner::forEachItemBefore(Operation *op,
                                    function_ref<bool(const Item &)> fn) const {
  Block *block = op->getBlock();
  auto guard = dyn_cast_or_null<scf::IfOp>(block->getParentOp());
  bool isElse = guard && block->getParent() == &guard.getElseRegion();
  // Backwards through a list itemsOf lays out forwards (or reversed).
  auto visit = [&](const DenseMap<Operation *, SmallVector<int, 2>> &places,
                   Operation *key, bool reversed) {
    auto it = places.find(key);
    if (it == places.end())
      return true;
    if (reversed) {
      for (int i : it->second)
        if (!fn({nullptr, i}))
          return false;
    } else {
      for (int i : llvm::reverse(it->second))
        if (!fn({nullptr, i}))
          return false;
    }
    return true;
  };
  for (Operation *cur = op;;) {
    if (!visit(before, cur, /*reversed=*/false))
      return;
    if (isElse && cur == block->getTerminator() &&
        !visit(elseEnd, guard, /*reversed=*/false))
      return;
    Operation *prev = cur->getPrevNode();
    if (!prev)
      break;
    if (!visit(after, prev, /*reversed=*/true) || !fn({prev, -1}))
      return;
    cur = prev;
  }
  if (isElse)
    visit(elseStart, guard, /*reversed=*/true);
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

/// Whether a wait at `waitKey` (pipe dst) is ordered before a set at `setKey`
/// (pipe src) of the same block by a dst -> src flag: one set after the wait
/// and waited for before the set. `wrapped`: the wait is in the previous
/// iteration of the loop `block` is the body of.
bool SyncPlanner::chainOrders(Block &block, Pipe src, Pipe dst, ItemKey waitKey,
                              ItemKey setKey, bool wrapped) {
  auto &pairs = flagsOf(&block).pairs;
  auto back = pairs.find((int)dst * kPipes + (int)src);
  if (back == pairs.end())
    return false;
  const PairFlags &f = back->second;
  // Per id, the last wait before the set is the one to look at: the set it
  // consumes is the latest before it (an earlier wait's is no later).
  for (size_t j = 0; j < f.waits.size() && j < f.sets.size(); ++j) {
    const ItemKey *wait = lastBefore(f.waits[j], setKey);
    if (!wait || (!wrapped && !(waitKey < *wait)))
      continue;
    // The set it consumes: the last one before it, else (a loop body) the
    // last one of the previous iteration.
    const ItemKey *consumed = lastBefore(f.sets[j], *wait);
    if (consumed ? (wrapped || waitKey < *consumed)
                 : (wrapped && !f.sets[j].empty() && waitKey < f.sets[j].back()))
      return true;
  }
  return false;
}

/// Whether a new pair of (src, dst) may take `id`, which other pairs of the
/// block use outside [from, to]: the wait before the new set (pipe dst) must
/// be ordered before that set (pipe src), and the new wait before the next
/// set, by the dst -> src flags placed so far. Program order does not do it:
/// the set's pipe may run ahead of the wait's, and a flag set twice before its
/// wait loses a signal. Uses inside compound ops are not looked into: such an
/// id is not shared.
bool SyncPlanner::sharingIsOrdered(Block &block, Pipe src, Pipe dst, int id,
                                   ItemKey fromKey, ItemKey toKey, bool isLoopBody) {
  auto &pairs = flagsOf(&block).pairs;
  auto it = pairs.find((int)src * kPipes + (int)dst);
  if (it == pairs.end())
    return true;
  const PairFlags &f = it->second;
  auto listOf = [&](const llvm::SmallVector<std::vector<ItemKey>, 8> &lists)
      -> const std::vector<ItemKey> & {
    static const std::vector<ItemKey> none;
    return (size_t)id < lists.size() ? lists[id] : none;
  };
  const std::vector<ItemKey> &sets = listOf(f.sets), &waits = listOf(f.waits),
                             &uses = listOf(f.uses);
  if (uses.empty())
    return true; // used in other blocks only
  if (uses.size() != sets.size() + waits.size())
    return false; // a use nested in an op of the block
  ItemKey setKey{fromKey.index, 2, INT_MIN};   // right after `from`, before its older "after" ops
  ItemKey waitKey{toKey.index, 0, INT_MAX};    // right before `to`
  // The wait before the new set: in this iteration, else the previous one.
  if (const ItemKey *w = lastBefore(waits, setKey)) {
    if (!chainOrders(block, src, dst, *w, setKey, false))
      return false;
  } else if (isLoopBody && !waits.empty() && toKey < waits.back()) {
    if (!chainOrders(block, src, dst, waits.back(), setKey, true))
      return false;
  }
  // The set after the new wait: in this iteration, else the next one.
  auto next = std::upper_bound(sets.begin(), sets.end(), waitKey);
  if (next != sets.end()) {
    if (!chainOrders(block, src, dst, waitKey, *next, false))
      return false;
  } else if (isLoopBody && !sets.empty() && sets.front() < fromKey) {
    if (!chainOrders(block, src, dst, waitKey, sets.front(), true))
      return false;
  }
  return true;
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
    for (int id = 0; id < eventIds; ++id)
      if (isOpen(b, src, dst, id, keyOf(at)))
        used.set(id);
    Operation *parent = b->getParentOp();
    if (!parent || isa<func::FuncOp>(parent))
      break;
    at = parent;
    b = parent->getBlock();
  }
  // Ids used from `from` to `to` (inclusive). A guarded `from` counts only
  // from the op holding `fromLeaf` on, a guarded `to` only up to the op
  // holding `toLeaf`: those parts of their then-branches are looked at item
  // by item, the rest of the range through the block's index.
  Operation *setAt = from != to ? guardedAncestor(from, fromLeaf) : nullptr;
  Operation *waitAt = from != to ? guardedAncestor(to, toLeaf) : nullptr;
  ItemKey fromKey = keyOf(from), toKey = keyOf(to);
  bool toInRange = fromKey <= toKey;
  if (setAt) {
    bool past = false;
    for (const Item &nested : itemsOf(*setAt->getBlock())) {
      if (past)
        collectUsedIds(src, dst, nested, used);
      past |= nested.op == setAt;
    }
  }
  if (waitAt && toInRange)
    for (const Item &nested : itemsOf(*waitAt->getBlock())) {
      if (nested.op == waitAt)
        break;
      collectUsedIds(src, dst, nested, used);
    }
  // The twin in the skipped branch sits at its end (a set) or start (a
  // wait): every pair in that branch runs right before (after) it with
  // nothing ordering the wait's pipe before the set's, so their ids are
  // taken.
  auto takeSkippedBranch = [&](Operation *guard) {
    if (auto guardIf = dyn_cast<scf::IfOp>(guard))
      if (Block *skipped = guardIf.elseBlock())
        for (const Item &nested : itemsOf(*skipped))
          collectUsedIds(src, dst, nested, used);
  };
  if (setAt)
    takeSkippedBranch(from);
  if (waitAt)
    takeSkippedBranch(to);
  ItemKey lo = fromKey, hi = toKey;
  if (setAt)
    lo.order = 1; // past `from` itself, before its "after" ops
  if (waitAt)
    hi.order = -1; // its "before" ops, not `to` itself
  for (int id = 0; id < eventIds; ++id)
    if (lastUse(&block, src, dst, id, lo,
                toInRange ? std::optional<ItemKey>(hi) : std::nullopt))
      used.set(id);
  // Prefer an id no other pair of this pipe pair uses anywhere in the
  // function: two pairs sharing an id are only safe when the first wait is
  // ordered before the second set, which program order alone does not give
  // (the set's pipe may run ahead of the wait's pipe).
  const llvm::SmallBitVector &anywhere = idsAnywhere[(int)src * kPipes + (int)dst];
  for (int id = 0; id < eventIds; ++id)
    if (!used.test(id) && !(id < (int)anywhere.size() && anywhere.test(id)))
      return id;
  // Shared: of the ids free between set and wait, the one this block used
  // longest ago before `from` (in a loop body, uses after `to` were in the
  // previous iteration). Taking the lowest would put the second set right
  // behind the first wait in program order, nothing in between ordering the
  // wait's pipe before the set's; rotating through the ids leaves the pairs
  // between them to do that (the slots of a ping-pong alternate).
  bool isLoopBody = isa_and_nonnull<scf::ForOp>(block.getParentOp());
  // (2, last use before `from`), else (1, last use after `to`) in a loop
  // body, else (0): the smallest is the longest ago.
  ItemKey beforeFrom{fromKey.index, 0, INT_MAX}; // the last key below `from`
  auto age = [&](int id) -> std::pair<int, ItemKey> {
    if (auto k = lastUse(&block, src, dst, id, std::nullopt, beforeFrom))
      return {2, *k};
    if (isLoopBody)
      if (auto k = lastUse(&block, src, dst, id, std::nullopt, std::nullopt);
          k && toKey < *k)
        return {1, *k};
    return {0, ItemKey()};
  };
  int best = -1;
  std::pair<int, ItemKey> bestAge;
  for (int id = 0; id < eventIds; ++id) {
    if (used.test(id) || !sharingIsOrdered(block, src, dst, id, fromKey, toKey, isLoopBody))
      continue;
    auto a = age(id);
    if (best < 0 || a.first < bestAge.first ||
        (a.first == bestAge.first && a.second < bestAge.second)) {
      best = id;
      bestAge = a;
    }
  }
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
  // The flags right before the loop (up to the first other item).
  bool primed = false;
  forEachItemBefore(loop, [&](const Item &item) {
    FlagView v = flagOf(item);
    if (!v.isSet && !v.isWait)
      return false;
    primed = v.isSet && connects(v, q, p) && v.event == *event;
    return !primed;
  });
  return primed;
}

} // namespace asc2
