//===- ReduceKernels.cpp - The level-0 reduction calls --------------------===//

#include "ReduceKernels.h"

#include "Elements.h"
#include "VectorKernels.h"

#include "asc2/Arch/VectorRepeat.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <vector>

namespace asc2::sim {

namespace {

/// Bytes one WholeReduce result occupies in dst (the unit of its dst repeat
/// stride): the value, value and index, or a 32-bit index.
int64_t resultBytes(const Instr &in) {
  const int64_t w = byteWidth(in.dtype);
  if (in.reduceKind == ReduceKind::Sum || in.reduceOrder == ReduceOrder::OnlyValue)
    return w;
  if (in.reduceOrder == ReduceOrder::OnlyIndex)
    return 4;
  return 2 * w;
}

bool oneOf(DType t, std::initializer_list<DType> ok) {
  for (DType d : ok)
    if (d == t)
      return true;
  return false;
}

} // namespace

std::string repeatCallError(const Instr &in) {
  const bool reduce = in.op == Opcode::VecWholeReduce;
  if (reduce ? !oneOf(in.dtype, {DType::F16, DType::F32})
             : !oneOf(in.dtype, {DType::F16, DType::F32, DType::I16, DType::I32}))
    return std::string(reduce ? "WholeReduce takes half or float"
                              : "a level-0 fold takes half, float, int16 or int32") +
           ", not " + dtypeName(in.dtype);
  if (!reduce && in.vecOp != VecOp::Add && in.vecOp != VecOp::Max &&
      in.vecOp != VecOp::Min && in.vecOp != VecOp::Mul && in.vecOp != VecOp::Sub &&
      in.vecOp != VecOp::Div)
    return "a level-0 binary call is Add, Sub, Mul, Div, Max or Min";
  if (!reduce && in.vecOp == VecOp::Div && !oneOf(in.dtype, {DType::F16, DType::F32}))
    return std::string("a level-0 Div takes half or float, not ") + dtypeName(in.dtype);
  const int64_t lanes = repeatLanes(byteWidth(in.dtype));
  if (in.mask < 1 || in.mask > lanes)
    return "mask " + std::to_string(in.mask) + " is outside [1, " +
           std::to_string(lanes) + "]";
  if (in.repeat < 0 || in.repeat > kMaxRepeat)
    return "repeatTime " + std::to_string(in.repeat) + " is outside [0, 255]";
  const int64_t maxStride = reduce ? kMaxReduceStride : kMaxBinaryStride;
  for (int i = 0; i < 3; ++i)
    if (in.blkStride[i] < 0 || in.blkStride[i] > maxStride ||
        in.repStride[i] < 0 || in.repStride[i] > maxStride)
      return "stride outside [0, " + std::to_string(maxStride) + "]";
  return {};
}

int64_t repeatCallSpan(const Instr &in, int which) {
  const int64_t w = byteWidth(in.dtype);
  if (in.op == Opcode::VecWholeReduce && which == 0)
    return in.repeat <= 0 ? 0
                          : ((in.repeat - 1) * in.repStride[0] + 1) * resultBytes(in);
  return repeatSpanBytes(w, in.mask, in.repeat, in.blkStride[which],
                         in.repStride[which]);
}

void wholeReduceKernel(const Instr &in, uint8_t *base) {
  const int64_t w = byteWidth(in.dtype);
  withCodec(in.dtype, [&](auto c) {
    using C = decltype(c);
    if constexpr (C::kIsFloat) {
      struct Result {
        double value;
        int64_t index;
      };
      // Every repeat's source is read before any result is written.
      std::vector<Result> results(size_t(std::max<int64_t>(in.repeat, 0)));
      for (int64_t i = 0; i < in.repeat; ++i) {
        auto at = [&](int64_t lane) {
          return double(c.load(base + in.src0Addr +
                               repeatLaneOffset(w, i, lane, in.blkStride[1],
                                                in.repStride[1])));
        };
        Result r{at(0), 0};
        for (int64_t l = 1; l < in.mask; ++l) {
          double v = at(l);
          switch (in.reduceKind) {
          case ReduceKind::Sum:
            r.value += v;
            break;
          case ReduceKind::Max: // a NaN, once seen, wins
            if (!std::isnan(r.value) && (v > r.value || std::isnan(v)))
              r = {v, l};
            break;
          case ReduceKind::Min:
            if (!std::isnan(r.value) && (v < r.value || std::isnan(v)))
              r = {v, l};
            break;
          }
        }
        results[size_t(i)] = r;
      }
      const int64_t unit = resultBytes(in);
      for (int64_t i = 0; i < in.repeat; ++i) {
        uint8_t *d = base + in.dstAddr + i * in.repStride[0] * unit;
        const Result &r = results[size_t(i)];
        auto putIndex = [&](uint8_t *p, int64_t bytes) {
          uint32_t idx32 = uint32_t(r.index);
          uint16_t idx16 = uint16_t(r.index);
          std::memcpy(p, bytes == 4 ? static_cast<void *>(&idx32) : &idx16,
                      size_t(bytes));
        };
        if (in.reduceKind == ReduceKind::Sum) {
          encodeScalar(in.dtype, Scalar::ofFloat(r.value), d);
          continue;
        }
        switch (in.reduceOrder) {
        case ReduceOrder::ValueIndex:
          encodeScalar(in.dtype, Scalar::ofFloat(r.value), d);
          putIndex(d + w, w);
          break;
        case ReduceOrder::IndexValue:
          putIndex(d, w);
          encodeScalar(in.dtype, Scalar::ofFloat(r.value), d + w);
          break;
        case ReduceOrder::OnlyValue:
          encodeScalar(in.dtype, Scalar::ofFloat(r.value), d);
          break;
        case ReduceOrder::OnlyIndex:
          putIndex(d, 4);
          break;
        }
      }
    }
  });
}

void binaryRepeatKernel(const Instr &in, uint8_t *base) {
  const int64_t w = byteWidth(in.dtype);
  const int64_t be = blockElems(w);
  for (int64_t i = 0; i < in.repeat; ++i)
    for (int64_t first = 0; first < in.mask; first += be) {
      auto at = [&](int which, int64_t addr) {
        return base + addr +
               repeatLaneOffset(w, i, first, in.blkStride[which], in.repStride[which]);
      };
      binaryKernel(in.vecOp, in.dtype, BinaryForm::TensorTensor,
                   at(0, in.dstAddr), at(1, in.src0Addr), at(2, in.src1Addr),
                   Scalar{}, std::min(be, in.mask - first));
    }
}

} // namespace asc2::sim
