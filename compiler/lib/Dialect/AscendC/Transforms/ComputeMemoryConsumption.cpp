//===- ComputeMemoryConsumption.cpp - overflow is a compile error ---------===//
#include "asc2/Support/PassOptions.h"
#include "asc2/Analysis/BufferLiveness.h"
#include "asc2/Dialect/AscendC/Transforms/Passes.h"
#include "asc2/Support/KindedError.h"
#include "asc2/Support/UserTerms.h"

#include "llvm/Support/FormatVariadic.h"

#define DEBUG_TYPE "ascendc-compute-memory-consumption"

namespace asc2::ascendc {
#define GEN_PASS_DEF_ASCENDCCOMPUTEMEMORYCONSUMPTION
#include "asc2/Dialect/AscendC/Transforms/Passes.h.inc"
} // namespace asc2::ascendc

using namespace mlir;
using namespace asc2;
using namespace asc2::ascendc;

namespace {
struct ComputeMemoryConsumptionPass
    : public asc2::ascendc::impl::AscendCComputeMemoryConsumptionBase<
          ComputeMemoryConsumptionPass> {
  using AscendCComputeMemoryConsumptionBase::AscendCComputeMemoryConsumptionBase;

  void runOnOperation() override {
    for (auto [name, value] : {std::pair<const char *, int64_t>{"ub-capacity", ubCapacity},
                               {"l1-capacity", l1Capacity}, {"l0a-capacity", l0aCapacity},
                               {"l0b-capacity", l0bCapacity}, {"l0c-capacity", l0cCapacity},
                               {"bt-capacity", btCapacity}})
      if (failed(asc2::checkOption(getOperation(), "ascendc-compute-memory-consumption", name, value, 0)))
        return signalPassFailure();
    BufferLiveness liveness(getOperation());
    llvm::StringMap<int64_t> capacity{{"UB", ubCapacity},
                                      {"L1", l1Capacity},
                                      {"L0A", l0aCapacity},
                                      {"L0B", l0bCapacity},
                                      {"L0C", l0cCapacity},
                                      {"BT", btCapacity}};
    llvm::StringMap<int64_t> peak;
    for (const BufferInterval &iv : liveness.getIntervals()) {
      auto type = iv.alloc.getBuffer().getType();
      auto offset = iv.alloc.getOffsetAttr();
      if (!offset) {
        iv.alloc.emitOpError() << "has no offset; run ascendc-plan-memory first";
        return signalPassFailure();
      }
      int64_t end = offset.getInt() + type.getSizeInBytes();
      int64_t &p = peak[type.getSpaceName()];
      p = std::max(p, end);
    }
    // The memories a kernel names (L1, UB) before those the compiler fills
    // from them: a 2 MB L1 tile that feeds L0A is an L1 overflow first.
    for (StringRef space : {"L1", "UB", "L0C", "L0A", "L0B", "BT"}) {
      auto found = peak.find(space);
      auto cap = capacity.find(space);
      if (found == peak.end() || found->getValue() <= cap->getValue())
        continue;
      auto &entry = *found;
      // Name the buffers live where the most bytes are live.
      const ProgramPoints &points = liveness.getPoints();
      int bestPoint = 0;
      int64_t bestBytes = -1;
      for (int p = 0; p < points.size(); ++p) {
        int64_t bytes = 0;
        for (const BufferInterval &iv : liveness.getIntervals())
          if (iv.start <= p && p <= iv.end &&
              iv.alloc.getBuffer().getType().getSpaceName() == space)
            bytes += iv.alloc.getBuffer().getType().getSizeInBytes();
        if (bytes > bestBytes)
          bestBytes = bytes, bestPoint = p;
      }
      std::string live;
      llvm::raw_string_ostream os(live);
      for (const BufferInterval &iv : liveness.getIntervals()) {
        if (!(iv.start <= bestPoint && bestPoint <= iv.end) ||
            iv.alloc.getBuffer().getType().getSpaceName() != space)
          continue;
        auto type = iv.alloc.getBuffer().getType();
        os << "\n  " << userTileName(type.getShape(), type.getElementType()) << " ("
           << type.getSizeInBytes() << " bytes)";
        std::string where = userLocation(iv.alloc.getLoc());
        if (!where.empty())
          os << " from " << where;
      }
      // The kind is what the driver's fallback (fewer rows, one buffer per
      // tile) and the Python MemoryError key on.
      emitErrorOfKind(getOperation(), ErrorKind::Memory)
          << space << " overflow: kernel needs " << entry.getValue()
          << " bytes but " << space << " has " << cap->getValue() << " ("
          << entry.getValue() - cap->getValue()
          << " bytes over); tiles live at the peak:" << os.str()
          << "\nhint: use smaller tiles";
      return signalPassFailure();
    }
  }
};
} // namespace
