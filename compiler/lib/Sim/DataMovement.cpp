//===- DataMovement.cpp - GM <-> UB/L1 copies of one simulated core --------===//
//
// DataCopy in both directions (1-D and 2-D, padding, atomic stores), the GM
// range checks every GM access goes through, and the race-detector record of
// strided local rows the cube path shares.
//
//===----------------------------------------------------------------------===//

#include "CoreRunner.h"
#include "VectorKernels.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

namespace asc2::sim {

bool CoreRunner::gmRange(const Instr &in, int64_t offset, int64_t count,
                         uint8_t *&ptr) {
  const GmBuffer buf = gmBuffer(in);
  int64_t w = byteWidth(in.dtype);
  int64_t elems = buf.bytes / w;
  if (count < 0)
    return fail(in, "negative element count",
                          std::to_string(count) + " elements");
  // A zero-length copy is a no-op on hardware (blockLen 0), wherever it points.
  if (count == 0) {
    ptr = buf.data;
    return true;
  }
  if (offset < 0 || offset > elems || count > elems - offset)
    return fail(
        in, "GM out-of-bounds",
        "elements [" + std::to_string(offset) + ", " +
            std::to_string(offset + count) + ") of " +
            (in.gmArg == kWorkspaceArg
                 ? std::string("the block's workspace")
                 : "argument " + std::to_string(in.gmArg)) +
            " (" + std::to_string(elems) + " elements)");
  ptr = buf.data + offset * w;
  return true;
}

bool CoreRunner::gmRows(const Instr &in, int64_t offset, int64_t count,
                        int64_t rows, int64_t stride, uint8_t *&ptr) {
  if (rows < 0)
    return fail(in, "negative row count", std::to_string(rows) + " rows");
  if (rows == 0 || count == 0) { // nothing moves: a no-op wherever it points
    ptr = gmBuffer(in).data;
    return true;
  }
  // The rows are evenly spaced, so the first and the last bound them all.
  uint8_t *last;
  if (rows > 1 && !gmRange(in, offset + (rows - 1) * stride, count, last))
    return false;
  return gmRange(in, offset, count, ptr);
}

void CoreRunner::gmTransfer(const Instr &in, int64_t offset, int64_t rowElems,
                            int64_t rows, int64_t gmStride, bool write,
                            double bytesPerCycle, int64_t traceBytes) {
  CopySpan span = gmTime(in, rows * rowElems * int64_t(byteWidth(in.dtype)), write,
                         bytesPerCycle, traceBytes);
  gmRecord(in, span, offset, rowElems, rows, gmStride, write);
}

CoreRunner::CopySpan CoreRunner::gmTime(const Instr &in, int64_t portBytes, bool write,
                                        double bytesPerCycle, int64_t traceBytes) {
  const Pipe p = in.pipe;
  const uint64_t occupancy = copyCycles(portBytes, bytesPerCycle);
  const uint64_t latency = uint64_t(std::llround(
      write ? arch.gmWriteLatencyCycles : arch.gmReadLatencyCycles));
  // In order on the pipe, and only once the copy mteOutstanding places
  // earlier has completed.
  std::vector<uint64_t> &ring = inFlight[int(p)];
  uint64_t &slot = ring[size_t(gmCopies[int(p)]++ % ring.size())];
  uint64_t start = std::max(startOn(p, enqueue(p)), slot);
  if (arch.gmPortShared && !isAic && (p == Pipe::MTE2 || p == Pipe::MTE3))
    start = gmPort.book(p == Pipe::MTE3, start, occupancy, issueTime);
  uint64_t freed = start + occupancy, done = freed + latency;
  occupyPipelined(p, start, freed, done);
  out->stats.bytes[int(p)] += uint64_t(traceBytes);
  slot = done;
  if (traceOn && emit(in, p, start, done, traceBytes))
    out->trace.back().latency = latency;
  return {start, freed};
}

void CoreRunner::gmRecord(const Instr &in, CopySpan span, int64_t offset,
                          int64_t rowElems, int64_t rows, int64_t gmStride, bool write) {
  if (rows <= 0 || rowElems <= 0)
    return;
  const int64_t w = byteWidth(in.dtype);
  GmAccess a;
  a.start = span.start;
  a.end = span.freed;
  a.addr = gmAddress(in, offset);
  a.rowBytes = rowElems * w;
  a.rows = rows;
  a.strideBytes = gmStride * w;
  a.write = write;
  a.atomic = in.atomic != AtomicKind::None;
  a.pipe = in.pipe;
  a.pc = int32_t(&in - program.code.data());
  out->gm.push_back(a);
  // The local side of the copy began the instruction's accesses.
  if (races && !a.atomic)
    races->gmRows(write, a.addr, rows, a.rowBytes, a.strideBytes);
}

void CoreRunner::accessRows(bool isWrite, Space s, int64_t addr, int64_t rows,
                            int64_t rowBytes, int64_t strideBytes) {
  forEachRow(addr, rows, rowBytes, strideBytes, [&](int64_t lo, int64_t hi) {
    isWrite ? races->write(s, lo, hi) : races->read(s, lo, hi);
  });
}

bool CoreRunner::localStart(const Instr &in, int64_t addr, int64_t extent,
                            int64_t &start) {
  start = addr;
  if (in.localElems == 0)
    return true;
  const int64_t w = byteWidth(in.dtype), at = val(in.localOffset);
  if (at < 0 || at * w + extent > in.localElems * w)
    return fail(in, "local offset out of its buffer",
                "elements [" + std::to_string(at) + ", " +
                    std::to_string(at + extent / std::max<int64_t>(1, w)) +
                    ") of a buffer of " + std::to_string(in.localElems));
  start = addr + at * w;
  return true;
}

bool CoreRunner::indexedRowHint(const Instr &in, const char *hint) {
  if (in.localElems > 0) // a copy `at` a row: the row of an index
    out->error += std::string(" (") + hint + ")";
  return false;
}

bool CoreRunner::copyIn(const Instr &in, int32_t pc) {
  int64_t offset = val(in.a), count = val(in.b), rows = val(in.rows);
  int64_t w = byteWidth(in.dtype);
  const bool oneRow = rows == 1 && in.tileRows <= 1;
  int64_t stride = oneRow ? count : localRowStride(in, count);
  int64_t tileRows = oneRow ? 1 : std::max<int64_t>(in.tileRows, rows);
  if (oneRow) {
    if (in.hasPad && count > in.tileElems)
      return fail(in, "copy larger than its tile",
                  std::to_string(count) + " elements into a tile of " +
                      std::to_string(in.tileElems));
    if (in.hasPad)
      stride = in.tileElems;
  } else {
    if (count > stride)
      return fail(in, "copy row longer than the local row stride",
                  std::to_string(count) + " elements into rows of " +
                      std::to_string(stride));
    if (in.hasPad && rows > in.tileRows)
      return fail(in, "copy larger than its tile",
                  std::to_string(rows) + " rows into a tile of " +
                      std::to_string(in.tileRows));
  }
  uint8_t *src;
  if (!gmRows(in, offset, count, rows, val(in.gmRowStride), src))
    return indexedRowHint(in, "asc2.gather read a row outside the tensor: an index (plus the offset) is "
                              "outside the gathered dimension; check_bounds=True gives pad_value rows "
                              "for such indices");
  // Local bytes written: whole padded rows of the tile, or the copied rows.
  int64_t rowBytes = in.hasPad ? stride * w : count * w;
  int64_t writtenRows = in.hasPad ? tileRows : rows;
  int64_t extent =
      writtenRows > 0 ? (writtenRows - 1) * stride * w + rowBytes : 0;
  int64_t dstAddr;
  if (!localStart(in, in.dstAddr, extent, dstAddr) ||
      !checkLocal(in, in.dstSpace, dstAddr, extent))
    return false;
  uint8_t *dst = memory[int(in.dstSpace)].data() + dstAddr;
  const int64_t gmStride = val(in.gmRowStride);
  if (count > 0)
    for (int64_t r = 0; r < rows; ++r)
      std::memcpy(dst + r * stride * w, src + r * gmStride * w,
                  size_t(count * w));
  if (in.hasPad) {
    uint8_t pad[8];
    encodeScalar(in.dtype, Scalar::ofFloat(in.fimm), pad);
    for (int64_t r = 0; r < tileRows; ++r)
      for (int64_t i = r < rows ? count : 0; i < stride; ++i)
        std::memcpy(dst + (r * stride + i) * w, pad, size_t(w));
  }
  if (races) {
    races->beginAccesses(in.pipe, pc);
    accessRows(true, in.dstSpace, dstAddr, writtenRows, rowBytes,
               stride * w);
  }
  gmTransfer(in, offset, count, rows, gmStride, /*write=*/false,
             in.dstSpace == Space::L1
                 ? arch.gmToL1BytesPerCycle
                 : arch.gmCopyBytesPerCycle(arch.gmToUbBytesPerCycle, /*write=*/false),
             rows * count * w);
  return true;
}

bool CoreRunner::copyOut(const Instr &in, int32_t pc) {
  int64_t offset = val(in.a), count = val(in.b), rows = val(in.rows);
  int64_t w = byteWidth(in.dtype);
  int64_t stride = rows == 1 ? count : localRowStride(in, count);
  if (count > stride)
    return fail(in, "copy row longer than the local row stride",
                std::to_string(count) + " elements from rows of " +
                    std::to_string(stride));
  uint8_t *dst;
  const int64_t gmStride = val(in.gmRowStride);
  if (!gmRows(in, offset, count, rows, gmStride, dst))
    return indexedRowHint(in, "asc2.scatter wrote a row outside the tensor: an index (plus the offset) "
                              "is outside the scattered dimension; check_bounds=True skips such indices");
  int64_t extent = rows > 0 && count > 0 ? ((rows - 1) * stride + count) * w : 0;
  int64_t srcAddr;
  if (!localStart(in, in.src0Addr, extent, srcAddr) ||
      !checkLocal(in, in.srcSpace, srcAddr, extent))
    return false;
  const uint8_t *src = memory[int(in.srcSpace)].data() + srcAddr;
  if (count > 0) {
    if (in.atomic != AtomicKind::None) {
      auto lock = l.atomicOrder.turn(block);
      for (int64_t r = 0; r < rows; ++r)
        atomicKernel(in.atomic, in.dtype, dst + r * gmStride * w,
                     src + r * stride * w, count);
    } else {
      for (int64_t r = 0; r < rows; ++r)
        std::memcpy(dst + r * gmStride * w, src + r * stride * w,
                    size_t(count * w));
    }
  }
  if (races) {
    races->beginAccesses(in.pipe, pc);
    accessRows(false, in.srcSpace, srcAddr, rows, count * w, stride * w);
  }
  gmTransfer(in, offset, count, rows, gmStride, /*write=*/true,
             in.srcSpace == Space::UB
                 ? arch.gmCopyBytesPerCycle(arch.ubToGmBytesPerCycle, /*write=*/true)
                 : arch.ubToGmBytesPerCycle,
             rows * count * w);
  return true;
}

namespace {

/// `m` elements of `w` bytes from `src` to `dst`, `srcStride` and
/// `dstStride` elements apart.
template <typename T>
void stridedRun(uint8_t *dst, int64_t dstStride, const uint8_t *src, int64_t srcStride, int64_t m) {
  for (int64_t i = 0; i < m; ++i)
    std::memcpy(dst + i * dstStride * int64_t(sizeof(T)), src + i * srcStride * int64_t(sizeof(T)),
                sizeof(T));
}

void copyRun(uint8_t *dst, int64_t dstStride, const uint8_t *src, int64_t srcStride, int64_t m,
             int64_t w) {
  if (srcStride == 1 && dstStride == 1)
    return (void)std::memcpy(dst, src, size_t(m * w));
  switch (w) {
  case 1: return stridedRun<uint8_t>(dst, dstStride, src, srcStride, m);
  case 2: return stridedRun<uint16_t>(dst, dstStride, src, srcStride, m);
  case 4: return stridedRun<uint32_t>(dst, dstStride, src, srcStride, m);
  default: return stridedRun<uint64_t>(dst, dstStride, src, srcStride, m);
  }
}

void padRun(uint8_t *dst, int64_t dstStride, const uint8_t *pad, int64_t m, int64_t w) {
  for (int64_t i = 0; i < m; ++i)
    std::memcpy(dst + i * dstStride * w, pad, size_t(w));
}

} // namespace

bool CoreRunner::copyInNd(const Instr &in, int32_t pc) {
  const std::vector<NdCopyLoop> &loops = program.ndCopies[size_t(in.ndCopy)];
  const size_t n = loops.size();
  const int64_t w = byteWidth(in.dtype);
  llvm::SmallVector<int64_t, 5> size(n);
  bool empty = false;
  int64_t lastDst = 0, lastSrc = 0, elems = 1;
  for (size_t k = 0; k < n; ++k) {
    size[k] = val(loops[k].size);
    if (size[k] < 0 || size[k] > loops[k].extent)
      return fail(in, "N-dimensional copy size outside its loop",
                  std::to_string(size[k]) + " of loop " + std::to_string(k) + " (extent " +
                      std::to_string(loops[k].extent) + ")");
    empty |= size[k] == 0;
    elems *= size[k];
    lastDst += (loops[k].extent - 1) * loops[k].dstStride;
    lastSrc += std::max<int64_t>(size[k] - 1, 0) * loops[k].srcStride;
  }
  const int64_t localBytes = (lastDst + 1) * w;
  if (!checkLocal(in, in.dstSpace, in.dstAddr, localBytes))
    return false;
  const int64_t offset = val(in.a);
  uint8_t *src = nullptr;
  if (!empty && !gmRange(in, offset, lastSrc + 1, src))
    return false;
  uint8_t *dst = memory[int(in.dstSpace)].data() + in.dstAddr;
  uint8_t pad[8];
  encodeScalar(in.dtype, Scalar::ofFloat(in.fimm), pad);
  // The outer loops position a run of the innermost one: its first size
  // elements from GM, then its padding (all of it outside the box).
  const NdCopyLoop &inner = loops[n - 1];
  llvm::SmallVector<int64_t, 5> idx(n, 0);
  int64_t runs = 1;
  for (size_t k = 0; k + 1 < n; ++k)
    runs *= loops[k].extent;
  for (int64_t r = 0; r < runs; ++r) {
    bool inside = !empty;
    int64_t s = 0, d = 0;
    for (size_t k = 0; k + 1 < n; ++k) {
      inside &= idx[k] < size[k];
      s += idx[k] * loops[k].srcStride;
      d += idx[k] * loops[k].dstStride;
    }
    int64_t m = inside ? size[n - 1] : 0;
    uint8_t *row = dst + d * w;
    if (m > 0)
      copyRun(row, inner.dstStride, src + s * w, inner.srcStride, m, w);
    padRun(row + m * inner.dstStride * w, inner.dstStride, pad, inner.extent - m, w);
    for (int64_t k = int64_t(n) - 2; k >= 0; --k) {
      if (++idx[k] < loops[k].extent)
        break;
      idx[k] = 0;
    }
  }
  if (races) {
    races->beginAccesses(in.pipe, pc);
    accessRows(true, in.dstSpace, in.dstAddr, 1, localBytes, localBytes);
  }
  // Timing: each contiguous run of the source (the innermost loop when it
  // steps by one element, else one element) holds the port for whole
  // bursts of ndDmaBurstBytes (the arch model's source).
  const int64_t burst = std::max<int64_t>(1, arch.ndDmaBurstBytes);
  int64_t bursts = 0, runBytes = 0;
  if (!empty) {
    bursts = elems;
    runBytes = w;
    if (inner.srcStride == 1) {
      bursts /= size[n - 1];
      runBytes = size[n - 1] * w;
    }
  }
  CopySpan span = gmTime(in, bursts * ((runBytes + burst - 1) / burst * burst), /*write=*/false,
                         arch.gmCopyBytesPerCycle(arch.gmToUbBytesPerCycle, /*write=*/false),
                         elems * w);
  if (empty)
    return true;
  // The box in GM for the memory system and the race detector: runs of
  // contiguous elements, rows of runs, one record per index of the rest.
  llvm::SmallVector<std::pair<int64_t, int64_t>, 5> box; // (stride, size), size > 1
  for (size_t k = 0; k < n; ++k)
    if (size[k] > 1)
      box.push_back({loops[k].srcStride, size[k]});
  llvm::sort(box);
  int64_t run = 1;
  size_t next = 0;
  if (!box.empty() && box[0].first == 1)
    for (run = box[next++].second; next < box.size() && box[next].first == run; ++next)
      run *= box[next].second;
  int64_t rows = 1, rowStride = 0;
  if (next < box.size()) {
    rowStride = box[next].first;
    rows = box[next++].second;
  }
  llvm::SmallVector<int64_t, 5> at(box.size(), 0);
  for (bool more = true; more;) {
    int64_t base = offset;
    for (size_t k = next; k < box.size(); ++k)
      base += at[k] * box[k].first;
    gmRecord(in, span, base, run, rows, rowStride, /*write=*/false);
    more = false;
    for (size_t k = box.size(); k-- > next;) {
      if (++at[k] < box[k].second) {
        more = true;
        break;
      }
      at[k] = 0;
    }
  }
  return true;
}

} // namespace asc2::sim
