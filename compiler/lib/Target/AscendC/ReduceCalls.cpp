//===- ReduceCalls.cpp - the reduction cascade's API calls -----------------===//
//
// whole_reduce is WholeReduceSum/Max/Min in its count-mask form, binary_repeat
// the level-0 form of Add/Max/Min/Mul; each op is one call with the operands
// it carries (mirror-cann/asc-devkit@82b89a15f:
// include/basic_api/kernel_operator_vec_reduce_intf.h,
// include/basic_api/kernel_operator_vec_binary_intf.h).
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace asc2::ascendc;

namespace asc2::ascendc_emitter {

std::string Emitter::slice(Value buffer, int64_t offset) {
  return offset == 0 ? name(buffer) : name(buffer) + "[" + std::to_string(offset) + "]";
}

FamilyResult Emitter::emitReduceFamily(Operation *op) {
  return llvm::TypeSwitch<Operation *, FamilyResult>(op)
      .Case<WholeReduceOp>([&](WholeReduceOp o) {
        StringRef fn = o.getKind() == ReduceKind::SUM   ? "Sum"
                       : o.getKind() == ReduceKind::MAX ? "Max"
                                                        : "Min";
        line() << "AscendC::WholeReduce" << fn << "<"
               << cType(o.getSrc().getType().getElementType()) << ">("
               << slice(o.getDst(), o.getDstOffset()) << ", "
               << slice(o.getSrc(), o.getSrcOffset()) << ", " << o.getMask()
               << ", " << o.getRepeat() << ", " << o.getDstRepStride() << ", "
               << o.getSrcBlkStride() << ", " << o.getSrcRepStride();
        if (o.getKind() != ReduceKind::SUM)
          os << ", AscendC::ReduceOrder::" << stringifyReduceOrder(o.getOrder());
        os << ");" << srcLine(o) << "\n";
        return success();
      })
      .Case<BinaryRepeatOp>([&](BinaryRepeatOp o) {
        ArrayRef<int64_t> p = o.getParams();
        line() << "AscendC::" << stringifyRepeatBinaryKind(o.getKind()) << "<"
               << cType(o.getDst().getType().getElementType()) << ">("
               << slice(o.getDst(), o.getDstOffset()) << ", "
               << slice(o.getSrc0(), o.getSrc0Offset()) << ", "
               << slice(o.getSrc1(), o.getSrc1Offset()) << ", " << o.getMask()
               << ", " << o.getRepeat() << ", AscendC::BinaryRepeatParams(" << p[0]
               << ", " << p[1] << ", " << p[2] << ", " << p[3] << ", " << p[4]
               << ", " << p[5] << "));" << srcLine(o) << "\n";
        return success();
      })
      .Default([](Operation *) { return std::nullopt; });
}

} // namespace asc2::ascendc_emitter
