//===- DescribeIR.cpp - what the report says about the final IR -----------===//
#include "DescribeIR.h"

#include "asc2/Analysis/BufferLiveness.h"
#include "mlir/IR/AsmState.h"
#include "asc2/Analysis/StaticSchedule.h"
#include "asc2/Dialect/AscendC/IR/AscendC.h"
#include "asc2/Dialect/AscendC/Transforms/Passes.h"
#include "asc2/Report/StaticStalls.h"
#include "asc2/Target/Sim/ProgramBuilder.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include <map>
#include <tuple>

using namespace mlir;

namespace asc2 {

ReportLoc reportLoc(Location loc) {
  ReportLoc r;
  if (auto s = sourceLocOf(loc)) {
    r.file = s->file;
    r.line = s->line;
    r.col = s->col;
  }
  return r;
}

namespace {

/// Whether an scf.for follows `op` (forward) or precedes it (backward) with
/// only flag ops in between: primes sit right before their loop, drains
/// right after it.
bool nextLoopOverFlags(Operation *op, bool forward) {
  for (Operation *o = forward ? op->getNextNode() : op->getPrevNode(); o;
       o = forward ? o->getNextNode() : o->getPrevNode()) {
    if (isa<scf::ForOp>(o))
      return true;
    if (!isa<ascendc::SetFlagOp, ascendc::WaitFlagOp>(o))
      return false;
  }
  return false;
}

/// Whether `a` and `b` sit on the two branches of one scf.if (the flag op
/// of a guarded copy and its twin on the skipped path).
bool onOtherBranches(Operation *a, Operation *b) {
  for (Operation *p = a->getParentOp(); p; p = p->getParentOp())
    if (auto guard = dyn_cast<scf::IfOp>(p);
        guard && guard->isProperAncestor(b)) {
      Region &then = guard.getThenRegion();
      return then.isAncestor(a->getParentRegion()) !=
             then.isAncestor(b->getParentRegion());
    }
  return false;
}

/// The roles of the set_flag and wait_flag ops at `points`, from the flags'
/// structure in program order: a set lets the next wait of its flag (src,
/// dst, event) go. InsertSync sets a loop-carried flag right before the
/// (outermost) loop (the prime), waits for and sets it in the body, and waits
/// once more after the loop (the drain): its pairs cross the loop's
/// boundary; those of every other flag stay in one iteration.
std::map<Operation *, SyncRole> flagRoles(const ProgramPoints &points) {
  // (src, dst, event, scope): a cross-core flag is one counter between the
  // cores, a local flag one per core; in a MIX kernel the vector core's
  // MTE3 -> MTE2 event 0 and the cross-core MTE3 -> MTE2 id 0 are different
  // flags, and pairing one's set with the other's wait misnamed the roles.
  using Flag = std::tuple<Pipe, Pipe, int64_t, StringRef>;
  // The scope: "cross" or the core InsertSync tagged the flag with ("" in a
  // kernel of one core kind).
  auto scopeOf = [](Operation *op) -> StringRef {
    if (op->hasAttr("cross_core"))
      return "cross";
    auto core = op->getAttrOfType<StringAttr>("core");
    return core ? core.getValue() : StringRef();
  };
  std::map<Operation *, SyncRole> roles;
  // The set each flag waits for: the latest one, or the alternatives of a
  // guarded copy (its set and the twin on the skipped path).
  std::map<Flag, SmallVector<Operation *, 2>> pending;
  // The last wait of each flag and the sets it took, for its twin.
  std::map<Flag, std::pair<Operation *, SmallVector<Operation *, 2>>> lastWait;
  auto pairUp = [&](ArrayRef<Operation *> sets, Operation *wait) {
    Operation *waitLoop = wait->getParentOfType<scf::ForOp>();
    for (Operation *set : sets) {
      Operation *setLoop = set->getParentOfType<scf::ForOp>();
      if (setLoop == waitLoop)
        continue; // one iteration (or no loop at all)
      if (waitLoop && !waitLoop->isProperAncestor(set)) {
        // Set before the wait's loop: the prime, and the carried wait.
        roles[set] =
            nextLoopOverFlags(set, true) ? SyncRole::Prime : SyncRole::Carried;
        roles[wait] = SyncRole::Carried;
      } else if (setLoop && !setLoop->isProperAncestor(wait)) {
        // Waited for after the set's loop: the carried set, and the drain.
        roles[set] = SyncRole::Carried;
        roles[wait] = nextLoopOverFlags(wait, false) ? SyncRole::Drain
                                                     : SyncRole::Carried;
      }
    }
  };
  for (int p = 0; p < points.size(); ++p) {
    Operation *op = points.opAt(p);
    if (auto set = dyn_cast<ascendc::SetFlagOp>(op)) {
      roles[op] = SyncRole::Pair;
      auto &sets = pending[{set.getSrc(), set.getDst(), set.getEvent(), scopeOf(op)}];
      if (sets.empty() || !onOtherBranches(sets.back(), op))
        sets.clear();
      sets.push_back(op);
      continue;
    }
    auto wait = dyn_cast<ascendc::WaitFlagOp>(op);
    if (!wait)
      continue;
    roles[op] = SyncRole::Pair;
    Flag flag{wait.getSrc(), wait.getDst(), wait.getEvent(), scopeOf(op)};
    // A wait takes the sets it can follow: not those on the other branch.
    SmallVector<Operation *, 2> taken, &sets = pending[flag];
    for (Operation *set : sets)
      if (!onOtherBranches(set, op))
        taken.push_back(set);
    if (taken.empty()) {
      // The twin of a wait on the other branch takes what that one took.
      auto last = lastWait.find(flag);
      if (last != lastWait.end() && onOtherBranches(last->second.first, op))
        pairUp(last->second.second, op);
      continue;
    }
    llvm::erase_if(
        sets, [&](Operation *set) { return llvm::is_contained(taken, set); });
    pairUp(taken, op);
    lastWait[flag] = {op, taken};
  }
  return roles;
}

} // namespace

/// Memory, sync and program points of the final IR.
void describeFinalIR(func::FuncOp func, const ArchModel &arch,
                     CompileReport &report) {
  BufferLiveness liveness(func, /*keepCopiesApart=*/!func->hasAttr("ascendc.copies_shared"));
  const ProgramPoints &points = liveness.getPoints();
  auto kernelType = func->getAttrOfType<StringAttr>("ascendc.kernel_type");
  const Core kernelCore =
      kernelType && kernelType.getValue() == "AIC_ONLY" ? Core::AIC
      : kernelType && kernelType.getValue() == "MIX"    ? Core::Both
                                                        : Core::AIV;
  // One printer state for the function: printing a nested op on its own
  // verifies and numbers its whole enclosing function again, which made this
  // loop quadratic in the kernel's size (4,000 ops: minutes).
  OpPrintingFlags flags;
  flags.skipRegions().assumeVerified();
  AsmState state(func, flags);
  for (int p = 0; p < points.size(); ++p) {
    Operation *op = points.opAt(p);
    ProgramPointRecord point;
    llvm::raw_string_ostream os(point.text);
    op->print(os, state);
    point.name = op->getName().getStringRef().str();
    if (auto pipeOp = dyn_cast<ascendc::PipeOpInterface>(op))
      point.pipe = pipeOp.getPipe();
    point.core = kernelCore;
    if (kernelCore == Core::Both) {
      ascendc::CoreKind kind = ascendc::coreKindOf(op);
      point.core = kind == ascendc::CoreKind::Cube     ? Core::AIC
                   : kind == ascendc::CoreKind::Vector ? Core::AIV
                                                       : Core::Both;
    }
    point.loc = reportLoc(op->getLoc());
    report.points.push_back(std::move(point));
  }

  std::map<std::string, int64_t> peak;
  for (const BufferInterval &iv : liveness.getIntervals()) {
    auto type = iv.alloc.getBuffer().getType();
    BufferRecord b;
    b.name = iv.alloc.getNameAttr() ? iv.alloc.getNameAttr().str() : "buffer";
    b.space = type.getSpaceName().str();
    b.offset = iv.alloc.getOffsetAttr() ? iv.alloc.getOffsetAttr().getInt() : 0;
    b.size = type.getSizeInBytes();
    b.liveStart = iv.start;
    b.liveEnd = iv.end;
    b.slot = iv.alloc.getSlotAttr() ? iv.alloc.getSlotAttr().getInt() : 0;
    b.loc = reportLoc(iv.alloc.getLoc());
    peak[b.space] = std::max(peak[b.space], b.offset + (b.size + 31) / 32 * 32);
    report.buffers.push_back(std::move(b));
  }
  for (auto &[space, bytes] : peak) {
    SpaceUsage u;
    u.space = space;
    u.peak = bytes;
    u.lowerBound =
        liveness.maxLiveBytes(space, func->hasAttr("ascendc.dma_apart"));
    static const std::map<std::string, sim::Space> spaces{
        {"UB", sim::Space::UB},   {"L1", sim::Space::L1},
        {"L0A", sim::Space::L0A}, {"L0B", sim::Space::L0B},
        {"L0C", sim::Space::L0C}, {"BT", sim::Space::BT}};
    auto it = spaces.find(space);
    u.capacity = it == spaces.end() ? 0 : arch.capacity[(int)it->second];
    report.spaces.push_back(u);
  }

  std::map<Operation *, SyncRole> roles = flagRoles(points);
  for (int p = 0; p < points.size(); ++p) {
    Operation *op = points.opAt(p);
    SyncRecord s;
    s.point = p;
    s.loc = reportLoc(op->getLoc());
    std::optional<StringRef> reason;
    if (auto set = dyn_cast<ascendc::SetFlagOp>(op)) {
      s.kind = SyncKind::SetFlag;
      s.srcPipe = set.getSrc();
      s.dstPipe = set.getDst();
      s.eventId = set.getEvent();
      reason = set.getReason();
    } else if (auto wait = dyn_cast<ascendc::WaitFlagOp>(op)) {
      s.kind = SyncKind::WaitFlag;
      s.srcPipe = wait.getSrc();
      s.dstPipe = wait.getDst();
      s.eventId = wait.getEvent();
      reason = wait.getReason();
    } else if (auto barrier = dyn_cast<ascendc::PipeBarrierOp>(op)) {
      s.kind = SyncKind::PipeBarrier;
      s.srcPipe = s.dstPipe = barrier.getPipe();
      reason = barrier.getReason();
    } else if (auto get = dyn_cast<ascendc::GetBufOp>(op)) {
      s.kind = SyncKind::GetBuf;
      s.srcPipe = s.dstPipe = get.getPipe();
      s.eventId = get.getId();
      reason = get.getReason();
    } else if (auto rls = dyn_cast<ascendc::RlsBufOp>(op)) {
      s.kind = SyncKind::RlsBuf;
      s.srcPipe = s.dstPipe = rls.getPipe();
      s.eventId = rls.getId();
      reason = rls.getReason();
    } else {
      continue;
    }
    s.reason = reason.value_or("").str();
    ++report.syncCounts[syncKindName(s.kind)];
    if (s.kind == SyncKind::GetBuf || s.kind == SyncKind::RlsBuf)
      s.role = SyncRole::BufId;
    else if (s.kind == SyncKind::PipeBarrier)
      s.role = SyncRole::Barrier;
    else if (SyncRole role = roles[op];
             role == SyncRole::Prime || role == SyncRole::Drain)
      s.role = role;
    else if (auto guard = dyn_cast<scf::IfOp>(op->getParentOp());
             guard && op->getParentRegion() == &guard.getElseRegion())
      s.role = SyncRole::Skip;
    else
      s.role = role;
    report.sync.push_back(std::move(s));
  }
  if (auto before =
          func->getAttrOfType<IntegerAttr>("ascendc.buf_id_syncs_before_fuse"))
    report.syncCounts["get_buf_before_fuse"] = before.getInt();

  // Which wait consumes which set is decided here, on the IR's structure
  // (both arms of an scf.if, loop back-edges), not guessed by the views.
  StaticSchedule schedule(func);
  assert(schedule.getPoints().size() == points.size() &&
         "the schedule numbers ops like the liveness");
  for (const ScheduleEdge &e : schedule.getEdges()) {
    ScheduleEdgeRecord r;
    r.setPoint = e.setPoint;
    r.waitPoint = e.waitPoint;
    r.src = e.src;
    r.dst = e.dst;
    r.eventId = (int)e.event;
    r.bufferId = e.bufferId;
    r.crossCore = e.crossCore;
    r.wraps = e.wraps;
    r.reason = e.reason;
    report.scheduleEdges.push_back(std::move(r));
  }
  report.scheduleStalls = staticStalls(report);
}

} // namespace asc2
