//===- sim_cube_kernels.cpp - Throughput of the simulator's cube kernels ---===//
//
// A benchmark, not a test (it measures): build and run with
//   cmake --build build --target asc2-bench-sim-cube && build/bin/asc2-bench-sim-cube [iterations]
// Prints, in CPU time (robust on a loaded machine), the multiply-adds per
// second of one mmad (f16 256 x 32 x 256, the base block of a large GEMM)
// and the microseconds of an L1 -> L0 move that takes the element path
// (a transposed or ZN 256 x 32 tile), with a hash of the results so that a
// faster version can be checked to give the same bits.
//
//===----------------------------------------------------------------------===//

#include "../compiler/lib/Sim/CubeKernels.h"
#include "../compiler/lib/Sim/Elements.h"

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <random>

using namespace asc2::sim;
using namespace asc2::sim::cube;

namespace {

double cpuSeconds() { return double(std::clock()) / CLOCKS_PER_SEC; }

uint64_t hashOf(const std::vector<uint8_t> &v, size_t n) {
  uint64_t h = 0;
  for (size_t i = 0; i < n; ++i)
    h = h * 131 + v[i];
  return h;
}

} // namespace

int main(int argc, char **argv) {
  const int iterations = argc > 1 ? std::atoi(argv[1]) : 300;
  const int64_t m = 256, k = 32, n = 256;
  std::vector<uint8_t> a(m * k * 2), b(k * n * 2), c(m * n * 4), l1(512 * 512 * 2), l0(256 * 256 * 2);
  std::mt19937 rng(1);
  for (std::vector<uint8_t> *v : {&a, &b, &l1})
    for (uint8_t &x : *v)
      x = uint8_t(rng() & 0x3b); // finite float16 values
  MmadScratch scratch;
  struct Case {
    const char *name;
    DType type;
    bool hf32;
  };
  // float16 and bfloat16 products are exact in float32 (the fused path);
  // float32 ones are not (products rounded, then summed); HF32 rounds the
  // operands to 12 significant bits, after which products are exact again.
  for (Case cs : {Case{"f16", DType::F16, false}, Case{"bf16", DType::BF16, false},
                  Case{"f32", DType::F32, false}, Case{"hf32", DType::F32, true}}) {
    const size_t w = byteWidth(cs.type);
    std::vector<uint8_t> ta(m * k * w), tb(k * n * w);
    std::mt19937 trng(2);
    std::normal_distribution<float> normal(0.0f, 1.0f); // values as a model's weights and activations
    for (std::vector<uint8_t> *v : {&ta, &tb})
      withCodec(cs.type, [&](auto codec) {
        if constexpr (decltype(codec)::kIsFloat)
          for (size_t i = 0; i < v->size() / w; ++i)
            codec.store(v->data() + i * w, normal(trng));
      });
    const int its = cs.type == DType::F32 ? iterations / 2 : iterations;
    double t0 = cpuSeconds();
    for (int i = 0; i < its; ++i)
      mmadKernel(cs.type, Layout::NZ, c.data(), ta.data(), tb.data(), m, k, n, i == 0, scratch, cs.hf32);
    double dt = cpuSeconds() - t0;
    std::printf("mmad %s %lldx%lldx%lld: %.2f GMAC per CPU second (hash %016llx)\n", cs.name, (long long)m,
                (long long)k, (long long)n, double(m * k * n) * its / dt / 1e9,
                (unsigned long long)hashOf(c, c.size()));
  }
  double t0, dt;
  for (Layout layout : {Layout::NZ, Layout::ZN})
    for (bool transpose : {false, true}) {
      t0 = cpuSeconds();
      for (int i = 0; i < iterations * 4; ++i)
        nzToL0(DType::F16, layout, l0.data(), l1.data(), transpose ? 32 : 256, transpose ? 256 : 32, 512,
               512, 0, 0, transpose);
      dt = cpuSeconds() - t0;
      std::printf("L1 -> L0 %s%s 256x32 f16: %.1f us per move (hash %016llx)\n",
                  layout == Layout::NZ ? "NZ" : "ZN", transpose ? " transposed" : "",
                  dt / (iterations * 4) * 1e6, (unsigned long long)hashOf(l0, 256 * 32 * 2));
    }
  return 0;
}
