//===- VecOp.h - The vector unit's elementwise operations -------*- C++ -*-===//
//
// The operations the vector unit computes elementwise. The enum is generated
// from the ascendc op records (each elementwise op's `simOp` in
// AscendCVectorOps.td, by asc2-tblgen); the semantics of each are in
// compiler/lib/Sim/VectorKernels.cpp, the costs in resources/arch/*.json
// under vecOpCostKey().
//
//===----------------------------------------------------------------------===//
#ifndef ASC2_ARCH_VECOP_H
#define ASC2_ARCH_VECOP_H

#include <cstdint>
#include <optional>
#include <string_view>

namespace asc2 {

/// Binary ops read two operands (a tensor and a tensor or a scalar), unary
/// ops one.
enum class VecOp : uint8_t {
#define ASC2_VEC_OP(name, costKey, arity) name,
#include "asc2/Dialect/AscendC/IR/SimVecOps.inc"
};

/// The op's key in resources/arch/*.json "vector_cost" ("add", "log", ...).
const char *vecOpCostKey(VecOp op);
/// The op whose cost key is `key`, if any.
std::optional<VecOp> vecOpOfCostKey(std::string_view key);
/// 2 for binary operations (also their vector-scalar forms), 1 for unary.
unsigned vecOpArity(VecOp op);

} // namespace asc2

#endif
