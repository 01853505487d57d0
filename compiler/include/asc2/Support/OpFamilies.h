//===- OpFamilies.h - Dispatch an op to the family that claims it -*- C++ -*-===//
//
// The lowering, the Ascend C emitter and the simulator program builder each
// split their work by op family, one file per family. A family returns
// std::nullopt for an op it does not own; the first family that claims the op
// handles it. One helper so the three keep the same rule.
//
//===----------------------------------------------------------------------===//
#ifndef ASC2_SUPPORT_OPFAMILIES_H
#define ASC2_SUPPORT_OPFAMILIES_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LogicalResult.h"

#include <optional>

namespace asc2 {

/// What a family did with an op: nullopt = not its op.
using FamilyResult = std::optional<mlir::LogicalResult>;

/// Asks `families` (member functions of `self`) in order; the result of the
/// first that claims `op`, or nullopt when none does.
template <typename Self, typename... Families>
FamilyResult dispatchToFamily(Self *self, mlir::Operation *op,
                              Families... families) {
  FamilyResult status;
  ((status = status ? status : (self->*families)(op)), ...);
  return status;
}

} // namespace asc2

#endif
