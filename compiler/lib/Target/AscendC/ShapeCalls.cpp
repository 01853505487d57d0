//===- ShapeCalls.cpp - Brcb, Copy, GatherMask, DataCopy, Transpose -------===//
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
        // The level-0 Copy takes 16- and 32-bit types on both targets
        // (mirror-cann/asc-devkit@82b89a15f:impl/basic_api/dav_3510/
        // kernel_operator_data_copy_impl.h, CopyImpl's static_assert; dav_c220
        // likewise): 64-bit elements move as their uint32_t halves and 8-bit
        // ones as uint16_t pairs; the blocks and strides are the same bytes.
        int64_t w = o.getDst().getType().getElementType().getIntOrFloatBitWidth() / 8;
        std::string view = w == 8   ? ".ReinterpretCast<uint32_t>()"
                           : w == 1 ? ".ReinterpretCast<uint16_t>()"
                                    : "";
        int64_t mask = w == 8 ? o.getMask() * 2 : w == 1 ? o.getMask() / 2 : o.getMask();
        line() << "AscendC::Copy(" << at(o.getDst(), o.getDstOffset()) << view << ", "
               << at(o.getSrc(), o.getSrcOffset()) << view << ", " << mask << ", "
               << o.getRepeatTime() << ", AscendC::CopyRepeatParams("
               << o.getDstStride() << ", " << o.getSrcStride() << ", "
               << o.getDstRepeatSize() << ", " << o.getSrcRepeatSize() << "));"
               << srcLine(o) << "\n";
        return success();
      })
      .Case<GatherMaskOp>([&](GatherMaskOp o) {
        // A built-in pattern is the uint8_t overload; a pattern buffer is read
        // as the unsigned words of the element's width (the API's U).
        std::string pattern =
            o.getPattern() ? at(o.getPattern(), o.getPatternOffset()) +
                                 ".ReinterpretCast<uint" +
                                 std::to_string(o.getSrc()
                                                    .getType()
                                                    .getElementType()
                                                    .getIntOrFloatBitWidth()) +
                                 "_t>()"
                           : "static_cast<uint8_t>(" +
                                 std::to_string(o.getBuiltinPattern()) + ")";
        line() << "{ uint64_t rsvdCnt = 0; AscendC::GatherMask("
               << at(o.getDst(), o.getDstOffset()) << ", "
               << at(o.getSrc(), o.getSrcOffset()) << ", " << pattern << ", "
               << (o.getReduceMode() ? "true" : "false") << ", " << o.getMask()
               << "u, AscendC::GatherMaskParams(" << o.getSrcBlockStride()
               << ", " << o.getRepeatTimes() << ", " << o.getSrcRepeatStride()
               << ", " << o.getSrc1RepeatStride() << "), rsvdCnt); }"
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
