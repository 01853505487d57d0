//===- CompileReport.h - What one compilation produced -----------*- C++ -*-===//
//
// One CompileReport per compiled kernel: every pass's IR, the memory plan, the
// inserted syncs with their reasons, diagnostics and the emitted Ascend C. It
// is plain data (no MLIR, no Qt) so the Python runtime, the GUI and the JSON
// writer share it. JSON schema: "asc2.report/1" (docs/report-schema.md).
// What the layers dispatch on (pipe, sync kind and role, severity, core) is
// an enum with its one name table here (the pipe's in asc2/Arch/Pipe.h); the
// names are what JSON and Python see.
//
//===----------------------------------------------------------------------===//
#ifndef ASC2_REPORT_COMPILEREPORT_H
#define ASC2_REPORT_COMPILEREPORT_H

#include "asc2/Arch/Pipe.h"
#include "asc2/Report/ErrorKind.h"

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace asc2 {

namespace sim {
struct Trace;
}

/// The name of `value` in `names`, a table indexed by the enum's values.
template <typename E, size_t N>
constexpr const char *enumName(const std::array<const char *, N> &names, E value) {
  return names[static_cast<size_t>(value)];
}
/// The enum value named `name` in `names`.
template <typename E, size_t N>
constexpr std::optional<E> parseEnum(const std::array<const char *, N> &names,
                                     std::string_view name) {
  for (size_t i = 0; i < N; ++i)
    if (name == names[i])
      return static_cast<E>(i);
  return std::nullopt;
}

/// The sync ops of the final IR.
enum class SyncKind : uint8_t { SetFlag, WaitFlag, PipeBarrier, GetBuf, RlsBuf };
inline constexpr std::array<const char *, 5> kSyncKindNames = {
    "set_flag", "wait_flag", "pipe_barrier", "get_buf", "rls_buf"};
constexpr const char *syncKindName(SyncKind k) { return enumName(kSyncKindNames, k); }
constexpr std::optional<SyncKind> parseSyncKind(std::string_view name) {
  return parseEnum<SyncKind>(kSyncKindNames, name);
}

/// What a sync op does in its kernel's schedule.
enum class SyncRole : uint8_t {
  Pair,    // set/wait of a flag in one iteration (or outside loops)
  Carried, // the wait/set of a loop-carried flag inside the loop
  Prime,   // the set of a loop-carried flag before the loop
  Drain,   // the wait of a loop-carried flag after the loop
  Skip,    // the twin of a flag in a guarded copy, on its skipped path
  Barrier, // pipe_barrier
  BufId,   // get_buf / rls_buf
};
inline constexpr std::array<const char *, 7> kSyncRoleNames = {
    "pair", "carried", "prime", "drain", "skip", "barrier", "buf_id"};
constexpr const char *syncRoleName(SyncRole r) { return enumName(kSyncRoleNames, r); }
constexpr std::optional<SyncRole> parseSyncRole(std::string_view name) {
  return parseEnum<SyncRole>(kSyncRoleNames, name);
}

/// MLIR's diagnostic severities.
enum class Severity : uint8_t { Error, Warning, Note, Remark };
inline constexpr std::array<const char *, 4> kSeverityNames = {"error", "warning",
                                                                "note", "remark"};
constexpr const char *severityName(Severity s) { return enumName(kSeverityNames, s); }
constexpr std::optional<Severity> parseSeverity(std::string_view name) {
  return parseEnum<Severity>(kSeverityNames, name);
}

/// The core of an AI core group an op runs on: the vector core (AIV), the
/// cube core (AIC), or both (scalar work and structure in a MIX kernel).
enum class Core : uint8_t { AIV, AIC, Both };
inline constexpr std::array<const char *, 3> kCoreNames = {"AIV", "AIC", "both"};
constexpr const char *coreName(Core c) { return enumName(kCoreNames, c); }

struct ReportLoc {
  std::string file;
  int line = 0;
  int col = 0;
};

struct PassRecord {
  int index = 0;
  std::string name;   // "asctile-to-ascendc", "ascendc-insert-sync", ...
  std::string stage;  // "frontend", "asctile", "lowering", "ascendc", "emit"
  std::string ir;     // IR after the pass (without locations)
  /// Kernel source line of the op on each line of `ir` (0: none), so views
  /// link IR lines and Python lines both ways.
  std::vector<int> irLines;
  /// Pipe of the op on each line of `ir` (S: none, or no op), so views
  /// colour ops by pipe without reading the IR text.
  std::vector<Pipe> irPipes;
  bool changed = false;
  double wallMs = 0;
  int opCount = 0;
};

struct BufferRecord {
  std::string name;      // "x_tile" or "buf3"
  std::string space;     // "UB", "L1", ...
  int64_t offset = 0;    // bytes
  int64_t size = 0;      // bytes
  int liveStart = 0, liveEnd = 0; // program points, inclusive
  int slot = 0;          // ping/pong slot (0 when single-buffered)
  ReportLoc loc;
};

struct SpaceUsage {
  std::string space;
  int64_t capacity = 0, peak = 0, lowerBound = 0;
};

struct SyncRecord {
  SyncKind kind = SyncKind::SetFlag;
  Pipe srcPipe = Pipe::S, dstPipe = Pipe::S; // barrier, get/rls: both the op's pipe
  int eventId = -1;             // get/rls: the buffer id
  int point = -1;       // program point in the final IR
  ReportLoc loc;
  std::string reason;   // "RAW on buf0: ascendc.data_copy (MTE2) -> ascendc.add (V)"
  SyncRole role = SyncRole::Pair;
};

/// One op of the final IR, at its program point (BufferLiveness's order).
struct ProgramPointRecord {
  std::string text;  // the op printed without its regions
  std::string name;  // "ascendc.add", "scf.for"
  /// The pipe it executes on (PipeOpInterface; S for every other op, ALL
  /// for a pipe_barrier ALL).
  Pipe pipe = Pipe::S;
  Core core = Core::AIV;
  ReportLoc loc;
};

/// A set_flag and a wait_flag that may consume it, or an rls_buf and the
/// get_buf of another pipe that takes its id next; from the final IR
/// (asc2::StaticSchedule: both arms of an scf.if, loop back-edges).
struct ScheduleEdgeRecord {
  int setPoint = 0, waitPoint = 0;
  Pipe src = Pipe::S, dst = Pipe::S;
  int eventId = 0;       // the event id, or the buffer id
  bool bufferId = false; // rls_buf -> get_buf
  bool crossCore = false;
  /// Only paths around a loop's back-edge lead from the set to the wait: it
  /// is a later iteration's wait (it comes earlier in program order).
  bool wraps = false;
  std::string reason; // the set's
};

/// Where a wait makes its pipe idle in program order (asc2::staticStalls).
/// Point i occupies [i, i + 1); the pipe idles over [from, to).
struct ScheduleStallRecord {
  Pipe pipe = Pipe::S; // the waiting pipe
  double from = 0, to = 0;
  int edge = -1;     // index into CompileReport::scheduleEdges
  int producer = -1; // the op the flag waits for
  int lastOwn = -1;  // the waiting pipe's last op before (-1: none)
};

struct DiagnosticRecord {
  Severity severity = Severity::Error;
  std::string message;
  ReportLoc loc;
  ErrorKind kind = ErrorKind::Compile; // a note's: its error's
};

struct PipeTotals {
  Pipe pipe = Pipe::S;
  uint64_t busyCycles = 0;   // summed over cores
  double utilization = 0;    // busy / (cores * total cycles)
  uint64_t bytes = 0;        // moved by the pipe's copies, summed over cores
};

struct LaunchRecord {
  int blockNum = 0;
  bool ok = false;
  std::string error;
  uint64_t totalCycles = 0;
  double timeUs = 0;
  std::vector<PipeTotals> pipes;
  int races = 0;
  std::vector<std::string> raceMessages;
  std::vector<std::string> warnings; // sim::LaunchResult::warnings
  /// The simulated trace (null when not collected, and for every launch but
  /// the latest); JSON only when exported (sim::traceToJson).
  std::shared_ptr<const sim::Trace> trace;
  std::string pipeUtilizationCsv;
  /// A launch on a device (the NPU backend) rather than the simulator: the
  /// `msprof op` output directory of its profile, when it ran under msprof.
  bool onDevice = false;
  std::string profileDir;
};

struct CompileReport {
  std::string kernel;              // the Python function's name, as users see it
  /// The emitted kernel's extern "C" symbol (asc2::kernelSymbol(kernel));
  /// launchers and exported projects call this, never `kernel`.
  std::string kernelSymbol;
  std::string target;              // platform, e.g. "Ascend910B1"
  std::map<std::string, std::string> options;
  std::string sourceFile;
  std::vector<PassRecord> passes;
  std::vector<SpaceUsage> spaces;
  std::vector<BufferRecord> buffers;
  std::vector<SyncRecord> sync;
  /// Sync ops of the final IR per kind ("set_flag", "get_buf", ...), and
  /// "get_buf_before_fuse" when ascendc-fuse-buf-id-sync ran.
  std::map<std::string, int> syncCounts;
  std::vector<DiagnosticRecord> diagnostics;
  std::string ascendc;
  /// The source line of each line of `ascendc` (0: none), from the emitter's
  /// line comments (sourceLinesOfAscendC); the workbench links them.
  std::vector<int> ascendcLines;
  std::vector<ProgramPointRecord> points;
  /// The static schedule of the final IR: set -> wait edges (sorted by set
  /// point, then wait point) and the stalls they cause in program order.
  std::vector<ScheduleEdgeRecord> scheduleEdges;
  std::vector<ScheduleStallRecord> scheduleStalls; // sorted by (lane, from)
  std::vector<LaunchRecord> launches;     // appended per launch
};

/// Serialises to the "asc2.report/1" JSON schema. Traces are not inlined
/// (they are written to their own files); `includeIr` drops pass IR when false.
std::string toJson(const CompileReport &report, bool includeIr = true);

} // namespace asc2

#endif
