//===- PlanMemory.cpp - byte offsets for local buffers --------------------===//
//
// Writes the offsets of the UbPlan (asc2/Analysis/UbPlan.h) into the IR, and
// `ascendc.dma_apart` on the function when the DMA buffers of each copy of a
// multi-buffered loop got bytes of their own (the report's lower bound then
// counts them apart too), `ascendc.copies_shared` (and a remark) when the
// copies had to share bytes to fit.
//
//===----------------------------------------------------------------------===//
#include "asc2/Support/PassOptions.h"
#include "asc2/Analysis/UbPlan.h"
#include "asc2/Dialect/AscendC/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

#define DEBUG_TYPE "ascendc-plan-memory"

namespace asc2::ascendc {
#define GEN_PASS_DEF_ASCENDCPLANMEMORY
#include "asc2/Dialect/AscendC/Transforms/Passes.h.inc"
} // namespace asc2::ascendc

using namespace mlir;
using namespace asc2;

namespace {
struct PlanMemoryPass
    : public asc2::ascendc::impl::AscendCPlanMemoryBase<PlanMemoryPass> {
  using AscendCPlanMemoryBase::AscendCPlanMemoryBase;

  void runOnOperation() override {
    Operation *f = getOperation();
    UbPlanOptions options{alignment, ubCapacity, l1Capacity, reuse, shareCopies};
    if (failed(options.check(f, "ascendc-plan-memory")))
      return signalPassFailure();
    UbPlan plan(getOperation(), options);
    if (plan.keepsDmaApart())
      getOperation()->setAttr("ascendc.dma_apart", UnitAttr::get(&getContext()));
    if (plan.sharesCopies()) {
      getOperation()->setAttr("ascendc.copies_shared", UnitAttr::get(&getContext()));
      mlir::emitRemark(getOperation()->getLoc())
          << "the copies of an unrolled loop share their " << plan.getSharedSpace()
          << " buffers (kept apart they need " << plan.getApartPeak() << " bytes of the "
          << plan.getSharedCapacity() << " the " << plan.getSharedSpace()
          << " has): each copy's load waits for the previous copy to finish with its buffers";
    }
    Builder b(&getContext());
    for (const BufferPlacement &p : plan.getPlacements()) {
      p.interval.alloc.setOffsetAttr(b.getI64IntegerAttr(p.offset));
      ++numPlaced;
    }
    numInPlace += plan.getNumInPlace();
  }
};
} // namespace
