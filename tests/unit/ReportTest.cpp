//===- ReportTest.cpp - the typed parts of the CompileReport
//---------------===//
//
// What the GUI and Python read from a report without parsing text: each
// program point's op name, pipe, core and location, and each sync op's role,
// filled by the pipeline from the IR.
//
//===----------------------------------------------------------------------===//
#include "asc2/Driver/Pipeline.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

#include <gtest/gtest.h>

using namespace asc2;

namespace {

// exp(x) in a loop: double-buffered, so its flags are loop-carried.
const char *kExpLoop = R"mlir(
module {
  func.func @exp_loop(%x: !asctile.ptr<f32>, %out: !asctile.ptr<f32>, %n: index, %tiles: index) attributes {asctile.kernel, asctile.arg_names = ["x", "out", "n", "tiles"]} {
    %tx = asctile.tensor %x[%n] : !asctile.ptr<f32> -> !asctile.tensor<?xf32> loc("exp.py":3:5)
    %to = asctile.tensor %out[%n] : !asctile.ptr<f32> -> !asctile.tensor<?xf32> loc("exp.py":4:5)
    %c256 = arith.constant 256 : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %tiles step %c1 {
      %off = arith.muli %i, %c256 : index loc("exp.py":6:9)
      %a = asctile.load %tx[%off] : !asctile.tensor<?xf32> -> !asctile.tile<256xf32, UB> loc("exp.py":7:9)
      %e = math.exp %a : !asctile.tile<256xf32, UB> loc("exp.py":8:13)
      asctile.store %e, %to[%off] : !asctile.tile<256xf32, UB>, !asctile.tensor<?xf32> loc("exp.py":9:9)
    } loc("exp.py":5:5)
    return
  }
}
)mlir";

// A matmul on the cube core and an add on the vector core: a MIX kernel.
const char *kMix = R"mlir(
module {
  func.func @mix(%a: !asctile.ptr<f16>, %b: !asctile.ptr<f16>, %c: !asctile.ptr<f32>, %x: !asctile.ptr<f32>, %y: !asctile.ptr<f32>) attributes {asctile.kernel, asctile.arg_names = ["a", "b", "c", "x", "y"]} {
    %ta = asctile.tensor %a[] : !asctile.ptr<f16> -> !asctile.tensor<32x64xf16>
    %tb = asctile.tensor %b[] : !asctile.ptr<f16> -> !asctile.tensor<64x48xf16>
    %tc = asctile.tensor %c[] : !asctile.ptr<f32> -> !asctile.tensor<32x48xf32>
    %tx = asctile.tensor %x[] : !asctile.ptr<f32> -> !asctile.tensor<256xf32>
    %ty = asctile.tensor %y[] : !asctile.ptr<f32> -> !asctile.tensor<256xf32>
    %c0 = arith.constant 0 : index
    %l = asctile.load %ta[%c0, %c0] : !asctile.tensor<32x64xf16> -> !asctile.tile<32x64xf16, L0A> loc("mix.py":3:5)
    %r = asctile.load %tb[%c0, %c0] : !asctile.tensor<64x48xf16> -> !asctile.tile<64x48xf16, L0B> loc("mix.py":4:5)
    %p = asctile.matmul %l, %r : !asctile.tile<32x64xf16, L0A>, !asctile.tile<64x48xf16, L0B> -> !asctile.tile<32x48xf32, L0C> loc("mix.py":5:5)
    asctile.store %p, %tc[%c0, %c0] : !asctile.tile<32x48xf32, L0C>, !asctile.tensor<32x48xf32> loc("mix.py":6:5)
    %v = asctile.load %tx[%c0] : !asctile.tensor<256xf32> -> !asctile.tile<256xf32, UB> loc("mix.py":7:5)
    %w = arith.addf %v, %v : !asctile.tile<256xf32, UB> loc("mix.py":8:5)
    asctile.store %w, %ty[%c0] : !asctile.tile<256xf32, UB>, !asctile.tensor<256xf32> loc("mix.py":9:5)
    return
  }
}
)mlir";

std::shared_ptr<const CompileReport> compile(const char *ir) {
  CompileResult result = compileKernel(ir, {});
  EXPECT_TRUE(result.kernel) << (result.failure ? result.failure->message : "");
  return result.kernel ? result.kernel->report() : nullptr;
}

const SyncRecord *syncAt(const CompileReport &r, int point) {
  for (const SyncRecord &s : r.sync)
    if (s.point == point)
      return &s;
  return nullptr;
}

TEST(Report, ProgramPointsCarryOpNamePipeAndSource) {
  auto report = compile(kExpLoop);
  ASSERT_TRUE(report);
  ASSERT_FALSE(report->points.empty());
  std::map<std::string, int> seen;
  for (size_t p = 0; p < report->points.size(); ++p) {
    const ProgramPointRecord &point = report->points[p];
    ++seen[point.name];
    // The printed op starts with its name (after any results).
    EXPECT_NE(point.text.find(point.name.substr(point.name.find('.') + 1)),
              std::string::npos)
        << point.text;
    EXPECT_EQ(point.core, Core::AIV) << point.name; // an AIV_ONLY kernel
    Pipe expected = Pipe::S;
    if (point.name == "ascendc.data_copy_in")
      expected = Pipe::MTE2;
    else if (point.name == "ascendc.data_copy_out")
      expected = Pipe::MTE3;
    else if (point.name == "ascendc.exp")
      expected = Pipe::V;
    if (const SyncRecord *s = syncAt(*report, int(p)))
      expected = s->kind == SyncKind::WaitFlag ? s->dstPipe : s->srcPipe;
    EXPECT_EQ(point.pipe, expected) << point.name << " at point " << p;
    if (point.name == "ascendc.exp") {
      EXPECT_EQ(point.loc.file, "exp.py");
      EXPECT_EQ(point.loc.line, 8);
    }
  }
  for (const char *name :
       {"ascendc.data_copy_in", "ascendc.exp", "ascendc.data_copy_out",
        "ascendc.set_flag", "ascendc.wait_flag", "scf.for", "arith.muli"})
    EXPECT_GT(seen[name], 0) << name;

  // Each line of a pass's IR knows its op's pipe.
  const PassRecord &last = report->passes.back();
  std::vector<std::string> lines;
  for (size_t start = 0; start < last.ir.size();) {
    size_t end = last.ir.find('\n', start);
    lines.push_back(last.ir.substr(start, end - start));
    start = end == std::string::npos ? last.ir.size() : end + 1;
  }
  ASSERT_EQ(last.irPipes.size(), lines.size());
  int piped = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    // The op's name: the line's first word after any results.
    std::string line = lines[i].substr(lines[i].find_first_not_of(' '));
    if (line.rfind('%', 0) == 0 && line.find(" = ") != std::string::npos)
      line = line.substr(line.find(" = ") + 3);
    line = line.substr(0, line.find(' '));
    Pipe expected =
        line.find("ascendc.data_copy_in") != std::string::npos    ? Pipe::MTE2
        : line.find("ascendc.data_copy_out") != std::string::npos ? Pipe::MTE3
        : line.find("ascendc.exp") != std::string::npos           ? Pipe::V
                                                        : last.irPipes[i];
    if (line.rfind("arith.", 0) == 0 || line == "scf.for")
      expected = Pipe::S;
    else if (line == "ascendc.set_flag" || line == "ascendc.wait_flag") {
      // "ascendc.set_flag V -> MTE2, 0": a set on its source, a wait on its
      // destination.
      const std::string &text = lines[i];
      size_t arrow = text.find(" -> ");
      size_t start = text.rfind(' ', arrow - 1) + 1;
      std::string src = text.substr(start, arrow - start);
      std::string dst =
          text.substr(arrow + 4, text.find(',', arrow) - arrow - 4);
      expected = *parsePipe(line == "ascendc.set_flag" ? src : dst);
    }
    EXPECT_EQ(last.irPipes[i], expected) << lines[i];
    piped += last.irPipes[i] != Pipe::S;
  }
  EXPECT_GE(piped, 3);

  // The JSON keeps the op text and location of each point.
  auto json = llvm::json::parse(toJson(*report, /*includeIr=*/false));
  ASSERT_TRUE(bool(json));
  const llvm::json::Array *points =
      json->getAsObject()->getArray("program_points");
  ASSERT_TRUE(points);
  ASSERT_EQ(points->size(), report->points.size());
  const llvm::json::Object &first = *(*points)[0].getAsObject();
  EXPECT_EQ(first.getString("op")->str(), report->points[0].text);
  EXPECT_EQ(first.getObject("loc")->getInteger("line"),
            report->points[0].loc.line);
}

/// InsertSync marks a loop-carried flag's reason "(loop-carried)"; the roles
/// come from the flag's structure and must agree with it: a prime before the
/// loop and a drain after it for each carried flag, the rest carried.
TEST(Report, LoopCarriedFlagsArePrimedCarriedAndDrained) {
  auto report = compile(kExpLoop);
  ASSERT_TRUE(report);
  int primes = 0, drains = 0, carried = 0, pairs = 0;
  for (const SyncRecord &s : report->sync) {
    if (s.kind != SyncKind::SetFlag && s.kind != SyncKind::WaitFlag) {
      EXPECT_EQ(s.role, s.kind == SyncKind::PipeBarrier ? SyncRole::Barrier
                                                        : SyncRole::BufId);
      continue;
    }
    if (s.role == SyncRole::Skip)
      continue;
    bool loopCarried = llvm::StringRef(s.reason).ends_with("(loop-carried)");
    bool carriedRole = s.role == SyncRole::Prime ||
                       s.role == SyncRole::Carried || s.role == SyncRole::Drain;
    EXPECT_EQ(loopCarried, carriedRole)
        << syncKindName(s.kind) << " at " << s.point << " ("
        << syncRoleName(s.role) << "): " << s.reason;
    primes += s.role == SyncRole::Prime;
    drains += s.role == SyncRole::Drain;
    carried += s.role == SyncRole::Carried;
    pairs += s.role == SyncRole::Pair;
    if (s.role == SyncRole::Prime)
      EXPECT_EQ(s.kind, SyncKind::SetFlag);
    if (s.role == SyncRole::Drain)
      EXPECT_EQ(s.kind, SyncKind::WaitFlag);
    // A prime sits before the loop, a drain after it.
    if (s.role == SyncRole::Prime || s.role == SyncRole::Drain) {
      int loop = 0;
      for (size_t p = 0; p < report->points.size(); ++p)
        if (report->points[p].name == "scf.for")
          loop = int(p);
      EXPECT_EQ(s.role == SyncRole::Prime, s.point < loop) << s.point;
    }
  }
  EXPECT_GT(primes, 0);
  EXPECT_EQ(primes, drains);
  EXPECT_GE(carried, 2 * primes); // a wait and a set in the loop per flag
  EXPECT_GT(pairs, 0);
  // The JSON names the roles as before.
  std::string json = toJson(*report, false);
  for (const char *role : {"\"role\": \"prime\"", "\"role\": \"carried\"",
                           "\"role\": \"drain\"", "\"role\": \"pair\""})
    EXPECT_NE(json.find(role), std::string::npos) << role;
}

TEST(Report, MixKernelPointsRunOnTheirCores) {
  auto report = compile(kMix);
  ASSERT_TRUE(report);
  EXPECT_EQ(report->options.at("kernel_type"), "MIX");
  std::map<std::string, std::pair<Pipe, Core>> of;
  for (const ProgramPointRecord &p : report->points)
    of[p.name] = {p.pipe, p.core};
  ASSERT_TRUE(of.count("ascendc.mmad"));
  EXPECT_EQ(of["ascendc.mmad"].first, Pipe::M);
  EXPECT_EQ(of["ascendc.mmad"].second, Core::AIC);
  ASSERT_TRUE(of.count("ascendc.load_data"));
  EXPECT_EQ(of["ascendc.load_data"].first, Pipe::MTE1);
  EXPECT_EQ(of["ascendc.load_data"].second, Core::AIC);
  ASSERT_TRUE(of.count("ascendc.add"));
  EXPECT_EQ(of["ascendc.add"].first, Pipe::V);
  EXPECT_EQ(of["ascendc.add"].second, Core::AIV);
  ASSERT_TRUE(of.count("arith.constant"));
  EXPECT_EQ(of["arith.constant"].first, Pipe::S);
  EXPECT_EQ(of["arith.constant"].second, Core::Both);
}

TEST(Report, NamesRoundTrip) {
  for (SyncKind k : {SyncKind::SetFlag, SyncKind::WaitFlag,
                     SyncKind::PipeBarrier, SyncKind::GetBuf, SyncKind::RlsBuf})
    EXPECT_EQ(parseSyncKind(syncKindName(k)), k);
  for (int r = 0; r < int(kSyncRoleNames.size()); ++r)
    EXPECT_EQ(parseSyncRole(syncRoleName(SyncRole(r))), SyncRole(r));
  EXPECT_STREQ(syncRoleName(SyncRole::BufId), "buf_id");
  EXPECT_STREQ(severityName(Severity::Warning), "warning");
  EXPECT_EQ(parseSeverity("note"), Severity::Note);
  EXPECT_FALSE(parseSyncKind("set"));
  // Pipe spellings of imported data.
  EXPECT_EQ(parsePipe("vec"), Pipe::V);
  EXPECT_EQ(parsePipe("FIXPIPE"), Pipe::FIX);
  EXPECT_EQ(parsePipe("pipe_mte2"), Pipe::MTE2);
  EXPECT_EQ(parsePipe("CUBE"), Pipe::M);
  EXPECT_FALSE(parsePipe("USERMARK"));
  EXPECT_EQ(pipeLaneIndex(Pipe::V), 2);
  EXPECT_EQ(pipeLaneIndex(Pipe::ALL), -1);
}

} // namespace
