//===- SimTimingTest.cpp - Cycle model of pipes, flags and bandwidth ------===//

#include "SimTestUtil.h"

#include <cmath>
#include <functional>

using namespace asc2::sim;
using namespace asc2::sim::test;

namespace {

/// copy in 1024 f32 -> add -> copy out, fully serialised by flags.
Program serialChain() {
  ProgramBuilder b;
  b.program.args = {{ArgSpec::Kind::Gm, DType::F32, "x"},
                    {ArgSpec::Kind::Gm, DType::F32, "z"}};
  auto I = Operand::ofImm;
  b.copyIn(0, DType::F32, I(0), I(1024), 0, 10);
  b.set(Pipe::MTE2, Pipe::V, 0);
  b.wait(Pipe::MTE2, Pipe::V, 0);
  b.vec(VecOp::Add, DType::F32, 4096, 0, 0, I(1024), 11);
  b.set(Pipe::V, Pipe::MTE3, 0);
  b.wait(Pipe::V, Pipe::MTE3, 0);
  b.copyOut(1, DType::F32, I(0), I(1024), 4096, 12);
  b.end();
  return b.program;
}

TEST(SimTiming, SerialChainMatchesHandComputedCycles) {
  ArchModel arch = loadArchWithoutLaunchCosts("Ascend910B1");
  std::vector<float> x(1024, 1), z(1024);
  LaunchResult r = simulate(serialChain(), arch, 1,
                            {gmArg(x, DType::F32), gmArg(z, DType::F32)});
  ASSERT_TRUE(r.ok) << r.error;
  // Ascend910B1: GM->UB 220.06 GB/s and UB->GM 186.8 GB/s at 1850 MHz; a
  // copy holds MTE2/MTE3 for its bytes / bandwidth and completes the GM
  // read / write latency later; vadd = 24 + 2.11 per 256-byte repeat.
  uint64_t copyIn = copyOccupancy(arch, 4096, 220.06e9 / 1850e6) +
                    uint64_t(arch.gmReadLatencyCycles);
  uint64_t add = uint64_t(std::ceil(24 + 2.11 * 16));
  uint64_t copyOut = copyOccupancy(arch, 4096, 186.8e9 / 1850e6) +
                     uint64_t(arch.gmWriteLatencyCycles);
  EXPECT_EQ(copyIn, 35u + uint64_t(arch.gmReadLatencyCycles));
  EXPECT_EQ(add, 58u);
  EXPECT_EQ(copyOut, 41u + uint64_t(arch.gmWriteLatencyCycles));
  const CoreStats &c = r.cores[0];
  EXPECT_EQ(c.busy[int(Pipe::MTE2)], copyIn);
  EXPECT_EQ(c.busy[int(Pipe::V)], add);
  EXPECT_EQ(c.busy[int(Pipe::MTE3)], copyOut);
  // Each hop costs the set (1 cycle to fire) and the wait (1 cycle).
  EXPECT_EQ(r.totalCycles, copyIn + 2 + add + 2 + copyOut);
  EXPECT_DOUBLE_EQ(r.timeUs, double(r.totalCycles) / 1850.0);
}

TEST(SimTiming, DoubleBufferingOverlapsPipes) {
  ArchModel arch = loadArch();
  // One copy in flight per queue: the double-buffered loop is then MTE2-bound (checked last);
  // Ascend910B1.json keeps two, whose loads also overlap each other (checked after that).
  const int outstanding = arch.mteOutstanding;
  arch.mteOutstanding = 1;
  const int64_t n = 64 * 1024;
  std::vector<float> x(n, 1), y(n, 2), z(n);
  auto run = [&](bool doubleBuffer) {
    VaddOptions o;
    o.tile = 4096;
    o.doubleBuffer = doubleBuffer;
    return simulate(makeVadd(o), arch, 1,
                    {gmArg(x, DType::F32), gmArg(y, DType::F32),
                     gmArg(z, DType::F32), intArg(n)});
  };
  LaunchResult single = run(false), twin = run(true);
  ASSERT_TRUE(single.ok) << single.error;
  ASSERT_TRUE(twin.ok) << twin.error;
  EXPECT_TRUE(twin.races.empty()) << twin.races[0].message;
  const CoreStats &c = twin.cores[0];
  uint64_t busySum =
      c.busy[int(Pipe::MTE2)] + c.busy[int(Pipe::V)] + c.busy[int(Pipe::MTE3)];
  EXPECT_LT(twin.totalCycles, busySum);
  EXPECT_LT(twin.totalCycles, single.totalCycles);
  // The same work is done either way (busy differs: more copies are in
  // flight at once).
  EXPECT_EQ(c.bytes[int(Pipe::MTE2)], single.cores[0].bytes[int(Pipe::MTE2)]);
  EXPECT_LE(c.busy[int(Pipe::MTE2)], single.cores[0].busy[int(Pipe::MTE2)]);
  // Double buffering is MTE2-bound: total within 20% of MTE2 busy time.
  EXPECT_LT(double(twin.totalCycles), 1.2 * double(c.busy[int(Pipe::MTE2)]));
  // With the platform's copies in flight the x and y loads of a tile overlap: faster again.
  ASSERT_GE(outstanding, 2);
  arch.mteOutstanding = outstanding;
  LaunchResult twoInFlight = run(true);
  ASSERT_TRUE(twoInFlight.ok) << twoInFlight.error;
  EXPECT_LT(twoInFlight.totalCycles, twin.totalCycles);
}

TEST(SimTiming, HbmBandwidthIsShared) {
  ArchModel arch = loadArch();
  const int64_t perCore = 8192;
  auto launch = [&](int blocks) {
    int64_t n = perCore * blocks;
    std::vector<float> x(n, 1), y(n, 2), z(n);
    VaddOptions o;
    o.doubleBuffer = true;
    LaunchResult r = simulate(makeVadd(o), arch, blocks,
                              {gmArg(x, DType::F32), gmArg(y, DType::F32),
                               gmArg(z, DType::F32), intArg(n)});
    EXPECT_TRUE(r.ok) << r.error;
    return r;
  };
  LaunchResult alone = launch(1), full = launch(48);
  // Alone, a core streams at its own port bandwidth; 48 cores reading
  // distinct data at once exceed HBM and share it (MemorySystem.cpp), so
  // the launch takes at least the HBM time of the bytes read.
  EXPECT_EQ(alone.hbmBytes, uint64_t(2 * perCore * 4));
  EXPECT_GT(full.cores[0].busy[int(Pipe::MTE2)],
            alone.cores[0].busy[int(Pipe::MTE2)]);
  EXPECT_GE(double(full.totalCycles),
            double(48 * 2 * perCore * 4) / arch.hbmBytesPerCycle);
  EXPECT_GT(full.totalCycles, alone.totalCycles);
}

TEST(SimTiming, BlocksBeyondPhysicalCoresRunInWaves) {
  ArchModel arch = loadArchWithoutLaunchCosts("Ascend910B3"); // 40 AIV cores
  // HBM and L2 out of the way: only the waves are measured.
  arch.hbmBytesPerCycle = arch.l2BytesPerCycle = 1e12;
  const int64_t n = 80 * 2048;
  std::vector<float> x(n, 1), y(n, 2), z(n);
  LaunchResult r = simulate(makeVadd({}), arch, 80,
                            {gmArg(x, DType::F32), gmArg(y, DType::F32),
                             gmArg(z, DType::F32), intArg(n)});
  ASSERT_TRUE(r.ok) << r.error;
  uint64_t one = r.cores[0].cycles;
  EXPECT_EQ(r.cores[0].start, 0u);
  EXPECT_EQ(r.cores[40].start, one);
  EXPECT_EQ(r.totalCycles, 2 * one);
  for (float v : z)
    ASSERT_EQ(v, 3.0f);
}

/// Huawei's DataCopy best-practice sample, scenario 1, on silicon
/// (cannmirror/asc-devkit@0da921b:examples/01_simd_cpp_api/05_best_practices/
/// 04_memory_access/data_copy/README.md): every vector core copies its rows of
/// a [12288, 12288] half matrix into one UB buffer 64 elements (128 B) at a
/// time, nothing waiting on the copies. aiv_mte2_time is 548.161 us for 49,152
/// copies per core on 48 cores of an Atlas A2 (1.85 GHz), 881.13 us for 36,864
/// per core on 64 cores of an Ascend 950PR (1.65 GHz): one copy per 20.6 and
/// 39.4 cycles, where 128 B take ~1 cycle of port time and a read's latency is
/// hundreds of cycles, so many copies are in flight and each takes the DMA's
/// per-request interval. The same stream, a sixteenth of the rows, here.
TEST(SimTiming, SmallCopiesStreamAtTheSiliconRequestRate) {
  struct Case {
    const char *platform;
    int blocks;
    int64_t rowsPerBlock;
    double publishedUs, publishedCopiesPerBlock, clockMHz;
  };
  for (const Case &c : {Case{"Ascend910B1", 48, 256 / 16, 548.161, 49152, 1850},
                        Case{"Ascend950PR_958b", 64, 192 / 16, 881.13, 36864, 1650}}) {
    SCOPED_TRACE(c.platform);
    ArchModel arch = loadArchWithoutLaunchCosts(c.platform);
    const int64_t n = 12288, tile = 64, tilesPerRow = n / tile;
    ProgramBuilder b;
    b.program.args = {{ArgSpec::Kind::Gm, DType::F16, "x"}};
    auto R = Operand::ofReg;
    auto I = Operand::ofImm;
    int blk = b.special(Opcode::BlockIdx);
    int off = b.scalar(ScalarOp::Mul, R(blk), I(c.rowsPerBlock * n));
    for (int64_t i = 0; i < c.rowsPerBlock * tilesPerRow; ++i) {
      b.copyIn(0, DType::F16, R(off), I(tile), 0, 10);
      b.scalar(ScalarOp::Add, R(off), I(tile), off);
    }
    b.end();
    std::vector<uint16_t> x(size_t(c.blocks * c.rowsPerBlock * n));
    LaunchResult r = simulate(b.program, arch, c.blocks, {gmArg(x, DType::F16)});
    ASSERT_TRUE(r.ok) << r.error;
    const double copies = double(c.rowsPerBlock * tilesPerRow);
    const double perCopy = double(r.totalCycles) / copies;
    const double published = c.publishedUs * c.clockMHz / c.publishedCopiesPerBlock;
    EXPECT_NEAR(perCopy / published, 1.0, 0.1) << perCopy << " cycles per copy, silicon " << published;
    // The request interval, not the latency, paces the stream: far more
    // copies than one are in flight.
    EXPECT_LT(perCopy * 4, arch.gmReadLatencyCycles);
  }
}

TEST(SimTiming, FullQueueStallsTheScalarUnit) {
  ArchModel arch = loadArchWithoutLaunchCosts();
  ASSERT_EQ(arch.pipeQueueDepth, 32);
  // Without latency the copies follow each other at their occupancy.
  arch.gmReadLatencyCycles = 0;
  const uint64_t occ = copyOccupancy(arch, 4096, arch.gmToUbBytesPerCycle);
  ASSERT_EQ(occ, 35u);
  ProgramBuilder b;
  b.program.args = {{ArgSpec::Kind::Gm, DType::F32, "x"}};
  for (int i = 0; i < 40; ++i)
    b.copyIn(0, DType::F32, Operand::ofImm(0), Operand::ofImm(1024), 0, 10);
  b.constI(1); // issued only once copy #7 has left the queue
  b.end();
  std::vector<float> x(1024);
  LaunchResult r = simulate(b.program, arch, 1, {gmArg(x, DType::F32)});
  ASSERT_TRUE(r.ok) << r.error;
  std::vector<uint64_t> copyStarts;
  uint64_t scalarStart = 0;
  for (const TraceEvent &e : r.trace) {
    if (e.op == Opcode::CopyGmToLocal)
      copyStarts.push_back(e.start);
    if (e.op == Opcode::ConstI)
      scalarStart = e.start;
  }
  ASSERT_EQ(copyStarts.size(), 40u);
  EXPECT_EQ(copyStarts[7], 7u * occ);
  // Copy #39 needs a free slot, i.e. copy #7 started; the next scalar
  // instruction follows it.
  EXPECT_EQ(scalarStart, copyStarts[7] + 1);
  EXPECT_EQ(r.totalCycles, 40u * occ);
}

TEST(SimTiming, PipeAllBarrierWaitsForEveryPipe) {
  ArchModel arch = loadArch();
  ProgramBuilder b;
  b.program.args = {{ArgSpec::Kind::Gm, DType::F32, "x"}};
  b.copyIn(0, DType::F32, Operand::ofImm(0), Operand::ofImm(1024), 0, 10);
  Instr barrier;
  barrier.op = Opcode::PipeBarrier;
  barrier.allPipes = true;
  b.emit(barrier, "ascendc.pipe_barrier", 11);
  b.dup(DType::F32, 0, 1.0, Operand::ofImm(64), 12);
  b.end();
  std::vector<float> x(1024);
  LaunchResult r = simulate(b.program, arch, 1, {gmArg(x, DType::F32)});
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(r.races.empty()) << r.races[0].message;
  uint64_t dupStart = 0;
  for (const TraceEvent &e : r.trace)
    if (e.op == Opcode::VecDup)
      dupStart = e.start;
  EXPECT_GE(dupStart, 249u);
}

TEST(SimTiming, NewVectorInstructionsCostFromTheArchModel) {
  // Ascend910B1 (shared/reference §1.6): vconv 2*r+32, compare/select like
  // vmax 2.01*r+23, vcadd 7*r+46 per source repeat, brcb/copy 1*r+26 per
  // destination repeat, vadds 1*r+31, vdiv 4.03*r+31.
  ArchModel arch = loadArch("Ascend910B1");
  auto I = Operand::ofImm;
  struct Case {
    std::function<void(ProgramBuilder &)> emit;
    uint64_t cycles;
  };
  std::vector<Case> cases = {
      {[&](ProgramBuilder &b) { // 1024 x max(4, 2) bytes = 16 repeats
         b.cast(DType::F16, DType::F32, RoundMode::Rint, 8192, 0, I(1024), 10);
       },
       32 + 2 * 16},
      {[&](ProgramBuilder &b) {
         b.compare(CmpMode::LT, DType::F32, 8192, 0, 4096, I(1024), 10);
       },
       uint64_t(std::ceil(23 + 2.01 * 16))},
      {[&](ProgramBuilder &b) { // 1000 int16: ceil(2000 / 256) = 8 repeats
         b.select(DType::I16, 8192, 12288, 0, 4096, I(1000), 10);
       },
       uint64_t(std::ceil(23 + 2.01 * 8))},
      {[&](ProgramBuilder &b) { // WholeReduceSum, repeatTime 16
         b.wholeReduce(ReduceKind::Sum, DType::F32, 8192, 0, 64, 16, 1, 1, 8, 10);
       },
       46 + 7 * 16},
      {[&](ProgramBuilder &b) { // level-0 Max: 16 repeats, however few lanes
         b.binaryRepeat(VecOp::Max, DType::F32, 8192, 0, 256, 8, 16,
                        {1, 1, 1, 8, 8, 8}, 10);
       },
       uint64_t(std::ceil(23 + 2.01 * 16))},
      {[&](ProgramBuilder &b) { // Copy: one repeat per row, 16 repeats
         b.copy(DType::F32, 8192, 0, 64, 16, 1, 1, 8, 0, 10);
       },
       26 + 16},
      {[&](ProgramBuilder &b) { // Brcb: 3 repeats (24 values to 24 blocks)
         b.brcb(DType::F32, 8192, 0, 3, 1, 8, 10);
       },
       26 + 3},
      {[&](ProgramBuilder &b) {
         b.vecScalar(VecOp::Add, DType::F32, 8192, 0, 1.0, I(1024), 10);
       },
       31 + 16},
      {[&](ProgramBuilder &b) { // no vector-scalar fit: the tensor form's
         b.vecScalar(VecOp::Div, DType::F32, 8192, 0, 2.0, I(1024), 10);
       },
       uint64_t(std::ceil(31 + 4.03 * 16))},
  };
  for (size_t k = 0; k < cases.size(); ++k) {
    ProgramBuilder b;
    cases[k].emit(b);
    b.end();
    LaunchResult r = simulate(b.program, arch, 1, {});
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.cores[0].busy[int(Pipe::V)], cases[k].cycles) << "case " << k;
  }
}

TEST(SimTiming, ScalarMemoryAccessesHoldTheScalarUnit) {
  // UB access 10 cycles, GM load 200, GM store 50 (Ascend910B1 arch JSON).
  ArchModel arch = loadArchWithoutLaunchCosts("Ascend910B1");
  ProgramBuilder b;
  b.program.args = {{ArgSpec::Kind::Gm, DType::F32, "x"}};
  int v = b.loadGm(0, DType::F32, Operand::ofImm(1), 10);
  b.storeLocal(DType::F32, 0, Operand::ofImm(0), v, 0, 11);
  int w = b.loadLocal(DType::F32, 0, Operand::ofImm(0), 12);
  b.storeGm(0, DType::F32, Operand::ofImm(2), w, 0, 13);
  b.constI(1);
  b.end();
  std::vector<float> x = {0, 5, 0};
  LaunchResult r = simulate(b.program, arch, 1, {gmArg(x, DType::F32)});
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(x[2], 5.f);
  EXPECT_EQ(r.cores[0].busy[int(Pipe::S)], 200u + 10 + 10 + 50 + 1);
  EXPECT_EQ(r.totalCycles, 271u);
}

} // namespace
