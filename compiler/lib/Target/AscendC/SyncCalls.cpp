//===- SyncCalls.cpp - flags, barriers, buffer ids --------------------------===//
//
// SetFlag/WaitFlag between pipes, CrossCoreSetFlag/WaitFlag between the
// cores of a MIX group, PipeBarrier, and buffer ids as Mutex Lock/Unlock.
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace asc2::ascendc;

namespace asc2::ascendc_emitter {

static std::string hardEvent(Pipe src, Pipe dst) {
  return std::string("AscendC::HardEvent::") + pipeName(src) + "_" + pipeName(dst);
}

FamilyResult Emitter::emitSyncFamily(Operation *op) {
  return llvm::TypeSwitch<Operation *, FamilyResult>(op)
      .Case<SetFlagOp>([&](SetFlagOp o) {
        if (o->hasAttr("cross_core")) {
          // Mode 2: the AIC and the AIV of a group signal each other.
          line() << "AscendC::CrossCoreSetFlag<0x2, " << pipeApiName(o.getSrc())
                 << ">(" << o.getEvent() << ");\n";
          return success();
        }
        line() << "AscendC::SetFlag<" << hardEvent(o.getSrc(), o.getDst())
               << ">(" << o.getEvent() << ");\n";
        return success();
      })
      .Case<WaitFlagOp>([&](WaitFlagOp o) {
        if (o->hasAttr("cross_core")) {
          line() << "AscendC::CrossCoreWaitFlag(" << o.getEvent() << ");\n";
          return success();
        }
        line() << "AscendC::WaitFlag<" << hardEvent(o.getSrc(), o.getDst())
               << ">(" << o.getEvent() << ");\n";
        return success();
      })
      .Case<PipeBarrierOp>([&](PipeBarrierOp o) {
        line() << "AscendC::PipeBarrier<" << pipeApiName(o.getPipe()) << ">();\n";
        return success();
      })
      // Buffer ids with kernel-chosen MutexIDs (0..27): the buffers are TBufs
      // or static addresses, never TQue/TQueBind/TBufPool, which the Ascend C
      // Mutex docs rule out next to self-chosen ids.
      .Case<GetBufOp>([&](GetBufOp o) {
        line() << "AscendC::Mutex::Lock<" << pipeApiName(o.getPipe()) << ">("
               << o.getId() << ");\n";
        return success();
      })
      .Case<RlsBufOp>([&](RlsBufOp o) {
        line() << "AscendC::Mutex::Unlock<" << pipeApiName(o.getPipe()) << ">("
               << o.getId() << ");\n";
        return success();
      })
      .Default([](Operation *) { return std::nullopt; });
}

} // namespace asc2::ascendc_emitter
