//===- SyncPlanner.h - the builder of a SyncPlan -------------------*- C++ -*-===//
//
// Private to SyncPlan.cpp (the walk over the blocks, the pairs and barriers)
// and SyncLayout.cpp (where the planned ops sit, and the questions about the
// flags placed so far: free event ids, a loop entered behind a primed flag).
//
//===----------------------------------------------------------------------===//
#ifndef ASC2_LIB_ANALYSIS_SYNCPLANNER_H
#define ASC2_LIB_ANALYSIS_SYNCPLANNER_H

#include "asc2/Analysis/ProgramPoints.h"
#include "asc2/Analysis/SyncPlan.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallBitVector.h"

#include <optional>
#include <tuple>

namespace asc2 {

class SyncPlanner {
  using Operation = mlir::Operation;
  using Pipe = ascendc::Pipe;
  using CoreKind = ascendc::CoreKind;

public:
  /// What the walk orders: a pipe of one core. In a MIX kernel the cube's
  /// MTE2 and the vector core's MTE2 are different pipes (lanes 0..6 the
  /// cube's or either core's, 7..13 the vector core's); elsewhere only the
  /// first seven are used.
  static constexpr int kLanes = 2 * ascendc::kPipes;
  static Pipe pipeOfLane(int lane) { return Pipe(lane % ascendc::kPipes); }
  SyncPlanner(SyncPlan &plan, int64_t eventIds, OrderedElsewhere orderedElsewhere);

  void walkBlock(mlir::Block &block, bool isLoopBody);

private:
  /// A real op of a block, or a planned sync op at its place among them.
  struct Item {
    Operation *op = nullptr;
    int planned = -1;
  };
  /// What an item is as a flag: kind, pipes, event, reason.
  struct FlagView {
    bool isSet = false, isWait = false;
    Pipe src = Pipe::S, dst = Pipe::S;
    int64_t event = -1;
    llvm::StringRef reason;
    CoreKind core = CoreKind::Either; // the core it runs on (MIX kernels)
  };

  // The layout of planned ops (SyncLayout.cpp).
  int add(PlannedSyncOp op);
  llvm::SmallVector<Item> itemsOf(mlir::Block &block) const;
  /// Calls `fn` on the items before `op` in its block, nearest first, until
  /// it returns false.
  void forEachItemBefore(Operation *op,
                         llvm::function_ref<bool(const Item &)> fn) const;
  void forEachNested(Operation *op,
                     llvm::function_ref<void(const PlannedSyncOp &)> fn) const;
  static FlagView flagOf(Operation *op);
  FlagView flagOf(const Item &item) const;
  /// The lane of an access (see kLanes).
  int laneOf(const ascendc::Access &a) const;
  /// The core a lane's flags must run on to order it: Either outside MIX.
  CoreKind coreOfLane(int lane) const;
  /// Whether flag `v` on pipe pair q -> p orders lane `qLane`'s work before
  /// lane `pLane`'s: same pipes, the set on q's core, the wait on p's.
  bool connects(const FlagView &v, int qLane, int pLane) const;

  // Queries over the flags placed so far (SyncLayout.cpp).
  bool loopEntryOrders(Operation *op, int qLane, int pLane);
  /// The op of the then-branch of guard `top` (a guarded copy of an
  /// unrolled loop) that holds `leaf`, or null when `top` is not such a guard.
  static Operation *guardedAncestor(Operation *top, Operation *leaf);
  int pickEventId(Pipe src, Pipe dst, mlir::Block &block, Operation *from,
                  Operation *to, Operation *fromLeaf = nullptr,
                  Operation *toLeaf = nullptr);
  void collectUsedIds(Pipe src, Pipe dst, const Item &item,
                      llvm::SmallBitVector &used) const;
  /// The src->dst waits already placed inside compound op `top` on the way
  /// down to `leaf` (before it), and what each orders.
  struct NestedWaits {
    /// A wait consuming a set placed earlier in its own block: it orders
    /// everything the src pipe did before `top`.
    bool ordersAll = false;
    /// A loop-carried wait whose prime sits right before `top`.
    bool primedBeforeTop = false;
    /// Loop-carried waits: (the loop, the op its set follows). In every
    /// iteration but the first of a run the wait consumes a set issued after
    /// that op's previous instance.
    llvm::SmallVector<std::pair<Operation *, Operation *>, 2> carried;
  };
  const NestedWaits &nestedWaits(Operation *top, Operation *leaf, int qLane,
                                 int pLane);
  /// Whether the waits nested in `top` before `leaf` (pipe dst) already order
  /// the earlier src access `earlierLeaf` (before `top`, or from the previous
  /// iteration when `carried`).
  bool orderedInside(Operation *top, Operation *leaf, Operation *earlierLeaf,
                     bool carried, int qLane, int pLane);

  // Planning (SyncPlan.cpp).
  void planPair(const Hazard &hazard, Operation *after, Operation *before,
                Operation *afterLeaf, Operation *beforeLeaf);
  void planCarriedPair(const Hazard &hazard, mlir::Block &body, Operation *after,
                       Operation *before, Operation *afterLeaf,
                       Operation *beforeLeaf);
  llvm::SmallVector<int> place(PlannedSyncOp::Kind kind, Pipe src, Pipe dst,
                               int id, const std::string &reason, int edge,
                               Operation *top, Operation *leaf);
  void planBarrier(Pipe pipe, Operation *before, const std::string &reason,
                   int edge);
  /// PIPE_ALL barriers right before and right after `op`, raw Ascend C that
  /// may use every pipe (usesAnyPipe).
  void planFence(Operation *op);
  int addEdge(SyncEdge::Kind kind, const Hazard &hazard, bool carried, int id);
  void tagCores(llvm::ArrayRef<int> sets, llvm::ArrayRef<int> waits,
                Operation *after, Operation *before, int edge);
  void guardSkippedCopies(mlir::Block &body);

  // Where the flags of each block are (SyncLayout.cpp): the questions of
  // pickEventId in O(log n) instead of a pass over the block.
  /// An item's place in its block, in the order of itemsOf.
  struct ItemKey {
    int index = 0, slot = 0, order = 0;
    bool operator<(const ItemKey &o) const {
      return std::tie(index, slot, order) < std::tie(o.index, o.slot, o.order);
    }
    bool operator<=(const ItemKey &o) const { return !(o < *this); }
  };
  /// The flags of one pipe pair in one block, by event id: the items that are
  /// such sets and waits, and the items using the id (nested ones included,
  /// at the item holding them), each list in block order.
  struct PairFlags {
    llvm::SmallVector<std::vector<ItemKey>, 8> sets, waits, uses;
  };
  struct BlockFlags {
    llvm::DenseMap<Operation *, int> index; // of each op in the block
    llvm::DenseMap<int, PairFlags> pairs;   // by src * kPipes + dst
  };
  BlockFlags &flagsOf(mlir::Block *block);
  ItemKey keyOf(Operation *op);
  ItemKey keyOfPlanned(int planned);
  /// Records a set or wait of (src, dst, event): an item of `host` at `key`
  /// (`isItem`), or a flag held by the op at `key`.
  void noteFlag(mlir::Block *host, ItemKey key, Pipe src, Pipe dst,
                int64_t event, bool isSet, bool isItem = true);
  /// Whether (src, dst, event) is set and not waited for before `key`.
  bool isOpen(mlir::Block *block, Pipe src, Pipe dst, int64_t event, ItemKey key);
  /// The last item of `block` using (src, dst, event) in [lo, hi], if any.
  std::optional<ItemKey> lastUse(mlir::Block *block, Pipe src, Pipe dst,
                                 int64_t event, std::optional<ItemKey> lo,
                                 std::optional<ItemKey> hi);
  /// Whether a new (src, dst) pair may share `id` with the block's other
  /// pairs: flags the other way order their uses (SyncLayout.cpp).
  bool sharingIsOrdered(mlir::Block &block, Pipe src, Pipe dst, int id,
                        ItemKey fromKey, ItemKey toKey, bool isLoopBody);
  /// Whether a dst -> src flag orders a wait at `waitKey` before a set at
  /// `setKey` (`wrapped`: the wait is in the previous iteration).
  bool chainOrders(mlir::Block &block, Pipe src, Pipe dst, ItemKey waitKey,
                   ItemKey setKey, bool wrapped);
  llvm::DenseMap<mlir::Block *, BlockFlags> blockFlags;
  /// The ids each pipe pair uses anywhere in the function.
  llvm::DenseMap<int, llvm::SmallBitVector> idsAnywhere;

  SyncPlan &plan;
  int64_t eventIds;
  OrderedElsewhere orderedElsewhere;
  int carriedPairs = 0;
  ProgramPoints points;
  llvm::DenseMap<std::tuple<Operation *, Operation *, int>, NestedWaits>
      nestedWaitCache;
  /// Planned ops by place, in creation order.
  llvm::DenseMap<Operation *, llvm::SmallVector<int, 2>> before, after,
      elseStart, elseEnd;
};

} // namespace asc2

#endif
