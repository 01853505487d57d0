//===- ArchModel.h - Ascend SoC parameters from resources/arch ----*- C++ -*-===//
//
// Every hardware number the compiler and the simulator use comes from
// resources/arch/<platform>.json (sources in shared/reference); none is a
// constant scattered in code. Plain C++: the compiler, the simulator, the
// report and the GUI all read the target from here.
//
//===----------------------------------------------------------------------===//
#ifndef ASC2_ARCH_ARCHMODEL_H
#define ASC2_ARCH_ARCHMODEL_H

#include "asc2/Arch/Space.h"
#include "asc2/Arch/VecOp.h"

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <string>

namespace asc2 {

struct VecCost {
  double fixed = 0;     // cycles per instruction
  double perRepeat = 0; // cycles per 256-byte repeat
};

struct ArchModel {
  std::string name;        // "Ascend910B1"
  std::string socVersion;  // "c220" (A2/A3) or "c310" (A5): emitter target
  std::string syncStyle;   // "flag" or "buffer-id"
  double clockMHz = 1850;
  int aicCores = 24, aivCores = 48;
  std::array<int64_t, kNumSpaces> capacity{}; // bytes per core, indexed by Space
  std::array<int64_t, kNumSpaces> alignment{};
  int eventIdsPerPipePair = 8;
  // Per-core data-movement bandwidth in bytes per cycle.
  double gmToUbBytesPerCycle = 0, ubToGmBytesPerCycle = 0;
  // DMA timing (CoreRunner.h): a copy holds its MTE pipe for
  // max(mteIssueCycles, bytes / bandwidth) (the DMA's per-request interval,
  // overlapped by a larger copy's data) and completes gmRead/WriteLatency
  // cycles later; up to mteOutstanding copies of one pipe are in flight.
  double mteIssueCycles = 0;
  // Vector timing (VectorUnit.cpp): the V pipe is pipelined. An instruction
  // holds it for vectorIssueCycles + per_repeat x repeats and completes its
  // op class's `fixed` cycles after that; the next one starts when the pipe
  // is free (PipeBarrier<PIPE_V>, which the compiler puts between dependent
  // ones, waits for completion).
  double vectorIssueCycles = 0;
  double gmReadLatencyCycles = 0, gmWriteLatencyCycles = 0;
  int mteOutstanding = 1;
  // The bytes of GM read (write) requests a vector core's DMA keeps in
  // flight between GM and UB (0: no limit). By Little's law such a copy then
  // moves at most window / latency bytes per cycle, below its port's
  // bandwidth when the window is smaller than bandwidth x latency
  // (gmCopyBytesPerCycle). The cube core's copies run at their port rates.
  double gmReadWindowBytes = 0, gmWriteWindowBytes = 0;
  // A vector core's GM reads (MTE2) and writes (MTE3) move through one DMA
  // port: their transfers do not overlap (latencies still do); each takes the
  // port's first free gap at or after the time its own queue can start it.
  bool gmPortShared = false;
  /// The rate of a GM read (`write` false) or write through a port of
  /// `portBytesPerCycle`: the port bandwidth, capped by the request window
  /// over the latency.
  double gmCopyBytesPerCycle(double portBytesPerCycle, bool write) const {
    double window = write ? gmWriteWindowBytes : gmReadWindowBytes;
    double latency = write ? gmWriteLatencyCycles : gmReadLatencyCycles;
    return window > 0 && latency > 0 ? std::min(portBytesPerCycle, window / latency)
                                     : portBytesPerCycle;
  }
  // Cube path, bytes per cycle per AIC: GM->L1 (MTE2), L1->L0A / L1->L0B
  // (MTE1), L0C->GM (FIX).
  double gmToL1BytesPerCycle = 0, l1ToL0aBytesPerCycle = 0,
         l1ToL0bBytesPerCycle = 0, l0cToGmBytesPerCycle = 0;
  // The local paths between the cube and the vector core of Ascend950: the
  // fixpipe L0C -> UB (FIX, on the AIC) and UB -> L1 (MTE3, on the AIV).
  // 0: the target has no such path (Atlas A2/A3 exchange through GM).
  double l0cToUbBytesPerCycle = 0, ubToL1BytesPerCycle = 0;
  double mmadFixedCycles = 0;       // per mmad instruction
  double mmadCyclesPerFractal = 1;  // per 16x16x16 f16 fractal (f32: 16x8x16
                                    // fractals, int8: 16x32x16)
  double mmadF32FractalFactor = 2;  // cycles of an f32 16x8x16 fractal relative
                                    // to an f16 one
  double crossCoreFlagCycles = 0;   // latency of a cross-core flag (set -> wait)
  double hbmBytesPerCycle = 0;   // chip-wide HBM bandwidth (misses, write-backs)
  // The chip's L2 (MemorySystem.cpp): capacity, line size, bandwidth.
  int64_t l2Bytes = 0, l2LineBytes = 512;
  double l2BytesPerCycle = 0;
  // Launch overheads: once per launch, at each block's start (dispatch and
  // the scalar prologue) and after each block's last instruction.
  double launchCycles = 0, blockStartCycles = 0, blockEndCycles = 0;
  double scalarCycles = 1;       // per scalar instruction
  double flagCycles = 1;         // set/wait bookkeeping
  /// Buffer ids (Mutex ids) of a "buffer-id" target; 0 on flag-only targets.
  int bufferIds = 0;
  double bufIdCycles = 1;        // get_buf/rls_buf bookkeeping
  /// The N-dimensional GM -> UB DMA (Ascend C DataCopy with NdDmaParams):
  /// the most loops one copy takes; 0 on targets without it (A2/A3).
  int ndDmaDims = 0;
  /// Its cost: each contiguous source run holds the GM port for at least
  /// this many bytes (whole multiples of it).
  int64_t ndDmaBurstBytes = 32;
  int pipeQueueDepth = 32;       // per-pipe instruction queue; scalar stalls when full
  std::map<VecOp, VecCost> vecCost; // per op; missing op => vecDefault
  VecCost vecDefault;
  /// Ops with a vector-scalar instruction of their own (vadds, vmuls, vmaxs);
  /// a missing op costs as its tensor form.
  std::map<VecOp, VecCost> vecScalarCost;
  // Vector instructions that are not one elementwise op.
  VecCost castCost, compareCost, selectCost, wholeReduceCost;
  // The shape calls: Brcb, level-0 Copy, GatherMask, DataCopy within UB,
  // Transpose.
  VecCost brcbCost, copyCost, gatherMaskCost, localDataCopyCost, transposeCost;
  // Scalar-unit loads/stores, cycles per access (the scalar unit stalls).
  double scalarLocalCycles = 1;
  double scalarGmLoadCycles = 1, scalarGmStoreCycles = 1;

  /// The cube reads L0A as NZ on c310 (LoadData2DParamsV2) and as ZZ on c220
  /// (LoadData2DParams): mirror-cann/asc-devkit@82b89a15f:examples/01_simd_cpp_api/
  /// 03_basic_api/03_matrix_compute/load_data_2dv2_l12l0/README.md.
  bool l0aIsNz() const { return socVersion == "c310"; }

  VecCost costOf(VecOp op) const;
  VecCost costOfScalarForm(VecOp op) const;
  /// Loads resources/arch/<platform>.json from `archDir`. On failure returns
  /// std::nullopt and sets `error` to a message naming the file and the field.
  static std::optional<ArchModel> load(const std::string &archDir,
                                       const std::string &platform,
                                       std::string &error);
  static std::optional<ArchModel> fromJson(const std::string &text,
                                           std::string &error);
};

} // namespace asc2

#endif
