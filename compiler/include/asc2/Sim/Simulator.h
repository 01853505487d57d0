//===- Simulator.h - Functional + timing model of an Ascend SoC ---*- C++ -*-===//
#ifndef ASC2_SIM_SIMULATOR_H
#define ASC2_SIM_SIMULATOR_H

#include "asc2/Arch/ArchModel.h"
#include "asc2/Sim/Program.h"

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace asc2::sim {

/// The target a launch is timed on (asc2/Arch/ArchModel.h).
using ::asc2::ArchModel;
using ::asc2::VecCost;

/// One kernel argument at launch time. Gm arguments point at the caller's
/// memory (numpy buffers): results land there directly.
struct LaunchArg {
  ArgSpec::Kind kind = ArgSpec::Kind::Gm;
  void *data = nullptr;   // Gm
  int64_t bytes = 0;      // Gm: size of the buffer in bytes
  DType dtype = DType::F32;
  int64_t i = 0;          // Int
  double f = 0;           // Float
};

/// Two accesses to overlapping local memory from different pipes, at least one
/// a write, with no happens-before between them.
struct Race {
  int core = 0;                    // block index
  bool cube = false;               // on the block's AIC (AIC_ONLY, MIX)
  Space space = Space::UB;
  int64_t lo = 0, hi = 0;          // overlapping byte range [lo, hi)
  int32_t firstPoint = -1, secondPoint = -1;
  Pipe firstPipe = Pipe::S, secondPipe = Pipe::S;
  bool firstWrite = false, secondWrite = false;
  int32_t firstLoc = -1, secondLoc = -1;
  std::string message;              // human readable, with source lines
};

/// One executed pipe instruction, for traces and the GUI timelines.
struct TraceEvent {
  int32_t core = 0;                 // block index
  bool cube = false;                // on the block's AIC (cubecore) rather
                                    // than an AIV (veccore)
  uint8_t sub = 0;                  // which AIV of a MIX_AIC_1_2 group
                                    // (veccore0 / veccore1); 0 otherwise
  Pipe pipe = Pipe::S;
  int32_t point = -1;
  uint64_t start = 0, end = 0;      // cycles
  int64_t bytes = 0;                // moved bytes (copies)
  uint8_t eventId = 0;              // flags
  Opcode op = Opcode::End;
  Pipe flagSrc = Pipe::S, flagDst = Pipe::S; // SetFlag/WaitFlag: the pipe pair
  uint64_t flowId = 0;              // same value on a matched set/wait pair
                                    // (also across the cores of a MIX group)
  uint64_t latency = 0;             // GM copies: the last `latency` cycles
                                    // wait for GM, the rest holds the pipe
};

/// One simulated core. AIV_ONLY / AIC_ONLY: one entry per block; MIX: one
/// per core of the block's group (the AIC, then its AIV, or its two AIVs in
/// a MIX_AIC_1_2 kernel), which start together.
struct CoreStats {
  int32_t block = 0;    // block index
  bool cube = false;    // an AIC (cube core) rather than an AIV
  uint8_t sub = 0;      // the AIV's index in its group (0 or 1)
  uint64_t start = 0;   // launch cycle the block began (blocks beyond the
                        // physical core count run in later waves)
  uint64_t cycles = 0;                          // end of the last instruction
  std::array<uint64_t, kNumPipes> bytes{};      // bytes moved per pipe
  std::array<uint64_t, kNumPipes> busy{};       // busy cycles per pipe
  std::array<uint64_t, kNumPipes> instrs{};     // instructions per pipe
};

struct SimOptions {
  bool detectRaces = true;
  bool collectTrace = true;
  int64_t maxTraceEvents = 2'000'000;  // per launch; further events dropped
  int threads = 0;                     // 0 => hardware concurrency
  const std::atomic<bool> *cancel = nullptr; // polled; stops the run when set
  /// Instructions one block may run before it is stopped as a probable
  /// endless loop (checked every 65,536 instructions); 0: no limit.
  uint64_t maxSteps = 0;
};

struct LaunchResult {
  bool ok = false;
  std::string error;                // set when !ok: names the op and source line
  uint64_t totalCycles = 0;         // max over cores
  double timeUs = 0;                // totalCycles / clockMHz
  std::vector<CoreStats> cores;     // see CoreStats: per block, or per
                                    // AIC/AIV of each block for MIX
  std::vector<Race> races;
  // What ran but is undefined on an NPU (a scalar GM read past its tensor:
  // the simulator reads 0), one message per instruction.
  std::vector<std::string> warnings;
  std::vector<TraceEvent> trace;    // sorted by (core, AIC before AIV, start)
  bool traceTruncated = false;
  // The chip's memory system over the launch (MemorySystem.cpp): bytes the
  // cores read from GM, the part served by L2 hits, and HBM traffic (read
  // misses and write-backs of evicted dirty lines).
  uint64_t gmReadBytes = 0, l2HitBytes = 0, hbmBytes = 0;
};

/// Runs `program` on `blockNum` cores of `arch` (AIV_ONLY: vector cores,
/// AIC_ONLY: cube cores, MIX: blockNum groups of one AIC and one AIV; blocks
/// beyond the physical cores (groups: min(aic, aiv)) run in waves).
LaunchResult simulate(const Program &program, const ArchModel &arch,
                      int blockNum, const std::vector<LaunchArg> &args,
                      const SimOptions &options = {});

/// A set (set_flag, a cross-core set, a buffer id's release) and the wait
/// (wait_flag, a cross-core wait, the next get_buf of the id) it lets go, by
/// their matching TraceEvent::flowId: indices into Trace::events.
struct FlagPair {
  int32_t set = -1, wait = -1;
};

/// A pipe idle on a flag: a wait_flag (or cross-core wait) that took cycles,
/// over the wait's own interval.
struct Stall {
  int32_t wait = -1; // index into Trace::events
  int32_t set = -1;  // the set that let it go (-1: not in the trace)
};

/// What the views of a simulated run need, kept in process with the launch
/// (LaunchRecord::trace): the executed instructions with the names and
/// source lines of their program points, and the flag pairs and stalls
/// derived from them once. JSON only when it is exported (traceToJson).
struct Trace {
  double clockMHz = 1;                 // cycles per µs
  std::vector<TraceEvent> events;      // LaunchResult::trace, in its order
  bool truncated = false;
  std::vector<std::string> pointNames; // op name per program point
  std::vector<SourceLoc> pointLocs;    // source of each point (file "": none)
  std::vector<FlagPair> pairs;         // in order of the wait
  std::vector<Stall> stalls;           // in order of the wait

  double us(uint64_t cycles) const { return double(cycles) / clockMHz; }
  /// The op name of the event's program point ("SET_FLAG", ... without one).
  std::string nameOf(const TraceEvent &e) const;
  /// "file:line" of the event's program point ("" without one).
  std::string codeOf(const TraceEvent &e) const;
};

/// Whether the event lets a wait go: set_flag, a cross-core set, rls_buf.
bool isFlagSet(const TraceEvent &e);
/// Whether the event waits: wait_flag, a cross-core wait, get_buf.
bool isFlagWait(const TraceEvent &e);
/// msprof's "detail" of a flag event: "PIPE:MTE2, TRIGGER PIPE:V, FLAG ID:0",
/// "PIPE:V, BUF ID:1", "PIPE:MTE3, VECTOR CORE, SYNC ID:2".
std::string flagDetail(const TraceEvent &e);

/// The trace of `result` (its events are moved out), with names, sources,
/// pairs and stalls.
std::shared_ptr<Trace> makeTrace(LaunchResult &&result, const Program &program,
                                 const ArchModel &arch);

/// msprof-op-simulator-style Chrome trace (see shared/reference §4.3).
std::string traceToJson(const Trace &trace);
std::string traceToJson(const LaunchResult &result, const Program &program,
                        const ArchModel &arch);
/// msprof `PipeUtilization.csv` with the documented column names.
std::string pipeUtilizationCsv(const LaunchResult &result,
                               const ArchModel &arch);

} // namespace asc2::sim

#endif
