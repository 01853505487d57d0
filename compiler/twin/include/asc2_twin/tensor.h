//===- tensor.h - GlobalTensor, LocalTensor, TPipe, TBuf, TQue -*- C++ -*-===//
//
// API: mirror-cann/asc-devkit@82b89a15f docs/zh/api/SIMD-API/基础API/数据结构
// (GlobalTensor, LocalTensor) and 资源管理 (TPipe, TBuf, TQue).
//
// A LocalTensor is (position, byte address, element count); its bytes live in
// the current core's memory for that position, so a tensor is meaningful only
// on the core that made it, as on hardware. Element access is checked against
// the physical memory, not the tensor's declared size: the hardware does not
// know sizes, and kernels legitimately address past a sub-tensor's end.
//
//===----------------------------------------------------------------------===//
#ifndef ASC2_TWIN_TENSOR_H
#define ASC2_TWIN_TENSOR_H

#include "asc2_twin/core.h"
#include "asc2_twin/half.h"
#include "asc2_twin/kernel_macros.h"

#include <cstring>
#include <deque>

namespace AscendC {

enum class TPosition : uint8_t {
  GM,
  A1,
  A2,
  B1,
  B2,
  C1,
  C2,
  CO1,
  CO2,
  VECIN,
  VECOUT,
  VECCALC,
  LCM = VECCALC,
  SPM,
  SHM = SPM,
  TSCM,
  C2PIPE2GM,
  C2PIPE2LOCAL,
  MAX,
};
using QuePosition = TPosition;

inline asc2_twin::Memory MemoryOf(TPosition p) {
  using asc2_twin::Memory;
  switch (p) {
  case TPosition::VECIN:
  case TPosition::VECOUT:
  case TPosition::VECCALC:
    return Memory::UB;
  case TPosition::A1:
  case TPosition::B1:
  case TPosition::C1:
  case TPosition::TSCM:
    return Memory::L1;
  case TPosition::A2:
    return Memory::L0A;
  case TPosition::B2:
    return Memory::L0B;
  case TPosition::CO1:
    return Memory::L0C;
  case TPosition::C2:
    return Memory::BT;
  default:
    return Memory::GM;
  }
}

/// Checked element reads and writes through Derived::Ptr (twin internals).
template <typename Derived, typename T> struct ElementAccess {
  T Load(const char *api, int64_t i) const {
    T v;
    std::memcpy(&v, static_cast<const Derived *>(this)->Ptr(api, i, 1), sizeof(T));
    return v;
  }
  void Store(const char *api, int64_t i, T v) const {
    std::memcpy(static_cast<const Derived *>(this)->Ptr(api, i, 1), &v, sizeof(T));
  }
};

template <typename T> class LocalTensor : public ElementAccess<LocalTensor<T>, T> {
public:
  using PrimType = T;
  LocalTensor() = default;
  /// The static-tensor form (c310 guide): position, byte address, elements.
  LocalTensor(TPosition pos, uint32_t addr, uint32_t tileSize)
      : pos_(pos), addr_(addr), size_(tileSize) {
    if (MemoryOf(pos) == asc2_twin::Memory::GM)
      asc2_twin::Fail("LocalTensor: a GM position has no local memory");
  }

  LocalTensor operator[](uint32_t offset) const {
    LocalTensor t = *this;
    t.addr_ = addr_ + uint64_t(offset) * sizeof(T);
    t.size_ = offset < size_ ? size_ - offset : 0;
    return t;
  }

  T GetValue(uint32_t i) const { return this->Load("GetValue", i); }
  void SetValue(uint32_t i, T v) const { this->Store("SetValue", i, v); }
  T &operator()(uint32_t i) const { return *Ptr("operator()", i, 1); }

  uint32_t GetSize() const { return size_; }
  uint32_t GetLength() const { return size_ * sizeof(T); }
  void SetSize(uint32_t n) { size_ = n; }
  void SetBufferLen(uint32_t bytes) { size_ = bytes / sizeof(T); }
  TPosition GetPosition() const { return pos_; }
  uint64_t GetPhyAddr() const { return addr_; }
  uint64_t GetPhyAddr(uint32_t offset) const { return addr_ + offset * sizeof(T); }
  void SetAddrWithOffset(const LocalTensor &src, uint32_t offset) {
    *this = src[offset];
  }
  template <typename U> LocalTensor<U> ReinterpretCast() const {
    LocalTensor<U> t;
    t.Reset(pos_, addr_, uint32_t(uint64_t(size_) * sizeof(T) / sizeof(U)));
    return t;
  }

  // --- twin internals (not Ascend C API) ---
  asc2_twin::Memory Mem() const { return MemoryOf(pos_); }
  uint64_t ByteAddr() const { return addr_; }
  void Reset(TPosition pos, uint64_t addr, uint32_t size) {
    pos_ = pos;
    addr_ = addr;
    size_ = size;
  }
  /// Checked pointer to elements [i, i + n) (i may be any signed offset).
  T *Ptr(const char *api, int64_t i, int64_t n) const {
    return reinterpret_cast<T *>(asc2_twin::CheckLocal(
        api, Mem(), int64_t(addr_) + i * int64_t(sizeof(T)), n * int64_t(sizeof(T))));
  }

private:
  TPosition pos_ = TPosition::VECCALC;
  uint64_t addr_ = 0;
  uint32_t size_ = 0;
};

template <typename T> class GlobalTensor : public ElementAccess<GlobalTensor<T>, T> {
public:
  using PrimType = T;
  void SetGlobalBuffer(__gm__ T *buffer, uint64_t bufferSize) {
    base_ = buffer;
    size_ = bufferSize;
  }
  void SetGlobalBuffer(__gm__ T *buffer) {
    base_ = buffer;
    size_ = 0;
  }
  GlobalTensor operator[](uint64_t offset) const {
    GlobalTensor t = *this;
    t.base_ = base_ + offset;
    t.size_ = size_ > offset ? size_ - offset : 0;
    return t;
  }
  /// A scalar read past every argument's buffer is undefined on an NPU (it
  /// reads whatever memory follows); the twin, like the simulator, reads 0.
  T GetValue(uint64_t i) const {
    if (base_ && !asc2_twin::InGlobal(base_ + i, sizeof(T)))
      return T(0);
    return this->Load("GetValue", int64_t(i));
  }
  void SetValue(uint64_t i, T v) const { this->Store("SetValue", int64_t(i), v); }
  T &operator()(uint64_t i) const { return *Ptr("operator()", int64_t(i), 1); }
  __gm__ T *GetPhyAddr() const { return base_; }
  __gm__ T *GetPhyAddr(uint64_t offset) const { return base_ + offset; }
  uint64_t GetSize() const { return size_; }

  // --- twin internals ---
  T *Ptr(const char *api, int64_t i, int64_t n) const {
    if (!base_)
      asc2_twin::Fail(std::string(api) + ": GlobalTensor without SetGlobalBuffer");
    asc2_twin::CheckGlobal(api, base_ + i, n * int64_t(sizeof(T)));
    return base_ + i;
  }

private:
  T *base_ = nullptr;
  uint64_t size_ = 0;
};

class TPipe;

/// A fixed buffer of one position (TPipe::InitBuffer gives it its range).
template <TPosition pos> class TBuf {
public:
  template <typename T> LocalTensor<T> Get() const {
    return Get<T>(len_ / sizeof(T));
  }
  template <typename T> LocalTensor<T> Get(uint32_t len) const {
    Need("TBuf::Get", 0, uint64_t(len) * sizeof(T));
    LocalTensor<T> t;
    t.Reset(pos, addr_, len);
    return t;
  }
  /// `size` elements starting `bufOffset` bytes into the buffer.
  template <typename T>
  LocalTensor<T> GetWithOffset(uint32_t size, uint32_t bufOffset) const {
    Need("TBuf::GetWithOffset", bufOffset, uint64_t(size) * sizeof(T));
    LocalTensor<T> t;
    t.Reset(pos, addr_ + bufOffset, size);
    return t;
  }

private:
  friend class TPipe;
  void Need(const char *api, uint64_t off, uint64_t bytes) const {
    if (!init_)
      asc2_twin::Fail(std::string(api) + ": TBuf used before TPipe::InitBuffer");
    if (off + bytes > len_)
      asc2_twin::Fail(std::string(api) + ": [" + std::to_string(off) + ", " +
                      std::to_string(off + bytes) + ") is outside the " +
                      std::to_string(len_) + "-byte TBuf");
  }
  uint64_t addr_ = 0;
  uint32_t len_ = 0;
  bool init_ = false;
};

/// A queue of `depth` buffers: AllocTensor/EnQue/DeQue/FreeTensor.
template <TPosition pos, int32_t depth = 1, auto mask = 0> class TQue {
public:
  template <typename T> LocalTensor<T> AllocTensor() {
    if (free_.empty())
      asc2_twin::Fail("TQue::AllocTensor: no free buffer (every buffer is allocated)");
    uint64_t a = free_.front();
    free_.pop_front();
    LocalTensor<T> t;
    t.Reset(pos, a, len_ / sizeof(T));
    return t;
  }
  template <typename T> void AllocTensor(LocalTensor<T> &t) { t = AllocTensor<T>(); }
  template <typename T> bool EnQue(const LocalTensor<T> &t) {
    queued_.push_back(t.ByteAddr());
    return true;
  }
  template <typename T> LocalTensor<T> DeQue() {
    if (queued_.empty())
      asc2_twin::Fail("TQue::DeQue: the queue is empty (on hardware this hangs)");
    uint64_t a = queued_.front();
    queued_.pop_front();
    LocalTensor<T> t;
    t.Reset(pos, a, len_ / sizeof(T));
    return t;
  }
  template <typename T> void DeQue(LocalTensor<T> &t) { t = DeQue<T>(); }
  template <typename T> void FreeTensor(LocalTensor<T> &t) { free_.push_back(t.ByteAddr()); }
  bool VacantInQue() const { return int32_t(queued_.size()) < depth; }
  bool HasTensorInQue() const { return !queued_.empty(); }
  int32_t GetTensorCountInQue() const { return int32_t(queued_.size()); }
  bool HasIdleBuffer() const { return !free_.empty(); }

private:
  friend class TPipe;
  uint32_t len_ = 0;
  std::deque<uint64_t> free_, queued_;
};
template <TPosition src, TPosition dst, int32_t depth = 1, auto mask = 0>
class TQueBind : public TQue<src, depth, mask> {};

using TEventID = int8_t;

} // namespace AscendC

#endif // ASC2_TWIN_TENSOR_H
