//===- Trace.cpp - msprof-compatible trace.json and PipeUtilization.csv ---===//
//
// The layouts follow what `msprof op simulator` and `msprof op` write
// (shared/reference/ascend-hw-model.md §4.1, §4.3) so the same viewers read
// simulated and measured runs.
//
//===----------------------------------------------------------------------===//

#include "asc2/Sim/Simulator.h"

#include "SimSupport.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <map>
#include <set>
#include <tuple>

namespace asc2::sim {

namespace {

/// Lane order of the msprof op simulator timeline (utility.cpp
/// getLaneOrderMap).
int laneSortIndex(Pipe p) {
  switch (p) {
  case Pipe::S:
    return 1;
  case Pipe::MTE1:
    return 3;
  case Pipe::M:
    return 4;
  case Pipe::FIX:
    return 5;
  case Pipe::MTE2:
    return 6;
  case Pipe::V:
    return 7;
  case Pipe::MTE3:
    return 8;
  }
  return 11;
}

/// Trace colour names of the lanes (timeline_defs.h cNamesMap).
const char *laneColour(Pipe p) {
  switch (p) {
  case Pipe::S:
    return "startup";
  case Pipe::V:
    return "cq_build_failed";
  case Pipe::M:
    return "background_memory_dump";
  case Pipe::MTE1:
    return "thread_state_running";
  case Pipe::MTE2:
    return "thread_state_iowait";
  case Pipe::MTE3:
    return "rail_response";
  case Pipe::FIX:
    return "thread_state_unknown";
  }
  return "generic_work";
}

bool isCrossCore(const TraceEvent &e) {
  return e.op == Opcode::CrossCoreSetFlag || e.op == Opcode::CrossCoreWaitFlag;
}

} // namespace

bool isFlagSet(const TraceEvent &e) {
  // A buffer id's release and the next get_buf of it pair like a set and a
  // wait.
  return e.op == Opcode::SetFlag || e.op == Opcode::CrossCoreSetFlag ||
         e.op == Opcode::RlsBuf;
}

bool isFlagWait(const TraceEvent &e) {
  return e.op == Opcode::WaitFlag || e.op == Opcode::CrossCoreWaitFlag ||
         e.op == Opcode::GetBuf;
}

std::string flagDetail(const TraceEvent &e) {
  if (e.op == Opcode::GetBuf || e.op == Opcode::RlsBuf)
    return std::string("PIPE:") + pipeName(e.pipe) +
           ", BUF ID:" + std::to_string(e.eventId);
  if (isCrossCore(e))
    return std::string("PIPE:") + pipeName(e.flagSrc) +
           (e.cube ? ", CUBE CORE" : ", VECTOR CORE") +
           ", SYNC ID:" + std::to_string(e.eventId);
  return std::string("PIPE:") + pipeName(e.flagSrc) +
         ", TRIGGER PIPE:" + pipeName(e.flagDst) +
         ", FLAG ID:" + std::to_string(e.eventId);
}

std::string Trace::nameOf(const TraceEvent &e) const {
  if (e.point >= 0 && size_t(e.point) < pointNames.size())
    return pointNames[e.point];
  switch (e.op) {
  case Opcode::SetFlag:
    return "SET_FLAG";
  case Opcode::WaitFlag:
    return "WAIT_FLAG";
  case Opcode::CrossCoreSetFlag:
    return "SET_CROSS_CORE";
  case Opcode::CrossCoreWaitFlag:
    return "WAIT_CROSS_CORE";
  default:
    return "instr";
  }
}

std::string Trace::codeOf(const TraceEvent &e) const {
  if (e.point < 0 || size_t(e.point) >= pointLocs.size())
    return "";
  const SourceLoc &l = pointLocs[e.point];
  if (l.file.empty() && l.line == 0)
    return "";
  return l.file + ":" + std::to_string(l.line);
}

/// Pairs each wait with the set of its flowId before it in simulation
/// order (the executor gives a set's flowId to the wait that consumes it);
/// stalls are the flag waits that took cycles.
static void pairFlags(Trace &trace) {
  std::map<uint64_t, int32_t> setOf; // flowId -> latest set
  for (size_t i = 0; i < trace.events.size(); ++i) {
    const TraceEvent &e = trace.events[i];
    if (e.flowId && isFlagSet(e))
      setOf[e.flowId] = int32_t(i);
  }
  for (size_t i = 0; i < trace.events.size(); ++i) {
    const TraceEvent &e = trace.events[i];
    if (!isFlagWait(e))
      continue;
    auto it = e.flowId ? setOf.find(e.flowId) : setOf.end();
    int32_t set = it == setOf.end() ? -1 : it->second;
    if (set >= 0)
      trace.pairs.push_back({set, int32_t(i)});
    if (e.op != Opcode::GetBuf && e.end > e.start)
      trace.stalls.push_back({int32_t(i), set});
  }
}

std::shared_ptr<Trace> makeTrace(LaunchResult &&result, const Program &program,
                                 const ArchModel &arch) {
  auto trace = std::make_shared<Trace>();
  trace->clockMHz = arch.clockMHz > 0 ? arch.clockMHz : 1;
  trace->events = std::move(result.trace);
  trace->truncated = result.traceTruncated;
  trace->pointNames = program.pointNames;
  // The source of a point: that of its first instruction.
  trace->pointLocs.resize(program.pointNames.size());
  std::vector<bool> located(program.pointNames.size(), false);
  for (const Instr &in : program.code)
    if (in.point >= 0 && size_t(in.point) < located.size() && !located[in.point] &&
        in.loc >= 0) {
      located[in.point] = true;
      if (size_t(in.loc) < program.locs.size())
        trace->pointLocs[in.point] = program.locs[in.loc];
    }
  pairFlags(*trace);
  return trace;
}

std::string traceToJson(const LaunchResult &result, const Program &program,
                        const ArchModel &arch) {
  LaunchResult copy;
  copy.trace = result.trace;
  copy.traceTruncated = result.traceTruncated;
  return traceToJson(*makeTrace(std::move(copy), program, arch));
}

std::string traceToJson(const Trace &trace) {
  const double mhz = trace.clockMHz;
  // One msprof process per simulated core: "core<block>.cubecore0" for an
  // AIC, "core<block>.veccore<sub>" for an AIV (MIX blocks have both; a
  // MIX_AIC_1_2 block veccore0 and veccore1).
  auto pidOf = [&](int core, bool cube, int sub) {
    return "core" + std::to_string(core) +
           (cube ? std::string(".cubecore0") : ".veccore" + std::to_string(sub));
  };

  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::json::OStream j(os);
  j.object([&] {
    j.attribute("schemaVersion", 2);
    j.attribute("displayTimeUnit", "ns");
    j.attribute("profilingType", "op");
    j.attributeArray("traceEvents", [&] {
      // Metadata: one process per core, one thread per lane it used.
      std::set<std::tuple<int, bool, int, int>> lanes;
      for (const TraceEvent &e : trace.events)
        lanes.insert({e.core, !e.cube, int(e.sub), int(e.pipe)});
      std::tuple<int, bool, int> lastCore{-1, false, 0};
      for (auto [core, vector, sub, pipe] : lanes) {
        const bool cube = !vector;
        std::string pid = pidOf(core, cube, sub);
        if (std::tuple{core, vector, sub} != lastCore) {
          lastCore = {core, vector, sub};
          j.object([&] {
            j.attribute("name", "process_name");
            j.attribute("ph", "M");
            j.attribute("pid", pid);
            j.attributeObject("args", [&] { j.attribute("name", pid); });
          });
          j.object([&] {
            j.attribute("name", "process_sort_index");
            j.attribute("ph", "M");
            j.attribute("pid", pid);
            int index = core * 4 + (cube ? 1 : 2 + sub);
            j.attributeObject("args", [&] { j.attribute("sort_index", index); });
          });
        }
        const char *lane = pipeTraceLaneName(Pipe(pipe));
        j.object([&] {
          j.attribute("name", "thread_name");
          j.attribute("ph", "M");
          j.attribute("pid", pid);
          j.attribute("tid", lane);
          j.attributeObject("args", [&] { j.attribute("name", lane); });
        });
        j.object([&] {
          j.attribute("name", "thread_sort_index");
          j.attribute("ph", "M");
          j.attribute("pid", pid);
          j.attribute("tid", lane);
          j.attributeObject("args", [&] {
            j.attribute("sort_index", laneSortIndex(Pipe(pipe)));
          });
        });
      }

      for (const TraceEvent &e : trace.events) {
        std::string pid = pidOf(e.core, e.cube, e.sub);
        const char *lane = pipeTraceLaneName(e.pipe);
        bool isSet = isFlagSet(e);
        bool isFlag = isSet || isFlagWait(e);
        j.object([&] {
          j.attribute("name", trace.nameOf(e));
          j.attribute("cname", isFlag ? (isSet ? "black" : "yellow")
                                      : laneColour(e.pipe));
          j.attribute("ph", "X");
          j.attribute("ts", double(e.start) / mhz);
          j.attribute("dur", double(e.end - e.start) / mhz);
          j.attribute("pid", pid);
          j.attribute("tid", lane);
          j.attributeObject("args", [&] {
            j.attribute("code", trace.codeOf(e));
            j.attribute("detail", isFlag ? flagDetail(e)
                                  : e.bytes ? std::to_string(e.bytes) + " bytes"
                                            : std::string());
            if (e.bytes)
              j.attribute("process_bytes", e.bytes);
          });
        });
        if (isFlag && e.flowId) {
          // Flow arrow from the set (when it fires) to the wait (when it
          // lets its pipe go).
          j.object([&] {
            j.attribute("name", "flow");
            j.attribute("ph", isSet ? "s" : "f");
            if (!isSet)
              j.attribute("bp", "e");
            j.attribute("id", int64_t(e.flowId));
            j.attribute("cat",
                        isCrossCore(e)
                            ? std::string((e.cube == isSet) ? "AicToAiv"
                                                            : "AivToAic")
                            : std::string(pipeName(e.flagSrc)) + "To" +
                                  pipeName(e.flagDst));
            j.attribute("ts", double(e.end) / mhz);
            j.attribute("pid", pid);
            j.attribute("tid", lane);
          });
        }
      }
    });
  });
  return text;
}

std::string pipeUtilizationCsv(const LaunchResult &result,
                               const ArchModel &arch) {
  static const char *const kAicColumns[] = {
      "aic_time(us)", "aic_total_cycles", "aic_cube_time(us)", "aic_cube_ratio",
      "aic_mte1_time(us)", "aic_mte1_ratio", "aic_mte2_time(us)",
      "aic_mte2_ratio", "aic_mte3_time(us)", "aic_mte3_ratio",
      "aic_mte3_active_bw(GB/s)", "aic_fixpipe_time(us)", "aic_fixpipe_ratio",
      "aic_fixpipe_active_bw(GB/s)", "aic_icache_miss_rate",
      "aic_scalar_time(us)", "aic_scalar_ratio", "aic_scalar_single_time(us)",
      "aic_scalar_dual_time(us)", "aic_scalar_mte1_stall_time(us)",
      "aic_scalar_mte2_stall_time(us)", "aic_scalar_mte3_stall_time(us)",
      "aic_scalar_cube_stall_time(us)", "aic_scalar_wait_ib_time(us)",
      "aic_scalar_wait_time(us)"};
  static const char *const kAivColumns[] = {
      "aiv_time(us)", "aiv_total_cycles", "aiv_vec_time(us)", "aiv_vec_ratio",
      "aiv_mte2_time(us)", "aiv_mte2_ratio", "aiv_mte2_active_bw(GB/s)",
      "aiv_mte3_time(us)", "aiv_mte3_ratio", "aiv_mte3_active_bw(GB/s)",
      "aiv_icache_miss_rate", "aiv_scalar_time(us)", "aiv_scalar_ratio",
      "aiv_scalar_single_time(us)", "aiv_scalar_dual_time(us)",
      "aiv_scalar_mte2_stall_time(us)", "aiv_scalar_mte3_stall_time(us)",
      "aiv_scalar_stall_by_ub_time(us)", "aiv_scalar_vector_stall_time(us)",
      "aiv_scalar_wait_ib_time(us)", "aiv_scalar_wait_time(us)"};

  const double mhz = arch.clockMHz > 0 ? arch.clockMHz : 1;
  std::string out = "block_id,sub_block_id";
  for (const char *c : kAicColumns)
    out += std::string(",") + c;
  for (const char *c : kAivColumns)
    out += std::string(",") + c;
  out += "\n";

  auto num = [](double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return std::string(buf);
  };
  // Bytes moved per busy second of the pipe, in GB/s (1e9 bytes).
  auto activeBw = [&](const CoreStats &s, Pipe p) {
    double seconds = double(s.busy[int(p)]) / (mhz * 1e6);
    return num(seconds > 0 ? double(s.bytes[int(p)]) / seconds / 1e9 : 0);
  };
  auto aicColumns = [&](const CoreStats &s) {
    uint64_t total = s.cycles - s.start;
    auto time = [&](Pipe p) { return num(double(s.busy[int(p)]) / mhz); };
    auto ratio = [&](Pipe p) {
      return num(total ? double(s.busy[int(p)]) / double(total) : 0);
    };
    return std::vector<std::string>{
        num(double(total) / mhz), std::to_string(total), time(Pipe::M),
        ratio(Pipe::M), time(Pipe::MTE1), ratio(Pipe::MTE1), time(Pipe::MTE2),
        ratio(Pipe::MTE2), time(Pipe::MTE3), ratio(Pipe::MTE3),
        activeBw(s, Pipe::MTE3), time(Pipe::FIX), ratio(Pipe::FIX),
        activeBw(s, Pipe::FIX), "0", time(Pipe::S), ratio(Pipe::S),
        time(Pipe::S), "0", "0", "0", "0", "0", "0", "0"};
  };
  auto aivColumns = [&](const CoreStats &s) {
    uint64_t total = s.cycles - s.start;
    auto time = [&](Pipe p) { return num(double(s.busy[int(p)]) / mhz); };
    auto ratio = [&](Pipe p) {
      return num(total ? double(s.busy[int(p)]) / double(total) : 0);
    };
    return std::vector<std::string>{
        num(double(total) / mhz), std::to_string(total), time(Pipe::V),
        ratio(Pipe::V), time(Pipe::MTE2), ratio(Pipe::MTE2),
        activeBw(s, Pipe::MTE2), time(Pipe::MTE3), ratio(Pipe::MTE3),
        activeBw(s, Pipe::MTE3), "0", time(Pipe::S), ratio(Pipe::S),
        time(Pipe::S), "0", "0", "0", "0", "0", "0", "0"};
  };
  // One row per (block, sub-block): an AIC fills the aic columns of its
  // block's sub-block 0, an AIV the aiv ones of its sub-block (MIX blocks
  // both; MIX_AIC_1_2 blocks a second row for their second AIV); the other
  // side stays 0.
  std::map<std::pair<int32_t, int>, std::pair<const CoreStats *, const CoreStats *>>
      rows;
  for (const CoreStats &s : result.cores)
    (s.cube ? rows[{s.block, 0}].first : rows[{s.block, s.sub}].second) = &s;
  for (const auto &[key, pair] : rows) {
    std::vector<std::string> aic(std::size(kAicColumns), "0");
    std::vector<std::string> aiv(std::size(kAivColumns), "0");
    if (pair.first)
      aic = aicColumns(*pair.first);
    if (pair.second)
      aiv = aivColumns(*pair.second);
    out += std::to_string(key.first) + "," + std::to_string(key.second);
    for (const std::string &v : aic)
      out += "," + v;
    for (const std::string &v : aiv)
      out += "," + v;
    out += "\n";
  }
  return out;
}

} // namespace asc2::sim
