//===- TestPrintSyncPlan.cpp - print SyncPlan -------------------------------===//
#include "asc2/Analysis/Passes.h"
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
    asc2::SyncPlan(getOperation(), eventIds).print(llvm::errs());
    markAllAnalysesPreserved();
  }
};
} // namespace
