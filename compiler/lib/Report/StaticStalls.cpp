//===- StaticStalls.cpp ---------------------------------------------------===//
#include "asc2/Report/StaticStalls.h"

#include <algorithm>

namespace asc2 {

namespace {
enum class PointKind { Work, Set, Wait, Barrier };

PointKind kindOf(SyncKind kind) {
  switch (kind) {
  // A buffer id's release lets the next taker go, like a set_flag its wait.
  case SyncKind::SetFlag:
  case SyncKind::RlsBuf:
    return PointKind::Set;
  case SyncKind::WaitFlag:
  case SyncKind::GetBuf:
    return PointKind::Wait;
  case SyncKind::PipeBarrier:
    break;
  }
  return PointKind::Barrier;
}
} // namespace

std::vector<ScheduleStallRecord> staticStalls(const CompileReport &report) {
  const int n = (int)report.points.size();
  std::vector<PointKind> kinds(n, PointKind::Work);
  for (const SyncRecord &s : report.sync)
    if (s.point >= 0 && s.point < n)
      kinds[s.point] = kindOf(s.kind);
  const auto onPipe = [&](int i, Pipe pipe) {
    return laneOf(report.points[i].pipe) == pipe;
  };
  const auto isWork = [&](int i) { return kinds[i] == PointKind::Work; };

  std::vector<ScheduleStallRecord> out;
  for (int e = 0; e < (int)report.scheduleEdges.size(); ++e) {
    const ScheduleEdgeRecord &edge = report.scheduleEdges[e];
    const Pipe src = laneOf(edge.src), dst = laneOf(edge.dst);
    if (src == dst || edge.setPoint >= n || edge.waitPoint >= n)
      continue;
    ScheduleStallRecord stall;
    stall.pipe = dst;
    stall.edge = e;
    for (int i = edge.setPoint - 1; i >= 0 && stall.producer < 0; --i)
      if (onPipe(i, src) && isWork(i))
        stall.producer = i;
    if (stall.producer < 0)
      continue; // nothing to wait for: the flag is set at once
    bool busyAfterSet = false;
    if (!edge.wraps) {
      for (int i = edge.waitPoint - 1; i >= 0 && stall.lastOwn < 0; --i)
        if (onPipe(i, dst))
          stall.lastOwn = i;
      busyAfterSet = stall.lastOwn > edge.setPoint;
      stall.to = edge.waitPoint;
    } else {
      // The wait is the next iteration's: work of the waiting pipe after the
      // set (same iteration) keeps it busy while the flag comes.
      for (int i = edge.setPoint + 1; i < n && !busyAfterSet; ++i)
        busyAfterSet = onPipe(i, dst) && kinds[i] != PointKind::Wait;
      for (int i = edge.setPoint - 1; i > edge.waitPoint && stall.lastOwn < 0; --i)
        if (onPipe(i, dst))
          stall.lastOwn = i;
      stall.to = edge.setPoint + 1;
    }
    if (busyAfterSet)
      continue;
    stall.from = std::max(stall.lastOwn + 1, stall.producer);
    if (stall.from < stall.to)
      out.push_back(stall);
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const ScheduleStallRecord &a, const ScheduleStallRecord &b) {
                     return a.pipe != b.pipe
                                ? pipeLaneIndex(a.pipe) < pipeLaneIndex(b.pipe)
                                : a.from < b.from;
                   });
  return out;
}

} // namespace asc2
