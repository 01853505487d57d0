//===- CompileReport.cpp - JSON form of the CompileReport ------------------===//
#include "asc2/Report/CompileReport.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

namespace asc2 {
namespace json = llvm::json;

static json::Value locJson(const ReportLoc &loc) {
  return json::Object{{"file", loc.file}, {"line", loc.line}, {"col", loc.col}};
}

std::string toJson(const CompileReport &r, bool includeIr) {
  json::Array passes;
  for (const PassRecord &p : r.passes) {
    json::Object o{{"index", p.index},     {"name", p.name},
                   {"stage", p.stage},     {"changed", p.changed},
                   {"wall_ms", p.wallMs},  {"op_count", p.opCount}};
    if (includeIr) {
      o["ir"] = p.ir;
      json::Array lines;
      for (int l : p.irLines)
        lines.push_back(l);
      o["ir_lines"] = std::move(lines);
    }
    passes.push_back(std::move(o));
  }

  json::Array spaces;
  for (const SpaceUsage &s : r.spaces)
    spaces.push_back(json::Object{{"space", s.space},
                                  {"capacity", s.capacity},
                                  {"peak", s.peak},
                                  {"lower_bound", s.lowerBound}});
  json::Array buffers;
  for (const BufferRecord &b : r.buffers)
    buffers.push_back(json::Object{{"name", b.name},
                                   {"space", b.space},
                                   {"offset", b.offset},
                                   {"size", b.size},
                                   {"live", json::Array{b.liveStart, b.liveEnd}},
                                   {"slot", b.slot},
                                   {"loc", locJson(b.loc)}});

  json::Array sync;
  for (const SyncRecord &s : r.sync)
    sync.push_back(json::Object{{"kind", syncKindName(s.kind)},
                                {"src_pipe", pipeName(s.srcPipe)},
                                {"dst_pipe", pipeName(s.dstPipe)},
                                {"event_id", s.eventId},
                                {"point", s.point},
                                {"loc", locJson(s.loc)},
                                {"reason", s.reason},
                                {"role", syncRoleName(s.role)}});

  json::Array diags;
  for (const DiagnosticRecord &d : r.diagnostics)
    diags.push_back(json::Object{{"severity", severityName(d.severity)},
                                 {"message", d.message},
                                 {"loc", locJson(d.loc)}});

  json::Array launches;
  for (const LaunchRecord &l : r.launches) {
    json::Array pipes;
    for (const PipeTotals &p : l.pipes)
      pipes.push_back(json::Object{{"pipe", pipeName(p.pipe)},
                                   {"busy_cycles", (int64_t)p.busyCycles},
                                   {"bytes", (int64_t)p.bytes},
                                   {"utilization", p.utilization}});
    json::Array races;
    for (const std::string &m : l.raceMessages)
      races.push_back(m);
    json::Array warnings;
    for (const std::string &m : l.warnings)
      warnings.push_back(m);
    json::Object launch{{"block_num", l.blockNum},
                        {"ok", l.ok},
                        {"error", l.error},
                        {"cycles", (int64_t)l.totalCycles},
                        {"time_us", l.timeUs},
                        {"pipes", std::move(pipes)},
                        {"races", l.races},
                        {"race_messages", std::move(races)},
                        {"warnings", std::move(warnings)}};
    if (l.onDevice) {
      launch["backend"] = "NPU";
      launch["profile_dir"] = l.profileDir;
    }
    launches.push_back(std::move(launch));
  }

  json::Object options;
  for (const auto &[k, v] : r.options)
    options[k] = v;

  json::Object syncCounts;
  for (const auto &[k, v] : r.syncCounts)
    syncCounts[k] = v;

  json::Array points;
  for (size_t i = 0; i < r.points.size(); ++i)
    points.push_back(json::Object{{"point", (int64_t)i},
                                  {"op", r.points[i].text},
                                  {"loc", locJson(r.points[i].loc)}});

  json::Array edges;
  for (const ScheduleEdgeRecord &e : r.scheduleEdges)
    edges.push_back(json::Object{{"set_point", e.setPoint},
                                 {"wait_point", e.waitPoint},
                                 {"src_pipe", pipeName(e.src)},
                                 {"dst_pipe", pipeName(e.dst)},
                                 {"event_id", e.eventId},
                                 {"buffer_id", e.bufferId},
                                 {"cross_core", e.crossCore},
                                 {"wraps", e.wraps},
                                 {"reason", e.reason}});
  json::Array stalls;
  for (const ScheduleStallRecord &s : r.scheduleStalls)
    stalls.push_back(json::Object{{"pipe", pipeName(s.pipe)},
                                  {"from", s.from},
                                  {"to", s.to},
                                  {"edge", s.edge},
                                  {"producer", s.producer},
                                  {"last_own", s.lastOwn}});

  json::Object root{
      {"schema", "asc2.report/1"},
      {"kernel", r.kernel},
      {"kernel_symbol", r.kernelSymbol},
      {"target", r.target},
      {"source_file", r.sourceFile},
      {"options", std::move(options)},
      {"passes", std::move(passes)},
      {"memory", json::Object{{"spaces", std::move(spaces)},
                              {"buffers", std::move(buffers)}}},
      {"sync", std::move(sync)},
      {"sync_counts", std::move(syncCounts)},
      {"diagnostics", std::move(diags)},
      {"program_points", std::move(points)},
      {"schedule", json::Object{{"edges", std::move(edges)},
                                {"stalls", std::move(stalls)}}},
      {"ascendc", r.ascendc},
      {"ascendc_lines", json::Array(r.ascendcLines)},
      {"launches", std::move(launches)},
  };
  std::string out;
  llvm::raw_string_ostream os(out);
  os << llvm::formatv("{0:2}", json::Value(std::move(root)));
  return out;
}

} // namespace asc2
