//===- RaceDetector.h - Happens-before checking of local memory ---*- C++ -*-===//
//
// Vector clocks over the seven pipes of one core. A pipe's work is ordered by
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
//===----------------------------------------------------------------------===//
#ifndef ASC2_LIB_SIM_RACEDETECTOR_H
#define ASC2_LIB_SIM_RACEDETECTOR_H

#include "asc2/Arch/ArchModel.h"
#include "asc2/Sim/Simulator.h"

#include <array>
#include <cstdint>
#include <set>
#include <utility>
#include <vector>

namespace asc2::sim {

class RaceDetector {
public:
  static constexpr int64_t kGranule = 32;
  static constexpr size_t kMaxRaces = 100;

  RaceDetector(const Program &program, const ArchModel &arch,
               const std::array<bool, kNumSpaces> &usedSpaces);

  /// Forgets all history; called at the start of each block. `cube`: the
  /// block's AIC; `coreSuffix` follows "core N" in messages (" (AIC)" in MIX
  /// kernels).
  void reset(int core, bool cube = false, const char *coreSuffix = "");

  /// An instruction was issued to pipe `p` by the scalar unit.
  void onIssue(Pipe p) {
    Clock &c = clocks[int(p)];
    const Clock &s = clocks[int(Pipe::S)];
    for (int i = 0; i < kNumPipes; ++i) // not kScalarStoreLane
      c[i] = c[i] > s[i] ? c[i] : s[i];
  }
  void onSetFlag(Pipe src, Pipe dst, unsigned id);
  void onWaitFlag(Pipe src, Pipe dst, unsigned id);
  void onBarrierAll();
  /// Buffer ids: a get_buf is ordered after the last rls_buf of its id.
  void onGetBuf(Pipe p, unsigned id);
  void onRlsBuf(Pipe p, unsigned id);

  /// Starts the memory accesses of the instruction at `pc` on pipe `p`.
  void beginAccesses(Pipe p, int32_t pc);
  void read(Space s, int64_t lo, int64_t hi) { access(s, lo, hi, false); }
  void write(Space s, int64_t lo, int64_t hi) { access(s, lo, hi, true); }

  std::vector<Race> takeRaces() { return std::move(races); }

private:
  /// Clock components: one per pipe plus the scalar stores' lane.
  static constexpr int kLanes = kNumPipes + 1;
  static constexpr int kScalarStoreLane = kNumPipes;
  using Clock = std::array<uint32_t, kLanes>;
  static constexpr uint8_t kNoPipe = 0xff;
  static Pipe pipeOfLane(int lane) {
    return lane == kScalarStoreLane ? Pipe::S : Pipe(lane);
  }

  struct ShadowState {
    uint32_t writeClock = 0;
    int32_t writePc = -1;
    uint8_t writePipe = kNoPipe; // a lane
    std::array<uint32_t, kNumPipes> readClock{};
    std::array<int32_t, kNumPipes> readPc{};
    bool operator==(const ShadowState &o) const {
      return writeClock == o.writeClock && writePc == o.writePc &&
             writePipe == o.writePipe && readClock == o.readClock &&
             readPc == o.readPc;
    }
  };
  /// Granules [start, next run's start) share `state`.
  struct Run {
    int64_t start;
    ShadowState state;
  };
  struct Shadow {
    int64_t capacity = 0;
    std::vector<Run> runs; // sorted by start, runs[0].start == 0
  };
  struct Conflict {
    int32_t firstPc;
    Pipe firstPipe;
    bool firstWrite;
    int64_t lo, hi;
  };

  static void join(Clock &into, const Clock &from) {
    for (int i = 0; i < kLanes; ++i)
      into[i] = into[i] > from[i] ? into[i] : from[i];
  }
  void access(Space s, int64_t lo, int64_t hi, bool isWrite);
  /// Makes a run start at `pos`; returns its index (runs.size() at the end).
  static size_t split(Shadow &shadow, int64_t pos);
  void noteConflict(int32_t firstPc, Pipe firstPipe, bool firstWrite,
                    int64_t lo, int64_t hi);
  void report(Space s, bool secondWrite, int64_t lo, int64_t hi);

  const Program &program;
  int eventIds;
  int core = 0;
  bool cube = false;
  const char *coreSuffix = "";
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

} // namespace asc2::sim

#endif
