"""Row kernels of the published pyasc points: a reduction per row, softmax over a
block of rows, RMSNorm per row. Rows are whole (COLS elements in one tile).

- ``row_sums``: block b takes rows b, b + block_num, ...; each row is loaded,
  summed to a scalar and stored as a PAD-wide row (PAD elements = 32 bytes, the
  smallest store) of that scalar.
- ``softmax_block``: block b loads rows [b * BLOCK, (b + 1) * BLOCK) as one tile
  and applies the fused softmax.
- ``rms_norm_rows``: the published full-row form, in float32 whatever the
  input dtype: x * gamma / sqrt(mean(x²) + eps).
  The published kernel takes 1 / sqrt of a scalar; here the statistic stays a
  [1, 1] column (rsqrt on the vector unit), the same work.
"""

import numpy as np

import asc2

from .common import Measurement


@asc2.jit
def row_sums(x_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress, rows: int,
             COLS: asc2.ConstExpr[int], PAD: asc2.ConstExpr[int],
             UNROLL: asc2.ConstExpr[int], PARALLEL: asc2.ConstExpr[bool]):
    x_gm = asc2.global_tensor(x_ptr, [rows, COLS])
    out_gm = asc2.global_tensor(out_ptr, [rows, PAD])
    for r in asc2.range(asc2.block_idx(), rows, asc2.block_num(), unroll_factor=UNROLL, parallel=PARALLEL):
        row = asc2.copy_in(x_gm, [r, 0], [1, COLS])
        total = asc2.reduce_sum(row)
        asc2.copy_out(asc2.full([1, PAD], total, dtype=row.dtype), out_gm, [r, 0])


@asc2.jit
def softmax_block(x_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress, rows: int,
                  COLS: asc2.ConstExpr[int], BLOCK: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [rows, COLS])
    out_gm = asc2.global_tensor(out_ptr, [rows, COLS])
    first = asc2.block_idx() * BLOCK
    asc2.copy_out(asc2.softmax(asc2.copy_in(x_gm, [first, 0], [BLOCK, COLS])), out_gm, [first, 0])


@asc2.jit
def rms_norm_rows(x_ptr: asc2.GlobalAddress, gamma_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress,
                  rows: int, COLS: asc2.ConstExpr[int], EPS: asc2.ConstExpr[float],
                  UNROLL: asc2.ConstExpr[int], PARALLEL: asc2.ConstExpr[bool]):
    x_gm = asc2.global_tensor(x_ptr, [rows, COLS])
    gamma_gm = asc2.global_tensor(gamma_ptr, [1, COLS])
    out_gm = asc2.global_tensor(out_ptr, [rows, COLS])
    for r in asc2.range(asc2.block_idx(), rows, asc2.block_num(), unroll_factor=UNROLL, parallel=PARALLEL):
        x_in = asc2.copy_in(x_gm, [r, 0], [1, COLS])
        x = x_in.to(asc2.float32)
        # The row's statistic as a [1, 1] column (a scalar sqrt has no Ascend C form here).
        inv_rms = asc2.rsqrt((x * x).sum(1, keep_dims=True) / COLS + EPS)
        gamma = asc2.copy_in(gamma_gm, [0, 0], [1, COLS]).to(asc2.float32)
        asc2.copy_out((x * gamma * inv_rms).to(x_in.dtype), out_gm, [r, 0])


def _pad(dtype):
    return 32 // np.dtype(dtype).itemsize


def run_row_sums(cores, rows, cols, dtype="float32", unroll=1, parallel=False, seed=2026):
    rng = np.random.default_rng(seed)
    x = (rng.random((rows, cols), dtype=np.float32) * 10 - 5).astype(dtype)
    pad = _pad(dtype)
    out = np.zeros((rows, pad), dtype)
    row_sums[cores](x, out, rows, cols, pad, unroll, parallel)
    result = Measurement()
    result.add_launch(row_sums, cores)
    want = np.repeat(x.astype(np.float64).sum(axis=1, keepdims=True), pad, axis=1)
    # The sum of 4096 terms rounds differently in another order: relative to the terms' scale.
    scale = float(np.abs(x.astype(np.float64)).sum(axis=1).max())
    eps = 1e-6 if np.dtype(dtype) == np.float32 else 2e-3
    return result.check(out, want, rtol=0.0, atol=eps * scale)


def run_softmax(cores, rows, cols, dtype="float16", seed=2026):
    rng = np.random.default_rng(seed)
    x = (rng.random((rows, cols), dtype=np.float32) * 4 - 2).astype(dtype)
    out = np.zeros_like(x)
    block = -(-rows // cores)
    softmax_block[cores](x, out, rows, cols, block)
    result = Measurement()
    result.add_launch(softmax_block, cores)
    e = np.exp(x.astype(np.float64) - x.max(axis=1, keepdims=True))
    want = e / e.sum(axis=1, keepdims=True)
    rtol = 4e-3 if np.dtype(dtype) == np.float16 else 1e-5
    return result.check(out, want, rtol=rtol, atol=1e-6)


def run_rms_norm(cores, rows, cols, dtype="float16", unroll=1, parallel=False, eps=1e-5, seed=2026):
    rng = np.random.default_rng(seed)
    x = (rng.random((rows, cols), dtype=np.float32) * 4 - 2).astype(dtype)
    gamma = (rng.random(cols, dtype=np.float32) + 0.5).astype(dtype)
    out = np.zeros_like(x)
    rms_norm_rows[cores](x, gamma, out, rows, cols, eps, unroll, parallel)
    result = Measurement()
    result.add_launch(rms_norm_rows, cores)
    x64 = x.astype(np.float64)
    want = x64 / np.sqrt((x64 * x64).mean(axis=1, keepdims=True) + eps) * gamma.astype(np.float64)
    rtol = 4e-3 if np.dtype(dtype) == np.float16 else 1e-5
    return result.check(out, want, rtol=rtol, atol=1e-5)
