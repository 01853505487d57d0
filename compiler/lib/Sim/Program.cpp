//===- Program.cpp - Names and widths of the compact program form ---------===//

#include "asc2/Sim/Program.h"

#include <iterator>

namespace asc2::sim {

const char *spaceName(Space s) {
  switch (s) {
  case Space::GM:
    return "GM";
  case Space::UB:
    return "UB";
  case Space::L1:
    return "L1";
  case Space::L0A:
    return "L0A";
  case Space::L0B:
    return "L0B";
  case Space::L0C:
    return "L0C";
  case Space::BT:
    return "BT";
  }
  return "?";
}

unsigned byteWidth(DType t) {
  switch (t) {
  case DType::F32:
  case DType::I32:
    return 4;
  case DType::F16:
  case DType::BF16:
  case DType::I16:
    return 2;
  case DType::I8:
  case DType::U8:
  case DType::Bool:
    return 1;
  case DType::I64:
    return 8;
  }
  return 1;
}

const char *dtypeName(DType t) {
  switch (t) {
  case DType::F32:
    return "float32";
  case DType::F16:
    return "float16";
  case DType::BF16:
    return "bfloat16";
  case DType::I32:
    return "int32";
  case DType::I16:
    return "int16";
  case DType::I8:
    return "int8";
  case DType::U8:
    return "uint8";
  case DType::I64:
    return "int64";
  case DType::Bool:
    return "bool";
  }
  return "?";
}

const char *kernelTypeName(KernelType t) {
  switch (t) {
  case KernelType::AivOnly:
    return "AIV_ONLY";
  case KernelType::AicOnly:
    return "AIC_ONLY";
  case KernelType::Mix:
    return "MIX";
  }
  return "?";
}

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

unsigned vecOpArity(VecOp op) { return kVecOps[static_cast<unsigned>(op)].arity; }

std::optional<VecOp> vecOpOfCostKey(std::string_view key) {
  for (unsigned i = 0; i < std::size(kVecOps); ++i)
    if (key == kVecOps[i].costKey)
      return static_cast<VecOp>(i);
  return std::nullopt;
}

} // namespace asc2::sim
