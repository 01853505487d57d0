//===- Launch.cpp - simulate(): one launch over all its blocks -------------===//
//
// Validates the launch, runs the blocks on a pool of worker threads (MIX:
// each block an AIC and an AIV interleaved on one thread), then places the
// blocks in waves on the physical cores after the launch overhead, merges
// their statistics, traces and races into one LaunchResult, and applies the
// chip's L2 and HBM bandwidth to it (MemorySystem.cpp).
//
//===----------------------------------------------------------------------===//

#include "CoreRunner.h"

#include <limits>
#include <queue>
#include <set>
#include <thread>

namespace asc2::sim {

namespace {

/// Runs the AIC and the AIV of MIX block `block` interleaved (see the file
/// comment of CoreRunner.h), then checks the group's cross-core flags.
void runGroup(int block, CoreRunner &aic, CoreRunner &aiv, CrossCoreGroup &group,
              BlockOutcome &aicOut, BlockOutcome &aivOut) {
  group.reset();
  aic.begin(block, aicOut, &group);
  aiv.begin(block, aivOut, &group);
  using Status = CoreRunner::Status;
  Status a = Status::Blocked, v = Status::Blocked;
  for (;;) {
    uint64_t before = group.sets;
    if (a != Status::Done)
      a = aic.resume();
    if (!aic.ok())
      break;
    if (v != Status::Done)
      v = aiv.resume();
    if (!aic.ok() || !aiv.ok() || (a == Status::Done && v == Status::Done))
      break;
    if (group.sets != before)
      continue; // a set may unblock a wait
    // Neither core can move: name the wait(s) that never complete.
    CoreRunner &w = a == Status::Blocked ? aic : aiv;
    CoreRunner &other = a == Status::Blocked ? aiv : aic;
    const Instr &in = w.blockedOn();
    std::string detail = std::string("the ") + w.sideName() +
                         " waits for cross-core flag " +
                         std::to_string(in.eventId) + " from the " +
                         other.sideName();
    if ((a == Status::Blocked) == (v == Status::Blocked)) {
      const Instr &oin = other.blockedOn();
      detail += ", which itself waits for cross-core flag " +
                std::to_string(oin.eventId) + " in " +
                opName(aic.programRef(), oin) + " at " +
                locText(aic.programRef(), oin.loc) +
                "; neither core can proceed";
    } else {
      detail += std::string(", which ended without raising it");
    }
    w.failAt(in, "deadlock", detail);
    break;
  }
  // A core stopped mid-kernel because of its partner is not checked further.
  if (!aic.ok() || !aiv.ok()) {
    if (aic.ok() && a != Status::Done)
      aic.abortRun();
    if (aiv.ok() && v != Status::Done)
      aiv.abortRun();
  }
  aic.finish();
  aiv.finish();
  if (!aic.ok() || !aiv.ok())
    return;
  checkCrossCoreFlagsAtEnd(group, aic, aiv);
}

/// Physical units the blocks run on: vector cores, cube cores, or AIC+AIV
/// groups.
int physicalUnits(const ArchModel &arch, KernelType kind) {
  return std::max(1, kind == KernelType::AivOnly   ? arch.aivCores
                     : kind == KernelType::AicOnly ? arch.aicCores
                         : std::min(arch.aicCores, arch.aivCores));
}

/// Runs every block, `perBlock` outcomes each (MIX: the AIC then the AIV),
/// on options.threads worker threads that take the next block until none is
/// left; after a failure the remaining blocks are only marked aborted.
void runBlocks(Launch &launch, int perBlock,
               std::vector<BlockOutcome> &outcomes) {
  const KernelType kind = launch.program.kernelType;
  const bool mix = kind == KernelType::Mix;
  const int blockNum = launch.blockNum;
  std::atomic<int> nextBlock{0};
  auto worker = [&] {
    std::unique_ptr<CoreRunner> aic, aiv;
    if (kind != KernelType::AivOnly)
      aic = std::make_unique<CoreRunner>(launch, true);
    if (kind != KernelType::AicOnly)
      aiv = std::make_unique<CoreRunner>(launch, false);
    CrossCoreGroup group;
    for (;;) {
      int b = nextBlock.fetch_add(1);
      if (b >= blockNum)
        return;
      BlockOutcome *o = &outcomes[size_t(b) * perBlock];
      if (launch.abort.load()) {
        for (int i = 0; i < perBlock; ++i)
          o[i].aborted = true;
        launch.atomicOrder.finish(b);
        continue;
      }
      if (mix)
        runGroup(b, *aic, *aiv, group, o[0], o[1]);
      else
        (aic ? *aic : *aiv).run(b, o[0]);
      launch.atomicOrder.finish(b);
      for (int i = 0; i < perBlock; ++i)
        if (!o[i].ok)
          launch.abort = true;
    }
  };
  int threads = launch.options.threads > 0
                    ? launch.options.threads
                    : int(std::max(1u, std::thread::hardware_concurrency()));
  threads = std::min(threads, blockNum);
  if (threads <= 1) {
    worker();
  } else {
    std::vector<std::thread> pool;
    for (int i = 0; i < threads; ++i)
      pool.emplace_back(worker);
    for (std::thread &t : pool)
      t.join();
  }
}

/// Waves: each block (group) starts on the physical core (pair) that frees
/// up first, the first ones after the launch overhead. Moves the outcomes'
/// statistics, trace events and GM copies (shifted to launch time, the
/// copies into `gm`) and distinct races into `result`.
void mergeOutcomes(const Launch &launch, int physical, int perBlock,
                   std::vector<BlockOutcome> &outcomes, LaunchResult &result,
                   std::vector<GmAccess> &gm) {
  const KernelType kind = launch.program.kernelType;
  const bool mix = kind == KernelType::Mix;
  const int blockNum = launch.blockNum;
  std::priority_queue<uint64_t, std::vector<uint64_t>, std::greater<>> freeAt;
  const uint64_t launchCycles = uint64_t(std::llround(launch.arch.launchCycles));
  for (int i = 0; i < std::min(blockNum, physical); ++i)
    freeAt.push(launchCycles);
  result.cores.resize(outcomes.size());
  std::set<std::pair<int32_t, int32_t>> seenRaces;
  std::set<int32_t> seenWarnings;
  for (int b = 0; b < blockNum; ++b) {
    uint64_t start = freeAt.top();
    freeAt.pop();
    uint64_t groupEnd = start;
    for (int i = 0; i < perBlock; ++i) {
      size_t index = size_t(b) * perBlock + i;
      BlockOutcome &o = outcomes[index];
      CoreStats &stats = result.cores[index];
      stats = o.stats;
      stats.block = b;
      stats.cube = kind == KernelType::AicOnly || (mix && i == 0);
      stats.start = start;
      stats.cycles = start + o.stats.cycles;
      groupEnd = std::max(groupEnd, stats.cycles);
      for (TraceEvent &e : o.trace) {
        e.start += start;
        e.end += start;
      }
      result.trace.insert(result.trace.end(), o.trace.begin(), o.trace.end());
      for (GmAccess &a : o.gm) {
        a.start += start;
        a.end += start;
        a.core = uint32_t(index);
        gm.push_back(a);
      }
      result.traceTruncated |= o.traceTruncated;
      for (auto &w : o.warnings)
        if (result.warnings.size() < 16 && seenWarnings.insert(w.first).second)
          result.warnings.push_back(std::move(w.second));
      for (Race &r : o.races)
        if (result.races.size() < RaceDetector::kMaxRaces &&
            seenRaces.insert({r.firstPoint, r.secondPoint}).second)
          result.races.push_back(std::move(r));
      o = BlockOutcome{};
    }
    freeAt.push(groupEnd);
    result.totalCycles = std::max(result.totalCycles, groupEnd);
  }
}

} // namespace

LaunchResult simulate(const Program &program, const ArchModel &arch,
                      int blockNum, const std::vector<LaunchArg> &args,
                      const SimOptions &options) {
  LaunchResult result;
  Launch launch{program, arch, args, options, blockNum};
  result.error = validate(program, arch, blockNum, args, launch.usedSpaces);
  if (!result.error.empty())
    return result;
  const bool mix = program.kernelType == KernelType::Mix;
  if (program.workspaceBytesPerBlock > 0)
    launch.workspace.assign(
        size_t(program.workspaceBytesPerBlock) * size_t(blockNum), 0);
  const int physical = physicalUnits(arch, program.kernelType);
  launch.traceBudget = options.collectTrace ? options.maxTraceEvents : 0;

  // One outcome per core: per block, or (MIX) the AIC then the AIV of each.
  const int perBlock = mix ? 2 : 1;
  std::vector<BlockOutcome> outcomes(static_cast<size_t>(blockNum) * perBlock);
  runBlocks(launch, perBlock, outcomes);

  result.ok = true;
  for (BlockOutcome &o : outcomes) {
    if (!o.ok) {
      result.ok = false;
      result.error = o.error;
      break;
    }
  }
  std::vector<GmAccess> gm;
  mergeOutcomes(launch, physical, perBlock, outcomes, result, gm);
  if (result.ok && options.detectRaces)
    blockRaces(program, gm, result.cores, result.races, result.warnings);
  if (result.ok)
    applyMemorySystem(arch, gm, result);
  if (result.trace.size() > size_t(std::max<int64_t>(0, options.maxTraceEvents))) {
    result.trace.resize(size_t(options.maxTraceEvents));
    result.traceTruncated = true;
  }
  result.timeUs = double(result.totalCycles) / arch.clockMHz;
  return result;
}

} // namespace asc2::sim
