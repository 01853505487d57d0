//===- Builder.h - State of one kernel's ascendc -> sim::Program build -*- C++ -*-===//
//
// Internal to buildSimProgram. The builder walks a kernel once, in order,
// keeping the register of each scalar and the planned address of each local
// buffer; every op family (scalar code and control flow in
// ProgramBuilder.cpp, then VectorInstrs, ReduceInstrs, DataMovementInstrs, CubeInstrs,
// SyncInstrs; one .cpp each) reads and extends that one state, so they are
// members of one class.
//
//===----------------------------------------------------------------------===//
#ifndef ASC2_LIB_TARGET_SIM_BUILDER_H
#define ASC2_LIB_TARGET_SIM_BUILDER_H

#include "asc2/Analysis/ProgramPoints.h"
#include "asc2/Dialect/AscendC/IR/AscendC.h"
#include "asc2/Target/Sim/ProgramBuilder.h"

#include "llvm/ADT/DenseMap.h"

#include <map>
#include <optional>
#include <string>
#include <tuple>

#include "asc2/Support/OpFamilies.h"

namespace asc2::program_builder {

using namespace mlir;


/// The simulator's element type for `t` (none: not simulated).
std::optional<sim::DType> dtypeOf(Type t);

class Builder {
public:
  Builder(func::FuncOp func) : func(func), points(func) {}
  FailureOr<sim::Program> build();

private:
  struct Local { sim::Space space; int64_t addr; int64_t elems; };

  // --- the walk, registers, scalar code, control flow (ProgramBuilder.cpp) ---
  LogicalResult emitBlock(Block &block);
  LogicalResult emitOp(Operation *op);
  sim::Instr &add(Operation *op, sim::Opcode code, sim::Pipe pipe = sim::Pipe::S);
  FailureOr<sim::Operand> operand(Operation *user, Value v);
  /// The planned buffer `v` (null: not a planned local buffer).
  const Local *local(Value v) const {
    auto it = locals.find(v);
    return it == locals.end() ? nullptr : &it->second;
  }
  int32_t newReg() { return program.numRegs++; }
  void copyReg(Operation *op, sim::Operand from, int32_t to) {
    sim::Instr &in = add(op, sim::Opcode::Scalar);
    in.scalarOp = sim::ScalarOp::Add;
    in.a = from;
    in.b = sim::Operand::ofImm(0);
    in.dst = to;
  }
  /// Copies the yielded values into the registers of `targets` (through
  /// temporaries: a yield may permute loop-carried values).
  LogicalResult yieldInto(scf::YieldOp yield, ValueRange targets) {
    SmallVector<int32_t> temps;
    for (Value v : yield.getOperands()) {
      auto o = operand(yield, v);
      if (failed(o))
        return failure();
      int32_t t = newReg();
      copyReg(yield, *o, t);
      temps.push_back(t);
    }
    for (auto [t, target] : llvm::zip(temps, targets))
      copyReg(yield, sim::Operand::ofReg(t), regs[target]);
    return success();
  }
  /// The scalar of a vector op: an immediate (fimm) for constants, else the
  /// register holding it.
  LogicalResult scalarOperand(Operation *user, Value v, sim::Instr &in);
  int32_t locIndex(Location loc);
  /// arith on scalars, block idx/num, buffer allocation.
  FamilyResult emitScalarFamily(Operation *op);
  /// scf.for / scf.if / scf.yield, func.return.
  FamilyResult emitControlFlowFamily(Operation *op);

  // --- vector pipe (VectorInstrs.cpp) ---
  FamilyResult emitVectorFamily(Operation *op);
  /// A vector-pipe instruction that writes local buffer `dst` and reads
  /// `src` (null: no buffer source), typed by `dst`'s elements unless
  /// `elem` is given; `count` (null: none) goes to operand c.
  FailureOr<sim::Instr *> vectorInstr(Operation *op, sim::Opcode code,
                                      Value dst, Value src, Value count,
                                      Type elem = {});

  // --- Brcb, Copy, GatherMask, UB DataCopy, Transpose (ShapeInstrs.cpp) ---
  FamilyResult emitShapeFamily(Operation *op);
  // --- reductions: WholeReduce, level-0 folds (ReduceInstrs.cpp) ---
  FamilyResult emitReduceFamily(Operation *op);

  // --- GM <-> local copies, scalar access to buffers (DataMovementInstrs.cpp) ---
  FamilyResult emitDataMovementFamily(Operation *op);
  /// 2-D copy fields from the optional rows/stride operands.
  /// A copy `at` a runtime row of its buffer (gather/scatter): the local
  /// offset and the region it moves (Instr::localOffset).
  LogicalResult localRegion(Operation *user, Value at, Value rows,
                            ::asc2::ascendc::LocalType buffer, sim::Instr &in);
  LogicalResult rowsOf(Operation *user, Value rows, Value stride,
                       ascendc::LocalType buffer, sim::Instr &in);
  /// An MTE2 copy from GM argument `gmArg` at element `offset` into the
  /// buffer `dst` of `type`: the fields every such copy sets.
  sim::Instr &gmToLocal(Operation *op, sim::Opcode code, const Local &dst,
                        ascendc::LocalType type, int32_t gmArg, sim::Operand offset);

  // --- cube unit: L1 -> L0, mmad, fixpipe, bias (CubeInstrs.cpp) ---
  FamilyResult emitCubeFamily(Operation *op);
  /// One LoadL1ToL0: the `dst`-shaped sub-tile at (row, col) (or the
  /// runtime `origin`) of the srcRows x srcCols NZ L1 tile `src`, transposed
  /// with `transpose` (LoadData2D's ifTranspose, Load3Dv2's enTranspose).
  mlir::LogicalResult emitLoadL1ToL0(mlir::Operation *op, mlir::Value dst, mlir::Value src,
                                     mlir::ValueRange origin, int64_t row, int64_t col,
                                     int64_t srcRows, int64_t srcCols, bool transpose);

  /// A fixpipe from the L0C tile `src` into the local buffer `dst` (L1, or
  /// on Ascend950 the vector core's UB): converted to dst's element type.
  mlir::LogicalResult emitFixpipeToLocal(mlir::Operation *op, sim::Opcode code, mlir::Value dst,
                                         mlir::Value src, bool relu);

  // --- flags, barriers, buffer ids, cross-core flags (SyncInstrs.cpp) ---
  FamilyResult emitSyncFamily(Operation *op);

  func::FuncOp func;
  /// The second AIV of each group skips the vector work (firstVectorCoreOnly).
  bool firstAivOnly = false;
  ProgramPoints points;
  sim::Program program;
  DenseMap<Value, int32_t> regs;
  DenseMap<Value, int32_t> gmArgs;
  DenseMap<Value, Local> locals;
  std::map<std::tuple<std::string, int, int>, int32_t> locIds;
};

} // namespace asc2::program_builder

#endif
