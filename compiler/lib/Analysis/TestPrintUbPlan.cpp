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
    asc2::UbPlanOptions options;
    options.alignment = alignment;
    options.ubCapacity = ubCapacity;
    options.l1Capacity = l1Capacity;
    options.reuse = reuse;
    options.shareCopies = shareCopies;
    asc2::UbPlan(getOperation(), options).print(llvm::errs());
    markAllAnalysesPreserved();
  }
};
} // namespace
