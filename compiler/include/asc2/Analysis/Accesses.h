//===- Accesses.h - What an op reads and writes, for sync insertion -*- C++ -*-===//
//
// The model of buffer accesses shared by the sync plan (ascendc-insert-sync),
// ascendc-insert-buf-id-sync and ascendc-verify-sync: each leaf op with a pipe
// (PipeOpInterface) and buffers (BufferAccessOpInterface) contributes one
// Access per buffer it touches, over a Resource: the planned bytes of a local
// space, or a GM argument.
//
//===----------------------------------------------------------------------===//
#ifndef ASC2_ANALYSIS_ACCESSES_H
#define ASC2_ANALYSIS_ACCESSES_H

#include "asc2/Dialect/AscendC/IR/AscendC.h"

#include <string>

namespace asc2::ascendc {

constexpr int kPipes = 7; // S V M MTE1 MTE2 MTE3 FIX

/// What an access touches: bytes of a planned local space, or a GM argument.
struct Resource {
  mlir::Value value;      // the buffer or the GM argument
  llvm::StringRef space;  // "GM" for global tensors
  int64_t lo = 0, hi = 0; // planned byte range (local only)
  bool planned = false;

  bool isLocal() const { return space != "GM"; }
  bool overlaps(const Resource &o) const {
    if (space != o.space)
      return false;
    if (planned && o.planned)
      return lo < o.hi && o.lo < hi;
    return value == o.value;
  }
};

struct Access {
  Resource res;
  Pipe pipe;
  bool write;
  mlir::Operation *op; // op in the current block (leaf or compound)
  mlir::Operation *leaf;
};

Resource resourceOf(mlir::Value v);
/// The buffer's name, its planned range, or the GM argument ("arg2").
std::string describe(const Resource &r);
/// "line 12" from the op's source location.
std::string lineOf(mlir::Operation *op);
/// Raw Ascend C that names no pipe (asc2.inline): it may use every pipe and
/// buffer, so it has no accesses here and sync insertion fences it instead.
bool usesAnyPipe(mlir::Operation *op);
/// Whether `a` touches the local memory of the other core of a MIX group:
/// Ascend950's fixpipe L0C -> UB (the cube core writes the vector core's UB)
/// and UB -> L1 (the vector core writes the cube core's L1). Only cross-core
/// flags order such an access against the owner's own (no buffer id, no
/// same-core flag reaches across).
bool crossesCores(const Access &a);
/// Leaf accesses of `op` (nested ops for compound ops), attributed to `as`.
void collectAccesses(mlir::Operation *op, mlir::Operation *as,
                     llvm::SmallVectorImpl<Access> &out);

} // namespace asc2::ascendc

#endif
