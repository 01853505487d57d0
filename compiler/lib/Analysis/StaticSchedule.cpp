//===- StaticSchedule.cpp -------------------------------------------------===//
#include "asc2/Analysis/StaticSchedule.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include <map>
#include <set>
#include <tuple>

using namespace mlir;
using namespace asc2::ascendc;

namespace asc2 {

namespace {

/// A binary flag (cross-core or not, src, dst, event) or a buffer id
/// (src = dst = ALL, its id).
using FlagKey = std::tuple<bool, bool, int, int, int64_t>;
/// The sets (program points) that may be pending on each flag, each with
/// whether every path that brings it here goes around a loop's back-edge.
using Pending = std::map<FlagKey, std::map<int, bool>>;

/// Adds the sets of `from` to `into`; `backEdge`: they come around a loop.
void merge(Pending &into, const Pending &from, bool backEdge = false) {
  for (auto &[key, sets] : from)
    for (auto [point, wraps] : sets) {
      auto [it, added] = into[key].try_emplace(point, wraps || backEdge);
      if (!added)
        it->second = it->second && (wraps || backEdge);
    }
}

class EdgeFinder {
public:
  EdgeFinder(const ProgramPoints &points) : points(points) {}

  void walk(Block &block, Pending &pending);

  /// (set point, wait point) -> edge.
  std::map<std::pair<int, int>, ScheduleEdge> edges;

private:
  void consume(Operation *wait, const FlagKey &key, Pipe dst, Pending &pending);

  const ProgramPoints &points;
};

void EdgeFinder::consume(Operation *wait, const FlagKey &key, Pipe dst,
                         Pending &pending) {
  int waitPoint = points.pointOf(wait);
  for (auto [setPoint, wraps] : pending[key]) {
    Operation *set = points.opAt(setPoint);
    ScheduleEdge edge{setPoint, waitPoint, Pipe::S, dst, std::get<4>(key)};
    edge.bufferId = std::get<0>(key);
    edge.crossCore = std::get<1>(key);
    edge.wraps = wraps;
    if (auto s = dyn_cast<SetFlagOp>(set)) {
      edge.src = s.getSrc();
      edge.reason = s.getReason().value_or("").str();
    } else {
      auto rls = cast<RlsBufOp>(set);
      edge.src = rls.getPipe();
      edge.reason = rls.getReason().value_or("").str();
    }
    // A pipe taking back the id it released waits for nothing.
    if (edge.bufferId && edge.src == edge.dst)
      continue;
    auto [it, added] = edges.try_emplace({setPoint, waitPoint}, edge);
    if (!added)
      it->second.wraps = it->second.wraps && wraps;
  }
  pending.erase(key);
}

void EdgeFinder::walk(Block &block, Pending &pending) {
  for (Operation &op : block) {
    int point = points.pointOf(&op);
    if (auto set = dyn_cast<SetFlagOp>(op)) {
      pending[{false, op.hasAttr("cross_core"), (int)set.getSrc(),
               (int)set.getDst(), (int64_t)set.getEvent()}] = {{point, false}};
    } else if (auto wait = dyn_cast<WaitFlagOp>(op)) {
      consume(&op,
              {false, op.hasAttr("cross_core"), (int)wait.getSrc(),
               (int)wait.getDst(), (int64_t)wait.getEvent()},
              wait.getDst(), pending);
    } else if (auto rls = dyn_cast<RlsBufOp>(op)) {
      pending[{true, false, (int)Pipe::ALL, (int)Pipe::ALL, (int64_t)rls.getId()}] = {{point, false}};
    } else if (auto get = dyn_cast<GetBufOp>(op)) {
      consume(&op, {true, false, (int)Pipe::ALL, (int)Pipe::ALL, (int64_t)get.getId()},
              get.getPipe(), pending);
    } else if (auto loop = dyn_cast<scf::ForOp>(op)) {
      // Iterate the body until the flags pending at its entry (from before
      // the loop or from its own end) stop growing.
      Pending entry = pending, exit;
      while (true) {
        exit = entry;
        walk(*loop.getBody(), exit);
        Pending next = pending;
        merge(next, exit, /*backEdge=*/true);
        if (next == entry)
          break;
        entry = std::move(next);
      }
      pending = std::move(exit);
    } else if (auto guard = dyn_cast<scf::IfOp>(op)) {
      Pending other = pending;
      walk(*guard.thenBlock(), pending);
      if (!guard.getElseRegion().empty())
        walk(guard.getElseRegion().front(), other);
      merge(pending, other);
    } else {
      for (Region &region : op.getRegions())
        for (Block &nested : region)
          walk(nested, pending);
    }
  }
}

} // namespace

StaticSchedule::StaticSchedule(func::FuncOp func)
    : func(func), points(func), mix(detectKernelType(func) == "MIX") {
  for (int p = 0; p < points.size(); ++p) {
    Operation *op = points.opAt(p);
    auto pipeOp = dyn_cast<PipeOpInterface>(op);
    Pipe pipe = pipeOp ? pipeOp.getPipe() : Pipe::S;
    if (auto barrier = dyn_cast<PipeBarrierOp>(op))
      pipe = barrier.getPipe();
    lanes[(int)pipe].push_back({op, p, pipe, coreKindOf(op)});
  }
  EdgeFinder finder(points);
  Pending pending;
  for (Block &block : func.getBody())
    finder.walk(block, pending);
  for (auto &entry : finder.edges)
    edges.push_back(std::move(entry.second));
}

void StaticSchedule::print(llvm::raw_ostream &os) const {
  os << "static-schedule @" << func.getSymName() << ": " << points.size()
     << " ops, " << edges.size() << " edges\n";
  for (int pipe = 0; pipe <= kPipes; ++pipe) {
    if (lanes[pipe].empty())
      continue;
    os << "  lane " << stringifyPipe((Pipe)pipe) << ":";
    llvm::interleave(
        lanes[pipe], os,
        [&](const ScheduledOp &s) {
          os << " " << s.point << " " << s.op->getName();
          if (mix && s.core != CoreKind::Either)
            os << (s.core == CoreKind::Cube ? " (cube)" : " (vector)");
        },
        ",");
    os << "\n";
  }
  for (const ScheduleEdge &e : edges) {
    os << "  " << (e.bufferId ? "buf-id " : "edge ") << stringifyPipe(e.src)
       << " -> " << stringifyPipe(e.dst) << " " << (e.bufferId ? "id " : "event ")
       << e.event << ": " << e.setPoint << " -> " << e.waitPoint;
    if (e.wraps)
      os << " wraps";
    if (e.crossCore)
      os << " cross-core";
    os << "\n";
  }
}

} // namespace asc2
