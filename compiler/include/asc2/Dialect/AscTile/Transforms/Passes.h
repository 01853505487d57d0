//===- Passes.h - asctile passes ------------------------------------*- C++ -*-===//
#ifndef ASC2_DIALECT_ASCTILE_TRANSFORMS_PASSES_H
#define ASC2_DIALECT_ASCTILE_TRANSFORMS_PASSES_H

#include "asc2/Dialect/AscTile/IR/AscTile.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Pass/Pass.h"

namespace asc2::asctile {
/// On a kernel function: its vector cores per cube core (2 after
/// asctile-split-vector-work divided the vector work; absent: 1).
inline constexpr llvm::StringLiteral kVectorCoresAttr = "asctile.vector_cores";
/// On a kernel with `kVectorCoresAttr` = 2 whose vector work was not divided:
/// only the first vector core (sub-block 0) of each group does it, the second
/// follows the cross-core flags and nothing else (Ascend950's L0C -> UB and
/// UB -> L1 connect a cube core with the vector cores of its own AI core,
/// which a MIX_AIC_1_2 kernel has).
inline constexpr llvm::StringLiteral kFirstVectorCoreOnlyAttr = "asctile.first_vector_core_only";
/// On an scf.for: asctile-disjoint-trips proved that no GM byte one trip
/// writes is read or written by another trip (as `asctile.parallel` declares).
inline constexpr llvm::StringLiteral kDisjointTripsAttr = "asctile.disjoint_trips";

#define GEN_PASS_DECL
#include "asc2/Dialect/AscTile/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "asc2/Dialect/AscTile/Transforms/Passes.h.inc"
} // namespace asc2::asctile

#endif
