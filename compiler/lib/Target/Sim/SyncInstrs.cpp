//===- SyncInstrs.cpp - flags, barriers, buffer ids -------------------------===//
//
// Pipe-to-pipe and cross-core flags, pipe barriers and buffer-id
// acquire/release, each on the pipe that executes it.
//
//===----------------------------------------------------------------------===//
#include "Builder.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace asc2::ascendc;

namespace asc2::program_builder {

FamilyResult Builder::emitSyncFamily(Operation *op) {
  return llvm::TypeSwitch<Operation *, FamilyResult>(op)
      .Case<SetFlagOp>([&](SetFlagOp s) {
        bool cross = s->hasAttr("cross_core");
        sim::Instr &in = add(op, cross ? sim::Opcode::CrossCoreSetFlag : sim::Opcode::SetFlag,
                             s.getSrc());
        in.flagSrc = s.getSrc();
        in.flagDst = s.getDst();
        in.eventId = s.getEvent();
        return success();
      })
      .Case<WaitFlagOp>([&](WaitFlagOp w) {
        bool cross = w->hasAttr("cross_core");
        sim::Instr &in = add(op, cross ? sim::Opcode::CrossCoreWaitFlag : sim::Opcode::WaitFlag,
                             w.getDst());
        in.flagSrc = w.getSrc();
        in.flagDst = w.getDst();
        in.eventId = w.getEvent();
        return success();
      })
      .Case<GetBufOp>([&](GetBufOp g) {
        add(op, sim::Opcode::GetBuf, g.getPipe()).eventId = g.getId();
        return success();
      })
      .Case<RlsBufOp>([&](RlsBufOp r) {
        add(op, sim::Opcode::RlsBuf, r.getPipe()).eventId = r.getId();
        return success();
      })
      .Case<PipeBarrierOp>([&](PipeBarrierOp b) {
        bool all = b.getPipe() == Pipe::ALL;
        sim::Instr &in = add(op, sim::Opcode::PipeBarrier,
                             all ? sim::Pipe::S : b.getPipe());
        in.allPipes = all;
        return success();
      })
      .Default([](Operation *) { return std::nullopt; });
}

} // namespace asc2::program_builder
