//===- CubeUnit.cpp - The cube path of one simulated core -------------------===//
//
// GM -> L1 (ND -> NZ), L1 -> L0A/L0B (and sub-tiles), L1 -> the bias table,
// mmad into L0C, and fixpipe out of L0C to L1 or GM. The layouts and the
// arithmetic are in CubeKernels; here are bounds, races and timing.
//
//===----------------------------------------------------------------------===//

#include "CoreRunner.h"
#include "VectorKernels.h"

namespace asc2::sim {

bool CoreRunner::copyGmToL1Nz(const Instr &in, int32_t pc) {
  int64_t offset = val(in.a), cols = val(in.b), rows = val(in.rows);
  if (!checkTileCopy(in, rows, cols, "into"))
    return false;
  uint8_t *src;
  const int64_t gmStride = val(in.gmRowStride);
  if (!gmRows(in, offset, cols, rows, gmStride, src))
    return false;
  const int64_t tile =
      cube::tileBytes(cube::Layout::NZ, in.dtype, in.tileRows, in.tileCols);
  if (!checkLocal(in, Space::L1, in.dstAddr, tile))
    return false;
  cube::ndToL1(in.dtype,
               memory[int(Space::L1)].data() + in.dstAddr, in.tileRows,
               in.tileCols, src, rows, cols, gmStride);
  if (races) {
    races->beginAccesses(in.pipe, pc);
    races->write(Space::L1, in.dstAddr, in.dstAddr + tile);
  }
  gmTransfer(in, offset, cols, rows, gmStride, /*write=*/false,
             arch.gmToL1BytesPerCycle, rows * cols * int64_t(byteWidth(in.dtype)));
  return true;
}

bool CoreRunner::loadL1ToL0(const Instr &in, int32_t pc) {
  const bool toL0b = in.dstSpace == Space::L0B;
  const DType t = in.dtype;
  // The source: the whole L1 tile, or the tile the sub-tile is cut from.
  const bool sub = in.srcTileRows > 0 || in.srcTileCols > 0;
  const int64_t srcRows = sub ? in.srcTileRows : in.tileRows;
  const int64_t srcCols = sub ? in.srcTileCols : in.tileCols;
  const int64_t row0 = val(in.a), col0 = val(in.b);
  const int64_t srp = cube::padRows(cube::Layout::NZ, t, srcRows);
  const int64_t scp = cube::padCols(cube::Layout::NZ, t, srcCols);
  // The source sub-tile: the destination's shape, transposed with transpose.
  const int64_t subRows = in.transpose ? in.tileCols : in.tileRows;
  const int64_t subCols = in.transpose ? in.tileRows : in.tileCols;
  if (row0 < 0 || col0 < 0 || row0 % 16 || col0 % 16 ||
      row0 + subRows > srp || col0 + subCols > scp)
    return fail(in, "sub-tile outside its L1 tile",
                std::to_string(in.tileRows) + " x " +
                    std::to_string(in.tileCols) + " at (" +
                    std::to_string(row0) + ", " + std::to_string(col0) +
                    ") of a " + std::to_string(srcRows) + " x " +
                    std::to_string(srcCols) +
                    " tile (origin a multiple of 16, inside the padded tile)");
  const int64_t w = byteWidth(t), c0 = cube::c0Of(t);
  const int64_t srcBytes = srp * scp * w;
  // L0A is ZZ on c220 and NZ on c310 (CubeKernels.h); L0B is ZN on both.
  const cube::Layout layout = toL0b ? cube::Layout::ZN : cube::l0aLayout(arch.l0aIsNz());
  const int64_t dstBytes =
      cube::tileBytes(layout, t, in.tileRows, in.tileCols);
  if (!checkLocal(in, Space::L1, in.src0Addr, srcBytes) ||
      !checkLocal(in, in.dstSpace, in.dstAddr, dstBytes))
    return false;
  cube::nzToL0(t, layout, memory[int(in.dstSpace)].data() + in.dstAddr,
               memory[int(Space::L1)].data() + in.src0Addr, in.tileRows,
               in.tileCols, srcRows, srcCols, row0, col0, in.transpose);
  if (races && in.transpose) {
    // A transposing load reads the source rows of its sub-tile in every
    // column block it touches: record the whole source tile (conservative).
    races->beginAccesses(in.pipe, pc);
    races->read(Space::L1, in.src0Addr, in.src0Addr + srcBytes);
    races->write(in.dstSpace, in.dstAddr, in.dstAddr + dstBytes);
  } else if (races) {
    // The sub-tile's rows of each C0-wide column block of the NZ tile.
    races->beginAccesses(in.pipe, pc);
    const int64_t firstBlock = col0 / c0;
    const int64_t endBlock = std::min(
        scp / c0,
        (col0 + cube::padCols(layout, t, in.tileCols) + c0 - 1) / c0);
    const int64_t rows =
        std::min(srp - row0, cube::padRows(layout, t, in.tileRows));
    accessRows(false, Space::L1,
               in.src0Addr + (firstBlock * srp + row0) * c0 * w,
               endBlock - firstBlock, rows * c0 * w, srp * c0 * w);
    races->write(in.dstSpace, in.dstAddr, in.dstAddr + dstBytes);
  }
  transfer(in, l1ToL0Cycles(in.dstSpace, dstBytes), dstBytes);
  return true;
}

bool CoreRunner::mmad(const Instr &in, int32_t pc) {
  const int64_t m = val(in.a), k = val(in.b), n = val(in.c);
  const bool int8 = in.srcDtype == DType::I8;
  const int64_t kStep = int8 ? 32 : 16;
  if (m <= 0 || k <= 0 || n <= 0 || m % 16 || n % 16 || k % kStep)
    return fail(in, "invalid mmad shape",
                "m x k x n = " + std::to_string(m) + " x " + std::to_string(k) +
                    " x " + std::to_string(n) +
                    " (each a positive multiple of 16" +
                    (int8 ? ", k of 32 for int8)" : ")"));
  const int64_t w = byteWidth(in.srcDtype);
  const int64_t aBytes = m * k * w, bBytes = k * n * w, cBytes = m * n * 4;
  if (!checkLocal(in, Space::L0A, in.src0Addr, aBytes) ||
      !checkLocal(in, Space::L0B, in.src1Addr, bBytes) ||
      !checkLocal(in, Space::L0C, in.dstAddr, cBytes))
    return false;
  const bool init = val(in.init) != 0;
  const bool bias = init && in.hasBias;
  if (bias && !checkLocal(in, Space::BT, in.biasAddr, n * 4))
    return false;
  // With a bias the accumulation starts from the bias table's row
  // (MmadParams::cmatrixSource), then adds the products in k order.
  if (bias)
    cube::loadBias(in.dtype, memory[int(Space::L0C)].data() + in.dstAddr,
                   memory[int(Space::BT)].data() + in.biasAddr, m, n);
  cube::mmadKernel(in.srcDtype, cube::l0aLayout(arch.l0aIsNz()), memory[int(Space::L0C)].data() + in.dstAddr,
                   memory[int(Space::L0A)].data() + in.src0Addr,
                   memory[int(Space::L0B)].data() + in.src1Addr, m, k, n, init && !bias,
                   mmadScratch, in.hf32);
  if (races) {
    races->beginAccesses(in.pipe, pc);
    races->read(Space::L0A, in.src0Addr, in.src0Addr + aBytes);
    races->read(Space::L0B, in.src1Addr, in.src1Addr + bBytes);
    if (!init)
      races->read(Space::L0C, in.dstAddr, in.dstAddr + cBytes);
    if (bias)
      races->read(Space::BT, in.biasAddr, in.biasAddr + n * 4);
    races->write(Space::L0C, in.dstAddr, in.dstAddr + cBytes);
  }
  // Fractals of the cube unit: 16 x K0 x 16 with K0 = 16 (f16/bf16), 8 (f32,
  // each costing mmadF32FractalFactor) or 32 (int8).
  const int64_t k0 = in.srcDtype == DType::F32 ? 8 : kStep;
  double fractals = double(m / 16) * double(k / k0) * double(n / 16);
  if (in.srcDtype == DType::F32)
    fractals *= arch.mmadF32FractalFactor;
  uint64_t dur = uint64_t(
      std::ceil(arch.mmadFixedCycles + fractals * arch.mmadCyclesPerFractal));
  uint64_t start = execute(in.pipe, enqueue(in.pipe), dur);
  if (traceOn)
    emit(in, in.pipe, start, start + dur, 0);
  return true;
}

bool CoreRunner::fixpipeToL1(const Instr &in, int32_t pc) {
  const int64_t srcBytes =
      cube::tileBytes(cube::Layout::L0C, in.srcDtype, in.tileRows, in.tileCols);
  const int64_t dstBytes =
      cube::tileBytes(cube::Layout::NZ, in.dtype, in.tileRows, in.tileCols);
  if (!checkLocal(in, Space::L0C, in.src0Addr, srcBytes) ||
      !checkLocal(in, Space::L1, in.dstAddr, dstBytes))
    return false;
  std::memset(memory[int(Space::L1)].data() + in.dstAddr, 0, size_t(dstBytes));
  cube::fixpipeToNz(in.dtype, in.srcDtype, in.relu,
                    memory[int(Space::L1)].data() + in.dstAddr,
                    memory[int(Space::L0C)].data() + in.src0Addr, in.tileRows,
                    in.tileCols);
  if (races) {
    races->beginAccesses(in.pipe, pc);
    races->read(Space::L0C, in.src0Addr, in.src0Addr + srcBytes);
    races->write(Space::L1, in.dstAddr, in.dstAddr + dstBytes);
  }
  // L0C -> L1 runs at about the L0C -> GM rate (216.88 vs 209.32 GB/s per
  // core on 910B1, ascend-hw-model.md 1.5): that rate stands in for it.
  transfer(in, copyCycles(srcBytes, arch.l0cToGmBytesPerCycle), srcBytes);
  return true;
}

bool CoreRunner::fixpipeToUb(const Instr &in, int32_t pc) {
  // The band of rows [first, first + rows) of the L0C tile (all of it unless
  // the kernel moves it in parts).
  const int64_t first = val(in.a), rows = val(in.rows), cols = in.tileCols,
                rp = cube::pad16(in.tileRows);
  const int64_t srcBytes =
      cube::tileBytes(cube::Layout::L0C, in.srcDtype, in.tileRows, in.tileCols);
  if (!checkLocal(in, Space::L0C, in.src0Addr, srcBytes))
    return false;
  // dualDstCtl = 1: the band's first half to AIV 0's UB, its second to AIV
  // 1's, each at dstAddr; otherwise all of it to AIV 0 (subBlockId 0).
  const int parts = in.dual ? 2 : 1;
  const int64_t partRows = rows / parts, w = byteWidth(in.dtype);
  const uint8_t *src = memory[int(Space::L0C)].data() + in.src0Addr;
  if (races) {
    races->beginAccesses(in.pipe, pc);
    races->read(Space::L0C, in.src0Addr, in.src0Addr + srcBytes);
  }
  for (int part = 0; part < parts; ++part) {
    CoreRunner *aiv = groupCore(1 + part);
    if (!aiv)
      return fail(in, "no vector core to write", "the group has no AIV " + std::to_string(part));
    const int64_t bytes = partRows * cols * w;
    if (!checkLocalOf(*aiv, in, Space::UB, in.dstAddr, bytes))
      return false;
    uint8_t *dst = aiv->memory[int(Space::UB)].data() + in.dstAddr;
    for (int64_t r = 0; r < partRows; ++r)
      cube::fixpipeRow(in.dtype, in.srcDtype, in.relu, dst + r * cols * w, src, rp,
                       first + part * partRows + r, cols);
    if (races && aiv->races)
      races->writeOther(*aiv->races, Space::UB, in.dstAddr, in.dstAddr + bytes);
  }
  const int64_t movedBytes = rows * cols * byteWidth(in.srcDtype);
  transfer(in, copyCycles(movedBytes, arch.l0cToUbBytesPerCycle), movedBytes);
  return true;
}

bool CoreRunner::copyUbToL1(const Instr &in, int32_t pc) {
  CoreRunner *aic = groupCore(0);
  if (!aic)
    return fail(in, "no cube core to write", "UB -> L1 needs the AIC of a MIX group");
  const int64_t w = byteWidth(in.dtype), cols = in.tileCols;
  const int64_t offset = val(in.a);
  if (offset < 0 || (offset * w) % 32)
    return fail(in, "UB -> L1 source not on a 32-byte block",
                "element offset " + std::to_string(offset) + " (" + std::to_string(offset * w) +
                    " bytes)");
  const int64_t src = in.src0Addr + offset * w;
  if (in.ndRow) { // a plain row (a bias row for the bias table)
    const int64_t bytes = cols * w;
    if (!checkLocal(in, Space::UB, src, bytes) ||
        !checkLocalOf(*aic, in, Space::L1, in.dstAddr, bytes))
      return false;
    std::memcpy(aic->memory[int(Space::L1)].data() + in.dstAddr,
                memory[int(Space::UB)].data() + src, size_t(bytes));
    if (races) {
      races->beginAccesses(in.pipe, pc);
      races->read(Space::UB, src, src + bytes);
      if (aic->races)
        races->writeOther(*aic->races, Space::L1, in.dstAddr, in.dstAddr + bytes);
    }
    transfer(in, copyCycles(bytes, arch.ubToL1BytesPerCycle), bytes);
    return true;
  }
  // ND rows -> NZ: row r of column block j lands at (j * tileRows + row0 + r)
  // * 32 bytes of the L1 tile (C0 = 32 bytes of elements per fractal row).
  const int64_t rows = val(in.rows), row0 = val(in.b), stride = in.localRowStride;
  const int64_t blocks = cols * w / 32;
  if (rows < 0 || row0 < 0 || row0 + rows > in.tileRows)
    return fail(in, "UB -> L1 rows outside the L1 tile",
                std::to_string(rows) + " rows from row " + std::to_string(row0) + " of " +
                    std::to_string(in.tileRows));
  const int64_t srcExtent = rows > 0 ? ((rows - 1) * stride + cols) * w : 0;
  const int64_t tile = in.tileRows * cols * w;
  if (!checkLocal(in, Space::UB, src, srcExtent) ||
      !checkLocalOf(*aic, in, Space::L1, in.dstAddr, tile))
    return false;
  const uint8_t *from = memory[int(Space::UB)].data() + src;
  uint8_t *to = aic->memory[int(Space::L1)].data() + in.dstAddr;
  for (int64_t j = 0; j < blocks; ++j)
    for (int64_t r = 0; r < rows; ++r)
      std::memcpy(to + (j * in.tileRows + row0 + r) * 32, from + r * stride * w + j * 32, 32);
  if (races) {
    races->beginAccesses(in.pipe, pc);
    accessRows(false, Space::UB, src, rows, cols * w, stride * w);
    if (aic->races)
      for (int64_t j = 0; j < blocks; ++j) {
        int64_t lo = in.dstAddr + (j * in.tileRows + row0) * 32;
        races->writeOther(*aic->races, Space::L1, lo, lo + rows * 32);
      }
  }
  transfer(in, copyCycles(rows * cols * w, arch.ubToL1BytesPerCycle), rows * cols * w);
  return true;
}

bool CoreRunner::copyL1ToBt(const Instr &in, int32_t pc) {
  const int64_t count = val(in.c);
  const int64_t bytes = count * byteWidth(in.dtype);
  // f16/bf16 bias rows are widened to the bias table's f32 on the way.
  const int64_t srcBytes = count * byteWidth(in.srcDtype);
  // Part of a longer L1 row (tileElems elements) from element `a` on.
  const int64_t offset = val(in.a);
  if (count < 0)
    return fail(in, "negative copy size", std::to_string(count));
  if (offset < 0 || (in.tileElems > 0 && offset + count > in.tileElems))
    return fail(in, "bias row part outside its L1 row",
                std::to_string(count) + " values at " + std::to_string(offset) +
                    " of a row of " + std::to_string(in.tileElems));
  const int64_t src = in.src0Addr + offset * byteWidth(in.srcDtype);
  if (!checkLocal(in, Space::L1, src, srcBytes) ||
      !checkLocal(in, Space::BT, in.dstAddr, bytes))
    return false;
  cube::widenToF32(in.srcDtype, memory[int(Space::BT)].data() + in.dstAddr,
                   memory[int(Space::L1)].data() + src, count);
  if (races) {
    races->beginAccesses(in.pipe, pc);
    races->read(Space::L1, src, src + srcBytes);
    races->write(Space::BT, in.dstAddr, in.dstAddr + bytes);
  }
  // L1 -> BT has no published bandwidth: the L1 -> L0B rate (the narrower
  // MTE1 path) stands in for it.
  uint64_t dur = uint64_t(std::ceil(double(bytes) /
                                    std::max(1e-9, arch.l1ToL0bBytesPerCycle)));
  transfer(in, dur, bytes);
  return true;
}

bool CoreRunner::fixpipe(const Instr &in, int32_t pc) {
  int64_t offset = val(in.a), cols = val(in.b), rows = val(in.rows);
  if (!checkTileCopy(in, rows, cols, "from"))
    return false;
  uint8_t *dst;
  const int64_t gmStride = val(in.gmRowStride);
  if (!gmRows(in, offset, cols, rows, gmStride, dst))
    return false;
  const int64_t rp = cube::pad16(in.tileRows);
  const int64_t tile =
      cube::tileBytes(cube::Layout::L0C, in.srcDtype, in.tileRows, in.tileCols);
  if (!checkLocal(in, Space::L0C, in.src0Addr, tile))
    return false;
  const uint8_t *src = memory[int(Space::L0C)].data() + in.src0Addr;
  const int64_t w = byteWidth(in.dtype);
  if (rows > 0 && cols > 0) {
    if (in.atomic != AtomicKind::None) {
      fixRow.resize(size_t(cols * w));
      auto lock = l.atomicOrder.turn(block);
      for (int64_t r = 0; r < rows; ++r) {
        cube::fixpipeRow(in.dtype, in.srcDtype, in.relu, fixRow.data(), src,
                         rp, r, cols);
        atomicKernel(in.atomic, in.dtype, dst + r * gmStride * w,
                     fixRow.data(), cols);
      }
    } else {
      for (int64_t r = 0; r < rows; ++r)
        cube::fixpipeRow(in.dtype, in.srcDtype, in.relu,
                         dst + r * gmStride * w, src, rp, r, cols);
    }
  }
  if (races && rows > 0 && cols > 0) {
    // The valid rows of each 16-column block of the NZ tile.
    races->beginAccesses(in.pipe, pc);
    accessRows(false, Space::L0C, in.src0Addr, (cols + 15) / 16, rows * 64,
               rp * 64);
  }
  // Occupancy counts the L0C bytes read (4 per element); GM receives the
  // converted rows.
  gmTransfer(in, offset, cols, rows, gmStride, /*write=*/true,
             arch.l0cToGmBytesPerCycle * double(w) / 4.0, rows * cols * 4);
  return true;
}

} // namespace asc2::sim
