//===- MemorySystem.h - The chip's L2 and HBM over a launch ------*- C++ -*-===//
//
// Internal to the simulator: the GM copies the blocks record, and the pass
// that applies the chip-wide L2 and HBM bandwidth to a merged launch
// (MemorySystem.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef ASC2_LIB_SIM_MEMORYSYSTEM_H
#define ASC2_LIB_SIM_MEMORYSYSTEM_H

#include "asc2/Sim/Simulator.h"

#include "llvm/Support/Compiler.h"

#include <cstdint>
#include <vector>

namespace asc2::sim {

/// Canonical GM addresses: (buffer + 1) << 40 | byte offset, the buffer a
/// kernel argument's index or, after the last one, the workspace.
constexpr int kGmBufferShift = 40;
constexpr int64_t kGmOffsetMask = (int64_t(1) << kGmBufferShift) - 1;
inline int64_t gmCanonical(int64_t buffer, int64_t byteOffset) {
  return ((buffer + 1) << kGmBufferShift) + byteOffset;
}
inline int64_t gmBufferOf(int64_t addr) { return (addr >> kGmBufferShift) - 1; }
inline int64_t gmOffsetOf(int64_t addr) { return addr & kGmOffsetMask; }

/// One GM copy: the cycles of its data transfer (the pipe occupancy, without
/// the latency; block-local while the block runs, launch time once merged),
/// the GM rows it touches (addresses in a canonical space: kernel argument
/// or workspace, then byte offset, so runs do not depend on host pointers)
/// and its pipe.
struct GmAccess {
  uint64_t start = 0, end = 0;
  int64_t addr = 0; // canonical byte address of the first row
  int64_t rowBytes = 0, rows = 0, strideBytes = 0;
  bool write = false;
  bool atomic = false; // an atomic store (read-modify-write)
  Pipe pipe = Pipe::MTE2;
  int32_t pc = -1;   // the instruction, for race reports
  uint32_t core = 0; // index into LaunchResult::cores, set when merged
};

/// Runs the launch's copies (launch times) through the L2 and the HBM and L2
/// bandwidth, and moves `result`'s core times, busy cycles, trace and total
/// accordingly; fills its L2/HBM byte counts.
LLVM_LIBRARY_VISIBILITY void applyMemorySystem(const ArchModel &arch,
                                               std::vector<GmAccess> &accesses,
                                               LaunchResult &result);

} // namespace asc2::sim

#endif
