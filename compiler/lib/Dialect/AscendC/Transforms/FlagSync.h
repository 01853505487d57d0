//===- FlagSync.h - The set_flag/wait_flag inserter as a library -*- C++ -*-===//
//
// The algorithm of ascendc-insert-sync (InsertSync.cpp), also run by
// ascendc-insert-buf-id-sync for the hazards buffer ids do not order: GM,
// scalar-unit accesses, cross-core (MIX) and same-pipe barriers.
//
//===----------------------------------------------------------------------===//
#ifndef ASC2_LIB_DIALECT_ASCENDC_TRANSFORMS_FLAGSYNC_H
#define ASC2_LIB_DIALECT_ASCENDC_TRANSFORMS_FLAGSYNC_H

#include "Accesses.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace asc2::ascendc {

struct FlagSyncStats {
  int pairs = 0, barriers = 0;
};

/// Orders `later` after `earlier` (a cross-pipe hazard) by other means, so
/// no flag is needed for it.
using OrderedElsewhere =
    llvm::function_ref<bool(const Access &later, const Access &earlier)>;

/// Inserts set_flag/wait_flag pairs for the cross-pipe hazards of `func` that
/// `orderedElsewhere` does not claim, and pipe_barriers for same-pipe ones.
FlagSyncStats insertFlagSync(mlir::func::FuncOp func, int64_t eventIds,
                             OrderedElsewhere orderedElsewhere);

} // namespace asc2::ascendc

#endif
