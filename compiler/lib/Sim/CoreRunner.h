//===- CoreRunner.h - One simulated AI core and its launch ---------*- C++ -*-===//
//
// Internal to the simulator: the state of a launch, of one core, and the
// helpers every part of the executor shares (errors, bounds, issue and pipe
// timing, trace events). The parts:
//   IssueLoop.cpp       the scalar unit: per-block reset, the pc loop, scalar
//                       ops and scalar loads/stores, end-of-block statistics
//   DataMovement.cpp    GM <-> UB/L1 copies and the GM range checks
//   CubeUnit.cpp        the cube path: GM -> L1, L1 -> L0A/L0B/BT, mmad,
//                       fixpipe
//   VectorUnit.cpp      vector instructions
//   PipeSync.cpp        flags, barriers, buffer ids, cross-core flags
//   Launch.cpp          simulate(): workers, MIX groups, waves, merging
//   ProgramVerifier.cpp validate(): the checks run once per launch so the
//                       issue loop can trust indices
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
//       copies:  a GM copy (GM->UB/L1 on MTE2, UB->GM on MTE3, L0C->GM on
//                FIX) holds its pipe for max(mteIssueCycles, bytes /
//                bandwidth) (gm_to_ub, ub_to_gm, gm_to_l1, l0c_to_gm: the
//                core's own port; the DMA takes its next request while this
//                one's data streams, so the per-request cost shows only on
//                copies smaller than bandwidth x mteIssueCycles) and
//                completes gmRead/WriteLatencyCycles after that;
//                the next copy on the pipe starts when the pipe is free and
//                fewer than mteOutstanding copies are in flight, so the
//                latencies of back-to-back copies overlap while their
//                occupancies serialise. A 2-D copy moves rows * cols elements
//                and pays the latency once (padding and atomics cost nothing
//                extra). Chip-wide HBM and L2 bandwidth are applied after the
//                blocks ran (MemorySystem.cpp);
//       vector:  fixed + perRepeat * ceil(count * width / 256), width the
//                widest operand (casts); level-0 calls (WholeReduce, binary
//                folds, Brcb, Copy, GatherMask) cost fixed + perRepeat *
//                repeatTime
//       cube:    GM->L1 (MTE2) a GM copy at gm_to_l1, rows x cols valid
//                elements; L1->L0A/L0B (MTE1) padded tile bytes /
//                l1_to_l0a|b, no fixed latency; mmad (M) mmadFixedCycles +
//                fractals * mmadCyclesPerFractal (16x16x16 f16/bf16, 16x8x16
//                f32 at mmadF32FractalFactor each, 16x32x16 int8); fixpipe
//                (FIX) a GM copy of rows * cols * 4 L0C bytes at l0c_to_gm
//   * "done" (set_flag, barriers, the end of the block) means every earlier
//     instruction of the pipe completed, latencies included;
//   * a block starts blockStartCycles into its core's timeline (dispatch,
//     scalar prologue) and ends blockEndCycles after its last completion;
//     the launch adds launchCycles before the first block;
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
// MIX kernels: a block is a group of one AIC and one AIV CoreRunner (two in
// a MIX_AIC_1_2 kernel, Program::vectorCoresPerGroup) on the same worker
// thread, each executing the instructions whose Instr::cores bit it has (the
// AIVs tell their halves apart by SubBlockIdx). They run interleaved: a core
// runs until it ends or reaches a cross-core wait whose counter is zero, then
// the next one runs. Cross-core flags are counting semaphores per (group,
// channel, id) as CrossCoreGroup describes; a set arrives
// crossCoreFlagCycles after it fires and a wait completes at max(its issue
// time, the arrival of the earliest pending set on each channel it waits on).
// When no core can move the launch stops with a deadlock error.
//
//===----------------------------------------------------------------------===//
#ifndef ASC2_LIB_SIM_CORERUNNER_H
#define ASC2_LIB_SIM_CORERUNNER_H

#include "asc2/Sim/Simulator.h"

#include "CubeKernels.h"
#include "Elements.h"
#include "MemorySystem.h"
#include "RaceDetector.h"
#include "SimSupport.h"

#include "llvm/Support/Compiler.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <condition_variable>
#include <utility>
#include <vector>

namespace asc2::sim {

inline int64_t doubleBits(double d) {
  int64_t r;
  std::memcpy(&r, &d, 8);
  return r;
}
inline double bitsDouble(int64_t r) {
  double d;
  std::memcpy(&d, &r, 8);
  return d;
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
  /// blockNum slices of program.workspaceBytesPerBlock bytes, zero-filled.
  std::vector<uint8_t> workspace;
  std::atomic<bool> abort{false};
  std::atomic<int64_t> traceBudget{0};
  /// Atomic stores to GM land in block order, whatever the host threads do:
  /// a float accumulation over blocks then gives the same bits on every run
  /// (and the CPU twin's, which runs the blocks in order). Block b's atomic
  /// copies wait until blocks 0..b-1 have finished; the workers take blocks
  /// in increasing order and blocks never wait on later ones, so the
  /// lowest unfinished block always runs.
  class AtomicOrder {
  public:
    explicit AtomicOrder(int blocks) : finished(size_t(std::max(0, blocks)), false) {}
    /// Held for one atomic copy of `block`.
    std::unique_lock<std::mutex> turn(int block) {
      std::unique_lock<std::mutex> lock(mutex);
      prefixDone.wait(lock, [&] { return prefix >= block; });
      return lock;
    }
    /// `block` has run (or was skipped): later blocks may store after it.
    void finish(int block) {
      {
        std::lock_guard<std::mutex> lock(mutex);
        finished[size_t(block)] = true;
        while (prefix < int(finished.size()) && finished[size_t(prefix)])
          ++prefix;
      }
      prefixDone.notify_all();
    }

  private:
    std::mutex mutex;
    std::condition_variable prefixDone;
    std::vector<bool> finished;
    int prefix = 0; // blocks [0, prefix) have finished
  };
  AtomicOrder atomicOrder{blockNum};
};

struct BlockOutcome {
  bool ok = true;
  bool aborted = false; // stopped because another block failed
  std::string error;
  CoreStats stats;
  std::vector<TraceEvent> trace;
  bool traceTruncated = false;
  std::vector<Race> races;
  std::vector<GmAccess> gm; // in issue order
  // Tolerated misuse (a scalar GM read past its tensor), one per instruction.
  std::vector<std::pair<int32_t, std::string>> warnings;
};

/// Cross-core flags of one MIX group: an AIC and `aivs` AIVs (1, or 2 in a
/// MIX_AIC_1_2 kernel). pending[channel][id] are the sets raised and not yet
/// consumed: channel kToAic + v holds AIV v's sets towards the AIC (the AIC's
/// wait needs one on each), kToAiv + v the AIC's sets towards AIV v (one
/// AIC set raises all of them, as mode 2 does on hardware).
class CoreRunner;

struct CrossCoreGroup {
  static constexpr int kIds = 16;
  static constexpr int kMaxCount = 15; // hardware counter limit (§2.4)
  static constexpr int kMaxAivs = 2;
  static constexpr int kToAic = 0;
  static constexpr int kToAiv = kMaxAivs;
  static constexpr int kChannels = 2 * kMaxAivs;
  struct Pending {
    uint64_t arrive = 0; // set fire time + crossCoreFlagCycles
    uint64_t flowId = 0;
    int32_t setPc = -1;
    RaceDetector::Clock clock{}; // the setter's, for the race detector
  };
  /// Counter changes for the limit check: +1 at a set's arrival, -1 when a
  /// wait completes.
  struct Change {
    uint64_t time;
    int delta;
    int32_t setPc;
  };
  int aivs = 1;
  /// The group's cores: the AIC, then its AIVs (Ascend950's L0C -> UB and
  /// UB -> L1 write the other core's local memory).
  std::array<CoreRunner *, 1 + kMaxAivs> members{};
  std::array<std::array<std::vector<Pending>, kIds>, kChannels> pending;
  std::array<std::array<std::vector<Change>, kIds>, kChannels> history;
  uint64_t sets = 0; // progress counter: sets raised so far
  uint64_t nextFlowId = 0;
  RaceDetector::GmShadow raceGm; // GM as the group's race detectors saw it

  void reset() {
    raceGm.clear();
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

/// Checks the program and the arguments once per launch, so the issue loop
/// can trust indices; records in `usedSpaces` the local spaces each core kind
/// touches. Returns the error, or empty (ProgramVerifier.cpp).
LLVM_LIBRARY_VISIBILITY std::string
validate(const Program &program, const ArchModel &arch, int blockNum,
         const std::vector<LaunchArg> &args,
         std::array<std::array<bool, kNumSpaces>, 2> &usedSpaces);

//===----------------------------------------------------------------------===//
// One simulated AI core. A worker thread reuses one CoreRunner for all the
// blocks it runs, so local memory is allocated once per thread.
//===----------------------------------------------------------------------===//

/// The vector core's GM port when reads and writes share it
/// (ArchModel::gmPortShared): the transfers booked on it, each in the first
/// gap at or after the time its queue can start it, so a load the scalar unit
/// issued behind a store still waiting for its data goes first.
struct SharedGmPort {
  std::vector<std::pair<uint64_t, uint64_t>> busy; // [start, end), sorted
  std::array<uint64_t, 2> floor{};                  // per queue: last start
  /// `horizon`: no later booking can start before it (the scalar unit's
  /// issue time: every later copy enters its queue at or after it).
  uint64_t book(bool writeQueue, uint64_t earliest, uint64_t length,
                uint64_t horizon) {
    uint64_t t = earliest;
    size_t i = 0;
    while (i < busy.size() && busy[i].second <= t)
      ++i;
    for (; i < busy.size() && busy[i].first < t + length; ++i)
      t = std::max(t, busy[i].second);
    if (length > 0)
      busy.insert(busy.begin() + ptrdiff_t(i), {t, t + length});
    // A queue starts in order, so nothing either queue books later can
    // start before both queues' last starts, nor before the horizon: drop
    // what ended by then. (Without the horizon a queue that stops copying
    // - one load before a loop of stores - would keep every booking alive
    // and make each booking scan them all.)
    floor[writeQueue] = t;
    uint64_t low = std::max(std::min(floor[0], floor[1]), horizon);
    size_t dead = 0;
    while (dead < busy.size() && busy[dead].second <= low)
      ++dead;
    busy.erase(busy.begin(), busy.begin() + ptrdiff_t(dead));
    return t;
  }
};

class LLVM_LIBRARY_VISIBILITY CoreRunner {
public:
  /// `isAic`: an AIC (cube core) rather than an AIV; `subBlock`: which AIV
  /// of a MIX_AIC_1_2 group.
  CoreRunner(Launch &launch, bool isAic, int subBlock = 0)
      : l(launch), program(launch.program), arch(launch.arch),
        queueDepth(std::max(1, launch.arch.pipeQueueDepth)),
        eventIds(std::max(1, launch.arch.eventIdsPerPipePair)), isAic(isAic),
        mix(launch.program.kernelType == KernelType::Mix),
        subBlock(isAic ? 0 : subBlock),
        twoVectorCores(mix && launch.program.vectorCoresPerGroup > 1),
        coreBit(!mix ? 0 : isAic ? Instr::kAicCore : Instr::kAivCore) {
    const std::array<bool, kNumSpaces> &used = l.usedSpaces[isAic ? 1 : 0];
    for (int s = 1; s < kNumSpaces; ++s)
      if (used[s])
        memory[s].resize(size_t(arch.capacity[s]));
    regs.resize(size_t(std::max(0, program.numRegs)));
    flags.resize(size_t(kNumPipes) * kNumPipes * eventIds);
    for (auto &ring : startRing)
      ring.resize(size_t(queueDepth));
    for (auto &ring : inFlight)
      ring.resize(size_t(std::max(1, arch.mteOutstanding)));
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
  /// "AIC", "AIV", or "AIV0"/"AIV1" in a MIX_AIC_1_2 group.
  const char *sideName() const {
    return isAic ? "AIC" : !twoVectorCores ? "AIV" : subBlock ? "AIV1" : "AIV0";
  }
  /// The group's flag channel this core waits on (see CrossCoreGroup).
  int channelTowards() const {
    return isAic ? CrossCoreGroup::kToAic : CrossCoreGroup::kToAiv + subBlock;
  }
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
                 std::to_string(block) + coreSuffix();
    return false;
  }
  bool gmInBounds(const Instr &in, int64_t index);
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
  /// The cycle the instruction just enqueued on pipe `p` (at `enter`)
  /// starts: once the pipe's earlier work is done.
  uint64_t startOn(Pipe p, uint64_t enter) {
    uint64_t start = std::max(enter, pipeFree[int(p)]);
    startRing[int(p)][size_t((issued[int(p)] - 1) % uint64_t(queueDepth))] = start;
    return start;
  }
  /// Runs `dur` cycles on pipe `p` after entering its queue at `enter`.
  uint64_t execute(Pipe p, uint64_t enter, uint64_t dur) {
    uint64_t start = startOn(p, enter);
    pipeFree[int(p)] = start + dur;
    pipeDone[int(p)] = std::max(pipeDone[int(p)], start + dur);
    out->stats.busy[int(p)] += dur;
    out->stats.instrs[int(p)]++;
    return start;
  }
  /// Records a trace event; false when the trace budget is spent.
  bool emit(const Instr &in, Pipe p, uint64_t start, uint64_t end,
            int64_t bytes, Pipe flagSrc = Pipe::S, Pipe flagDst = Pipe::S,
            uint64_t flowId = 0) {
    if (traceGranted == 0) {
      int64_t prev = l.traceBudget.fetch_sub(kTraceChunk);
      traceGranted = std::clamp<int64_t>(prev, 0, kTraceChunk);
      if (traceGranted == 0) {
        traceOn = false;
        out->traceTruncated = true;
        return false;
      }
    }
    --traceGranted;
    TraceEvent e;
    e.core = block;
    e.cube = isAic;
    e.sub = uint8_t(subBlock);
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
    return true;
  }

  // --- scalar unit (IssueLoop.cpp) ---
  bool scalarMemory(const Instr &in, int32_t pc);

  // --- GM <-> UB/L1 copies (DataMovement.cpp) ---
  /// The local byte address a copy starts at: `addr`, plus the runtime
  /// Instr::localOffset of a copy `at` a row, checked to keep `extent`
  /// bytes within its buffer.
  bool localStart(const Instr &in, int64_t addr, int64_t extent, int64_t &start);
  /// false, with `hint` added to the error of a gather/scatter row copy.
  bool indexedRowHint(const Instr &in, const char *hint);
  bool copyIn(const Instr &in, int32_t pc);
  bool copyOut(const Instr &in, int32_t pc);
  /// The N-dimensional DMA (CopyGmToLocalNd).
  bool copyInNd(const Instr &in, int32_t pc);
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
  /// MTE1 occupancy of an L1 -> L0A / L0B move of `bytes` (no latency, no
  /// issue cost: a local move).
  uint64_t l1ToL0Cycles(Space dst, int64_t bytes) const {
    double bw = dst == Space::L0B ? arch.l1ToL0bBytesPerCycle : arch.l1ToL0aBytesPerCycle;
    return uint64_t(std::ceil(double(bytes) / std::max(1e-9, bw)));
  }
  /// A pipelined instruction on pipe `p` that started at `start`: it holds
  /// the pipe until `freed` and completes at `done`. Busy counts the cycles
  /// with at least one instruction of the pipe in flight.
  void occupyPipelined(Pipe p, uint64_t start, uint64_t freed, uint64_t done) {
    out->stats.busy[int(p)] += done - std::max(start, std::min(pipeDone[int(p)], done));
    out->stats.instrs[int(p)]++;
    pipeFree[int(p)] = freed;
    pipeDone[int(p)] = std::max(pipeDone[int(p)], done);
  }
  /// Pipe occupancy of a copy of `bytes` at `bytesPerCycle`: its transfer,
  /// and at least the DMA's per-request interval (the next request's set-up
  /// overlaps this one's data).
  uint64_t copyCycles(int64_t bytes, double bytesPerCycle) const {
    return uint64_t(std::ceil(std::max(
        arch.mteIssueCycles, double(bytes) / std::max(1e-9, bytesPerCycle))));
  }
  /// The canonical GM address (see GmAccess) of element `offset` of the
  /// buffer `in` addresses.
  int64_t gmAddress(const Instr &in, int64_t offset) const {
    int64_t id = in.gmArg == kWorkspaceArg ? int64_t(l.args.size()) : in.gmArg;
    int64_t base = in.gmArg == kWorkspaceArg
                       ? int64_t(block) * program.workspaceBytesPerBlock
                       : 0;
    return gmCanonical(id, base + offset * byteWidth(in.dtype));
  }
  /// A copy between GM and a core: `rows` rows of `rowElems` elements,
  /// `gmStride` elements apart, from element `offset` of `in`'s GM buffer
  /// (see the timing notes at the top of this file). `traceBytes` is what
  /// the trace and the statistics count as moved.
  void gmTransfer(const Instr &in, int64_t offset, int64_t rowElems,
                  int64_t rows, int64_t gmStride, bool write,
                  double bytesPerCycle, int64_t traceBytes);
  /// When a GM copy's transfer runs: from `start` until the port is
  /// `freed`.
  struct CopySpan {
    uint64_t start = 0, freed = 0;
  };
  /// The timing half of gmTransfer: a copy whose transfer moves
  /// `portBytes` through the port at `bytesPerCycle`.
  CopySpan gmTime(const Instr &in, int64_t portBytes, bool write,
                  double bytesPerCycle, int64_t traceBytes);
  /// The record half: rows of the copy for the memory system and, after
  /// its local side, the race detector.
  void gmRecord(const Instr &in, CopySpan span, int64_t offset,
                int64_t rowElems, int64_t rows, int64_t gmStride, bool write);

  // --- the cube path (CubeUnit.cpp) ---
  bool copyGmToL1Nz(const Instr &in, int32_t pc);
  bool loadL1ToL0(const Instr &in, int32_t pc);
  bool mmad(const Instr &in, int32_t pc);
  bool copyL1ToBt(const Instr &in, int32_t pc);
  bool fixpipeToL1(const Instr &in, int32_t pc);
  /// Ascend950's local paths between the cores of a MIX group: the AIC's
  /// fixpipe into an AIV's UB, an AIV's copy into the AIC's L1.
  bool fixpipeToUb(const Instr &in, int32_t pc);
  bool copyUbToL1(const Instr &in, int32_t pc);
  /// Core `index` of this core's MIX group (0 the AIC, 1 + v AIV v).
  CoreRunner *groupCore(int index) const {
    return group && index <= group->aivs ? group->members[size_t(index)] : nullptr;
  }
  /// checkLocal on `owner`'s memory (this core's or a partner's).
  bool checkLocalOf(const CoreRunner &owner, const Instr &in, Space s, int64_t addr,
                    int64_t bytes) {
    int64_t cap = int64_t(owner.memory[int(s)].size());
    if (addr >= 0 && bytes >= 0 && addr <= cap && bytes <= cap - addr)
      return true;
    return fail(in, std::string(spaceName(s)) + " out-of-bounds",
                "bytes [" + std::to_string(addr) + ", " + std::to_string(addr + bytes) +
                    ") outside " + spaceName(s) + " capacity " +
                    std::to_string(arch.capacity[int(s)]) + " of the " + owner.sideName());
  }
  bool fixpipe(const Instr &in, int32_t pc);
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

  // --- vector unit (VectorUnit.cpp) ---
  bool vector(const Instr &in, int32_t pc);
  struct VecOperands;
  bool shapeCallOperands(const Instr &in, VecOperands &ops);
  bool elementwiseOperands(const Instr &in, VecOperands &ops);
  bool repeatOperands(const Instr &in, VecOperands &ops);
  bool computeMasked(const Instr &in, const VecOperands &ops);
  bool computeDense(const Instr &in, const VecOperands &ops);

  // --- synchronisation (PipeSync.cpp) ---
  bool setFlag(const Instr &in);
  bool waitFlag(const Instr &in);
  bool getBuf(const Instr &in);
  bool rlsBuf(const Instr &in);
  void barrier(const Instr &in);
  bool crossCoreSet(const Instr &in, int32_t pc);
  /// False when no set is pending (the core blocks; nothing happened).
  bool crossCoreWait(const Instr &in);
  /// A signal (set_flag, rls_buf, CrossCoreSetFlag) on pipe `p`: issued in
  /// order, it starts once the pipe's earlier work is done but does not hold
  /// the pipe. Returns that start.
  uint64_t signalStart(Pipe p) {
    uint64_t start;
    if (p == Pipe::S) {
      start = issueTime;
      issueTime += scalarCycles;
    } else {
      start = std::max(startOn(p, enqueue(p)), pipeDone[int(p)]);
    }
    out->stats.instrs[int(p)]++;
    return start;
  }
  /// A wait_flag, get_buf or cross-core wait on pipe `p`: the pipe (or, on
  /// S, the issue) blocks until `readyAt`, then spends `cycles`. Returns
  /// start and end.
  std::pair<uint64_t, uint64_t> blockPipeUntil(Pipe p, uint64_t readyAt,
                                               uint64_t cycles);
  /// Fails on a flag still set or a buffer id still held at the end of the
  /// kernel.
  void checkSyncAtEnd();
  /// The high bits of this core's flow ids (trace arrows from a set to its
  /// wait): the block, and which core of the group.
  uint64_t flowBase() const {
    return (uint64_t(block) << 32) | (isAic ? uint64_t(1) << 30 : 0) |
           (uint64_t(subBlock) << 29);
  }
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
  /// This AIV's index in its group (0 on the AIC), and whether the group has
  /// two AIVs (MIX_AIC_1_2).
  const int subBlock;
  const bool twoVectorCores;
  /// " (AIC)", " (AIV)", " (AIV1)"... after "core N" in messages; empty for
  /// single-core kernels.
  const char *coreSuffix() const {
    if (!mix)
      return "";
    return isAic ? " (AIC)" : !twoVectorCores ? " (AIV)" : subBlock ? " (AIV1)" : " (AIV0)";
  }
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
  uint64_t steps = 0;   // instructions run by this block (counted per poll)
  bool stopped = false; // failed, aborted or cancelled
  bool traceOn = false;
  int64_t traceGranted = 0;
  uint64_t nextFlowId = 0;
  uint64_t issueTime = 0;
  std::array<uint64_t, kNumPipes> pipeFree{};
  /// When every instruction issued to the pipe has completed (>= pipeFree:
  /// a copy completes its latency after it frees the pipe).
  std::array<uint64_t, kNumPipes> pipeDone{};
  std::array<uint64_t, kNumPipes> issued{};
  /// Completion times of each pipe's last mteOutstanding GM copies (a ring),
  /// and how many it has issued.
  std::array<std::vector<uint64_t>, kNumPipes> inFlight;
  std::array<uint64_t, kNumPipes> gmCopies{};
  SharedGmPort gmPort; // ArchModel::gmPortShared (vector cores)
  std::array<std::vector<uint64_t>, kNumPipes> startRing;
};

/// The end-of-kernel checks of a MIX group's cross-core flags, once all of
/// its cores (`cores`: the AIC, then the AIVs) finished without error: a set
/// no wait consumed, or a counter that would pass CrossCoreGroup::kMaxCount,
/// fails the setter (PipeSync.cpp).
LLVM_LIBRARY_VISIBILITY void
checkCrossCoreFlagsAtEnd(const CrossCoreGroup &group,
                         const std::vector<CoreRunner *> &cores);

} // namespace asc2::sim

#endif
