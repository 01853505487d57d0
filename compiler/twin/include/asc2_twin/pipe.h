//===- pipe.h - TPipe: buffer ranges and event ids -*- C++ -*-===//
//
// API: mirror-cann/asc-devkit@82b89a15f docs/zh/api/SIMD-API/基础API/资源管理 and
// 同步控制/核内同步 (AllocEventID, ReleaseEventID, FetchEventID).
//
// InitBuffer hands out consecutive 32-byte aligned ranges of the position's
// memory, starting at 0, and fails when the memory is exhausted.
//
//===----------------------------------------------------------------------===//
#ifndef ASC2_TWIN_PIPE_H
#define ASC2_TWIN_PIPE_H

#include "asc2_twin/sync.h"
#include "asc2_twin/tensor.h"

namespace AscendC {

class TPipe;
inline TPipe *&CurrentPipe() {
  thread_local TPipe *p = nullptr;
  return p;
}

class TPipe {
public:
  TPipe() { CurrentPipe() = this; }
  ~TPipe() {
    if (CurrentPipe() == this)
      CurrentPipe() = nullptr;
  }
  TPipe(const TPipe &) = delete;
  TPipe &operator=(const TPipe &) = delete;

  void Init() {}
  void Destroy() {}
  void Reset() {
    for (auto &n : next_)
      n = 0;
  }

  template <TPosition pos> bool InitBuffer(TBuf<pos> &buf, uint32_t len) {
    buf.addr_ = Take(pos, len, "TPipe::InitBuffer(TBuf)");
    buf.len_ = len;
    buf.init_ = true;
    return true;
  }
  template <TPosition pos, int32_t depth, auto mask>
  bool InitBuffer(TQue<pos, depth, mask> &que, uint8_t num, uint32_t len) {
    que.len_ = len;
    que.free_.clear();
    que.queued_.clear();
    for (uint8_t i = 0; i < num; ++i)
      que.free_.push_back(Take(pos, len, "TPipe::InitBuffer(TQue)"));
    return true;
  }
  template <TPosition src, TPosition dst, int32_t depth, auto mask>
  bool InitBuffer(TQueBind<src, dst, depth, mask> &que, uint8_t num, uint32_t len) {
    return InitBuffer(static_cast<TQue<src, depth, mask> &>(que), num, len);
  }

  template <HardEvent evt> TEventID AllocEventID() {
    uint32_t &used = asc2_twin::CurrentCore().sync.eventAllocated[int(evt)];
    for (int id = 0; id < asc2_twin::kEventIds; ++id)
      if (!((used >> id) & 1u)) {
        used |= 1u << id;
        return TEventID(id);
      }
    asc2_twin::Fail("AllocEventID: every event id of this HardEvent is allocated");
  }
  template <HardEvent evt> void ReleaseEventID(TEventID id) {
    asc2_twin::CheckEventId("ReleaseEventID", id);
    uint32_t &used = asc2_twin::CurrentCore().sync.eventAllocated[int(evt)];
    if (!((used >> id) & 1u))
      asc2_twin::Fail("ReleaseEventID: event id " + std::to_string(id) + " is not allocated");
    used &= ~(1u << id);
  }
  template <HardEvent evt> TEventID FetchEventID() { return FetchEventID(evt); }
  TEventID FetchEventID(HardEvent evt) {
    uint32_t used = asc2_twin::CurrentCore().sync.eventAllocated[int(evt)];
    for (int id = 0; id < asc2_twin::kEventIds; ++id)
      if (!((used >> id) & 1u))
        return TEventID(id);
    asc2_twin::Fail("FetchEventID: every event id of this HardEvent is allocated");
  }

private:
  uint64_t Take(TPosition pos, uint32_t len, const char *api) {
    asc2_twin::Memory m = MemoryOf(pos);
    if (m == asc2_twin::Memory::GM)
      asc2_twin::Fail(std::string(api) + ": a GM position has no local buffer");
    uint64_t &n = next_[int(m)];
    uint64_t a = n;
    n = (n + len + 31) / 32 * 32;
    if (n > asc2_twin::MemoryBytes(m))
      asc2_twin::Fail(std::string(api) + ": " + std::to_string(n) + " bytes of " +
                      asc2_twin::MemoryName(m) + " requested, the core has " +
                      std::to_string(asc2_twin::MemoryBytes(m)));
    return a;
  }
  uint64_t next_[7] = {};
};

inline TPipe *GetTPipePtr() { return CurrentPipe(); }

} // namespace AscendC

#endif // ASC2_TWIN_PIPE_H
