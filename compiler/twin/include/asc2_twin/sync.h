//===- sync.h - Pipes, flags, barriers, cross-core flags, mutexes -*- C++ -*-===//
//
// API: mirror-cann/asc-devkit@82b89a15f docs/zh/api/SIMD-API/基础API/同步控制.
//
// Within one core the twin runs every pipe's instructions in program order,
// which is one valid serialisation of the pipes: SetFlag/WaitFlag,
// PipeBarrier and Mutex need not wait, but the twin checks their pairing
// (a WaitFlag with no SetFlag before it hangs a real core; a second SetFlag on
// a set flag is lost). Cross-core flags are real counting semaphores between
// the threads of a block; a wait that does not finish within
// ASC2_TWIN_TIMEOUT_MS (default 10000) is reported as a deadlock.
//
//===----------------------------------------------------------------------===//
#ifndef ASC2_TWIN_SYNC_H
#define ASC2_TWIN_SYNC_H

#include "asc2_twin/core.h"
#include "asc2_twin/tensor.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>

enum pipe_t : uint8_t {
  PIPE_S = 0,
  PIPE_V,
  PIPE_M,
  PIPE_MTE1,
  PIPE_MTE2,
  PIPE_MTE3,
  PIPE_ALL,
  PIPE_MTE4,
  PIPE_MTE5,
  PIPE_V2,
  PIPE_FIX,
};

enum event_t : uint8_t {
  EVENT_ID0 = 0,
  EVENT_ID1,
  EVENT_ID2,
  EVENT_ID3,
  EVENT_ID4,
  EVENT_ID5,
  EVENT_ID6,
  EVENT_ID7,
};

namespace AscendC {

enum class HardEvent : uint8_t {
  MTE2_MTE1,
  MTE1_MTE2,
  MTE1_M,
  M_MTE1,
  MTE2_V,
  V_MTE2,
  MTE3_V,
  V_MTE3,
  M_V,
  V_M,
  V_V,
  MTE3_MTE1,
  MTE1_MTE3,
  MTE1_V,
  MTE2_M,
  M_MTE2,
  V_MTE1,
  M_FIX,
  FIX_M,
  MTE3_MTE2,
  MTE2_MTE3,
  S_V,
  V_S,
  S_MTE2,
  MTE2_S,
  S_MTE3,
  MTE3_S,
  MTE2_FIX,
  FIX_MTE2,
  FIX_S,
  M_S,
  FIX_MTE3,
  MTE1_FIX,
  FIX_MTE1,
  FIX_FIX,
  FIX_V,
  V_FIX,
  MAX,
};

} // namespace AscendC

namespace asc2_twin {

#if ASC2_TWIN_NPU_ARCH == 3510
inline constexpr int kEventIds = 16;
#else
inline constexpr int kEventIds = 8;
#endif

inline void CheckEventId(const char *api, int id) {
  if (id < 0 || id >= kEventIds)
    Fail(std::string(api) + ": event id " + std::to_string(id) +
         " is outside [0, " + std::to_string(kEventIds) + ")");
}

inline void SetFlag(int evt, int id) {
  CheckEventId("SetFlag", id);
  auto &f = CurrentCore().sync.flagSet[evt][id];
  if (f)
    Fail("SetFlag<HardEvent(" + std::to_string(evt) + ")>(" + std::to_string(id) +
         ") on a flag that is already set (the second set is lost on hardware)");
  f = 1;
}

inline void WaitFlag(int evt, int id) {
  CheckEventId("WaitFlag", id);
  auto &f = CurrentCore().sync.flagSet[evt][id];
  if (!f)
    Fail("WaitFlag<HardEvent(" + std::to_string(evt) + ")>(" + std::to_string(id) +
         ") without a SetFlag before it (a real core deadlocks here)");
  f = 0;
}

/// Cross-core flag counters of one block (an AIC and up to two AIVs).
struct BlockShared {
  std::mutex m;
  std::condition_variable cv;
  uint32_t toAiv[2][16] = {};    // set by the AIC (mode 2) for each AIV
  uint32_t toAic[2][16] = {};    // set by AIV i (mode 2) for the AIC
  uint32_t aivToAiv[2][2][16] = {}; // mode 1: [waiting AIV][setting AIV]
  std::atomic<bool> *abort = nullptr;
};

inline int TimeoutMs() {
  const char *e = std::getenv("ASC2_TWIN_TIMEOUT_MS");
  int v = e ? std::atoi(e) : 0;
  return v > 0 ? v : 10000;
}

inline BlockShared &Shared() {
  Core &c = CurrentCore();
  if (!c.shared)
    Fail("cross-core flag outside a launched block");
  return *c.shared;
}

inline void CheckFlagId(int id) {
  if (id < 0 || id >= 16)
    Fail("cross-core flag id " + std::to_string(id) + " is outside [0, 16)");
}

inline void CrossCoreSet(int mode, int id) {
  CheckFlagId(id);
  Core &c = CurrentCore();
  BlockShared &s = Shared();
  {
    std::lock_guard<std::mutex> g(s.m);
    if (mode == 2) {
      if (c.kind == CoreKind::AIC) {
        for (uint32_t i = 0; i < c.aivPerBlock; ++i)
          ++s.toAiv[i][id];
      } else {
        ++s.toAic[c.subBlock][id];
      }
    } else if (mode == 1) {
      if (c.kind == CoreKind::AIC)
        Fail("CrossCoreSetFlag mode 1 (between AIVs) on an AIC");
      for (uint32_t w = 0; w < c.aivPerBlock; ++w)
        ++s.aivToAiv[w][c.subBlock][id];
    } else {
      Fail("CrossCoreSetFlag mode " + std::to_string(mode) +
           " is not supported by the twin (blocks run one after another; "
           "modes 1 and 2 are)");
    }
  }
  s.cv.notify_all();
}

inline void CrossCoreWait(int id) {
  CheckFlagId(id);
  Core &c = CurrentCore();
  BlockShared &s = Shared();
  std::unique_lock<std::mutex> g(s.m);
  // An AIC waits for every active AIV; an AIV for the AIC (mode 2) or, when
  // only AIVs set it, for every AIV (mode 1).
  auto ready = [&] {
    if (s.abort && s.abort->load())
      return true;
    if (c.kind == CoreKind::AIC) {
      for (uint32_t i = 0; i < c.aivPerBlock; ++i)
        if (!s.toAic[i][id])
          return false;
      return c.aivPerBlock > 0;
    }
    if (s.toAiv[c.subBlock][id])
      return true;
    for (uint32_t i = 0; i < c.aivPerBlock; ++i)
      if (!s.aivToAiv[c.subBlock][i][id])
        return false;
    return c.aivPerBlock > 0;
  };
  if (!s.cv.wait_for(g, std::chrono::milliseconds(TimeoutMs()), ready))
    Fail("deadlock: CrossCoreWaitFlag(" + std::to_string(id) + ") waited " +
         std::to_string(TimeoutMs()) + " ms and no core set the flag");
  if (s.abort && s.abort->load())
    Fail("stopped: another core of the launch failed");
  if (c.kind == CoreKind::AIC) {
    for (uint32_t i = 0; i < c.aivPerBlock; ++i)
      --s.toAic[i][id];
  } else if (s.toAiv[c.subBlock][id]) {
    --s.toAiv[c.subBlock][id];
  } else {
    for (uint32_t i = 0; i < c.aivPerBlock; ++i)
      --s.aivToAiv[c.subBlock][i][id];
  }
}

} // namespace asc2_twin

namespace AscendC {

template <HardEvent evt> inline void SetFlag(int32_t eventID) {
  asc2_twin::SetFlag(int(evt), eventID);
}
template <HardEvent evt> inline void WaitFlag(int32_t eventID) {
  asc2_twin::WaitFlag(int(evt), eventID);
}
inline void SetFlag(HardEvent evt, int32_t eventID) { asc2_twin::SetFlag(int(evt), eventID); }
inline void WaitFlag(HardEvent evt, int32_t eventID) { asc2_twin::WaitFlag(int(evt), eventID); }

/// Program order already orders the pipes on the twin.
template <pipe_t pipe> inline void PipeBarrier() { (void)asc2_twin::CurrentCore(); }
inline void DataSyncBarrier() {}
template <typename... A> inline void DataSyncBarrier(A...) {}

template <uint8_t modeId, pipe_t pipe> inline void CrossCoreSetFlag(uint16_t flagId) {
  asc2_twin::CrossCoreSet(modeId, flagId);
}
template <uint8_t modeId = 0, pipe_t pipe = PIPE_S>
inline void CrossCoreWaitFlag(uint16_t flagId) {
  asc2_twin::CrossCoreWait(flagId);
}

/// SyncAll would need every block at once; blocks run one after another.
template <bool isAIVOnly = true, typename... A> inline void SyncAll(A...) {
  asc2_twin::Fail("SyncAll is not supported by the twin (blocks run one after another)");
}

using MutexID = uint8_t;
struct Mutex {
  template <pipe_t pipe> static void Lock(MutexID id) {
    auto &held = asc2_twin::CurrentCore().sync.mutexLocked[pipe];
    if (id >= 32 || (held >> id) & 1u)
      asc2_twin::Fail("Mutex::Lock<" + std::to_string(int(pipe)) + ">(" +
                      std::to_string(id) + ") while this pipe already holds it");
    held |= 1u << id;
  }
  template <pipe_t pipe> static void Unlock(MutexID id) {
    auto &held = asc2_twin::CurrentCore().sync.mutexLocked[pipe];
    if (id >= 32 || !((held >> id) & 1u))
      asc2_twin::Fail("Mutex::Unlock<" + std::to_string(int(pipe)) + ">(" +
                      std::to_string(id) + ") without a Lock");
    held &= ~(1u << id);
  }
};
inline MutexID AllocMutexID() { return 0; }
inline void ReleaseMutexID(MutexID) {}

/// The c310 static-tensor entry (resets the SoC state; nothing on the host).
inline void InitSocState() { asc2_twin::CurrentCore().vec = {}; }

// Atomic GM writes (DataCopy/DataCopyPad/Fixpipe to GM accumulate).
template <typename T> inline void SetAtomicAdd() {
  asc2_twin::CurrentCore().atomic = asc2_twin::AtomicOp::Add;
}
template <typename T> inline void SetAtomicMax() {
  asc2_twin::CurrentCore().atomic = asc2_twin::AtomicOp::Max;
}
template <typename T> inline void SetAtomicMin() {
  asc2_twin::CurrentCore().atomic = asc2_twin::AtomicOp::Min;
}
inline void DisableDmaAtomic() { asc2_twin::CurrentCore().atomic = asc2_twin::AtomicOp::None; }
inline void SetAtomicNone() { DisableDmaAtomic(); }

} // namespace AscendC

#endif // ASC2_TWIN_SYNC_H
