//===- InsertSync.cpp - set_flag/wait_flag from buffer hazards -------------===//
//
// The hazards, the pairs that order them, their event ids and places are the
// SyncPlan (asc2/Analysis/SyncPlan.h); this pass creates the planned ops in
// the order the plan lists them, each at the place it records.
//
// The rewrite is also insertFlagSync() (FlagSync.h): on buffer-id targets,
// ascendc-insert-buf-id-sync runs it with the id-ordered hazards skipped.
//
//===----------------------------------------------------------------------===//
#include "asc2/Support/PassOptions.h"
#include "FlagSync.h"
#include "asc2/Dialect/AscendC/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

#define DEBUG_TYPE "ascendc-insert-sync"

namespace asc2::ascendc {
#define GEN_PASS_DEF_ASCENDCINSERTSYNC
#include "asc2/Dialect/AscendC/Transforms/Passes.h.inc"
} // namespace asc2::ascendc

using namespace mlir;
using namespace asc2;
using namespace asc2::ascendc;

namespace {

/// The else branch of `guard`, created (empty but for its yield) if missing.
Block &elseBlockOf(OpBuilder &builder, scf::IfOp guard) {
  if (guard.getElseRegion().empty()) {
    OpBuilder::InsertionGuard g(builder);
    Block *elseBlock = builder.createBlock(&guard.getElseRegion());
    builder.setInsertionPointToEnd(elseBlock);
    builder.create<scf::YieldOp>(guard.getLoc());
  }
  return guard.getElseRegion().front();
}

void materialise(const SyncPlan &plan, MLIRContext *ctx) {
  using Kind = PlannedSyncOp::Kind;
  using Where = PlannedSyncOp::Where;
  OpBuilder builder(ctx);
  for (const PlannedSyncOp &p : plan.getOps()) {
    switch (p.where) {
    case Where::Before:
      builder.setInsertionPoint(p.anchor);
      break;
    case Where::After:
      builder.setInsertionPointAfter(p.anchor);
      break;
    case Where::ElseStart:
      builder.setInsertionPointToStart(&elseBlockOf(builder, cast<scf::IfOp>(p.anchor)));
      break;
    case Where::ElseEnd:
      builder.setInsertionPoint(
          elseBlockOf(builder, cast<scf::IfOp>(p.anchor)).getTerminator());
      break;
    }
    StringAttr reason = builder.getStringAttr(p.reason);
    Operation *op;
    if (p.kind == Kind::SetFlag)
      op = builder.create<SetFlagOp>(p.loc, p.src, p.dst, p.event, reason);
    else if (p.kind == Kind::WaitFlag)
      op = builder.create<WaitFlagOp>(p.loc, p.src, p.dst, p.event, reason);
    else
      op = builder.create<PipeBarrierOp>(p.loc, p.src, reason);
    if (p.core != CoreKind::Either)
      op->setAttr("core", builder.getStringAttr(p.core == CoreKind::Cube ? "cube" : "vector"));
    if (p.crossCore)
      op->setAttr("cross_core", builder.getUnitAttr());
  }
}

struct InsertSyncPass
    : public asc2::ascendc::impl::AscendCInsertSyncBase<InsertSyncPass> {
  using AscendCInsertSyncBase::AscendCInsertSyncBase;

  void runOnOperation() override {
    if (failed(asc2::checkOption(getOperation(), "ascendc-insert-sync", "event-ids", eventIds, 1)))
      return signalPassFailure();
    FlagSyncStats stats = insertFlagSync(getOperation(), eventIds, nullptr);
    if (failed(checkCrossCoreIds(getOperation(), stats)))
      return signalPassFailure();
    numPairs += stats.pairs;
    numBarriers += stats.barriers;
  }
};

} // namespace

LogicalResult asc2::ascendc::checkCrossCoreIds(func::FuncOp func,
                                               const FlagSyncStats &stats) {
  if (stats.crossCoreIds <= SyncPlan::kCrossCoreFlagIds)
    return success();
  return func.emitError() << "the kernel hands data between the cube and the vector core in "
                          << stats.crossCoreIds << " different ways; a MIX group has "
                          << SyncPlan::kCrossCoreFlagIds
                          << " cross-core flags per direction (hint: fewer workspace "
                             "tensors, or split the kernel)";
}

FlagSyncStats asc2::ascendc::insertFlagSync(func::FuncOp func, int64_t eventIds,
                                            OrderedElsewhere orderedElsewhere) {
  SyncPlan plan(func, eventIds, orderedElsewhere);
  materialise(plan, func.getContext());
  return {plan.getNumPairs(), plan.getNumBarriers(), plan.getCrossCoreIds()};
}
