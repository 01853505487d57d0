//===- TestPrintStaticSchedule.cpp - print StaticSchedule -------------------===//
#include "asc2/Analysis/Passes.h"
#include "asc2/Analysis/StaticSchedule.h"

#define DEBUG_TYPE "test-print-static-schedule"

namespace asc2 {
#define GEN_PASS_DEF_TESTPRINTSTATICSCHEDULE
#include "asc2/Analysis/Passes.h.inc"
} // namespace asc2

namespace {
struct TestPrintStaticSchedulePass : public asc2::impl::TestPrintStaticScheduleBase<TestPrintStaticSchedulePass> {
  using TestPrintStaticScheduleBase::TestPrintStaticScheduleBase;

  void runOnOperation() override {
    asc2::StaticSchedule(getOperation()).print(llvm::errs());
    markAllAnalysesPreserved();
  }
};
} // namespace
