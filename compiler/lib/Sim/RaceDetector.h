//===- RaceDetector.h - Happens-before checking of local memory and GM -*- C++ -*-===//
//
// Vector clocks over the pipes of a core. A pipe's work is ordered by
// program order within the pipe, by set_flag -> wait_flag edges, by
// rls_buf -> the next get_buf of the same buffer id (ids are granted in issue
// order) and by PIPE_ALL barriers; the scalar unit issues everything, so work issued after a
// scalar-side wait is ordered after what that wait waited for. Shadow state
// of each local space at 32-byte granularity remembers the last write and the
// last read per pipe; an access that is not ordered after a conflicting one
// from another pipe is a race. The shadow is kept as runs of granules with
// equal state: kernels access whole buffers, so an access touches a handful
// of runs however many bytes it covers.
//
// Scalar loads complete before the scalar unit issues anything else, so they
// are ordered like any other scalar work. Scalar stores are not (Ascend C
// needs S->V / S->MTE3 flags after SetValue): they count on a lane of their
// own that issuing does not propagate; only set_flag on S and PIPE_ALL do.
//
// MIX kernels: the clocks have lanes for the pipes of both cores of a group
// (the AIC's first, then the AIV's). A cross-core set carries its pipe's
// clock to the wait that consumes it, so work on one core is ordered after
// what the other core did before the set. GM copies (DMA and fixpipe) are
// checked the same way, byte-exact, on a GM shadow the two cores of a group
// share: a workspace read before the cross-core flag that orders its write is
// a race. Between blocks nothing orders GM (blockRaces()): a block reading
// GM bytes another block stores is a race; two blocks storing to the same
// bytes a warning (benign when they store the same values, as a last tile
// rounded up into the next block's rows does); atomic stores of several
// blocks are neither. Scalar GM accesses are not checked.
//
//===----------------------------------------------------------------------===//
#ifndef ASC2_LIB_SIM_RACEDETECTOR_H
#define ASC2_LIB_SIM_RACEDETECTOR_H

#include "MemorySystem.h"

#include "asc2/Arch/ArchModel.h"
#include "asc2/Sim/Simulator.h"

#include <array>
#include <cstdint>
#include <unordered_map>
#include <set>
#include <utility>
#include <vector>

namespace asc2::sim {

class RaceDetector {
public:
  static constexpr int64_t kGranule = 32;
  static constexpr size_t kMaxRaces = 100;
  /// Clock components: per core side (the AIC, the first AIV, the second
  /// AIV of a MIX_AIC_1_2 group), one per pipe plus the scalar stores'.
  static constexpr int kSideLanes = kNumPipes + 1;
  static constexpr int kSides = 3;
  static constexpr int kLanes = kSides * kSideLanes;
  using Clock = std::array<uint32_t, kLanes>;

  /// What one granule (local) or byte range (GM) saw last.
  struct ShadowState {
    uint32_t writeClock = 0;
    int32_t writePc = -1;
    uint8_t writeLane = 0xff; // none
    std::array<uint32_t, kLanes> readClock{};
    std::array<int32_t, kLanes> readPc{};
    bool operator==(const ShadowState &o) const {
      return writeClock == o.writeClock && writePc == o.writePc &&
             writeLane == o.writeLane && readClock == o.readClock &&
             readPc == o.readPc;
    }
  };
  /// Granules [start, next run's start) share `state`.
  struct Run {
    int64_t start;
    ShadowState state;
  };
  /// Runs of one local memory, or of one GM page: sorted by start, the
  /// first at the start of the span, the last ending at `capacity`.
  struct Shadow {
    int64_t capacity = 0;
    std::vector<Run> runs;
  };
  /// GM of one block (both cores of a MIX group): runs of bytes with equal
  /// state in pages of kGmPageBytes of canonical addresses (see GmAccess),
  /// made on first touch. A strided copy's rows (a tile of a matrix) leave
  /// runs between them that no coalescing removes; paging keeps each
  /// lookup among a page's few runs instead of a search over all of them.
  static constexpr int64_t kGmPageBytes = 4096;
  /// A strided GM read, kept as it was issued (see GmShadow::unwritten).
  struct GmRead {
    int64_t addr, rows, rowBytes, strideBytes;
    int32_t pc;
    uint32_t clock;
    uint8_t lane;
  };
  struct GmShadow {
    std::unordered_map<int64_t, Shadow> pages;
    /// Reads of a GM buffer that the block has not written yet: nothing
    /// can race with them until a write to that buffer comes, so they are
    /// kept as issued (one record per copy, not per row) and put into the
    /// pages only then. A matmul's operands are never written: their
    /// reads never reach the pages.
    std::unordered_map<int64_t, std::vector<GmRead>> unwritten;
    /// Buffers (gmBufferOf) the block has written.
    std::set<int64_t> written;
    void clear() {
      pages.clear();
      unwritten.clear();
      written.clear();
    }
    /// The page holding canonical address `addr`.
    Shadow &pageOf(int64_t addr);
  };

  RaceDetector(const Program &program, const ArchModel &arch,
               const std::array<bool, kNumSpaces> &usedSpaces);

  /// Forgets all history; called at the start of each block. `cube`: the
  /// block's AIC; `coreSuffix` follows "core N" in messages (" (AIC)" in MIX
  /// kernels); `side` 1 + the sub-block index for an AIV of a MIX group; `gm` the group's shared
  /// GM shadow (cleared by the group), or null for one of this core's own.
  void reset(int core, bool cube = false, const char *coreSuffix = "",
             int side = 0, GmShadow *gm = nullptr);

  /// An instruction was issued to pipe `p` by the scalar unit.
  void onIssue(Pipe p) {
    Clock &c = clocks[int(p)];
    const Clock &s = clocks[int(Pipe::S)];
    const int store = storeLane();
    for (int i = 0; i < kLanes; ++i)
      if (i != store)
        c[i] = c[i] > s[i] ? c[i] : s[i];
  }
  void onSetFlag(Pipe src, Pipe dst, unsigned id);
  void onWaitFlag(Pipe src, Pipe dst, unsigned id);
  /// A cross-core set on pipe `p`: the clock the consuming wait joins.
  Clock onCrossCoreSet(Pipe p) {
    onIssue(p);
    return clocks[int(p)];
  }
  void onCrossCoreWait(Pipe p, const Clock &setClock) {
    onIssue(p);
    join(clocks[int(p)], setClock);
  }
  void onBarrierAll();
  /// Buffer ids: a get_buf is ordered after the last rls_buf of its id.
  void onGetBuf(Pipe p, unsigned id);
  void onRlsBuf(Pipe p, unsigned id);

  /// Starts the memory accesses of the instruction at `pc` on pipe `p`.
  void beginAccesses(Pipe p, int32_t pc);
  void read(Space s, int64_t lo, int64_t hi) { access(*this, s, lo, hi, false); }
  void write(Space s, int64_t lo, int64_t hi) { access(*this, s, lo, hi, true); }
  /// A write of the current instruction into the local memory of another
  /// core of the MIX group (Ascend950's L0C -> UB and UB -> L1): checked
  /// with this core's clocks against `home`'s shadow of that memory, where
  /// it is remembered for the home core's own later accesses.
  void writeOther(RaceDetector &home, Space s, int64_t lo, int64_t hi) {
    access(home, s, lo, hi, true);
  }
  /// GM rows of the current instruction (canonical addresses); atomic
  /// stores are not checked within a block.
  void gmRows(bool isWrite, int64_t addr, int64_t rows, int64_t rowBytes,
              int64_t strideBytes);

  std::vector<Race> takeRaces() { return std::move(races); }

private:
  static constexpr uint8_t kNoLane = 0xff;
  int lane(Pipe p) const { return side * kSideLanes + int(p); }
  int storeLane() const { return side * kSideLanes + kNumPipes; }
  static Pipe pipeOfLane(int lane) {
    int p = lane % kSideLanes;
    return p == kNumPipes ? Pipe::S : Pipe(p);
  }
  /// "AIC", "AIV" (one vector core per group) or "AIV0"/"AIV1".
  const char *sideOfLane(int lane) const {
    int s = lane / kSideLanes;
    return s == 0 ? "AIC" : !twoVectorCores ? "AIV" : s == 1 ? "AIV0" : "AIV1";
  }

  struct Conflict {
    int32_t firstPc;
    int firstLane;
    bool firstWrite;
    int64_t lo, hi;
  };

  static void join(Clock &into, const Clock &from) {
    for (int i = 0; i < kLanes; ++i)
      into[i] = into[i] > from[i] ? into[i] : from[i];
  }
  /// An access to `home`'s shadow of `s` (this detector's own, or another
  /// core's of the group).
  void access(RaceDetector &home, Space s, int64_t lo, int64_t hi, bool isWrite);
  void accessGm(int64_t lo, int64_t hi, bool isWrite);
  /// [lo, hi) of GM through its pages, by instruction `pc` on lane p at
  /// `clock`.
  void accessGmPages(int64_t lo, int64_t hi, int p, uint32_t clock, int32_t pc,
                     bool isWrite);
  /// [lo, hi) of `sh` (inside its span) accessed by instruction `pc` on
  /// lane p at `clock`: checked against each run, recorded, equal
  /// neighbours coalesced.
  void accessRuns(Shadow &sh, int64_t lo, int64_t hi, int p, uint32_t clock,
                  int32_t pc, bool isWrite);
  /// The checks of one run against the current access; updates its reads.
  void checkRun(ShadowState &st, int p, uint32_t clock, int32_t pc, bool isWrite,
                int64_t runLo, int64_t runHi);
  /// Makes a run start at `pos`; returns its index (runs.size() at the end).
  static size_t split(Shadow &shadow, int64_t pos);
  void noteConflict(int32_t firstPc, int firstLane, bool firstWrite,
                    int64_t lo, int64_t hi);
  /// `owner`: the suffix of the core whose local memory it is.
  void report(Space s, bool secondWrite, int64_t lo, int64_t hi,
              const char *owner);

  const Program &program;
  int eventIds;
  int core = 0;
  bool cube = false;
  const char *coreSuffix = "";
  int side = 0;
  bool twoVectorCores = false; // MIX_AIC_1_2: name the AIVs apart
  GmShadow ownGm;
  GmShadow *gm = &ownGm;
  std::array<Clock, kNumPipes> clocks{};
  std::vector<Clock> flagClocks; // [src][dst][id]
  std::vector<Clock> bufIdClocks; // [id]: the clock of its last release
  std::array<Shadow, kNumSpaces> shadow;
  Pipe curPipe = Pipe::S;
  int32_t curPc = -1;
  uint32_t curClock = 0;
  uint32_t curStoreClock = 0; // scalar stores: the lane's clock
  std::vector<Conflict> pending;
  std::set<std::pair<int32_t, int32_t>> seen;
  std::vector<Race> races;
};

/// GM races between blocks: `gm` are the copies of a launch (merged, core
/// set), `cores` the launch's cores (their blocks). A block reading bytes
/// another block stores is a race, appended to `races` up to
/// RaceDetector::kMaxRaces; two blocks storing to the same bytes is a warning
/// (the same numbers either way when they store the same values).
LLVM_LIBRARY_VISIBILITY void blockRaces(const Program &program,
                                        const std::vector<GmAccess> &gm,
                                        const std::vector<CoreStats> &cores,
                                        std::vector<Race> &races,
                                        std::vector<std::string> &warnings);

} // namespace asc2::sim

#endif
