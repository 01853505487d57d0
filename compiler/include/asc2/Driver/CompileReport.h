//===- CompileReport.h - What one compilation produced -----------*- C++ -*-===//
//
// One CompileReport per compiled kernel: every pass's IR, the memory plan, the
// inserted syncs with their reasons, diagnostics and the emitted Ascend C. It
// is plain data (no MLIR, no Qt) so the Python runtime, the GUI and the JSON
// writer share it. JSON schema: "asc2.report/1" (docs/report-schema.md).
//
//===----------------------------------------------------------------------===//
#ifndef ASC2_DRIVER_COMPILEREPORT_H
#define ASC2_DRIVER_COMPILEREPORT_H

#include "asc2/Driver/ErrorKind.h"

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace asc2 {

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
  /// "set_flag", "wait_flag", "pipe_barrier", "get_buf", "rls_buf"
  std::string kind;
  std::string srcPipe, dstPipe; // barrier, get/rls: both the op's pipe
  int eventId = -1;             // get/rls: the buffer id
  int point = -1;       // program point in the final IR
  ReportLoc loc;
  std::string reason;   // "RAW on buf0: ascendc.data_copy (MTE2) -> ascendc.add (V)"
  /// "pair" (set/wait in one iteration), "carried" (the wait/set of a
  /// loop-carried flag inside the loop), "prime" (set before the loop),
  /// "drain" (wait after the loop), "barrier", "buf_id" (get/rls).
  std::string role;
};

struct DiagnosticRecord {
  std::string severity; // "error", "warning", "note"
  std::string message;
  ReportLoc loc;
  ErrorKind kind = ErrorKind::Compile; // a note's: its error's
};

struct PipeTotals {
  std::string pipe;
  uint64_t busyCycles = 0;   // summed over cores
  double utilization = 0;    // busy / (cores * total cycles)
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
  std::string traceJson;           // msprof-op-simulator layout
  std::string pipeUtilizationCsv;
};

struct CompileReport {
  std::string kernel;
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
  std::vector<std::string> programPoints; // op text per program point
  std::vector<ReportLoc> pointLocs;       // source location per point
  std::vector<LaunchRecord> launches;     // appended per launch
};

/// Serialises to the "asc2.report/1" JSON schema. Traces are not inlined
/// (they are written to their own files); `includeIr` drops pass IR when false.
std::string toJson(const CompileReport &report, bool includeIr = true);

} // namespace asc2

#endif
