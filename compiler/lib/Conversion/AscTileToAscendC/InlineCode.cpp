//===- InlineCode.cpp - asc2.inline and asc2.inline_vf, as written ----------===//
//
// The kernel author's Ascend C stays where the kernel put it. Its operands
// become what the emitter can name: a tile its buffer, a global tensor its
// GM argument, a scalar itself; inline_vf's result gets a buffer of its own,
// which the code fills ($0).
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

#include "llvm/ADT/TypeSwitch.h"

namespace asc2::asctile_to_ascendc {

FailureOr<Value> Lowering::inlineOperand(Operation *user, Value v) {
  if (isTile(v.getType()))
    return bufferOf(user, v);
  if (isa<at::TensorType>(v.getType())) {
    auto it = tensors.find(v);
    if (it == tensors.end())
      return user->emitOpError() << "uses an unknown tensor";
    return it->second.gm;
  }
  return v; // a GM argument or a scalar
}

FamilyResult Lowering::lowerInlineCodeFamily(Operation *op) {
  auto operands = [&](ValueRange values) -> FailureOr<SmallVector<Value>> {
    SmallVector<Value> out;
    for (Value v : values) {
      FailureOr<Value> lowered = inlineOperand(op, v);
      if (failed(lowered))
        return failure();
      out.push_back(*lowered);
    }
    return out;
  };
  return llvm::TypeSwitch<Operation *, FamilyResult>(op)
      .Case<at::InlineOp>([&](at::InlineOp o) -> LogicalResult {
        builder.setInsertionPoint(o);
        auto args = operands(o.getArgs());
        if (failed(args))
          return failure();
        builder.create<ac::InlineOp>(o.getLoc(), o.getCodeAttr(), *args,
                                     o.getBeforeFunctionAttr());
        return success();
      })
      .Case<at::InlineVFOp>([&](at::InlineVFOp o) -> LogicalResult {
        builder.setInsertionPoint(o);
        auto inputs = operands(o.getInputs());
        if (failed(inputs))
          return failure();
        at::TileType tile = o.getResult().getType();
        Value dst = newBuffer(o.getLoc(), tile, ac::Position::VECCALC, "inline_vf");
        builder.create<ac::InlineVFOp>(o.getLoc(), o.getCodeAttr(), dst, *inputs);
        buffers[o.getResult()] = dst;
        return success();
      })
      .Default([](Operation *) { return std::nullopt; });
}

} // namespace asc2::asctile_to_ascendc
