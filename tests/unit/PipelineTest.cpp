//===- PipelineTest.cpp - asctile IR through the whole compiler and the sim ===//
//
// The C++ end of the foundation: the real pass pipeline on a vadd kernel, the
// report it produces, the simulator running the result on real buffers, and
// the race detector catching every inserted wait that is taken away.
//
//===----------------------------------------------------------------------===//
#include "asc2/Driver/Pipeline.h"
#include "asc2/Report/ReportHub.h"

#include "llvm/Support/JSON.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

using namespace asc2;

namespace {

const char *kVadd = R"mlir(
module {
  func.func @vadd(%x: !asctile.ptr<f32>, %y: !asctile.ptr<f32>, %out: !asctile.ptr<f32>, %n: index, %tiles: index) attributes {asctile.kernel, asctile.arg_names = ["x", "y", "out", "n", "tiles"]} {
    %tx = asctile.tensor %x[%n] : !asctile.ptr<f32> -> !asctile.tensor<?xf32> loc("vadd.py":3:5)
    %ty = asctile.tensor %y[%n] : !asctile.ptr<f32> -> !asctile.tensor<?xf32> loc("vadd.py":4:5)
    %to = asctile.tensor %out[%n] : !asctile.ptr<f32> -> !asctile.tensor<?xf32> loc("vadd.py":5:5)
    %b = asctile.block_idx loc("vadd.py":6:5)
    %c256 = arith.constant 256 : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %bt = arith.muli %b, %tiles : index
    %base = arith.muli %bt, %c256 : index
    scf.for %i = %c0 to %tiles step %c1 {
      %o = arith.muli %i, %c256 : index
      %off = arith.addi %base, %o : index
      %a = asctile.load %tx[%off] : !asctile.tensor<?xf32> -> !asctile.tile<256xf32, UB> loc("vadd.py":9:9)
      %c = asctile.load %ty[%off] : !asctile.tensor<?xf32> -> !asctile.tile<256xf32, UB> loc("vadd.py":10:9)
      %s = arith.addf %a, %c : !asctile.tile<256xf32, UB> loc("vadd.py":11:22)
      asctile.store %s, %to[%off] : !asctile.tile<256xf32, UB>, !asctile.tensor<?xf32> loc("vadd.py":11:9)
    } loc("vadd.py":7:5)
    return
  }
}
)mlir";

/// kVadd with every `from` replaced by `to`.
std::string vaddWith(std::initializer_list<std::pair<std::string, std::string>> edits) {
  std::string ir = kVadd;
  for (const auto &[from, to] : edits)
    for (size_t pos = 0; (pos = ir.find(from, pos)) != std::string::npos;
         pos += to.size())
      ir.replace(pos, from.size(), to);
  return ir;
}

struct VaddRun {
  std::vector<float> x, y, out;
  LaunchRecord launch;
};

VaddRun runVadd(CompiledKernel &kernel, int64_t n, int cores,
                const sim::Program *program = nullptr) {
  VaddRun r;
  std::mt19937 rng(42);
  std::uniform_real_distribution<float> dist(-10, 10);
  for (int64_t i = 0; i < n; ++i) {
    r.x.push_back(dist(rng));
    r.y.push_back(dist(rng));
  }
  r.out.assign(n, -1.0f);
  int64_t tiles = ((n + 255) / 256 + cores - 1) / cores;
  auto gm = [](std::vector<float> &v) {
    sim::LaunchArg a;
    a.kind = sim::ArgSpec::Kind::Gm;
    a.data = v.data();
    a.bytes = v.size() * sizeof(float);
    a.dtype = sim::DType::F32;
    return a;
  };
  sim::LaunchArg nArg, tilesArg;
  nArg.kind = tilesArg.kind = sim::ArgSpec::Kind::Int;
  nArg.i = n;
  tilesArg.i = tiles;
  std::vector<sim::LaunchArg> args{gm(r.x), gm(r.y), gm(r.out), nArg, tilesArg};
  sim::SimOptions options;
  if (program) {
    sim::LaunchResult res =
        sim::simulate(*program, kernel.arch(), cores, args, options);
    r.launch.ok = res.ok;
    r.launch.error = res.error;
    r.launch.races = res.races.size();
    return r;
  }
  r.launch = kernel.launch(cores, args, options);
  return r;
}

TEST(Pipeline, VaddCompilesWithAFullReport) {
  int published = 0;
  int id = ReportHub::instance().addListener(
      [&](ReportEvent e, std::shared_ptr<const CompileReport>) {
        published += e == ReportEvent::Compiled;
      });
  CompileResult result = compileKernel(kVadd, {});
  ReportHub::instance().removeListener(id);
  ASSERT_TRUE(result.kernel) << result.failure->message;
  EXPECT_EQ(published, 1);
  auto report = result.kernel->report();
  EXPECT_EQ(report->kernel, "vadd");
  ASSERT_GE(report->passes.size(), 5u);
  EXPECT_EQ(report->passes.front().name, "frontend");
  std::vector<std::string> names;
  for (const PassRecord &p : report->passes)
    names.push_back(p.name);
  for (const char *expected :
       {"convert-asctile-to-ascendc", "ascendc-plan-memory", "ascendc-insert-sync"})
    EXPECT_NE(std::find(names.begin(), names.end(), expected), names.end())
        << expected;
  EXPECT_NE(report->passes.back().ir.find("ascendc.set_flag"), std::string::npos);

  // Ping-pong: two copies of the three 1 KiB tiles, at distinct aligned
  // offsets in UB.
  ASSERT_EQ(report->buffers.size(), 6u);
  std::set<int64_t> offsets;
  for (const BufferRecord &b : report->buffers) {
    EXPECT_EQ(b.space, "UB");
    EXPECT_EQ(b.size, 1024);
    EXPECT_EQ(b.offset % 32, 0);
    EXPECT_LE(b.liveStart, b.liveEnd);
    offsets.insert(b.offset);
  }
  EXPECT_EQ(offsets.size(), 6u);
  ASSERT_EQ(report->spaces.size(), 1u);
  EXPECT_EQ(report->spaces[0].capacity, 188416); // TOTAL_VEC_LOCAL_SIZE
  EXPECT_EQ(report->spaces[0].peak, 6144);
  EXPECT_EQ(report->spaces[0].lowerBound, 6144);

  // Every inserted sync says why.
  ASSERT_FALSE(report->sync.empty());
  for (const SyncRecord &s : report->sync) {
    EXPECT_FALSE(s.reason.empty()) << syncKindName(s.kind);
    EXPECT_GE(s.point, 0);
  }
  EXPECT_NE(report->ascendc.find("AscendC::SetFlag<AscendC::HardEvent::MTE2_V>"),
            std::string::npos);
  EXPECT_NE(report->ascendc.find("AscendC::Add("), std::string::npos);

  auto parsed = llvm::json::parse(toJson(*report));
  ASSERT_TRUE(bool(parsed));
  EXPECT_EQ(*parsed->getAsObject()->getString("schema"), "asc2.report/1");
}

TEST(Pipeline, VaddMatchesTheReferenceRaceFree) {
  CompileResult result = compileKernel(kVadd, {});
  ASSERT_TRUE(result.kernel);
  for (auto [n, cores] : {std::pair<int64_t, int>{8192, 8}, {1000, 8}, {12345, 3},
                          {256, 1}, {100, 4}}) {
    VaddRun r = runVadd(*result.kernel, n, cores);
    ASSERT_TRUE(r.launch.ok) << r.launch.error;
    EXPECT_EQ(r.launch.races, 0);
    EXPECT_GT(r.launch.totalCycles, 0u);
    for (int64_t i = 0; i < n; ++i)
      ASSERT_EQ(r.out[i], r.x[i] + r.y[i]) << "n=" << n << " i=" << i;
  }
  auto report = result.kernel->report();
  EXPECT_EQ(report->launches.size(), 5u);
  EXPECT_TRUE(report->launches.back().trace);
  EXPECT_FALSE(report->launches.front().trace); // only the last keeps it
}

/// Taking away any inserted wait_flag must be caught: as a race, or as the
/// binary-flag misuse it causes. Two launches: an even number of tiles per
/// core, and an odd one, whose last trip takes the skipped path of the
/// unrolled copy's guard (the waits there only run then).
TEST(Pipeline, RemovingAnyInsertedWaitIsCaught) {
  CompileResult result = compileKernel(kVadd, {});
  ASSERT_TRUE(result.kernel);
  const sim::Program &program = result.kernel->program();
  int waits = 0;
  for (size_t pc = 0; pc < program.code.size(); ++pc) {
    if (program.code[pc].op != sim::Opcode::WaitFlag)
      continue;
    ++waits;
    sim::Program mutant = program;
    mutant.code[pc].op = sim::Opcode::Jump; // a no-op: jump to the next pc
    mutant.code[pc].target = pc + 1;
    bool caught = false;
    for (int64_t n : {4096, 3 * 256 * 2}) {
      VaddRun r = runVadd(*result.kernel, n, 2, &mutant);
      caught |= !r.launch.ok || r.launch.races > 0;
    }
    EXPECT_TRUE(caught) << "removing the wait at pc " << pc << " went unnoticed";
  }
  EXPECT_GE(waits, 4);
}

/// Multi-buffering (the compiler's choice) beats one buffer per tile on a
/// loop long enough to overlap, with the same numbers.
TEST(Pipeline, PingPongOverlapsLoadsWithCompute) {
  CompileOptions single;
  single.numStages = 1;
  CompileResult one = compileKernel(kVadd, single);
  CompileResult two = compileKernel(kVadd, {});
  ASSERT_TRUE(one.kernel && two.kernel);
  EXPECT_EQ(one.kernel->report()->buffers.size(), 3u);
  EXPECT_EQ(two.kernel->report()->buffers.size(), 6u);
  // The report marks which copy (ping or pong) each buffer belongs to.
  int pong = 0;
  for (const BufferRecord &b : two.kernel->report()->buffers)
    pong += b.slot == 1;
  EXPECT_EQ(pong, 3);
  VaddRun a = runVadd(*one.kernel, 256 * 64 * 2 + 100, 2);
  VaddRun b = runVadd(*two.kernel, 256 * 64 * 2 + 100, 2);
  ASSERT_TRUE(a.launch.ok && b.launch.ok) << a.launch.error << b.launch.error;
  EXPECT_EQ(b.launch.races, 0);
  EXPECT_EQ(a.out, b.out);
  EXPECT_LT(b.launch.totalCycles, a.launch.totalCycles);
}

TEST(Pipeline, UbOverflowNamesTheLiveTiles) {
  CompileResult result = compileKernel(vaddWith({{"256xf32", "32768xf32"}}), {});
  ASSERT_FALSE(result.kernel);
  const std::string &m = result.failure->message;
  // Two live 128 KiB tiles: x and y loaded (their sum goes in place of x).
  EXPECT_NE(m.find("UB overflow: kernel needs 262144 bytes but UB has 188416 "
                   "(73728 bytes over)"),
            std::string::npos)
      << m;
  // In the kernel's terms: shape, dtype and line; no MLIR types or loc(...).
  EXPECT_NE(m.find("tile [32768] float32 (131072 bytes) from vadd.py:9:9"), std::string::npos) << m;
  EXPECT_EQ(m.find("!ascendc"), std::string::npos) << m;
  EXPECT_EQ(m.find("loc("), std::string::npos) << m;
}

TEST(Pipeline, ErrorsPointAtTheKernelLine) {
  // Rows of 3 floats (12 bytes) are not 32-byte aligned; a rank-1 tile of
  // any length would be fine.
  CompileResult result = compileKernel(
      vaddWith({{"256xf32", "2x3xf32"}, {"tensor<?xf32>", "tensor<?x3xf32>"},
                {"[%off]", "[%off, %c0]"}}),
      {});
  ASSERT_FALSE(result.kernel);
  EXPECT_EQ(result.failure->loc.file, "vadd.py");
  EXPECT_EQ(result.failure->loc.line, 9);
  EXPECT_NE(result.failure->message.find("not a multiple of 32 bytes"),
            std::string::npos);
}

TEST(Pipeline, UnknownPlatformIsAClearError) {
  CompileOptions options;
  options.platform = "Ascend123";
  CompileResult result = compileKernel(kVadd, options);
  ASSERT_FALSE(result.kernel);
  EXPECT_NE(result.failure->message.find("Ascend123"), std::string::npos);
}

//===----------------------------------------------------------------------===//
// Error kinds and opt_level
//===----------------------------------------------------------------------===//

TEST(Pipeline, AnOverflowIsAMemoryErrorWhereverItIsReported) {
  CompileResult result = compileKernel(vaddWith({{"256xf32", "32768xf32"}}), {});
  ASSERT_FALSE(result.kernel);
  EXPECT_EQ(result.failure->kind, ErrorKind::Memory);
  // The pass tagged the diagnostic itself (the failure takes its kind from
  // the first error); the retries with one buffer per tile overflowed too.
  int errors = 0;
  for (const DiagnosticRecord &d : result.failure->diagnostics)
    if (d.severity == Severity::Error) {
      ++errors;
      EXPECT_EQ(d.kind, ErrorKind::Memory) << d.message;
    }
  EXPECT_EQ(errors, 1);
}

TEST(Pipeline, AMisalignedTileIsAnAlignmentError) {
  CompileResult result = compileKernel(
      vaddWith({{"256xf32", "2x3xf32"}, {"tensor<?xf32>", "tensor<?x3xf32>"},
                {"[%off]", "[%off, %c0]"}}),
      {});
  ASSERT_FALSE(result.kernel);
  EXPECT_EQ(result.failure->kind, ErrorKind::Alignment);
}

TEST(Pipeline, OtherErrorsHaveTheirOwnKinds) {
  CompileOptions platform;
  platform.platform = "Ascend123";
  EXPECT_EQ(compileKernel(kVadd, platform).failure->kind, ErrorKind::Option);
  CompileOptions level;
  level.optLevel = 4;
  CompileResult badLevel = compileKernel(kVadd, level);
  ASSERT_FALSE(badLevel.kernel);
  EXPECT_EQ(badLevel.failure->kind, ErrorKind::Option);
  EXPECT_NE(badLevel.failure->message.find("opt_level"), std::string::npos);
  // A type error the verifier finds is neither memory nor alignment.
  CompileResult typeError = compileKernel(
      vaddWith({{"%s = arith.addf %a, %c : !asctile.tile<256xf32, UB>",
                 "%s = arith.addf %a, %c : !asctile.tile<256xf16, UB>"}}),
      {});
  ASSERT_FALSE(typeError.kernel);
  EXPECT_EQ(typeError.failure->kind, ErrorKind::Compile);
}

std::vector<std::string> passNames(const CompileResult &r) {
  std::vector<std::string> names;
  for (const PassRecord &p : r.kernel->report()->passes)
    names.push_back(p.name);
  return names;
}

bool ran(const std::vector<std::string> &passes, const std::string &name) {
  return std::find(passes.begin(), passes.end(), name) != passes.end();
}

TEST(Pipeline, OptLevelChoosesTheOptionalOptimisations) {
  std::vector<CompileResult> levels;
  for (int level = 0; level <= 3; ++level) {
    CompileOptions options;
    options.optLevel = level;
    levels.push_back(compileKernel(kVadd, options));
    ASSERT_TRUE(levels.back().kernel) << levels.back().failure->message;
  }
  CompileResult byDefault = compileKernel(kVadd, {});
  ASSERT_TRUE(byDefault.kernel);
  // 3 is the default: the same passes and the same Ascend C.
  EXPECT_EQ(passNames(levels[3]), passNames(byDefault));
  EXPECT_EQ(levels[3].kernel->report()->ascendc, byDefault.kernel->report()->ascendc);

  auto at = [&](int level) { return passNames(levels[level]); };
  EXPECT_FALSE(ran(at(0), "asctile-simplify-arith"));
  EXPECT_FALSE(ran(at(0), "loop-invariant-code-motion"));
  EXPECT_TRUE(ran(at(1), "asctile-simplify-arith"));
  EXPECT_TRUE(ran(at(1), "loop-invariant-code-motion"));
  EXPECT_FALSE(ran(at(2), "asctile-batch-rows"));
  EXPECT_TRUE(ran(at(3), "asctile-batch-rows"));
  // Multi-buffering from 2 on: one buffer per tile below (x, y, the sum in
  // place of x, and out's), two from 2 on.
  EXPECT_EQ(levels[1].kernel->report()->buffers.size(), 3u);
  EXPECT_EQ(levels[2].kernel->report()->buffers.size(), 6u);
  // The same numbers at every level.
  VaddRun full = runVadd(*levels[3].kernel, 256 * 8 + 17, 2);
  for (int level = 0; level < 3; ++level) {
    VaddRun run = runVadd(*levels[level].kernel, 256 * 8 + 17, 2);
    ASSERT_TRUE(run.launch.ok) << run.launch.error;
    EXPECT_EQ(run.launch.races, 0);
    EXPECT_EQ(run.out, full.out) << "opt_level " << level;
  }
}

TEST(Pipeline, AnExplicitNumStagesOutranksALowOptLevel) {
  CompileOptions options;
  options.optLevel = 1;
  options.numStages = 2;
  CompileResult result = compileKernel(kVadd, options);
  ASSERT_TRUE(result.kernel) << result.failure->message;
  EXPECT_EQ(result.kernel->report()->buffers.size(), 6u);
}

} // namespace
