//===- TestPrintBufferLiveness.cpp - print BufferLiveness -------------------===//
#include "asc2/Analysis/Passes.h"
#include "asc2/Analysis/BufferLiveness.h"

#define DEBUG_TYPE "test-print-buffer-liveness"

namespace asc2 {
#define GEN_PASS_DEF_TESTPRINTBUFFERLIVENESS
#include "asc2/Analysis/Passes.h.inc"
} // namespace asc2

namespace {
struct TestPrintBufferLivenessPass : public asc2::impl::TestPrintBufferLivenessBase<TestPrintBufferLivenessPass> {
  using TestPrintBufferLivenessBase::TestPrintBufferLivenessBase;

  void runOnOperation() override {
    asc2::BufferLiveness(getOperation()).print(llvm::errs());
    markAllAnalysesPreserved();
  }
};
} // namespace
