//===- Pipeline.h - asctile IR in, report + Ascend C + program out --*- C++ -*-===//
#ifndef ASC2_DRIVER_PIPELINE_H
#define ASC2_DRIVER_PIPELINE_H

#include "asc2/Arch/ArchModel.h"
#include "asc2/Report/CompileReport.h"
#include "asc2/Report/ErrorKind.h"
#include "asc2/Sim/Program.h"
#include "asc2/Sim/Simulator.h"

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace asc2 {

struct CompileOptions {
  std::string platform = "Ascend910B1";
  std::string archDir;      // empty: the build's resources/arch
  bool insertSync = true;
  bool verifySync = false;  // run ascendc-verify-sync after insertion
  /// "flag" (set_flag/wait_flag) or "buffer-id" (get_buf/rls_buf, Ascend950);
  /// empty: the target's sync_style.
  std::string syncStyle;
  /// 0: every buffer its own bytes; 1: dead buffers' bytes are reused and
  /// elementwise results go in place (default); 2: also the DMA buffers of
  /// unrolled copies share bytes (least UB, less overlap).
  int reuseAlloc = 1;
  int numStages = 0;        // buffers per loaded tile; 0: compiler's choice
  /// Which optional optimisations run (upstream: Bisheng's -O level): 0 only
  /// what correctness needs; 1 adds asctile-simplify-arith and loop-invariant
  /// code motion; 2 multi-buffering; 3 (default) row batching.
  int optLevel = 3;
  /// asctile-batch-rows: k rows per trip for row-parallel loops of [1, N]
  /// tiles (dropped by the driver when the batched tiles overflow).
  bool batchRows = true;
  /// asctile-recompute-casts: a widening cast used in several places is
  /// computed again before each (the driver sets it when the UB overflows).
  bool recomputeCasts = false;
  /// Static LocalTensor addresses, or TPipe-managed buffers; unset: per
  /// target (static on Ascend950, TPipe on A2/A3, as upstream PyAsc2).
  std::optional<bool> staticAlloc;
  /// The kernel must run on the cube cores alone (AIC_ONLY).
  bool matmulCubeOnly = false;
  /// MIX kernels: vector cores per cube core. 0: two when the vector work
  /// divides by rows (KERNEL_TYPE_MIX_AIC_1_2), else one; 1: one
  /// (MIX_AIC_1_1); 2: two, or an error saying why not.
  int vectorCoresPerGroup = 0;
  std::string sourceFile;
  /// Every jit option as the user gave it, recorded in the report.
  std::map<std::string, std::string> userOptions;

  /// asctile-batch-rows runs (from opt_level 3).
  bool batchesRows() const { return batchRows && optLevel >= 3; }
  /// The compiler chooses the buffers per loaded tile (multi-buffering, from
  /// opt_level 2), rather than the user or one each.
  bool choosesStages() const { return numStages == 0 && optLevel >= 2; }
};

struct CompileFailure {
  std::string message;  // first error, without location prefix
  ReportLoc loc;        // where it points in the kernel source
  std::vector<DiagnosticRecord> diagnostics; // all, with notes
  /// The first error's, set where it was produced: the driver's fallbacks
  /// and the Python exception classes key on it.
  ErrorKind kind = ErrorKind::Compile;
};

/// A compiled kernel: its report, its simulator program and the target.
class CompiledKernel {
public:
  CompiledKernel(std::shared_ptr<const CompileReport> report,
                 sim::Program program, ArchModel arch)
      : m_report(std::move(report)), m_program(std::move(program)),
        m_arch(std::move(arch)) {}

  std::shared_ptr<const CompileReport> report() const;
  const sim::Program &program() const { return m_program; }
  const ArchModel &arch() const { return m_arch; }
  const std::string &name() const { return m_program.kernelName; }

  /// Simulates one launch; appends it to the report (a new report object,
  /// published on the ReportHub as ReportEvent::Launched).
  LaunchRecord launch(int blockNum, const std::vector<sim::LaunchArg> &args,
                      const sim::SimOptions &options);
  /// Appends a launch that ran elsewhere (on an NPU) to the report and
  /// publishes it as launch() does.
  void recordLaunch(const LaunchRecord &rec);

  /// Number of wait_flag instructions in the program (program order).
  int waitCount() const;
  /// Simulates the program with its `waitIndex`-th wait_flag removed, for
  /// mutation testing of sync insertion. Not recorded in the report.
  sim::LaunchResult simulateWithoutWait(int waitIndex, int blockNum,
                                        const std::vector<sim::LaunchArg> &args,
                                        const sim::SimOptions &options) const;
  /// Number of get_buf instructions in the program (program order).
  int getBufCount() const;
  /// Simulates the program with its `index`-th get_buf and the rls_buf that
  /// ends it removed: the ops between run without the buffer id.
  sim::LaunchResult simulateWithoutGetBuf(int index, int blockNum,
                                          const std::vector<sim::LaunchArg> &args,
                                          const sim::SimOptions &options) const;

private:
  mutable std::mutex m_mutex; // guards m_report
  std::shared_ptr<const CompileReport> m_report;
  sim::Program m_program;
  ArchModel m_arch;
};

struct CompileResult {
  std::shared_ptr<CompiledKernel> kernel; // null on failure
  std::optional<CompileFailure> failure;
};

/// Parses `asctileIR` (one module, one kernel function), runs the pass
/// pipeline capturing every pass's IR, emits Ascend C and builds the
/// simulator program. Publishes ReportEvent::Compiled on success.
CompileResult compileKernel(const std::string &asctileIR,
                            const CompileOptions &options);

/// A hand-written ascendc-level program (buffers placed, flags set by hand),
/// e.g. samples/baselines/*.mlir: verified, checked against the memory
/// capacities, emitted and translated for the simulator, with no passes run.
CompileResult compileBaseline(const std::string &ascendcIR,
                              const CompileOptions &options);

/// The arch model for `platform` (cached). nullopt + error if unknown.
std::optional<ArchModel> loadArch(const std::string &platform,
                                       const std::string &archDir,
                                       std::string &error);
std::vector<std::string> availablePlatforms(const std::string &archDir = "");

/// Whether `options` compile to static addresses on `arch`.
bool staticAllocFor(const CompileOptions &options, const ArchModel &arch);

/// Event ids per pipe pair the sync planner may use on `arch`: fewer than the
/// hardware's 8, as the Ascend C docs reserve some (static-tensor code) or a
/// TPipe holds them (Pipeline.cpp).
int plannableEventIds(const ArchModel &arch, bool staticAlloc);

/// Process-wide request to stop running simulations (the workbench's Stop).
/// Launches from Python poll it; it is cleared when a new launch starts.
std::atomic<bool> &cancelRequested();

} // namespace asc2

#endif
