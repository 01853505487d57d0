//===- MemorySystem.cpp - The chip's L2 and HBM bandwidth over a launch ----===//
//
// The blocks of a launch run independently (on several worker threads), each
// copy at its core's own port bandwidth. The chip-wide memory system is then
// applied once, after the blocks are placed in time, in a deterministic order
// that does not depend on the thread count:
//
//   1. L2: every GM copy, in launch-time order (ties: core, then issue
//      order), touches its rows' l2_line_bytes lines in an LRU of l2_bytes.
//      A read of a resident line (read or written by any core before) is an
//      L2 hit; a read miss fetches the line from HBM. Writes allocate dirty
//      lines without a fetch (write-back): evicting a dirty line writes it to
//      HBM. Lines still dirty at the end are written back after the launch.
//   2. Bandwidth: each copy's HBM bytes (misses, write-backs) and L2 bytes
//      (all its bytes) are spread over its data-transfer interval into time
//      buckets. A bucket whose demand exceeds hbm_gbps or l2_gbps takes
//      demand / bandwidth cycles instead of its length: the transfers in
//      flight share the bandwidth, and the whole chip waits for them.
//   3. The resulting monotone time map (slope >= 1) moves every core's start
//      and end, the trace, and stretches the busy time of the GM copies.
//
// A launch whose copies never exceed either bandwidth keeps its times.
//
//===----------------------------------------------------------------------===//

#include "MemorySystem.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <unordered_map>

namespace asc2::sim {

namespace {

/// An LRU set of lines with a dirty bit, as an intrusive list over a node
/// pool: O(1) per touch.
class LineLru {
public:
  explicit LineLru(int64_t capacityLines)
      : capacity(std::max<int64_t>(1, capacityLines)) {}

  /// Touches `line`; returns true on a hit. A write marks it dirty. Adds to
  /// `writeBacks` the dirty lines it evicts.
  bool touch(int64_t line, bool write, int64_t &writeBacks) {
    auto it = index.find(line);
    if (it != index.end()) {
      int32_t n = it->second;
      unlink(n);
      pushFront(n);
      nodes[size_t(n)].dirty |= write;
      return true;
    }
    int32_t n;
    if (int64_t(index.size()) >= capacity) {
      n = tail;
      unlink(n);
      if (nodes[size_t(n)].dirty)
        ++writeBacks;
      index.erase(nodes[size_t(n)].line);
    } else {
      n = int32_t(nodes.size());
      nodes.push_back({});
    }
    nodes[size_t(n)].line = line;
    nodes[size_t(n)].dirty = write;
    pushFront(n);
    index.emplace(line, n);
    return false;
  }

private:
  struct Node {
    int64_t line = 0;
    int32_t prev = -1, next = -1;
    bool dirty = false;
  };
  void unlink(int32_t n) {
    Node &x = nodes[size_t(n)];
    (x.prev >= 0 ? nodes[size_t(x.prev)].next : head) = x.next;
    (x.next >= 0 ? nodes[size_t(x.next)].prev : tail) = x.prev;
    x.prev = x.next = -1;
  }
  void pushFront(int32_t n) {
    Node &x = nodes[size_t(n)];
    x.next = head;
    x.prev = -1;
    if (head >= 0)
      nodes[size_t(head)].prev = n;
    head = n;
    if (tail < 0)
      tail = n;
  }

  int64_t capacity;
  std::vector<Node> nodes;
  std::unordered_map<int64_t, int32_t> index;
  int32_t head = -1, tail = -1;
};

/// The piecewise-linear launch-time map of step 3.
class TimeMap {
public:
  TimeMap(uint64_t bucket, std::vector<double> slope)
      : bucket(bucket), slope(std::move(slope)) {
    prefix.resize(this->slope.size() + 1, 0);
    for (size_t i = 0; i < this->slope.size(); ++i)
      prefix[i + 1] = prefix[i] + double(bucket) * this->slope[i];
  }
  uint64_t operator()(uint64_t t) const {
    size_t i = size_t(t / bucket);
    if (i >= slope.size())
      return uint64_t(std::llround(prefix.back())) +
             (t - uint64_t(slope.size()) * bucket);
    return uint64_t(std::llround(prefix[i] +
                                 double(t - uint64_t(i) * bucket) * slope[i]));
  }

private:
  uint64_t bucket;
  std::vector<double> slope;
  std::vector<double> prefix;
};

bool isGmCopy(Opcode op) {
  return op == Opcode::CopyGmToLocal || op == Opcode::CopyGmToLocalNd || op == Opcode::CopyLocalToGm ||
         op == Opcode::CopyGmToL1Nz || op == Opcode::FixpipeToGm;
}

/// Sync events span the waits they resolve: both ends move with the map.
bool isSync(Opcode op) {
  return op == Opcode::SetFlag || op == Opcode::WaitFlag ||
         op == Opcode::GetBuf || op == Opcode::RlsBuf ||
         op == Opcode::CrossCoreSetFlag || op == Opcode::CrossCoreWaitFlag ||
         op == Opcode::PipeBarrier;
}

} // namespace

void applyMemorySystem(const ArchModel &arch, std::vector<GmAccess> &accesses,
                       LaunchResult &result) {
  if (accesses.empty())
    return;
  // 1. L2, in launch-time order.
  std::vector<uint32_t> order(accesses.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    const GmAccess &x = accesses[a], &y = accesses[b];
    if (x.start != y.start)
      return x.start < y.start;
    return x.core < y.core; // stable: issue order within a core
  });
  const int64_t line = std::max<int64_t>(1, arch.l2LineBytes);
  LineLru l2(arch.l2Bytes / line);
  std::vector<double> hbmBytes(accesses.size(), 0);
  for (uint32_t i : order) {
    const GmAccess &a = accesses[i];
    int64_t misses = 0, writeBacks = 0, bytes = a.rowBytes * a.rows;
    // Contiguous rows are one range.
    bool contiguous = a.strideBytes == a.rowBytes || a.rows == 1;
    int64_t ranges = contiguous ? 1 : a.rows;
    int64_t rangeBytes = contiguous ? bytes : a.rowBytes;
    for (int64_t r = 0; r < ranges; ++r) {
      int64_t lo = a.addr + r * a.strideBytes;
      for (int64_t l = lo / line, last = (lo + rangeBytes - 1) / line;
           l <= last; ++l)
        if (!l2.touch(l, a.write, writeBacks) && !a.write)
          ++misses;
    }
    hbmBytes[i] = double((misses + writeBacks) * line);
    if (!a.write) {
      result.gmReadBytes += uint64_t(bytes);
      result.l2HitBytes +=
          uint64_t(std::max<int64_t>(0, bytes - misses * line));
    }
    result.hbmBytes += uint64_t((misses + writeBacks) * line);
  }

  // 2. Demand per time bucket.
  uint64_t horizon = 0;
  for (const GmAccess &a : accesses)
    horizon = std::max(horizon, a.end + 1);
  const uint64_t bucket = std::max<uint64_t>(128, horizon / 65536 + 1);
  const size_t n = size_t(horizon / bucket + 1);
  std::vector<double> hbm(n, 0), l2Demand(n, 0);
  for (size_t i = 0; i < accesses.size(); ++i) {
    const GmAccess &a = accesses[i];
    uint64_t s = a.start, e = std::max(a.end, a.start + 1);
    double span = double(e - s), bytes = double(a.rowBytes * a.rows);
    for (uint64_t b = s / bucket; b <= (e - 1) / bucket; ++b) {
      uint64_t lo = std::max(s, b * bucket), hi = std::min(e, (b + 1) * bucket);
      double share = double(hi - lo) / span;
      hbm[b] += hbmBytes[i] * share;
      l2Demand[b] += bytes * share;
    }
  }
  std::vector<double> slope(n, 1.0);
  bool stretched = false;
  const double len = double(bucket);
  for (size_t b = 0; b < n; ++b) {
    double k = 1.0;
    if (arch.hbmBytesPerCycle > 0)
      k = std::max(k, hbm[b] / (arch.hbmBytesPerCycle * len));
    if (arch.l2BytesPerCycle > 0)
      k = std::max(k, l2Demand[b] / (arch.l2BytesPerCycle * len));
    slope[b] = k;
    stretched |= k > 1.0;
  }
  if (!stretched)
    return;

  // 3. Move everything with the map.
  TimeMap map(bucket, std::move(slope));
  for (const GmAccess &a : accesses)
    result.cores[a.core].busy[int(a.pipe)] +=
        (map(a.end) - map(a.start)) - (a.end - a.start);
  result.totalCycles = 0;
  for (CoreStats &c : result.cores) {
    c.start = map(c.start);
    c.cycles = map(c.cycles);
    result.totalCycles = std::max(result.totalCycles, c.cycles);
  }
  for (TraceEvent &e : result.trace) {
    uint64_t dur = e.end - e.start;
    if (isGmCopy(e.op)) {
      uint64_t freed = e.end - std::min(e.latency, dur);
      e.start = map(e.start);
      e.end = std::max(e.start, map(freed)) + (e.end - freed);
    } else if (isSync(e.op)) {
      e.start = map(e.start);
      e.end = map(e.end);
    } else {
      e.start = map(e.start);
      e.end = e.start + dur;
    }
  }
}

} // namespace asc2::sim
