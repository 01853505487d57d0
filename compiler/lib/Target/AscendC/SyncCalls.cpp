//===- SyncCalls.cpp - flags, barriers, buffer ids --------------------------===//
//
// SetFlag/WaitFlag between pipes, CrossCoreSetFlag/WaitFlag between the
// cores of a MIX group, PipeBarrier, and buffer ids as Mutex Lock/Unlock.
//
// Event ids. Under a TPipe the Ascend C docs require the eventID of a
// SetFlag/WaitFlag to come from TPipe::AllocEventID or FetchEventID
// (mirror-cann/asc-devkit@82b89a15f:docs/zh/api/SIMD-API/基础API/同步控制/
// 核内同步/SetFlag-WaitFlag(ISASI).md, 约束说明): the TPipe's constructor
// itself holds M_MTE1 ids 0-2 on the AIC (impl/basic_api/kernel_tpipe_impl.h,
// TPipe::Init), so a raw id can collide with it. Each (pipe pair, planned id)
// gets its own TEventID for the whole kernel, allocated after the TPipe and
// released before return, so the sync planner's ids keep their meaning: two
// planned ids are two hardware ids. Static-tensor kernels (no TPipe) use the
// planned ids themselves, which the same page allows (ids 0-5 there; the
// pipeline plans with 6).
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

std::string Emitter::eventArg(Pipe src, Pipe dst, int64_t event) {
  auto it = eventNames.find({src, dst, event});
  return it != eventNames.end() ? it->second : std::to_string(event);
}

void Emitter::emitEventAllocs(func::FuncOp func) {
  auto note = [&](Operation *op, Pipe src, Pipe dst, int64_t event) {
    if (op->hasAttr("cross_core"))
      return; // CrossCoreSetFlag ids are not HardEvent ids
    auto key = std::make_tuple(src, dst, event);
    if (eventNames.count(key))
      return;
    std::string n = std::string("ev") + pipeName(src) + "_" + pipeName(dst) +
                    "_" + std::to_string(event);
    eventNames[key] = n;
  };
  func.walk([&](Operation *op) {
    if (auto s = dyn_cast<SetFlagOp>(op))
      note(op, s.getSrc(), s.getDst(), s.getEvent());
    else if (auto w = dyn_cast<WaitFlagOp>(op))
      note(op, w.getSrc(), w.getDst(), w.getEvent());
  });
  for (auto &[key, n] : eventNames)
    line() << "AscendC::TEventID " << n << " = pipe.AllocEventID<"
           << hardEvent(std::get<0>(key), std::get<1>(key)) << ">();\n";
}

void Emitter::emitEventReleases() {
  for (auto &[key, n] : eventNames)
    line() << "pipe.ReleaseEventID<" << hardEvent(std::get<0>(key), std::get<1>(key))
           << ">(" << n << ");\n";
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
        line() << "AscendC::SetFlag<" << hardEvent(o.getSrc(), o.getDst()) << ">("
               << eventArg(o.getSrc(), o.getDst(), o.getEvent()) << ");\n";
        return success();
      })
      .Case<WaitFlagOp>([&](WaitFlagOp o) {
        if (o->hasAttr("cross_core")) {
          line() << "AscendC::CrossCoreWaitFlag(" << o.getEvent() << ");\n";
          return success();
        }
        line() << "AscendC::WaitFlag<" << hardEvent(o.getSrc(), o.getDst()) << ">("
               << eventArg(o.getSrc(), o.getDst(), o.getEvent()) << ");\n";
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
