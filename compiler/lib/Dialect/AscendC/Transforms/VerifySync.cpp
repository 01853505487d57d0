//===- VerifySync.cpp - static check of the sync protocol ------------------===//
//
// Abstract interpretation of the binary flags and the buffer ids: the state
// is the set of (src, dst, event) flags that are set and the pipe holding
// each buffer id. Straight-line code updates it; a loop body must map its
// entry state to itself (every iteration balanced); the arms of an scf.if
// must end in the same state.
//
// Buffer ids also order hazards: two ops of different pipes (the scalar unit
// aside) that conflict on local bytes some id guards must both hold a common
// id, or the lock does not order them. Bytes no id guards are left to the
// flags, whose hazard coverage this pass does not check.
//
//===----------------------------------------------------------------------===//
#include "asc2/Analysis/Accesses.h"
#include "asc2/Dialect/AscendC/Transforms/Passes.h"

#include <map>
#include <set>
#include <tuple>

#define DEBUG_TYPE "ascendc-verify-sync"

namespace asc2::ascendc {
#define GEN_PASS_DEF_ASCENDCVERIFYSYNC
#include "asc2/Dialect/AscendC/Transforms/Passes.h.inc"
} // namespace asc2::ascendc

using namespace mlir;
using namespace asc2::ascendc;

namespace {

using Flag = std::tuple<int, int, int64_t>;

/// The flags that are set and the pipe holding each taken buffer id.
struct FlagState {
  std::set<Flag> flags;
  std::map<int64_t, int> held; // buffer id -> pipe

  bool operator==(const FlagState &o) const {
    return flags == o.flags && held == o.held;
  }
  bool operator!=(const FlagState &o) const { return !(*this == o); }
};

/// An op's accesses and the buffer ids its pipe holds at the op.
struct HeldAccess {
  Access access;
  std::set<int64_t> ids;
};

std::string describe(const Flag &f) {
  return (stringifyPipe((Pipe)std::get<0>(f)) + " -> " +
          stringifyPipe((Pipe)std::get<1>(f)) + ", event " +
          Twine(std::get<2>(f)))
      .str();
}

class Verifier {
public:
  LogicalResult block(Block &b, FlagState &state, bool inLoop);
  /// Conflicting accesses on id-guarded bytes that hold no common id.
  LogicalResult checkBufIdHazards();

private:
  LogicalResult op(Operation *o, FlagState &state, bool inLoop);

  std::vector<HeldAccess> accesses;
};

std::string opText(Operation *op, Pipe pipe) {
  return (op->getName().getStringRef() + " (" + stringifyPipe(pipe) + ", " +
          lineOf(op) + ")")
      .str();
}

LogicalResult Verifier::checkBufIdHazards() {
  // What each id guards: the bytes accessed while holding it.
  std::map<int64_t, std::vector<Resource>> guarded;
  for (const HeldAccess &h : accesses)
    for (int64_t id : h.ids)
      guarded[id].push_back(h.access.res);
  auto isGuarded = [&](const Resource &r) {
    for (auto &[id, resources] : guarded)
      for (const Resource &g : resources)
        if (g.overlaps(r))
          return true;
    return false;
  };
  for (size_t i = 0; i < accesses.size(); ++i) {
    const HeldAccess &a = accesses[i];
    // A write into the other core's memory is ordered by cross-core flags,
    // not ids (a core's ids are its own).
    if (!a.access.res.isLocal() || a.access.pipe == Pipe::S || crossesCores(a.access))
      continue;
    for (size_t j = 0; j < i; ++j) {
      const HeldAccess &b = accesses[j];
      if (b.access.pipe == a.access.pipe || b.access.pipe == Pipe::S || crossesCores(b.access) ||
          !(a.access.write || b.access.write) ||
          !a.access.res.overlaps(b.access.res))
        continue;
      if (llvm::any_of(a.ids, [&](int64_t id) { return b.ids.count(id); }))
        continue;
      if (!isGuarded(a.access.res))
        continue;
      Operation *later = a.access.leaf;
      auto d = later->emitOpError()
               << "and " << opText(b.access.leaf, b.access.pipe) << " conflict on "
               << describe(a.access.res) << " (" << (b.access.write ? "write" : "read")
               << " / " << (a.access.write ? "write" : "read")
               << "), bytes guarded by buffer ids, but hold no common id: "
                  "nothing orders them";
      d.attachNote(b.access.leaf->getLoc()) << "the other access";
      return failure();
    }
  }
  return success();
}

LogicalResult Verifier::block(Block &b, FlagState &state, bool inLoop) {
  for (Operation &o : b)
    if (failed(op(&o, state, inLoop)))
      return failure();
  return success();
}

LogicalResult Verifier::op(Operation *o, FlagState &state, bool inLoop) {
  if (auto get = dyn_cast<GetBufOp>(o)) {
    auto [it, added] = state.held.try_emplace(get.getId(), (int)get.getPipe());
    if (!added)
      return get.emitOpError()
             << "takes buffer id " << get.getId() << ", which "
             << stringifyPipe((Pipe)it->second)
             << " still holds: get/rls pairs of one id may not interleave "
                "(the get would never be granted)";
    return success();
  }
  if (auto rls = dyn_cast<RlsBufOp>(o)) {
    auto it = state.held.find(rls.getId());
    if (it == state.held.end() || it->second != (int)rls.getPipe())
      return rls.emitOpError() << "releases buffer id " << rls.getId()
                               << ", which " << stringifyPipe(rls.getPipe())
                               << " does not hold";
    state.held.erase(it);
    return success();
  }
  if (auto set = dyn_cast<SetFlagOp>(o)) {
    Flag f{(int)set.getSrc(), (int)set.getDst(), set.getEvent()};
    if (!state.flags.insert(f).second)
      return set.emitOpError() << "sets flag (" << describe(f)
                               << ") that is already set: the second set is "
                                  "lost on hardware";
    return success();
  }
  if (auto wait = dyn_cast<WaitFlagOp>(o)) {
    Flag f{(int)wait.getSrc(), (int)wait.getDst(), wait.getEvent()};
    if (!state.flags.erase(f))
      return wait.emitOpError() << "waits for flag (" << describe(f)
                                << ") that no set_flag before it sets: the "
                                   "pipe would hang";
    return success();
  }
  if (auto barrier = dyn_cast<PipeBarrierOp>(o)) {
    bool inGuardElse = false;
    if (auto guard = dyn_cast<scf::IfOp>(barrier->getParentOp()))
      inGuardElse = barrier->getParentRegion() == &guard.getElseRegion();
    if (inLoop && !inGuardElse && barrier.getPipe() == Pipe::ALL)
      barrier.emitWarning() << "PIPE_ALL inside a loop serialises every "
                               "iteration";
    return success();
  }
  if (auto loop = dyn_cast<scf::ForOp>(o)) {
    FlagState entry = state;
    if (failed(block(*loop.getBody(), state, /*inLoop=*/true)))
      return failure();
    if (state != entry) {
      auto d = loop.emitOpError() << "body does not leave the flags as it found "
                                     "them; unbalanced:";
      for (const Flag &f : entry.flags)
        if (!state.flags.count(f))
          d << " (" << describe(f) << ") consumed";
      for (const Flag &f : state.flags)
        if (!entry.flags.count(f))
          d << " (" << describe(f) << ") left set";
      for (auto [id, pipe] : entry.held)
        if (!state.held.count(id))
          d << " (buffer id " << id << ") released";
      for (auto [id, pipe] : state.held)
        if (!entry.held.count(id))
          d << " (buffer id " << id << ") left held";
      return failure();
    }
    return success();
  }
  if (auto guard = dyn_cast<scf::IfOp>(o)) {
    FlagState thenState = state, elseState = state;
    if (failed(block(*guard.thenBlock(), thenState, inLoop)))
      return failure();
    if (guard.elseBlock() && failed(block(*guard.elseBlock(), elseState, inLoop)))
      return failure();
    if (thenState != elseState)
      return guard.emitOpError() << "arms leave the flags in different states";
    state = thenState;
    return success();
  }
  for (Region &r : o->getRegions())
    for (Block &b : r)
      if (failed(block(b, state, inLoop)))
        return failure();
  if (o->getNumRegions() == 0) {
    SmallVector<Access> leafAccesses;
    collectAccesses(o, o, leafAccesses);
    for (const Access &a : leafAccesses) {
      HeldAccess h{a, {}};
      for (auto [id, pipe] : state.held)
        if (pipe == (int)a.pipe)
          h.ids.insert(id);
      accesses.push_back(std::move(h));
    }
  }
  return success();
}

struct VerifySyncPass
    : public asc2::ascendc::impl::AscendCVerifySyncBase<VerifySyncPass> {
  void runOnOperation() override {
    Verifier verifier;
    FlagState state;
    func::FuncOp func = getOperation();
    if (failed(verifier.block(func.getBody().front(), state, false)))
      return signalPassFailure();
    if (!state.flags.empty()) {
      auto d = func.emitOpError() << "ends with flags still set:";
      for (const Flag &f : state.flags)
        d << " (" << describe(f) << ")";
      return signalPassFailure();
    }
    if (!state.held.empty()) {
      auto d = func.emitOpError() << "ends with buffer ids still held:";
      for (auto [id, pipe] : state.held)
        d << " (id " << id << " by " << stringifyPipe((Pipe)pipe) << ")";
      return signalPassFailure();
    }
    if (failed(verifier.checkBufIdHazards()))
      signalPassFailure();
  }
};

} // namespace
