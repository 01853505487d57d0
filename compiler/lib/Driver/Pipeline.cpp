//===- Pipeline.cpp - the compile pipeline and its report ------------------===//
#include "asc2/Driver/Pipeline.h"

#include "DescribeIR.h"

#include "asc2/Conversion/Passes.h"
#include "asc2/Dialect/AscTile/IR/AscTile.h"
#include "asc2/Dialect/AscTile/Transforms/Passes.h"
#include "asc2/Dialect/AscendC/IR/AscendC.h"
#include "asc2/Dialect/AscendC/Transforms/Passes.h"
#include "asc2/Support/InputText.h"
#include "asc2/Support/KindedError.h"
#include "asc2/Driver/RegisterAll.h"
#include "asc2/Report/ReportHub.h"
#include "asc2/Target/AscendC/EmitAscendC.h"
#include "asc2/Target/Sim/ProgramBuilder.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"

#include <cctype>
#include <dlfcn.h>
#include <chrono>

using namespace mlir;

namespace asc2 {

/// Deepest bracket nesting of IR text the driver parses (on the caller's
/// stack; the frontend nests a few levels per loop).
static constexpr int64_t kMaxInputNesting = 1000;

//===----------------------------------------------------------------------===//
// Arch models
//===----------------------------------------------------------------------===//

static std::string defaultArchDir() {
  if (const char *env = std::getenv("ASC2_ARCH_DIR"))
    return env;
  // An installed tree (packaging/CMakeLists.txt): this library is
  // lib/asc2/lib/libasc2compiler.so, the models share/asc2/arch; wherever
  // the tree landed (a DESTDIR root, `dpkg -x`).
  Dl_info self;
  if (dladdr(reinterpret_cast<void *>(&defaultArchDir), &self) && self.dli_fname) {
    llvm::SmallString<256> dir(self.dli_fname);
    llvm::sys::path::remove_filename(dir);
    llvm::sys::path::append(dir, "..", "..", "..", "share");
    llvm::sys::path::append(dir, "asc2", "arch");
    if (llvm::sys::fs::is_directory(dir))
      return dir.str().str();
  }
  return std::string(ASC2_RESOURCES_DIR) + "/arch";
}

std::optional<ArchModel> loadArch(const std::string &platform,
                                       const std::string &archDir,
                                       std::string &error) {
  static std::mutex mutex;
  static std::map<std::string, ArchModel> cache;
  std::string dir = archDir.empty() ? defaultArchDir() : archDir;
  std::lock_guard<std::mutex> lock(mutex);
  auto key = dir + "/" + platform;
  auto it = cache.find(key);
  if (it != cache.end())
    return it->second;
  auto arch = ArchModel::load(dir, platform, error);
  if (arch)
    cache[key] = *arch;
  return arch;
}

std::vector<std::string> availablePlatforms(const std::string &archDir) {
  std::string dir = archDir.empty() ? defaultArchDir() : archDir;
  std::vector<std::string> out;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec))
    if (llvm::sys::path::extension(it->path()) == ".json")
      out.push_back(llvm::sys::path::stem(it->path()).str());
  std::sort(out.begin(), out.end());
  return out;
}

//===----------------------------------------------------------------------===//
// Pass capture
//===----------------------------------------------------------------------===//

/// Per-space capacities of `arch` for the memory-consumption check.
static ascendc::AscendCComputeMemoryConsumptionOptions
memoryLimitsOf(const ArchModel &arch) {
  ascendc::AscendCComputeMemoryConsumptionOptions o;
  o.ubCapacity = arch.capacity[(int)sim::Space::UB];
  o.l1Capacity = arch.capacity[(int)sim::Space::L1];
  o.l0aCapacity = arch.capacity[(int)sim::Space::L0A];
  o.l0bCapacity = arch.capacity[(int)sim::Space::L0B];
  o.l0cCapacity = arch.capacity[(int)sim::Space::L0C];
  o.btCapacity = arch.capacity[(int)sim::Space::BT];
  return o;
}

namespace {

/// Index just past the `)` that closes the `(` at `open`, skipping strings.
size_t closingParen(const std::string &s, size_t open) {
  int depth = 0;
  bool inString = false;
  for (size_t i = open; i < s.size(); ++i) {
    char c = s[i];
    if (inString) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        inString = false;
    } else if (c == '"') {
      inString = true;
    } else if (c == '(') {
      ++depth;
    } else if (c == ')' && --depth == 0) {
      return i + 1;
    }
  }
  return s.size();
}

/// The line of the first `"file":line:col` in a printed location, resolving
/// `#locN` aliases through `aliases`.
int lineInLoc(const std::string &loc, const std::map<std::string, std::string> &aliases,
              int depth = 0) {
  size_t q = loc.find("\":");
  if (q != std::string::npos)
    return std::atoi(loc.c_str() + q + 2);
  size_t h = loc.find("#loc");
  if (h == std::string::npos || depth > 8)
    return 0;
  size_t e = h + 4;
  while (e < loc.size() && std::isalnum((unsigned char)loc[e]))
    ++e;
  auto it = aliases.find(loc.substr(h, e - h));
  return it == aliases.end() ? 0 : lineInLoc(it->second, aliases, depth + 1);
}

/// Prints `op` without locations, the source line of each printed line
/// (from the location that ends it) and the pipe of the op on it (S: none).
std::string printOp(Operation *op, std::vector<int> *lines = nullptr,
                    std::vector<Pipe> *pipes = nullptr) {
  std::string text;
  llvm::raw_string_ostream os(text);
  OpPrintingFlags flags;
  flags.enableDebugInfo(/*enable=*/true, /*prettyForm=*/false);
  AsmState::LocationMap printedAt; // op -> (line, column) in `text`
  AsmState state(op, flags, &printedAt);
  op->print(os, state);

  std::vector<std::string> all;
  std::vector<int> keptLine; // line of `text` -> line of the output (-1: dropped)
  std::map<std::string, std::string> aliases;
  for (size_t start = 0; start < text.size();) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos)
      end = text.size();
    std::string line = text.substr(start, end - start);
    start = end + 1;
    if (line.rfind("#loc", 0) == 0) { // `#locN = loc(...)` alias definitions
      size_t eq = line.find(" = ");
      if (eq != std::string::npos)
        aliases[line.substr(0, eq)] = line.substr(eq + 3);
      keptLine.push_back(-1);
      continue;
    }
    keptLine.push_back(int(all.size()));
    all.push_back(std::move(line));
  }
  if (pipes) {
    pipes->assign(all.size(), Pipe::S);
    for (auto &[printed, at] : printedAt)
      if (auto pipeOp = dyn_cast<ascendc::PipeOpInterface>(printed))
        if (unsigned line = at.first - 1; // 1-based
            line < keptLine.size() && keptLine[line] >= 0)
          (*pipes)[keptLine[line]] = pipeOp.getPipe();
  }
  std::string out;
  out.reserve(text.size());
  for (const std::string &line : all) {
    std::string stripped;
    int srcLine = 0;
    size_t pos = 0;
    while (true) {
      size_t l = line.find(" loc(", pos);
      if (l == std::string::npos) {
        stripped += line.substr(pos);
        break;
      }
      stripped += line.substr(pos, l - pos);
      size_t close = closingParen(line, l + 4);
      // The location closing the line belongs to the op printed on it.
      if (close >= line.size())
        srcLine = lineInLoc(line.substr(l, close - l), aliases);
      pos = close;
    }
    out += stripped;
    out += '\n';
    if (lines)
      lines->push_back(srcLine);
  }
  return out;
}

int countOps(Operation *root) {
  int n = -1; // not the root itself
  root->walk([&](Operation *) { ++n; });
  return n;
}

std::string stageOf(StringRef pass) {
  if (pass.starts_with("convert-"))
    return "lowering";
  if (pass.starts_with("ascendc-"))
    return "ascendc";
  return "asctile";
}

/// Records the IR after every pass, in process.
class CaptureIR : public PassInstrumentation {
public:
  CaptureIR(CompileReport &report) : report(report) {}

  void runBeforePass(Pass *pass, Operation *) override {
    if (!isAdaptor(pass))
      start = std::chrono::steady_clock::now();
  }
  void runAfterPass(Pass *pass, Operation *op) override {
    if (!isAdaptor(pass))
      record(pass, op, /*failed=*/false);
  }
  void runAfterPassFailed(Pass *pass, Operation *op) override {
    if (!isAdaptor(pass))
      record(pass, op, /*failed=*/true);
  }

private:
  /// The pass manager wraps nested pipelines in an adaptor pass; only the
  /// passes it runs are of interest.
  static bool isAdaptor(Pass *pass) {
    return pass->getName().contains("OpToOpPassAdaptor");
  }

  void record(Pass *pass, Operation *op, bool failed) {
    auto end = std::chrono::steady_clock::now();
    Operation *module = op;
    while (module->getParentOp())
      module = module->getParentOp();
    PassRecord r;
    r.index = report.passes.size();
    r.name = pass->getArgument().str();
    if (r.name.empty())
      r.name = pass->getName().str();
    if (failed)
      r.name += " (failed)";
    r.stage = stageOf(r.name);
    // Generic passes after the lowering work on ascendc IR.
    if (r.stage == "lowering")
      lowered = true;
    else if (lowered && r.stage == "asctile")
      r.stage = "ascendc";
    r.ir = printOp(module, &r.irLines, &r.irPipes);
    r.changed = report.passes.empty() || report.passes.back().ir != r.ir;
    r.wallMs = std::chrono::duration<double, std::milli>(end - start).count();
    r.opCount = countOps(module);
    report.passes.push_back(std::move(r));
  }

  CompileReport &report;
  std::chrono::steady_clock::time_point start;
  bool lowered = false;
};

} // namespace

//===----------------------------------------------------------------------===//
// compileKernel
//===----------------------------------------------------------------------===//

static CompileResult compileOnce(const std::string &asctileIR,
                                 const CompileOptions &options);

static bool overflowed(const CompileResult &r) {
  return r.failure && r.failure->kind == ErrorKind::Memory;
}

/// `retry` with a note on why the first try was dropped.
static CompileResult noted(CompileResult retry, const CompileFailure &first,
                           const std::string &what) {
  if (!retry.kernel)
    return retry;
  auto report = std::make_shared<CompileReport>(*retry.kernel->report());
  report->diagnostics.push_back(
      {Severity::Note, what + " (" + first.message.substr(0, first.message.find(';')) + ")",
       first.loc});
  retry.kernel = std::make_shared<CompiledKernel>(report, retry.kernel->program(),
                                                  retry.kernel->arch());
  return retry;
}

CompileResult compileKernel(const std::string &asctileIR,
                            const CompileOptions &options) {
  CompileResult result = compileOnce(asctileIR, options);
  CompileOptions used = options;
  // Row batching and multi-buffering choose their sizes from estimates; when
  // the tiles do not fit after planning, fewer rows, then one buffer per
  // tile, may still fit.
  if (overflowed(result) && options.batchesRows()) {
    used.batchRows = false;
    CompileResult retry = compileOnce(asctileIR, used);
    if (retry.kernel)
      result = noted(retry, *result.failure,
                     "row batching dropped: the batched rows' tiles do not fit");
  }
  if (overflowed(result)) {
    used.recomputeCasts = true;
    CompileResult retry = compileOnce(asctileIR, used);
    if (retry.kernel)
      result = noted(retry, *result.failure,
                     "widening casts computed again at each later use: the wide tile kept "
                     "between them does not fit");
    else
      used.recomputeCasts = false;
  }
  if (overflowed(result) && options.choosesStages()) {
    used.numStages = 1;
    CompileResult retry = compileOnce(asctileIR, used);
    if (retry.kernel)
      result = noted(retry, *result.failure,
                     "multi-buffering dropped: two copies of the loop's tiles do not fit");
  }
  if (result.kernel)
    ReportHub::instance().publish(ReportEvent::Compiled, result.kernel->report());
  return result;
}

static CompileResult compileOnce(const std::string &asctileIR,
                                 const CompileOptions &options) {
  CompileResult result;
  auto fail = [&](ErrorKind kind, std::string message, ReportLoc loc) {
    CompileFailure f;
    f.kind = kind;
    f.message = std::move(message);
    f.loc = std::move(loc);
    result.failure = std::move(f);
    return result;
  };

  std::string archError;
  auto arch = loadArch(options.platform, options.archDir, archError);
  if (!arch)
    return fail(ErrorKind::Option, archError, {});
  if (options.optLevel < 0 || options.optLevel > 3)
    return fail(ErrorKind::Option,
                "opt_level must be 0, 1, 2 or 3, got " + std::to_string(options.optLevel), {});

  DialectRegistry registry;
  registerAllDialects(registry);
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  context.loadAllAvailableDialects();

  std::vector<DiagnosticRecord> diagnostics;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    auto severity = [](DiagnosticSeverity s) {
      switch (s) {
      case DiagnosticSeverity::Error: return Severity::Error;
      case DiagnosticSeverity::Warning: return Severity::Warning;
      case DiagnosticSeverity::Note: return Severity::Note;
      case DiagnosticSeverity::Remark: return Severity::Remark;
      }
      return Severity::Error;
    };
    ErrorKind kind = takeErrorKind(diag);
    diagnostics.push_back({severity(diag.getSeverity()), diag.str(),
                           reportLoc(diag.getLocation()), kind});
    for (Diagnostic &note : diag.getNotes())
      diagnostics.push_back({Severity::Note, note.str(), reportLoc(note.getLocation()), kind});
    return success();
  });
  auto firstError = [&]() -> CompileResult {
    for (const DiagnosticRecord &d : diagnostics)
      if (d.severity == Severity::Error) {
        fail(d.kind, d.message, d.loc);
        result.failure->diagnostics = diagnostics;
        return result;
      }
    return fail(ErrorKind::Internal, "compilation failed without a diagnostic", {});
  };

  auto report = std::make_shared<CompileReport>();
  report->target = options.platform;
  report->options = options.userOptions;
  report->sourceFile = options.sourceFile;

  if (auto problem = checkInputText(asctileIR, kMaxInputNesting))
    return fail(ErrorKind::Compile,
                "the kernel IR at line " + std::to_string(problem->line) + ": " + problem->message, {});
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(asctileIR, &context, "asctile-input");
  if (!module)
    return firstError();
  auto kernels = llvm::to_vector(module->getOps<func::FuncOp>());
  if (kernels.empty())
    return fail(ErrorKind::Internal, "the module has no kernel function", {});
  func::FuncOp kernel = kernels.front();
  for (func::FuncOp f : kernels)
    if (f->hasAttr("asctile.kernel"))
      kernel = f;
  report->kernel = kernel.getName().str();
  report->kernelSymbol = kernelSymbol(kernel.getName());

  PassRecord input;
  input.index = 0;
  input.name = "frontend";
  input.stage = "frontend";
  input.ir = printOp(*module, &input.irLines, &input.irPipes);
  input.changed = true;
  input.opCount = countOps(*module);
  report->passes.push_back(std::move(input));

  PassManager pm(&context);
  pm.addInstrumentation(std::make_unique<CaptureIR>(*report));
  pm.addPass(createInlinerPass());
  pm.addNestedPass<func::FuncOp>(asctile::createAscTileComputeBF16InF32());
  pm.addNestedPass<func::FuncOp>(asctile::createAscTileExpandFusedOps());
  pm.addNestedPass<func::FuncOp>(asctile::createAscTileLowerScalarMath());
  asctile::AscTileTransformMathOpsOptions mathOptions;
  // Ascend950's Erf is one vector function (AscendC_ErfOp); elsewhere the
  // library's is a sequence of calls like the expansion.
  mathOptions.keepErf = arch->socVersion == "c310";
  pm.addNestedPass<func::FuncOp>(asctile::createAscTileTransformMathOps(mathOptions));
  if (options.optLevel >= 1) {
    pm.addNestedPass<func::FuncOp>(asctile::createAscTileSimplifyArith());
    // Tiles computed from loop-invariant values (a broadcast gamma, a splat)
    // once, not every iteration.
    pm.addNestedPass<func::FuncOp>(createLoopInvariantCodeMotionPass());
  }
  // Before the split: the tile offsets are the kernel's own there.
  pm.addNestedPass<func::FuncOp>(asctile::createAscTileDisjointTrips());
  asctile::AscTileSplitVectorWorkOptions splitOptions;
  splitOptions.vectorCores = options.vectorCoresPerGroup;
  pm.addNestedPass<func::FuncOp>(asctile::createAscTileSplitVectorWork(splitOptions));
  // Where the DMA can write a tile transposed, a transposed load needs one
  // UB tile instead of two (before multi-buffering counts the tiles).
  if (arch->ndDmaDims > 0) {
    asctile::AscTileFoldTransposeIntoLoadOptions foldOptions;
    foldOptions.maxDims = arch->ndDmaDims;
    pm.addNestedPass<func::FuncOp>(asctile::createAscTileFoldTransposeIntoLoad(foldOptions));
  }
  if (options.batchesRows()) {
    asctile::AscTileBatchRowsOptions batchOptions;
    batchOptions.ubCapacity = arch->capacity[(int)sim::Space::UB];
    pm.addNestedPass<func::FuncOp>(asctile::createAscTileBatchRows(batchOptions));
  }
  asctile::AscTileMultiBufferOptions bufferOptions;
  bufferOptions.ubCapacity = arch->capacity[(int)sim::Space::UB];
  // Below opt_level 2 one buffer per tile, unless the user asked for more.
  bufferOptions.numStages =
      options.choosesStages() ? 0 : std::max(options.numStages, 1);
  pm.addNestedPass<func::FuncOp>(asctile::createAscTileMultiBuffer(bufferOptions));
  pm.addNestedPass<func::FuncOp>(asctile::createAscTileUnrollLoop());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addNestedPass<func::FuncOp>(asctile::createAscTilePropagateNaN());
  pm.addNestedPass<func::FuncOp>(asctile::createAscTileComputeBF16InF32());
  if (options.recomputeCasts) // after the last CSE, which would merge the copies again
    pm.addNestedPass<func::FuncOp>(asctile::createAscTileRecomputeCasts());
  ConvertAscTileToAscendCOptions lowerOptions;
  lowerOptions.socVersion = arch->socVersion;
  pm.addPass(createConvertAscTileToAscendC(lowerOptions));
  // The lowering repeats offset/count arithmetic per load and store.
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addNestedPass<func::FuncOp>(ascendc::createAscendCHoistLocalAlloc());
  ascendc::AscendCPlanMemoryOptions planOptions;
  planOptions.reuse = options.reuseAlloc != 0;
  planOptions.shareCopies = options.reuseAlloc >= 2;
  planOptions.ubCapacity = arch->capacity[(int)sim::Space::UB];
  planOptions.l1Capacity = arch->capacity[(int)sim::Space::L1];
  pm.addNestedPass<func::FuncOp>(ascendc::createAscendCPlanMemory(planOptions));
  pm.addNestedPass<func::FuncOp>(
      ascendc::createAscendCComputeMemoryConsumption(memoryLimitsOf(*arch)));
  pm.addNestedPass<func::FuncOp>(ascendc::createAscendCDetectKernelType());
  std::string syncStyle = options.syncStyle.empty() ? arch->syncStyle : options.syncStyle;
  if (syncStyle != "flag" && syncStyle != "buffer-id")
    return fail(ErrorKind::Option,
                "sync_style must be \"flag\" or \"buffer-id\", got \"" + syncStyle + "\"", {});
  if (syncStyle == "buffer-id" && arch->bufferIds == 0)
    return fail(ErrorKind::Option,
                "sync_style=\"buffer-id\" needs buffer ids (Mutex), which " +
                    options.platform + " does not have; use sync_style=\"flag\" or "
                    "platform Ascend950",
                {});
  report->options["sync_style"] = syncStyle;
  if (options.insertSync && syncStyle == "buffer-id") {
    ascendc::AscendCInsertBufIdSyncOptions syncOptions;
    syncOptions.bufIds = arch->bufferIds;
    syncOptions.eventIds = plannableEventIds(*arch, staticAllocFor(options, *arch));
    pm.addNestedPass<func::FuncOp>(ascendc::createAscendCInsertBufIdSync(syncOptions));
    pm.addNestedPass<func::FuncOp>(ascendc::createAscendCFuseBufIdSync());
    if (options.verifySync)
      pm.addNestedPass<func::FuncOp>(ascendc::createAscendCVerifySync());
  } else if (options.insertSync) {
    ascendc::AscendCInsertSyncOptions syncOptions;
    syncOptions.eventIds = plannableEventIds(*arch, staticAllocFor(options, *arch));
    pm.addNestedPass<func::FuncOp>(ascendc::createAscendCInsertSync(syncOptions));
    if (options.verifySync)
      pm.addNestedPass<func::FuncOp>(ascendc::createAscendCVerifySync());
  }
  if (failed(pm.run(*module)))
    return firstError();

  describeFinalIR(kernel, *arch, *report);
  if (auto kind = kernel->getAttrOfType<StringAttr>("ascendc.kernel_type")) {
    report->options["kernel_type"] = kind.getValue().str();
    if (kind.getValue() == "MIX") {
      report->options["mix_ratio"] =
          "1:" + std::to_string(ascendc::vectorCoresPerGroup(kernel));
      if (ascendc::firstVectorCoreOnly(kernel))
        report->options["vector_work"] = "first vector core";
    }
    if (options.matmulCubeOnly && kind.getValue() != "AIC_ONLY") {
      Operation *vectorOp = nullptr;
      kernel.walk([&](Operation *op) {
        if (!vectorOp && ascendc::coreKindOf(op) == ascendc::CoreKind::Vector &&
            !isa<ascendc::SetFlagOp, ascendc::WaitFlagOp, ascendc::PipeBarrierOp>(op))
          vectorOp = op;
      });
      return fail(ErrorKind::Option,
                  "matmul_cube_only=True, but the kernel uses the vector unit here (kernel type " +
                      kind.getValue().str() + "); drop the option or move this work to another kernel",
                  vectorOp ? reportLoc(vectorOp->getLoc()) : ReportLoc{});
    }
  }

  std::string source;
  llvm::raw_string_ostream os(source);
  bool staticAlloc = staticAllocFor(options, *arch);
  report->options["allocation"] = staticAlloc ? "static" : "tpipe";
  if (failed(emitAscendC(*module, arch->socVersion, staticAlloc, os)))
    return firstError();
  report->ascendc = source;
  report->ascendcLines = sourceLinesOfAscendC(source);

  FailureOr<sim::Program> program = buildSimProgram(kernel);
  if (failed(program))
    return firstError();
  report->diagnostics = diagnostics;

  result.kernel = std::make_shared<CompiledKernel>(report, std::move(*program),
                                                   *arch);
  return result;
}

int plannableEventIds(const ArchModel &arch, bool staticAlloc) {
  // Static-tensor code: ids 0-5; 6 is reserved and 7 is the TPipe's
  // automatic sync (mirror-cann/asc-devkit@82b89a15f:docs/zh/api/SIMD-API/
  // 基础API/同步控制/核内同步/SetFlag-WaitFlag(ISASI).md, 约束说明). Under a
  // TPipe every id comes from AllocEventID, and the TPipe's constructor holds
  // three M_MTE1 ids on the AIC (impl/basic_api/kernel_tpipe_impl.h and
  // dav_3510/kernel_tpipe_impl_c310.h, TPipe::Init): 8 - 3 are left for it,
  // and the planner's one budget is for every pipe pair.
  return std::min(arch.eventIdsPerPipePair, staticAlloc ? 6 : 5);
}

bool staticAllocFor(const CompileOptions &options, const ArchModel &arch) {
  return options.staticAlloc.value_or(arch.socVersion == "c310");
}

std::atomic<bool> &cancelRequested() {
  static std::atomic<bool> flag{false};
  return flag;
}

//===----------------------------------------------------------------------===//
// Launches
//===----------------------------------------------------------------------===//

namespace {
/// The instructions a mutation run counts: wait_flag entries of the report
/// (flags of one core and cross-core ones), or get_bufs.
bool isWaitFlag(sim::Opcode op) {
  return op == sim::Opcode::WaitFlag || op == sim::Opcode::CrossCoreWaitFlag;
}
bool isGetBuf(sim::Opcode op) { return op == sim::Opcode::GetBuf; }
int countOf(const sim::Program &program, bool (*is)(sim::Opcode)) {
  return llvm::count_if(program.code, [&](const sim::Instr &in) { return is(in.op); });
}
/// pc of the `index`-th instruction `is` accepts (code order), or -1.
long nthOf(const sim::Program &program, bool (*is)(sim::Opcode), int index) {
  for (size_t pc = 0; pc < program.code.size(); ++pc)
    if (is(program.code[pc].op) && index-- == 0)
      return long(pc);
  return -1;
}
/// A no-op in place of instruction `pc`: on to the next pc.
void dropInstr(sim::Program &program, size_t pc) {
  program.code[pc].op = sim::Opcode::Jump;
  program.code[pc].target = pc + 1;
  program.code[pc].pipe = sim::Pipe::S;
}
} // namespace

int CompiledKernel::waitCount() const { return countOf(m_program, isWaitFlag); }

sim::LaunchResult
CompiledKernel::simulateWithoutWait(int waitIndex, int blockNum,
                                    const std::vector<sim::LaunchArg> &args,
                                    const sim::SimOptions &options) const {
  sim::Program mutant = m_program;
  long pc = nthOf(mutant, isWaitFlag, waitIndex);
  if (pc >= 0)
    dropInstr(mutant, size_t(pc));
  return sim::simulate(mutant, m_arch, blockNum, args, options);
}

int CompiledKernel::getBufCount() const { return countOf(m_program, isGetBuf); }

sim::LaunchResult
CompiledKernel::simulateWithoutGetBuf(int index, int blockNum,
                                      const std::vector<sim::LaunchArg> &args,
                                      const sim::SimOptions &options) const {
  sim::Program mutant = m_program;
  long pc = nthOf(mutant, isGetBuf, index);
  if (pc >= 0) {
    const sim::Instr get = mutant.code[pc];
    // The release is the next rls_buf of the id on the pipe: get/rls pairs
    // sit in one block, so code order is program order between them.
    for (size_t r = size_t(pc) + 1; r < mutant.code.size(); ++r)
      if (mutant.code[r].op == sim::Opcode::RlsBuf &&
          mutant.code[r].eventId == get.eventId && mutant.code[r].pipe == get.pipe) {
        dropInstr(mutant, r);
        break;
      }
    dropInstr(mutant, size_t(pc));
  }
  return sim::simulate(mutant, m_arch, blockNum, args, options);
}

CompileResult compileBaseline(const std::string &ascendcIR,
                              const CompileOptions &options) {
  CompileResult result;
  std::string archError;
  auto arch = loadArch(options.platform, options.archDir, archError);
  if (!arch) {
    result.failure = CompileFailure{archError, {}, {}, ErrorKind::Option};
    return result;
  }
  DialectRegistry registry;
  registerAllDialects(registry);
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  context.loadAllAvailableDialects();
  std::vector<DiagnosticRecord> diagnostics;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    diagnostics.push_back({diag.getSeverity() == DiagnosticSeverity::Error ? Severity::Error
                                                                          : Severity::Note,
                           diag.str(), reportLoc(diag.getLocation()), takeErrorKind(diag)});
    return success();
  });
  auto fail = [&]() {
    CompileFailure f{"baseline failed to compile", {}, diagnostics, ErrorKind::Internal};
    for (const DiagnosticRecord &d : diagnostics)
      if (d.severity == Severity::Error) {
        f.message = d.message;
        f.loc = d.loc;
        f.kind = d.kind;
        break;
      }
    result.failure = f;
    return result;
  };
  if (auto problem = checkInputText(ascendcIR, kMaxInputNesting)) {
    result.failure = CompileFailure{"line " + std::to_string(problem->line) + ": " + problem->message,
                                    {}, {}, ErrorKind::Compile};
    return result;
  }
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(ascendcIR, &context,
                                  options.sourceFile.empty() ? "baseline"
                                                             : options.sourceFile);
  if (!module)
    return fail();
  auto funcs = llvm::to_vector(module->getOps<func::FuncOp>());
  if (funcs.empty()) {
    result.failure = CompileFailure{"the baseline has no function", {}, {}};
    return result;
  }
  func::FuncOp kernel = funcs.front();
  auto report = std::make_shared<CompileReport>();
  report->kernel = kernel.getName().str();
  report->kernelSymbol = kernelSymbol(kernel.getName());
  report->target = options.platform;
  report->sourceFile = options.sourceFile;
  report->options = options.userOptions;
  report->options["baseline"] = "true";
  PassRecord input;
  input.name = "baseline";
  input.stage = "ascendc";
  input.ir = printOp(*module, &input.irLines, &input.irPipes);
  input.changed = true;
  input.opCount = countOps(*module);
  report->passes.push_back(std::move(input));

  PassManager pm(&context);
  pm.addNestedPass<func::FuncOp>(
      ascendc::createAscendCComputeMemoryConsumption(memoryLimitsOf(*arch)));
  pm.addNestedPass<func::FuncOp>(ascendc::createAscendCDetectKernelType());
  if (failed(pm.run(*module)))
    return fail();
  describeFinalIR(kernel, *arch, *report);
  std::string source;
  llvm::raw_string_ostream os(source);
  if (failed(emitAscendC(*module, arch->socVersion, staticAllocFor(options, *arch), os)))
    return fail();
  report->ascendc = source;
  report->ascendcLines = sourceLinesOfAscendC(source);
  FailureOr<sim::Program> program = buildSimProgram(kernel);
  if (failed(program))
    return fail();
  result.kernel = std::make_shared<CompiledKernel>(report, std::move(*program), *arch);
  return result;
}

std::shared_ptr<const CompileReport> CompiledKernel::report() const {
  std::lock_guard<std::mutex> lock(m_mutex);
  return m_report;
}

LaunchRecord CompiledKernel::launch(int blockNum,
                                    const std::vector<sim::LaunchArg> &args,
                                    const sim::SimOptions &options) {
  sim::LaunchResult run = sim::simulate(m_program, m_arch, blockNum, args, options);
  LaunchRecord rec;
  rec.blockNum = blockNum;
  rec.ok = run.ok;
  rec.error = run.error;
  rec.totalCycles = run.totalCycles;
  rec.timeUs = run.timeUs;
  rec.races = run.races.size();
  for (const sim::Race &r : run.races)
    rec.raceMessages.push_back(r.message);
  rec.warnings = run.warnings;
  for (int p = 0; p < sim::kNumPipes; ++p) {
    PipeTotals t;
    t.pipe = (Pipe)p;
    for (const sim::CoreStats &c : run.cores) {
      t.busyCycles += c.busy[p];
      t.bytes += c.bytes[p];
    }
    if (run.totalCycles && !run.cores.empty())
      t.utilization = (double)t.busyCycles /
                      ((double)run.totalCycles * run.cores.size());
    rec.pipes.push_back(t);
  }
  if (options.collectTrace) {
    rec.pipeUtilizationCsv = sim::pipeUtilizationCsv(run, m_arch);
    rec.trace = sim::makeTrace(std::move(run), m_program, m_arch);
  }
  recordLaunch(rec);
  return rec;
}

void CompiledKernel::recordLaunch(const LaunchRecord &rec) {
  std::shared_ptr<const CompileReport> updated;
  {
    std::lock_guard<std::mutex> lock(m_mutex);
    auto next = std::make_shared<CompileReport>(*m_report);
    // Only the latest launch keeps its (large) trace.
    for (LaunchRecord &old : next->launches) {
      old.trace.reset();
      old.pipeUtilizationCsv.clear();
    }
    next->launches.push_back(rec);
    m_report = next;
    updated = next;
  }
  ReportHub::instance().publish(ReportEvent::Launched, updated);
}

} // namespace asc2
