//===- DetectKernelType.cpp - AIV_ONLY, AIC_ONLY or MIX --------------------===//
//
// The cores a kernel needs follow from what its ops touch: the vector pipe and
// UB belong to the vector cores, L1/L0 buffers and the MTE1/M/FIX pipes to the
// cube cores. Scalar work (PIPE_S) and GM-only ops run on either.
//
//===----------------------------------------------------------------------===//
#include "asc2/Dialect/AscendC/Transforms/Passes.h"
#include "asc2/Dialect/AscTile/Transforms/Passes.h"

#define DEBUG_TYPE "ascendc-detect-kernel-type"

namespace asc2::ascendc {
#define GEN_PASS_DEF_ASCENDCDETECTKERNELTYPE
#include "asc2/Dialect/AscendC/Transforms/Passes.h.inc"
} // namespace asc2::ascendc

using namespace mlir;
using namespace asc2::ascendc;

namespace asc2::ascendc {

CoreKind coreKindOf(Operation *op) {
  if (op->getNumRegions()) {
    // A structured op (a guard, a loop) runs where all its core work runs.
    bool cube = false, vector = false;
    op->walk([&](Operation *nested) {
      if (nested == op || nested->getNumRegions())
        return;
      CoreKind k = coreKindOf(nested);
      cube |= k == CoreKind::Cube;
      vector |= k == CoreKind::Vector;
    });
    return cube == vector ? CoreKind::Either
                          : cube ? CoreKind::Cube : CoreKind::Vector;
  }
  if (auto core = op->getAttrOfType<StringAttr>("core"))
    return core.getValue() == "cube" ? CoreKind::Cube : CoreKind::Vector;
  auto pipeOp = dyn_cast<PipeOpInterface>(op);
  Pipe pipe = pipeOp ? pipeOp.getPipe() : Pipe::S;
  if (pipe == Pipe::M || pipe == Pipe::MTE1 || pipe == Pipe::FIX)
    return CoreKind::Cube;
  if (pipe == Pipe::V)
    return CoreKind::Vector;
  // The scalar unit, or no pipe of its own (asc2.inline): the core of the
  // local memory it touches.
  if (auto access = dyn_cast<BufferAccessOpInterface>(op)) {
    SmallVector<BufferAccess> accesses;
    access.getBufferAccesses(accesses);
    for (const BufferAccess &a : accesses)
      if (auto local = dyn_cast<LocalType>(a.buffer.getType()))
        return local.getSpaceName() == "UB" ? CoreKind::Vector : CoreKind::Cube;
  }
  return CoreKind::Either;
}

StringRef detectKernelType(func::FuncOp func) {
  bool cube = false, vector = false;
  func.walk([&](Operation *op) {
    CoreKind k = coreKindOf(op);
    cube |= k == CoreKind::Cube;
    vector |= k == CoreKind::Vector;
  });
  if (cube && vector)
    return "MIX";
  return cube ? "AIC_ONLY" : "AIV_ONLY";
}

int vectorCoresPerGroup(func::FuncOp func) {
  auto attr = func->getAttrOfType<IntegerAttr>(asctile::kVectorCoresAttr);
  return attr && attr.getInt() == 2 ? 2 : 1;
}

bool firstVectorCoreOnly(func::FuncOp func) {
  return vectorCoresPerGroup(func) == 2 && func->hasAttr(asctile::kFirstVectorCoreOnlyAttr);
}

bool holdsCrossCoreFlag(Operation *op) {
  return op
      ->walk([](Operation *o) {
        return isa<SetFlagOp, WaitFlagOp>(o) && o->hasAttr("cross_core") ? WalkResult::interrupt()
                                                                          : WalkResult::advance();
      })
      .wasInterrupted();
}

} // namespace asc2::ascendc

namespace {
struct DetectKernelTypePass
    : public asc2::ascendc::impl::AscendCDetectKernelTypeBase<DetectKernelTypePass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    func->setAttr("ascendc.kernel_type",
                  StringAttr::get(&getContext(), detectKernelType(func)));
  }
};
} // namespace
