//===- SimMemorySystemTest.cpp - DMA latency, launch overheads, L2, HBM ----===//
//
// Each mechanism of the timing model that is not a per-instruction cost: the
// GM read latency overlapped by outstanding copies, the launch / block
// overheads, the chip L2, and HBM bandwidth shared by the copies in flight.
// The arch parameters are set in each test so the expected cycles follow
// from the mechanism alone, not from the calibrated values.
//
//===----------------------------------------------------------------------===//

#include "CoreRunner.h"
#include "SimTestUtil.h"

#include <cmath>

using namespace asc2::sim;
using namespace asc2::sim::test;

namespace {

constexpr int64_t kTile = 1024; // f32 elements per copy: 4 KB

/// Ascend910B1 with round numbers: 128 B/cycle GM <-> UB, read latency 500,
/// write latency 100, no launch overheads, HBM and L2 out of the way.
ArchModel testArch(int outstanding) {
  ArchModel arch = loadArch("Ascend910B1");
  arch.gmToUbBytesPerCycle = 128;
  arch.ubToGmBytesPerCycle = 128;
  arch.mteIssueCycles = 0;
  arch.gmReadLatencyCycles = 500;
  arch.gmWriteLatencyCycles = 100;
  arch.mteOutstanding = outstanding;
  arch.launchCycles = arch.blockStartCycles = arch.blockEndCycles = 0;
  arch.hbmBytesPerCycle = 1e12;
  arch.l2BytesPerCycle = 1e12;
  return arch;
}

/// Each block copies `copies` tiles of x into UB (one buffer, no flags: MTE2
/// is in order), from element `stride * block + k * kTile`: stride 0 makes
/// every block read the same bytes.
Program streamIn(int copies, int64_t stride) {
  ProgramBuilder b;
  b.program.args = {{ArgSpec::Kind::Gm, DType::F32, "x"}};
  auto R = Operand::ofReg;
  auto I = Operand::ofImm;
  int blk = b.special(Opcode::BlockIdx);
  int base = b.scalar(ScalarOp::Mul, R(blk), I(stride));
  for (int k = 0; k < copies; ++k) {
    int off = b.scalar(ScalarOp::Add, R(base), I(k * kTile));
    b.copyIn(0, DType::F32, R(off), I(kTile), 0, 10);
  }
  b.end();
  return b.program;
}

LaunchResult run(const Program &p, const ArchModel &arch, int blocks,
                 std::vector<float> &x, int threads = 0) {
  SimOptions options;
  options.threads = threads;
  return simulate(p, arch, blocks, {gmArg(x, DType::F32)}, options);
}

// 4 KB at 128 B/cycle = 32 cycles of pipe occupancy per copy.
constexpr uint64_t kOcc = 32, kLat = 500;
// The scalar prologue of streamIn: block_idx, mul, then add + copy per tile.
constexpr uint64_t kFirstCopyIssue = 3;

TEST(SimMemorySystem, OutstandingCopiesOverlapTheirLatency) {
  std::vector<float> x(4 * kTile, 1);
  LaunchResult one = run(streamIn(4, 0), testArch(1), 1, x);
  LaunchResult four = run(streamIn(4, 0), testArch(4), 1, x);
  ASSERT_TRUE(one.ok) << one.error;
  ASSERT_TRUE(four.ok) << four.error;
  // One outstanding copy: each waits for the previous one's latency.
  EXPECT_EQ(one.totalCycles, kFirstCopyIssue + 4 * (kOcc + kLat));
  // Four: the occupancies serialise, the latencies overlap.
  EXPECT_EQ(four.totalCycles, kFirstCopyIssue + 4 * kOcc + kLat);
  // MTE2 busy = cycles with a copy in flight.
  EXPECT_EQ(one.cores[0].busy[int(Pipe::MTE2)], 4 * (kOcc + kLat));
  EXPECT_EQ(four.cores[0].busy[int(Pipe::MTE2)], 4 * kOcc + kLat);
  // The trace shows each copy until it completes, its latency marked.
  int copies = 0;
  for (const TraceEvent &e : four.trace)
    if (e.op == Opcode::CopyGmToLocal) {
      EXPECT_EQ(e.end - e.start, kOcc + kLat);
      EXPECT_EQ(e.latency, kLat);
      ++copies;
    }
  EXPECT_EQ(copies, 4);
}

TEST(SimMemorySystem, ARequestWindowCapsACopyByLittlesLaw) {
  // 2 KB of reads in flight over a 500-cycle latency: at most 4 B/cycle, so a
  // 4 KB copy occupies MTE2 for 1024 cycles instead of the port's 32; a
  // window wider than port x latency changes nothing.
  std::vector<float> x(4 * kTile, 1);
  ArchModel narrow = testArch(4);
  narrow.gmReadWindowBytes = 2048;
  EXPECT_DOUBLE_EQ(narrow.gmCopyBytesPerCycle(128, /*write=*/false), 2048.0 / 500);
  LaunchResult r = run(streamIn(4, 0), narrow, 1, x);
  ASSERT_TRUE(r.ok) << r.error;
  const uint64_t occ = 4 * kTile * 500 / 2048;
  EXPECT_EQ(r.totalCycles, kFirstCopyIssue + 4 * occ + kLat);
  ArchModel wide = testArch(4);
  wide.gmReadWindowBytes = 128 * 500 * 2;
  LaunchResult w = run(streamIn(4, 0), wide, 1, x);
  ASSERT_TRUE(w.ok) << w.error;
  EXPECT_EQ(w.totalCycles, kFirstCopyIssue + 4 * kOcc + kLat);
  // The write window uses the write latency.
  ArchModel writes = testArch(1);
  writes.gmWriteWindowBytes = 1000;
  EXPECT_DOUBLE_EQ(writes.gmCopyBytesPerCycle(128, /*write=*/true), 1000.0 / 100);
  EXPECT_DOUBLE_EQ(writes.gmCopyBytesPerCycle(128, /*write=*/false), 128);
}

/// A store of UB [16 KB, 20 KB) to y gated by a V->MTE3 flag set after a
/// `vecElems`-element add, then (later in program order) a load of x into UB 0.
Program storeThenLoad(int64_t vecElems) {
  ProgramBuilder b;
  b.program.args = {{ArgSpec::Kind::Gm, DType::F32, "x"},
                    {ArgSpec::Kind::Gm, DType::F32, "y"}};
  auto I = Operand::ofImm;
  b.vec(VecOp::Add, DType::F32, 16384, 16384, 16384, I(vecElems), 10);
  b.set(Pipe::V, Pipe::MTE3, 0);
  b.wait(Pipe::V, Pipe::MTE3, 0);
  b.copyOut(1, DType::F32, I(0), I(kTile), 16384, 11);
  b.copyIn(0, DType::F32, I(0), I(kTile), 0, 12);
  b.end();
  return b.program;
}

TEST(SimMemorySystem, ASharedPortSerialisesReadsAndWritesInTheOrderTheyCanStart) {
  std::vector<float> x(kTile, 1), y(kTile, 0);
  auto copies = [&](const ArchModel &arch, int64_t vecElems) {
    LaunchResult r = simulate(storeThenLoad(vecElems), arch, 1,
                              {gmArg(x, DType::F32), gmArg(y, DType::F32)},
                              SimOptions{});
    EXPECT_TRUE(r.ok) << r.error;
    std::pair<uint64_t, uint64_t> loadStore{};
    for (const TraceEvent &e : r.trace) {
      if (e.op == Opcode::CopyGmToLocal)
        loadStore.first = e.start;
      if (e.op == Opcode::CopyLocalToGm)
        loadStore.second = e.start;
    }
    return loadStore;
  };
  ArchModel separate = testArch(4);
  ArchModel shared = testArch(4);
  shared.gmPortShared = true;
  // A short add: the store is ready first. Apart, the load starts as soon as
  // it is issued, while the store moves; sharing the port, it waits for the
  // store's transfer.
  auto [load1, store1] = copies(separate, 64);
  auto [load2, store2] = copies(shared, 64);
  EXPECT_EQ(store1, store2);
  EXPECT_LT(load1, store1 + kOcc);
  EXPECT_EQ(load2, store2 + kOcc);
  // A long add holds the store back: the load the scalar unit issued behind
  // it goes through the shared port first and the store is not delayed.
  auto [load3, store3] = copies(separate, 64 * 1024 / 4);
  auto [load4, store4] = copies(shared, 64 * 1024 / 4);
  EXPECT_EQ(load3, load4);
  EXPECT_EQ(store3, store4);
  EXPECT_LT(load4 + kOcc, store4);
}

TEST(SimMemorySystem, ASharedPortBookingTakesTheFirstGapAndForgetsThePast) {
  SharedGmPort port;
  EXPECT_EQ(port.book(true, 100, 50, 0), 100u);  // a store: [100, 150)
  EXPECT_EQ(port.book(false, 0, 60, 0), 0u);     // a load fits before it
  EXPECT_EQ(port.book(false, 60, 60, 0), 150u);  // no room in [60, 100)
  // One load, then a long run of stores (a loop that only writes): the
  // scalar unit's issue time bounds every later booking, so the bookings
  // behind it are dropped though the read queue never starts again. Before
  // the horizon, every booking was kept and each one scanned them all.
  SharedGmPort stores;
  stores.book(false, 0, 10, 0);
  for (uint64_t k = 0; k < 10000; ++k) {
    uint64_t t = 100 + 20 * k;
    EXPECT_EQ(stores.book(true, t, 10, t), t);
  }
  EXPECT_LE(stores.busy.size(), 2u);
}

TEST(SimMemorySystem, AFifthCopyWaitsForTheFirstToComplete) {
  std::vector<float> x(5 * kTile, 1);
  LaunchResult r = run(streamIn(5, 0), testArch(4), 1, x);
  ASSERT_TRUE(r.ok) << r.error;
  std::vector<uint64_t> starts;
  for (const TraceEvent &e : r.trace)
    if (e.op == Opcode::CopyGmToLocal)
      starts.push_back(e.start);
  ASSERT_EQ(starts.size(), 5u);
  EXPECT_EQ(starts[1], starts[0] + kOcc);
  EXPECT_EQ(starts[4], starts[0] + kOcc + kLat); // copy 0 completed
  EXPECT_EQ(r.totalCycles, starts[4] + kOcc + kLat);
}

TEST(SimMemorySystem, SetFlagFiresWhenTheCopyCompletes) {
  ProgramBuilder b;
  b.program.args = {{ArgSpec::Kind::Gm, DType::F32, "x"}};
  auto I = Operand::ofImm;
  b.copyIn(0, DType::F32, I(0), I(kTile), 0, 10);
  b.set(Pipe::MTE2, Pipe::V, 0);
  b.wait(Pipe::MTE2, Pipe::V, 0);
  b.vec(VecOp::Add, DType::F32, 4096, 0, 0, I(kTile), 11);
  b.end();
  std::vector<float> x(kTile, 1);
  LaunchResult r = run(b.program, testArch(4), 1, x);
  ASSERT_TRUE(r.ok) << r.error;
  uint64_t addStart = 0;
  for (const TraceEvent &e : r.trace)
    if (e.op == Opcode::VecBinary)
      addStart = e.start;
  // The copy starts at 0 and completes after its occupancy and latency; the
  // set fires a cycle later and the wait takes one more.
  EXPECT_EQ(addStart, kOcc + kLat + 2);
}

TEST(SimMemorySystem, LaunchOverheadAppearsOnceBlockOverheadsPerBlock) {
  ArchModel arch = testArch(4);
  arch.aivCores = 2;
  std::vector<float> x(4 * kTile, 1);
  const Program p = streamIn(1, kTile);
  LaunchResult bare = run(p, arch, 4, x);
  arch.launchCycles = 1000;
  arch.blockStartCycles = 100;
  arch.blockEndCycles = 10;
  LaunchResult over = run(p, arch, 4, x);
  ASSERT_TRUE(bare.ok) << bare.error;
  ASSERT_TRUE(over.ok) << over.error;
  // Two waves of two blocks: the launch cost once, start and end per block.
  EXPECT_EQ(over.totalCycles, bare.totalCycles + 1000 + 2 * (100 + 10));
  EXPECT_EQ(over.cores[0].start, 1000u);
  EXPECT_EQ(over.cores[2].start, over.cores[0].cycles);
  uint64_t firstCopy = 0;
  for (const TraceEvent &e : over.trace)
    if (e.core == 0 && e.op == Opcode::CopyGmToLocal)
      firstCopy = e.start;
  EXPECT_EQ(firstCopy, 1000u + 100 + kFirstCopyIssue);
}

TEST(SimMemorySystem, ASecondReadOfTheSameBytesHitsL2) {
  ArchModel arch = testArch(4);
  const int blocks = 8;
  std::vector<float> x(size_t(blocks) * 4 * kTile, 1);
  LaunchResult same = run(streamIn(4, 0), arch, blocks, x);
  LaunchResult distinct = run(streamIn(4, 4 * kTile), arch, blocks, x);
  ASSERT_TRUE(same.ok) << same.error;
  ASSERT_TRUE(distinct.ok) << distinct.error;
  const uint64_t perBlock = 4 * kTile * 4;
  EXPECT_EQ(same.gmReadBytes, blocks * perBlock);
  EXPECT_EQ(distinct.gmReadBytes, blocks * perBlock);
  // Block 0 misses; every other block finds the lines in L2.
  EXPECT_EQ(same.l2HitBytes, (blocks - 1) * perBlock);
  EXPECT_EQ(same.hbmBytes, perBlock);
  EXPECT_EQ(distinct.l2HitBytes, 0u);
  EXPECT_EQ(distinct.hbmBytes, blocks * perBlock);
  // With HBM narrower than the cores' demand, only the misses wait for it.
  arch.hbmBytesPerCycle = 128;
  LaunchResult sameNarrow = run(streamIn(4, 0), arch, blocks, x);
  LaunchResult distinctNarrow = run(streamIn(4, 4 * kTile), arch, blocks, x);
  EXPECT_LT(sameNarrow.totalCycles, distinctNarrow.totalCycles);
  EXPECT_LT(double(sameNarrow.totalCycles), 1.3 * double(same.totalCycles));
}

TEST(SimMemorySystem, L2EvictsTheLeastRecentlyUsedLines) {
  ArchModel arch = testArch(4);
  // 16 KB of reads per block, read twice in a row by block 0 and again by
  // block 1 of the second wave.
  std::vector<float> x(8 * kTile, 1);
  arch.aivCores = 1;
  arch.l2Bytes = 64 * 1024; // holds it: block 1 hits
  LaunchResult fits = run(streamIn(4, 0), arch, 2, x);
  arch.l2Bytes = 8 * 1024; // half of it: block 1 misses everything
  LaunchResult small = run(streamIn(4, 0), arch, 2, x);
  ASSERT_TRUE(fits.ok) << fits.error;
  ASSERT_TRUE(small.ok) << small.error;
  EXPECT_EQ(fits.l2HitBytes, 4u * kTile * 4);
  EXPECT_EQ(small.l2HitBytes, 0u);
}

TEST(SimMemorySystem, WritesStayInL2UntilEvicted) {
  ProgramBuilder b;
  b.program.args = {{ArgSpec::Kind::Gm, DType::F32, "x"}};
  auto I = Operand::ofImm;
  b.copyOut(0, DType::F32, I(0), I(kTile), 0, 10);
  b.copyOut(0, DType::F32, I(kTile), I(kTile), 0, 10);
  b.set(Pipe::MTE3, Pipe::MTE2, 0); // the read follows both writes
  b.wait(Pipe::MTE3, Pipe::MTE2, 0);
  b.copyIn(0, DType::F32, I(0), I(kTile), 4096, 11); // read back: a hit
  b.end();
  ArchModel arch = testArch(4);
  std::vector<float> x(2 * kTile, 1);
  LaunchResult r = run(b.program, arch, 1, x);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.l2HitBytes, uint64_t(kTile) * 4);
  EXPECT_EQ(r.hbmBytes, 0u); // dirty lines are written back after the launch
  arch.l2Bytes = 4096; // the second write evicts the first: a write-back
  r = run(b.program, arch, 1, x);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.l2HitBytes, 0u);
  // The first write's write-back, the read miss, and the second write's
  // write-back when the read's line replaces it.
  EXPECT_EQ(r.hbmBytes, 3u * kTile * 4);
}

TEST(SimMemorySystem, OneCoreGetsItsPortBandwidthManyShareHbm) {
  ArchModel arch = testArch(8);
  arch.hbmBytesPerCycle = 320; // 2.5 cores' worth of port bandwidth
  std::vector<float> x(size_t(8) * 8 * kTile, 1);
  const Program p = streamIn(8, 8 * kTile);
  LaunchResult alone = run(p, arch, 1, x);
  LaunchResult two = run(p, arch, 2, x);
  LaunchResult eight = run(p, arch, 8, x);
  ASSERT_TRUE(alone.ok) << alone.error;
  ASSERT_TRUE(eight.ok) << eight.error;
  // Alone: 8 occupancies back to back, then the last latency.
  EXPECT_EQ(alone.cores[0].busy[int(Pipe::MTE2)], 8 * kOcc + kLat);
  EXPECT_EQ(two.totalCycles, alone.totalCycles);
  // Eight cores demand 3.2x the HBM bandwidth while they stream: their data
  // phase takes ~3.2x as long, the latency does not.
  double data = double(eight.cores[0].busy[int(Pipe::MTE2)] - kLat);
  EXPECT_NEAR(data / double(8 * kOcc), 3.2, 0.2);
  EXPECT_GT(eight.totalCycles, alone.totalCycles + 8 * kOcc);
  // Every core and the launch end together; the trace moved with them.
  for (const CoreStats &c : eight.cores)
    EXPECT_LE(c.cycles, eight.totalCycles);
  uint64_t lastEnd = 0;
  for (const TraceEvent &e : eight.trace)
    lastEnd = std::max(lastEnd, e.end);
  EXPECT_EQ(lastEnd, eight.totalCycles);
}

TEST(SimMemorySystem, ResultsDoNotDependOnTheThreadCount) {
  ArchModel arch = testArch(4);
  arch.hbmBytesPerCycle = 300;
  arch.l2Bytes = 1 << 20;
  const int blocks = 24;
  std::vector<float> x(size_t(blocks) * 4 * kTile, 1);
  // Overlapping ranges: block b reads tiles b .. b + 3.
  const Program p = streamIn(4, kTile);
  LaunchResult one = run(p, arch, blocks, x, 1);
  LaunchResult many = run(p, arch, blocks, x, 4);
  ASSERT_TRUE(one.ok) << one.error;
  ASSERT_TRUE(many.ok) << many.error;
  EXPECT_EQ(one.totalCycles, many.totalCycles);
  EXPECT_EQ(one.l2HitBytes, many.l2HitBytes);
  EXPECT_GT(one.l2HitBytes, 0u);
  ASSERT_EQ(one.cores.size(), many.cores.size());
  for (size_t i = 0; i < one.cores.size(); ++i) {
    EXPECT_EQ(one.cores[i].cycles, many.cores[i].cycles);
    EXPECT_EQ(one.cores[i].busy, many.cores[i].busy);
  }
  ASSERT_EQ(one.trace.size(), many.trace.size());
  for (size_t i = 0; i < one.trace.size(); ++i)
    EXPECT_EQ(one.trace[i].start, many.trace[i].start);
}

} // namespace
