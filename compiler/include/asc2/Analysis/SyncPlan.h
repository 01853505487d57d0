//===- SyncPlan.h - the flags and barriers InsertSync creates ------*- C++ -*-===//
//
// Walks each block in order keeping the accesses seen so far. An access that
// conflicts (same bytes, at least one write) with an earlier one on another
// pipe gets a set_flag after the earlier op and a wait_flag before itself,
// unless the two are already ordered (directly or through an earlier pair).
// Same-pipe read-after-write and write-after-write get a pipe_barrier. Raw
// Ascend C that names no pipe (asc2.inline) gets a PIPE_ALL barrier before
// and after it, and the walk knows everything before it is ordered.
//
// Loops: the body is walked with the body's own accesses as "carried" from
// the previous iteration. A carried hazard gets a flag set after the last
// conflicting op of the body, waited before the conflicting op, primed before
// the loop and drained after it, so set and wait stay balanced for any trip
// count. A loop seen from outside is one compound op whose accesses are those
// of its body.
//
// A hazard into an op with regions that a wait already placed inside it
// orders (its set earlier in the wait's block, or a loop-carried set after
// the same op) needs no pair of its own.
//
// Event ids are binary flags per pipe pair: a new pair takes the lowest id of
// its pipe pair used by no other pair; when all are taken, of the ids not
// live anywhere between its set and its wait the one its block used longest
// ago (docs/passes.md, "Flag sync").
//
// The plan is computed on the IR before any of its ops exist: each planned op
// records where the builder will put it (before/after an op, at the start or
// end of a guard's else branch), and the queries that look at the flags
// already placed (free event ids, a loop entered behind a primed flag) see
// the planned ops at those places. ascendc-insert-sync and
// ascendc-insert-buf-id-sync create them (FlagSync.h).
//
//===----------------------------------------------------------------------===//
#ifndef ASC2_ANALYSIS_SYNCPLAN_H
#define ASC2_ANALYSIS_SYNCPLAN_H

#include "asc2/Analysis/Accesses.h"
#include "asc2/Dialect/AscendC/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <string>
#include <vector>

namespace asc2 {

enum class HazardKind { RAW, WAR, WAW };
llvm::StringRef stringifyHazardKind(HazardKind kind);

/// Two accesses to overlapping bytes, at least one a write: `later` must not
/// start before `earlier` is done.
struct Hazard {
  HazardKind kind;
  ascendc::Access earlier, later;

  /// "RAW on x: ascendc.data_copy_in (MTE2, line 3) -> ascendc.add (V, line 5)",
  /// the reason every sync op of the hazard records.
  std::string describe() const;
};

/// Orders `later` after `earlier` (a cross-pipe hazard) by other means, so
/// no flag is needed for it.
using OrderedElsewhere = llvm::function_ref<bool(const ascendc::Access &later,
                                                 const ascendc::Access &earlier)>;

/// One hazard the plan orders, and how.
struct SyncEdge {
  enum class Kind {
    Flag,        // set_flag after the earlier op, wait_flag before the later
    Barrier,     // same pipe: pipe_barrier before the later op
    FullBarrier, // out of event ids: pipe_barrier ALL before the later op
  };
  Kind kind;
  Hazard hazard;
  /// From the previous iteration: the flag is primed before the (outermost)
  /// loop and drained after it.
  bool loopCarried = false;
  int eventId = -1; // Flag only
  /// MIX kernels: the cores the set and the wait run on; a flag between the
  /// two cores is a cross-core flag.
  ascendc::CoreKind setCore = ascendc::CoreKind::Either;
  ascendc::CoreKind waitCore = ascendc::CoreKind::Either;
  bool crossCore = false;

  ascendc::Pipe src() const { return hazard.earlier.pipe; }
  ascendc::Pipe dst() const { return hazard.later.pipe; }
};

/// One sync op to create, and where the builder puts it.
struct PlannedSyncOp {
  enum class Kind { SetFlag, WaitFlag, PipeBarrier };
  enum class Where {
    Before,    // right before `anchor`
    After,     // right after `anchor`
    ElseStart, // first op of the else branch of `anchor`, an scf.if
    ElseEnd,   // last op before the terminator of that else branch
  };
  Kind kind;
  ascendc::Pipe src, dst; // a barrier's pipe is both
  int event = -1;
  std::string reason;
  Where where;
  mlir::Operation *anchor;
  mlir::Location loc;
  ascendc::CoreKind core = ascendc::CoreKind::Either; // the `core` attribute
  bool crossCore = false;
  /// Index into SyncPlan::getEdges(); -1 for the barrier of a skipped
  /// guarded copy and the fence around raw Ascend C (asc2.inline), which
  /// order no single hazard.
  int edge = -1;

  bool isFlag() const { return kind != Kind::PipeBarrier; }
};

class SyncPlan {
public:
  /// `orderedElsewhere`, if given, claims cross-pipe hazards some other
  /// mechanism orders (buffer ids); it is only called while constructing.
  explicit SyncPlan(mlir::func::FuncOp func, int64_t eventIds = 8,
                    OrderedElsewhere orderedElsewhere = nullptr);

  const std::vector<SyncEdge> &getEdges() const { return edges; }
  /// In the order the builder creates them: replaying the list with the
  /// positions it records gives the ops their final order.
  const std::vector<PlannedSyncOp> &getOps() const { return ops; }
  int getNumPairs() const { return numPairs; }
  int getNumBarriers() const { return numBarriers; }
  bool isMix() const { return mix; }
  /// Cross-core flag ids the plan uses in its busier direction (cube ->
  /// vector or vector -> cube); the hardware has kCrossCoreFlagIds.
  int getCrossCoreIds() const { return crossCoreIds; }
  static constexpr int kCrossCoreFlagIds = 16;

  /// One line per edge, program points of the unsynchronised IR.
  void print(llvm::raw_ostream &os) const;

private:
  friend class SyncPlanner;
  mutable mlir::func::FuncOp func; // op handles are used through const refs
  bool mix = false;
  std::vector<SyncEdge> edges;
  std::vector<PlannedSyncOp> ops;
  int numPairs = 0, numBarriers = 0;
  int crossCoreIds = 0;

  /// A cross-core flag is one counter per (direction, id), whatever its
  /// pipes: the ids the planner picked per pipe pair are renumbered so that
  /// two pipe pairs of one direction never share one.
  void renumberCrossCoreIds();
};

} // namespace asc2

#endif
