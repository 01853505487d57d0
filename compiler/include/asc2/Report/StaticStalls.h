//===- StaticStalls.h - where waits idle their pipes, in program order -*- C++ -*-===//
//
// The stalls a static sync timeline shows: from the report's program points,
// sync records and schedule edges (plain records, no IR), so the compiler
// fills CompileReport::scheduleStalls once and every view reads them.
//
//===----------------------------------------------------------------------===//
#ifndef ASC2_REPORT_STATICSTALLS_H
#define ASC2_REPORT_STATICSTALLS_H

#include "asc2/Report/CompileReport.h"

#include <vector>

namespace asc2 {

/// The lane a pipe's ops are drawn in: full barriers (ALL) on the scalar lane.
constexpr Pipe laneOf(Pipe pipe) { return pipe == Pipe::ALL ? Pipe::S : pipe; }

/// Where each edge's wait makes its pipe idle. The waiting pipe runs out of
/// work after its last op before the wait (`lastOwn`), but the flag only
/// comes once the set's pipe has finished the op the flag guards (`producer`,
/// the last non-sync op of the source pipe before the set): the waiting pipe
/// idles over [max(lastOwn + 1, producer), wait) -- for a wrapping edge until
/// the set is done, [.., set + 1), then its next iteration's wait passes.
/// No stall when the waiting pipe still has work after the set, or the set
/// guards no op (a priming set_flag). Sorted by (lane order, from).
std::vector<ScheduleStallRecord> staticStalls(const CompileReport &report);

} // namespace asc2

#endif
