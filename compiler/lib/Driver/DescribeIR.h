//===- DescribeIR.h - what the report says about the final IR -----*- C++
//-*-===//
//
// Fills a CompileReport from the kernel's final IR: each program point's op,
// pipe, core and source; the buffers and the memory they take; the sync ops
// with their roles. Private to the driver.
//
//===----------------------------------------------------------------------===//
#ifndef ASC2_LIB_DRIVER_DESCRIBEIR_H
#define ASC2_LIB_DRIVER_DESCRIBEIR_H

#include "asc2/Report/CompileReport.h"
#include "asc2/Arch/ArchModel.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Location.h"

namespace asc2 {
/// The kernel source location of `loc` (empty when it has none).
ReportLoc reportLoc(mlir::Location loc);
/// Program points, buffers, memory use and sync of `func` into `report`.
void describeFinalIR(mlir::func::FuncOp func, const ArchModel &arch,
                     CompileReport &report);
} // namespace asc2

#endif
