//===- ControlFlow.cpp - loops, branches and the launch grid ---------------===//
//
// Tiles carried by scf.for live in one buffer for the whole loop and tiles
// leaving an scf.if must already share one (accumulators updated in place):
// both are rebuilt without their tile iter_args/results, which are read
// through `buffers`. Block index and count become the ascendc queries.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

#include "llvm/ADT/TypeSwitch.h"

namespace asc2::asctile_to_ascendc {

FamilyResult Lowering::lowerControlFlowFamily(Operation *op) {
  return llvm::TypeSwitch<Operation *, FamilyResult>(op)
      .Case<at::BlockIdxOp>([&](at::BlockIdxOp b) {
        builder.setInsertionPoint(b);
        auto n = builder.create<ac::GetBlockIdxOp>(b.getLoc(), builder.getIndexType());
        b.getResult().replaceAllUsesWith(n.getResult());
        return success();
      })
      .Case<at::SubBlockIdxOp>([&](at::SubBlockIdxOp b) {
        builder.setInsertionPoint(b);
        auto n = builder.create<ac::GetSubBlockIdxOp>(b.getLoc(), builder.getIndexType());
        b.getResult().replaceAllUsesWith(n.getResult());
        return success();
      })
      .Case<at::BlockNumOp>([&](at::BlockNumOp b) {
        builder.setInsertionPoint(b);
        auto n = builder.create<ac::GetBlockNumOp>(b.getLoc(), builder.getIndexType());
        b.getResult().replaceAllUsesWith(n.getResult());
        return success();
      })
      .Case<scf::ForOp>([&](scf::ForOp f) { return lowerFor(f); })
      .Case<scf::IfOp>([&](scf::IfOp i) { return lowerIf(i); })
      .Case<scf::YieldOp>([&](auto) { return success(); })
      .Default([](Operation *) { return std::nullopt; });
}

/// Whether `loop` is the only user of `value` on any path through it: every
/// other use sits in another branch of an scf.if that holds the loop (the
/// guarded copy of an unrolled K loop: `then` accumulates into the carried
/// accumulator, `else` yields it unchanged), so the loop's in-place update
/// can never be seen by a later read of the old value.
static bool onlyUseOnItsPath(Value value, Operation *loop) {
  for (OpOperand &use : value.getUses()) {
    Operation *user = use.getOwner();
    if (user == loop)
      continue;
    bool exclusive = false;
    for (Operation *p = loop->getParentOp(); p && !exclusive; p = p->getParentOp()) {
      auto branch = dyn_cast<scf::IfOp>(p);
      if (!branch)
        continue;
      Region *loopSide = nullptr, *userSide = nullptr;
      for (Region *r : {&branch.getThenRegion(), &branch.getElseRegion()}) {
        if (r->isAncestor(loop->getParentRegion()))
          loopSide = r;
        if (r->isAncestor(user->getParentRegion()))
          userSide = r;
      }
      exclusive = loopSide && userSide && loopSide != userSide;
    }
    if (!exclusive)
      return false;
  }
  return true;
}

LogicalResult Lowering::lowerFor(scf::ForOp op) {
  // Loop-carried tiles live in one buffer for the whole loop: the init value
  // is copied in before the loop and each yielded value at the end of the
  // body.
  SmallVector<std::pair<unsigned, Value>> carried;
  for (auto [i, init] : llvm::enumerate(op.getInitArgs())) {
    if (!isTile(init.getType()))
      continue;
    auto t = cast<at::TileType>(init.getType());
    builder.setInsertionPoint(op);
    if (t.getLocation() == at::TileLocation::L0C) {
      // Accumulators stay in place in L0C (there is no L0C -> L0C copy): a
      // zero accumulator gets a fresh buffer whose first mmad overwrites it.
      Value buf;
      if (zeroAccumulators.contains(init)) {
        buf = newBuffer(op.getLoc(), t, ac::Position::CO1, "acc");
      } else {
        if (!onlyUseOnItsPath(init, op))
          return op.emitOpError() << "carries an L0C accumulator that is also "
                                     "used elsewhere; L0C tiles are updated in place";
        auto initBuf = bufferOf(op, init);
        if (failed(initBuf))
          return failure();
        buf = *initBuf;
      }
      buffers[op.getRegionIterArgs()[i]] = buf;
      buffers[op.getResult(i)] = buf;
      carried.push_back({(unsigned)i, buf});
      continue;
    }
    auto initBuf = bufferOf(op, init);
    if (failed(initBuf))
      return failure();
    Value buf = newBuffer(op.getLoc(), t, positionFor(t.getLocation()), "carried");
    copyBuffer(op.getLoc(), buf, *initBuf, t);
    buffers[op.getRegionIterArgs()[i]] = buf;
    buffers[op.getResult(i)] = buf;
    carried.push_back({(unsigned)i, buf});
  }
  if (failed(lowerBlockOps(*op.getBody())))
    return failure();
  if (carried.empty())
    return success();
  auto yield = cast<scf::YieldOp>(op.getBody()->getTerminator());
  builder.setInsertionPoint(yield);
  for (auto [i, buf] : carried) {
    Value yielded = yield.getOperand(i);
    auto ybuf = bufferOf(yield, yielded);
    if (failed(ybuf))
      return failure();
    if (*ybuf != buf &&
        cast<at::TileType>(yielded.getType()).getLocation() == at::TileLocation::L0C)
      return yield.emitOpError()
             << "yields an L0C tile that is not the loop's accumulator updated "
                "in place (accumulate with acc = asc2.matmul_acc(acc, a, b))";
    if (*ybuf != buf)
      copyBuffer(yield.getLoc(), buf, *ybuf, cast<at::TileType>(yielded.getType()));
  }
  // Drop the tile iter_args: rebuild the loop without them.
  SmallVector<Value> keptInits;
  SmallVector<unsigned> keptIdx;
  for (auto [i, init] : llvm::enumerate(op.getInitArgs()))
    if (!isTile(init.getType())) {
      keptInits.push_back(init);
      keptIdx.push_back(i);
    }
  builder.setInsertionPoint(op);
  auto newFor = builder.create<scf::ForOp>(op.getLoc(), op.getLowerBound(),
                                           op.getUpperBound(), op.getStep(),
                                           keptInits);
  newFor->setAttrs(op->getAttrs());
  Block *newBody = newFor.getBody();
  // Move the body over.
  newBody->getOperations().splice(newBody->begin(), op.getBody()->getOperations());
  // The new body had an implicit terminator when it had no iter_args; remove
  // duplicates: keep the moved yield and erase any other.
  for (Operation &o : llvm::make_early_inc_range(*newBody))
    if (isa<scf::YieldOp>(o) && &o != yield.getOperation())
      o.erase();
  op.getInductionVar().replaceAllUsesWith(newFor.getInductionVar());
  for (auto [n, i] : llvm::enumerate(keptIdx)) {
    op.getRegionIterArgs()[i].replaceAllUsesWith(newFor.getRegionIterArgs()[n]);
    op.getResult(i).replaceAllUsesWith(newFor.getResult(n));
  }
  SmallVector<Value> yielded;
  for (unsigned i : keptIdx)
    yielded.push_back(yield.getOperand(i));
  builder.setInsertionPoint(yield);
  builder.create<scf::YieldOp>(yield.getLoc(), yielded);
  yield.erase();
  // Tile results of the old loop are read through `buffers`. Dead ops of the
  // moved body still use its block arguments: erase the old loop last.
  dead.insert(dead.begin(), op);
  return success();
}

/// An scf.if whose tile results both branches yield in the same buffer (the
/// guarded copies of an unrolled loop carrying an L0C accumulator, updated in
/// place): the result is that buffer and the if keeps its scalar results. A
/// UB tile yielded in two buffers is copied into one by each branch.
LogicalResult Lowering::lowerIf(scf::IfOp op) {
  for (Region *r : {&op.getThenRegion(), &op.getElseRegion()})
    for (Block &b : *r)
      if (failed(lowerBlockOps(b)))
        return failure();
  if (!llvm::any_of(op.getResultTypes(), isTile))
    return success();
  if (op.getElseRegion().empty())
    return op.emitOpError() << "yields tiles without an else branch";
  auto thenYield = cast<scf::YieldOp>(op.thenBlock()->getTerminator());
  auto elseYield = cast<scf::YieldOp>(op.elseBlock()->getTerminator());
  SmallVector<Type> keptTypes;
  SmallVector<unsigned> keptIdx;
  for (auto [idx, type] : llvm::enumerate(op.getResultTypes())) {
    if (!isTile(type)) {
      keptTypes.push_back(type);
      keptIdx.push_back(idx);
      continue;
    }
    auto tb = bufferOf(thenYield, thenYield.getOperand(idx));
    auto eb = bufferOf(elseYield, elseYield.getOperand(idx));
    if (failed(tb) || failed(eb))
      return failure();
    if (*tb == *eb) {
      buffers[op.getResult(idx)] = *tb;
      continue;
    }
    // A UB tile each branch computes in a buffer of its own (a row loaded
    // from one tensor or the other): one result buffer, each branch copies
    // its tile in before it leaves (as a loop-carried tile's yield does).
    auto tile = cast<at::TileType>(type);
    if (tile.getLocation() != at::TileLocation::UB)
      return op.emitOpError() << "branches yield tile #" << idx
                              << " in different buffers; only UB tiles are copied into "
                                 "one, and accumulators updated in place";
    builder.setInsertionPoint(op);
    Value result = newBuffer(op.getLoc(), tile, ac::Position::VECCALC, "if_result");
    for (auto [yield, buf] : {std::pair{thenYield, *tb}, std::pair{elseYield, *eb}}) {
      builder.setInsertionPoint(yield);
      copyBuffer(yield.getLoc(), result, buf, tile);
    }
    buffers[op.getResult(idx)] = result;
  }
  builder.setInsertionPoint(op);
  auto newIf = builder.create<scf::IfOp>(op.getLoc(), keptTypes, op.getCondition(),
                                         /*withElseRegion=*/true);
  newIf->setAttrs(op->getAttrs());
  newIf.getThenRegion().takeBody(op.getThenRegion());
  newIf.getElseRegion().takeBody(op.getElseRegion());
  for (Region *r : {&newIf.getThenRegion(), &newIf.getElseRegion()}) {
    auto y = cast<scf::YieldOp>(r->front().getTerminator());
    SmallVector<Value> kept;
    for (unsigned i : keptIdx)
      kept.push_back(y.getOperand(i));
    builder.setInsertionPoint(y);
    builder.create<scf::YieldOp>(y.getLoc(), kept);
    y.erase();
  }
  for (auto [n, i] : llvm::enumerate(keptIdx))
    op.getResult(i).replaceAllUsesWith(newIf.getResult(n));
  dead.insert(dead.begin(), op);
  return success();
}

} // namespace asc2::asctile_to_ascendc
