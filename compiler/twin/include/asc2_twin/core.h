//===- core.h - The CPU twin's cores: identity, local memories, errors -*- C++ -*-===//
//
// One AI Core of the twin is a thread. Its identity (block, sub-block, cube or
// vector side) and its local memories (UB, L1, L0A, L0B, L0C, BT: byte arrays
// of the platform's sizes) are thread-local state that asc2_twin::Launch sets
// up; every API call checks the byte range it touches and throws
// asc2_twin::Error with the call's name on an out-of-range access.
//
// Platform: ASC2_TWIN_NPU_ARCH is 2201 (c220: Atlas A2/A3) or 3510 (c310:
// Ascend 950); the memory sizes default to that arch's physical capacities
// (ASC2_TWIN_<MEM>_BYTES) and can be set before a launch with SetMemoryBytes
// (the Python runner passes the sizes the compiler planned against, so the
// twin and the simulator agree).
//
//===----------------------------------------------------------------------===//
#ifndef ASC2_TWIN_CORE_H
#define ASC2_TWIN_CORE_H

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#ifndef ASC2_TWIN_NPU_ARCH
#define ASC2_TWIN_NPU_ARCH 2201
#endif
#if ASC2_TWIN_NPU_ARCH != 2201 && ASC2_TWIN_NPU_ARCH != 3510
#error "ASC2_TWIN_NPU_ARCH must be 2201 (c220) or 3510 (c310)"
#endif

#ifndef ASC2_TWIN_UB_BYTES
#if ASC2_TWIN_NPU_ARCH == 3510
#define ASC2_TWIN_UB_BYTES 253952
#else
#define ASC2_TWIN_UB_BYTES 196608
#endif
#endif
#ifndef ASC2_TWIN_L1_BYTES
#define ASC2_TWIN_L1_BYTES 524288
#endif
#ifndef ASC2_TWIN_L0A_BYTES
#define ASC2_TWIN_L0A_BYTES 65536
#endif
#ifndef ASC2_TWIN_L0B_BYTES
#define ASC2_TWIN_L0B_BYTES 65536
#endif
#ifndef ASC2_TWIN_L0C_BYTES
#if ASC2_TWIN_NPU_ARCH == 3510
#define ASC2_TWIN_L0C_BYTES 262144
#else
#define ASC2_TWIN_L0C_BYTES 131072
#endif
#endif
#ifndef ASC2_TWIN_BT_BYTES
#if ASC2_TWIN_NPU_ARCH == 3510
#define ASC2_TWIN_BT_BYTES 4096
#else
#define ASC2_TWIN_BT_BYTES 1024
#endif
#endif

namespace asc2_twin {

/// A kernel did something the API forbids or the twin cannot run.
class Error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

enum class Memory : uint8_t { UB, L1, L0A, L0B, L0C, BT, GM };

inline const char *MemoryName(Memory m) {
  switch (m) {
  case Memory::UB: return "UB";
  case Memory::L1: return "L1";
  case Memory::L0A: return "L0A";
  case Memory::L0B: return "L0B";
  case Memory::L0C: return "L0C";
  case Memory::BT: return "BT";
  case Memory::GM: return "GM";
  }
  return "?";
}

/// Sizes set at run time (the launcher passes the compiler's plan); 0 = the
/// arch default below.
inline uint64_t &MemoryBytesOverride(Memory m) {
  static uint64_t sizes[7] = {};
  return sizes[int(m)];
}
inline void SetMemoryBytes(Memory m, uint64_t bytes) { MemoryBytesOverride(m) = bytes; }

inline uint64_t MemoryBytes(Memory m) {
  if (uint64_t n = MemoryBytesOverride(m))
    return n;
  switch (m) {
  case Memory::UB: return ASC2_TWIN_UB_BYTES;
  case Memory::L1: return ASC2_TWIN_L1_BYTES;
  case Memory::L0A: return ASC2_TWIN_L0A_BYTES;
  case Memory::L0B: return ASC2_TWIN_L0B_BYTES;
  case Memory::L0C: return ASC2_TWIN_L0C_BYTES;
  case Memory::BT: return ASC2_TWIN_BT_BYTES;
  case Memory::GM: return 0;
  }
  return 0;
}

enum class CoreKind : uint8_t { AIC, AIV };

struct BlockShared; // sync.h: the cross-core flags of one block

/// Per-core sync, atomic and mask state (sync.h, data_copy.h, vector_mask.h).
struct CoreSyncState {
  static constexpr int kEvents = 48, kIds = 16, kPipes = 16;
  uint8_t flagSet[kEvents][kIds] = {};
  uint32_t eventAllocated[kEvents] = {};
  uint32_t mutexLocked[kPipes] = {};
};
enum class AtomicOp : uint8_t { None, Add, Max, Min };
struct CoreCubeState {
  bool hf32 = false; // SetHF32Mode(HF32Mode::ENABLE): Mmad rounds float operands to HF32
};
struct CoreVectorState {
  bool counterMode = false;
  uint64_t mask[2] = {~0ull, ~0ull};
};

/// Per-core state the API reads: who this core is and its local memories.
struct Core {
  CoreKind kind = CoreKind::AIV;
  uint32_t block = 0;    // the AI Core (AIC and its AIVs share it)
  uint32_t subBlock = 0; // 0 or 1 on an AIV
  uint32_t blockDim = 1;
  uint32_t aivPerBlock = 1; // active AIVs per block (the kernel type's ratio)
  bool kernelTypeSeen = false;
  BlockShared *shared = nullptr;
  // The cores of this block: [0] the AIC, [1] and [2] the AIVs (Launch sets
  // them). Ascend950's local paths write the other core's memory: an AIV's
  // copy into L1 lands in the AIC's, the AIC's fixpipe into UB in an AIV's.
  Core *group[3] = {nullptr, nullptr, nullptr};
  CoreSyncState sync;
  AtomicOp atomic = AtomicOp::None;
  CoreVectorState vec;
  CoreCubeState cube;
  std::vector<uint8_t> mem[6];
  std::string name() const {
    std::ostringstream os;
    os << (kind == CoreKind::AIC ? "AIC" : "AIV") << " of block " << block;
    if (kind == CoreKind::AIV)
      os << " (sub-block " << subBlock << ")";
    return os.str();
  }
};

inline Core *&CurrentCorePtr() {
  thread_local Core *core = nullptr;
  return core;
}

inline Core &CurrentCore() {
  Core *c = CurrentCorePtr();
  if (!c)
    throw Error("an AscendC call outside asc2_twin::Launch (no current core)");
  return *c;
}

[[noreturn]] inline void Fail(const std::string &what) {
  Core *c = CurrentCorePtr();
  throw Error(c ? c->name() + ": " + what : what);
}

inline uint8_t *LocalBaseOf(Core &c, Memory m) {
  auto &v = c.mem[int(m)];
  if (v.empty())
    v.assign(MemoryBytes(m), 0);
  return v.data();
}

/// The core whose memory `m` is for the calling core: its own, except an AIV's
/// L1, which is its AIC's (Ascend950's UB -> L1 copy; an AIV has no L1).
inline Core &OwnerOf(Memory m) {
  Core &c = CurrentCore();
  if (c.kind == CoreKind::AIV && m == Memory::L1 && c.group[0])
    return *c.group[0];
  return c;
}

inline uint8_t *LocalBase(Memory m) { return LocalBaseOf(OwnerOf(m), m); }

/// The caller's GM buffers (registered by the launcher); when any are
/// registered, every GM access must fall inside one of them.
struct GmRegistry {
  std::mutex lock;
  std::vector<std::pair<const uint8_t *, uint64_t>> regions;
  static GmRegistry &Get() {
    static GmRegistry r;
    return r;
  }
};

inline void RegisterGlobal(const void *p, uint64_t bytes) {
  auto &r = GmRegistry::Get();
  std::lock_guard<std::mutex> g(r.lock);
  r.regions.emplace_back(static_cast<const uint8_t *>(p), bytes);
}
inline void ClearGlobals() {
  auto &r = GmRegistry::Get();
  std::lock_guard<std::mutex> g(r.lock);
  r.regions.clear();
}

/// Whether [p, p + bytes) lies in one launch argument's buffer (true when
/// none are registered: a test that hands the twin plain memory).
inline bool InGlobal(const void *p, int64_t bytes) {
  auto &r = GmRegistry::Get();
  std::lock_guard<std::mutex> g(r.lock);
  if (r.regions.empty())
    return true;
  auto *b = static_cast<const uint8_t *>(p);
  for (auto &[start, len] : r.regions)
    if (b >= start && b + bytes <= start + len)
      return true;
  return false;
}

inline void CheckGlobal(const char *api, const void *p, int64_t bytes) {
  if (bytes <= 0)
    return;
  auto &r = GmRegistry::Get();
  std::lock_guard<std::mutex> g(r.lock);
  if (r.regions.empty())
    return;
  auto *b = static_cast<const uint8_t *>(p);
  for (auto &[start, len] : r.regions)
    if (b >= start && b + bytes <= start + len)
      return;
  std::ostringstream os;
  os << api << ": GM access of " << bytes << " bytes at " << p
     << " is outside every launch argument's buffer";
  Fail(os.str());
}

/// Checks [byteOffset, byteOffset + bytes) of local memory `m` of core `c` and returns it.
inline uint8_t *CheckLocalOf(Core &c, const char *api, Memory m, int64_t byteOffset, int64_t bytes) {
  if (bytes <= 0)
    return LocalBaseOf(c, m);
  int64_t cap = int64_t(MemoryBytes(m));
  if (byteOffset < 0 || byteOffset + bytes > cap) {
    std::ostringstream os;
    os << api << ": " << (&c == CurrentCorePtr() ? "" : c.name() + "'s ") << MemoryName(m) << " access ["
       << byteOffset << ", " << byteOffset + bytes << ") is outside the " << cap << "-byte "
       << MemoryName(m);
    Fail(os.str());
  }
  return LocalBaseOf(c, m) + byteOffset;
}

/// The same in the calling core's view of memory `m` (OwnerOf).
inline uint8_t *CheckLocal(const char *api, Memory m, int64_t byteOffset, int64_t bytes) {
  return CheckLocalOf(OwnerOf(m), api, m, byteOffset, bytes);
}

} // namespace asc2_twin

#endif // ASC2_TWIN_CORE_H
