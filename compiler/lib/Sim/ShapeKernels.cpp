//===- ShapeKernels.cpp - the shape calls' kernels ------------------------===//
#include "ShapeKernels.h"

#include <algorithm>
#include <cstring>
#include <vector>

namespace asc2::sim {

int64_t repeatSpanEnd(int64_t repeats, int64_t elems, int64_t width,
                      int64_t blkStride, int64_t repStride) {
  if (repeats <= 0 || elems <= 0)
    return 0;
  int64_t perBlock = kBlockBytes / width;
  int64_t blocks = (elems + perBlock - 1) / perBlock;
  int64_t lastBytes = (elems - (blocks - 1) * perBlock) * width;
  // The last block may be partial; with a small block stride a full earlier
  // block can reach further.
  int64_t end = (blocks - 1) * blkStride * kBlockBytes + lastBytes;
  if (blocks > 1)
    end = std::max(end, (blocks - 2) * blkStride * kBlockBytes + kBlockBytes);
  return (repeats - 1) * repStride * kBlockBytes + end;
}

void brcbKernel(int64_t width, uint8_t *dst, const uint8_t *src,
                int64_t repeats, int64_t dstBlk, int64_t dstRep) {
  const int64_t perBlock = kBlockBytes / width;
  // The source is read before anything is written (no aliasing surprises).
  std::vector<uint8_t> from(src, src + 8 * repeats * width);
  for (int64_t i = 0; i < repeats; ++i)
    for (int64_t j = 0; j < 8; ++j) {
      uint8_t *block = dst + (i * dstRep + j * dstBlk) * kBlockBytes;
      const uint8_t *value = &from[size_t((i * 8 + j) * width)];
      for (int64_t k = 0; k < perBlock; ++k)
        std::memcpy(block + k * width, value, size_t(width));
    }
}

void copyKernel(int64_t width, uint8_t *dst, const uint8_t *src, int64_t mask,
                int64_t repeats, int64_t dstBlk, int64_t srcBlk, int64_t dstRep,
                int64_t srcRep) {
  const int64_t perBlock = kBlockBytes / width;
  for (int64_t i = 0; i < repeats; ++i)
    for (int64_t e = 0; e < mask; e += perBlock) {
      int64_t b = e / perBlock, n = std::min(perBlock, mask - e);
      std::memmove(dst + (i * dstRep + b * dstBlk) * kBlockBytes,
                   src + (i * srcRep + b * srcBlk) * kBlockBytes,
                   size_t(n * width));
    }
}

bool gatherMaskKeeps(int64_t builtin, const uint8_t *pattern, int64_t src1Rep,
                     int64_t i, int64_t j) {
  switch (builtin) {
  case 0: {
    const uint8_t *bits = pattern + i * src1Rep * kBlockBytes;
    return (bits[j / 8] >> (j % 8)) & 1;
  }
  case 1:
  case 2:
    return j % 2 == builtin - 1;
  case 7:
    return true;
  default:
    return j % 4 == builtin - 3;
  }
}

int64_t gatherMaskKept(int64_t builtin, const uint8_t *pattern, int64_t src1Rep,
                       int64_t repeats, int64_t elems) {
  int64_t kept = 0;
  for (int64_t i = 0; i < repeats; ++i)
    for (int64_t j = 0; j < elems; ++j)
      kept += gatherMaskKeeps(builtin, pattern, src1Rep, i, j);
  return kept;
}

void gatherMaskKernel(int64_t width, uint8_t *dst, const uint8_t *src,
                      int64_t builtin, const uint8_t *pattern, int64_t src1Rep,
                      int64_t elems, int64_t repeats, int64_t srcBlk,
                      int64_t srcRep) {
  const int64_t perBlock = kBlockBytes / width;
  // Every repeat is read before anything is written: dst may be src.
  std::vector<uint8_t> kept;
  for (int64_t i = 0; i < repeats; ++i)
    for (int64_t j = 0; j < elems; ++j)
      if (gatherMaskKeeps(builtin, pattern, src1Rep, i, j)) {
        const uint8_t *e = src +
                           (i * srcRep + j / perBlock * srcBlk) * kBlockBytes +
                           j % perBlock * width;
        kept.insert(kept.end(), e, e + width);
      }
  std::memcpy(dst, kept.data(), kept.size());
}

void localDataCopyKernel(uint8_t *dst, const uint8_t *src, int64_t count,
                         int64_t len, int64_t srcGap, int64_t dstGap) {
  for (int64_t i = 0; i < count; ++i)
    std::memmove(dst + i * (len + dstGap) * kBlockBytes,
                 src + i * (len + srcGap) * kBlockBytes, size_t(len * kBlockBytes));
}

void transposeKernel(int64_t width, uint8_t *dst, const uint8_t *src,
                     int64_t n, int64_t rows, int64_t cols) {
  const int64_t matrix = rows * cols * width;
  for (int64_t m = 0; m < n; ++m) {
    const uint8_t *from = src + m * matrix;
    uint8_t *to = dst + m * matrix;
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < cols; ++c)
        std::memcpy(to + (c * rows + r) * width, from + (r * cols + c) * width,
                    size_t(width));
  }
}

} // namespace asc2::sim
