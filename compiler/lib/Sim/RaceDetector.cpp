//===- RaceDetector.cpp - Happens-before checking of local memory and GM --===//

#include "RaceDetector.h"
#include "SimSupport.h"

#include <algorithm>
#include <map>
#include <set>

namespace asc2::sim {

RaceDetector::RaceDetector(const Program &program, const ArchModel &arch,
                           const std::array<bool, kNumSpaces> &usedSpaces)
    : program(program), eventIds(std::max(1, arch.eventIdsPerPipePair)) {
  twoVectorCores = program.vectorCoresPerGroup > 1;
  flagClocks.resize(size_t(kNumPipes) * kNumPipes * eventIds);
  bufIdClocks.resize(size_t(std::max(0, arch.bufferIds)));
  for (int s = 1; s < kNumSpaces; ++s)
    if (usedSpaces[s])
      shadow[s].capacity = arch.capacity[s];
}

void RaceDetector::reset(int newCore, bool newCube, const char *suffix,
                         int newSide, GmShadow *groupGm) {
  core = newCore;
  cube = newCube;
  coreSuffix = suffix;
  side = newSide;
  gm = groupGm ? groupGm : &ownGm;
  if (!groupGm)
    ownGm.clear();
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
  curClock = ++clocks[int(p)][lane(p)];
  if (p == Pipe::S)
    curStoreClock = ++clocks[int(p)][storeLane()];
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

void RaceDetector::checkRun(ShadowState &st, int p, uint32_t clock, int32_t pc,
                            bool isWrite, int64_t runLo, int64_t runHi) {
  const Clock &known = clocks[int(curPipe)];
  // Conflicting prior write from another lane not known to this pipe.
  if (st.writeLane != kNoLane && st.writeLane != p &&
      st.writeClock > known[st.writeLane])
    noteConflict(st.writePc, st.writeLane, true, runLo, runHi);
  if (isWrite) {
    for (int q = 0; q < kLanes; ++q)
      if (q != p && st.readClock[q] > known[q])
        noteConflict(st.readPc[q], q, false, runLo, runHi);
  } else {
    st.readClock[p] = clock;
    st.readPc[p] = pc;
  }
}

void RaceDetector::access(RaceDetector &home, Space s, int64_t lo, int64_t hi,
                          bool isWrite) {
  Shadow &sh = home.shadow[int(s)];
  lo = lo / kGranule * kGranule;
  hi = std::min(sh.capacity, (hi + kGranule - 1) / kGranule * kGranule);
  if (hi <= lo || sh.runs.empty())
    return;
  // The lane this access counts on.
  const bool scalarStore = isWrite && curPipe == Pipe::S;
  const int p = scalarStore ? storeLane() : lane(curPipe);
  const uint32_t clock = scalarStore ? curStoreClock : curClock;
  accessRuns(sh, lo, hi, p, clock, curPc, isWrite);
  if (!pending.empty())
    report(s, isWrite, lo, hi, home.coreSuffix);
}

void RaceDetector::accessRuns(Shadow &sh, int64_t lo, int64_t hi, int p,
                              uint32_t clock, int32_t pc, bool isWrite) {
  size_t first = split(sh, lo);
  size_t last = split(sh, hi);
  std::vector<Run> &runs = sh.runs;
  for (size_t k = first; k < last; ++k)
    checkRun(runs[k].state, p, clock, pc, isWrite, runs[k].start,
             k + 1 < runs.size() ? runs[k + 1].start : sh.capacity);
  if (isWrite) {
    // Any later access ordered after this write is ordered after the reads
    // it was ordered after; unordered ones were just reported.
    ShadowState st;
    st.writeLane = uint8_t(p);
    st.writeClock = clock;
    st.writePc = pc;
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
}

void RaceDetector::gmRows(bool isWrite, int64_t addr, int64_t rows,
                          int64_t rowBytes, int64_t strideBytes) {
  if (rows <= 0 || rowBytes <= 0)
    return;
  const int64_t buffer = gmBufferOf(addr);
  if (!gm->written.count(buffer)) {
    if (!isWrite) {
      gm->unwritten[buffer].push_back(
          {addr, rows, rowBytes, strideBytes, curPc, curClock, uint8_t(lane(curPipe))});
      return;
    }
    // The buffer's first write: its earlier reads go into the pages first,
    // in the order they were issued, each with its own lane, clock and pc
    // (no write precedes them, so they check nothing).
    gm->written.insert(buffer);
    auto logged = gm->unwritten.find(buffer);
    if (logged != gm->unwritten.end()) {
      for (const GmRead &r : logged->second)
        forEachRow(r.addr, r.rows, r.rowBytes, r.strideBytes, [&](int64_t lo, int64_t hi) {
          accessGmPages(lo, hi, r.lane, r.clock, r.pc, false);
        });
      gm->unwritten.erase(logged);
    }
  }
  forEachRow(addr, rows, rowBytes, strideBytes,
             [&](int64_t lo, int64_t hi) { accessGm(lo, hi, isWrite); });
}

RaceDetector::Shadow &RaceDetector::GmShadow::pageOf(int64_t addr) {
  const int64_t base = addr / kGmPageBytes * kGmPageBytes;
  auto [it, added] = pages.try_emplace(base);
  if (added) {
    it->second.capacity = base + kGmPageBytes;
    it->second.runs.push_back({base, ShadowState{}});
  }
  return it->second;
}

void RaceDetector::accessGmPages(int64_t lo, int64_t hi, int p, uint32_t clock,
                                 int32_t pc, bool isWrite) {
  for (int64_t at = lo; at < hi;) {
    Shadow &page = gm->pageOf(at);
    const int64_t end = std::min(hi, page.capacity);
    accessRuns(page, at, end, p, clock, pc, isWrite);
    at = end;
  }
}

void RaceDetector::accessGm(int64_t lo, int64_t hi, bool isWrite) {
  if (hi <= lo)
    return;
  accessGmPages(lo, hi, lane(curPipe), curClock, curPc, isWrite);
  if (!pending.empty())
    report(Space::GM, isWrite, lo, hi, coreSuffix);
}

void RaceDetector::noteConflict(int32_t firstPc, int firstLane,
                                bool firstWrite, int64_t lo, int64_t hi) {
  for (Conflict &c : pending) {
    if (c.firstPc == firstPc && c.firstLane == firstLane &&
        c.firstWrite == firstWrite && c.hi == lo) {
      c.hi = hi;
      return;
    }
  }
  pending.push_back({firstPc, firstLane, firstWrite, lo, hi});
}

namespace {

/// "GM bytes [lo, hi) of c_ptr" for canonical GM addresses (see GmAccess).
std::string gmPlace(const Program &program, int64_t lo, int64_t hi) {
  size_t id = size_t(gmBufferOf(lo));
  std::string what = id < program.args.size()
                         ? (program.args[id].name.empty()
                                ? "argument " + std::to_string(id)
                                : program.args[id].name)
                         : std::string("the workspace");
  return "GM bytes [" + std::to_string(gmOffsetOf(lo)) + ", " +
         std::to_string(gmOffsetOf(lo) + (hi - lo)) + ") of " + what;
}

std::string opAt(const Program &program, const Instr &in, Pipe pipe,
                 bool write, const char *side) {
  return opName(program, in) + " (" + pipeName(pipe) + ", " +
         (write ? "write" : "read") + (side[0] ? ", " : "") + side + ") at " +
         locText(program, in.loc);
}

} // namespace

void RaceDetector::report(Space s, bool secondWrite, int64_t lo, int64_t hi,
                          const char *owner) {
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
    r.firstPipe = pipeOfLane(c.firstLane);
    r.secondPipe = curPipe;
    r.firstWrite = c.firstWrite;
    r.secondWrite = secondWrite;
    r.firstLoc = first.loc;
    r.secondLoc = second.loc;
    const bool acrossCores = c.firstLane / kSideLanes != side;
    const char *firstSide = acrossCores ? sideOfLane(c.firstLane) : "";
    const char *secondSide = acrossCores ? sideOfLane(lane(curPipe)) : "";
    std::string place;
    if (s == Space::GM) {
      place = gmPlace(program, r.lo, r.hi);
      r.lo = gmOffsetOf(r.lo);
      r.hi = r.lo + (std::min(hi, c.hi) - std::max(lo, c.lo));
      place += " in block " + std::to_string(core);
    } else {
      place = std::string(spaceName(s)) + " bytes [" + std::to_string(r.lo) +
              ", " + std::to_string(r.hi) + ") on core " +
              std::to_string(core) + owner;
    }
    r.message = "data race on " + place + ": " +
                opAt(program, first, r.firstPipe, c.firstWrite, firstSide) +
                " and " + opAt(program, second, curPipe, secondWrite, secondSide) +
                (acrossCores ? " are not ordered by a cross-core flag"
                             : " are not ordered by set_flag/wait_flag, "
                               "get_buf/rls_buf or pipe_barrier");
    races.push_back(std::move(r));
  }
  pending.clear();
}

void blockRaces(const Program &program, const std::vector<GmAccess> &gm,
                const std::vector<CoreStats> &cores, std::vector<Race> &races,
                std::vector<std::string> &warnings) {
  // Row ranges of every plain or atomic write, per block, and the argument
  // ranges they span: reads outside every written range need no look-up.
  struct Range {
    int64_t lo, hi;
    int block;
    bool atomic;
    int32_t pc;
    bool cube;
  };
  std::vector<Range> writes;
  std::map<int64_t, std::pair<int64_t, int64_t>> spanOfBuffer; // id -> lo, hi
  for (const GmAccess &a : gm) {
    if (!a.write || a.rows <= 0 || a.rowBytes <= 0)
      continue;
    const CoreStats &core = cores[a.core];
    forEachRow(a.addr, a.rows, a.rowBytes, a.strideBytes, [&](int64_t lo, int64_t hi) {
      writes.push_back({lo, hi, core.block, a.atomic, a.pc, core.cube});
      auto [it, added] = spanOfBuffer.try_emplace(gmBufferOf(lo), lo, hi);
      it->second.first = std::min(it->second.first, lo);
      it->second.second = std::max(it->second.second, hi);
    });
  }
  if (writes.empty())
    return;
  // One report per pair of source lines (the unrolled copies of a loop body
  // are other instructions of the same line).
  std::set<std::pair<int32_t, int32_t>> seen;
  // `x` a store, `y` a store (a warning) or a read (a race) of another block.
  auto add = [&](const Range &x, const Range &y, bool secondWrite, int64_t lo,
                 int64_t hi) {
    const Instr &first = program.code[x.pc];
    const Instr &second = program.code[y.pc];
    if (!seen.insert({first.loc, second.loc}).second)
      return;
    std::string what = gmPlace(program, lo, hi) + " between blocks " +
                       std::to_string(x.block) + " and " + std::to_string(y.block) +
                       ": " + opAt(program, first, first.pipe, true, "") + " and " +
                       opAt(program, second, second.pipe, secondWrite, "") +
                       " (nothing orders the blocks of a launch; give each block "
                       "its own part of the tensor, or store with an atomic add)";
    if (secondWrite) {
      // Two stores: the bytes hold whichever lands last, the same numbers
      // either way when both blocks store the same values (a last tile
      // rounded up into the next block's rows). A warning, not an error.
      if (warnings.size() < 16)
        warnings.push_back("two blocks store to " + what +
                           "; the result depends on their order unless they "
                           "store the same values");
      return;
    }
    if (races.size() >= RaceDetector::kMaxRaces)
      return;
    Race r;
    r.core = y.block;
    r.cube = y.cube;
    r.space = Space::GM;
    r.lo = gmOffsetOf(lo);
    r.hi = r.lo + (hi - lo);
    r.firstPoint = first.point;
    r.secondPoint = second.point;
    r.firstPipe = first.pipe;
    r.secondPipe = second.pipe;
    r.firstWrite = true;
    r.secondWrite = false;
    r.firstLoc = first.loc;
    r.secondLoc = second.loc;
    r.message = "data race on " + what;
    races.push_back(std::move(r));
  };

  // Write/write: sorted by start, each range against the earlier ones that
  // reach furthest, from the block that does and from any other block.
  std::sort(writes.begin(), writes.end(),
            [](const Range &a, const Range &b) { return a.lo < b.lo; });
  const Range *best = nullptr, *other = nullptr;
  for (const Range &w : writes) {
    const Range *prior = best && best->block != w.block ? best : other;
    if (prior && prior->hi > w.lo && !(prior->atomic && w.atomic))
      add(*prior, w, true, w.lo, std::min(w.hi, prior->hi));
    if (!best || w.hi > best->hi) {
      if (best && best->block != w.block)
        other = best;
      best = &w;
    } else if (w.block != best->block && (!other || w.hi > other->hi)) {
      other = &w;
    }
  }

  // Read/write: each read row against the writes of other blocks it
  // overlaps; `reach[i]` is the furthest end of writes[0..i].
  std::vector<int64_t> reach(writes.size());
  for (size_t i = 0; i < writes.size(); ++i)
    reach[i] = std::max(writes[i].hi, i ? reach[i - 1] : writes[i].hi);
  for (const GmAccess &a : gm) {
    if (a.write || a.rows <= 0 || a.rowBytes <= 0 ||
        races.size() >= RaceDetector::kMaxRaces)
      continue;
    auto span = spanOfBuffer.find(gmBufferOf(a.addr));
    int64_t end = a.addr + (a.rows - 1) * a.strideBytes + a.rowBytes;
    if (span == spanOfBuffer.end() || end <= span->second.first ||
        a.addr >= span->second.second)
      continue;
    const CoreStats &core = cores[a.core];
    const Range read{0, 0, core.block, false, a.pc, core.cube};
    forEachRow(a.addr, a.rows, a.rowBytes, a.strideBytes, [&](int64_t lo, int64_t hi) {
      // Writes starting before `hi`; walk back while they can reach `lo`.
      size_t n = size_t(std::lower_bound(writes.begin(), writes.end(), hi,
                                         [](const Range &w, int64_t v) {
                                           return w.lo < v;
                                         }) -
                        writes.begin());
      for (size_t i = n; i-- > 0 && reach[i] > lo;) {
        const Range &w = writes[i];
        if (w.hi > lo && w.block != read.block) {
          add(w, read, false, std::max(lo, w.lo), std::min(hi, w.hi));
          return;
        }
      }
    });
  }
}

} // namespace asc2::sim
