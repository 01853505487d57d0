//===- FlagSync.h - The set_flag/wait_flag inserter as a library -*- C++ -*-===//
//
// ascendc-insert-sync's rewrite (InsertSync.cpp): the ops of a SyncPlan
// created in the IR. ascendc-insert-buf-id-sync also runs it for the hazards
// buffer ids do not order: GM, scalar-unit accesses, cross-core (MIX) and
// same-pipe barriers.
//
//===----------------------------------------------------------------------===//
#ifndef ASC2_LIB_DIALECT_ASCENDC_TRANSFORMS_FLAGSYNC_H
#define ASC2_LIB_DIALECT_ASCENDC_TRANSFORMS_FLAGSYNC_H

#include "asc2/Analysis/SyncPlan.h"

namespace asc2::ascendc {

struct FlagSyncStats {
  int pairs = 0, barriers = 0;
  int crossCoreIds = 0; // more than SyncPlan::kCrossCoreFlagIds: an error
};

/// Inserts set_flag/wait_flag pairs for the cross-pipe hazards of `func` that
/// `orderedElsewhere` does not claim, and pipe_barriers for same-pipe ones.
FlagSyncStats insertFlagSync(mlir::func::FuncOp func, int64_t eventIds,
                             OrderedElsewhere orderedElsewhere);

/// An error at `func` when the plan needs more cross-core flag ids than a
/// MIX group has.
mlir::LogicalResult checkCrossCoreIds(mlir::func::FuncOp func,
                                      const FlagSyncStats &stats);

} // namespace asc2::ascendc

#endif
