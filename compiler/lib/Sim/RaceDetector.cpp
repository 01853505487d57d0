//===- RaceDetector.cpp - Happens-before checking of local memory ---------===//

#include "RaceDetector.h"
#include "SimSupport.h"

#include <algorithm>

namespace asc2::sim {

RaceDetector::RaceDetector(const Program &program, const ArchModel &arch,
                           const std::array<bool, kNumSpaces> &usedSpaces)
    : program(program), eventIds(std::max(1, arch.eventIdsPerPipePair)) {
  flagClocks.resize(size_t(kNumPipes) * kNumPipes * eventIds);
  bufIdClocks.resize(size_t(std::max(0, arch.bufferIds)));
  for (int s = 1; s < kNumSpaces; ++s)
    if (usedSpaces[s])
      shadow[s].capacity = arch.capacity[s];
}

void RaceDetector::reset(int newCore, bool newCube, const char *suffix) {
  core = newCore;
  cube = newCube;
  coreSuffix = suffix;
  clocks = {};
  std::fill(flagClocks.begin(), flagClocks.end(), Clock{});
  std::fill(bufIdClocks.begin(), bufIdClocks.end(), Clock{});
  for (Shadow &sh : shadow) {
    sh.runs.clear();
    if (sh.capacity > 0)
      sh.runs.push_back({0, ShadowState{}});
  }
  seen.clear();
  races.clear();
}

void RaceDetector::onSetFlag(Pipe src, Pipe dst, unsigned id) {
  onIssue(src);
  flagClocks[(size_t(src) * kNumPipes + size_t(dst)) * eventIds + id] =
      clocks[int(src)];
}

void RaceDetector::onWaitFlag(Pipe src, Pipe dst, unsigned id) {
  onIssue(dst);
  join(clocks[int(dst)],
       flagClocks[(size_t(src) * kNumPipes + size_t(dst)) * eventIds + id]);
}

void RaceDetector::onGetBuf(Pipe p, unsigned id) {
  onIssue(p);
  join(clocks[int(p)], bufIdClocks[id]);
}

void RaceDetector::onRlsBuf(Pipe p, unsigned id) {
  // Every holder before this one released into the id's clock, and this
  // pipe joined it at its get_buf: the clock now covers them all.
  onIssue(p);
  bufIdClocks[id] = clocks[int(p)];
}

void RaceDetector::onBarrierAll() {
  Clock all{};
  for (const Clock &c : clocks)
    join(all, c);
  clocks.fill(all);
}

void RaceDetector::beginAccesses(Pipe p, int32_t pc) {
  onIssue(p);
  curPipe = p;
  curPc = pc;
  curClock = ++clocks[int(p)][int(p)];
  if (p == Pipe::S)
    curStoreClock = ++clocks[int(p)][kScalarStoreLane];
}

size_t RaceDetector::split(Shadow &shadow, int64_t pos) {
  std::vector<Run> &runs = shadow.runs;
  if (pos >= shadow.capacity)
    return runs.size();
  auto it = std::upper_bound(
      runs.begin(), runs.end(), pos,
      [](int64_t p, const Run &r) { return p < r.start; });
  size_t k = size_t(it - runs.begin()) - 1;
  if (runs[k].start == pos)
    return k;
  runs.insert(runs.begin() + k + 1, Run{pos, runs[k].state});
  return k + 1;
}

void RaceDetector::access(Space s, int64_t lo, int64_t hi, bool isWrite) {
  Shadow &sh = shadow[int(s)];
  lo = lo / kGranule * kGranule;
  hi = std::min(sh.capacity, (hi + kGranule - 1) / kGranule * kGranule);
  if (hi <= lo || sh.runs.empty())
    return;
  // The lane this access counts on; `known` is what its pipe has seen.
  const bool scalarStore = isWrite && curPipe == Pipe::S;
  const int p = scalarStore ? kScalarStoreLane : int(curPipe);
  const uint32_t clock = scalarStore ? curStoreClock : curClock;
  const Clock &known = clocks[int(curPipe)];
  size_t first = split(sh, lo);
  size_t last = split(sh, hi);
  std::vector<Run> &runs = sh.runs;
  for (size_t k = first; k < last; ++k) {
    ShadowState &st = runs[k].state;
    int64_t runLo = runs[k].start;
    int64_t runHi = k + 1 < runs.size() ? runs[k + 1].start : sh.capacity;
    // Conflicting prior write from another pipe not known to this pipe.
    if (st.writePipe != kNoPipe && st.writePipe != p &&
        st.writeClock > known[st.writePipe])
      noteConflict(st.writePc, pipeOfLane(st.writePipe), true, runLo, runHi);
    if (isWrite) {
      for (int q = 0; q < kNumPipes; ++q)
        if (q != p && st.readClock[q] > known[q])
          noteConflict(st.readPc[q], Pipe(q), false, runLo, runHi);
    } else {
      st.readClock[p] = curClock;
      st.readPc[p] = curPc;
    }
  }
  if (isWrite) {
    // Any later access ordered after this write is ordered after the reads
    // it was ordered after; unordered ones were just reported.
    ShadowState st;
    st.writePipe = uint8_t(p);
    st.writeClock = clock;
    st.writePc = curPc;
    runs[first].state = st;
    runs.erase(runs.begin() + first + 1, runs.begin() + last);
    last = first + 1;
  }
  // Coalesce equal neighbours around the touched runs.
  size_t from = first > 0 ? first - 1 : 0;
  size_t to = std::min(last + 1, runs.size());
  for (size_t k = to - 1; k > from; --k)
    if (runs[k].state == runs[k - 1].state)
      runs.erase(runs.begin() + k);
  if (!pending.empty())
    report(s, isWrite, lo, hi);
}

void RaceDetector::noteConflict(int32_t firstPc, Pipe firstPipe,
                                bool firstWrite, int64_t lo, int64_t hi) {
  for (Conflict &c : pending) {
    if (c.firstPc == firstPc && c.firstPipe == firstPipe &&
        c.firstWrite == firstWrite && c.hi == lo) {
      c.hi = hi;
      return;
    }
  }
  pending.push_back({firstPc, firstPipe, firstWrite, lo, hi});
}

void RaceDetector::report(Space s, bool secondWrite, int64_t lo, int64_t hi) {
  for (const Conflict &c : pending) {
    if (races.size() >= kMaxRaces)
      break;
    if (!seen.insert({c.firstPc, curPc}).second)
      continue;
    const Instr &first = program.code[c.firstPc];
    const Instr &second = program.code[curPc];
    Race r;
    r.core = core;
    r.cube = cube;
    r.space = s;
    r.lo = std::max(lo, c.lo);
    r.hi = std::min(hi, c.hi);
    r.firstPoint = first.point;
    r.secondPoint = second.point;
    r.firstPipe = c.firstPipe;
    r.secondPipe = curPipe;
    r.firstWrite = c.firstWrite;
    r.secondWrite = secondWrite;
    r.firstLoc = first.loc;
    r.secondLoc = second.loc;
    r.message = std::string("data race on ") + spaceName(s) + " bytes [" +
                std::to_string(r.lo) + ", " + std::to_string(r.hi) +
                ") on core " + std::to_string(core) + coreSuffix + ": " +
                opName(program, first) + " (" + pipeName(c.firstPipe) + ", " +
                (c.firstWrite ? "write" : "read") + ") at " +
                locText(program, first.loc) + " and " +
                opName(program, second) + " (" + pipeName(curPipe) + ", " +
                (secondWrite ? "write" : "read") + ") at " +
                locText(program, second.loc) +
                " are not ordered by set_flag/wait_flag, get_buf/rls_buf or "
                "pipe_barrier";
    races.push_back(std::move(r));
  }
  pending.clear();
}

} // namespace asc2::sim
