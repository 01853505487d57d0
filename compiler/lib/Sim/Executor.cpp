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
//                local->GM: ub_to_gm, each capped at hbm / active cores)
//       vector:  fixed + perRepeat * ceil(count * width / 256)
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

#include "Float16.h"
#include "RaceDetector.h"
#include "SimSupport.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <queue>
#include <set>
#include <thread>

namespace asc2::sim {

namespace {

//===----------------------------------------------------------------------===//
// Element codecs: load a stored element into its compute type and back.
//===----------------------------------------------------------------------===//

const float *halfTable() {
  static const std::vector<float> table = [] {
    std::vector<float> t(65536);
    for (uint32_t i = 0; i < 65536; ++i)
      t[i] = halfToFloat(uint16_t(i));
    return t;
  }();
  return table.data();
}

struct F32Codec {
  using Value = float;
  static constexpr bool kIsFloat = true;
  static constexpr int kWidth = 4;
  Value load(const uint8_t *p) const {
    float v;
    std::memcpy(&v, p, 4);
    return v;
  }
  void store(uint8_t *p, Value v) const { std::memcpy(p, &v, 4); }
};

struct F16Codec {
  using Value = float;
  static constexpr bool kIsFloat = true;
  static constexpr int kWidth = 2;
  const float *table = halfTable();
  Value load(const uint8_t *p) const {
    uint16_t h;
    std::memcpy(&h, p, 2);
    return table[h];
  }
  void store(uint8_t *p, Value v) const {
    uint16_t h = floatToHalf(v);
    std::memcpy(p, &h, 2);
  }
};

struct BF16Codec {
  using Value = float;
  static constexpr bool kIsFloat = true;
  static constexpr int kWidth = 2;
  Value load(const uint8_t *p) const {
    uint16_t h;
    std::memcpy(&h, p, 2);
    return bf16ToFloat(h);
  }
  void store(uint8_t *p, Value v) const {
    uint16_t h = floatToBf16(v);
    std::memcpy(p, &h, 2);
  }
};

template <typename Stored> struct IntCodec {
  // Integer lanes compute in int64 and wrap on store, as the hardware does.
  using Value = int64_t;
  static constexpr bool kIsFloat = false;
  static constexpr int kWidth = sizeof(Stored);
  Value load(const uint8_t *p) const {
    Stored v;
    std::memcpy(&v, p, sizeof(Stored));
    return v;
  }
  void store(uint8_t *p, Value v) const {
    using U = std::make_unsigned_t<Stored>;
    U u = U(uint64_t(v));
    std::memcpy(p, &u, sizeof(Stored));
  }
};

template <typename Codec, typename F>
void binaryLoop(const Codec &codec, uint8_t *dst, const uint8_t *a,
                const uint8_t *b, int64_t n, F f) {
  constexpr int w = Codec::kWidth;
  for (int64_t i = 0; i < n; ++i)
    codec.store(dst + i * w, f(codec.load(a + i * w), codec.load(b + i * w)));
}

template <typename Codec, typename F>
void unaryLoop(const Codec &codec, uint8_t *dst, const uint8_t *a, int64_t n,
               F f) {
  constexpr int w = Codec::kWidth;
  for (int64_t i = 0; i < n; ++i)
    codec.store(dst + i * w, f(codec.load(a + i * w)));
}

/// Returns false for an integer division by zero.
template <typename Codec>
bool vecBinary(VecOp op, uint8_t *dst, const uint8_t *a, const uint8_t *b,
               int64_t n) {
  using V = typename Codec::Value;
  Codec c;
  switch (op) {
  case VecOp::Add:
    binaryLoop(c, dst, a, b, n, [](V x, V y) { return V(x + y); });
    return true;
  case VecOp::Sub:
    binaryLoop(c, dst, a, b, n, [](V x, V y) { return V(x - y); });
    return true;
  case VecOp::Mul:
    if constexpr (Codec::kIsFloat)
      binaryLoop(c, dst, a, b, n, [](V x, V y) { return x * y; });
    else // wrap like the hardware instead of overflowing int64
      binaryLoop(c, dst, a, b, n, [](V x, V y) {
        return V(uint64_t(x) * uint64_t(y));
      });
    return true;
  case VecOp::Div:
    if constexpr (Codec::kIsFloat) {
      binaryLoop(c, dst, a, b, n, [](V x, V y) { return x / y; });
    } else {
      constexpr int w = Codec::kWidth;
      for (int64_t i = 0; i < n; ++i)
        if (c.load(b + i * w) == 0)
          return false;
      binaryLoop(c, dst, a, b, n, [](V x, V y) { return x / y; });
    }
    return true;
  case VecOp::Max:
    binaryLoop(c, dst, a, b, n, [](V x, V y) { return x > y ? x : y; });
    return true;
  case VecOp::Min:
    binaryLoop(c, dst, a, b, n, [](V x, V y) { return x < y ? x : y; });
    return true;
  default:
    return true; // unary ops are rejected before execution
  }
}

template <typename Codec>
void vecUnary(VecOp op, uint8_t *dst, const uint8_t *a, int64_t n) {
  using V = typename Codec::Value;
  Codec c;
  switch (op) {
  case VecOp::Abs:
    unaryLoop(c, dst, a, n, [](V x) { return x < 0 ? V(-x) : x; });
    return;
  case VecOp::Neg:
    unaryLoop(c, dst, a, n, [](V x) { return V(-x); });
    return;
  case VecOp::Relu:
    unaryLoop(c, dst, a, n, [](V x) { return x < 0 ? V(0) : x; });
    return;
  case VecOp::Exp:
    if constexpr (Codec::kIsFloat)
      unaryLoop(c, dst, a, n, [](V x) { return std::exp(x); });
    return;
  case VecOp::Log:
    if constexpr (Codec::kIsFloat)
      unaryLoop(c, dst, a, n, [](V x) { return std::log(x); });
    return;
  case VecOp::Sqrt:
    if constexpr (Codec::kIsFloat)
      unaryLoop(c, dst, a, n, [](V x) { return std::sqrt(x); });
    return;
  default:
    return;
  }
}

bool isBinary(VecOp op) { return op <= VecOp::Min; }
bool isTranscendental(VecOp op) {
  return op == VecOp::Exp || op == VecOp::Log || op == VecOp::Sqrt;
}
bool isVectorDType(DType t) {
  return t == DType::F32 || t == DType::F16 || t == DType::BF16 ||
         t == DType::I32 || t == DType::I16;
}
bool isFloatDType(DType t) {
  return t == DType::F32 || t == DType::F16 || t == DType::BF16;
}

/// Writes `v` converted to `t` (ints truncate toward zero, then wrap).
void storeScalar(DType t, double v, uint8_t *p) {
  auto put = [p](auto x) { std::memcpy(p, &x, sizeof(x)); };
  int64_t i = std::isfinite(v) ? int64_t(v) : 0;
  switch (t) {
  case DType::F32:
    put(float(v));
    return;
  case DType::F16:
    put(floatToHalf(float(v)));
    return;
  case DType::BF16:
    put(floatToBf16(float(v)));
    return;
  case DType::I32:
    put(uint32_t(uint64_t(i)));
    return;
  case DType::I16:
    put(uint16_t(uint64_t(i)));
    return;
  case DType::I8:
  case DType::U8:
    put(uint8_t(uint64_t(i)));
    return;
  case DType::I64:
    put(i);
    return;
  case DType::Bool:
    put(uint8_t(v != 0));
    return;
  }
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
  void scalarStep(const Instr &in) {
    uint64_t start = issueTime;
    issueTime += scalarCycles;
    out->stats.busy[int(Pipe::S)] += scalarCycles;
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
  bool vector(const Instr &in, int32_t pc);
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

bool CoreRunner::copyIn(const Instr &in, int32_t pc) {
  int64_t offset = val(in.a), count = val(in.b);
  int64_t w = byteWidth(in.dtype);
  uint8_t *src;
  if (!gmRange(in, offset, count, src))
    return false;
  int64_t tile = in.hasPad ? in.tileElems : count;
  if (in.hasPad && count > in.tileElems)
    return fail(in, "copy larger than its tile",
                          std::to_string(count) + " elements into a tile of " +
                              std::to_string(in.tileElems));
  if (!checkLocal(in, in.dstSpace, in.dstAddr, tile * w))
    return false;
  uint8_t *dst = memory[int(in.dstSpace)].data() + in.dstAddr;
  if (count > 0)
    std::memcpy(dst, src, size_t(count * w));
  if (in.hasPad && tile > count) {
    uint8_t pad[8];
    storeScalar(in.dtype, in.fimm, pad);
    for (int64_t i = count; i < tile; ++i)
      std::memcpy(dst + i * w, pad, size_t(w));
  }
  if (races) {
    races->beginAccesses(in.pipe, pc);
    races->write(in.dstSpace, in.dstAddr, in.dstAddr + tile * w);
  }
  int64_t bytes = count * w;
  uint64_t dur = uint64_t(
      std::ceil(arch.mteFixedCycles + double(bytes) / l.gmToLocalBytesPerCycle));
  uint64_t start = execute(in.pipe, enqueue(in.pipe), dur);
  out->stats.bytes[int(in.pipe)] += uint64_t(bytes);
  if (traceOn)
    emit(in, in.pipe, start, start + dur, bytes);
  return true;
}

bool CoreRunner::copyOut(const Instr &in, int32_t pc) {
  int64_t offset = val(in.a), count = val(in.b);
  int64_t w = byteWidth(in.dtype);
  uint8_t *dst;
  if (!gmRange(in, offset, count, dst))
    return false;
  if (!checkLocal(in, in.srcSpace, in.src0Addr, count * w))
    return false;
  if (count > 0)
    std::memcpy(dst, memory[int(in.srcSpace)].data() + in.src0Addr,
                size_t(count * w));
  if (races) {
    races->beginAccesses(in.pipe, pc);
    races->read(in.srcSpace, in.src0Addr, in.src0Addr + count * w);
  }
  int64_t bytes = count * w;
  uint64_t dur = uint64_t(
      std::ceil(arch.mteFixedCycles + double(bytes) / l.localToGmBytesPerCycle));
  uint64_t start = execute(in.pipe, enqueue(in.pipe), dur);
  out->stats.bytes[int(in.pipe)] += uint64_t(bytes);
  if (traceOn)
    emit(in, in.pipe, start, start + dur, bytes);
  return true;
}

bool CoreRunner::vector(const Instr &in, int32_t pc) {
  int64_t n = val(in.c);
  if (n < 0)
    return fail(in, "negative element count",
                          std::to_string(n) + " elements");
  int64_t bytes = n * int64_t(byteWidth(in.dtype));
  Space s = in.dstSpace;
  if (!checkLocal(in, s, in.dstAddr, bytes))
    return false;
  uint8_t *base = memory[int(s)].data();
  uint8_t *dst = base + in.dstAddr;
  if (in.op == Opcode::VecDup) {
    uint8_t pattern[8];
    storeScalar(in.dtype, in.fimm, pattern);
    unsigned w = byteWidth(in.dtype);
    for (int64_t i = 0; i < n; ++i)
      std::memcpy(dst + i * w, pattern, w);
  } else {
    if (!checkLocal(in, s, in.src0Addr, bytes))
      return false;
    const uint8_t *a = base + in.src0Addr;
    if (in.op == Opcode::VecBinary) {
      if (!checkLocal(in, s, in.src1Addr, bytes))
        return false;
      const uint8_t *b = base + in.src1Addr;
      bool ok = true;
      switch (in.dtype) {
      case DType::F32:
        ok = vecBinary<F32Codec>(in.vecOp, dst, a, b, n);
        break;
      case DType::F16:
        ok = vecBinary<F16Codec>(in.vecOp, dst, a, b, n);
        break;
      case DType::BF16:
        ok = vecBinary<BF16Codec>(in.vecOp, dst, a, b, n);
        break;
      case DType::I32:
        ok = vecBinary<IntCodec<int32_t>>(in.vecOp, dst, a, b, n);
        break;
      case DType::I16:
        ok = vecBinary<IntCodec<int16_t>>(in.vecOp, dst, a, b, n);
        break;
      default:
        break;
      }
      if (!ok)
        return fail(in, "integer division by zero");
    } else {
      switch (in.dtype) {
      case DType::F32:
        vecUnary<F32Codec>(in.vecOp, dst, a, n);
        break;
      case DType::F16:
        vecUnary<F16Codec>(in.vecOp, dst, a, n);
        break;
      case DType::BF16:
        vecUnary<BF16Codec>(in.vecOp, dst, a, n);
        break;
      case DType::I32:
        vecUnary<IntCodec<int32_t>>(in.vecOp, dst, a, n);
        break;
      case DType::I16:
        vecUnary<IntCodec<int16_t>>(in.vecOp, dst, a, n);
        break;
      default:
        break;
      }
    }
  }
  if (races) {
    races->beginAccesses(in.pipe, pc);
    if (in.op != Opcode::VecDup)
      races->read(s, in.src0Addr, in.src0Addr + bytes);
    if (in.op == Opcode::VecBinary)
      races->read(s, in.src1Addr, in.src1Addr + bytes);
    races->write(s, in.dstAddr, in.dstAddr + bytes);
  }
  VecCost cost = in.op == Opcode::VecDup ? arch.vecDefault : arch.costOf(in.vecOp);
  int64_t repeats = (bytes + 255) / 256;
  uint64_t dur = uint64_t(std::ceil(cost.fixed + cost.perRepeat * double(repeats)));
  uint64_t start = execute(in.pipe, enqueue(in.pipe), dur);
  if (traceOn)
    emit(in, in.pipe, start, start + dur, 0);
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
      ok = vector(in, pc);
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
    if (!regOk(in.a) || !regOk(in.b) || !regOk(in.c) ||
        in.dst >= program.numRegs)
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
      usedSpaces[int(local)] = true;
      break;
    }
    case Opcode::VecBinary:
    case Opcode::VecUnary:
    case Opcode::VecDup:
      if (in.dstSpace == Space::GM)
        return where + "vector operands must be in local memory";
      if (in.pipe != Pipe::V)
        return where + "vector ops run on pipe V, not " + pipeName(in.pipe);
      if (!isVectorDType(in.dtype))
        return where + "vector ops do not support " + dtypeName(in.dtype);
      if (in.op == Opcode::VecBinary && !isBinary(in.vecOp))
        return where + "not a binary vector op";
      if (in.op == Opcode::VecUnary && isBinary(in.vecOp))
        return where + "not a unary vector op";
      if (in.op == Opcode::VecUnary && isTranscendental(in.vecOp) &&
          !isFloatDType(in.dtype))
        return where + "exp/log/sqrt need a float type, got " +
               dtypeName(in.dtype);
      usedSpaces[int(in.dstSpace)] = true;
      break;
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
