//===- Executor.cpp - Functional and timing simulation of a launch --------===//
//
// Each block runs to completion on one worker thread: the scalar unit walks
// the program in order (so a race-free program computes what the hardware
// computes) while a per-pipe timing model decides when each instruction would
// start and finish on the hardware:
//
//   * the scalar unit issues one instruction per `scalarCycles`; a pipe
//     instruction enters its pipe's in-order queue at issue time and the
//     scalar unit stalls while that queue holds `pipeQueueDepth` instructions
//     that have not started yet;
//   * a pipe instruction starts at max(enqueue time, end of the previous
//     instruction on that pipe) and lasts
//       copies:  mteFixedCycles + bytes / bandwidth   (GM->local: gm_to_ub,
//                local->GM: ub_to_gm, each capped at hbm / active cores);
//                a 2-D copy moves rows * cols elements and pays the fixed
//                latency once (padding and atomics cost nothing extra)
//       vector:  fixed + perRepeat * ceil(count * width / 256), width the
//                widest operand (casts); reductions and broadcasts count the
//                repeats of the whole rows x cols tile (their source and
//                destination respectively)
//   * scalar loads/stores hold the scalar unit for scalar_local_cycles (UB,
//     L1) or scalar_gm_load/store_cycles (GM) instead of one issue slot;
//   * set_flag fires once all earlier work of its source pipe is done (it
//     does not hold that pipe); wait_flag holds its destination pipe (or the
//     scalar unit for S) until the matching set has fired; PIPE_ALL holds the
//     scalar unit until every pipe is idle.
//
// Blocks beyond the number of physical cores run in waves: a block starts on
// the first core that becomes free.
//
//===----------------------------------------------------------------------===//

#include "asc2/Sim/Simulator.h"

#include "Elements.h"
#include "RaceDetector.h"
#include "SimSupport.h"
#include "VectorKernels.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>
#include <queue>
#include <set>
#include <thread>

namespace asc2::sim {

namespace {

int64_t doubleBits(double d) {
  int64_t r;
  std::memcpy(&r, &d, 8);
  return r;
}
double bitsDouble(int64_t r) {
  double d;
  std::memcpy(&d, &r, 8);
  return d;
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

//===----------------------------------------------------------------------===//
// Launch-wide state and per-block outcome.
//===----------------------------------------------------------------------===//

struct Launch {
  const Program &program;
  const ArchModel &arch;
  const std::vector<LaunchArg> &args;
  const SimOptions &options;
  int blockNum;
  std::array<bool, kNumSpaces> usedSpaces{};
  double gmToLocalBytesPerCycle = 1, localToGmBytesPerCycle = 1;
  std::atomic<bool> abort{false};
  std::atomic<int64_t> traceBudget{0};
  /// Serialises atomic stores to GM across the worker threads: each atomic
  /// copy is one critical section.
  std::mutex atomicMutex{};
};

struct BlockOutcome {
  bool ok = true;
  bool aborted = false; // stopped because another block failed
  std::string error;
  CoreStats stats;
  std::vector<TraceEvent> trace;
  bool traceTruncated = false;
  std::vector<Race> races;
};

/// Flag state per (src, dst, id), tracked in program order.
struct FlagState {
  bool pending = false;      // set issued, not yet consumed by a wait
  uint64_t fireTime = 0;     // cycle the pending set takes effect
  uint64_t consumedAt = 0;   // cycle the last wait let its pipe go
  uint64_t flowId = 0;
  int32_t setPc = -1;
};

//===----------------------------------------------------------------------===//
// One simulated AI core. A worker thread reuses one CoreRunner for all the
// blocks it runs, so local memory is allocated once per thread.
//===----------------------------------------------------------------------===//

class CoreRunner {
public:
  explicit CoreRunner(Launch &launch)
      : l(launch), program(launch.program), arch(launch.arch),
        queueDepth(std::max(1, launch.arch.pipeQueueDepth)),
        eventIds(std::max(1, launch.arch.eventIdsPerPipePair)) {
    for (int s = 1; s < kNumSpaces; ++s)
      if (l.usedSpaces[s])
        memory[s].resize(size_t(arch.capacity[s]));
    regs.resize(size_t(std::max(0, program.numRegs)));
    flags.resize(size_t(kNumPipes) * kNumPipes * eventIds);
    for (auto &ring : startRing)
      ring.resize(size_t(queueDepth));
    scalarCycles = std::max<uint64_t>(1, uint64_t(std::llround(arch.scalarCycles)));
    flagCycles = uint64_t(std::llround(arch.flagCycles));
    if (l.options.detectRaces)
      races = std::make_unique<RaceDetector>(program, arch, l.usedSpaces);
  }

  void run(int block, BlockOutcome &out);

private:
  // --- errors ---
  /// Stops the block with "<what> in <op> (<pipe>) at <loc>: <detail> on
  /// core N".
  bool fail(const Instr &in, const std::string &what,
            const std::string &detail = {}) {
    Pipe p = in.op == Opcode::SetFlag    ? in.flagSrc
             : in.op == Opcode::WaitFlag ? in.flagDst
                                         : in.pipe;
    out->ok = false;
    out->error = what + " in " + opName(program, in) + " (" + pipeName(p) +
                 ") at " + locText(program, in.loc) +
                 (detail.empty() ? "" : ": " + detail) + " on core " +
                 std::to_string(block);
    return false;
  }
  bool checkLocal(const Instr &in, Space s, int64_t addr, int64_t bytes) {
    int64_t cap = int64_t(memory[int(s)].size());
    if (addr >= 0 && bytes >= 0 && addr <= cap && bytes <= cap - addr)
      return true;
    return fail(in, std::string(spaceName(s)) + " out-of-bounds",
                          "bytes [" + std::to_string(addr) + ", " +
                              std::to_string(addr + bytes) + ") outside " +
                              spaceName(s) + " capacity " +
                              std::to_string(arch.capacity[int(s)]));
  }

  // --- timing ---
  int64_t val(const Operand &o) const { return o.reg >= 0 ? regs[o.reg] : o.imm; }
  /// The scalar operand of `in` for an instruction of type `t`.
  Scalar scalarOf(const Instr &in, DType t) const {
    if (!in.scalar.isReg())
      return Scalar::ofFloat(in.fimm);
    int64_t r = regs[in.scalar.reg];
    return isFloatDType(t) ? Scalar::ofFloat(bitsDouble(r)) : Scalar::ofInt(r);
  }
  void scalarStep(const Instr &in) { scalarStep(in, scalarCycles); }
  void scalarStep(const Instr &in, uint64_t cycles) {
    uint64_t start = issueTime;
    issueTime += cycles;
    out->stats.busy[int(Pipe::S)] += cycles;
    out->stats.instrs[int(Pipe::S)]++;
    if (traceOn)
      emit(in, Pipe::S, start, issueTime, 0);
  }
  /// Issues a pipe instruction: returns the cycle it enters the pipe queue.
  uint64_t enqueue(Pipe p) {
    uint64_t n = issued[int(p)]++;
    size_t slot = size_t(n % uint64_t(queueDepth));
    if (n >= uint64_t(queueDepth)) // wait for the oldest queued one to start
      issueTime = std::max(issueTime, startRing[int(p)][slot]);
    uint64_t enter = issueTime;
    issueTime += scalarCycles;
    return enter;
  }
  /// Runs `dur` cycles on pipe `p` after entering its queue at `enter`.
  uint64_t execute(Pipe p, uint64_t enter, uint64_t dur) {
    uint64_t start = std::max(enter, pipeFree[int(p)]);
    startRing[int(p)][size_t((issued[int(p)] - 1) % uint64_t(queueDepth))] = start;
    pipeFree[int(p)] = start + dur;
    out->stats.busy[int(p)] += dur;
    out->stats.instrs[int(p)]++;
    return start;
  }
  void emit(const Instr &in, Pipe p, uint64_t start, uint64_t end,
            int64_t bytes, Pipe flagSrc = Pipe::S, Pipe flagDst = Pipe::S,
            uint64_t flowId = 0) {
    if (traceGranted == 0) {
      int64_t prev = l.traceBudget.fetch_sub(kTraceChunk);
      traceGranted = std::clamp<int64_t>(prev, 0, kTraceChunk);
      if (traceGranted == 0) {
        traceOn = false;
        out->traceTruncated = true;
        return;
      }
    }
    --traceGranted;
    TraceEvent e;
    e.core = block;
    e.pipe = p;
    e.point = in.point;
    e.start = start;
    e.end = end;
    e.bytes = bytes;
    e.eventId = in.eventId;
    e.op = in.op;
    e.flagSrc = flagSrc;
    e.flagDst = flagDst;
    e.flowId = flowId;
    out->trace.push_back(e);
  }

  // --- instructions ---
  bool copyIn(const Instr &in, int32_t pc);
  bool copyOut(const Instr &in, int32_t pc);
  bool gmRange(const Instr &in, int64_t offset, int64_t count, uint8_t *&ptr);
  /// Checks the rows [offset + r * stride, + count) of a 2-D copy.
  bool gmRows(const Instr &in, int64_t offset, int64_t count, int64_t rows,
              int64_t stride, uint8_t *&ptr);
  int64_t localRowStride(const Instr &in, int64_t count) const {
    return in.localRowStride > 0 ? in.localRowStride
           : in.tileElems > 0    ? in.tileElems
                                 : count;
  }
  /// Records the rows of a 2-D local access with the race detector.
  void accessRows(bool isWrite, Space s, int64_t addr, int64_t rows,
                  int64_t rowBytes, int64_t strideBytes);
  uint64_t copyCycles(int64_t bytes, double bytesPerCycle) const {
    return uint64_t(std::ceil(arch.mteFixedCycles + double(bytes) / bytesPerCycle));
  }
  bool vector(const Instr &in, int32_t pc);
  bool scalarMemory(const Instr &in, int32_t pc);
  bool setFlag(const Instr &in);
  bool waitFlag(const Instr &in);
  void barrier(const Instr &in);
  bool scalarOp(const Instr &in);
  FlagState &flag(Pipe src, Pipe dst, unsigned id) {
    return flags[(size_t(src) * kNumPipes + size_t(dst)) * eventIds + id];
  }

  static constexpr int64_t kTraceChunk = 4096;
  Launch &l;
  const Program &program;
  const ArchModel &arch;
  const int queueDepth;
  const int eventIds;
  uint64_t scalarCycles = 1, flagCycles = 1;
  std::array<std::vector<uint8_t>, kNumSpaces> memory;
  std::vector<int64_t> regs;
  std::vector<FlagState> flags;
  std::unique_ptr<RaceDetector> races;

  // Per-block state.
  int block = 0;
  BlockOutcome *out = nullptr;
  bool traceOn = false;
  int64_t traceGranted = 0;
  uint64_t nextFlowId = 0;
  uint64_t issueTime = 0;
  std::array<uint64_t, kNumPipes> pipeFree{};
  std::array<uint64_t, kNumPipes> issued{};
  std::array<std::vector<uint64_t>, kNumPipes> startRing;
};

bool CoreRunner::gmRange(const Instr &in, int64_t offset, int64_t count,
                         uint8_t *&ptr) {
  const LaunchArg &arg = l.args[in.gmArg];
  int64_t w = byteWidth(in.dtype);
  int64_t elems = arg.bytes / w;
  if (count < 0)
    return fail(in, "negative element count",
                          std::to_string(count) + " elements");
  // A zero-length copy is a no-op on hardware (blockLen 0), wherever it points.
  if (count == 0) {
    ptr = static_cast<uint8_t *>(arg.data);
    return true;
  }
  if (offset < 0 || offset > elems || count > elems - offset)
    return fail(
        in, "GM out-of-bounds",
        "elements [" + std::to_string(offset) + ", " +
            std::to_string(offset + count) + ") of argument " +
            std::to_string(in.gmArg) + " (" + std::to_string(elems) +
            " elements)");
  ptr = static_cast<uint8_t *>(arg.data) + offset * w;
  return true;
}

bool CoreRunner::gmRows(const Instr &in, int64_t offset, int64_t count,
                        int64_t rows, int64_t stride, uint8_t *&ptr) {
  if (rows < 0)
    return fail(in, "negative row count", std::to_string(rows) + " rows");
  if (rows == 0 || count == 0) { // nothing moves: a no-op wherever it points
    ptr = static_cast<uint8_t *>(l.args[in.gmArg].data);
    return true;
  }
  // The rows are evenly spaced, so the first and the last bound them all.
  uint8_t *last;
  if (rows > 1 && !gmRange(in, offset + (rows - 1) * stride, count, last))
    return false;
  return gmRange(in, offset, count, ptr);
}

void CoreRunner::accessRows(bool isWrite, Space s, int64_t addr, int64_t rows,
                            int64_t rowBytes, int64_t strideBytes) {
  if (rows <= 0 || rowBytes <= 0)
    return;
  if (strideBytes == rowBytes || rows == 1) {
    int64_t hi = addr + (rows - 1) * strideBytes + rowBytes;
    isWrite ? races->write(s, addr, hi) : races->read(s, addr, hi);
    return;
  }
  for (int64_t r = 0; r < rows; ++r) {
    int64_t lo = addr + r * strideBytes;
    isWrite ? races->write(s, lo, lo + rowBytes)
            : races->read(s, lo, lo + rowBytes);
  }
}

bool CoreRunner::copyIn(const Instr &in, int32_t pc) {
  int64_t offset = val(in.a), count = val(in.b), rows = val(in.rows);
  int64_t w = byteWidth(in.dtype);
  const bool oneRow = rows == 1 && in.tileRows <= 1;
  int64_t stride = oneRow ? count : localRowStride(in, count);
  int64_t tileRows = oneRow ? 1 : std::max<int64_t>(in.tileRows, rows);
  if (oneRow) {
    if (in.hasPad && count > in.tileElems)
      return fail(in, "copy larger than its tile",
                  std::to_string(count) + " elements into a tile of " +
                      std::to_string(in.tileElems));
    if (in.hasPad)
      stride = in.tileElems;
  } else {
    if (count > stride)
      return fail(in, "copy row longer than the local row stride",
                  std::to_string(count) + " elements into rows of " +
                      std::to_string(stride));
    if (in.hasPad && rows > in.tileRows)
      return fail(in, "copy larger than its tile",
                  std::to_string(rows) + " rows into a tile of " +
                      std::to_string(in.tileRows));
  }
  uint8_t *src;
  if (!gmRows(in, offset, count, rows, val(in.gmRowStride), src))
    return false;
  // Local bytes written: whole padded rows of the tile, or the copied rows.
  int64_t rowBytes = in.hasPad ? stride * w : count * w;
  int64_t writtenRows = in.hasPad ? tileRows : rows;
  int64_t extent =
      writtenRows > 0 ? (writtenRows - 1) * stride * w + rowBytes : 0;
  if (!checkLocal(in, in.dstSpace, in.dstAddr, extent))
    return false;
  uint8_t *dst = memory[int(in.dstSpace)].data() + in.dstAddr;
  const int64_t gmStride = val(in.gmRowStride);
  if (count > 0)
    for (int64_t r = 0; r < rows; ++r)
      std::memcpy(dst + r * stride * w, src + r * gmStride * w,
                  size_t(count * w));
  if (in.hasPad) {
    uint8_t pad[8];
    encodeScalar(in.dtype, Scalar::ofFloat(in.fimm), pad);
    for (int64_t r = 0; r < tileRows; ++r)
      for (int64_t i = r < rows ? count : 0; i < stride; ++i)
        std::memcpy(dst + (r * stride + i) * w, pad, size_t(w));
  }
  if (races) {
    races->beginAccesses(in.pipe, pc);
    accessRows(true, in.dstSpace, in.dstAddr, writtenRows, rowBytes,
               stride * w);
  }
  int64_t bytes = rows * count * w;
  uint64_t dur = copyCycles(bytes, l.gmToLocalBytesPerCycle);
  uint64_t start = execute(in.pipe, enqueue(in.pipe), dur);
  out->stats.bytes[int(in.pipe)] += uint64_t(bytes);
  if (traceOn)
    emit(in, in.pipe, start, start + dur, bytes);
  return true;
}

bool CoreRunner::copyOut(const Instr &in, int32_t pc) {
  int64_t offset = val(in.a), count = val(in.b), rows = val(in.rows);
  int64_t w = byteWidth(in.dtype);
  int64_t stride = rows == 1 ? count : localRowStride(in, count);
  if (count > stride)
    return fail(in, "copy row longer than the local row stride",
                std::to_string(count) + " elements from rows of " +
                    std::to_string(stride));
  uint8_t *dst;
  const int64_t gmStride = val(in.gmRowStride);
  if (!gmRows(in, offset, count, rows, gmStride, dst))
    return false;
  int64_t extent = rows > 0 && count > 0 ? ((rows - 1) * stride + count) * w : 0;
  if (!checkLocal(in, in.srcSpace, in.src0Addr, extent))
    return false;
  const uint8_t *src = memory[int(in.srcSpace)].data() + in.src0Addr;
  if (count > 0) {
    if (in.atomic != AtomicKind::None) {
      std::lock_guard<std::mutex> lock(l.atomicMutex);
      for (int64_t r = 0; r < rows; ++r)
        atomicKernel(in.atomic, in.dtype, dst + r * gmStride * w,
                     src + r * stride * w, count);
    } else {
      for (int64_t r = 0; r < rows; ++r)
        std::memcpy(dst + r * gmStride * w, src + r * stride * w,
                    size_t(count * w));
    }
  }
  if (races) {
    races->beginAccesses(in.pipe, pc);
    accessRows(false, in.srcSpace, in.src0Addr, rows, count * w, stride * w);
  }
  int64_t bytes = rows * count * w;
  uint64_t dur = copyCycles(bytes, l.localToGmBytesPerCycle);
  uint64_t start = execute(in.pipe, enqueue(in.pipe), dur);
  out->stats.bytes[int(in.pipe)] += uint64_t(bytes);
  if (traceOn)
    emit(in, in.pipe, start, start + dur, bytes);
  return true;
}

bool CoreRunner::vector(const Instr &in, int32_t pc) {
  // Operand byte ranges (all in dstSpace), the cost and the bytes that count
  // towards repeats; then bounds, compute, races and timing in that order.
  struct Range {
    int64_t addr = 0, bytes = 0;
  };
  Range reads[3];
  int numReads = 0;
  Range write;
  VecCost cost;
  int64_t repeatBytes = 0;
  const DType t = in.dtype;
  const int64_t w = byteWidth(t);
  int64_t n = 0, rows = 0, cols = 0;
  const bool shaped = in.op == Opcode::VecTranspose || in.op == Opcode::VecCopy ||
                      in.op == Opcode::VecReduce || in.op == Opcode::VecBroadcast;
  if (shaped) {
    rows = val(in.a), cols = val(in.b);
    if (rows < 0 || cols < 0)
      return fail(in, "negative tile shape",
                  std::to_string(rows) + " x " + std::to_string(cols));
  }
  if (in.op == Opcode::VecTranspose) {
    reads[numReads++] = {in.src0Addr, rows * cols * w};
    write = {in.dstAddr, rows * cols * w};
    repeatBytes = rows * cols * w;
    cost = arch.vecDefault;
  } else if (in.op == Opcode::VecCopy) {
    auto span = [&](int64_t stride) {
      return rows == 0 || cols == 0 ? 0 : ((rows - 1) * stride + cols) * w;
    };
    reads[numReads++] = {in.src0Addr, span(in.srcRowStride)};
    write = {in.dstAddr, span(in.dstRowStride)};
    repeatBytes = rows * cols * w;
    cost = arch.vecDefault;
  } else if (in.op == Opcode::VecReduce || in.op == Opcode::VecBroadcast) {
    int64_t vecElems = (in.axis == 1 ? rows : cols) * w;
    repeatBytes = rows * cols * w;
    if (in.op == Opcode::VecReduce) {
      if ((in.reduceKind == ReduceKind::Max ||
           in.reduceKind == ReduceKind::Min) &&
          (in.axis == 1 ? cols : rows) == 0 && vecElems > 0)
        return fail(in, "max/min reduction over zero elements");
      reads[numReads++] = {in.src0Addr, repeatBytes};
      write = {in.dstAddr, vecElems};
      cost = arch.reduceCost;
    } else {
      reads[numReads++] = {in.src0Addr, vecElems};
      write = {in.dstAddr, repeatBytes};
      cost = arch.broadcastCost;
    }
  } else {
    n = val(in.c);
    if (n < 0)
      return fail(in, "negative element count", std::to_string(n) + " elements");
    repeatBytes = n * w;
    write = {in.dstAddr, n * w};
    switch (in.op) {
    case Opcode::VecBinary:
      reads[numReads++] = {in.src0Addr, n * w};
      reads[numReads++] = {in.src1Addr, n * w};
      cost = arch.costOf(in.vecOp);
      break;
    case Opcode::VecUnary:
      reads[numReads++] = {in.src0Addr, n * w};
      cost = arch.costOf(in.vecOp);
      break;
    case Opcode::VecScalar:
      reads[numReads++] = {in.src0Addr, n * w};
      cost = arch.costOfScalarForm(in.vecOp);
      break;
    case Opcode::VecDup:
      cost = arch.vecDefault;
      break;
    case Opcode::VecCast: {
      int64_t sw = byteWidth(in.srcDtype);
      reads[numReads++] = {in.src0Addr, n * sw};
      repeatBytes = n * std::max(w, sw);
      cost = arch.castCost;
      break;
    }
    case Opcode::VecCompare:
      reads[numReads++] = {in.src0Addr, n * w};
      if (!in.scalarRhs)
        reads[numReads++] = {in.src1Addr, n * w};
      write = {in.dstAddr, n}; // bool bytes
      cost = arch.compareCost;
      break;
    case Opcode::VecSelect:
      reads[numReads++] = {in.maskAddr, n};
      reads[numReads++] = {in.src0Addr, n * w};
      if (!in.scalarRhs)
        reads[numReads++] = {in.src1Addr, n * w};
      cost = arch.selectCost;
      break;
    default:
      return fail(in, "not a vector instruction");
    }
  }

  Space s = in.dstSpace;
  for (int i = 0; i < numReads; ++i)
    if (!checkLocal(in, s, reads[i].addr, reads[i].bytes))
      return false;
  if (!checkLocal(in, s, write.addr, write.bytes))
    return false;
  uint8_t *base = memory[int(s)].data();
  uint8_t *dst = base + in.dstAddr;
  const uint8_t *a = base + in.src0Addr;
  switch (in.op) {
  case Opcode::VecBinary:
  case Opcode::VecScalar: {
    BinaryForm form = in.op == Opcode::VecBinary ? BinaryForm::TensorTensor
                      : in.scalarFirst           ? BinaryForm::ScalarTensor
                                                 : BinaryForm::TensorScalar;
    if (!binaryKernel(in.vecOp, t, form, dst, a, base + in.src1Addr,
                      scalarOf(in, t), n))
      return fail(in, "integer division by zero");
    break;
  }
  case Opcode::VecUnary:
    unaryKernel(in.vecOp, t, dst, a, n);
    break;
  case Opcode::VecDup:
    dupKernel(t, dst, scalarOf(in, t), n);
    break;
  case Opcode::VecCast:
    castKernel(t, in.srcDtype, in.roundMode, dst, a, n);
    break;
  case Opcode::VecCompare:
    compareKernel(in.cmpMode, t, dst, a, base + in.src1Addr, in.scalarRhs,
                  scalarOf(in, t), n);
    break;
  case Opcode::VecSelect:
    selectKernel(t, dst, base + in.maskAddr, a, base + in.src1Addr,
                 in.scalarRhs, scalarOf(in, t), n);
    break;
  case Opcode::VecReduce:
    reduceKernel(in.reduceKind, t, in.axis, dst, a, rows, cols);
    break;
  case Opcode::VecBroadcast:
    broadcastKernel(t, in.axis, dst, a, rows, cols);
    break;
  case Opcode::VecTranspose:
    if (in.src0Addr < in.dstAddr + rows * cols * w &&
        in.dstAddr < in.src0Addr + rows * cols * w)
      return fail(in, "transpose in place is not supported");
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < cols; ++c)
        std::memcpy(dst + (c * rows + r) * w, a + (r * cols + c) * w, size_t(w));
    break;
  case Opcode::VecCopy:
    for (int64_t r = 0; r < rows; ++r)
      std::memmove(dst + r * in.dstRowStride * w, a + r * in.srcRowStride * w,
                   size_t(cols * w));
    break;
  default:
    break;
  }
  if (races) {
    races->beginAccesses(in.pipe, pc);
    for (int i = 0; i < numReads; ++i)
      races->read(s, reads[i].addr, reads[i].addr + reads[i].bytes);
    races->write(s, write.addr, write.addr + write.bytes);
  }
  int64_t repeats = (repeatBytes + 255) / 256;
  uint64_t dur = uint64_t(std::ceil(cost.fixed + cost.perRepeat * double(repeats)));
  uint64_t start = execute(in.pipe, enqueue(in.pipe), dur);
  if (traceOn)
    emit(in, in.pipe, start, start + dur, 0);
  return true;
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

bool CoreRunner::setFlag(const Instr &in) {
  FlagState &f = flag(in.flagSrc, in.flagDst, in.eventId);
  std::string which = std::string("(") + pipeName(in.flagSrc) + "->" +
                      pipeName(in.flagDst) + ", event " +
                      std::to_string(in.eventId) + ")";
  if (f.pending)
    return fail(in, "set_flag" + which +
                        " twice without wait (undefined behaviour on hardware)");
  Pipe p = in.flagSrc;
  uint64_t start;
  if (p == Pipe::S) {
    start = issueTime;
    issueTime += scalarCycles;
    out->stats.instrs[int(Pipe::S)]++;
  } else {
    // Queued in order behind the source pipe's work, but does not hold it.
    uint64_t enter = enqueue(p);
    start = std::max(enter, pipeFree[int(p)]);
    startRing[int(p)][size_t((issued[int(p)] - 1) % uint64_t(queueDepth))] = start;
    out->stats.instrs[int(p)]++;
  }
  uint64_t fire = start + flagCycles;
  if (fire < f.consumedAt)
    return fail(in, "set_flag" + which + " fires at cycle " +
                        std::to_string(fire) +
                        " before the previous wait_flag consumed the flag "
                        "(cycle " +
                        std::to_string(f.consumedAt) +
                        "): the flag would be set twice on hardware");
  f.pending = true;
  f.fireTime = fire;
  f.setPc = int32_t(&in - program.code.data());
  f.flowId = (uint64_t(block) << 32) | ++nextFlowId;
  if (races)
    races->onSetFlag(in.flagSrc, in.flagDst, in.eventId);
  if (traceOn)
    emit(in, p, start, fire, 0, in.flagSrc, in.flagDst, f.flowId);
  return true;
}

bool CoreRunner::waitFlag(const Instr &in) {
  FlagState &f = flag(in.flagSrc, in.flagDst, in.eventId);
  if (!f.pending)
    return fail(in, std::string("wait_flag(") + pipeName(in.flagSrc) + "->" +
                        pipeName(in.flagDst) + ", event " +
                        std::to_string(in.eventId) +
                        ") would hang: no set_flag pending");
  Pipe p = in.flagDst;
  uint64_t start, end;
  if (p == Pipe::S) {
    start = issueTime;
    end = std::max(start, f.fireTime) + flagCycles;
    issueTime = std::max(issueTime + scalarCycles, end);
    out->stats.instrs[int(Pipe::S)]++;
  } else {
    uint64_t enter = enqueue(p);
    start = std::max(enter, pipeFree[int(p)]);
    startRing[int(p)][size_t((issued[int(p)] - 1) % uint64_t(queueDepth))] = start;
    end = std::max(start, f.fireTime) + flagCycles;
    pipeFree[int(p)] = end;
    out->stats.instrs[int(p)]++;
  }
  f.pending = false;
  f.consumedAt = end;
  if (races)
    races->onWaitFlag(in.flagSrc, in.flagDst, in.eventId);
  if (traceOn)
    emit(in, p, start, end, 0, in.flagSrc, in.flagDst, f.flowId);
  return true;
}

void CoreRunner::barrier(const Instr &in) {
  if (in.allPipes) {
    uint64_t start = issueTime;
    uint64_t idle = issueTime;
    for (uint64_t t : pipeFree)
      idle = std::max(idle, t);
    issueTime = idle + scalarCycles;
    out->stats.instrs[int(Pipe::S)]++;
    if (races)
      races->onBarrierAll();
    if (traceOn)
      emit(in, Pipe::S, start, issueTime, 0);
    return;
  }
  // Each pipe executes in order in this model, so a single-pipe barrier only
  // occupies its queue slot.
  Pipe p = in.pipe;
  if (p == Pipe::S) {
    scalarStep(in);
    return;
  }
  uint64_t start = execute(p, enqueue(p), 0);
  if (traceOn)
    emit(in, p, start, start, 0);
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
  default:
    return 0;
  }
}

bool CoreRunner::scalarOp(const Instr &in) {
  int64_t a = val(in.a), b = val(in.b);
  int64_t r = 0;
  auto divByZero = [&] { return fail(in, "scalar division by zero"); };
  switch (in.scalarOp) {
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
      return divByZero();
    r = (b == -1) ? int64_t(0 - uint64_t(a)) : a / b;
    break;
  case ScalarOp::RemS:
    if (b == 0)
      return divByZero();
    r = (b == -1) ? 0 : a % b;
    break;
  case ScalarOp::CeilDivS:
    if (b == 0)
      return divByZero();
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
    r = floatScalarOp(in.scalarOp, bitsDouble(a), bitsDouble(b));
    break;
  }
  regs[in.dst] = r;
  return true;
}

void CoreRunner::run(int blockIndex, BlockOutcome &outcome) {
  block = blockIndex;
  out = &outcome;
  traceOn = l.options.collectTrace && l.options.maxTraceEvents > 0;
  traceGranted = 0;
  nextFlowId = 0;
  issueTime = 0;
  pipeFree = {};
  issued = {};
  std::fill(regs.begin(), regs.end(), 0);
  std::fill(flags.begin(), flags.end(), FlagState{});
  for (auto &m : memory)
    std::fill(m.begin(), m.end(), 0);
  if (races)
    races->reset(block);

  const std::vector<Instr> &code = program.code;
  const int32_t size = int32_t(code.size());
  const std::atomic<bool> *cancel = l.options.cancel;
  uint32_t sincePoll = 0;
  int32_t pc = 0;
  bool ok = true;
  while (ok && pc < size) {
    if (++sincePoll == (1u << 16)) {
      sincePoll = 0;
      if (l.abort.load(std::memory_order_relaxed)) {
        out->aborted = true;
        break;
      }
      if (cancel && cancel->load(std::memory_order_relaxed)) {
        out->ok = false;
        out->error = "cancelled";
        break;
      }
    }
    const Instr &in = code[pc];
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
    case Opcode::Scalar:
      ok = scalarOp(in);
      scalarStep(in);
      break;
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
    case Opcode::CopyLocalToGm:
      ok = copyOut(in, pc);
      break;
    case Opcode::VecBinary:
    case Opcode::VecUnary:
    case Opcode::VecDup:
    case Opcode::VecScalar:
    case Opcode::VecCast:
    case Opcode::VecCompare:
    case Opcode::VecSelect:
    case Opcode::VecReduce:
    case Opcode::VecBroadcast:
    case Opcode::VecCopy:
    case Opcode::VecTranspose:
      ok = vector(in, pc);
      break;
    case Opcode::ScalarLoadLocal:
    case Opcode::ScalarStoreLocal:
    case Opcode::ScalarLoadGm:
    case Opcode::ScalarStoreGm:
      ok = scalarMemory(in, pc);
      break;
    case Opcode::SetFlag:
      ok = setFlag(in);
      break;
    case Opcode::WaitFlag:
      ok = waitFlag(in);
      break;
    case Opcode::PipeBarrier:
      barrier(in);
      break;
    case Opcode::End:
      next = size;
      break;
    }
    pc = next;
  }
  // A flag still set when the kernel ends stays set for the next kernel on
  // this core (a hang or a race there): report the set that leaked.
  if (ok && out->ok && !out->aborted)
    for (const FlagState &f : flags)
      if (f.pending && f.setPc >= 0) {
        fail(code[f.setPc], "flag left set at the end of the kernel",
             "no wait_flag consumed it; the next kernel on this core "
             "would see a stale flag");
        break;
      }
  uint64_t end = issueTime;
  for (uint64_t t : pipeFree)
    end = std::max(end, t);
  out->stats.cycles = end;
  if (races)
    out->races = races->takeRaces();
  std::stable_sort(out->trace.begin(), out->trace.end(),
                   [](const TraceEvent &a, const TraceEvent &b) {
                     return a.start < b.start;
                   });
}

//===----------------------------------------------------------------------===//
// Validation of the program and the arguments, once per launch, so the
// interpreter loop can trust indices.
//===----------------------------------------------------------------------===//

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

std::string validate(const Program &program, const ArchModel &arch,
                     int blockNum, const std::vector<LaunchArg> &args,
                     std::array<bool, kNumSpaces> &usedSpaces) {
  if (blockNum <= 0)
    return "block count must be positive, got " + std::to_string(blockNum);
  if (args.size() != program.args.size())
    return "kernel " + program.kernelName + " takes " +
           std::to_string(program.args.size()) + " arguments, got " +
           std::to_string(args.size());
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
  auto regOk = [&](const Operand &o) {
    return o.reg < 0 || o.reg < program.numRegs;
  };
  for (size_t pc = 0; pc < program.code.size(); ++pc) {
    const Instr &in = program.code[pc];
    std::string where = "instruction " + std::to_string(pc) + " (" +
                        opName(program, in) + " at " +
                        locText(program, in.loc) + "): ";
    if (!regOk(in.a) || !regOk(in.b) || !regOk(in.c) || !regOk(in.scalar) ||
        !regOk(in.rows) || !regOk(in.gmRowStride) || in.dst >= program.numRegs)
      return where + "register out of range";
    switch (in.op) {
    case Opcode::ConstI:
    case Opcode::BlockIdx:
    case Opcode::BlockNum:
    case Opcode::Scalar:
    case Opcode::Select:
      if (in.dst < 0)
        return where + "missing destination register";
      break;
    case Opcode::ArgI:
    case Opcode::ArgF:
      if (in.dst < 0)
        return where + "missing destination register";
      if (in.argIndex < 0 || size_t(in.argIndex) >= args.size() ||
          args[in.argIndex].kind == ArgSpec::Kind::Gm)
        return where + "argument " + std::to_string(in.argIndex) +
               " is not a scalar argument";
      break;
    case Opcode::Jump:
    case Opcode::BranchIfZero:
      if (in.target < 0 || size_t(in.target) > program.code.size())
        return where + "jump target out of range";
      break;
    case Opcode::CopyGmToLocal:
    case Opcode::CopyLocalToGm: {
      if (in.gmArg < 0 || size_t(in.gmArg) >= args.size() ||
          program.args[in.gmArg].kind != ArgSpec::Kind::Gm)
        return where + "argument " + std::to_string(in.gmArg) +
               " is not a GM buffer";
      Space local = in.op == Opcode::CopyGmToLocal ? in.dstSpace : in.srcSpace;
      if (local == Space::GM)
        return where + "copy needs a local space";
      if (in.pipe == Pipe::S || in.pipe == Pipe::V || in.pipe == Pipe::M)
        return where + "copies run on an MTE or FIX pipe, not " +
               pipeName(in.pipe);
      if (in.atomic != AtomicKind::None && in.op != Opcode::CopyLocalToGm)
        return where + "atomic copies only write GM";
      usedSpaces[int(local)] = true;
      break;
    }
    case Opcode::VecBinary:
    case Opcode::VecUnary:
    case Opcode::VecDup:
    case Opcode::VecScalar:
    case Opcode::VecCast:
    case Opcode::VecCompare:
    case Opcode::VecSelect:
    case Opcode::VecReduce:
    case Opcode::VecBroadcast:
    case Opcode::VecCopy:
    case Opcode::VecTranspose: {
      if (in.dstSpace == Space::GM)
        return where + "vector operands must be in local memory";
      if (in.pipe != Pipe::V)
        return where + "vector ops run on pipe V, not " + pipeName(in.pipe);
      if ((in.op == Opcode::VecBinary || in.op == Opcode::VecScalar) &&
          !isBinaryVecOp(in.vecOp))
        return where + "not a binary vector op";
      if (in.op == Opcode::VecUnary && isBinaryVecOp(in.vecOp))
        return where + "not a unary vector op";
      if (in.op == Opcode::VecBinary || in.op == Opcode::VecUnary ||
          in.op == Opcode::VecScalar) {
        std::string why = vecOpTypeError(in.vecOp, in.dtype);
        if (!why.empty())
          return where + why;
      }
      if (in.op == Opcode::VecCast && in.roundMode == RoundMode::Odd &&
          !(in.srcDtype == DType::F32 && in.dtype == DType::F16))
        return where + "round mode odd only applies to float32 -> float16, "
                       "not " +
               dtypeName(in.srcDtype) + " -> " + dtypeName(in.dtype);
      if (in.op == Opcode::VecReduce && in.dtype == DType::Bool)
        return where + "reductions do not support bool";
      if ((in.op == Opcode::VecReduce || in.op == Opcode::VecBroadcast) &&
          in.axis != 0 && in.axis != 1)
        return where + "axis must be 0 or 1, got " + std::to_string(in.axis);
      usedSpaces[int(in.dstSpace)] = true;
      break;
    }
    case Opcode::ScalarLoadLocal:
    case Opcode::ScalarStoreLocal:
    case Opcode::ScalarLoadGm:
    case Opcode::ScalarStoreGm: {
      bool load = in.op == Opcode::ScalarLoadLocal || in.op == Opcode::ScalarLoadGm;
      if (load && in.dst < 0)
        return where + "missing destination register";
      if (in.pipe != Pipe::S)
        return where + "scalar loads and stores run on pipe S, not " +
               pipeName(in.pipe);
      if (in.op == Opcode::ScalarLoadGm || in.op == Opcode::ScalarStoreGm) {
        if (in.gmArg < 0 || size_t(in.gmArg) >= args.size() ||
            program.args[in.gmArg].kind != ArgSpec::Kind::Gm)
          return where + "argument " + std::to_string(in.gmArg) +
                 " is not a GM buffer";
        break;
      }
      Space local = load ? in.srcSpace : in.dstSpace;
      if (local == Space::GM)
        return where + "local scalar access needs a local space";
      usedSpaces[int(local)] = true;
      break;
    }
    case Opcode::SetFlag:
    case Opcode::WaitFlag:
      if (in.eventId >= arch.eventIdsPerPipePair)
        return where + "event id " + std::to_string(in.eventId) +
               " out of range (" + std::to_string(arch.eventIdsPerPipePair) +
               " ids per pipe pair)";
      break;
    case Opcode::PipeBarrier:
    case Opcode::End:
      break;
    }
  }
  for (int s = 1; s < kNumSpaces; ++s)
    if (usedSpaces[s] && arch.capacity[s] <= 0)
      return std::string("the program uses ") + spaceName(Space(s)) +
             " but " + arch.name + " has none";
  return {};
}

} // namespace

LaunchResult simulate(const Program &program, const ArchModel &arch,
                      int blockNum, const std::vector<LaunchArg> &args,
                      const SimOptions &options) {
  LaunchResult result;
  Launch launch{program, arch, args, options, blockNum};
  result.error = validate(program, arch, blockNum, args, launch.usedSpaces);
  if (!result.error.empty())
    return result;

  // Chip-wide HBM cap: the active cores share it evenly, each direction
  // limited to min(per-core MTE bandwidth, hbm / active cores).
  int physical = std::max(1, usesCubeCore(program) ? arch.aicCores : arch.aivCores);
  int active = std::min(blockNum, physical);
  double hbmShare = arch.hbmBytesPerCycle > 0
                        ? arch.hbmBytesPerCycle / active
                        : std::numeric_limits<double>::infinity();
  launch.gmToLocalBytesPerCycle =
      std::max(1e-9, std::min(arch.gmToUbBytesPerCycle, hbmShare));
  launch.localToGmBytesPerCycle =
      std::max(1e-9, std::min(arch.ubToGmBytesPerCycle, hbmShare));
  launch.traceBudget = options.collectTrace ? options.maxTraceEvents : 0;

  std::vector<BlockOutcome> outcomes(static_cast<size_t>(blockNum));
  std::atomic<int> nextBlock{0};
  auto worker = [&] {
    CoreRunner runner(launch);
    for (;;) {
      int b = nextBlock.fetch_add(1);
      if (b >= blockNum)
        return;
      if (launch.abort.load()) {
        outcomes[b].aborted = true;
        continue;
      }
      runner.run(b, outcomes[b]);
      if (!outcomes[b].ok)
        launch.abort = true;
    }
  };
  int threads = options.threads > 0
                    ? options.threads
                    : int(std::max(1u, std::thread::hardware_concurrency()));
  threads = std::min(threads, blockNum);
  if (threads <= 1) {
    worker();
  } else {
    std::vector<std::thread> pool;
    for (int i = 0; i < threads; ++i)
      pool.emplace_back(worker);
    for (std::thread &t : pool)
      t.join();
  }

  result.ok = true;
  for (BlockOutcome &o : outcomes) {
    if (!o.ok) {
      result.ok = false;
      result.error = o.error;
      break;
    }
  }

  // Waves: each block starts on the physical core that frees up first.
  std::priority_queue<uint64_t, std::vector<uint64_t>, std::greater<>> freeAt;
  for (int i = 0; i < std::min(blockNum, physical); ++i)
    freeAt.push(0);
  result.cores.resize(size_t(blockNum));
  std::set<std::pair<int32_t, int32_t>> seenRaces;
  for (int b = 0; b < blockNum; ++b) {
    BlockOutcome &o = outcomes[b];
    uint64_t start = freeAt.top();
    freeAt.pop();
    CoreStats &stats = result.cores[b];
    stats = o.stats;
    stats.start = start;
    stats.cycles = start + o.stats.cycles;
    freeAt.push(stats.cycles);
    result.totalCycles = std::max(result.totalCycles, stats.cycles);
    for (TraceEvent &e : o.trace) {
      e.start += start;
      e.end += start;
    }
    result.trace.insert(result.trace.end(), o.trace.begin(), o.trace.end());
    result.traceTruncated |= o.traceTruncated;
    for (Race &r : o.races)
      if (result.races.size() < RaceDetector::kMaxRaces &&
          seenRaces.insert({r.firstPoint, r.secondPoint}).second)
        result.races.push_back(std::move(r));
    o = BlockOutcome{};
  }
  if (result.trace.size() > size_t(std::max<int64_t>(0, options.maxTraceEvents))) {
    result.trace.resize(size_t(options.maxTraceEvents));
    result.traceTruncated = true;
  }
  result.timeUs = double(result.totalCycles) / arch.clockMHz;
  return result;
}

} // namespace asc2::sim
