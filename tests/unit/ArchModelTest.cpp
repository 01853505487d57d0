//===- ArchModelTest.cpp - resources/arch/*.json load and validate --------===//

#include "asc2/Arch/ArchModel.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

using namespace asc2;

namespace {

const char *const kPlatforms[] = {"Ascend910B1", "Ascend910B2",
                                  "Ascend910B3", "Ascend910B4",
                                  "Ascend910_93", "Ascend950",
                                  "Ascend950PR_958b"};

std::string readFile(const std::string &path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(ArchModel, EveryPlatformLoads) {
  for (const char *platform : kPlatforms) {
    std::string error;
    auto arch = ArchModel::load(ASC2_RESOURCES_DIR "/arch", platform, error);
    ASSERT_TRUE(arch) << platform << ": " << error;
    EXPECT_EQ(arch->name, platform);
    EXPECT_GT(arch->clockMHz, 1000);
    EXPECT_EQ(arch->aivCores, 2 * arch->aicCores); // AIC:AIV = 1:2
    EXPECT_EQ(arch->eventIdsPerPipePair, 8);
    EXPECT_EQ(arch->alignment[int(Space::UB)], 32);
    EXPECT_GT(arch->gmToUbBytesPerCycle, arch->ubToGmBytesPerCycle);
    EXPECT_GT(arch->hbmBytesPerCycle, arch->gmToUbBytesPerCycle);
    // One cost per vector op (VecOp); Erf is emitted on Ascend950 (c310) only
    // (the one-VF advanced API), the A2/A3 kernels expand it into other ops.
    const bool c310 = arch->socVersion == "c310";
    EXPECT_EQ(arch->vecCost.size(), c310 ? 21u : 20u) << platform;
    EXPECT_EQ(arch->vecCost.count(VecOp::Erf), c310 ? 1u : 0u) << platform;
    // Cube path: L1->L0A is faster than GM->L1, every move is below the HBM
    // cap, and one fp16 fractal costs a cycle after a small fixed latency.
    EXPECT_GT(arch->gmToL1BytesPerCycle, 0) << platform;
    EXPECT_GT(arch->l1ToL0aBytesPerCycle, arch->gmToL1BytesPerCycle) << platform;
    EXPECT_GT(arch->l1ToL0bBytesPerCycle, 0) << platform;
    EXPECT_GT(arch->l0cToGmBytesPerCycle, 0) << platform;
    EXPECT_LT(arch->gmToL1BytesPerCycle, arch->hbmBytesPerCycle) << platform;
    EXPECT_DOUBLE_EQ(arch->mmadFixedCycles, 6) << platform;
    EXPECT_DOUBLE_EQ(arch->mmadCyclesPerFractal, 1) << platform;
    EXPECT_DOUBLE_EQ(arch->mmadF32FractalFactor, 2) << platform;
    EXPECT_GT(arch->crossCoreFlagCycles, 0) << platform;
    // Memory system: an L2 of tens of MB, faster than HBM, 512-byte lines;
    // reads wait longer than the pipe occupancy of a small copy.
    EXPECT_GE(arch->l2Bytes, int64_t(64) << 20) << platform;
    EXPECT_GT(arch->l2BytesPerCycle, arch->hbmBytesPerCycle) << platform;
    EXPECT_EQ(arch->l2LineBytes, 512) << platform;
    EXPECT_GT(arch->gmReadLatencyCycles, 100) << platform;
    EXPECT_GT(arch->gmWriteLatencyCycles, 0) << platform;
    EXPECT_GE(arch->mteOutstanding, 1) << platform;
  }
}

TEST(ArchModel, CubeBandwidthsPerChip) {
  struct Row {
    const char *platform;
    double mhz, gmToL1, l0a, l0b, l0cToGm; // GB/s, ascend-hw-model.md §1.5
  } rows[] = {
      {"Ascend910B1", 1850, 264, 437.5, 210.5, 209.32},
      {"Ascend910B2", 1800, 256.86, 425.68, 204.81, 203.66},
      {"Ascend910B3", 1800, 256.86, 425.68, 204.81, 203.66},
      {"Ascend910B4", 1650, 222, 368.2, 173.81, 190.7},
      {"Ascend910_93", 1800, 256.86, 425.68, 204.81, 203.66},
      {"Ascend950", 1650, 177.57, 412.10, 412.11, 142.05},
  };
  for (const Row &row : rows) {
    std::string error;
    auto arch = ArchModel::load(ASC2_RESOURCES_DIR "/arch", row.platform, error);
    ASSERT_TRUE(arch) << error;
    double perCycle = 1e9 / (row.mhz * 1e6);
    EXPECT_DOUBLE_EQ(arch->clockMHz, row.mhz) << row.platform;
    EXPECT_NEAR(arch->gmToL1BytesPerCycle, row.gmToL1 * perCycle, 1e-9)
        << row.platform;
    EXPECT_NEAR(arch->l1ToL0aBytesPerCycle, row.l0a * perCycle, 1e-9)
        << row.platform;
    EXPECT_NEAR(arch->l1ToL0bBytesPerCycle, row.l0b * perCycle, 1e-9)
        << row.platform;
    EXPECT_NEAR(arch->l0cToGmBytesPerCycle, row.l0cToGm * perCycle, 1e-9)
        << row.platform;
    EXPECT_DOUBLE_EQ(arch->crossCoreFlagCycles, 50) << row.platform;
  }
}

TEST(ArchModel, CubeVectorLocalPathsOnlyOnAscend950) {
  // L0C -> UB and UB -> L1 (ascend-hw-model.md §1.5, MSOP maxBwRateOf950_959X:
  // 206.20 / 206.18 GB/s); Atlas A2/A3 have neither path.
  for (const char *platform : {"Ascend910B1", "Ascend910B4", "Ascend910_93", "Ascend950",
                               "Ascend950PR_958b"}) {
    std::string error;
    auto arch = ArchModel::load(ASC2_RESOURCES_DIR "/arch", platform, error);
    ASSERT_TRUE(arch) << error;
    bool a5 = arch->socVersion == "c310";
    double perCycle = 1e9 / (arch->clockMHz * 1e6);
    EXPECT_NEAR(arch->l0cToUbBytesPerCycle, a5 ? 206.20 * perCycle : 0, 1e-9) << platform;
    EXPECT_NEAR(arch->ubToL1BytesPerCycle, a5 ? 206.18 * perCycle : 0, 1e-9) << platform;
  }
}

TEST(ArchModel, Ascend910B1Numbers) {
  std::string error;
  auto arch = ArchModel::load(ASC2_RESOURCES_DIR "/arch", "Ascend910B1", error);
  ASSERT_TRUE(arch) << error;
  EXPECT_EQ(arch->socVersion, "c220");
  EXPECT_EQ(arch->syncStyle, "flag");
  // What the headers give a kernel: TOTAL_VEC_LOCAL_SIZE (184 KiB of the
  // 192 KiB UB), TOTAL_L1_SIZE (512 KiB - the 128-byte KFC reserve).
  EXPECT_EQ(arch->capacity[int(Space::UB)], 188416);
  EXPECT_EQ(arch->capacity[int(Space::L1)], 524160);
  EXPECT_EQ(arch->capacity[int(Space::L0C)], 131072);
  EXPECT_EQ(arch->aivCores, 48);
  EXPECT_NEAR(arch->gmToUbBytesPerCycle, 220.06e9 / 1850e6, 1e-9);
  // The effective stream bandwidth fitted on Atlas A2 silicon (the theoretical figure is 1.8 TB/s).
  EXPECT_NEAR(arch->hbmBytesPerCycle, 1600e9 / 1850e6, 1e-9);
  // Huawei's DataCopy sample on Atlas A2 silicon: a 128-byte copy per 20.6 cycles, many in flight.
  EXPECT_DOUBLE_EQ(arch->mteIssueCycles, 20.6);
  EXPECT_EQ(arch->mteOutstanding, 32);
  EXPECT_EQ(arch->pipeQueueDepth, 32);
  VecCost add = arch->costOf(VecOp::Add);
  EXPECT_DOUBLE_EQ(add.fixed, 24);
  EXPECT_DOUBLE_EQ(add.perRepeat, 2.11);
}

TEST(ArchModel, Ascend950IsC310WithBufferIds) {
  std::string error;
  auto arch = ArchModel::load(ASC2_RESOURCES_DIR "/arch", "Ascend950", error);
  ASSERT_TRUE(arch) << error;
  EXPECT_EQ(arch->socVersion, "c310");
  EXPECT_EQ(arch->syncStyle, "buffer-id");
  EXPECT_EQ(arch->capacity[int(Space::UB)], 253952);
  EXPECT_EQ(arch->capacity[int(Space::L1)], 524288);
  EXPECT_EQ(arch->capacity[int(Space::L0C)], 262144);
  EXPECT_EQ(arch->capacity[int(Space::BT)], 4096);
}

TEST(ArchModel, RequestWindowsAreOptional) {
  std::string error;
  // Ascend910B1 leaves them out (no cap); Ascend950 sets both, and a copy then
  // moves window / latency bytes per cycle, below the port maximum.
  auto b1 = ArchModel::load(ASC2_RESOURCES_DIR "/arch", "Ascend910B1", error);
  ASSERT_TRUE(b1) << error;
  EXPECT_EQ(b1->gmReadWindowBytes, 0);
  EXPECT_DOUBLE_EQ(b1->gmCopyBytesPerCycle(b1->gmToUbBytesPerCycle, false),
                   b1->gmToUbBytesPerCycle);
  auto a5 = ArchModel::load(ASC2_RESOURCES_DIR "/arch", "Ascend950", error);
  ASSERT_TRUE(a5) << error;
  ASSERT_GT(a5->gmReadWindowBytes, 0);
  EXPECT_DOUBLE_EQ(a5->gmCopyBytesPerCycle(a5->gmToUbBytesPerCycle, false),
                   a5->gmReadWindowBytes / a5->gmReadLatencyCycles);
  EXPECT_LT(a5->gmCopyBytesPerCycle(a5->gmToUbBytesPerCycle, false), a5->gmToUbBytesPerCycle);
  EXPECT_LT(a5->gmCopyBytesPerCycle(a5->ubToGmBytesPerCycle, true), a5->ubToGmBytesPerCycle);
  // The shared GM port is optional too: off on the A2 files, on for A5.
  EXPECT_FALSE(b1->gmPortShared);
  EXPECT_TRUE(a5->gmPortShared);
  // A negative window is refused, naming the field.
  std::string text = readFile(ASC2_RESOURCES_DIR "/arch/Ascend950.json");
  const std::string key = "\"gm_read_window_bytes\": ";
  size_t at = text.find(key, text.find("\"name\": \""));
  ASSERT_NE(at, std::string::npos);
  text.insert(at + key.size(), "-");
  EXPECT_FALSE(ArchModel::fromJson(text, error));
  EXPECT_NE(error.find("'gm_read_window_bytes': must be >= 0"), std::string::npos) << error;
}

TEST(ArchModel, MalformedJsonNamesTheProblem) {
  std::string error;
  EXPECT_FALSE(ArchModel::fromJson("{\"name\": \"x\",", error));
  EXPECT_NE(error.find("invalid JSON"), std::string::npos) << error;

  std::string text = readFile(ASC2_RESOURCES_DIR "/arch/Ascend910B1.json");
  ASSERT_FALSE(text.empty());
  std::string noClock = text;
  noClock.replace(noClock.find("\"clock_mhz\": 1850"), 11, "\"clock_mhzz\"");
  EXPECT_FALSE(ArchModel::fromJson(noClock, error));
  EXPECT_NE(error.find("'clock_mhz'"), std::string::npos) << error;

  std::string badOp = text;
  badOp.replace(badOp.find("\"relu\": {"), 6, "\"reluu\"");
  EXPECT_FALSE(ArchModel::fromJson(badOp, error));
  EXPECT_NE(error.find("vector_cost.reluu"), std::string::npos) << error;

  for (const char *field :
       {"gm_to_l1_gbps", "l1_to_l0a_gbps", "l1_to_l0b_gbps", "l0c_to_gm_gbps",
        "mmad_fixed_cycles", "mmad_cycles_per_fractal",
        "mmad_f32_fractal_factor", "cross_core_flag_cycles"}) {
    std::string missing = text;
    std::string key = std::string("\"") + field + "\":";
    // The value, not its "_sources" entry.
    size_t at = missing.find(key, missing.find("\"name\": \""));
    ASSERT_NE(at, std::string::npos) << field;
    missing.replace(at, key.size(), std::string("\"") + field + "_x\":");
    EXPECT_FALSE(ArchModel::fromJson(missing, error)) << field;
    EXPECT_NE(error.find(std::string("'") + field + "'"), std::string::npos)
        << error;
  }
  std::string zeroPerFractal = text;
  const std::string one = "\"mmad_cycles_per_fractal\": 1";
  zeroPerFractal.replace(zeroPerFractal.find(one), one.size(),
                         "\"mmad_cycles_per_fractal\": 0");
  EXPECT_FALSE(ArchModel::fromJson(zeroPerFractal, error));
  EXPECT_NE(error.find("'mmad_cycles_per_fractal': must be > 0"),
            std::string::npos)
      << error;

  std::string badUb = text;
  badUb.replace(badUb.find("\"UB\": 188416"), 12, "\"UB\": -1");
  EXPECT_FALSE(ArchModel::fromJson(badUb, error));
  EXPECT_NE(error.find("capacity_bytes.UB"), std::string::npos) << error;
}

TEST(ArchModel, MissingPlatformNamesThePath) {
  std::string error;
  EXPECT_FALSE(ArchModel::load(ASC2_RESOURCES_DIR "/arch", "Ascend310X", error));
  EXPECT_NE(error.find("Ascend310X.json"), std::string::npos) << error;
}

} // namespace
