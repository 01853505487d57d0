//===- IssueLoop.cpp - The scalar unit of one simulated core ---------------===//
//
// The pc loop that issues every instruction of a block in program order
// (dispatching pipe work to the units), the scalar ops and scalar loads and
// stores it executes itself, and the per-block reset and statistics.
//
//===----------------------------------------------------------------------===//

#include <cmath>
#include "CoreRunner.h"
#include <algorithm>
#include <cassert>
#include <limits>
#include <string>

namespace asc2::sim {

namespace {

/// The error for a block stopped at the step limit (SimOptions::maxSteps)
/// while at instruction `pc`: it names the innermost loop around `pc` (the
/// backward jump spanning it), which is where an endless run spins.
std::string stepLimitMessage(const Program &program, int32_t pc, int block,
                             uint64_t limit) {
  int32_t loopLoc = -1, span = std::numeric_limits<int32_t>::max();
  for (int32_t j = pc; j < int32_t(program.code.size()); ++j) {
    const Instr &in = program.code[j];
    if (in.op == Opcode::Jump && in.target >= 0 && in.target <= pc &&
        j - in.target < span && in.loc >= 0) {
      span = j - in.target;
      loopLoc = in.loc;
    }
  }
  const int32_t loc = loopLoc >= 0 ? loopLoc : program.code[pc].loc;
  return "block " + std::to_string(block) + " ran past the step limit of " +
         std::to_string(limit) + " instructions without finishing, in the " +
         std::string(loopLoc >= 0 ? "loop" : "code") + " at " + locText(program, loc) +
         " (a trip count that large, or a loop that never ends?); the limit is "
         "ASC2_MAX_STEPS (asc2-workbench --max-steps N), 0 for none";
}

/// One element as a scalar register: double bits for float types, int64
/// (sign- or zero-extended) for integers, 0/1 for bool.
int64_t registerOf(DType t, const uint8_t *p) {
  return withCodec(t, [&](auto c) -> int64_t {
    if constexpr (decltype(c)::kIsFloat)
      return doubleBits(double(c.load(p)));
    else
      return c.load(p);
  });
}

/// Float scalar ops on doubles; the result is double bits, or 0/1 for
/// compares (IEEE: NaN is unordered, only FCmpNE holds). FMax/FMin propagate
/// NaN like numpy.
int64_t floatScalarOp(ScalarOp op, double a, double b) {
  switch (op) {
  case ScalarOp::FAdd:
    return doubleBits(a + b);
  case ScalarOp::FSub:
    return doubleBits(a - b);
  case ScalarOp::FMul:
    return doubleBits(a * b);
  case ScalarOp::FDiv:
    return doubleBits(a / b);
  case ScalarOp::FMax:
    return doubleBits(a > b || a != a ? a : b);
  case ScalarOp::FMin:
    return doubleBits(a < b || a != a ? a : b);
  case ScalarOp::FMaxNum:
    return doubleBits(a > b || b != b ? a : b);
  case ScalarOp::FMinNum:
    return doubleBits(a < b || b != b ? a : b);
  case ScalarOp::FCmpLT:
    return a < b;
  case ScalarOp::FCmpLE:
    return a <= b;
  case ScalarOp::FCmpGT:
    return a > b;
  case ScalarOp::FCmpGE:
    return a >= b;
  case ScalarOp::FCmpEQ:
    return a == b;
  case ScalarOp::FCmpNE:
    return a != b;
  case ScalarOp::FSqrt:
    return doubleBits(std::sqrt(a));
  case ScalarOp::FAbs:
    return doubleBits(std::fabs(a));
  default:
    return 0;
  }
}

/// r = op(a, b) on scalar registers (floats as double bits); false on an
/// integer division by zero.
bool evalScalarOp(ScalarOp op, int64_t a, int64_t b, int64_t &r) {
  switch (op) {
  case ScalarOp::Add:
    r = int64_t(uint64_t(a) + uint64_t(b));
    break;
  case ScalarOp::Sub:
    r = int64_t(uint64_t(a) - uint64_t(b));
    break;
  case ScalarOp::Mul:
    r = int64_t(uint64_t(a) * uint64_t(b));
    break;
  case ScalarOp::DivS:
    if (b == 0)
      return false;
    r = (b == -1) ? int64_t(0 - uint64_t(a)) : a / b;
    break;
  case ScalarOp::RemS:
    if (b == 0)
      return false;
    r = (b == -1) ? 0 : a % b;
    break;
  case ScalarOp::CeilDivS:
    if (b == 0)
      return false;
    if (b == -1) {
      r = int64_t(0 - uint64_t(a));
    } else {
      r = a / b;
      if (a % b != 0 && ((a < 0) == (b < 0)))
        ++r;
    }
    break;
  case ScalarOp::MinS:
    r = std::min(a, b);
    break;
  case ScalarOp::MaxS:
    r = std::max(a, b);
    break;
  case ScalarOp::CmpLT:
    r = a < b;
    break;
  case ScalarOp::CmpLE:
    r = a <= b;
    break;
  case ScalarOp::CmpGT:
    r = a > b;
    break;
  case ScalarOp::CmpGE:
    r = a >= b;
    break;
  case ScalarOp::CmpEQ:
    r = a == b;
    break;
  case ScalarOp::CmpNE:
    r = a != b;
    break;
  case ScalarOp::And:
    r = a & b;
    break;
  case ScalarOp::Or:
    r = a | b;
    break;
  case ScalarOp::Xor:
    r = a ^ b;
    break;
  case ScalarOp::Shl: // counts >= 64 shift everything out
    r = uint64_t(b) >= 64 ? 0 : int64_t(uint64_t(a) << b);
    break;
  case ScalarOp::ShrS:
    r = uint64_t(b) >= 64 ? (a < 0 ? -1 : 0) : a >> b;
    break;
  case ScalarOp::SIToFP:
    r = doubleBits(double(a));
    break;
  case ScalarOp::FPToSI: // truncates; saturates, NaN -> 0
    r = truncToInt64(bitsDouble(a));
    break;
  default:
    r = floatScalarOp(op, bitsDouble(a), bitsDouble(b));
    break;
  }
  return true;
}

/// A float register (double bits) rounded to `t`, as the scalar unit computes
/// a float32 op in float32: the double result of one +, -, *, / or sqrt of
/// floats, rounded once to float, is the correctly rounded float result.
int64_t roundedToType(DType t, int64_t bits) {
  uint8_t buf[8];
  return withCodec(t, [&](auto c) -> int64_t {
    if constexpr (decltype(c)::kIsFloat) {
      c.store(buf, typename decltype(c)::Value(bitsDouble(bits)));
      return doubleBits(double(c.load(buf)));
    } else {
      return bits;
    }
  });
}

} // namespace

static const uint8_t kZeroElement[8] = {};

bool CoreRunner::gmInBounds(const Instr &in, int64_t index) {
  const GmBuffer buf = gmBuffer(in);
  return index >= 0 && index < buf.bytes / int64_t(byteWidth(in.dtype));
}

bool CoreRunner::scalarMemory(const Instr &in, int32_t pc) {
  const int64_t w = byteWidth(in.dtype);
  const int64_t index = val(in.a);
  uint8_t *p = nullptr;
  double cycles = arch.scalarLocalCycles;
  switch (in.op) {
  case Opcode::ScalarLoadLocal:
  case Opcode::ScalarStoreLocal: {
    bool load = in.op == Opcode::ScalarLoadLocal;
    Space s = load ? in.srcSpace : in.dstSpace;
    int64_t addr = (load ? in.src0Addr : in.dstAddr) + index * w;
    if (!checkLocal(in, s, addr, w))
      return false;
    p = memory[int(s)].data() + addr;
    if (races) {
      races->beginAccesses(Pipe::S, pc);
      load ? races->read(s, addr, addr + w) : races->write(s, addr, addr + w);
    }
    break;
  }
  default:
    if (in.op == Opcode::ScalarLoadGm && !gmInBounds(in, index)) {
      // Past the end of the argument: on an NPU the read returns whatever
      // memory follows (upstream kernels whose last block overruns rely on
      // the value not mattering). The simulator reads 0 and warns once.
      if (std::none_of(out->warnings.begin(), out->warnings.end(),
                       [&](const auto &w) { return w.first == pc; }))
        out->warnings.push_back(
            {pc, "GM scalar read out of bounds in " + opName(program, in) + " at " +
                     locText(program, in.loc) + ": element " + std::to_string(index) +
                     " of argument " + std::to_string(in.gmArg) + " (" +
                     std::to_string(gmBuffer(in).bytes / w) + " elements) on core " +
                     std::to_string(block) +
                     "; the simulator read 0, an NPU reads whatever memory follows"});
      regs[in.dst] = registerOf(in.dtype, kZeroElement);
      scalarStep(in, std::max<uint64_t>(1, uint64_t(std::llround(arch.scalarGmLoadCycles))));
      return true;
    }
    if (!gmRange(in, index, 1, p))
      return false;
    cycles = in.op == Opcode::ScalarLoadGm ? arch.scalarGmLoadCycles
                                           : arch.scalarGmStoreCycles;
    break;
  }
  if (in.op == Opcode::ScalarLoadLocal || in.op == Opcode::ScalarLoadGm)
    regs[in.dst] = registerOf(in.dtype, p);
  else
    encodeScalar(in.dtype, scalarOf(in, in.dtype), p);
  scalarStep(in, std::max<uint64_t>(1, uint64_t(std::llround(cycles))));
  return true;
}

void CoreRunner::begin(int blockIndex, BlockOutcome &outcome,
                       CrossCoreGroup *crossCore) {
  block = blockIndex;
  out = &outcome;
  group = crossCore;
  cursor = 0;
  steps = 0;
  stopped = false;
  traceOn = l.options.collectTrace && l.options.maxTraceEvents > 0;
  traceGranted = 0;
  nextFlowId = 0;
  // Dispatch and the scalar prologue before the first instruction.
  issueTime = uint64_t(std::llround(arch.blockStartCycles));
  pipeFree = {};
  pipeDone = {};
  issued = {};
  gmCopies = {};
  gmPort = {};
  for (auto &ring : inFlight)
    std::fill(ring.begin(), ring.end(), 0);
  out->gm.clear();
  std::fill(regs.begin(), regs.end(), 0);
  std::fill(flags.begin(), flags.end(), FlagState{});
  std::fill(bufIds.begin(), bufIds.end(), BufIdState{});
  for (auto &m : memory)
    std::fill(m.begin(), m.end(), 0);
  if (races)
    races->reset(block, isAic, coreSuffix(), mix && !isAic ? 1 + subBlock : 0,
                 mix && group ? &group->raceGm : nullptr);
  out->stats.block = block;
  out->stats.cube = isAic;
  out->stats.sub = uint8_t(subBlock);
}

CoreRunner::Status CoreRunner::resume() {
  if (stopped)
    return Status::Done;
  const std::vector<Instr> &code = program.code;
  const int32_t size = int32_t(code.size());
  const std::atomic<bool> *cancel = l.options.cancel;
  uint32_t sincePoll = 0;
  bool ok = true;
  int32_t pc = cursor; // a local in the hot loop; saved when blocking
  const uint8_t bit = coreBit;
  // The second AIV of a first-AIV-only group skips the vector work.
  const uint8_t skip = mix && !isAic && subBlock != 0 ? Instr::kFirstAivOnly : 0;
  while (ok && pc < size) {
    if (++sincePoll == (1u << 16)) {
      sincePoll = 0;
      if (l.abort.load(std::memory_order_relaxed)) {
        out->aborted = true;
        stopped = true;
        return Status::Done;
      }
      if (cancel && cancel->load(std::memory_order_relaxed)) {
        out->ok = false;
        out->error = "cancelled";
        stopped = true;
        return Status::Done;
      }
      steps += 1u << 16;
      if (l.options.maxSteps && steps >= l.options.maxSteps) {
        out->ok = false;
        out->error = stepLimitMessage(program, pc, block, l.options.maxSteps);
        stopped = true;
        return Status::Done;
      }
    }
    const Instr &in = code[pc];
    // MIX: instructions of the other core are not in this core's stream.
    if (bit && (!(in.cores & bit) || (in.cores & skip))) {
      ++pc;
      continue;
    }
    int32_t next = pc + 1;
    switch (in.op) {
    case Opcode::ConstI:
      regs[in.dst] = in.a.imm;
      scalarStep(in);
      break;
    case Opcode::ArgI: {
      const LaunchArg &arg = l.args[in.argIndex];
      regs[in.dst] = arg.kind == ArgSpec::Kind::Float ? int64_t(arg.f) : arg.i;
      scalarStep(in);
      break;
    }
    case Opcode::ArgF: {
      const LaunchArg &arg = l.args[in.argIndex];
      regs[in.dst] = doubleBits(arg.kind == ArgSpec::Kind::Float ? arg.f
                                                                 : double(arg.i));
      if (in.roundsToDtype)
        regs[in.dst] = roundedToType(in.dtype, regs[in.dst]);
      scalarStep(in);
      break;
    }
    case Opcode::BlockIdx:
      regs[in.dst] = block;
      scalarStep(in);
      break;
    case Opcode::BlockNum:
      regs[in.dst] = l.blockNum;
      scalarStep(in);
      break;
    case Opcode::SubBlockIdx:
      regs[in.dst] = subBlock;
      scalarStep(in);
      break;
    case Opcode::Scalar: {
      int64_t r;
      if (evalScalarOp(in.scalarOp, val(in.a), val(in.b), r))
        regs[in.dst] = in.roundsToDtype ? roundedToType(in.dtype, r) : r;
      else
        ok = fail(in, "scalar division by zero");
      scalarStep(in);
      break;
    }
    case Opcode::Select:
      regs[in.dst] = val(in.a) ? val(in.b) : val(in.c);
      scalarStep(in);
      break;
    case Opcode::Jump:
      next = in.target;
      scalarStep(in);
      break;
    case Opcode::BranchIfZero:
      if (val(in.a) == 0)
        next = in.target;
      scalarStep(in);
      break;
    case Opcode::CopyGmToLocal:
      ok = copyIn(in, pc);
      break;
    case Opcode::CopyGmToLocalNd:
      ok = copyInNd(in, pc);
      break;
    case Opcode::CopyLocalToGm:
      ok = copyOut(in, pc);
      break;
    case Opcode::ScalarLoadLocal:
    case Opcode::ScalarStoreLocal:
    case Opcode::ScalarLoadGm:
    case Opcode::ScalarStoreGm:
      ok = scalarMemory(in, pc);
      break;
    case Opcode::CopyGmToL1Nz:
      ok = copyGmToL1Nz(in, pc);
      break;
    case Opcode::LoadL1ToL0:
      ok = loadL1ToL0(in, pc);
      break;
    case Opcode::Mmad:
      ok = mmad(in, pc);
      break;
    case Opcode::CopyL1ToBt:
      ok = copyL1ToBt(in, pc);
      break;
    case Opcode::FixpipeToL1:
      ok = fixpipeToL1(in, pc);
      break;
    case Opcode::FixpipeToUb:
      ok = fixpipeToUb(in, pc);
      break;
    case Opcode::CopyUbToL1:
      ok = copyUbToL1(in, pc);
      break;
    case Opcode::FixpipeToGm:
      ok = fixpipe(in, pc);
      break;
    case Opcode::CrossCoreSetFlag:
      ok = crossCoreSet(in, pc);
      break;
    case Opcode::CrossCoreWaitFlag:
      if (!crossCoreWait(in)) {
        cursor = pc; // resume at the wait
        return Status::Blocked;
      }
      break;
    case Opcode::SetFlag:
      ok = setFlag(in);
      break;
    case Opcode::WaitFlag:
      ok = waitFlag(in);
      break;
    case Opcode::GetBuf:
      ok = getBuf(in);
      break;
    case Opcode::RlsBuf:
      ok = rlsBuf(in);
      break;
    case Opcode::PipeBarrier:
      barrier(in);
      break;
    case Opcode::End:
      next = size;
      break;
    default: // the vector unit's instructions (isVectorOpcode)
      assert(isVectorOpcode(in.op) && "opcode without an issue rule");
      ok = vector(in, pc);
      break;
    }
    pc = next;
  }
  cursor = pc;
  if (!ok)
    stopped = true;
  return Status::Done;
}

void CoreRunner::finish() {
  checkSyncAtEnd();
  uint64_t end = issueTime;
  for (uint64_t t : pipeDone)
    end = std::max(end, t);
  out->stats.cycles = end + uint64_t(std::llround(arch.blockEndCycles));
  if (races)
    out->races = races->takeRaces();
  std::stable_sort(out->trace.begin(), out->trace.end(),
                   [](const TraceEvent &a, const TraceEvent &b) {
                     return a.start < b.start;
                   });
}

} // namespace asc2::sim
