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
//       cube:    GM->L1 (MTE2) like a copy at gm_to_l1 (HBM-capped), rows x
//                cols valid elements; L1->L0A/L0B (MTE1) padded tile bytes /
//                l1_to_l0a|b, no fixed latency; mmad (M) mmadFixedCycles +
//                fractals * mmadCyclesPerFractal (16x16x16 f16/bf16, 16x8x16
//                f32 at mmadF32FractalFactor each, 16x32x16 int8); fixpipe
//                (FIX) mteFixedCycles + rows * cols * 4 L0C bytes /
//                l0c_to_gm (HBM-capped)
//   * scalar loads/stores hold the scalar unit for scalar_local_cycles (UB,
//     L1) or scalar_gm_load/store_cycles (GM) instead of one issue slot;
//   * set_flag fires once all earlier work of its source pipe is done (it
//     does not hold that pipe); wait_flag holds its destination pipe (or the
//     scalar unit for S) until the matching set has fired; PIPE_ALL holds the
//     scalar unit until every pipe is idle;
//   * buffer ids (Ascend950 Mutex): get_buf holds its pipe until the previous
//     holder's rls_buf has fired (ids are granted in issue order), rls_buf
//     fires once its pipe's earlier work is done, like set_flag; each costs
//     bufIdCycles. A get_buf of an id another pipe still holds in program
//     order, or that its own pipe holds, can never be granted: a deadlock
//     error, as is an id still held when the kernel ends.
//
// Blocks beyond the number of physical cores run in waves: a block starts on
// the first core that becomes free.
//
// MIX kernels: a block is a group of one AIC and one AIV CoreRunner on the
// same worker thread, each executing the instructions whose Instr::cores bit
// it has. They run interleaved: a core runs until it ends or reaches a
// cross-core wait whose counter is zero, then the other one runs. Cross-core
// flags are counting semaphores per (group, direction, id); a set arrives
// crossCoreFlagCycles after it fires and a wait completes at max(its issue
// time, the arrival of the earliest pending set). When neither core can move
// the launch stops with a deadlock error.
//
//===----------------------------------------------------------------------===//

#include "asc2/Sim/Simulator.h"

#include "CubeKernels.h"
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
#include <tuple>

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
  /// Local spaces the program touches on vector cores [0] and cube cores [1].
  std::array<std::array<bool, kNumSpaces>, 2> usedSpaces{};
  double gmToLocalBytesPerCycle = 1, localToGmBytesPerCycle = 1;
  double gmToL1BytesPerCycle = 1, l0cToGmBytesPerCycle = 1;
  /// blockNum slices of program.workspaceBytesPerBlock bytes, zero-filled.
  std::vector<uint8_t> workspace;
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

/// Cross-core flags of one MIX group. Side 0 is the AIC, side 1 the AIV;
/// pending[side][id] are the sets raised towards `side` and not yet consumed.
struct CrossCoreGroup {
  static constexpr int kIds = 16;
  static constexpr int kMaxCount = 15; // hardware counter limit (§2.4)
  struct Pending {
    uint64_t arrive = 0; // set fire time + crossCoreFlagCycles
    uint64_t flowId = 0;
    int32_t setPc = -1;
  };
  /// Counter changes for the limit check: +1 at a set's arrival, -1 when a
  /// wait completes.
  struct Change {
    uint64_t time;
    int delta;
    int32_t setPc;
  };
  std::array<std::array<std::vector<Pending>, kIds>, 2> pending;
  std::array<std::array<std::vector<Change>, kIds>, 2> history;
  uint64_t sets = 0; // progress counter: sets raised so far
  uint64_t nextFlowId = 0;

  void reset() {
    for (auto &side : pending)
      for (auto &v : side)
        v.clear();
    for (auto &side : history)
      for (auto &v : side)
        v.clear();
    sets = 0;
    nextFlowId = 0;
  }
};

/// A buffer id (Mutex) in program order: who holds it, when it was last
/// released.
struct BufIdState {
  int holder = -1;          // the pipe holding it, or -1
  uint64_t releasedAt = 0;  // cycle the last rls_buf fired
  int32_t getPc = -1;       // the holder's get_buf
  uint64_t flowId = 0;      // of the last release, for the trace
  Pipe releasedBy = Pipe::S;
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
  /// `isAic`: an AIC (cube core) rather than an AIV.
  CoreRunner(Launch &launch, bool isAic)
      : l(launch), program(launch.program), arch(launch.arch),
        queueDepth(std::max(1, launch.arch.pipeQueueDepth)),
        eventIds(std::max(1, launch.arch.eventIdsPerPipePair)), isAic(isAic),
        mix(launch.program.kernelType == KernelType::Mix),
        coreBit(!mix ? 0 : isAic ? Instr::kAicCore : Instr::kAivCore) {
    const std::array<bool, kNumSpaces> &used = l.usedSpaces[isAic ? 1 : 0];
    for (int s = 1; s < kNumSpaces; ++s)
      if (used[s])
        memory[s].resize(size_t(arch.capacity[s]));
    regs.resize(size_t(std::max(0, program.numRegs)));
    flags.resize(size_t(kNumPipes) * kNumPipes * eventIds);
    for (auto &ring : startRing)
      ring.resize(size_t(queueDepth));
    scalarCycles = std::max<uint64_t>(1, uint64_t(std::llround(arch.scalarCycles)));
    flagCycles = uint64_t(std::llround(arch.flagCycles));
    bufIds.resize(size_t(std::max(0, arch.bufferIds)));
    bufIdCycles = uint64_t(std::llround(arch.bufIdCycles));
    if (l.options.detectRaces)
      races = std::make_unique<RaceDetector>(program, arch, used);
  }

  enum class Status { Done, Blocked };
  /// Starts block `block`; `group` holds the cross-core flags (MIX only).
  void begin(int block, BlockOutcome &out, CrossCoreGroup *group);
  /// Runs until the kernel ends, fails, is aborted or cancelled (Done), or
  /// reaches a cross-core wait with no pending set (Blocked; resume() again
  /// after the other core of the group raised a set).
  Status resume();
  /// End-of-kernel checks and statistics, after resume() returned Done (or
  /// the group stopped).
  void finish();
  /// Runs a whole block of an AIV_ONLY / AIC_ONLY kernel.
  void run(int block, BlockOutcome &out) {
    begin(block, out, nullptr);
    resume();
    finish();
  }
  /// The cross-core wait the core is blocked on.
  const Instr &blockedOn() const { return program.code[cursor]; }
  const char *sideName() const { return isAic ? "AIC" : "AIV"; }
  /// Stops the block with an error at `in` (see fail()).
  void failAt(const Instr &in, const std::string &what,
              const std::string &detail) {
    fail(in, what, detail);
  }
  bool ok() const { return out->ok && !out->aborted; }
  /// Stops a core whose group partner failed: no end-of-kernel checks.
  void abortRun() {
    out->aborted = true;
    stopped = true;
  }
  const Program &programRef() const { return program; }

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
                 std::to_string(block) + (mix ? isAic ? " (AIC)" : " (AIV)" : "");
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
  /// A data-moving instruction: `dur` cycles on its pipe, `bytes` moved,
  /// traced.
  void transfer(const Instr &in, uint64_t dur, int64_t bytes) {
    uint64_t start = execute(in.pipe, enqueue(in.pipe), dur);
    out->stats.bytes[int(in.pipe)] += uint64_t(bytes);
    if (traceOn)
      emit(in, in.pipe, start, start + dur, bytes);
  }
  /// A cube copy of rows x cols valid elements into / from its tile.
  bool checkTileCopy(const Instr &in, int64_t rows, int64_t cols,
                     const char *direction) {
    if (rows < 0 || cols < 0)
      return fail(in, "negative copy shape",
                  std::to_string(rows) + " x " + std::to_string(cols));
    if (rows > in.tileRows || cols > in.tileCols)
      return fail(in, "copy larger than its tile",
                  std::to_string(rows) + " x " + std::to_string(cols) +
                      " elements " + direction + " a tile of " +
                      std::to_string(in.tileRows) + " x " +
                      std::to_string(in.tileCols));
    return true;
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
    e.cube = isAic;
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
  bool copyGmToL1Nz(const Instr &in, int32_t pc);
  bool loadL1ToL0(const Instr &in, int32_t pc);
  bool mmad(const Instr &in, int32_t pc);
  bool copyL1ToBt(const Instr &in, int32_t pc);
  bool fixpipeToL1(const Instr &in, int32_t pc);
  bool fixpipe(const Instr &in, int32_t pc);
  bool crossCoreSet(const Instr &in, int32_t pc);
  /// False when no set is pending (the core blocks; nothing happened).
  bool crossCoreWait(const Instr &in);
  /// The GM buffer a GM access of `in` addresses: a kernel argument or the
  /// block's workspace slice.
  struct GmBuffer {
    uint8_t *data;
    int64_t bytes;
  };
  GmBuffer gmBuffer(const Instr &in) const {
    if (in.gmArg == kWorkspaceArg) {
      int64_t slice = program.workspaceBytesPerBlock;
      return {l.workspace.data() + int64_t(block) * slice, slice};
    }
    const LaunchArg &arg = l.args[in.gmArg];
    return {static_cast<uint8_t *>(arg.data), arg.bytes};
  }
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
  std::pair<uint64_t, uint64_t> blockPipeUntil(Pipe p, uint64_t readyAt, uint64_t cycles);
  bool waitFlag(const Instr &in);
  bool getBuf(const Instr &in);
  bool rlsBuf(const Instr &in);
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
  std::vector<BufIdState> bufIds; // arch.bufferIds of them
  uint64_t bufIdCycles = 1;
  std::unique_ptr<RaceDetector> races;
  const bool isAic, mix;
  /// MIX: the Instr::cores bit of this core (instructions without it are
  /// not in this core's stream); 0 otherwise (every instruction runs).
  const uint8_t coreBit;
  cube::MmadScratch mmadScratch;
  std::vector<uint8_t> fixRow; // atomic fixpipe: one converted row

  // Per-block state.
  int block = 0;
  BlockOutcome *out = nullptr;
  CrossCoreGroup *group = nullptr;
  int32_t cursor = 0;   // the next instruction (resume() continues there)
  bool stopped = false; // failed, aborted or cancelled
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
  const GmBuffer buf = gmBuffer(in);
  int64_t w = byteWidth(in.dtype);
  int64_t elems = buf.bytes / w;
  if (count < 0)
    return fail(in, "negative element count",
                          std::to_string(count) + " elements");
  // A zero-length copy is a no-op on hardware (blockLen 0), wherever it points.
  if (count == 0) {
    ptr = buf.data;
    return true;
  }
  if (offset < 0 || offset > elems || count > elems - offset)
    return fail(
        in, "GM out-of-bounds",
        "elements [" + std::to_string(offset) + ", " +
            std::to_string(offset + count) + ") of " +
            (in.gmArg == kWorkspaceArg
                 ? std::string("the block's workspace")
                 : "argument " + std::to_string(in.gmArg)) +
            " (" + std::to_string(elems) + " elements)");
  ptr = buf.data + offset * w;
  return true;
}

bool CoreRunner::gmRows(const Instr &in, int64_t offset, int64_t count,
                        int64_t rows, int64_t stride, uint8_t *&ptr) {
  if (rows < 0)
    return fail(in, "negative row count", std::to_string(rows) + " rows");
  if (rows == 0 || count == 0) { // nothing moves: a no-op wherever it points
    ptr = gmBuffer(in).data;
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
  uint64_t dur = copyCycles(bytes, in.dstSpace == Space::L1
                                       ? l.gmToL1BytesPerCycle
                                       : l.gmToLocalBytesPerCycle);
  transfer(in, dur, bytes);
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
  transfer(in, dur, bytes);
  return true;
}

bool CoreRunner::copyGmToL1Nz(const Instr &in, int32_t pc) {
  int64_t offset = val(in.a), cols = val(in.b), rows = val(in.rows);
  if (!checkTileCopy(in, rows, cols, "into"))
    return false;
  uint8_t *src;
  const int64_t gmStride = val(in.gmRowStride);
  if (!gmRows(in, offset, cols, rows, gmStride, src))
    return false;
  const int64_t tile =
      cube::tileBytes(cube::Layout::NZ, in.dtype, in.tileRows, in.tileCols);
  if (!checkLocal(in, Space::L1, in.dstAddr, tile))
    return false;
  cube::ndToNz(in.dtype, memory[int(Space::L1)].data() + in.dstAddr,
               in.tileRows, in.tileCols, src, rows, cols, gmStride);
  if (races) {
    races->beginAccesses(in.pipe, pc);
    races->write(Space::L1, in.dstAddr, in.dstAddr + tile);
  }
  int64_t bytes = rows * cols * int64_t(byteWidth(in.dtype));
  uint64_t dur = copyCycles(bytes, l.gmToL1BytesPerCycle);
  transfer(in, dur, bytes);
  return true;
}

bool CoreRunner::loadL1ToL0(const Instr &in, int32_t pc) {
  const bool toL0b = in.dstSpace == Space::L0B;
  const DType t = in.dtype;
  // The source: the whole L1 tile, or the tile the sub-tile is cut from.
  const bool sub = in.srcTileRows > 0 || in.srcTileCols > 0;
  const int64_t srcRows = sub ? in.srcTileRows : in.tileRows;
  const int64_t srcCols = sub ? in.srcTileCols : in.tileCols;
  const int64_t row0 = val(in.a), col0 = val(in.b);
  const int64_t srp = cube::padRows(cube::Layout::NZ, t, srcRows);
  const int64_t scp = cube::padCols(cube::Layout::NZ, t, srcCols);
  // The source sub-tile: the destination's shape, transposed with transpose.
  const int64_t subRows = in.transpose ? in.tileCols : in.tileRows;
  const int64_t subCols = in.transpose ? in.tileRows : in.tileCols;
  if (row0 < 0 || col0 < 0 || row0 % 16 || col0 % 16 ||
      row0 + subRows > srp || col0 + subCols > scp)
    return fail(in, "sub-tile outside its L1 tile",
                std::to_string(in.tileRows) + " x " +
                    std::to_string(in.tileCols) + " at (" +
                    std::to_string(row0) + ", " + std::to_string(col0) +
                    ") of a " + std::to_string(srcRows) + " x " +
                    std::to_string(srcCols) +
                    " tile (origin a multiple of 16, inside the padded tile)");
  const int64_t w = byteWidth(t), c0 = cube::c0Of(t);
  const int64_t srcBytes = srp * scp * w;
  const int64_t dstBytes = cube::tileBytes(
      toL0b ? cube::Layout::ZN : cube::Layout::ZZ, t, in.tileRows, in.tileCols);
  if (!checkLocal(in, Space::L1, in.src0Addr, srcBytes) ||
      !checkLocal(in, in.dstSpace, in.dstAddr, dstBytes))
    return false;
  cube::nzToL0(t, toL0b, memory[int(in.dstSpace)].data() + in.dstAddr,
               memory[int(Space::L1)].data() + in.src0Addr, in.tileRows,
               in.tileCols, srcRows, srcCols, row0, col0, in.transpose);
  if (races && in.transpose) {
    // A transposing load reads the source rows of its sub-tile in every
    // column block it touches: record the whole source tile (conservative).
    races->beginAccesses(in.pipe, pc);
    races->read(Space::L1, in.src0Addr, in.src0Addr + srcBytes);
    races->write(in.dstSpace, in.dstAddr, in.dstAddr + dstBytes);
  } else if (races) {
    // The sub-tile's rows of each C0-wide column block of the NZ tile.
    races->beginAccesses(in.pipe, pc);
    const cube::Layout layout = toL0b ? cube::Layout::ZN : cube::Layout::ZZ;
    const int64_t firstBlock = col0 / c0;
    const int64_t endBlock = std::min(
        scp / c0,
        (col0 + cube::padCols(layout, t, in.tileCols) + c0 - 1) / c0);
    const int64_t rows =
        std::min(srp - row0, cube::padRows(layout, t, in.tileRows));
    accessRows(false, Space::L1,
               in.src0Addr + (firstBlock * srp + row0) * c0 * w,
               endBlock - firstBlock, rows * c0 * w, srp * c0 * w);
    races->write(in.dstSpace, in.dstAddr, in.dstAddr + dstBytes);
  }
  double bw = toL0b ? arch.l1ToL0bBytesPerCycle : arch.l1ToL0aBytesPerCycle;
  uint64_t dur = uint64_t(std::ceil(double(dstBytes) / std::max(1e-9, bw)));
  transfer(in, dur, dstBytes);
  return true;
}

bool CoreRunner::mmad(const Instr &in, int32_t pc) {
  const int64_t m = val(in.a), k = val(in.b), n = val(in.c);
  const bool int8 = in.srcDtype == DType::I8;
  const int64_t kStep = int8 ? 32 : 16;
  if (m <= 0 || k <= 0 || n <= 0 || m % 16 || n % 16 || k % kStep)
    return fail(in, "invalid mmad shape",
                "m x k x n = " + std::to_string(m) + " x " + std::to_string(k) +
                    " x " + std::to_string(n) +
                    " (each a positive multiple of 16" +
                    (int8 ? ", k of 32 for int8)" : ")"));
  const int64_t w = byteWidth(in.srcDtype);
  const int64_t aBytes = m * k * w, bBytes = k * n * w, cBytes = m * n * 4;
  if (!checkLocal(in, Space::L0A, in.src0Addr, aBytes) ||
      !checkLocal(in, Space::L0B, in.src1Addr, bBytes) ||
      !checkLocal(in, Space::L0C, in.dstAddr, cBytes))
    return false;
  const bool init = val(in.init) != 0;
  const bool bias = init && in.hasBias;
  if (bias && !checkLocal(in, Space::BT, in.biasAddr, n * 4))
    return false;
  cube::mmadKernel(in.srcDtype, memory[int(Space::L0C)].data() + in.dstAddr,
                   memory[int(Space::L0A)].data() + in.src0Addr,
                   memory[int(Space::L0B)].data() + in.src1Addr, m, k, n, init,
                   mmadScratch, in.hf32);
  if (bias)
    cube::addBias(in.dtype, memory[int(Space::L0C)].data() + in.dstAddr,
                  memory[int(Space::BT)].data() + in.biasAddr, m, n);
  if (races) {
    races->beginAccesses(in.pipe, pc);
    races->read(Space::L0A, in.src0Addr, in.src0Addr + aBytes);
    races->read(Space::L0B, in.src1Addr, in.src1Addr + bBytes);
    if (!init)
      races->read(Space::L0C, in.dstAddr, in.dstAddr + cBytes);
    if (bias)
      races->read(Space::BT, in.biasAddr, in.biasAddr + n * 4);
    races->write(Space::L0C, in.dstAddr, in.dstAddr + cBytes);
  }
  // Fractals of the cube unit: 16 x K0 x 16 with K0 = 16 (f16/bf16), 8 (f32,
  // each costing mmadF32FractalFactor) or 32 (int8).
  const int64_t k0 = in.srcDtype == DType::F32 ? 8 : kStep;
  double fractals = double(m / 16) * double(k / k0) * double(n / 16);
  if (in.srcDtype == DType::F32)
    fractals *= arch.mmadF32FractalFactor;
  uint64_t dur = uint64_t(
      std::ceil(arch.mmadFixedCycles + fractals * arch.mmadCyclesPerFractal));
  uint64_t start = execute(in.pipe, enqueue(in.pipe), dur);
  if (traceOn)
    emit(in, in.pipe, start, start + dur, 0);
  return true;
}

bool CoreRunner::fixpipeToL1(const Instr &in, int32_t pc) {
  const int64_t srcBytes =
      cube::tileBytes(cube::Layout::L0C, in.srcDtype, in.tileRows, in.tileCols);
  const int64_t dstBytes =
      cube::tileBytes(cube::Layout::NZ, in.dtype, in.tileRows, in.tileCols);
  if (!checkLocal(in, Space::L0C, in.src0Addr, srcBytes) ||
      !checkLocal(in, Space::L1, in.dstAddr, dstBytes))
    return false;
  std::memset(memory[int(Space::L1)].data() + in.dstAddr, 0, size_t(dstBytes));
  cube::fixpipeToNz(in.dtype, in.srcDtype, in.relu,
                    memory[int(Space::L1)].data() + in.dstAddr,
                    memory[int(Space::L0C)].data() + in.src0Addr, in.tileRows,
                    in.tileCols);
  if (races) {
    races->beginAccesses(in.pipe, pc);
    races->read(Space::L0C, in.src0Addr, in.src0Addr + srcBytes);
    races->write(Space::L1, in.dstAddr, in.dstAddr + dstBytes);
  }
  // L0C -> L1 runs at about the L0C -> GM rate (216.88 vs 209.32 GB/s per
  // core on 910B1, ascend-hw-model.md 1.5): that rate stands in for it.
  uint64_t dur = uint64_t(std::ceil(arch.mteFixedCycles +
                                    double(srcBytes) /
                                        std::max(1e-9, arch.l0cToGmBytesPerCycle)));
  transfer(in, dur, srcBytes);
  return true;
}

bool CoreRunner::copyL1ToBt(const Instr &in, int32_t pc) {
  const int64_t count = val(in.c);
  const int64_t bytes = count * byteWidth(in.dtype);
  // f16/bf16 bias rows are widened to the bias table's f32 on the way.
  const int64_t srcBytes = count * byteWidth(in.srcDtype);
  // Part of a longer L1 row (tileElems elements) from element `a` on.
  const int64_t offset = val(in.a);
  if (count < 0)
    return fail(in, "negative copy size", std::to_string(count));
  if (offset < 0 || (in.tileElems > 0 && offset + count > in.tileElems))
    return fail(in, "bias row part outside its L1 row",
                std::to_string(count) + " values at " + std::to_string(offset) +
                    " of a row of " + std::to_string(in.tileElems));
  const int64_t src = in.src0Addr + offset * byteWidth(in.srcDtype);
  if (!checkLocal(in, Space::L1, src, srcBytes) ||
      !checkLocal(in, Space::BT, in.dstAddr, bytes))
    return false;
  cube::widenToF32(in.srcDtype, memory[int(Space::BT)].data() + in.dstAddr,
                   memory[int(Space::L1)].data() + src, count);
  if (races) {
    races->beginAccesses(in.pipe, pc);
    races->read(Space::L1, src, src + srcBytes);
    races->write(Space::BT, in.dstAddr, in.dstAddr + bytes);
  }
  // L1 -> BT has no published bandwidth: the L1 -> L0B rate (the narrower
  // MTE1 path) stands in for it.
  uint64_t dur = uint64_t(std::ceil(double(bytes) /
                                    std::max(1e-9, arch.l1ToL0bBytesPerCycle)));
  transfer(in, dur, bytes);
  return true;
}

bool CoreRunner::fixpipe(const Instr &in, int32_t pc) {
  int64_t offset = val(in.a), cols = val(in.b), rows = val(in.rows);
  if (!checkTileCopy(in, rows, cols, "from"))
    return false;
  uint8_t *dst;
  const int64_t gmStride = val(in.gmRowStride);
  if (!gmRows(in, offset, cols, rows, gmStride, dst))
    return false;
  const int64_t rp = cube::pad16(in.tileRows);
  const int64_t tile =
      cube::tileBytes(cube::Layout::L0C, in.srcDtype, in.tileRows, in.tileCols);
  if (!checkLocal(in, Space::L0C, in.src0Addr, tile))
    return false;
  const uint8_t *src = memory[int(Space::L0C)].data() + in.src0Addr;
  const int64_t w = byteWidth(in.dtype);
  if (rows > 0 && cols > 0) {
    if (in.atomic != AtomicKind::None) {
      fixRow.resize(size_t(cols * w));
      std::lock_guard<std::mutex> lock(l.atomicMutex);
      for (int64_t r = 0; r < rows; ++r) {
        cube::fixpipeRow(in.dtype, in.srcDtype, in.relu, fixRow.data(), src,
                         rp, r, cols);
        atomicKernel(in.atomic, in.dtype, dst + r * gmStride * w,
                     fixRow.data(), cols);
      }
    } else {
      for (int64_t r = 0; r < rows; ++r)
        cube::fixpipeRow(in.dtype, in.srcDtype, in.relu,
                         dst + r * gmStride * w, src, rp, r, cols);
    }
  }
  if (races && rows > 0 && cols > 0) {
    // The valid rows of each 16-column block of the NZ tile.
    races->beginAccesses(in.pipe, pc);
    accessRows(false, Space::L0C, in.src0Addr, (cols + 15) / 16, rows * 64,
               rp * 64);
  }
  int64_t bytes = rows * cols * 4; // read from L0C
  uint64_t dur = copyCycles(bytes, l.l0cToGmBytesPerCycle);
  transfer(in, dur, bytes);
  return true;
}

bool CoreRunner::crossCoreSet(const Instr &in, int32_t pc) {
  Pipe p = in.pipe;
  uint64_t start;
  if (p == Pipe::S) {
    start = issueTime;
    issueTime += scalarCycles;
  } else {
    // Fires once the earlier work of its pipe is done; does not hold it.
    uint64_t enter = enqueue(p);
    start = std::max(enter, pipeFree[int(p)]);
    startRing[int(p)][size_t((issued[int(p)] - 1) % uint64_t(queueDepth))] = start;
  }
  out->stats.instrs[int(p)]++;
  CrossCoreGroup::Pending set;
  set.arrive = start + uint64_t(std::llround(arch.crossCoreFlagCycles));
  set.flowId = (uint64_t(block) << 32) | (uint64_t(1) << 31) |
               ++group->nextFlowId;
  set.setPc = pc;
  const int to = isAic ? 1 : 0;
  group->pending[to][in.eventId].push_back(set);
  group->history[to][in.eventId].push_back({set.arrive, +1, pc});
  ++group->sets;
  if (traceOn)
    emit(in, p, start, start + flagCycles, 0, p, p, set.flowId);
  return true;
}

bool CoreRunner::crossCoreWait(const Instr &in) {
  const int me = isAic ? 0 : 1;
  std::vector<CrossCoreGroup::Pending> &pending = group->pending[me][in.eventId];
  if (pending.empty())
    return false;
  // The counter is > 0 from the earliest arrival on.
  auto first = std::min_element(
      pending.begin(), pending.end(),
      [](const CrossCoreGroup::Pending &a, const CrossCoreGroup::Pending &b) {
        return a.arrive < b.arrive;
      });
  CrossCoreGroup::Pending set = *first;
  pending.erase(first);
  Pipe p = in.pipe;
  uint64_t start, end;
  if (p == Pipe::S) {
    start = issueTime;
    end = std::max(start, set.arrive);
    issueTime = std::max(issueTime + scalarCycles, end);
  } else {
    uint64_t enter = enqueue(p);
    start = std::max(enter, pipeFree[int(p)]);
    startRing[int(p)][size_t((issued[int(p)] - 1) % uint64_t(queueDepth))] = start;
    end = std::max(start, set.arrive);
    pipeFree[int(p)] = end;
  }
  out->stats.instrs[int(p)]++;
  group->history[me][in.eventId].push_back({end, -1, set.setPc});
  if (traceOn)
    emit(in, p, start, end, 0, p, p, set.flowId);
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
    reads[numReads++] = {in.src0Addr, in.batch * rows * cols * w};
    write = {in.dstAddr, in.batch * rows * cols * w};
    repeatBytes = in.batch * rows * cols * w;
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
  if (in.bitMask) {
    // asc2.mask(bits=...): only the selected lanes of each 256-byte repeat,
    // as runs of consecutive selected elements (the others keep dst).
    int64_t sw = in.op == Opcode::VecCast ? byteWidth(in.srcDtype) : w;
    int64_t lanes = 256 / std::max(w, sw);
    const uint64_t hi = uint64_t(val(in.maskHigh)), lo = uint64_t(val(in.maskLow));
    const int64_t dw = in.op == Opcode::VecCompare ? 1 : w;
    bool ok = true;
    forEachMaskRun(n, lanes, hi, lo, [&](int64_t start, int64_t len) {
      if (!ok)
        return;
      uint8_t *d = dst + start * dw;
      const uint8_t *x = a + start * (in.op == Opcode::VecCast ? sw : w);
      const uint8_t *y = base + in.src1Addr + (in.scalarRhs ? 0 : start * w);
      switch (in.op) {
      case Opcode::VecBinary:
      case Opcode::VecScalar: {
        BinaryForm form = in.op == Opcode::VecBinary ? BinaryForm::TensorTensor
                          : in.scalarFirst           ? BinaryForm::ScalarTensor
                                                     : BinaryForm::TensorScalar;
        ok = binaryKernel(in.vecOp, t, form, d, x, y, scalarOf(in, t), len);
        break;
      }
      case Opcode::VecUnary:
        unaryKernel(in.vecOp, t, d, x, len);
        break;
      case Opcode::VecCast:
        castKernel(t, in.srcDtype, in.roundMode, d, x, len);
        break;
      case Opcode::VecCompare:
        compareKernel(in.cmpMode, t, d, x, y, in.scalarRhs, scalarOf(in, t), len);
        break;
      case Opcode::VecSelect:
        selectKernel(t, d, base + in.maskAddr + start, x, y, in.scalarRhs,
                     scalarOf(in, t), len);
        break;
      default:
        break;
      }
    });
    if (!ok)
      return fail(in, "integer division by zero");
  } else switch (in.op) {
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
  case Opcode::VecTranspose: {
    const int64_t bytes = in.batch * rows * cols * w;
    if (in.src0Addr < in.dstAddr + bytes && in.dstAddr < in.src0Addr + bytes)
      return fail(in, "transpose in place is not supported");
    for (int64_t b = 0; b < in.batch; ++b) {
      const uint8_t *from = a + b * rows * cols * w;
      uint8_t *to = dst + b * rows * cols * w;
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = 0; c < cols; ++c)
          std::memcpy(to + (c * rows + r) * w, from + (r * cols + c) * w, size_t(w));
    }
    break;
  }
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
  f.flowId = (uint64_t(block) << 32) | (isAic ? uint64_t(1) << 30 : 0) |
             ++nextFlowId;
  if (races)
    races->onSetFlag(in.flagSrc, in.flagDst, in.eventId);
  if (traceOn)
    emit(in, p, start, fire, 0, in.flagSrc, in.flagDst, f.flowId);
  return true;
}

/// A wait_flag or get_buf on pipe `p`: the pipe (or, on S, the issue)
/// blocks until `readyAt`, then spends `cycles`. Returns start and end.
std::pair<uint64_t, uint64_t> CoreRunner::blockPipeUntil(Pipe p, uint64_t readyAt,
                                                         uint64_t cycles) {
  uint64_t start, end;
  if (p == Pipe::S) {
    start = issueTime;
    end = std::max(start, readyAt) + cycles;
    issueTime = std::max(issueTime + scalarCycles, end);
  } else {
    uint64_t enter = enqueue(p);
    start = std::max(enter, pipeFree[int(p)]);
    startRing[int(p)][size_t((issued[int(p)] - 1) % uint64_t(queueDepth))] = start;
    end = std::max(start, readyAt) + cycles;
    pipeFree[int(p)] = end;
  }
  out->stats.instrs[int(p)]++;
  return {start, end};
}

bool CoreRunner::waitFlag(const Instr &in) {
  FlagState &f = flag(in.flagSrc, in.flagDst, in.eventId);
  if (!f.pending)
    return fail(in, std::string("wait_flag(") + pipeName(in.flagSrc) + "->" +
                        pipeName(in.flagDst) + ", event " +
                        std::to_string(in.eventId) +
                        ") would hang: no set_flag pending");
  Pipe p = in.flagDst;
  auto [start, end] = blockPipeUntil(p, f.fireTime, flagCycles);
  f.pending = false;
  f.consumedAt = end;
  if (races)
    races->onWaitFlag(in.flagSrc, in.flagDst, in.eventId);
  if (traceOn)
    emit(in, p, start, end, 0, in.flagSrc, in.flagDst, f.flowId);
  return true;
}

bool CoreRunner::getBuf(const Instr &in) {
  BufIdState &b = bufIds[in.eventId];
  Pipe p = in.pipe;
  if (b.holder >= 0) {
    const Instr &get = program.code[b.getPc];
    return fail(in, "deadlock",
                "buffer id " + std::to_string(in.eventId) + " is still held by " +
                    pipeName(Pipe(b.holder)) + " (get_buf at " +
                    locText(program, get.loc) + ") with no rls_buf before this " +
                    "get_buf in program order" +
                    (b.holder == int(p) ? ": the pipe would wait for itself"
                                        : ": get/rls pairs of one id may not "
                                          "interleave (Ascend C Mutex)"));
  }
  auto [start, end] = blockPipeUntil(p, b.releasedAt, bufIdCycles);
  b.holder = int(p);
  b.getPc = int32_t(&in - program.code.data());
  if (races)
    races->onGetBuf(p, in.eventId);
  if (traceOn)
    emit(in, p, start, end, 0, b.releasedBy, p, b.flowId);
  return true;
}

bool CoreRunner::rlsBuf(const Instr &in) {
  BufIdState &b = bufIds[in.eventId];
  Pipe p = in.pipe;
  if (b.holder != int(p))
    return fail(in, "rls_buf without get_buf",
                "buffer id " + std::to_string(in.eventId) + " is " +
                    (b.holder < 0 ? std::string("not held")
                                  : std::string("held by ") + pipeName(Pipe(b.holder))) +
                    ", not by " + pipeName(p));
  uint64_t start;
  if (p == Pipe::S) {
    start = issueTime;
    issueTime += scalarCycles;
    out->stats.instrs[int(Pipe::S)]++;
  } else {
    // Queued in order behind the pipe's work, but does not hold it.
    uint64_t enter = enqueue(p);
    start = std::max(enter, pipeFree[int(p)]);
    startRing[int(p)][size_t((issued[int(p)] - 1) % uint64_t(queueDepth))] = start;
    out->stats.instrs[int(p)]++;
  }
  b.holder = -1;
  b.releasedAt = start + bufIdCycles;
  b.releasedBy = p;
  b.flowId = (uint64_t(block) << 32) | (isAic ? uint64_t(1) << 30 : 0) | ++nextFlowId;
  if (races)
    races->onRlsBuf(p, in.eventId);
  if (traceOn)
    emit(in, p, start, b.releasedAt, 0, p, p, b.flowId);
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

void CoreRunner::begin(int blockIndex, BlockOutcome &outcome,
                       CrossCoreGroup *crossCore) {
  block = blockIndex;
  out = &outcome;
  group = crossCore;
  cursor = 0;
  stopped = false;
  traceOn = l.options.collectTrace && l.options.maxTraceEvents > 0;
  traceGranted = 0;
  nextFlowId = 0;
  issueTime = 0;
  pipeFree = {};
  issued = {};
  std::fill(regs.begin(), regs.end(), 0);
  std::fill(flags.begin(), flags.end(), FlagState{});
  std::fill(bufIds.begin(), bufIds.end(), BufIdState{});
  for (auto &m : memory)
    std::fill(m.begin(), m.end(), 0);
  if (races)
    races->reset(block, isAic, mix ? isAic ? " (AIC)" : " (AIV)" : "");
  out->stats.block = block;
  out->stats.cube = isAic;
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
    }
    const Instr &in = code[pc];
    // MIX: instructions of the other core are not in this core's stream.
    if (bit && !(in.cores & bit)) {
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
    }
    pc = next;
  }
  cursor = pc;
  if (!ok)
    stopped = true;
  return Status::Done;
}

void CoreRunner::finish() {
  const std::vector<Instr> &code = program.code;
  // A flag still set when the kernel ends stays set for the next kernel on
  // this core (a hang or a race there): report the set that leaked.
  if (out->ok && !out->aborted)
    for (const FlagState &f : flags)
      if (f.pending && f.setPc >= 0) {
        fail(code[f.setPc], "flag left set at the end of the kernel",
             "no wait_flag consumed it; the next kernel on this core "
             "would see a stale flag");
        break;
      }
  if (out->ok && !out->aborted)
    for (const BufIdState &b : bufIds)
      if (b.holder >= 0) {
        fail(code[b.getPc], "deadlock",
             "buffer id taken and never released: the next get_buf of it "
             "would wait forever");
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

/// Runs the AIC and the AIV of MIX block `block` interleaved (see the file
/// comment), then checks the group's cross-core flags.
void runGroup(int block, CoreRunner &aic, CoreRunner &aiv, CrossCoreGroup &group,
              BlockOutcome &aicOut, BlockOutcome &aivOut) {
  group.reset();
  aic.begin(block, aicOut, &group);
  aiv.begin(block, aivOut, &group);
  using Status = CoreRunner::Status;
  Status a = Status::Blocked, v = Status::Blocked;
  for (;;) {
    uint64_t before = group.sets;
    if (a != Status::Done)
      a = aic.resume();
    if (!aic.ok())
      break;
    if (v != Status::Done)
      v = aiv.resume();
    if (!aic.ok() || !aiv.ok() || (a == Status::Done && v == Status::Done))
      break;
    if (group.sets != before)
      continue; // a set may unblock a wait
    // Neither core can move: name the wait(s) that never complete.
    CoreRunner &w = a == Status::Blocked ? aic : aiv;
    CoreRunner &other = a == Status::Blocked ? aiv : aic;
    const Instr &in = w.blockedOn();
    std::string detail = std::string("the ") + w.sideName() +
                         " waits for cross-core flag " +
                         std::to_string(in.eventId) + " from the " +
                         other.sideName();
    if ((a == Status::Blocked) == (v == Status::Blocked)) {
      const Instr &oin = other.blockedOn();
      detail += ", which itself waits for cross-core flag " +
                std::to_string(oin.eventId) + " in " +
                opName(aic.programRef(), oin) + " at " +
                locText(aic.programRef(), oin.loc) +
                "; neither core can proceed";
    } else {
      detail += std::string(", which ended without raising it");
    }
    w.failAt(in, "deadlock", detail);
    break;
  }
  // A core stopped mid-kernel because of its partner is not checked further.
  if (!aic.ok() || !aiv.ok()) {
    if (aic.ok() && a != Status::Done)
      aic.abortRun();
    if (aiv.ok() && v != Status::Done)
      aiv.abortRun();
  }
  aic.finish();
  aiv.finish();
  if (!aic.ok() || !aiv.ok())
    return;
  // Sets nobody consumed stay in the counter for the next kernel; a counter
  // that would pass 15 hangs or misbehaves on hardware.
  for (int to = 0; to < 2; ++to) {
    CoreRunner &setter = to == 0 ? aiv : aic;
    for (int id = 0; id < CrossCoreGroup::kIds; ++id) {
      const auto &left = group.pending[to][id];
      if (!left.empty()) {
        const Instr &in = aic.programRef().code[left.front().setPc];
        setter.failAt(in, "cross-core flag left set at the end of the kernel",
                      "no CrossCoreWaitFlag on the " +
                          std::string(to == 0 ? "AIC" : "AIV") +
                          " consumed flag " + std::to_string(id) +
                          "; the next kernel would see a stale count");
        return;
      }
      auto changes = group.history[to][id];
      std::stable_sort(changes.begin(), changes.end(),
                       [](const CrossCoreGroup::Change &x,
                          const CrossCoreGroup::Change &y) {
                         return x.time != y.time ? x.time < y.time
                                                 : x.delta < y.delta;
                       });
      int count = 0;
      for (const CrossCoreGroup::Change &c : changes) {
        count += c.delta;
        if (count > CrossCoreGroup::kMaxCount) {
          const Instr &in = aic.programRef().code[c.setPc];
          setter.failAt(
              in, "cross-core flag counter overflow",
              "flag " + std::to_string(id) + " towards the " +
                  (to == 0 ? "AIC" : "AIV") + " would count " +
                  std::to_string(count) + " unconsumed sets at cycle " +
                  std::to_string(c.time) + " (the hardware counter holds " +
                  std::to_string(CrossCoreGroup::kMaxCount) +
                  "); make the setter wait for the consumer");
          return;
        }
      }
    }
  }
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

std::string validate(const Program &program, const ArchModel &arch,
                     int blockNum, const std::vector<LaunchArg> &args,
                     std::array<std::array<bool, kNumSpaces>, 2> &usedSpaces) {
  if (blockNum <= 0)
    return "block count must be positive, got " + std::to_string(blockNum);
  if (args.size() != program.args.size())
    return "kernel " + program.kernelName + " takes " +
           std::to_string(program.args.size()) + " arguments, got " +
           std::to_string(args.size());
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
  auto regOk = [&](const Operand &o) {
    return o.reg < 0 || o.reg < program.numRegs;
  };
  /// Why the GM operand of `in` is not a GM buffer, or empty.
  auto gmArgError = [&](const Instr &in) -> std::string {
    if (in.gmArg == kWorkspaceArg)
      return program.workspaceBytesPerBlock > 0
                 ? std::string()
                 : "the workspace is addressed but the program has none "
                   "(workspaceBytesPerBlock is 0)";
    if (in.gmArg < 0 || size_t(in.gmArg) >= args.size() ||
        program.args[in.gmArg].kind != ArgSpec::Kind::Gm)
      return "argument " + std::to_string(in.gmArg) + " is not a GM buffer";
    return {};
  };
  /// Why `addr` is not aligned for `s`, or empty.
  auto alignError = [&](Space s, int64_t addr) -> std::string {
    int64_t a = arch.alignment[int(s)];
    if (a > 0 && addr % a != 0)
      return std::string(spaceName(s)) + " address " + std::to_string(addr) +
             " is not " + std::to_string(a) + "-byte aligned";
    return {};
  };
  auto tileError = [&](const Instr &in) -> std::string {
    if (in.tileRows <= 0 || in.tileCols <= 0)
      return "tile shape " + std::to_string(in.tileRows) + " x " +
             std::to_string(in.tileCols) + " must be positive";
    return {};
  };
  const bool mix = program.kernelType == KernelType::Mix;
  std::vector<Space> spaces; // local spaces the instruction touches
  for (size_t pc = 0; pc < program.code.size(); ++pc) {
    const Instr &in = program.code[pc];
    std::string where = "instruction " + std::to_string(pc) + " (" +
                        opName(program, in) + " at " +
                        locText(program, in.loc) + "): ";
    if (!regOk(in.a) || !regOk(in.b) || !regOk(in.c) || !regOk(in.scalar) ||
        !regOk(in.rows) || !regOk(in.gmRowStride) || !regOk(in.init) ||
        in.dst >= program.numRegs)
      return where + "register out of range";
    spaces.clear();
    std::string why;
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
      why = gmArgError(in);
      if (!why.empty())
        return where + why;
      Space local = in.op == Opcode::CopyGmToLocal ? in.dstSpace : in.srcSpace;
      if (local == Space::GM)
        return where + "copy needs a local space";
      if (in.pipe == Pipe::S || in.pipe == Pipe::V || in.pipe == Pipe::M)
        return where + "copies run on an MTE or FIX pipe, not " +
               pipeName(in.pipe);
      if (in.atomic != AtomicKind::None && in.op != Opcode::CopyLocalToGm)
        return where + "atomic copies only write GM";
      spaces.push_back(local);
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
      if (in.bitMask) {
        bool elementwise = in.op == Opcode::VecBinary || in.op == Opcode::VecUnary ||
                           in.op == Opcode::VecScalar || in.op == Opcode::VecCast ||
                           in.op == Opcode::VecCompare || in.op == Opcode::VecSelect;
        if (!elementwise)
          return where + "a lane bit mask applies to element-wise ops only";
        unsigned width = std::max(byteWidth(in.dtype),
                                  in.op == Opcode::VecCast ? byteWidth(in.srcDtype) : 0u);
        if (width != 2 && width != 4)
          return where + "a lane bit mask needs 16- or 32-bit elements (128 or 64 "
                         "lanes per repeat), not " +
                 dtypeName(in.dtype);
        if (!regOk(in.maskHigh) || !regOk(in.maskLow))
          return where + "register out of range";
      }
      if (in.op == Opcode::VecTranspose && in.batch < 1)
        return where + "transpose batch must be positive, got " +
               std::to_string(in.batch);
      if ((in.op == Opcode::VecReduce || in.op == Opcode::VecBroadcast) &&
          in.axis != 0 && in.axis != 1)
        return where + "axis must be 0 or 1, got " + std::to_string(in.axis);
      spaces.push_back(in.dstSpace);
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
        why = gmArgError(in);
        if (!why.empty())
          return where + why;
        break;
      }
      Space local = load ? in.srcSpace : in.dstSpace;
      if (local == Space::GM)
        return where + "local scalar access needs a local space";
      spaces.push_back(local);
      break;
    }
    case Opcode::CopyGmToL1Nz:
      why = gmArgError(in);
      if (!why.empty())
        return where + why;
      if (in.pipe != Pipe::MTE2)
        return where + "GM -> L1 copies run on MTE2, not " + pipeName(in.pipe);
      if (!isCubeInput(in.dtype))
        return where + "the cube path moves float16, bfloat16, float32 or "
                       "int8, not " +
               dtypeName(in.dtype);
      why = tileError(in);
      if (why.empty())
        why = alignError(Space::L1, in.dstAddr);
      if (in.atomic != AtomicKind::None)
        why = "atomic copies only write GM";
      if (!why.empty())
        return where + why;
      spaces.push_back(Space::L1);
      break;
    case Opcode::LoadL1ToL0:
      if (in.pipe != Pipe::MTE1)
        return where + "L1 -> L0A/L0B loads run on MTE1, not " +
               pipeName(in.pipe);
      if (in.dstSpace != Space::L0A && in.dstSpace != Space::L0B)
        return where + "loads from L1 go to L0A or L0B, not " +
               spaceName(in.dstSpace);
      if (!isCubeInput(in.dtype))
        return where + "the cube path moves float16, bfloat16, float32 or "
                       "int8, not " +
               dtypeName(in.dtype);
      why = tileError(in);
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
        return where + why;
      spaces.push_back(Space::L1);
      spaces.push_back(in.dstSpace);
      break;
    case Opcode::Mmad: {
      if (in.pipe != Pipe::M)
        return where + "mmad runs on pipe M, not " + pipeName(in.pipe);
      if (!isCubeInput(in.srcDtype))
        return where + "mmad multiplies float16, bfloat16, float32 or int8, "
                       "not " +
               dtypeName(in.srcDtype);
      DType acc = in.srcDtype == DType::I8 ? DType::I32 : DType::F32;
      if (in.dtype != acc)
        return where + "mmad of " + dtypeName(in.srcDtype) +
               " accumulates in " + dtypeName(acc) + ", not " +
               dtypeName(in.dtype);
      const int64_t kStep = in.srcDtype == DType::I8 ? 32 : 16;
      for (auto [o, name, step] : {std::tuple{&in.a, "m", int64_t(16)},
                                   std::tuple{&in.b, "k", kStep},
                                   std::tuple{&in.c, "n", int64_t(16)}})
        if (!o->isReg() && (o->imm <= 0 || o->imm % step != 0))
          return where + "mmad " + name + " = " + std::to_string(o->imm) +
                 " must be a positive multiple of " + std::to_string(step);
      why = alignError(Space::L0A, in.src0Addr);
      if (why.empty())
        why = alignError(Space::L0B, in.src1Addr);
      if (why.empty())
        why = alignError(Space::L0C, in.dstAddr);
      if (!why.empty())
        return where + why;
      spaces.push_back(Space::L0A);
      spaces.push_back(Space::L0B);
      spaces.push_back(Space::L0C);
      if (in.hasBias) {
        if (in.dtype != DType::F32)
          return where + "a bias needs a float32 accumulator";
        spaces.push_back(Space::BT);
      }
      break;
    }
    case Opcode::FixpipeToL1:
      if (in.pipe != Pipe::FIX)
        return where + "fixpipe runs on pipe FIX, not " + pipeName(in.pipe);
      if (in.srcDtype != DType::F32 ||
          !(in.dtype == DType::F32 || in.dtype == DType::F16 || in.dtype == DType::BF16))
        return where + "fixpipe to L1 converts float32 to float32/float16/bfloat16, not " +
               dtypeName(in.srcDtype) + " to " + dtypeName(in.dtype);
      why = tileError(in);
      if (!why.empty())
        return where + why;
      spaces.push_back(Space::L0C);
      spaces.push_back(Space::L1);
      break;
    case Opcode::CopyL1ToBt:
      if (in.pipe != Pipe::MTE1)
        return where + "L1 -> BT copies run on MTE1, not " + pipeName(in.pipe);
      if (in.dtype != DType::F32)
        return where + "the bias table holds float32, not " + dtypeName(in.dtype);
      if (in.srcDtype != DType::F32 && in.srcDtype != DType::F16 &&
          in.srcDtype != DType::BF16)
        return where + "a bias row is float32, float16 or bfloat16, not " +
               dtypeName(in.srcDtype);
      spaces.push_back(Space::L1);
      spaces.push_back(Space::BT);
      break;
    case Opcode::FixpipeToGm:
      why = gmArgError(in);
      if (!why.empty())
        return where + why;
      if (in.pipe != Pipe::FIX)
        return where + "fixpipe runs on pipe FIX, not " + pipeName(in.pipe);
      if (in.srcDtype == DType::F32
              ? !(in.dtype == DType::F32 || in.dtype == DType::F16 ||
                  in.dtype == DType::BF16)
              : !(in.srcDtype == DType::I32 && in.dtype == DType::I32))
        return where + "fixpipe converts float32 to float32/float16/bfloat16 "
                       "or int32 to int32, not " +
               dtypeName(in.srcDtype) + " to " + dtypeName(in.dtype);
      why = tileError(in);
      if (why.empty())
        why = alignError(Space::L0C, in.src0Addr);
      if (!why.empty())
        return where + why;
      spaces.push_back(Space::L0C);
      break;
    case Opcode::CrossCoreSetFlag:
    case Opcode::CrossCoreWaitFlag:
      if (!mix)
        return where + "cross-core flags need a MIX kernel, this one is " +
               kernelTypeName(program.kernelType);
      if (in.eventId >= CrossCoreGroup::kIds)
        return where + "cross-core flag id " + std::to_string(in.eventId) +
               " out of range (0-15)";
      if (in.cores != Instr::kAicCore && in.cores != Instr::kAivCore)
        return where + "a cross-core flag must run on exactly one core of "
                       "the group (Instr::cores = AIC or AIV)";
      if (in.op == Opcode::CrossCoreSetFlag && in.pipe == Pipe::S)
        return where + "CrossCoreSetFlag needs a pipe other than S (it fires "
                       "after that pipe's earlier work)";
      break;
    case Opcode::SetFlag:
    case Opcode::WaitFlag:
      if (in.eventId >= arch.eventIdsPerPipePair)
        return where + "event id " + std::to_string(in.eventId) +
               " out of range (" + std::to_string(arch.eventIdsPerPipePair) +
               " ids per pipe pair)";
      break;
    case Opcode::GetBuf:
    case Opcode::RlsBuf:
      if (in.eventId >= arch.bufferIds)
        return where + (arch.bufferIds == 0
                            ? arch.name + " has no buffer ids (its sync style is " +
                                  arch.syncStyle + ")"
                            : "buffer id " + std::to_string(in.eventId) +
                                  " out of range (" + std::to_string(arch.bufferIds) +
                                  " ids)");
      break;
    case Opcode::PipeBarrier:
    case Opcode::End:
      break;
    }
    // Which cores execute it, and can they?
    uint8_t cores = program.kernelType == KernelType::AivOnly ? Instr::kAivCore
                    : program.kernelType == KernelType::AicOnly
                        ? Instr::kAicCore
                        : in.cores;
    if (mix && (cores & ~Instr::kBothCores))
      return where + "Instr::cores has bits other than AIC (1) and AIV (2)";
    for (bool aic : {false, true}) {
      if (!(cores & (aic ? Instr::kAicCore : Instr::kAivCore)))
        continue;
      why = coreKindError(in, aic, spaces);
      if (!why.empty())
        return where +
               (mix ? std::string("MIX kernel, ") +
                          (aic ? "AIC" : "AIV") + " instruction"
                    : std::string(kernelTypeName(program.kernelType)) +
                          " kernel") +
               ": " + why;
      for (Space s : spaces)
        usedSpaces[aic ? 1 : 0][int(s)] = true;
    }
  }
  for (const auto &used : usedSpaces)
    for (int s = 1; s < kNumSpaces; ++s)
      if (used[s] && arch.capacity[s] <= 0)
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
  const KernelType kind = program.kernelType;
  const bool mix = kind == KernelType::Mix;
  if (program.workspaceBytesPerBlock > 0)
    launch.workspace.assign(
        size_t(program.workspaceBytesPerBlock) * size_t(blockNum), 0);

  // Chip-wide HBM cap: the active cores share it evenly, each direction
  // limited to min(per-core MTE bandwidth, hbm / active cores). Physical
  // units: vector cores, cube cores, or AIC+AIV groups (both cores of a
  // group draw on HBM).
  int physical = std::max(1, kind == KernelType::AivOnly   ? arch.aivCores
                             : kind == KernelType::AicOnly ? arch.aicCores
                                 : std::min(arch.aicCores, arch.aivCores));
  int active = std::min(blockNum, physical) * (mix ? 2 : 1);
  double hbmShare = arch.hbmBytesPerCycle > 0
                        ? arch.hbmBytesPerCycle / active
                        : std::numeric_limits<double>::infinity();
  auto capped = [&](double bw) { return std::max(1e-9, std::min(bw, hbmShare)); };
  launch.gmToLocalBytesPerCycle = capped(arch.gmToUbBytesPerCycle);
  launch.localToGmBytesPerCycle = capped(arch.ubToGmBytesPerCycle);
  launch.gmToL1BytesPerCycle = capped(arch.gmToL1BytesPerCycle);
  launch.l0cToGmBytesPerCycle = capped(arch.l0cToGmBytesPerCycle);
  launch.traceBudget = options.collectTrace ? options.maxTraceEvents : 0;

  // One outcome per core: per block, or (MIX) the AIC then the AIV of each.
  const int perBlock = mix ? 2 : 1;
  std::vector<BlockOutcome> outcomes(static_cast<size_t>(blockNum) * perBlock);
  std::atomic<int> nextBlock{0};
  auto worker = [&] {
    std::unique_ptr<CoreRunner> aic, aiv;
    if (kind != KernelType::AivOnly)
      aic = std::make_unique<CoreRunner>(launch, true);
    if (kind != KernelType::AicOnly)
      aiv = std::make_unique<CoreRunner>(launch, false);
    CrossCoreGroup group;
    for (;;) {
      int b = nextBlock.fetch_add(1);
      if (b >= blockNum)
        return;
      BlockOutcome *o = &outcomes[size_t(b) * perBlock];
      if (launch.abort.load()) {
        for (int i = 0; i < perBlock; ++i)
          o[i].aborted = true;
        continue;
      }
      if (mix)
        runGroup(b, *aic, *aiv, group, o[0], o[1]);
      else
        (aic ? *aic : *aiv).run(b, o[0]);
      for (int i = 0; i < perBlock; ++i)
        if (!o[i].ok)
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

  // Waves: each block (group) starts on the physical core (pair) that frees
  // up first.
  std::priority_queue<uint64_t, std::vector<uint64_t>, std::greater<>> freeAt;
  for (int i = 0; i < std::min(blockNum, physical); ++i)
    freeAt.push(0);
  result.cores.resize(outcomes.size());
  std::set<std::pair<int32_t, int32_t>> seenRaces;
  for (int b = 0; b < blockNum; ++b) {
    uint64_t start = freeAt.top();
    freeAt.pop();
    uint64_t groupEnd = start;
    for (int i = 0; i < perBlock; ++i) {
      size_t index = size_t(b) * perBlock + i;
      BlockOutcome &o = outcomes[index];
      CoreStats &stats = result.cores[index];
      stats = o.stats;
      stats.block = b;
      stats.cube = kind == KernelType::AicOnly || (mix && i == 0);
      stats.start = start;
      stats.cycles = start + o.stats.cycles;
      groupEnd = std::max(groupEnd, stats.cycles);
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
    freeAt.push(groupEnd);
    result.totalCycles = std::max(result.totalCycles, groupEnd);
  }
  if (result.trace.size() > size_t(std::max<int64_t>(0, options.maxTraceEvents))) {
    result.trace.resize(size_t(options.maxTraceEvents));
    result.traceTruncated = true;
  }
  result.timeUs = double(result.totalCycles) / arch.clockMHz;
  return result;
}

} // namespace asc2::sim
