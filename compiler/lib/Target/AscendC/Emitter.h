//===- Emitter.h - State of one kernel's Ascend C emission ---------*- C++ -*-===//
//
// Internal to emitAscendC. The emitter walks a kernel once, in order, writing
// one C++ statement (or block) per op and keeping the C++ name of each value;
// every op family (scalar code and control flow in EmitAscendC.cpp, then
// VectorCalls, DataMovementCalls, CubeCalls, SyncCalls; one .cpp each) reads
// and extends that one state, so they are members of one class.
//
//===----------------------------------------------------------------------===//
#ifndef ASC2_LIB_TARGET_ASCENDC_EMITTER_H
#define ASC2_LIB_TARGET_ASCENDC_EMITTER_H

#include "asc2/Dialect/AscendC/IR/AscendC.h"
#include "asc2/Target/AscendC/EmitAscendC.h"

#include "llvm/ADT/DenseMap.h"

#include <optional>
#include <string>

#include "asc2/Support/OpFamilies.h"

namespace asc2::ascendc_emitter {

using namespace mlir;


/// A C++ literal for a float that reads back to the same value.
std::string floatLiteral(double v);

/// The "  // line N" comment naming `op`'s source line ("" when unknown).
std::string srcLine(Operation *op);

class Emitter {
public:
  Emitter(raw_ostream &os, bool staticAlloc) : os(os), staticAlloc(staticAlloc) {}
  LogicalResult emitFunc(func::FuncOp func);

private:
  // --- the walk, names, scalar code, control flow (EmitAscendC.cpp) ---
  LogicalResult emitOp(Operation *op);
  LogicalResult emitBlock(Block &block);
  std::string name(Value v);
  std::string cType(Type t);
  raw_ostream &line() {
    os.indent(indent);
    return os;
  }
  /// arith on scalars, block idx/num, buffer allocation.
  FamilyResult emitScalarFamily(Operation *op);
  /// scf.for / scf.if / scf.yield, func.return.
  FamilyResult emitControlFlowFamily(Operation *op);

  // --- vector unit (VectorCalls.cpp) ---
  FamilyResult emitVectorFamily(Operation *op);
  /// Under asc2.mask: the level-0 form of a vector call (`call` up to its
  /// mask argument) between the mask setup and ResetMask; false when `op`
  /// is not masked. Bit masks set the 128-bit lane mask in normal mode and
  /// run whole repeats of `repeatType`; count masks use counter mode.
  bool emitMasked(Operation *op, Type repeatType, ValueRange bits, Value count,
                  const std::string &call, StringRef params);

  // --- Brcb, Copy, DataCopy within UB, Transpose (ShapeCalls.cpp) ---
  FamilyResult emitShapeFamily(Operation *op);

  // --- GM <-> local copies, scalar access to buffers (DataMovementCalls.cpp) ---
  FamilyResult emitDataMovementFamily(Operation *op);

  // --- cube unit: L1 -> L0, mmad, fixpipe, bias (CubeCalls.cpp) ---
  FamilyResult emitCubeFamily(Operation *op);

  // --- flags, barriers, buffer ids, cross-core flags (SyncCalls.cpp) ---
  FamilyResult emitSyncFamily(Operation *op);

  raw_ostream &os;
  bool staticAlloc;
  bool mix = false; // MIX kernel: core-specific ops run under ASCEND_IS_AIC/AIV
  unsigned indent = 2;
  llvm::DenseMap<Value, std::string> names;
  unsigned counter = 0;
};

} // namespace asc2::ascendc_emitter

#endif
