//===- SimTraceTest.cpp - trace.json and PipeUtilization.csv --------------===//

#include "SimTestUtil.h"

#include "llvm/Support/JSON.h"

#include <map>
#include <sstream>

using namespace asc2::sim;
using namespace asc2::sim::test;

namespace {

LaunchResult runSmallVadd(const Program &p, const ArchModel &arch,
                          SimOptions opts = {}) {
  static std::vector<float> x(4096, 1), y(4096, 2), z(4096);
  return simulate(p, arch, 2,
                  {gmArg(x, DType::F32), gmArg(y, DType::F32),
                   gmArg(z, DType::F32), intArg(4096)},
                  opts);
}

TEST(SimTrace, TraceJsonHasMsprofLayoutAndFlows) {
  ArchModel arch = loadArch();
  VaddOptions o;
  o.doubleBuffer = true;
  Program p = makeVadd(o);
  LaunchResult r = runSmallVadd(p, arch);
  ASSERT_TRUE(r.ok) << r.error;
  ASSERT_FALSE(r.trace.empty());
  for (size_t i = 1; i < r.trace.size(); ++i) {
    const TraceEvent &a = r.trace[i - 1], &b = r.trace[i];
    ASSERT_TRUE(a.core < b.core || (a.core == b.core && a.start <= b.start));
  }

  std::string text = traceToJson(r, p, arch);
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(text);
  ASSERT_TRUE(bool(parsed)) << llvm::toString(parsed.takeError());
  const llvm::json::Object *root = parsed->getAsObject();
  ASSERT_TRUE(root);
  EXPECT_EQ(root->getInteger("schemaVersion"), 2);
  EXPECT_EQ(root->getString("displayTimeUnit"), "ns");
  EXPECT_EQ(root->getString("profilingType"), "op");
  const llvm::json::Array *events = root->getArray("traceEvents");
  ASSERT_TRUE(events);

  std::map<int64_t, std::string> flowStarts, flowEnds;
  int copies = 0, threadNames = 0;
  for (const llvm::json::Value &v : *events) {
    const llvm::json::Object *e = v.getAsObject();
    ASSERT_TRUE(e);
    llvm::StringRef ph = *e->getString("ph");
    if (ph == "s")
      flowStarts[*e->getInteger("id")] = e->getString("cat")->str();
    if (ph == "f")
      flowEnds[*e->getInteger("id")] = e->getString("cat")->str();
    if (ph == "M" && e->getString("name") == "thread_name")
      ++threadNames;
    if (ph == "X" && e->getString("tid") == "MTE2" &&
        e->getString("name") == "ascendc.data_copy") {
      ++copies;
      EXPECT_TRUE(e->getString("pid")->starts_with("core"));
      EXPECT_TRUE(e->getString("pid")->ends_with(".veccore0"));
      const llvm::json::Object *args = e->getObject("args");
      ASSERT_TRUE(args);
      EXPECT_TRUE(args->getString("code") == "kernel.py:10" ||
                  args->getString("code") == "kernel.py:11");
      EXPECT_EQ(args->getInteger("process_bytes"), 4096);
      EXPECT_GT(*e->getNumber("dur"), 0.0);
    }
  }
  EXPECT_EQ(copies, 2 * 2 * 2); // 2 cores x 2 tiles x (x, y)
  EXPECT_EQ(threadNames, 2 * 4); // SCALAR, MTE2, VECTOR, MTE3 per core
  ASSERT_FALSE(flowStarts.empty());
  EXPECT_EQ(flowStarts, flowEnds); // every set arrow lands on its wait
  bool sawMte2ToV = false;
  for (auto &[id, cat] : flowStarts)
    sawMte2ToV |= cat == "MTE2ToV";
  EXPECT_TRUE(sawMte2ToV);
}

TEST(SimTrace, MaxTraceEventsIsHonoured) {
  ArchModel arch = loadArch();
  SimOptions opts;
  opts.maxTraceEvents = 10;
  LaunchResult r = runSmallVadd(makeVadd({}), arch, opts);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_LE(r.trace.size(), 10u);
  EXPECT_TRUE(r.traceTruncated);
  opts.collectTrace = false;
  r = runSmallVadd(makeVadd({}), arch, opts);
  EXPECT_TRUE(r.trace.empty());
}

TEST(SimTrace, PipeUtilizationCsvUsesMsprofColumns) {
  ArchModel arch = loadArch();
  LaunchResult r = runSmallVadd(makeVadd({}), arch);
  ASSERT_TRUE(r.ok) << r.error;
  std::string csv = pipeUtilizationCsv(r, arch);
  std::istringstream in(csv);
  std::string header, line;
  std::getline(in, header);
  EXPECT_EQ(header.rfind("block_id,sub_block_id,aic_time(us),aic_total_cycles,",
                         0),
            0u);
  for (const char *col :
       {"aiv_time(us)", "aiv_total_cycles", "aiv_vec_ratio",
        "aiv_mte2_active_bw(GB/s)", "aiv_mte3_ratio", "aiv_scalar_wait_time(us)",
        "aic_fixpipe_active_bw(GB/s)"})
    EXPECT_NE(header.find(col), std::string::npos) << col;
  auto split = [](const std::string &s) {
    std::vector<std::string> out;
    std::stringstream ss(s);
    std::string cell;
    while (std::getline(ss, cell, ','))
      out.push_back(cell);
    return out;
  };
  std::vector<std::string> cols = split(header);
  EXPECT_EQ(cols.size(), 2u + 25u + 21u);
  int rows = 0;
  while (std::getline(in, line)) {
    std::vector<std::string> cells = split(line);
    ASSERT_EQ(cells.size(), cols.size()) << line;
    EXPECT_EQ(cells[0], std::to_string(rows));
    EXPECT_EQ(cells[1], "0");
    std::map<std::string, std::string> row;
    for (size_t i = 0; i < cols.size(); ++i)
      row[cols[i]] = cells[i];
    EXPECT_EQ(row["aiv_total_cycles"],
              std::to_string(r.cores[rows].cycles - r.cores[rows].start));
    double ratio = std::stod(row["aiv_mte2_ratio"]);
    EXPECT_GT(ratio, 0.3);
    EXPECT_LE(ratio, 1.0);
    // Bytes moved per busy second of MTE2 (busy: a copy in flight).
    const CoreStats &c = r.cores[rows];
    double bw = std::stod(row["aiv_mte2_active_bw(GB/s)"]);
    EXPECT_NEAR(bw,
                double(c.bytes[int(Pipe::MTE2)]) /
                    (double(c.busy[int(Pipe::MTE2)]) / 1850e6) / 1e9,
                1e-3);
    EXPECT_LT(bw, 220.06); // never above the port bandwidth
    ++rows;
  }
  EXPECT_EQ(rows, 2);
}

/// The pairs and stalls of a hand-made trace: a wait that started before its
/// set fired (a stall), one that found its flag set (no stall), a buffer id
/// released and taken (a pair, never a flag stall), and an unmatched wait.
TEST(SimTrace, PairsAndStallsOfAKnownTrace) {
  auto event = [](Pipe pipe, uint64_t start, uint64_t end, Opcode op,
                  uint64_t flowId) {
    TraceEvent e;
    e.pipe = pipe;
    e.start = start;
    e.end = end;
    e.op = op;
    e.flowId = flowId;
    e.flagSrc = Pipe::MTE2;
    e.flagDst = Pipe::V;
    return e;
  };
  LaunchResult run;
  run.trace = {
      event(Pipe::MTE2, 0, 100, Opcode::CopyGmToLocal, 0),
      event(Pipe::V, 20, 110, Opcode::WaitFlag, 5),  // 1: waits 90 cycles
      event(Pipe::MTE2, 100, 110, Opcode::SetFlag, 5), // 2
      event(Pipe::MTE2, 120, 130, Opcode::SetFlag, 6), // 3
      event(Pipe::V, 200, 200, Opcode::WaitFlag, 6),   // 4: already set
      event(Pipe::MTE3, 210, 220, Opcode::RlsBuf, 7),  // 5
      event(Pipe::MTE2, 150, 230, Opcode::GetBuf, 7),  // 6: takes it late
      event(Pipe::V, 300, 340, Opcode::WaitFlag, 0),   // 7: no set in the trace
  };
  Program program;
  ArchModel arch;
  arch.clockMHz = 1000;
  std::string json = traceToJson(run, program, arch);
  std::shared_ptr<Trace> trace = makeTrace(std::move(run), program, arch);
  EXPECT_EQ(trace->events.size(), 8u);
  ASSERT_EQ(trace->pairs.size(), 3u);
  EXPECT_EQ(trace->pairs[0].set, 2);
  EXPECT_EQ(trace->pairs[0].wait, 1);
  EXPECT_EQ(trace->pairs[1].set, 3);
  EXPECT_EQ(trace->pairs[1].wait, 4);
  EXPECT_EQ(trace->pairs[2].set, 5);
  EXPECT_EQ(trace->pairs[2].wait, 6);
  ASSERT_EQ(trace->stalls.size(), 2u);
  EXPECT_EQ(trace->stalls[0].wait, 1);
  EXPECT_EQ(trace->stalls[0].set, 2);
  EXPECT_EQ(trace->stalls[1].wait, 7);
  EXPECT_EQ(trace->stalls[1].set, -1);
  EXPECT_DOUBLE_EQ(trace->us(trace->events[1].end - trace->events[1].start), 0.09);
  EXPECT_EQ(trace->nameOf(trace->events[1]), "WAIT_FLAG");
  EXPECT_EQ(trace->codeOf(trace->events[1]), "");
  EXPECT_EQ(flagDetail(trace->events[1]), "PIPE:MTE2, TRIGGER PIPE:V, FLAG ID:0");
  // The export is the same from the launch or from its kept trace.
  EXPECT_EQ(traceToJson(*trace), json);
}

} // namespace
