//===- HoistLocalAlloc.cpp - allocations to the function entry -------------===//
#include "asc2/Dialect/AscendC/Transforms/Passes.h"

#define DEBUG_TYPE "ascendc-hoist-local-alloc"

namespace asc2::ascendc {
#define GEN_PASS_DEF_ASCENDCHOISTLOCALALLOC
#include "asc2/Dialect/AscendC/Transforms/Passes.h.inc"
} // namespace asc2::ascendc

using namespace mlir;
using namespace asc2::ascendc;

namespace {
struct HoistLocalAllocPass
    : public asc2::ascendc::impl::AscendCHoistLocalAllocBase<HoistLocalAllocPass> {
  void runOnOperation() override {
    Block &entry = getOperation().getBody().front();
    SmallVector<AllocLocalOp> allocs;
    getOperation().walk([&](AllocLocalOp a) { allocs.push_back(a); });
    // Keep allocation order stable: each goes after the previous hoisted one.
    Operation *insertAfter = nullptr;
    for (AllocLocalOp alloc : allocs) {
      if (alloc->getBlock() != &entry)
        ++numHoisted;
      if (insertAfter)
        alloc->moveAfter(insertAfter);
      else
        alloc->moveBefore(&entry, entry.begin());
      insertAfter = alloc;
    }
  }
};
} // namespace
