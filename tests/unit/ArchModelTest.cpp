//===- ArchModelTest.cpp - resources/arch/*.json load and validate --------===//

#include "asc2/Sim/ArchModel.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

using namespace asc2::sim;

namespace {

const char *const kPlatforms[] = {"Ascend910B1", "Ascend910B2",
                                  "Ascend910B3", "Ascend910B4",
                                  "Ascend910_93", "Ascend950"};

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
    EXPECT_EQ(arch->vecCost.size(), 21u) << platform;
  }
}

TEST(ArchModel, Ascend910B1Numbers) {
  std::string error;
  auto arch = ArchModel::load(ASC2_RESOURCES_DIR "/arch", "Ascend910B1", error);
  ASSERT_TRUE(arch) << error;
  EXPECT_EQ(arch->socVersion, "c220");
  EXPECT_EQ(arch->syncStyle, "flag");
  EXPECT_EQ(arch->capacity[int(Space::UB)], 196608);
  EXPECT_EQ(arch->capacity[int(Space::L0C)], 131072);
  EXPECT_EQ(arch->aivCores, 48);
  EXPECT_NEAR(arch->gmToUbBytesPerCycle, 220.06e9 / 1850e6, 1e-9);
  EXPECT_NEAR(arch->hbmBytesPerCycle, 1800e9 / 1850e6, 1e-9);
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
  EXPECT_EQ(arch->capacity[int(Space::L0C)], 262144);
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

  std::string badUb = text;
  badUb.replace(badUb.find("\"UB\": 196608"), 12, "\"UB\": -1");
  EXPECT_FALSE(ArchModel::fromJson(badUb, error));
  EXPECT_NE(error.find("capacity_bytes.UB"), std::string::npos) << error;
}

TEST(ArchModel, MissingPlatformNamesThePath) {
  std::string error;
  EXPECT_FALSE(ArchModel::load(ASC2_RESOURCES_DIR "/arch", "Ascend310X", error));
  EXPECT_NE(error.find("Ascend310X.json"), std::string::npos) << error;
}

} // namespace
