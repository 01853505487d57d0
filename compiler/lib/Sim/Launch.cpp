//===- Launch.cpp - simulate(): one launch over all its blocks -------------===//
//
// Validates the launch, runs the blocks on a pool of worker threads (MIX:
// each block an AIC and its AIV, or two AIVs, interleaved on one thread), then places the
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

/// Runs the cores of MIX block `block` (`cores[0]` the AIC, then its AIVs)
/// interleaved (see the file comment of CoreRunner.h), then checks the
/// group's cross-core flags.
void runGroup(int block, const std::vector<CoreRunner *> &cores,
              CrossCoreGroup &group, BlockOutcome *outs) {
  using Status = CoreRunner::Status;
  const size_t n = cores.size();
  group.reset();
  group.aivs = int(n) - 1;
  for (size_t i = 0; i < n; ++i)
    group.members[i] = cores[i];
  for (size_t i = 0; i < n; ++i)
    cores[i]->begin(block, outs[i], &group);
  std::vector<Status> status(n, Status::Blocked);
  auto allOk = [&] {
    for (CoreRunner *c : cores)
      if (!c->ok())
        return false;
    return true;
  };
  for (;;) {
    uint64_t before = group.sets;
    bool failed = false;
    for (size_t i = 0; i < n && !failed; ++i) {
      if (status[i] != Status::Done)
        status[i] = cores[i]->resume();
      failed = !cores[i]->ok();
    }
    if (failed || !allOk())
      break;
    if (std::all_of(status.begin(), status.end(),
                    [](Status s) { return s == Status::Done; }))
      break;
    if (group.sets != before)
      continue; // a set may unblock a wait
    // No core can move: name the wait that never completes.
    size_t w = 0;
    while (status[w] != Status::Blocked)
      ++w;
    CoreRunner &waiter = *cores[w];
    const Instr &in = waiter.blockedOn();
    // The cores it waits for: the AIVs (from the AIC), or the AIC.
    std::string others;
    size_t blockedOther = n, count = 0;
    for (size_t i = 0; i < n; ++i) {
      if (i == w || (w != 0 && i != 0))
        continue;
      others += std::string(others.empty() ? "" : " and the ") + cores[i]->sideName();
      ++count;
      if (status[i] == Status::Blocked && blockedOther == n)
        blockedOther = i;
    }
    std::string detail = std::string("the ") + waiter.sideName() +
                         " waits for cross-core flag " +
                         std::to_string(in.eventId) + " from the " + others;
    if (blockedOther < n) {
      const Instr &oin = cores[blockedOther]->blockedOn();
      detail += (count == 1 ? std::string(", which") : ", but the " +
                 std::string(cores[blockedOther]->sideName())) +
                " itself waits for cross-core flag " +
                std::to_string(oin.eventId) + " in " +
                opName(waiter.programRef(), oin) + " at " +
                locText(waiter.programRef(), oin.loc) +
                "; neither core can proceed";
    } else {
      detail += count == 1 ? ", which ended without raising it"
                           : ", which ended without raising it on every one";
    }
    waiter.failAt(in, "deadlock", detail);
    break;
  }
  // A core stopped mid-kernel because of a partner is not checked further.
  if (!allOk())
    for (size_t i = 0; i < n; ++i)
      if (cores[i]->ok() && status[i] != Status::Done)
        cores[i]->abortRun();
  for (CoreRunner *c : cores)
    c->finish();
  if (allOk())
    checkCrossCoreFlagsAtEnd(group, cores);
}

/// Physical units the blocks run on: vector cores, cube cores, or AIC+AIV
/// groups.
int physicalUnits(const ArchModel &arch, const Program &program) {
  const KernelType kind = program.kernelType;
  const int aivs = std::max(1, program.vectorCoresPerGroup);
  return std::max(1, kind == KernelType::AivOnly   ? arch.aivCores
                     : kind == KernelType::AicOnly ? arch.aicCores
                         : std::min(arch.aicCores, arch.aivCores / aivs));
}

/// Runs every block, `perBlock` outcomes each (MIX: the AIC then the AIVs),
/// on options.threads worker threads that take the next block until none is
/// left; after a failure the remaining blocks are only marked aborted.
void runBlocks(Launch &launch, int perBlock,
               std::vector<BlockOutcome> &outcomes) {
  const KernelType kind = launch.program.kernelType;
  const bool mix = kind == KernelType::Mix;
  const int blockNum = launch.blockNum;
  std::atomic<int> nextBlock{0};
  auto worker = [&] {
    // Single-core kernels: one runner; MIX: the AIC, then perBlock - 1 AIVs.
    std::vector<std::unique_ptr<CoreRunner>> owned;
    std::vector<CoreRunner *> cores;
    if (mix || kind == KernelType::AicOnly)
      owned.push_back(std::make_unique<CoreRunner>(launch, true));
    if (kind != KernelType::AicOnly)
      for (int v = 0; v < (mix ? perBlock - 1 : 1); ++v)
        owned.push_back(std::make_unique<CoreRunner>(launch, false, v));
    for (auto &c : owned)
      cores.push_back(c.get());
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
        runGroup(b, cores, group, o);
      else
        cores[0]->run(b, o[0]);
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
  const int physical = physicalUnits(arch, program);
  launch.traceBudget = options.collectTrace ? options.maxTraceEvents : 0;

  // One outcome per core: per block, or (MIX) the AIC then the AIV(s) of each.
  const int perBlock = mix ? 1 + std::max(1, program.vectorCoresPerGroup) : 1;
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
