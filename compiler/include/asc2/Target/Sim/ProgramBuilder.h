//===- ProgramBuilder.h - final ascendc IR to a simulator Program --*- C++ -*-===//
#ifndef ASC2_TARGET_SIM_PROGRAMBUILDER_H
#define ASC2_TARGET_SIM_PROGRAMBUILDER_H

#include "asc2/Sim/Program.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace asc2 {
/// Translates a planned and synchronised kernel once into the simulator's
/// compact form. Ops it cannot execute are reported as errors at their
/// location.
mlir::FailureOr<sim::Program> buildSimProgram(mlir::func::FuncOp func);

/// The file:line:col of a location (through fused/name/callsite wrappers).
std::optional<sim::SourceLoc> sourceLocOf(mlir::Location loc);
} // namespace asc2

#endif
