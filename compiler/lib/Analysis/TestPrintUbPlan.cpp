//===- TestPrintUbPlan.cpp - print UbPlan -----------------------------------===//
#include "asc2/Analysis/Passes.h"
#include "asc2/Analysis/UbPlan.h"

#define DEBUG_TYPE "test-print-ub-plan"

namespace asc2 {
#define GEN_PASS_DEF_TESTPRINTUBPLAN
#include "asc2/Analysis/Passes.h.inc"
} // namespace asc2

namespace {
struct TestPrintUbPlanPass : public asc2::impl::TestPrintUbPlanBase<TestPrintUbPlanPass> {
  using TestPrintUbPlanBase::TestPrintUbPlanBase;

  void runOnOperation() override {
    asc2::UbPlanOptions options{alignment, ubCapacity, l1Capacity, reuse, shareCopies};
    if (failed(options.check(getOperation(), "test-print-ub-plan")))
      return signalPassFailure();
    asc2::UbPlan(getOperation(), options).print(llvm::errs());
    markAllAnalysesPreserved();
  }
};
} // namespace
