//===- Accesses.cpp - What an op reads and writes, for sync insertion ------===//
#include "asc2/Analysis/Accesses.h"
#include "asc2/Dialect/AscendC/Transforms/Passes.h"

using namespace mlir;

namespace asc2::ascendc {

Resource resourceOf(Value v) {
  Resource r;
  r.value = v;
  if (auto local = dyn_cast<LocalType>(v.getType())) {
    r.space = local.getSpaceName();
    if (auto alloc = v.getDefiningOp<AllocLocalOp>())
      if (auto offset = alloc.getOffsetAttr()) {
        r.planned = true;
        r.lo = offset.getInt();
        r.hi = r.lo + local.getSizeInBytes();
      }
  } else {
    r.space = "GM";
  }
  return r;
}

std::string describe(const Resource &r) {
  Value v = r.value;
  if (auto alloc = v.getDefiningOp<AllocLocalOp>())
    if (auto name = alloc.getNameAttr())
      return name.str();
  if (r.planned)
    return (r.space + "[" + Twine(r.lo) + ", " + Twine(r.hi) + ")").str();
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    // A kernel parameter: the name the kernel gave it.
    Operation *owner = arg.getOwner()->getParentOp();
    if (auto names = owner ? owner->getAttrOfType<ArrayAttr>("asctile.arg_names") : ArrayAttr())
      if (arg.getArgNumber() < names.size())
        if (auto name = dyn_cast<StringAttr>(names[arg.getArgNumber()]); name && !name.empty())
          return (name.getValue() + " in GM").str();
    return ("arg" + Twine(arg.getArgNumber())).str();
  }
  return "buffer";
}

std::string lineOf(Operation *op) {
  if (auto loc = dyn_cast<FileLineColLoc>(op->getLoc()))
    return ("line " + Twine(loc.getLine())).str();
  return "unknown line";
}

bool usesAnyPipe(Operation *op) {
  auto code = dyn_cast<InlineCodeOpInterface>(op);
  return code && !isa<PipeOpInterface>(op) && !code.isBeforeFunction();
}

bool crossesCores(const Access &a) {
  if (!a.res.isLocal())
    return false;
  CoreKind core = coreKindOf(a.leaf);
  if (core == CoreKind::Either)
    return false;
  return (a.res.space == "UB") != (core == CoreKind::Vector);
}

void collectAccesses(Operation *op, Operation *as, SmallVectorImpl<Access> &out) {
  op->walk([&](Operation *leaf) {
    auto ba = dyn_cast<BufferAccessOpInterface>(leaf);
    auto po = dyn_cast<PipeOpInterface>(leaf);
    if (!ba || !po)
      return;
    SmallVector<BufferAccess> accesses;
    ba.getBufferAccesses(accesses);
    for (const BufferAccess &a : accesses)
      out.push_back({resourceOf(a.buffer), po.getPipe(), a.isWrite, as, leaf});
  });
}

} // namespace asc2::ascendc
