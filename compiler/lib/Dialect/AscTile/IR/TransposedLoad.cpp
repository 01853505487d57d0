//===- TransposedLoad.cpp - the DMA loops of asctile.load_transposed ----===//
#include "asc2/Dialect/AscTile/IR/TransposedLoad.h"

#include "asc2/Arch/NdDma.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;

namespace asc2::asctile {

SmallVector<bool> wholeBoxDims(LoadTransposedOp op) {
  ArrayRef<int64_t> dims = op.getTensor().getType().getShape();
  SmallVector<int64_t> box = op.getSourceShape();
  SmallVector<bool> whole(box.size(), false);
  for (size_t d = 0; d < box.size(); ++d) {
    std::optional<int64_t> offset = getConstantIntValue(op.getOffsets()[d]);
    if (ShapedType::isDynamic(dims[d]) || !offset || *offset < 0 ||
        dims[d] - *offset < box[d])
      continue;
    if (!op.getRealShape().empty()) {
      std::optional<int64_t> real = getConstantIntValue(op.getRealShape()[d]);
      if (!real || *real < box[d])
        continue;
    }
    whole[d] = true;
  }
  return whole;
}

std::optional<SmallVector<NdLoop>> planTransposedLoad(LoadTransposedOp op) {
  ArrayRef<int64_t> dims = op.getTensor().getType().getShape();
  int64_t rank = dims.size();
  SmallVector<int64_t> srcStride(rank, 1);
  for (int64_t d = rank - 2; d >= 0; --d) {
    if (ShapedType::isDynamic(dims[d + 1]))
      return std::nullopt;
    srcStride[d] = srcStride[d + 1] * dims[d + 1];
  }
  SmallVector<int64_t> box = op.getSourceShape();
  ArrayRef<int64_t> shape = op.getResult().getType().getShape();
  ArrayRef<int64_t> perm = op.getPermutation();
  SmallVector<bool> whole = wholeBoxDims(op);
  SmallVector<NdLoop> loops;
  int64_t dstStride = op.getResult().getType().getNumElements();
  for (int64_t i = 0; i < rank; ++i) {
    dstStride /= shape[i];
    int64_t d = perm[i];
    if (box[d] == 1)
      continue;
    NdLoop loop{box[d], srcStride[d], dstStride, {d}};
    // The previous loop and this one are one run on both sides: one loop,
    // when this one always moves whole.
    if (!loops.empty()) {
      NdLoop &outer = loops.back();
      if (whole[d] && outer.srcStride == loop.srcStride * loop.extent &&
          outer.dstStride == loop.dstStride * loop.extent) {
        outer.extent *= loop.extent;
        outer.srcStride = loop.srcStride;
        outer.dstStride = loop.dstStride;
        outer.boxDims.push_back(d);
        continue;
      }
    }
    loops.push_back(loop);
  }
  return loops;
}

bool fitsNdDma(ArrayRef<NdLoop> loops, int64_t maxLoops) {
  if (loops.empty() ||
      (int64_t)loops.size() > std::min(maxLoops, nd_dma::kMaxLoops))
    return false;
  return llvm::all_of(loops, [](const NdLoop &l) {
    return l.extent < nd_dma::kSizeLimit &&
           l.dstStride < nd_dma::kDstStrideLimit &&
           l.srcStride < nd_dma::kSrcStrideLimit;
  });
}

} // namespace asc2::asctile
