//===- PipeSync.cpp - Synchronisation of one simulated core ---------------===//
//
// set_flag/wait_flag between the pipes of a core, pipe barriers, buffer ids
// (get_buf/rls_buf) and the cross-core flags of a MIX group, with their
// timing (see CoreRunner.h) and the end-of-kernel checks of each.
//
//===----------------------------------------------------------------------===//

#include "CoreRunner.h"

namespace asc2::sim {

bool CoreRunner::setFlag(const Instr &in) {
  FlagState &f = flag(in.flagSrc, in.flagDst, in.eventId);
  std::string which = std::string("(") + pipeName(in.flagSrc) + "->" +
                      pipeName(in.flagDst) + ", event " +
                      std::to_string(in.eventId) + ")";
  if (f.pending)
    return fail(in, "set_flag" + which +
                        " twice without wait (undefined behaviour on hardware)");
  Pipe p = in.flagSrc;
  uint64_t start = signalStart(p);
  uint64_t fire = start + flagCycles;
  if (fire < f.consumedAt)
    return fail(in, "set_flag" + which + " fires at cycle " +
                        std::to_string(fire) +
                        " before the previous wait_flag consumed the flag "
                        "(cycle " +
                        std::to_string(f.consumedAt) +
                        "): the flag would be set twice on hardware");
  f.pending = true;
  f.fireTime = fire;
  f.setPc = int32_t(&in - program.code.data());
  f.flowId = flowBase() | ++nextFlowId;
  if (races)
    races->onSetFlag(in.flagSrc, in.flagDst, in.eventId);
  if (traceOn)
    emit(in, p, start, fire, 0, in.flagSrc, in.flagDst, f.flowId);
  return true;
}

std::pair<uint64_t, uint64_t> CoreRunner::blockPipeUntil(Pipe p, uint64_t readyAt,
                                                         uint64_t cycles) {
  uint64_t start, end;
  if (p == Pipe::S) {
    start = issueTime;
    end = std::max(start, readyAt) + cycles;
    issueTime = std::max(issueTime + scalarCycles, end);
  } else {
    start = startOn(p, enqueue(p));
    end = std::max(start, readyAt) + cycles;
    pipeFree[int(p)] = end;
    pipeDone[int(p)] = std::max(pipeDone[int(p)], end);
  }
  out->stats.instrs[int(p)]++;
  return {start, end};
}

bool CoreRunner::waitFlag(const Instr &in) {
  FlagState &f = flag(in.flagSrc, in.flagDst, in.eventId);
  if (!f.pending)
    return fail(in, std::string("wait_flag(") + pipeName(in.flagSrc) + "->" +
                        pipeName(in.flagDst) + ", event " +
                        std::to_string(in.eventId) +
                        ") would hang: no set_flag pending");
  Pipe p = in.flagDst;
  auto [start, end] = blockPipeUntil(p, f.fireTime, flagCycles);
  f.pending = false;
  f.consumedAt = end;
  if (races)
    races->onWaitFlag(in.flagSrc, in.flagDst, in.eventId);
  if (traceOn)
    emit(in, p, start, end, 0, in.flagSrc, in.flagDst, f.flowId);
  return true;
}

bool CoreRunner::getBuf(const Instr &in) {
  BufIdState &b = bufIds[in.eventId];
  Pipe p = in.pipe;
  if (b.holder >= 0) {
    const Instr &get = program.code[b.getPc];
    return fail(in, "deadlock",
                "buffer id " + std::to_string(in.eventId) + " is still held by " +
                    pipeName(Pipe(b.holder)) + " (get_buf at " +
                    locText(program, get.loc) + ") with no rls_buf before this " +
                    "get_buf in program order" +
                    (b.holder == int(p) ? ": the pipe would wait for itself"
                                        : ": get/rls pairs of one id may not "
                                          "interleave (Ascend C Mutex)"));
  }
  auto [start, end] = blockPipeUntil(p, b.releasedAt, bufIdCycles);
  b.holder = int(p);
  b.getPc = int32_t(&in - program.code.data());
  if (races)
    races->onGetBuf(p, in.eventId);
  if (traceOn)
    emit(in, p, start, end, 0, b.releasedBy, p, b.flowId);
  return true;
}

bool CoreRunner::rlsBuf(const Instr &in) {
  BufIdState &b = bufIds[in.eventId];
  Pipe p = in.pipe;
  if (b.holder != int(p))
    return fail(in, "rls_buf without get_buf",
                "buffer id " + std::to_string(in.eventId) + " is " +
                    (b.holder < 0 ? std::string("not held")
                                  : std::string("held by ") + pipeName(Pipe(b.holder))) +
                    ", not by " + pipeName(p));
  uint64_t start = signalStart(p);
  b.holder = -1;
  b.releasedAt = start + bufIdCycles;
  b.releasedBy = p;
  b.flowId = flowBase() | ++nextFlowId;
  if (races)
    races->onRlsBuf(p, in.eventId);
  if (traceOn)
    emit(in, p, start, b.releasedAt, 0, p, p, b.flowId);
  return true;
}

void CoreRunner::barrier(const Instr &in) {
  if (in.allPipes) {
    uint64_t start = issueTime;
    uint64_t idle = issueTime;
    for (uint64_t t : pipeDone)
      idle = std::max(idle, t);
    issueTime = idle + scalarCycles;
    out->stats.instrs[int(Pipe::S)]++;
    if (races)
      races->onBarrierAll();
    if (traceOn)
      emit(in, Pipe::S, start, issueTime, 0);
    return;
  }
  // Each pipe starts its instructions in order, so a single-pipe barrier
  // only holds it until its copies still in flight have completed.
  Pipe p = in.pipe;
  if (p == Pipe::S) {
    scalarStep(in);
    return;
  }
  uint64_t start = std::max(startOn(p, enqueue(p)), pipeDone[int(p)]);
  pipeFree[int(p)] = start;
  out->stats.instrs[int(p)]++;
  if (traceOn)
    emit(in, p, start, start, 0);
}

bool CoreRunner::crossCoreSet(const Instr &in, int32_t pc) {
  Pipe p = in.pipe;
  uint64_t start = signalStart(p);
  CrossCoreGroup::Pending set;
  set.arrive = start + uint64_t(std::llround(arch.crossCoreFlagCycles));
  set.flowId = (uint64_t(block) << 32) | (uint64_t(1) << 31) |
               ++group->nextFlowId;
  set.setPc = pc;
  if (races)
    set.clock = races->onCrossCoreSet(p);
  // An AIV's set counts towards the AIC on its own channel; the AIC's set
  // raises the flag on every AIV of the group (mode 2).
  auto raise = [&](int channel) {
    group->pending[channel][in.eventId].push_back(set);
    group->history[channel][in.eventId].push_back({set.arrive, +1, pc});
  };
  if (isAic)
    for (int v = 0; v < group->aivs; ++v)
      raise(CrossCoreGroup::kToAiv + v);
  else
    raise(CrossCoreGroup::kToAic + subBlock);
  ++group->sets;
  if (traceOn)
    emit(in, p, start, start + flagCycles, 0, p, p, set.flowId);
  return true;
}

bool CoreRunner::crossCoreWait(const Instr &in) {
  // The AIC's wait completes once every AIV of the group has set the flag
  // (mode 2); an AIV waits for the AIC's set on its own channel.
  const int first = channelTowards();
  const int channels = isAic ? group->aivs : 1;
  for (int c = first; c < first + channels; ++c)
    if (group->pending[c][in.eventId].empty())
      return false;
  uint64_t ready = 0, flowId = 0;
  std::array<CrossCoreGroup::Pending, CrossCoreGroup::kMaxAivs> taken;
  for (int c = first; c < first + channels; ++c) {
    std::vector<CrossCoreGroup::Pending> &pending = group->pending[c][in.eventId];
    // The counter is > 0 from the earliest arrival on.
    auto earliest = std::min_element(
        pending.begin(), pending.end(),
        [](const CrossCoreGroup::Pending &a, const CrossCoreGroup::Pending &b) {
          return a.arrive < b.arrive;
        });
    const CrossCoreGroup::Pending &set = taken[size_t(c - first)] = *earliest;
    pending.erase(earliest);
    if (c == first || set.arrive > ready) { // the set it waits for last
      ready = set.arrive;
      flowId = set.flowId;
    }
  }
  Pipe p = in.pipe;
  if (races)
    for (int i = 0; i < channels; ++i)
      races->onCrossCoreWait(p, taken[size_t(i)].clock);
  auto [start, end] = blockPipeUntil(p, ready, 0);
  for (int i = 0; i < channels; ++i)
    group->history[first + i][in.eventId].push_back({end, -1, taken[size_t(i)].setPc});
  if (traceOn)
    emit(in, p, start, end, 0, p, p, flowId);
  return true;
}

void CoreRunner::checkSyncAtEnd() {
  const std::vector<Instr> &code = program.code;
  // A flag still set when the kernel ends stays set for the next kernel on
  // this core (a hang or a race there): report the set that leaked.
  if (out->ok && !out->aborted)
    for (const FlagState &f : flags)
      if (f.pending && f.setPc >= 0) {
        fail(code[f.setPc], "flag left set at the end of the kernel",
             "no wait_flag consumed it; the next kernel on this core "
             "would see a stale flag");
        break;
      }
  if (out->ok && !out->aborted)
    for (const BufIdState &b : bufIds)
      if (b.holder >= 0) {
        fail(code[b.getPc], "deadlock",
             "buffer id taken and never released: the next get_buf of it "
             "would wait forever");
        break;
      }
}

void checkCrossCoreFlagsAtEnd(const CrossCoreGroup &group,
                              const std::vector<CoreRunner *> &cores) {
  // Sets nobody consumed stay in the counter for the next kernel; a counter
  // that would pass 15 hangs or misbehaves on hardware.
  CoreRunner &aic = *cores[0];
  for (int channel = 0; channel < CrossCoreGroup::kChannels; ++channel) {
    const bool toAic = channel < CrossCoreGroup::kToAiv;
    const int aiv = toAic ? channel - CrossCoreGroup::kToAic
                          : channel - CrossCoreGroup::kToAiv;
    if (aiv >= group.aivs)
      continue;
    CoreRunner &setter = toAic ? *cores[size_t(1 + aiv)] : aic;
    CoreRunner &waiter = toAic ? aic : *cores[size_t(1 + aiv)];
    for (int id = 0; id < CrossCoreGroup::kIds; ++id) {
      const auto &left = group.pending[channel][id];
      if (!left.empty()) {
        const Instr &in = aic.programRef().code[left.front().setPc];
        setter.failAt(in, "cross-core flag left set at the end of the kernel",
                      "no CrossCoreWaitFlag on the " +
                          std::string(waiter.sideName()) + " consumed flag " +
                          std::to_string(id) +
                          "; the next kernel would see a stale count");
        return;
      }
      auto changes = group.history[channel][id];
      std::stable_sort(changes.begin(), changes.end(),
                       [](const CrossCoreGroup::Change &x,
                          const CrossCoreGroup::Change &y) {
                         return x.time != y.time ? x.time < y.time
                                                 : x.delta < y.delta;
                       });
      int count = 0;
      for (const CrossCoreGroup::Change &c : changes) {
        count += c.delta;
        if (count > CrossCoreGroup::kMaxCount) {
          const Instr &in = aic.programRef().code[c.setPc];
          setter.failAt(
              in, "cross-core flag counter overflow",
              "flag " + std::to_string(id) + " towards the " +
                  waiter.sideName() + " would count " + std::to_string(count) +
                  " unconsumed sets at cycle " + std::to_string(c.time) +
                  " (the hardware counter holds " +
                  std::to_string(CrossCoreGroup::kMaxCount) +
                  "); make the setter wait for the consumer");
          return;
        }
      }
    }
  }
}

} // namespace asc2::sim
