//===- Emitter.h - State of one kernel's Ascend C emission ---------*- C++ -*-===//
//
// Internal to emitAscendC. The emitter walks a kernel once, in order, writing
// one C++ statement (or block) per op and keeping the C++ name of each value;
// every op family (scalar code and control flow in EmitAscendC.cpp, then
// VectorCalls, ReduceCalls, DataMovementCalls, CubeCalls, SyncCalls,
// InlineCode; one .cpp each) reads
// and extends that one state, so they are members of one class.
//
//===----------------------------------------------------------------------===//
#ifndef ASC2_LIB_TARGET_ASCENDC_EMITTER_H
#define ASC2_LIB_TARGET_ASCENDC_EMITTER_H

#include "asc2/Dialect/AscendC/IR/AscendC.h"
#include "asc2/Target/AscendC/EmitAscendC.h"

#include "llvm/ADT/DenseMap.h"

#include <map>
#include <optional>
#include <tuple>
#include <string>

#include "asc2/Support/OpFamilies.h"

namespace asc2::ascendc_emitter {

using namespace mlir;


/// The "  // line N" comment naming `op`'s source line ("" when unknown).
std::string srcLine(Operation *op);
/// The FixpipeConfig of an L0C -> UB Fixpipe, defined once before the kernel.
constexpr llvm::StringLiteral kFixpipeToUbConfig = "ASC2_CFG_ROW_MAJOR_UB";

class Emitter {
public:
  /// `socVersion`: "c220" (A2/A3) or "c310" (Ascend950), the cube recipe.
  Emitter(raw_ostream &os, bool staticAlloc, StringRef socVersion)
      : os(os), staticAlloc(staticAlloc), c310(socVersion == "c310") {}
  LogicalResult emitFunc(func::FuncOp func);

private:
  // --- the walk, names, scalar code, control flow (EmitAscendC.cpp) ---
  LogicalResult emitOp(Operation *op);
  LogicalResult emitBlock(Block &block);
  std::string name(Value v);
  std::string cType(Type t);
  /// The element type of a LocalTensor/GlobalTensor holding `t`: a bool
  /// buffer is a uint8_t bit mask, a bool GM tensor one uint8_t per element.
  std::string storageType(Type t) { return t.isInteger(1) ? "uint8_t" : cType(t); }
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
  /// ceil(count * mul / div), folded when count is a constant.
  std::string scaledCount(Value count, int64_t mul, int64_t div);
  /// count rounded up to a multiple of `multiple`.
  std::string alignedCount(Value count, int64_t multiple);
  /// A bit operation's operand and count on a uint16_t view of the buffer.
  std::string bitwiseOperand(Value v);
  std::string bitwiseCount(Value count, Type elem);
  /// Under asc2.mask: the level-0 form of a vector call (`call` up to its
  /// mask argument) between the mask setup and ResetMask; false when `op`
  /// is not masked. Bit masks set the 128-bit lane mask in normal mode and
  /// run whole repeats of `repeatType`; count masks use counter mode.
  bool emitMasked(Operation *op, Type repeatType, ValueRange bits, Value count,
                  const std::string &call, StringRef params);

  // --- Brcb, Copy, GatherMask, UB DataCopy, Transpose (ShapeCalls.cpp) ---
  FamilyResult emitShapeFamily(Operation *op);
  // --- reductions: WholeReduce*, level-0 folds (ReduceCalls.cpp) ---
  FamilyResult emitReduceFamily(Operation *op);
  /// `buffer[offset]` (just the name at offset 0).
  std::string slice(Value buffer, int64_t offset);

  // --- GM <-> local copies, scalar access to buffers (DataMovementCalls.cpp) ---
  FamilyResult emitDataMovementFamily(Operation *op);

  // --- cube unit: L1 -> L0, mmad, fixpipe, bias (CubeCalls.cpp) ---
  FamilyResult emitCubeFamily(Operation *op);
  /// FixpipeParamsV220 (c220) / FixpipeParamsArch3510<layout> (c310).
  std::string fixpipeParams(StringRef layout) const;

  // --- flags, barriers, buffer ids, cross-core flags (SyncCalls.cpp) ---
  FamilyResult emitSyncFamily(Operation *op);
  /// Under a TPipe: one TEventID per (pipe pair, planned id) from
  /// TPipe::AllocEventID, named in `eventNames` (SyncCalls.cpp).
  void emitEventAllocs(func::FuncOp func);
  /// ... and their ReleaseEventID before the kernel returns.
  void emitEventReleases();
  /// The eventID argument of a SetFlag/WaitFlag: the TEventID variable under
  /// a TPipe, the planned id itself in static-tensor code.
  std::string eventArg(Pipe src, Pipe dst, int64_t event);

  // --- the kernel author's Ascend C: asc2.inline, inline_vf (InlineCode.cpp) ---
  FamilyResult emitInlineCodeFamily(Operation *op);
  /// The code of `op` with each `$N` replaced by the C++ name of operand N.
  std::string inlineCodeText(ascendc::InlineCodeOpInterface op);
  /// `code` line by line at the current indentation (its own common
  /// indentation removed, blank first and last lines dropped).
  void writeCodeLines(StringRef code);
  /// The before_function code of `func`, at file scope: each text once.
  void emitFileScopeCode(func::FuncOp func);

  raw_ostream &os;
  bool staticAlloc;
  bool c310; // Ascend950: LoadData2DParamsV2, FixpipeParamsArch3510
  /// (src, dst, planned id) -> TEventID variable (TPipe kernels only).
  std::map<std::tuple<Pipe, Pipe, int64_t>, std::string> eventNames;
  bool tpipe = false; // a TPipe owns the buffers (and the event ids)
  bool mix = false; // MIX kernel: core-specific ops run under ASCEND_IS_AIC/AIV
  int vectorCores = 1; // AIVs per group (2: KERNEL_TYPE_MIX_AIC_1_2)
  bool firstAivOnly = false; // the second AIV only follows the cross-core flags
  unsigned indent = 2;
  llvm::DenseMap<Value, std::string> names;
  unsigned counter = 0;
};

} // namespace asc2::ascendc_emitter

#endif
