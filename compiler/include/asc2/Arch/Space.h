//===- Space.h - The memories of an AI core ---------------------*- C++ -*-===//
//
// GM and the per-core local memories (Ascend C TPosition's physical spaces).
// Plain C++, shared by the arch model, the simulator, the report and the GUI.
//
//===----------------------------------------------------------------------===//
#ifndef ASC2_ARCH_SPACE_H
#define ASC2_ARCH_SPACE_H

#include <array>
#include <cstdint>

namespace asc2 {

/// GM is the caller's arrays; the others are per-core byte arrays.
enum class Space : uint8_t { GM, UB, L1, L0A, L0B, L0C, BT };
constexpr int kNumSpaces = 7;

/// "GM", "UB", "L1", "L0A", "L0B", "L0C", "BT".
constexpr const char *spaceName(Space s) {
  constexpr std::array<const char *, kNumSpaces> names = {
      "GM", "UB", "L1", "L0A", "L0B", "L0C", "BT"};
  return names[static_cast<unsigned>(s)];
}

} // namespace asc2

#endif
