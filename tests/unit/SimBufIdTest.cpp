//===- SimBufIdTest.cpp - Buffer ids (get_buf/rls_buf) in the simulator ---===//

#include "SimTestUtil.h"

#include <algorithm>

using namespace asc2::sim;
using namespace asc2::sim::test;

namespace {

const ArchModel &a5() {
  static ArchModel arch = loadArch("Ascend950");
  return arch;
}

struct VaddRun {
  LaunchResult result;
  std::vector<float> z;
};

VaddRun runVadd(const VaddOptions &o, int64_t n, int blocks = 2) {
  std::vector<float> x(n), y(n);
  for (int64_t i = 0; i < n; ++i) {
    x[i] = float(i % 97);
    y[i] = 0.5f * float(i % 13);
  }
  VaddRun run;
  run.z.assign(n, -1);
  run.result = simulate(makeVadd(o), a5(), blocks,
                        {gmArg(x, DType::F32), gmArg(y, DType::F32),
                         gmArg(run.z, DType::F32), intArg(n)});
  for (int64_t i = 0; i < n; ++i)
    EXPECT_EQ(run.z[i], x[i] + y[i]) << "element " << i;
  return run;
}

TEST(SimBufId, TheArchModelHasBufferIds) {
  EXPECT_EQ(a5().syncStyle, "buffer-id");
  EXPECT_EQ(a5().bufferIds, 28);
  EXPECT_EQ(loadArch("Ascend910B1").bufferIds, 0);
}

TEST(SimBufId, IdsOrderAccessesInIssueOrderAndAreRaceFree) {
  for (bool twin : {false, true}) {
    VaddOptions o;
    o.bufIds = true;
    o.doubleBuffer = twin;
    o.tile = 256;
    VaddRun run = runVadd(o, 2 * 256 * 5 + 77);
    ASSERT_TRUE(run.result.ok) << run.result.error;
    EXPECT_TRUE(run.result.races.empty()) << run.result.races[0].message;
  }
}

/// The trace events of block 0 at `point`, in time order.
std::vector<TraceEvent> eventsAt(const LaunchResult &r, int32_t point) {
  std::vector<TraceEvent> out;
  for (const TraceEvent &e : r.trace)
    if (e.core == 0 && e.point == point)
      out.push_back(e);
  return out;
}

TEST(SimBufId, GetWaitsForThePreviousHoldersRelease) {
  VaddOptions o;
  o.bufIds = true;
  o.tile = 256;
  Program p = makeVadd(o);
  std::vector<float> x(1024, 1), y(1024, 2), z(1024);
  LaunchResult r = simulate(p, a5(), 1,
                            {gmArg(x, DType::F32), gmArg(y, DType::F32),
                             gmArg(z, DType::F32), intArg(1024)});
  ASSERT_TRUE(r.ok) << r.error;
  // Program points of: the copy of x, the get of x on V, the add.
  auto pointOf = [&](const char *name, int nth) {
    int seen = 0;
    for (const Instr &in : p.code)
      if (p.pointNames[in.point] == name && seen++ == nth)
        return in.point;
    return -1;
  };
  int32_t copyX = pointOf("ascendc.data_copy", 0);
  int32_t rlsX = pointOf("ascendc.rls_buf", 0);   // MTE2 releases x
  int32_t getVx = pointOf("ascendc.get_buf", 2);  // V takes x
  int32_t add = pointOf("ascendc.binary", 0);
  auto copies = eventsAt(r, copyX), releases = eventsAt(r, rlsX),
       gets = eventsAt(r, getVx), adds = eventsAt(r, add);
  ASSERT_EQ(copies.size(), 4u); // four tiles of 256
  ASSERT_EQ(gets.size(), 4u);
  ASSERT_EQ(adds.size(), 4u);
  for (size_t t = 0; t < 4; ++t) {
    EXPECT_EQ(releases[t].start, copies[t].end) << "tile " << t;
    EXPECT_EQ(gets[t].end, releases[t].end + uint64_t(a5().bufIdCycles)) << "tile " << t;
    EXPECT_GE(adds[t].start, gets[t].end) << "tile " << t;
    // The get and its release pair up in the trace like a set and a wait.
    EXPECT_EQ(gets[t].flowId, releases[t].flowId);
    EXPECT_NE(gets[t].flowId, 0u);
  }
  // FIFO across iterations: the next tile's load of x waits for this
  // tile's add to release x (single buffer).
  int32_t getMte2x = pointOf("ascendc.get_buf", 0);
  int32_t rlsVx = pointOf("ascendc.rls_buf", 4); // V releases z, y, then x
  auto nextLoads = eventsAt(r, getMte2x), addReleases = eventsAt(r, rlsVx);
  ASSERT_EQ(addReleases.size(), 4u);
  for (size_t t = 0; t + 1 < 4; ++t)
    EXPECT_GE(nextLoads[t + 1].end, addReleases[t].end) << "tile " << t;
}

TEST(SimBufId, RaceDetectorSeesAMissingGet) {
  VaddOptions o;
  o.bufIds = true;
  o.dropGetBufOfVOnX = true;
  o.tile = 256;
  std::vector<float> x(512, 1), y(512, 2), z(512);
  LaunchResult r = simulate(makeVadd(o), a5(), 1,
                            {gmArg(x, DType::F32), gmArg(y, DType::F32),
                             gmArg(z, DType::F32), intArg(512)});
  ASSERT_TRUE(r.ok) << r.error;
  // The add's read of x is still after the load of x: V takes y, which MTE2
  // released after loading x. What nothing orders any more is the next
  // tile's load into x after that read (WAR).
  ASSERT_EQ(r.races.size(), 1u);
  const Race &race = r.races[0];
  EXPECT_EQ(race.firstPipe, Pipe::V);
  EXPECT_FALSE(race.firstWrite);
  EXPECT_EQ(race.secondPipe, Pipe::MTE2);
  EXPECT_TRUE(race.secondWrite);
  EXPECT_EQ(race.lo, 0);
  EXPECT_EQ(race.hi, 1024); // x
  // With the get, the same program is race-free.
  o.dropGetBufOfVOnX = false;
  r = simulate(makeVadd(o), a5(), 1,
               {gmArg(x, DType::F32), gmArg(y, DType::F32), gmArg(z, DType::F32),
                intArg(512)});
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(r.races.empty());
}

/// get_buf on `first`, then `second` (another pipe or the same), with no
/// release between.
Program interleaved(Pipe first, Pipe second, bool release) {
  ProgramBuilder b;
  b.program.kernelName = "interleaved";
  b.getBuf(first, 4, 10);
  if (release)
    b.rlsBuf(first, 4, 11);
  b.getBuf(second, 4, 12);
  b.rlsBuf(second, 4, 13);
  b.end();
  return b.program;
}

TEST(SimBufId, InterleavedPairsAreADeadlockError) {
  LaunchResult r = simulate(interleaved(Pipe::MTE2, Pipe::V, false), a5(), 1, {});
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error,
            "deadlock in ascendc.get_buf (V) at kernel.py:12:5: buffer id 4 is "
            "still held by MTE2 (get_buf at kernel.py:10:5) with no rls_buf "
            "before this get_buf in program order: get/rls pairs of one id may "
            "not interleave (Ascend C Mutex) on core 0");
  r = simulate(interleaved(Pipe::V, Pipe::V, false), a5(), 1, {});
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("the pipe would wait for itself"), std::string::npos)
      << r.error;
  r = simulate(interleaved(Pipe::MTE2, Pipe::V, true), a5(), 1, {});
  EXPECT_TRUE(r.ok) << r.error;
}

TEST(SimBufId, AnIdNeverReleasedIsADeadlockError) {
  ProgramBuilder b;
  b.program.kernelName = "leak";
  b.getBuf(Pipe::MTE3, 2, 10);
  b.end();
  LaunchResult r = simulate(b.program, a5(), 1, {});
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("deadlock in ascendc.get_buf (MTE3) at kernel.py:10:5: "
                         "buffer id taken and never released"),
            std::string::npos)
      << r.error;
}

TEST(SimBufId, ReleaseWithoutGetIsAnError) {
  ProgramBuilder b;
  b.program.kernelName = "stray";
  b.rlsBuf(Pipe::V, 1, 10);
  b.end();
  LaunchResult r = simulate(b.program, a5(), 1, {});
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("rls_buf without get_buf"), std::string::npos) << r.error;
}

TEST(SimBufId, FlagTargetsAndOutOfRangeIdsAreRejected) {
  LaunchResult r =
      simulate(interleaved(Pipe::MTE2, Pipe::V, true), loadArch("Ascend910B1"), 1, {});
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("Ascend910B1 has no buffer ids"), std::string::npos) << r.error;
  ProgramBuilder b;
  b.program.kernelName = "range";
  b.getBuf(Pipe::V, 28, 10);
  b.rlsBuf(Pipe::V, 28, 11);
  b.end();
  r = simulate(b.program, a5(), 1, {});
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("buffer id 28 out of range (28 ids)"), std::string::npos) << r.error;
}

} // namespace
