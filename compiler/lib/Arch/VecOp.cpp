//===- VecOp.cpp - Names and arities of the vector operations -------------===//

#include "asc2/Arch/VecOp.h"

#include <iterator>

namespace asc2 {

namespace {
struct VecOpInfo {
  const char *costKey;
  unsigned arity;
};
constexpr VecOpInfo kVecOps[] = {
#define ASC2_VEC_OP(name, costKey, arity) {costKey, arity},
#include "asc2/Dialect/AscendC/IR/SimVecOps.inc"
};
} // namespace

const char *vecOpCostKey(VecOp op) {
  return kVecOps[static_cast<unsigned>(op)].costKey;
}

unsigned vecOpArity(VecOp op) {
  return kVecOps[static_cast<unsigned>(op)].arity;
}

std::optional<VecOp> vecOpOfCostKey(std::string_view key) {
  for (unsigned i = 0; i < std::size(kVecOps); ++i)
    if (key == kVecOps[i].costKey)
      return static_cast<VecOp>(i);
  return std::nullopt;
}

} // namespace asc2
