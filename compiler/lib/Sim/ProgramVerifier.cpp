//===- ProgramVerifier.cpp - Checks of a program before it runs ------------===//
//
// validate(): the launch arguments against the kernel's signature, then every
// instruction (registers, operands, pipes, types, alignment, and whether the
// cores that execute it have its pipes and spaces), once per launch, so the
// issue loop can trust indices. One check per instruction family.
//
//===----------------------------------------------------------------------===//

#include "CoreRunner.h"
#include "ReduceKernels.h"
#include "VectorKernels.h"

#include <tuple>

namespace asc2::sim {

namespace {

/// Why vector op `op` cannot run on `t`, or empty.
std::string vecOpTypeError(VecOp op, DType t) {
  if (isFloatOnlyVecOp(op) && !isFloatDType(t))
    return std::string("exp/log/sqrt/rsqrt/reciprocal need a float type, got ") +
           dtypeName(t);
  if (isIntegerOnlyVecOp(op) && isFloatDType(t))
    return std::string("bitwise ops and shifts need an integer or bool type, "
                       "got ") +
           dtypeName(t);
  if (t == DType::Bool && !isBoolVecOp(op))
    return "bool operands support only and/or/xor/not/max/min";
  return {};
}

/// Why a core of the given kind cannot execute `in` (its local spaces and
/// pipes), or empty. Vector cores (AIV) have UB and the pipes S, V, MTE2,
/// MTE3; cube cores (AIC) have L1, L0A, L0B, L0C, BT and every pipe but V
/// (shared/reference §2.1).
std::string coreKindError(const Instr &in, bool aic,
                          const std::vector<Space> &spaces) {
  for (Space s : spaces)
    if (s != Space::GM && (s == Space::UB) == aic)
      return std::string(aic ? "cube cores (AIC)" : "vector cores (AIV)") +
             " have no " + spaceName(s);
  auto pipeOk = [&](Pipe p) {
    return aic ? p != Pipe::V
               : p == Pipe::S || p == Pipe::V || p == Pipe::MTE2 ||
                     p == Pipe::MTE3;
  };
  Pipe pipes[2];
  int numPipes = 0;
  switch (in.op) {
  case Opcode::ConstI:
  case Opcode::ArgI:
  case Opcode::ArgF:
  case Opcode::BlockIdx:
  case Opcode::BlockNum:
  case Opcode::SubBlockIdx:
  case Opcode::Scalar:
  case Opcode::Select:
  case Opcode::Jump:
  case Opcode::BranchIfZero:
  case Opcode::End:
    break;
  case Opcode::SetFlag:
  case Opcode::WaitFlag:
    pipes[numPipes++] = in.flagSrc;
    pipes[numPipes++] = in.flagDst;
    break;
  case Opcode::PipeBarrier:
    if (!in.allPipes)
      pipes[numPipes++] = in.pipe;
    break;
  default:
    pipes[numPipes++] = in.pipe;
    break;
  }
  for (int i = 0; i < numPipes; ++i)
    if (!pipeOk(pipes[i]))
      return std::string("pipe ") + pipeName(pipes[i]) +
             " does not exist on " +
             (aic ? "cube cores (AIC)" : "vector cores (AIV)");
  return {};
}

/// Element types the cube path moves and multiplies.
bool isCubeInput(DType t) {
  return t == DType::F16 || t == DType::BF16 || t == DType::F32 ||
         t == DType::I8;
}

class ProgramVerifier {
public:
  ProgramVerifier(const Program &program, const ArchModel &arch,
                  const std::vector<LaunchArg> &args)
      : program(program), arch(arch), args(args),
        mix(program.kernelType == KernelType::Mix) {}

  std::string verify(int blockNum,
                     std::array<std::array<bool, kNumSpaces>, 2> &usedSpaces);

private:
  std::string checkArgs(int blockNum) const;
  /// Why `in` is malformed, or empty; adds the local spaces it touches to
  /// `spaces`.
  std::string checkInstr(const Instr &in, std::vector<Space> &spaces) const;
  // One per instruction family, called by checkInstr.
  std::string checkScalarUnit(const Instr &in) const;
  std::string checkCopy(const Instr &in, std::vector<Space> &spaces) const;
  std::string checkNdCopy(const Instr &in, std::vector<Space> &spaces) const;
  std::string checkVector(const Instr &in, std::vector<Space> &spaces) const;
  std::string checkScalarMemory(const Instr &in,
                                std::vector<Space> &spaces) const;
  std::string checkGmToL1(const Instr &in, std::vector<Space> &spaces) const;
  std::string checkL1ToL0(const Instr &in, std::vector<Space> &spaces) const;
  std::string checkMmad(const Instr &in, std::vector<Space> &spaces) const;
  std::string checkFixpipeToL1(const Instr &in,
                               std::vector<Space> &spaces) const;
  std::string checkL1ToBt(const Instr &in, std::vector<Space> &spaces) const;
  /// The cube <-> vector local copies of Ascend950: L0C -> the AIV's UB on
  /// the AIC, UB -> the AIC's L1 on an AIV. `spaces` gets the issuing
  /// core's space; the other core's is `partnerSpace`.
  std::string checkCrossCoreCopy(const Instr &in, std::vector<Space> &spaces,
                                 Space &partnerSpace) const;
  std::string checkFixpipeToGm(const Instr &in,
                               std::vector<Space> &spaces) const;
  std::string checkCrossCoreFlag(const Instr &in) const;
  std::string checkFlag(const Instr &in) const;
  std::string checkBufId(const Instr &in) const;
  /// Why a core that executes `in` lacks its pipes or `spaces`, or empty;
  /// marks `spaces` used by each core kind that executes it.
  std::string checkCores(const Instr &in, const std::vector<Space> &spaces,
                         std::array<std::array<bool, kNumSpaces>, 2> &usedSpaces) const;

  bool regOk(const Operand &o) const {
    return o.reg < 0 || o.reg < program.numRegs;
  }
  /// Why the GM operand of `in` is not a GM buffer, or empty.
  std::string gmArgError(const Instr &in) const;
  /// Why `addr` is not aligned for `s`, or empty.
  std::string alignError(Space s, int64_t addr) const;
  std::string tileError(const Instr &in) const;
  /// Why a fixpipe's conversion (srcDtype -> dtype) is not one it makes, or empty.
  std::string fixpipeTypeError(const Instr &in) const;

  const Program &program;
  const ArchModel &arch;
  const std::vector<LaunchArg> &args;
  const bool mix;
  /// The other core's space of the instruction being checked (cross-core
  /// copies), marked used on that core kind by checkCores.
  mutable std::vector<Space> partnerSpaces;
};

std::string ProgramVerifier::verify(
    int blockNum, std::array<std::array<bool, kNumSpaces>, 2> &usedSpaces) {
  if (!program.inlineCode.empty()) {
    const InlineCode &site = program.inlineCode.front();
    return locText(program, site.loc) + ": " + inlineCodeRefusal(site);
  }
  std::string why = checkArgs(blockNum);
  if (!why.empty())
    return why;
  std::vector<Space> spaces; // local spaces the instruction touches
  for (size_t pc = 0; pc < program.code.size(); ++pc) {
    const Instr &in = program.code[pc];
    spaces.clear();
    partnerSpaces.clear();
    why = checkInstr(in, spaces);
    if (why.empty())
      why = checkCores(in, spaces, usedSpaces);
    if (!why.empty())
      return "instruction " + std::to_string(pc) + " (" + opName(program, in) +
             " at " + locText(program, in.loc) + "): " + why;
  }
  for (const auto &used : usedSpaces)
    for (int s = 1; s < kNumSpaces; ++s)
      if (used[s] && arch.capacity[s] <= 0)
        return std::string("the program uses ") + spaceName(Space(s)) +
               " but " + arch.name + " has none";
  return {};
}

std::string ProgramVerifier::checkArgs(int blockNum) const {
  if (blockNum <= 0)
    return "block count must be positive, got " + std::to_string(blockNum);
  if (args.size() != program.args.size())
    return "kernel " + program.kernelName + " takes " +
           std::to_string(program.args.size()) + " arguments, got " +
           std::to_string(args.size());
  if (program.vectorCoresPerGroup < 1 ||
      program.vectorCoresPerGroup > CrossCoreGroup::kMaxAivs)
    return "a MIX group has 1 or 2 vector cores, not " +
           std::to_string(program.vectorCoresPerGroup);
  if (program.vectorCoresPerGroup > 1 && program.kernelType != KernelType::Mix)
    return std::string(kernelTypeName(program.kernelType)) +
           " kernels run on one core per block; two vector cores per group "
           "need a MIX kernel";
  if (program.workspaceBytesPerBlock < 0)
    return "negative workspace size " +
           std::to_string(program.workspaceBytesPerBlock);
  for (size_t i = 0; i < args.size(); ++i) {
    const ArgSpec &spec = program.args[i];
    const LaunchArg &arg = args[i];
    std::string which = "argument " + std::to_string(i) +
                        (spec.name.empty() ? "" : " (" + spec.name + ")");
    if (spec.kind == ArgSpec::Kind::Gm) {
      if (arg.kind != ArgSpec::Kind::Gm)
        return which + " must be a GM buffer";
      if (arg.bytes < 0 || (arg.bytes > 0 && !arg.data))
        return which + " has no data";
    } else if (arg.kind == ArgSpec::Kind::Gm) {
      return which + " must be a scalar";
    }
  }
  return {};
}

std::string ProgramVerifier::checkInstr(const Instr &in,
                                        std::vector<Space> &spaces) const {
  if (!regOk(in.a) || !regOk(in.b) || !regOk(in.c) || !regOk(in.scalar) ||
      !regOk(in.rows) || !regOk(in.gmRowStride) || !regOk(in.init) ||
      !regOk(in.localOffset) ||
      in.dst >= program.numRegs)
    return "register out of range";
  switch (in.op) {
  case Opcode::ConstI:
  case Opcode::BlockIdx:
  case Opcode::BlockNum:
  case Opcode::SubBlockIdx:
  case Opcode::Scalar:
  case Opcode::Select:
  case Opcode::ArgI:
  case Opcode::ArgF:
  case Opcode::Jump:
  case Opcode::BranchIfZero:
    return checkScalarUnit(in);
  case Opcode::CopyGmToLocal:
  case Opcode::CopyLocalToGm:
    return checkCopy(in, spaces);
  case Opcode::CopyGmToLocalNd:
    return checkNdCopy(in, spaces);
  case Opcode::ScalarLoadLocal:
  case Opcode::ScalarStoreLocal:
  case Opcode::ScalarLoadGm:
  case Opcode::ScalarStoreGm:
    return checkScalarMemory(in, spaces);
  case Opcode::CopyGmToL1Nz:
    return checkGmToL1(in, spaces);
  case Opcode::LoadL1ToL0:
    return checkL1ToL0(in, spaces);
  case Opcode::Mmad:
    return checkMmad(in, spaces);
  case Opcode::FixpipeToL1:
    return checkFixpipeToL1(in, spaces);
  case Opcode::CopyL1ToBt:
    return checkL1ToBt(in, spaces);
  case Opcode::FixpipeToUb:
  case Opcode::CopyUbToL1: {
    Space partner = Space::GM;
    std::string why = checkCrossCoreCopy(in, spaces, partner);
    if (why.empty())
      partnerSpaces.push_back(partner);
    return why;
  }
  case Opcode::FixpipeToGm:
    return checkFixpipeToGm(in, spaces);
  case Opcode::CrossCoreSetFlag:
  case Opcode::CrossCoreWaitFlag:
    return checkCrossCoreFlag(in);
  case Opcode::SetFlag:
  case Opcode::WaitFlag:
    return checkFlag(in);
  case Opcode::GetBuf:
  case Opcode::RlsBuf:
    return checkBufId(in);
  case Opcode::PipeBarrier:
  case Opcode::End:
    return {};
  default:
    break;
  }
  if (isVectorOpcode(in.op))
    return checkVector(in, spaces);
  return "opcode " + std::to_string(int(in.op)) + " has no verifier rule";
}

std::string ProgramVerifier::checkCores(
    const Instr &in, const std::vector<Space> &spaces,
    std::array<std::array<bool, kNumSpaces>, 2> &usedSpaces) const {
  uint8_t cores = program.kernelType == KernelType::AivOnly ? Instr::kAivCore
                  : program.kernelType == KernelType::AicOnly
                      ? Instr::kAicCore
                      : in.cores;
  if (mix && (cores & Instr::kFirstAivOnly) &&
      (cores != (Instr::kAivCore | Instr::kFirstAivOnly) || program.vectorCoresPerGroup < 2))
    return "Instr::cores: first-AIV-only (4) marks AIV instructions of a group with two AIVs";
  cores &= Instr::kBothCores;
  if (mix && (cores & ~Instr::kBothCores))
    return "Instr::cores has bits other than AIC (1), AIV (2) and first AIV only (4)";
  for (bool aic : {false, true}) {
    if (!(cores & (aic ? Instr::kAicCore : Instr::kAivCore)))
      continue;
    std::string why = coreKindError(in, aic, spaces);
    if (!why.empty())
      return (mix ? std::string("MIX kernel, ") + (aic ? "AIC" : "AIV") +
                        " instruction"
                  : std::string(kernelTypeName(program.kernelType)) +
                        " kernel") +
             ": " + why;
    for (Space s : spaces)
      usedSpaces[aic ? 1 : 0][int(s)] = true;
    for (Space s : partnerSpaces)
      usedSpaces[aic ? 0 : 1][int(s)] = true;
  }
  return {};
}

std::string ProgramVerifier::gmArgError(const Instr &in) const {
  if (in.gmArg == kWorkspaceArg)
    return program.workspaceBytesPerBlock > 0
               ? std::string()
               : "the workspace is addressed but the program has none "
                 "(workspaceBytesPerBlock is 0)";
  if (in.gmArg < 0 || size_t(in.gmArg) >= args.size() ||
      program.args[in.gmArg].kind != ArgSpec::Kind::Gm)
    return "argument " + std::to_string(in.gmArg) + " is not a GM buffer";
  return {};
}

std::string ProgramVerifier::alignError(Space s, int64_t addr) const {
  int64_t a = arch.alignment[int(s)];
  if (a > 0 && addr % a != 0)
    return std::string(spaceName(s)) + " address " + std::to_string(addr) +
           " is not " + std::to_string(a) + "-byte aligned";
  return {};
}

std::string ProgramVerifier::tileError(const Instr &in) const {
  if (in.tileRows <= 0 || in.tileCols <= 0)
    return "tile shape " + std::to_string(in.tileRows) + " x " +
           std::to_string(in.tileCols) + " must be positive";
  return {};
}

std::string ProgramVerifier::checkScalarUnit(const Instr &in) const {
  if (in.op == Opcode::Jump || in.op == Opcode::BranchIfZero) {
    if (in.target < 0 || size_t(in.target) > program.code.size())
      return "jump target out of range";
    return {};
  }
  if (in.dst < 0)
    return "missing destination register";
  if ((in.op == Opcode::ArgI || in.op == Opcode::ArgF) &&
      (in.argIndex < 0 || size_t(in.argIndex) >= args.size() ||
       args[in.argIndex].kind == ArgSpec::Kind::Gm))
    return "argument " + std::to_string(in.argIndex) +
           " is not a scalar argument";
  return {};
}

std::string ProgramVerifier::checkCopy(const Instr &in,
                                       std::vector<Space> &spaces) const {
  std::string why = gmArgError(in);
  if (!why.empty())
    return why;
  Space local = in.op == Opcode::CopyGmToLocal ? in.dstSpace : in.srcSpace;
  if (local == Space::GM)
    return "copy needs a local space";
  if (in.pipe == Pipe::S || in.pipe == Pipe::V || in.pipe == Pipe::M)
    return std::string("copies run on an MTE or FIX pipe, not ") +
           pipeName(in.pipe);
  if (in.atomic != AtomicKind::None && in.op != Opcode::CopyLocalToGm)
    return "atomic copies only write GM";
  spaces.push_back(local);
  return {};
}

/// The N-dimensional DMA: 1 to 5 loops (the API's; the arch model says
/// whether the target has the DMA), extents and strides that address the
/// buffer from its start, into UB on the MTE2 pipe.
std::string ProgramVerifier::checkNdCopy(const Instr &in, std::vector<Space> &spaces) const {
  if (arch.ndDmaDims == 0)
    return "N-dimensional DMA on " + arch.name + ", which has none (nd_dma_dims)";
  if (in.ndCopy < 0 || size_t(in.ndCopy) >= program.ndCopies.size())
    return "N-dimensional copy " + std::to_string(in.ndCopy) + " out of range";
  const std::vector<NdCopyLoop> &loops = program.ndCopies[in.ndCopy];
  if (loops.empty() || int64_t(loops.size()) > arch.ndDmaDims)
    return std::to_string(loops.size()) + " loops, the DMA takes 1 to " +
           std::to_string(arch.ndDmaDims);
  for (const NdCopyLoop &l : loops)
    if (!regOk(l.size) || l.extent < 1 || l.srcStride < 0 || l.dstStride < 0)
      return "a loop with a bad size register, extent or stride";
  std::string why = gmArgError(in);
  if (!why.empty())
    return why;
  if (in.dstSpace != Space::UB || in.pipe != Pipe::MTE2)
    return "N-dimensional copies go from GM to UB on MTE2";
  spaces.push_back(in.dstSpace);
  return {};
}

/// The operand ranges of the API reference for Brcb, Copy, GatherMask, DataCopy
/// within UB and Transpose ("" when fine).
static std::string checkShapeCall(const Instr &in, const ArchModel &arch) {
  auto outside = [](const char *name, int64_t v, int64_t lo, int64_t hi) {
    return v < lo || v > hi ? std::string(name) + " " + std::to_string(v) +
                                  " outside [" + std::to_string(lo) + ", " +
                                  std::to_string(hi) + "]"
                            : std::string();
  };
  unsigned w = byteWidth(in.dtype);
  std::string e;
  switch (in.op) {
  case Opcode::VecBrcb:
  case Opcode::VecCopy:
    // Brcb: 16/32-bit on c220, also 8/64-bit on c310; Copy: 8- and 64-bit
    // elements are emitted on their uint16_t / uint32_t view (pairs of
    // bytes: an even mask).
    if (in.op == Opcode::VecBrcb && (w == 1 || w == 8) && arch.socVersion != "c310")
      return std::string("Brcb takes 16- or 32-bit elements on ") + arch.name +
             ", not " + dtypeName(in.dtype);
    if (w != 1 && w != 2 && w != 4 && w != 8)
      return std::string("Brcb and Copy take 8- to 64-bit elements, not ") +
             dtypeName(in.dtype);
    if (in.op == Opcode::VecCopy && w == 1 && in.mask % 2 != 0)
      return "an odd Copy mask on 8-bit elements (they move in uint16_t pairs)";
    e = outside("repeatTime", in.repeat, 0, 255);
    if (e.empty() && in.op == Opcode::VecBrcb)
      e = outside("dstBlkStride", in.blkStride[0], 1, 65535);
    if (e.empty() && in.op == Opcode::VecCopy)
      e = outside("mask", in.mask, 1, 256 / w);
    if (e.empty() && (in.blkStride[0] < 0 || in.blkStride[1] < 0 ||
                      in.repStride[0] < 0 || in.repStride[1] < 0))
      e = "negative block or repeat stride";
    return e;
  case Opcode::VecGatherMask:
    if (w != 2 && w != 4)
      return std::string("GatherMask takes 16- or 32-bit elements, not ") +
             dtypeName(in.dtype);
    e = outside("repeatTimes", in.repeat, 1, 255);
    if (e.empty())
      e = outside("elements per repeat", in.mask, 1, 256 / w);
    if (e.empty())
      e = outside("src1Pattern", in.gatherPattern, 0, 7);
    if (e.empty())
      e = outside("src0BlockStride", in.blkStride[1], 0, 255);
    if (e.empty())
      e = outside("src0RepeatStride", in.repStride[1], 0, 65535);
    if (e.empty())
      e = outside("src1RepeatStride", in.repStride[2], 0, 255);
    return e;
  case Opcode::LocalDataCopy:
    e = outside("blockCount", in.blockCount, 1, 4095);
    if (e.empty())
      e = outside("blockLen", in.blockLen, 1, 65535);
    if (e.empty() && (in.srcGap < 0 || in.dstGap < 0))
      e = "negative gap";
    return e;
  case Opcode::VecTranspose:
    if (in.batch < 1)
      return "transpose batch must be positive, got " + std::to_string(in.batch);
    return in.tmpBytes < 0 ? "negative scratch size" : "";
  default:
    return "";
  }
}

std::string ProgramVerifier::checkVector(const Instr &in,
                                         std::vector<Space> &spaces) const {
  if (in.dstSpace == Space::GM)
    return "vector operands must be in local memory";
  if (in.pipe != Pipe::V)
    return std::string("vector ops run on pipe V, not ") + pipeName(in.pipe);
  if ((in.op == Opcode::VecBinary || in.op == Opcode::VecScalar) &&
      !isBinaryVecOp(in.vecOp))
    return "not a binary vector op";
  if (in.op == Opcode::VecUnary && isBinaryVecOp(in.vecOp))
    return "not a unary vector op";
  if (in.op == Opcode::VecBinary || in.op == Opcode::VecUnary ||
      in.op == Opcode::VecScalar) {
    std::string why = vecOpTypeError(in.vecOp, in.dtype);
    if (!why.empty())
      return why;
  }
  if (in.op == Opcode::VecCast && in.roundMode == RoundMode::Odd &&
      !(in.srcDtype == DType::F32 && in.dtype == DType::F16))
    return std::string("round mode odd only applies to float32 -> float16, "
                       "not ") +
           dtypeName(in.srcDtype) + " -> " + dtypeName(in.dtype);
  if (in.op == Opcode::VecWholeReduce || in.op == Opcode::VecBinaryRepeat) {
    std::string why = repeatCallError(in);
    if (!why.empty())
      return why;
  }
  if (in.bitMask) {
    bool elementwise = in.op == Opcode::VecBinary || in.op == Opcode::VecUnary ||
                       in.op == Opcode::VecScalar || in.op == Opcode::VecCast ||
                       in.op == Opcode::VecCompare || in.op == Opcode::VecSelect;
    if (!elementwise)
      return "a lane bit mask applies to element-wise ops only";
    unsigned width = std::max(byteWidth(in.dtype),
                              in.op == Opcode::VecCast ? byteWidth(in.srcDtype) : 0u);
    if (width != 2 && width != 4)
      return std::string("a lane bit mask needs 16- or 32-bit elements (128 "
                         "or 64 lanes per repeat), not ") +
             dtypeName(in.dtype);
    if (!regOk(in.maskHigh) || !regOk(in.maskLow))
      return "register out of range";
  }
  if (std::string e = checkShapeCall(in, arch); !e.empty())
    return e;
  spaces.push_back(in.dstSpace);
  return {};
}

std::string
ProgramVerifier::checkScalarMemory(const Instr &in,
                                   std::vector<Space> &spaces) const {
  bool load = in.op == Opcode::ScalarLoadLocal || in.op == Opcode::ScalarLoadGm;
  if (load && in.dst < 0)
    return "missing destination register";
  if (in.pipe != Pipe::S)
    return std::string("scalar loads and stores run on pipe S, not ") +
           pipeName(in.pipe);
  if (in.op == Opcode::ScalarLoadGm || in.op == Opcode::ScalarStoreGm)
    return gmArgError(in);
  Space local = load ? in.srcSpace : in.dstSpace;
  if (local == Space::GM)
    return "local scalar access needs a local space";
  spaces.push_back(local);
  return {};
}

std::string ProgramVerifier::checkGmToL1(const Instr &in,
                                         std::vector<Space> &spaces) const {
  std::string why = gmArgError(in);
  if (!why.empty())
    return why;
  if (in.pipe != Pipe::MTE2)
    return std::string("GM -> L1 copies run on MTE2, not ") + pipeName(in.pipe);
  if (!isCubeInput(in.dtype))
    return std::string("the cube path moves float16, bfloat16, float32 or "
                       "int8, not ") +
           dtypeName(in.dtype);
  why = tileError(in);
  if (why.empty())
    why = alignError(Space::L1, in.dstAddr);
  if (in.atomic != AtomicKind::None)
    why = "atomic copies only write GM";
  if (!why.empty())
    return why;
  spaces.push_back(Space::L1);
  return {};
}

std::string ProgramVerifier::checkL1ToL0(const Instr &in,
                                         std::vector<Space> &spaces) const {
  if (in.pipe != Pipe::MTE1)
    return std::string("L1 -> L0A/L0B loads run on MTE1, not ") +
           pipeName(in.pipe);
  if (in.dstSpace != Space::L0A && in.dstSpace != Space::L0B)
    return std::string("loads from L1 go to L0A or L0B, not ") +
           spaceName(in.dstSpace);
  if (!isCubeInput(in.dtype))
    return std::string("the cube path moves float16, bfloat16, float32 or "
                       "int8, not ") +
           dtypeName(in.dtype);
  std::string why = tileError(in);
  if (why.empty())
    why = alignError(Space::L1, in.src0Addr);
  if (why.empty())
    why = alignError(in.dstSpace, in.dstAddr);
  if (why.empty() && (in.srcTileRows < 0 || in.srcTileCols < 0 ||
                      (in.srcTileRows > 0) != (in.srcTileCols > 0)))
    why = "source tile " + std::to_string(in.srcTileRows) + " x " +
          std::to_string(in.srcTileCols) +
          " must be positive (or both 0 for the whole tile)";
  for (const Operand *o : {&in.a, &in.b})
    if (why.empty() && !o->isReg() && (o->imm < 0 || o->imm % 16 != 0))
      why = "sub-tile origin " + std::to_string(o->imm) +
            " must be a non-negative multiple of 16";
  if (!why.empty())
    return why;
  spaces.push_back(Space::L1);
  spaces.push_back(in.dstSpace);
  return {};
}

std::string ProgramVerifier::checkMmad(const Instr &in,
                                       std::vector<Space> &spaces) const {
  if (in.pipe != Pipe::M)
    return std::string("mmad runs on pipe M, not ") + pipeName(in.pipe);
  if (!isCubeInput(in.srcDtype))
    return std::string("mmad multiplies float16, bfloat16, float32 or int8, "
                       "not ") +
           dtypeName(in.srcDtype);
  DType acc = in.srcDtype == DType::I8 ? DType::I32 : DType::F32;
  if (in.dtype != acc)
    return std::string("mmad of ") + dtypeName(in.srcDtype) +
           " accumulates in " + dtypeName(acc) + ", not " +
           dtypeName(in.dtype);
  const int64_t kStep = in.srcDtype == DType::I8 ? 32 : 16;
  for (auto [o, name, step] : {std::tuple{&in.a, "m", int64_t(16)},
                               std::tuple{&in.b, "k", kStep},
                               std::tuple{&in.c, "n", int64_t(16)}})
    if (!o->isReg() && (o->imm <= 0 || o->imm % step != 0))
      return std::string("mmad ") + name + " = " + std::to_string(o->imm) +
             " must be a positive multiple of " + std::to_string(step);
  std::string why = alignError(Space::L0A, in.src0Addr);
  if (why.empty())
    why = alignError(Space::L0B, in.src1Addr);
  if (why.empty())
    why = alignError(Space::L0C, in.dstAddr);
  if (!why.empty())
    return why;
  spaces.push_back(Space::L0A);
  spaces.push_back(Space::L0B);
  spaces.push_back(Space::L0C);
  if (in.hasBias) {
    if (in.dtype != DType::F32)
      return "a bias needs a float32 accumulator";
    spaces.push_back(Space::BT);
  }
  return {};
}

std::string
ProgramVerifier::checkFixpipeToL1(const Instr &in,
                                  std::vector<Space> &spaces) const {
  if (in.pipe != Pipe::FIX)
    return std::string("fixpipe runs on pipe FIX, not ") + pipeName(in.pipe);
  if (in.srcDtype != DType::F32 ||
      !(in.dtype == DType::F32 || in.dtype == DType::F16 || in.dtype == DType::BF16))
    return std::string("fixpipe to L1 converts float32 to "
                       "float32/float16/bfloat16, not ") +
           dtypeName(in.srcDtype) + " to " + dtypeName(in.dtype);
  std::string why = tileError(in);
  if (!why.empty())
    return why;
  spaces.push_back(Space::L0C);
  spaces.push_back(Space::L1);
  return {};
}

std::string ProgramVerifier::checkCrossCoreCopy(const Instr &in, std::vector<Space> &spaces,
                                                Space &partnerSpace) const {
  const bool fixpipe = in.op == Opcode::FixpipeToUb;
  // A path of the target (its bandwidth in the arch file), in a MIX group.
  if ((fixpipe ? arch.l0cToUbBytesPerCycle : arch.ubToL1BytesPerCycle) <= 0)
    return std::string(fixpipe ? "L0C -> UB" : "UB -> L1") + " has no data path on " +
           arch.name;
  if (!mix || (in.cores & Instr::kBothCores) != (fixpipe ? Instr::kAicCore : Instr::kAivCore))
    return std::string(fixpipe ? "L0C -> UB runs on the AIC" : "UB -> L1 runs on an AIV") +
           " of a MIX kernel and writes the other core's memory";
  if (in.pipe != (fixpipe ? Pipe::FIX : Pipe::MTE3))
    return std::string(fixpipe ? "L0C -> UB runs on FIX" : "UB -> L1 runs on MTE3") + ", not " +
           pipeName(in.pipe);
  std::string why = tileError(in);
  if (why.empty())
    why = fixpipe ? fixpipeTypeError(in) : std::string();
  if (!why.empty())
    return why;
  const int64_t w = byteWidth(in.dtype);
  if (fixpipe && (in.a.isReg() || in.rows.isReg() || in.a.imm < 0 || in.a.imm % 16 ||
                  in.rows.imm <= 0 || in.a.imm + in.rows.imm > in.tileRows))
    return "L0C -> UB moves a band of the tile's rows that starts on a 16-row fractal boundary";
  if (fixpipe && in.dual && (in.rows.imm % 2 || program.vectorCoresPerGroup < 2))
    return "a dual-destination fixpipe halves an even number of rows between two AIVs";
  if (!fixpipe && (in.srcDtype != in.dtype || !isCubeInput(in.dtype)))
    return std::string("UB -> L1 copies float16/bfloat16/float32/int8 as they are, not ") +
           dtypeName(in.srcDtype) + " to " + dtypeName(in.dtype);
  if (!fixpipe && ((in.tileCols * w) % 32 ||
                   (!in.ndRow && (in.tileRows % 16 || (in.localRowStride * w) % 32 ||
                                  in.rows.isReg() || in.rows.imm <= 0))))
    return "UB -> L1 copies whole 32-byte blocks into whole fractals";
  const Space own = fixpipe ? Space::L0C : Space::UB;
  partnerSpace = fixpipe ? Space::UB : Space::L1;
  why = alignError(own, in.src0Addr);
  if (why.empty())
    why = alignError(partnerSpace, in.dstAddr);
  spaces.push_back(own);
  return why;
}

std::string ProgramVerifier::fixpipeTypeError(const Instr &in) const {
  if (in.srcDtype == DType::F32
          ? !(in.dtype == DType::F32 || in.dtype == DType::F16 || in.dtype == DType::BF16)
          : !(in.srcDtype == DType::I32 && in.dtype == DType::I32))
    return std::string("fixpipe converts float32 to float32/float16/bfloat16 "
                       "or int32 to int32, not ") +
           dtypeName(in.srcDtype) + " to " + dtypeName(in.dtype);
  return {};
}

std::string ProgramVerifier::checkL1ToBt(const Instr &in,
                                         std::vector<Space> &spaces) const {
  if (in.pipe != Pipe::MTE1)
    return std::string("L1 -> BT copies run on MTE1, not ") + pipeName(in.pipe);
  if (in.dtype != DType::F32)
    return std::string("the bias table holds float32, not ") +
           dtypeName(in.dtype);
  if (in.srcDtype != DType::F32 && in.srcDtype != DType::F16 &&
      in.srcDtype != DType::BF16)
    return std::string("a bias row is float32, float16 or bfloat16, not ") +
           dtypeName(in.srcDtype);
  spaces.push_back(Space::L1);
  spaces.push_back(Space::BT);
  return {};
}

std::string
ProgramVerifier::checkFixpipeToGm(const Instr &in,
                                  std::vector<Space> &spaces) const {
  std::string why = gmArgError(in);
  if (!why.empty())
    return why;
  if (in.pipe != Pipe::FIX)
    return std::string("fixpipe runs on pipe FIX, not ") + pipeName(in.pipe);
  why = fixpipeTypeError(in);
  if (why.empty())
    why = tileError(in);
  if (why.empty())
    why = alignError(Space::L0C, in.src0Addr);
  if (!why.empty())
    return why;
  spaces.push_back(Space::L0C);
  return {};
}

std::string ProgramVerifier::checkCrossCoreFlag(const Instr &in) const {
  if (!mix)
    return std::string("cross-core flags need a MIX kernel, this one is ") +
           kernelTypeName(program.kernelType);
  if (in.eventId >= CrossCoreGroup::kIds)
    return "cross-core flag id " + std::to_string(in.eventId) +
           " out of range (0-15)";
  if (in.cores != Instr::kAicCore && in.cores != Instr::kAivCore)
    return "a cross-core flag must run on exactly one core of the group "
           "(Instr::cores = AIC or AIV)";
  if (in.op == Opcode::CrossCoreSetFlag && in.pipe == Pipe::S)
    return "CrossCoreSetFlag needs a pipe other than S (it fires after that "
           "pipe's earlier work)";
  return {};
}

std::string ProgramVerifier::checkFlag(const Instr &in) const {
  if (in.eventId >= arch.eventIdsPerPipePair)
    return "event id " + std::to_string(in.eventId) + " out of range (" +
           std::to_string(arch.eventIdsPerPipePair) + " ids per pipe pair)";
  return {};
}

std::string ProgramVerifier::checkBufId(const Instr &in) const {
  if (in.eventId >= arch.bufferIds)
    return arch.bufferIds == 0
               ? arch.name + " has no buffer ids (its sync style is " +
                     arch.syncStyle + ")"
               : "buffer id " + std::to_string(in.eventId) + " out of range (" +
                     std::to_string(arch.bufferIds) + " ids)";
  return {};
}

} // namespace

std::string inlineCodeRefusal(const InlineCode &site) {
  std::string what = site.api == "asc2.inline_vf" ? "register-level vector code (a __VEC_SCOPE__ body)"
                                                  : "raw Ascend C";
  return site.api + ": the kernel holds " + what +
         ", which the simulator cannot run: it runs the kernel's tile program, "
         "not C++. Export the project (kernel[blocks].export_project(dir, *args)) "
         "and run it on an NPU, or write this code with asc2 operations";
}

std::string validate(const Program &program, const ArchModel &arch,
                     int blockNum, const std::vector<LaunchArg> &args,
                     std::array<std::array<bool, kNumSpaces>, 2> &usedSpaces) {
  return ProgramVerifier(program, arch, args).verify(blockNum, usedSpaces);
}

} // namespace asc2::sim
