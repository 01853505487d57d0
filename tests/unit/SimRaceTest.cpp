//===- SimRaceTest.cpp - Race detector and flag misuse --------------------===//

#include "SimTestUtil.h"

using namespace asc2::sim;
using namespace asc2::sim::test;

namespace {

LaunchResult runVadd(const VaddOptions &o, int64_t n, int blocks = 2) {
  static ArchModel arch = loadArch();
  std::vector<float> x(n, 1), y(n, 2), z(n);
  return simulate(makeVadd(o), arch, blocks,
                  {gmArg(x, DType::F32), gmArg(y, DType::F32),
                   gmArg(z, DType::F32), intArg(n)});
}

TEST(SimRace, CorrectlySyncedProgramsAreRaceFree) {
  for (bool twin : {false, true}) {
    for (DType t : {DType::F32, DType::F16}) {
      VaddOptions o;
      o.doubleBuffer = twin;
      o.dtype = t;
      o.tile = 512;
      std::vector<uint8_t> x(40000), y(40000), z(40000);
      int64_t n = int64_t(x.size()) / byteWidth(t);
      LaunchResult r = simulate(
          makeVadd(o), loadArch(), 4,
          {{ArgSpec::Kind::Gm, x.data(), int64_t(x.size()), t},
           {ArgSpec::Kind::Gm, y.data(), int64_t(y.size()), t},
           {ArgSpec::Kind::Gm, z.data(), int64_t(z.size()), t},
           intArg(n)});
      ASSERT_TRUE(r.ok) << r.error;
      EXPECT_TRUE(r.races.empty()) << r.races[0].message;
    }
  }
}

TEST(SimRace, MissingWaitBeforeComputeIsARace) {
  VaddOptions o;
  o.dropWaitMte2ToV = true;
  LaunchResult r = runVadd(o, 2 * 1000); // one tile per core
  // The set whose wait was dropped is still pending when the kernel ends.
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("flag left set at the end of the kernel"),
            std::string::npos)
      << r.error;
  ASSERT_FALSE(r.races.empty());
  const Race &race = r.races[0];
  EXPECT_EQ(race.space, Space::UB);
  EXPECT_EQ(race.firstPipe, Pipe::MTE2);
  EXPECT_TRUE(race.firstWrite);
  EXPECT_EQ(race.secondPipe, Pipe::V);
  EXPECT_FALSE(race.secondWrite);
  EXPECT_EQ(race.lo, 0);
  EXPECT_EQ(race.hi, 4000); // 1000 floats of x
  EXPECT_EQ(race.message,
            "data race on UB bytes [0, 4000) on core 0: ascendc.data_copy "
            "(MTE2, write) at kernel.py:10:5 and ascendc.binary (V, read) at "
            "kernel.py:12:5 are not ordered by set_flag/wait_flag, "
            "get_buf/rls_buf or pipe_barrier");
  // Both inputs race; each pair is reported once, not once per core.
  EXPECT_EQ(r.races.size(), 2u);
}

TEST(SimRace, MissingWaitBeforeStoreIsARace) {
  VaddOptions o;
  o.dropWaitVToMte3 = true;
  LaunchResult r = runVadd(o, 1000, 1);
  // The race is found at the store. Without the wait, MTE3 also finishes and
  // sets MTE3->V again before V consumed the pre-loop set: on hardware the
  // flag is set twice and the final wait hangs.
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("set_flag(MTE3->V, event 0) fires at cycle"),
            std::string::npos)
      << r.error;
  ASSERT_EQ(r.races.size(), 1u);
  EXPECT_EQ(r.races[0].firstPipe, Pipe::V);
  EXPECT_EQ(r.races[0].secondPipe, Pipe::MTE3);
  EXPECT_EQ(r.races[0].space, Space::UB);
}

TEST(SimRace, MissingWaitInALoopAlsoTripsTheBinaryFlag) {
  VaddOptions o;
  o.dropWaitMte2ToV = true;
  LaunchResult r = runVadd(o, 5000, 1); // 5 tiles
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("set_flag(MTE2->V, event 0) twice without wait "
                         "(undefined behaviour on hardware) in "
                         "ascendc.set_flag (MTE2) at kernel.py:20:5"),
            std::string::npos)
      << r.error;
  EXPECT_FALSE(r.races.empty()); // found before the second set
}

TEST(SimRace, WarHazardNeedsTheReverseFlag) {
  // V reads a buffer, then MTE2 overwrites it with no V->MTE2 flag.
  ArchModel arch = loadArch();
  ProgramBuilder b;
  b.program.args = {{ArgSpec::Kind::Gm, DType::F32, "x"}};
  auto I = Operand::ofImm;
  b.copyIn(0, DType::F32, I(0), I(64), 0, 10);
  b.set(Pipe::MTE2, Pipe::V, 0);
  b.wait(Pipe::MTE2, Pipe::V, 0);
  b.vec(VecOp::Exp, DType::F32, 1024, 0, 0, I(64), 11);
  b.copyIn(0, DType::F32, I(0), I(64), 0, 12);
  b.end();
  std::vector<float> x(64);
  LaunchResult r = simulate(b.program, arch, 1, {gmArg(x, DType::F32)});
  ASSERT_TRUE(r.ok) << r.error;
  ASSERT_EQ(r.races.size(), 1u);
  EXPECT_EQ(r.races[0].firstPipe, Pipe::V);
  EXPECT_FALSE(r.races[0].firstWrite);
  EXPECT_TRUE(r.races[0].secondWrite);
  EXPECT_EQ(r.races[0].hi, 256);

  // A wait on the scalar unit orders everything the scalar unit issues later.
  ProgramBuilder fixed;
  fixed.program = b.program;
  fixed.program.code.pop_back(); // End
  fixed.program.code.pop_back(); // second copy
  fixed.set(Pipe::V, Pipe::S, 0);
  fixed.wait(Pipe::V, Pipe::S, 0);
  fixed.copyIn(0, DType::F32, I(0), I(64), 0, 12);
  fixed.end();
  r = simulate(fixed.program, arch, 1, {gmArg(x, DType::F32)});
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(r.races.empty()) << r.races[0].message;
}

TEST(SimRace, WaitWithoutSetWouldHang) {
  ArchModel arch = loadArch();
  ProgramBuilder b;
  b.wait(Pipe::MTE2, Pipe::V, 3, 17);
  b.end();
  LaunchResult r = simulate(b.program, arch, 1, {});
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error, "wait_flag(MTE2->V, event 3) would hang: no set_flag "
                     "pending in ascendc.wait_flag (V) at kernel.py:17:5 on "
                     "core 0");
}

TEST(SimRace, EventIdOutOfRangeIsRejected) {
  ArchModel arch = loadArch();
  ProgramBuilder b;
  b.set(Pipe::MTE2, Pipe::V, 8);
  b.end();
  LaunchResult r = simulate(b.program, arch, 1, {});
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("event id 8 out of range"), std::string::npos)
      << r.error;
}

TEST(SimRace, SetFiringBeforeThePreviousWaitIsCaught) {
  // S->V twice with a wait in between in program order, but V is busy so
  // the first wait has not consumed the flag when the second set fires.
  ArchModel arch = loadArch();
  ProgramBuilder b;
  b.dup(DType::F32, 0, 1.0, Operand::ofImm(16384), 10); // keeps V busy
  b.set(Pipe::S, Pipe::V, 0);
  b.wait(Pipe::S, Pipe::V, 0);
  b.set(Pipe::S, Pipe::V, 0);
  b.wait(Pipe::S, Pipe::V, 0);
  b.end();
  LaunchResult r = simulate(b.program, arch, 1, {});
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("before the previous wait_flag consumed the flag"),
            std::string::npos)
      << r.error;
}

TEST(SimRace, DetectorCanBeTurnedOff) {
  VaddOptions o;
  o.dropWaitMte2ToV = true;
  ArchModel arch = loadArch();
  std::vector<float> x(100), y(100), z(100);
  SimOptions opts;
  opts.detectRaces = false;
  LaunchResult r = simulate(makeVadd(o), arch, 1,
                            {gmArg(x, DType::F32), gmArg(y, DType::F32),
                             gmArg(z, DType::F32), intArg(100)},
                            opts);
  // The leaked flag is still an error; the missing order is not looked for.
  EXPECT_NE(r.error.find("flag left set"), std::string::npos) << r.error;
  EXPECT_TRUE(r.races.empty());
}

TEST(SimRace, ScalarReadOfVectorResultNeedsVToSFlag) {
  ArchModel arch = loadArch();
  for (bool synced : {false, true}) {
    ProgramBuilder b;
    b.dup(DType::F32, 0, 2.0, Operand::ofImm(64), 10);
    if (synced) {
      b.set(Pipe::V, Pipe::S, 0);
      b.wait(Pipe::V, Pipe::S, 0);
    }
    b.loadLocal(DType::F32, 0, Operand::ofImm(5), 11);
    b.end();
    LaunchResult r = simulate(b.program, arch, 1, {});
    ASSERT_TRUE(r.ok) << r.error;
    if (synced) {
      EXPECT_TRUE(r.races.empty()) << r.races[0].message;
      continue;
    }
    ASSERT_EQ(r.races.size(), 1u);
    const Race &race = r.races[0];
    EXPECT_EQ(race.firstPipe, Pipe::V);
    EXPECT_TRUE(race.firstWrite);
    EXPECT_EQ(race.secondPipe, Pipe::S);
    EXPECT_FALSE(race.secondWrite);
    EXPECT_EQ(race.message,
              "data race on UB bytes [0, 32) on core 0: ascendc.duplicate (V, "
              "write) at kernel.py:10:5 and ascendc.get_value (S, read) at "
              "kernel.py:11:5 are not ordered by set_flag/wait_flag, "
              "get_buf/rls_buf or pipe_barrier");
  }
}

TEST(SimRace, VectorReadOfScalarStoreNeedsSToVFlag) {
  // Issue order alone does not order a scalar store before later vector or
  // MTE work (Ascend C sets S->V after SetValue); a scalar load does
  // complete before the scalar unit issues the next instruction.
  ArchModel arch = loadArch();
  for (bool synced : {false, true}) {
    ProgramBuilder b;
    b.program.args = {{ArgSpec::Kind::Gm, DType::F32, "out"}};
    b.storeLocal(DType::F32, 0, Operand::ofImm(1), -1, 3.0, 10);
    if (synced) {
      b.set(Pipe::S, Pipe::V, 0);
      b.wait(Pipe::S, Pipe::V, 0);
    }
    b.vec(VecOp::Abs, DType::F32, 64, 0, 0, Operand::ofImm(8), 11);
    int v = b.loadLocal(DType::F32, 0, Operand::ofImm(1), 12);
    b.storeLocal(DType::F32, 128, Operand::ofImm(0), v, 0, 13);
    b.set(Pipe::S, Pipe::MTE3, 0);
    b.wait(Pipe::S, Pipe::MTE3, 0);
    b.copyOut(0, DType::F32, Operand::ofImm(0), Operand::ofImm(1), 128, 14);
    b.end();
    std::vector<float> out(1);
    LaunchResult r = simulate(b.program, arch, 1, {gmArg(out, DType::F32)});
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(out[0], 3.f);
    if (synced) {
      EXPECT_TRUE(r.races.empty()) << r.races[0].message;
      continue;
    }
    ASSERT_EQ(r.races.size(), 1u);
    EXPECT_EQ(r.races[0].firstPipe, Pipe::S);
    EXPECT_TRUE(r.races[0].firstWrite);
    EXPECT_EQ(r.races[0].secondPipe, Pipe::V);
    EXPECT_EQ(r.races[0].secondPoint, 1);
  }
}

TEST(SimRace, ScalarStoreThenCopyOutNeedsSToMte3Flag) {
  ArchModel arch = loadArch();
  ProgramBuilder b;
  b.program.args = {{ArgSpec::Kind::Gm, DType::I32, "out"}};
  b.storeLocal(DType::I32, 0, Operand::ofImm(0), -1, 42, 10);
  b.copyOut(0, DType::I32, Operand::ofImm(0), Operand::ofImm(1), 0, 11);
  b.end();
  std::vector<int32_t> out(1);
  LaunchResult r = simulate(b.program, arch, 1, {gmArg(out, DType::I32)});
  ASSERT_TRUE(r.ok) << r.error;
  ASSERT_EQ(r.races.size(), 1u);
  EXPECT_EQ(r.races[0].firstPipe, Pipe::S);
  EXPECT_EQ(r.races[0].secondPipe, Pipe::MTE3);
}

TEST(SimRace, Copy2dRowsAreTrackedSeparately) {
  // A 2-D copy without padding writes only its rows: V may work on the gaps
  // meanwhile. Padding writes the whole tile, which then races.
  ArchModel arch = loadArch();
  for (bool pad : {false, true}) {
    ProgramBuilder b;
    b.program.args = {{ArgSpec::Kind::Gm, DType::F32, "m"}};
    // Rows of 8 floats (32 bytes) 16 apart: the gaps are whole granules.
    b.copyIn2d(0, DType::F32, Operand::ofImm(0), Operand::ofImm(4),
               Operand::ofImm(8), Operand::ofImm(8), 0, 16, 4, pad, 0, 10);
    b.dup(DType::F32, 32, 1.0, Operand::ofImm(8), 11); // the gap of row 0
    b.set(Pipe::MTE2, Pipe::V, 0);
    b.wait(Pipe::MTE2, Pipe::V, 0);
    b.end();
    std::vector<float> m(32, 1);
    LaunchResult r = simulate(b.program, arch, 1, {gmArg(m, DType::F32)});
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.races.size(), pad ? 1u : 0u) << (pad ? "" : r.races[0].message);
  }
}

// GM within a block: MTE2 reads x (into UB 0), MTE3 writes x (from UB 512),
// unordered unless an MTE2 -> MTE3 flag sits between them: a write-after-read
// race on x's bytes. The read is the buffer's first access and comes before
// any write to it, so this also checks that reads of a not-yet-written buffer
// (kept aside until its first write, RaceDetector::GmShadow::unwritten) still
// count. A second buffer only read (y) never races; reading x again after the
// write without MTE3 -> MTE2 is a read-after-write race.
TEST(SimRace, GmReadThenWriteInOneBlockNeedsAFlag) {
  ArchModel arch = loadArch();
  for (int variant = 0; variant < 3; ++variant) {
    const bool ordered = variant == 1, readBack = variant == 2;
    ProgramBuilder b;
    b.program.args = {{ArgSpec::Kind::Gm, DType::F32, "x"}, {ArgSpec::Kind::Gm, DType::F32, "y"}};
    b.copyIn(1, DType::F32, Operand::ofImm(0), Operand::ofImm(64), 1024, 9);
    b.copyIn(0, DType::F32, Operand::ofImm(0), Operand::ofImm(64), 0, 10);
    if (ordered || readBack) {
      b.set(Pipe::MTE2, Pipe::MTE3, 0);
      b.wait(Pipe::MTE2, Pipe::MTE3, 0);
    }
    b.copyOut(0, DType::F32, Operand::ofImm(0), Operand::ofImm(64), 512, 11);
    if (readBack)
      b.copyIn(0, DType::F32, Operand::ofImm(32), Operand::ofImm(16), 2048, 12);
    b.end();
    std::vector<float> x(64, 1), y(64, 2);
    LaunchResult r = simulate(b.program, arch, 1, {gmArg(x, DType::F32), gmArg(y, DType::F32)});
    ASSERT_TRUE(r.ok) << r.error;
    SCOPED_TRACE(variant);
    if (ordered) {
      EXPECT_TRUE(r.races.empty()) << r.races[0].message;
      continue;
    }
    ASSERT_EQ(r.races.size(), 1u);
    const Race &race = r.races[0];
    EXPECT_EQ(race.firstPipe, readBack ? Pipe::MTE3 : Pipe::MTE2);
    EXPECT_EQ(race.secondPipe, readBack ? Pipe::MTE2 : Pipe::MTE3);
    EXPECT_EQ(race.firstWrite, readBack);
    EXPECT_NE(race.message.find(readBack ? "GM bytes [128, 192) of x" : "GM bytes [0, 256) of x"),
              std::string::npos)
        << race.message;
  }
}

// An int64 scalar access covers 8 bytes at index * 8 (the scalar combine of
// int64 reductions, Reduce.cpp): element 3 is bytes [24, 32), inside the
// block a vector Duplicate of 8 int32 wrote, element 4 is [32, 40), outside
// it; and a synced read returns both 32-bit halves.
TEST(SimRace, EightByteScalarReadsCoverTheirBytes) {
  ArchModel arch = loadArch();
  for (int64_t index : {3, 4}) {
    for (bool synced : {false, true}) {
      ProgramBuilder b;
      b.dup(DType::I32, 0, 7.0, Operand::ofImm(8), 10); // UB bytes [0, 32)
      if (synced) {
        b.set(Pipe::V, Pipe::S, 0);
        b.wait(Pipe::V, Pipe::S, 0);
      }
      int r = b.loadLocal(DType::I64, 0, Operand::ofImm(index), 11);
      b.storeGm(0, DType::I64, Operand::ofImm(0), r, 0, 12);
      b.end();
      b.program.args.push_back({ArgSpec::Kind::Gm, DType::I64, "out"});
      std::vector<int64_t> out(1, -1);
      LaunchResult res = simulate(b.program, arch, 1, {gmArg(out, DType::I64)});
      ASSERT_TRUE(res.ok) << res.error;
      bool race = index == 3 && !synced;
      ASSERT_EQ(res.races.size(), race ? 1u : 0u) << index << (synced ? " synced" : "");
      if (race)
        EXPECT_NE(res.races[0].message.find("UB bytes [0, 32)"), std::string::npos)
            << res.races[0].message;
      if (index == 3 && synced)
        EXPECT_EQ(out[0], (int64_t(7) << 32) | 7);
    }
  }
}

} // namespace
