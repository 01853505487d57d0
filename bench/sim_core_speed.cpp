//===- sim_core_speed.cpp - Simulator throughput on a large vadd ------------===//
//
// A benchmark, not a test (it measures): run with
//   build/bin/asc2-bench-sim-core
// Prints simulated cycles per wall-second and element-ops per second per
// thread; asserts only that the run is correct.
//
//===----------------------------------------------------------------------===//

#include "SimTestUtil.h"

#include <chrono>
#include <cstdio>
#include <thread>

using namespace asc2::sim;
using namespace asc2::sim::test;

namespace {

void measure(int blocks, int64_t perCore, bool races, int threads,
             DType dtype = DType::F32, int64_t tile = 8192) {
  ArchModel arch = loadArch();
  const int64_t n = blocks * perCore;
  const int64_t w = byteWidth(dtype);
  std::vector<uint8_t> x(n * w, 0x3c), y(n * w, 0x3c), z(n * w);
  VaddOptions o;
  o.dtype = dtype;
  o.tile = tile;
  o.doubleBuffer = true;
  SimOptions opts;
  opts.detectRaces = races;
  opts.collectTrace = false;
  opts.threads = threads;
  auto t0 = std::chrono::steady_clock::now();
  LaunchResult r = simulate(makeVadd(o), arch, blocks,
                            {{ArgSpec::Kind::Gm, x.data(), n * w, dtype},
                             {ArgSpec::Kind::Gm, y.data(), n * w, dtype},
                             {ArgSpec::Kind::Gm, z.data(), n * w, dtype},
                             intArg(n)},
                            opts);
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
                 .count();
  ASSERT_TRUE(r.ok) << r.error;
  ASSERT_NE(z[n * w - 1], 0);
  uint64_t simCycles = 0; // summed over cores: the work the host did
  for (const CoreStats &c : r.cores)
    simCycles += c.cycles - c.start;
  int used = threads > 0 ? threads : int(std::thread::hardware_concurrency());
  used = std::min(used, blocks);
  std::printf("[speed] %d cores x %lld %s elems, tile %lld, races %s, %d "
              "threads: %.3f s wall, launch %llu cycles; %.3g launch-cycles/s, "
              "%.3g core-cycles/s, %.3g elem-ops/s per thread\n",
              blocks, (long long)perCore, dtypeName(dtype), (long long)tile,
              races ? "on" : "off", used, s, (unsigned long long)r.totalCycles,
              double(r.totalCycles) / s, double(simCycles) / s,
              double(n) / s / used);
}

TEST(SimSpeed, LargeVadd48x1M) {
  measure(48, 1 << 20, true, 0);
  measure(48, 1 << 20, false, 0);
  measure(48, 1 << 20, true, 1);
  measure(48, 1 << 20, true, 1, DType::F16);
  measure(48, 1 << 20, true, 1, DType::BF16);
  measure(48, 1 << 20, true, 1, DType::F32, 256); // scalar/sync-heavy
}

} // namespace
