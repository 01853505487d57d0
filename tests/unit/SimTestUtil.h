//===- SimTestUtil.h - Hand-built simulator programs for the tests --------===//
#ifndef ASC2_TESTS_UNIT_SIMTESTUTIL_H
#define ASC2_TESTS_UNIT_SIMTESTUTIL_H

#include "asc2/Arch/ArchModel.h"
#include "asc2/Sim/Program.h"
#include "asc2/Sim/Simulator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace asc2::sim::test {

inline ArchModel loadArch(const std::string &platform = "Ascend910B1") {
  std::string error;
  std::optional<ArchModel> arch =
      ArchModel::load(ASC2_RESOURCES_DIR "/arch", platform, error);
  EXPECT_TRUE(arch.has_value()) << error;
  return arch.value_or(ArchModel{});
}

/// The platform without launch, block dispatch and tail costs: for tests
/// that hand-compute a block's pipe timing (the overheads have their own
/// tests in SimMemorySystemTest).
inline ArchModel loadArchWithoutLaunchCosts(const std::string &platform = "Ascend910B1") {
  ArchModel arch = loadArch(platform);
  arch.launchCycles = arch.blockStartCycles = arch.blockEndCycles = 0;
  return arch;
}

/// The cycles a copy of `bytes` holds its pipe at `bytesPerCycle`: its
/// transfer, and at least the DMA's per-request interval (CoreRunner.h).
inline uint64_t copyOccupancy(const ArchModel &arch, double bytes, double bytesPerCycle) {
  return uint64_t(std::ceil(std::max(arch.mteIssueCycles, bytes / bytesPerCycle)));
}

/// Appends instructions with a fresh program point and a kernel.py line each.
class ProgramBuilder {
public:
  Program program;
  /// Instr::cores of the instructions emitted next (MIX kernels).
  uint8_t cores = Instr::kBothCores;

  int reg() { return program.numRegs++; }
  int32_t pc() const { return int32_t(program.code.size()); }

  Instr &emit(Instr in, const std::string &name, int line) {
    in.cores = cores;
    in.point = int32_t(program.pointNames.size());
    program.pointNames.push_back(name);
    in.loc = int32_t(program.locs.size());
    program.locs.push_back({"kernel.py", line, 5});
    program.code.push_back(in);
    return program.code.back();
  }

  int constI(int64_t v) {
    Instr in;
    in.op = Opcode::ConstI;
    in.dst = reg();
    in.a = Operand::ofImm(v);
    emit(in, "arith.constant", 1);
    return in.dst;
  }
  int argI(int index) {
    Instr in;
    in.op = Opcode::ArgI;
    in.dst = reg();
    in.argIndex = index;
    emit(in, "ascendc.get_arg", 1);
    return in.dst;
  }
  int special(Opcode op) {
    Instr in;
    in.op = op;
    in.dst = reg();
    emit(in, op == Opcode::BlockIdx      ? "ascendc.get_block_idx"
             : op == Opcode::SubBlockIdx ? "ascendc.get_sub_block_idx"
                                         : "ascendc.get_block_num",
         2);
    return in.dst;
  }
  int scalar(ScalarOp op, Operand a, Operand b, int dst = -1) {
    Instr in;
    in.op = Opcode::Scalar;
    in.scalarOp = op;
    in.dst = dst >= 0 ? dst : reg();
    in.a = a;
    in.b = b;
    emit(in, "arith.op", 3);
    return in.dst;
  }
  /// Emits a branch with an unknown target; returns its pc for patching.
  int32_t branchIfZero(int reg) {
    Instr in;
    in.op = Opcode::BranchIfZero;
    in.a = Operand::ofReg(reg);
    emit(in, "scf.for", 4);
    return pc() - 1;
  }
  void jump(int32_t target) {
    Instr in;
    in.op = Opcode::Jump;
    in.target = target;
    emit(in, "scf.yield", 4);
  }
  void patch(int32_t branchPc, int32_t target) {
    program.code[branchPc].target = target;
  }
  /// The fields every MTE2 copy from GM into a local space sets.
  static Instr gmToLocal(Opcode op, DType t, int gmArg, Operand offset, Space space, int64_t addr) {
    Instr in;
    in.op = op;
    in.pipe = Pipe::MTE2;
    in.dtype = t;
    in.gmArg = gmArg;
    in.a = offset;
    in.dstSpace = space;
    in.dstAddr = addr;
    return in;
  }
  void copyIn(int gmArg, DType t, Operand offset, Operand count, int64_t ubAddr,
              int line, int64_t tileElems = 0, bool pad = false,
              double padValue = 0) {
    Instr in = gmToLocal(Opcode::CopyGmToLocal, t, gmArg, offset, Space::UB, ubAddr);
    in.b = count;
    in.tileElems = tileElems;
    in.hasPad = pad;
    in.fimm = padValue;
    emit(in, "ascendc.data_copy", line);
  }
  /// CopyGmToLocalNd: `loops` outermost first, padded with `padValue`.
  void copyInNd(int gmArg, DType t, Operand offset, std::vector<NdCopyLoop> loops,
                int64_t ubAddr, double padValue, int line) {
    Instr in = gmToLocal(Opcode::CopyGmToLocalNd, t, gmArg, offset, Space::UB, ubAddr);
    in.hasPad = true;
    in.fimm = padValue;
    in.ndCopy = int32_t(program.ndCopies.size());
    program.ndCopies.push_back(std::move(loops));
    emit(in, "ascendc.data_copy_nd", line);
  }
  void copyOut(int gmArg, DType t, Operand offset, Operand count,
               int64_t ubAddr, int line) {
    Instr in;
    in.op = Opcode::CopyLocalToGm;
    in.pipe = Pipe::MTE3;
    in.dtype = t;
    in.gmArg = gmArg;
    in.a = offset;
    in.b = count;
    in.srcSpace = Space::UB;
    in.src0Addr = ubAddr;
    emit(in, "ascendc.data_copy", line);
  }
  static bool isBinary(VecOp op) {
    return op <= VecOp::Min || (op >= VecOp::And && op <= VecOp::Shr);
  }
  void vec(VecOp op, DType t, int64_t dst, int64_t a, int64_t b, Operand count,
           int line) {
    Instr in;
    in.op = isBinary(op) ? Opcode::VecBinary : Opcode::VecUnary;
    in.pipe = Pipe::V;
    in.vecOp = op;
    in.dtype = t;
    in.dstSpace = in.srcSpace = Space::UB;
    in.dstAddr = dst;
    in.src0Addr = a;
    in.src1Addr = b;
    in.c = count;
    emit(in, in.op == Opcode::VecBinary ? "ascendc.binary" : "ascendc.unary",
         line);
  }
  void dup(DType t, int64_t dst, double value, Operand count, int line) {
    Instr in;
    in.op = Opcode::VecDup;
    in.pipe = Pipe::V;
    in.dtype = t;
    in.dstSpace = Space::UB;
    in.dstAddr = dst;
    in.fimm = value;
    in.c = count;
    emit(in, "ascendc.duplicate", line);
  }
  /// A vector instruction on UB with the common fields set.
  Instr vecInstr(Opcode op, DType t, int64_t dst, int64_t a, Operand count) {
    Instr in;
    in.op = op;
    in.pipe = Pipe::V;
    in.dtype = t;
    in.dstSpace = in.srcSpace = Space::UB;
    in.dstAddr = dst;
    in.src0Addr = a;
    in.c = count;
    return in;
  }
  /// dst = op(a, scalar), or op(scalar, a) when scalarFirst. The scalar is
  /// `scalarReg` when >= 0, else `value`.
  void vecScalar(VecOp op, DType t, int64_t dst, int64_t a, double value,
                 Operand count, int line, bool scalarFirst = false,
                 int scalarReg = -1) {
    Instr in = vecInstr(Opcode::VecScalar, t, dst, a, count);
    in.vecOp = op;
    in.fimm = value;
    in.scalar.reg = scalarReg;
    in.scalarFirst = scalarFirst;
    emit(in, "ascendc.vec_scalar", line);
  }
  void cast(DType to, DType from, RoundMode mode, int64_t dst, int64_t src,
            Operand count, int line) {
    Instr in = vecInstr(Opcode::VecCast, to, dst, src, count);
    in.srcDtype = from;
    in.roundMode = mode;
    emit(in, "ascendc.cast", line);
  }
  /// Compares a with b, or with the scalar (`value` / `scalarReg`) when
  /// scalarRhs.
  void compare(CmpMode mode, DType t, int64_t dst, int64_t a, int64_t b,
               Operand count, int line, bool scalarRhs = false,
               double value = 0, int scalarReg = -1) {
    Instr in = vecInstr(Opcode::VecCompare, t, dst, a, count);
    in.cmpMode = mode;
    in.src1Addr = b;
    in.scalarRhs = scalarRhs;
    in.fimm = value;
    in.scalar.reg = scalarReg;
    emit(in, "ascendc.compare", line);
  }
  void select(DType t, int64_t dst, int64_t mask, int64_t a, int64_t b,
              Operand count, int line, bool scalarRhs = false,
              double value = 0, int scalarReg = -1) {
    Instr in = vecInstr(Opcode::VecSelect, t, dst, a, count);
    in.maskAddr = mask;
    in.src1Addr = b;
    in.scalarRhs = scalarRhs;
    in.fimm = value;
    in.scalar.reg = scalarReg;
    emit(in, "ascendc.select", line);
  }
  /// WholeReduce<kind>(dst, src, mask, repeat, dstRepStride, srcBlkStride,
  /// srcRepStride, order).
  void wholeReduce(ReduceKind kind, DType t, int64_t dst, int64_t src,
                   int64_t mask, int64_t repeat, int64_t dstRep, int64_t srcBlk,
                   int64_t srcRep, int line,
                   ReduceOrder order = ReduceOrder::ValueIndex) {
    Instr in = vecInstr(Opcode::VecWholeReduce, t, dst, src, Operand::ofImm(0));
    in.reduceKind = kind;
    in.reduceOrder = order;
    in.mask = mask;
    in.repeat = repeat;
    in.repStride[0] = dstRep;
    in.blkStride[1] = srcBlk;
    in.repStride[1] = srcRep;
    emit(in, "ascendc.whole_reduce", line);
  }
  /// Level-0 op(dst, a, b, mask, repeat, BinaryRepeatParams{p...}).
  void binaryRepeat(VecOp op, DType t, int64_t dst, int64_t a, int64_t b,
                    int64_t mask, int64_t repeat, std::vector<int64_t> p,
                    int line) {
    Instr in = vecInstr(Opcode::VecBinaryRepeat, t, dst, a, Operand::ofImm(0));
    in.vecOp = op;
    in.src1Addr = b;
    in.mask = mask;
    in.repeat = repeat;
    for (int k = 0; k < 3; ++k) {
      in.blkStride[k] = p[size_t(k)];
      in.repStride[k] = p[size_t(3 + k)];
    }
    emit(in, "ascendc.binary_repeat", line);
  }
  /// Brcb(dst, src, repeats, BrcbRepeatParams{dstBlk, dstRep}).
  void brcb(DType t, int64_t dst, int64_t src, int64_t repeats, int64_t dstBlk,
            int64_t dstRep, int line) {
    Instr in = vecInstr(Opcode::VecBrcb, t, dst, src, Operand::ofImm(0));
    in.repeat = repeats;
    in.blkStride[0] = dstBlk;
    in.repStride[0] = dstRep;
    emit(in, "ascendc.brcb", line);
  }
  /// Copy(dst, src, mask, repeats, CopyRepeatParams{dstBlk, srcBlk, dstRep,
  /// srcRep}).
  void copy(DType t, int64_t dst, int64_t src, int64_t mask, int64_t repeats,
            int64_t dstBlk, int64_t srcBlk, int64_t dstRep, int64_t srcRep,
            int line) {
    Instr in = vecInstr(Opcode::VecCopy, t, dst, src, Operand::ofImm(0));
    in.mask = mask;
    in.repeat = repeats;
    in.blkStride[0] = dstBlk;
    in.blkStride[1] = srcBlk;
    in.repStride[0] = dstRep;
    in.repStride[1] = srcRep;
    emit(in, "ascendc.copy", line);
  }
  /// GatherMask(dst, src, pattern, reduceMode, mask, GatherMaskParams{srcBlk,
  /// repeats, srcRep, src1Rep}): `elems` elements a repeat (256 bytes in
  /// normal mode, the counter-mode mask), built-in pattern `builtin` or, when
  /// 0, the bits at UB byte `patternAddr`.
  void gatherMask(DType t, int64_t dst, int64_t src, int64_t builtin,
                  int64_t patternAddr, int64_t elems, int64_t repeats,
                  int64_t srcBlk, int64_t srcRep, int64_t src1Rep, int line) {
    Instr in = vecInstr(Opcode::VecGatherMask, t, dst, src, Operand::ofImm(0));
    in.gatherPattern = builtin;
    in.src1Addr = patternAddr;
    in.mask = elems;
    in.repeat = repeats;
    in.blkStride[1] = srcBlk;
    in.repStride[1] = srcRep;
    in.repStride[2] = src1Rep;
    emit(in, "ascendc.gather_mask", line);
  }
  int argF(int index) {
    Instr in;
    in.op = Opcode::ArgF;
    in.dst = reg();
    in.argIndex = index;
    emit(in, "ascendc.get_arg", 1);
    return in.dst;
  }
  /// r = UB element `index` of the tile at `addr`.
  int loadLocal(DType t, int64_t addr, Operand index, int line) {
    Instr in;
    in.op = Opcode::ScalarLoadLocal;
    in.dtype = t;
    in.dst = reg();
    in.srcSpace = Space::UB;
    in.src0Addr = addr;
    in.a = index;
    emit(in, "ascendc.get_value", line);
    return in.dst;
  }
  /// UB element `index` of the tile at `addr` = register `value` (or fimm).
  void storeLocal(DType t, int64_t addr, Operand index, int valueReg,
                  double fimm, int line) {
    Instr in;
    in.op = Opcode::ScalarStoreLocal;
    in.dtype = t;
    in.dstSpace = Space::UB;
    in.dstAddr = addr;
    in.a = index;
    in.scalar.reg = valueReg;
    in.fimm = fimm;
    emit(in, "ascendc.set_value", line);
  }
  int loadGm(int gmArg, DType t, Operand index, int line) {
    Instr in;
    in.op = Opcode::ScalarLoadGm;
    in.dtype = t;
    in.dst = reg();
    in.gmArg = gmArg;
    in.a = index;
    emit(in, "ascendc.gm_get_value", line);
    return in.dst;
  }
  void storeGm(int gmArg, DType t, Operand index, int valueReg, double fimm,
               int line) {
    Instr in;
    in.op = Opcode::ScalarStoreGm;
    in.dtype = t;
    in.gmArg = gmArg;
    in.a = index;
    in.scalar.reg = valueReg;
    in.fimm = fimm;
    emit(in, "ascendc.gm_set_value", line);
  }
  /// rows x cols from GM (rows gmStride apart) into a UB tile whose rows are
  /// localStride apart; pads to localStride x tileRows when `pad`.
  void copyIn2d(int gmArg, DType t, Operand offset, Operand rows, Operand cols,
                Operand gmStride, int64_t ubAddr, int64_t localStride,
                int64_t tileRows, bool pad, double padValue, int line) {
    Instr in;
    in.op = Opcode::CopyGmToLocal;
    in.pipe = Pipe::MTE2;
    in.dtype = t;
    in.gmArg = gmArg;
    in.a = offset;
    in.b = cols;
    in.rows = rows;
    in.gmRowStride = gmStride;
    in.localRowStride = localStride;
    in.tileRows = tileRows;
    in.tileElems = localStride * tileRows;
    in.dstSpace = Space::UB;
    in.dstAddr = ubAddr;
    in.hasPad = pad;
    in.fimm = padValue;
    emit(in, "ascendc.data_copy_pad", line);
  }
  void copyOut2d(int gmArg, DType t, Operand offset, Operand rows,
                 Operand cols, Operand gmStride, int64_t ubAddr,
                 int64_t localStride, int line,
                 AtomicKind atomic = AtomicKind::None) {
    Instr in;
    in.op = Opcode::CopyLocalToGm;
    in.pipe = Pipe::MTE3;
    in.dtype = t;
    in.gmArg = gmArg;
    in.a = offset;
    in.b = cols;
    in.rows = rows;
    in.gmRowStride = gmStride;
    in.localRowStride = localStride;
    in.srcSpace = Space::UB;
    in.src0Addr = ubAddr;
    in.atomic = atomic;
    emit(in, "ascendc.data_copy_pad", line);
  }
  void flag(Opcode op, Pipe src, Pipe dst, int id, int line) {
    Instr in;
    in.op = op;
    in.pipe = op == Opcode::SetFlag ? src : dst;
    in.flagSrc = src;
    in.flagDst = dst;
    in.eventId = uint8_t(id);
    emit(in, op == Opcode::SetFlag ? "ascendc.set_flag" : "ascendc.wait_flag",
         line);
  }
  void set(Pipe src, Pipe dst, int id, int line = 20) {
    flag(Opcode::SetFlag, src, dst, id, line);
  }
  void wait(Pipe src, Pipe dst, int id, int line = 21) {
    flag(Opcode::WaitFlag, src, dst, id, line);
  }
  /// get_buf / rls_buf of buffer id `id` on `pipe`.
  void getBuf(Pipe pipe, int id, int line = 22) {
    Instr in;
    in.op = Opcode::GetBuf;
    in.pipe = pipe;
    in.eventId = uint8_t(id);
    emit(in, "ascendc.get_buf", line);
  }
  void rlsBuf(Pipe pipe, int id, int line = 23) {
    Instr in;
    in.op = Opcode::RlsBuf;
    in.pipe = pipe;
    in.eventId = uint8_t(id);
    emit(in, "ascendc.rls_buf", line);
  }
  void end() {
    Instr in;
    in.op = Opcode::End;
    uint8_t saved = cores;
    cores = Instr::kBothCores;
    emit(in, "func.return", 99);
    cores = saved;
  }

  // --- cube path ---
  /// GM ND rows x cols (rows gmStride apart) -> L1 NZ tile tileRows x
  /// tileCols at l1Addr.
  void copyToL1(int gmArg, DType t, Operand offset, Operand rows, Operand cols,
                Operand gmStride, int64_t l1Addr, int64_t tileRows,
                int64_t tileCols, int line) {
    Instr in = gmToLocal(Opcode::CopyGmToL1Nz, t, gmArg, offset, Space::L1, l1Addr);
    in.b = cols;
    in.rows = rows;
    in.gmRowStride = gmStride;
    in.tileRows = tileRows;
    in.tileCols = tileCols;
    emit(in, "ascendc.data_copy_nd2nz", line);
  }
  /// L1 NZ tile -> L0A (ZZ) or L0B (ZN).
  void loadL0(Space dst, DType t, int64_t l1Addr, int64_t dstAddr,
              int64_t tileRows, int64_t tileCols, int line) {
    Instr in;
    in.op = Opcode::LoadL1ToL0;
    in.pipe = Pipe::MTE1;
    in.dtype = t;
    in.srcSpace = Space::L1;
    in.src0Addr = l1Addr;
    in.dstSpace = dst;
    in.dstAddr = dstAddr;
    in.tileRows = tileRows;
    in.tileCols = tileCols;
    emit(in, "ascendc.load_data", line);
  }
  /// L0C[l0c] (m x n) = (init ? 0 : L0C) + L0A[a] (m x k) * L0B[b] (k x n).
  void mmad(DType input, int64_t l0c, int64_t a, int64_t b, int64_t m,
            int64_t k, int64_t n, Operand init, int line) {
    Instr in;
    in.op = Opcode::Mmad;
    in.pipe = Pipe::M;
    in.srcDtype = input;
    in.dtype = input == DType::I8 ? DType::I32 : DType::F32;
    in.dstAddr = l0c;
    in.src0Addr = a;
    in.src1Addr = b;
    in.a = Operand::ofImm(m);
    in.b = Operand::ofImm(k);
    in.c = Operand::ofImm(n);
    in.init = init;
    emit(in, "ascendc.mmad", line);
  }
  /// L0C NZ tile (tileRows x tileCols of srcT) -> GM rows x cols of gmT.
  void fixpipe(int gmArg, DType gmT, DType srcT, Operand offset, Operand rows,
               Operand cols, Operand gmStride, int64_t l0cAddr,
               int64_t tileRows, int64_t tileCols, int line, bool relu = false,
               AtomicKind atomic = AtomicKind::None) {
    Instr in;
    in.op = Opcode::FixpipeToGm;
    in.pipe = Pipe::FIX;
    in.dtype = gmT;
    in.srcDtype = srcT;
    in.gmArg = gmArg;
    in.a = offset;
    in.b = cols;
    in.rows = rows;
    in.gmRowStride = gmStride;
    in.srcSpace = Space::L0C;
    in.src0Addr = l0cAddr;
    in.tileRows = tileRows;
    in.tileCols = tileCols;
    in.relu = relu;
    in.atomic = atomic;
    emit(in, "ascendc.fixpipe", line);
  }
  /// Ascend950, on the AIC: the L0C NZ tile (tileRows x tileCols of srcT),
  /// or its `rows` rows from `row0` (a multiple of 16; rows 0: all of them),
  /// -> ND rows of dstT in the UB of AIV 0 at ubAddr (dual: half the moved
  /// rows to each AIV).
  void fixpipeToUb(DType dstT, DType srcT, int64_t l0cAddr, int64_t tileRows,
                   int64_t tileCols, int64_t ubAddr, int line, bool dual = false,
                   int64_t row0 = 0, int64_t rows = 0) {
    Instr in;
    in.op = Opcode::FixpipeToUb;
    in.pipe = Pipe::FIX;
    in.dtype = dstT;
    in.srcDtype = srcT;
    in.srcSpace = Space::L0C;
    in.src0Addr = l0cAddr;
    in.dstSpace = Space::UB;
    in.dstAddr = ubAddr;
    in.tileRows = tileRows;
    in.tileCols = tileCols;
    in.dual = dual;
    in.a = Operand::ofImm(row0);
    in.rows = Operand::ofImm(rows ? rows : tileRows);
    emit(in, "ascendc.fixpipe_ub", line);
  }
  /// Ascend950, on an AIV: `rows` rows of tileCols elements (rows ubStride
  /// apart, from element `offset` of the UB buffer at ubAddr) -> the NZ
  /// tile tileRows x tileCols in the AIC's L1 at l1Addr, from row `row0`.
  void copyUbToL1(DType t, int64_t ubAddr, Operand offset, int64_t ubStride, int64_t rows,
                  int64_t l1Addr, int64_t tileRows, int64_t tileCols, Operand row0, int line) {
    Instr in;
    in.op = Opcode::CopyUbToL1;
    in.pipe = Pipe::MTE3;
    in.dtype = in.srcDtype = t;
    in.srcSpace = Space::UB;
    in.src0Addr = ubAddr;
    in.a = offset;
    in.b = row0;
    in.localRowStride = ubStride;
    in.rows = Operand::ofImm(rows);
    in.dstSpace = Space::L1;
    in.dstAddr = l1Addr;
    in.tileRows = tileRows;
    in.tileCols = tileCols;
    emit(in, "ascendc.copy_ub_to_l1", line);
  }
  /// Cross-core flag on `pipe`, run by `side` (Instr::kAicCore / kAivCore).
  void crossCore(Opcode op, Pipe pipe, int id, uint8_t side, int line) {
    Instr in;
    in.op = op;
    in.pipe = pipe;
    in.eventId = uint8_t(id);
    uint8_t saved = cores;
    cores = side;
    emit(in, op == Opcode::CrossCoreSetFlag ? "ascendc.cross_core_set_flag"
                                            : "ascendc.cross_core_wait_flag",
         line);
    cores = saved;
  }
};

struct VaddOptions {
  DType dtype = DType::F32;
  VecOp op = VecOp::Add;
  int64_t tile = 1024;        // elements per tile
  bool doubleBuffer = false;
  bool pad = false;           // pad partial tiles and compute whole tiles
  bool dropWaitMte2ToV = false;
  bool dropWaitVToMte3 = false;
  /// Buffer-id sync (Ascend950) instead of flags: per slot, x, y and z each
  /// have an id taken around every access.
  bool bufIds = false;
  bool dropGetBufOfVOnX = false; // the add reads x without its id
};

/// z = x <op> y over n elements split evenly over the blocks, in tiles, with
/// the set/wait flags a compiler would insert. Arguments: x, y, z, n.
/// Source lines: copy x 10, copy y 11, vector 12, copy z 13.
inline Program makeVadd(const VaddOptions &o) {
  ProgramBuilder b;
  Program &p = b.program;
  p.kernelName = "vadd";
  for (const char *name : {"x", "y", "z"})
    p.args.push_back({ArgSpec::Kind::Gm, o.dtype, name});
  p.args.push_back({ArgSpec::Kind::Int, DType::I64, "n"});

  const int64_t w = byteWidth(o.dtype);
  const int64_t tileBytes = o.tile * w;
  const int slots = o.doubleBuffer ? 2 : 1;
  auto R = Operand::ofReg;
  auto I = Operand::ofImm;

  int n = b.argI(3);
  int blk = b.special(Opcode::BlockIdx);
  int nblk = b.special(Opcode::BlockNum);
  int per = b.scalar(ScalarOp::CeilDivS, R(n), R(nblk));
  int start = b.scalar(ScalarOp::Mul, R(blk), R(per));
  int end0 = b.scalar(ScalarOp::Add, R(start), R(per));
  int end = b.scalar(ScalarOp::MinS, R(end0), R(n));
  int off = b.scalar(ScalarOp::Add, R(start), I(0));
  int cond = b.reg(), rem = b.reg(), cnt = b.reg();
  for (int s = 0; s < slots && !o.bufIds; ++s) {
    b.set(Pipe::V, Pipe::MTE2, s);
    b.set(Pipe::MTE3, Pipe::V, s);
  }

  std::vector<int32_t> exits;
  auto tile = [&](int s) {
    int64_t xAddr = s * 3 * tileBytes, yAddr = xAddr + tileBytes,
            zAddr = yAddr + tileBytes;
    b.scalar(ScalarOp::CmpLT, R(off), R(end), cond);
    exits.push_back(b.branchIfZero(cond));
    b.scalar(ScalarOp::Sub, R(end), R(off), rem);
    b.scalar(ScalarOp::MinS, R(rem), I(o.tile), cnt);
    if (o.bufIds) {
      const int x = 3 * s, y = x + 1, z = x + 2;
      b.getBuf(Pipe::MTE2, x);
      b.copyIn(0, o.dtype, R(off), R(cnt), xAddr, 10, o.tile, o.pad, 0.0);
      b.rlsBuf(Pipe::MTE2, x);
      b.getBuf(Pipe::MTE2, y);
      b.copyIn(1, o.dtype, R(off), R(cnt), yAddr, 11, o.tile, o.pad, 1.0);
      b.rlsBuf(Pipe::MTE2, y);
      if (!o.dropGetBufOfVOnX)
        b.getBuf(Pipe::V, x);
      b.getBuf(Pipe::V, y);
      b.getBuf(Pipe::V, z);
      b.vec(o.op, o.dtype, zAddr, xAddr, yAddr, o.pad ? I(o.tile) : R(cnt), 12);
      b.rlsBuf(Pipe::V, z);
      b.rlsBuf(Pipe::V, y);
      if (!o.dropGetBufOfVOnX)
        b.rlsBuf(Pipe::V, x);
      b.getBuf(Pipe::MTE3, z);
      b.copyOut(2, o.dtype, R(off), R(cnt), zAddr, 13);
      b.rlsBuf(Pipe::MTE3, z);
      b.scalar(ScalarOp::Add, R(off), I(o.tile), off);
      return;
    }
    b.wait(Pipe::V, Pipe::MTE2, s);
    b.copyIn(0, o.dtype, R(off), R(cnt), xAddr, 10, o.tile, o.pad, 0.0);
    b.copyIn(1, o.dtype, R(off), R(cnt), yAddr, 11, o.tile, o.pad, 1.0);
    b.set(Pipe::MTE2, Pipe::V, s);
    if (!o.dropWaitMte2ToV)
      b.wait(Pipe::MTE2, Pipe::V, s);
    b.wait(Pipe::MTE3, Pipe::V, s);
    b.vec(o.op, o.dtype, zAddr, xAddr, yAddr, o.pad ? I(o.tile) : R(cnt), 12);
    b.set(Pipe::V, Pipe::MTE2, s);
    b.set(Pipe::V, Pipe::MTE3, s);
    if (!o.dropWaitVToMte3)
      b.wait(Pipe::V, Pipe::MTE3, s);
    b.copyOut(2, o.dtype, R(off), R(cnt), zAddr, 13);
    b.set(Pipe::MTE3, Pipe::V, s);
    b.scalar(ScalarOp::Add, R(off), I(o.tile), off);
  };
  int32_t loop = b.pc();
  for (int s = 0; s < slots; ++s)
    tile(s);
  b.jump(loop);
  for (int32_t e : exits)
    b.patch(e, b.pc());
  for (int s = 0; s < slots && !o.bufIds; ++s) {
    b.wait(Pipe::V, Pipe::MTE2, s);
    b.wait(Pipe::MTE3, Pipe::V, s);
  }
  b.end();
  return p;
}

template <typename T> LaunchArg gmArg(std::vector<T> &v, DType t) {
  LaunchArg a;
  a.kind = ArgSpec::Kind::Gm;
  a.data = v.data();
  a.bytes = int64_t(v.size() * sizeof(T));
  a.dtype = t;
  return a;
}

inline LaunchArg intArg(int64_t i) {
  LaunchArg a;
  a.kind = ArgSpec::Kind::Int;
  a.i = i;
  return a;
}

inline LaunchArg floatArg(double f) {
  LaunchArg a;
  a.kind = ArgSpec::Kind::Float;
  a.f = f;
  return a;
}

} // namespace asc2::sim::test

#endif
