//===- TestPrintSyncPlan.cpp - print SyncPlan -------------------------------===//
#include "asc2/Analysis/Passes.h"
#include "asc2/Support/PassOptions.h"
#include "asc2/Analysis/SyncPlan.h"

#define DEBUG_TYPE "test-print-sync-plan"

namespace asc2 {
#define GEN_PASS_DEF_TESTPRINTSYNCPLAN
#include "asc2/Analysis/Passes.h.inc"
} // namespace asc2

namespace {
struct TestPrintSyncPlanPass : public asc2::impl::TestPrintSyncPlanBase<TestPrintSyncPlanPass> {
  using TestPrintSyncPlanBase::TestPrintSyncPlanBase;

  void runOnOperation() override {
    if (failed(asc2::checkOption(getOperation(), "test-print-sync-plan", "event-ids", eventIds, 1)))
      return signalPassFailure();
    asc2::SyncPlan(getOperation(), eventIds).print(llvm::errs());
    markAllAnalysesPreserved();
  }
};
} // namespace
