//===- StaticSchedule.h - pipes and flags of the final IR ----------*- C++ -*-===//
//
// What a static sync timeline shows, from the final ascendc IR: per pipe the
// ops it issues in program order, at their program points, and the edges
// between pipes: each set_flag with the wait_flags that may consume it (and
// each rls_buf with the next get_buf of its id on another pipe).
//
// A set is consumed by the next wait of its flag on every path: the flags
// pending (set, not yet waited) flow forward through the function; both arms
// of an scf.if continue from its entry, a loop body from its entry and from
// its own end until nothing changes. Loops are taken to run at least once, so
// a flag primed before a loop pairs with the wait in the body, not the drain
// after it. An edge that only a path around a loop's back-edge takes (the
// wait is a later iteration's) wraps.
//
//===----------------------------------------------------------------------===//
#ifndef ASC2_ANALYSIS_STATICSCHEDULE_H
#define ASC2_ANALYSIS_STATICSCHEDULE_H

#include "asc2/Analysis/Accesses.h"
#include "asc2/Analysis/ProgramPoints.h"
#include "asc2/Dialect/AscendC/Transforms/Passes.h"

#include <array>
#include <string>
#include <vector>

namespace asc2 {

struct ScheduledOp {
  mlir::Operation *op;
  int point;
  /// The pipe it issues to: its PipeOpInterface pipe (a set_flag's source, a
  /// wait_flag's destination), else the scalar unit.
  ascendc::Pipe pipe;
  ascendc::CoreKind core; // the core it runs on (MIX kernels)
};

/// A set_flag and a wait_flag that consumes it, or an rls_buf and the
/// get_buf of another pipe that takes the id next.
struct ScheduleEdge {
  int setPoint, waitPoint;
  ascendc::Pipe src, dst;
  int64_t event;         // the event id, or the buffer id
  bool bufferId = false; // rls_buf -> get_buf
  bool crossCore = false;
  /// Only paths around a loop's back-edge lead from the set to the wait: it
  /// is a later iteration's wait.
  bool wraps = false;
  std::string reason; // the set's
};

class StaticSchedule {
public:
  explicit StaticSchedule(mlir::func::FuncOp func);

  const ProgramPoints &getPoints() const { return points; }
  /// The ops issued to `pipe` (ALL: full barriers), in program order.
  const std::vector<ScheduledOp> &getLane(ascendc::Pipe pipe) const {
    return lanes[(int)pipe];
  }
  /// Sorted by set point, then wait point.
  const std::vector<ScheduleEdge> &getEdges() const { return edges; }

  /// A line per non-empty lane, then one per edge.
  void print(llvm::raw_ostream &os) const;

private:
  mutable mlir::func::FuncOp func; // op handles are used through const refs
  ProgramPoints points;
  bool mix;
  std::array<std::vector<ScheduledOp>, ascendc::kPipes + 1> lanes;
  std::vector<ScheduleEdge> edges;
};

} // namespace asc2

#endif
