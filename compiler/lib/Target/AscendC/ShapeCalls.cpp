//===- ShapeCalls.cpp - Brcb, Copy, DataCopy within UB, Transpose ----------===//
//
// The calls broadcasts, concatenation and transposes are made of, each with
// the operands the API reference gives it (block and repeat strides in
// 32-byte blocks; the Copy mask in its continuous form, elements per repeat).
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace asc2::ascendc;

namespace asc2::ascendc_emitter {

FamilyResult Emitter::emitShapeFamily(Operation *op) {
  // `buffer[offset]`: the sub-tensor starting `offset` elements in.
  auto at = [&](Value buffer, int64_t offset) {
    return offset ? name(buffer) + "[" + std::to_string(offset) + "]" : name(buffer);
  };
  return llvm::TypeSwitch<Operation *, FamilyResult>(op)
      .Case<BrcbOp>([&](BrcbOp o) {
        line() << "AscendC::Brcb(" << at(o.getDst(), o.getDstOffset()) << ", "
               << at(o.getSrc(), o.getSrcOffset()) << ", " << o.getRepeatTime()
               << ", AscendC::BrcbRepeatParams(" << o.getDstBlkStride() << ", "
               << o.getDstRepStride() << "));" << srcLine(o) << "\n";
        return success();
      })
      .Case<CopyOp>([&](CopyOp o) {
        line() << "AscendC::Copy(" << at(o.getDst(), o.getDstOffset()) << ", "
               << at(o.getSrc(), o.getSrcOffset()) << ", " << o.getMask() << ", "
               << o.getRepeatTime() << ", AscendC::CopyRepeatParams("
               << o.getDstStride() << ", " << o.getSrcStride() << ", "
               << o.getDstRepeatSize() << ", " << o.getSrcRepeatSize() << "));"
               << srcLine(o) << "\n";
        return success();
      })
      .Case<LocalDataCopyOp>([&](LocalDataCopyOp o) {
        line() << "AscendC::DataCopy(" << at(o.getDst(), o.getDstOffset()) << ", "
               << at(o.getSrc(), o.getSrcOffset()) << ", AscendC::DataCopyParams("
               << o.getBlockCount() << ", " << o.getBlockLen() << ", " << o.getSrcGap()
               << ", " << o.getDstGap() << "));" << srcLine(o) << "\n";
        return success();
      })
      .Case<TransposeOp>([&](TransposeOp o) {
        line() << "AscendC::Transpose(" << name(o.getDst()) << ", " << name(o.getSrc())
               << ", " << name(o.getTmp()) << ", AscendC::TransposeParamsExt("
               << o.getN() << ", " << o.getC() << ", " << o.getH() << ", " << o.getW()
               << ", AscendC::TransposeType::TRANSPOSE_NCHW2NHWC));" << srcLine(o)
               << "\n";
        return success();
      })
      .Default([](Operation *) { return std::nullopt; });
}

} // namespace asc2::ascendc_emitter
