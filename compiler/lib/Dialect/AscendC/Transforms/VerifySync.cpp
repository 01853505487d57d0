//===- VerifySync.cpp - static check of the flag protocol ------------------===//
//
// Abstract interpretation of the binary flags: the state is the set of
// (src, dst, event) flags that are set. Straight-line code updates it;
// a loop body must map its entry state to itself (every iteration balanced);
// the arms of an scf.if must end in the same state.
//
//===----------------------------------------------------------------------===//
#include "asc2/Dialect/AscendC/Transforms/Passes.h"

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
using FlagState = std::set<Flag>;

std::string describe(const Flag &f) {
  return (stringifyPipe((Pipe)std::get<0>(f)) + " -> " +
          stringifyPipe((Pipe)std::get<1>(f)) + ", event " +
          Twine(std::get<2>(f)))
      .str();
}

class Verifier {
public:
  LogicalResult block(Block &b, FlagState &state, bool inLoop);

private:
  LogicalResult op(Operation *o, FlagState &state, bool inLoop);
};

LogicalResult Verifier::block(Block &b, FlagState &state, bool inLoop) {
  for (Operation &o : b)
    if (failed(op(&o, state, inLoop)))
      return failure();
  return success();
}

LogicalResult Verifier::op(Operation *o, FlagState &state, bool inLoop) {
  if (auto set = dyn_cast<SetFlagOp>(o)) {
    Flag f{(int)set.getSrc(), (int)set.getDst(), set.getEvent()};
    if (!state.insert(f).second)
      return set.emitOpError() << "sets flag (" << describe(f)
                               << ") that is already set: the second set is "
                                  "lost on hardware";
    return success();
  }
  if (auto wait = dyn_cast<WaitFlagOp>(o)) {
    Flag f{(int)wait.getSrc(), (int)wait.getDst(), wait.getEvent()};
    if (!state.erase(f))
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
      for (const Flag &f : entry)
        if (!state.count(f))
          d << " (" << describe(f) << ") consumed";
      for (const Flag &f : state)
        if (!entry.count(f))
          d << " (" << describe(f) << ") left set";
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
    if (!state.empty()) {
      auto d = func.emitOpError() << "ends with flags still set:";
      for (const Flag &f : state)
        d << " (" << describe(f) << ")";
      signalPassFailure();
    }
  }
};

} // namespace
