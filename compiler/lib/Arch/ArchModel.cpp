//===- ArchModel.cpp - Load resources/arch/<platform>.json ----------------===//
//
// Bandwidths are stored in the JSON as the documented GB/s figures (1 GB =
// 1e9 bytes, as in msprof) and converted to bytes per cycle with the clock
// here, so each number in the file can be checked against its source.
//
//===----------------------------------------------------------------------===//

#include "asc2/Arch/ArchModel.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

#include <utility>

namespace asc2 {

namespace {

/// Reads fields of one JSON object, remembering the first problem.
class FieldReader {
public:
  FieldReader(const llvm::json::Object &obj, std::string &error,
              std::string prefix = "")
      : obj(obj), error(error), prefix(std::move(prefix)) {}

  bool failed() const { return !error.empty(); }

  double number(llvm::StringRef key, bool positive = true) {
    if (failed())
      return 0;
    std::optional<double> v = obj.getNumber(key);
    if (!v) {
      fail(key, "missing or not a number");
      return 0;
    }
    if (positive ? !(*v > 0) : !(*v >= 0))
      fail(key, positive ? "must be > 0" : "must be >= 0");
    return *v;
  }
  /// A number the file may leave out (0 then); when present, >= 0.
  double optionalNumber(llvm::StringRef key) {
    if (failed() || !obj.get(key))
      return 0;
    return number(key, /*positive=*/false);
  }
  std::string string(llvm::StringRef key) {
    if (failed())
      return {};
    std::optional<llvm::StringRef> v = obj.getString(key);
    if (!v || v->empty()) {
      fail(key, "missing or not a non-empty string");
      return {};
    }
    return v->str();
  }
  const llvm::json::Object *object(llvm::StringRef key) {
    if (failed())
      return nullptr;
    const llvm::json::Object *v = obj.getObject(key);
    if (!v)
      fail(key, "missing or not an object");
    return v;
  }
  void fail(llvm::StringRef key, llvm::StringRef what) {
    if (error.empty())
      error = ("field '" + prefix + key + "': " + what).str();
  }

private:
  const llvm::json::Object &obj;
  std::string &error;
  std::string prefix;
};

VecCost readVecCost(const llvm::json::Object &parent, llvm::StringRef key,
                    std::string &error, const std::string &prefix) {
  FieldReader r(parent, error, prefix);
  const llvm::json::Object *o = r.object(key);
  if (!o)
    return {};
  FieldReader c(*o, error, prefix + key.str() + ".");
  VecCost cost;
  cost.fixed = c.number("fixed", /*positive=*/false);
  cost.perRepeat = c.number("per_repeat", /*positive=*/false);
  return cost;
}

/// Reads an object of per-op costs keyed by vecOpCostKey() names.
bool readVecOpCosts(const llvm::json::Object &root, llvm::StringRef key,
                    std::map<VecOp, VecCost> &into, std::string &error) {
  FieldReader r(root, error);
  const llvm::json::Object *costs = r.object(key);
  if (!costs)
    return false;
  for (const auto &entry : *costs) {
    llvm::StringRef name = entry.first;
    std::optional<VecOp> found = vecOpOfCostKey(name);
    if (!found) {
      error = ("field '" + key + "." + name + "': unknown vector op").str();
      return false;
    }
    into[*found] = readVecCost(*costs, name, error, key.str() + ".");
    if (!error.empty())
      return false;
  }
  return true;
}

} // namespace

VecCost ArchModel::costOf(VecOp op) const {
  auto it = vecCost.find(op);
  return it == vecCost.end() ? vecDefault : it->second;
}

VecCost ArchModel::costOfScalarForm(VecOp op) const {
  auto it = vecScalarCost.find(op);
  return it == vecScalarCost.end() ? costOf(op) : it->second;
}

std::optional<ArchModel> ArchModel::fromJson(const std::string &text,
                                             std::string &error) {
  error.clear();
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(text);
  if (!parsed) {
    error = "invalid JSON: " + llvm::toString(parsed.takeError());
    return std::nullopt;
  }
  const llvm::json::Object *root = parsed->getAsObject();
  if (!root) {
    error = "invalid arch model: top level is not an object";
    return std::nullopt;
  }

  ArchModel m;
  FieldReader r(*root, error);
  m.name = r.string("name");
  m.socVersion = r.string("soc_version");
  m.syncStyle = r.string("sync_style");
  m.clockMHz = r.number("clock_mhz");
  m.aicCores = int(r.number("aic_cores"));
  m.aivCores = int(r.number("aiv_cores"));
  m.eventIdsPerPipePair = int(r.number("event_ids_per_pipe_pair"));
  m.pipeQueueDepth = int(r.number("pipe_queue_depth"));
  double cyclesPerSecond = m.clockMHz * 1e6;
  m.gmToUbBytesPerCycle = r.number("gm_to_ub_gbps") * 1e9 / cyclesPerSecond;
  m.ubToGmBytesPerCycle = r.number("ub_to_gm_gbps") * 1e9 / cyclesPerSecond;
  m.hbmBytesPerCycle = r.number("hbm_gbps") * 1e9 / cyclesPerSecond;
  m.mteIssueCycles = r.number("mte_issue_cycles", /*positive=*/false);
  m.vectorIssueCycles = r.number("vector_issue_cycles", /*positive=*/false);
  m.gmReadLatencyCycles =
      r.number("gm_read_latency_cycles", /*positive=*/false);
  m.gmWriteLatencyCycles =
      r.number("gm_write_latency_cycles", /*positive=*/false);
  m.mteOutstanding = int(r.number("mte_outstanding"));
  m.gmReadWindowBytes = r.optionalNumber("gm_read_window_bytes");
  m.gmWriteWindowBytes = r.optionalNumber("gm_write_window_bytes");
  m.gmPortShared = r.optionalNumber("gm_port_shared") > 0;
  m.l2Bytes = int64_t(r.number("l2_bytes"));
  m.l2LineBytes = int64_t(r.number("l2_line_bytes"));
  m.l2BytesPerCycle = r.number("l2_gbps") * 1e9 / cyclesPerSecond;
  m.launchCycles = r.number("launch_cycles", /*positive=*/false);
  m.blockStartCycles = r.number("block_start_cycles", /*positive=*/false);
  m.blockEndCycles = r.number("block_end_cycles", /*positive=*/false);
  m.gmToL1BytesPerCycle = r.number("gm_to_l1_gbps") * 1e9 / cyclesPerSecond;
  m.l1ToL0aBytesPerCycle = r.number("l1_to_l0a_gbps") * 1e9 / cyclesPerSecond;
  m.l1ToL0bBytesPerCycle = r.number("l1_to_l0b_gbps") * 1e9 / cyclesPerSecond;
  m.l0cToGmBytesPerCycle = r.number("l0c_to_gm_gbps") * 1e9 / cyclesPerSecond;
  m.l0cToUbBytesPerCycle = r.optionalNumber("l0c_to_ub_gbps") * 1e9 / cyclesPerSecond;
  m.ubToL1BytesPerCycle = r.optionalNumber("ub_to_l1_gbps") * 1e9 / cyclesPerSecond;
  m.mmadFixedCycles = r.number("mmad_fixed_cycles", /*positive=*/false);
  m.mmadCyclesPerFractal = r.number("mmad_cycles_per_fractal");
  m.mmadF32FractalFactor = r.number("mmad_f32_fractal_factor");
  m.crossCoreFlagCycles =
      r.number("cross_core_flag_cycles", /*positive=*/false);
  m.scalarCycles = r.number("scalar_cycles");
  m.flagCycles = r.number("flag_cycles", /*positive=*/false);
  if (!error.empty())
    return std::nullopt;
  if (m.syncStyle != "flag" && m.syncStyle != "buffer-id") {
    error = "field 'sync_style': expected \"flag\" or \"buffer-id\", got \"" +
            m.syncStyle + "\"";
    return std::nullopt;
  }
  // Only targets with buffer ids describe them.
  if (m.syncStyle == "buffer-id") {
    m.bufferIds = int(r.number("buffer_ids"));
    m.bufIdCycles = r.number("buf_id_cycles", /*positive=*/false);
    if (!error.empty())
      return std::nullopt;
  }

  // Only targets with the N-dimensional DMA describe it.
  if (root->get("nd_dma_dims")) {
    m.ndDmaDims = int(r.number("nd_dma_dims"));
    m.ndDmaBurstBytes = int64_t(r.number("nd_dma_burst_bytes"));
    if (!error.empty())
      return std::nullopt;
  }

  for (auto [key, table] :
       {std::pair{"capacity_bytes", &m.capacity},
        std::pair{"alignment_bytes", &m.alignment}}) {
    const llvm::json::Object *o = r.object(key);
    if (!o)
      return std::nullopt;
    FieldReader s(*o, error, std::string(key) + ".");
    for (int i = 1; i < kNumSpaces; ++i) // GM has no per-core capacity
      (*table)[i] = int64_t(s.number(spaceName(Space(i))));
    if (!error.empty())
      return std::nullopt;
  }

  if (!readVecOpCosts(*root, "vector_cost", m.vecCost, error) ||
      !readVecOpCosts(*root, "vector_scalar_cost", m.vecScalarCost, error))
    return std::nullopt;
  m.vecDefault = readVecCost(*root, "vector_cost_default", error, "");
  if (const llvm::json::Object *instr = r.object("vector_instr_cost")) {
    const std::string prefix = "vector_instr_cost.";
    m.castCost = readVecCost(*instr, "cast", error, prefix);
    m.compareCost = readVecCost(*instr, "compare", error, prefix);
    m.selectCost = readVecCost(*instr, "select", error, prefix);
    m.wholeReduceCost = readVecCost(*instr, "whole_reduce", error, prefix);
    m.brcbCost = readVecCost(*instr, "brcb", error, prefix);
    m.copyCost = readVecCost(*instr, "copy", error, prefix);
    m.gatherMaskCost = readVecCost(*instr, "gather_mask", error, prefix);
    m.localDataCopyCost = readVecCost(*instr, "local_data_copy", error, prefix);
    m.transposeCost = readVecCost(*instr, "transpose", error, prefix);
  }
  m.scalarLocalCycles = r.number("scalar_local_cycles");
  m.scalarGmLoadCycles = r.number("scalar_gm_load_cycles");
  m.scalarGmStoreCycles = r.number("scalar_gm_store_cycles");
  if (!error.empty())
    return std::nullopt;
  return m;
}

std::optional<ArchModel> ArchModel::load(const std::string &archDir,
                                         const std::string &platform,
                                         std::string &error) {
  std::string path = archDir + "/" + platform + ".json";
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer) {
    error = path + ": cannot read arch model for platform '" + platform +
            "': " + buffer.getError().message();
    return std::nullopt;
  }
  std::optional<ArchModel> m = fromJson((*buffer)->getBuffer().str(), error);
  if (!m) {
    error = path + ": " + error;
    return std::nullopt;
  }
  return m;
}

} // namespace asc2
