"""Row kernels of the published pyasc points: a reduction per row, softmax over a
block of rows, RMSNorm per row. Rows are whole (COLS elements in one tile).

- ``row_sums``: block b takes rows b, b + block_num, ...; each row is loaded,
  summed to a scalar and stored as a PAD-wide row (PAD elements = 32 bytes, the
  smallest store) of that scalar.
- ``softmax_block``: block b loads rows [b * BLOCK, (b + 1) * BLOCK) as one tile
  and applies the fused softmax.
- ``rms_norm_rows``: the published full-row form, in float32 whatever the
  input dtype: x * gamma / sqrt(mean(x²) + eps), the row's sum of squares a
  scalar and 1 / sqrt of it computed on the scalar unit, as published.
- ``rms_norm_split``: the published split-D form for rows wider than a tile
  (columns padded to whole TILE-wide tiles): one pass over the row's tiles
  sums x² into a scalar, a second one scales and stores them.
- ``layer_norm_rows``: the published full-row LayerNorm: mean and E[x²] of the
  row as [1, 1] columns (as published), (x - mean) * rsqrt(var + eps) * gamma + beta.
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
        inv_rms = 1.0 / asc2.sqrt(asc2.reduce_sum(x * x) / COLS + EPS)
        gamma = asc2.copy_in(gamma_gm, [0, 0], [1, COLS]).to(asc2.float32)
        asc2.copy_out((x * gamma * inv_rms).to(x_in.dtype), out_gm, [r, 0])


@asc2.jit
def rms_norm_split(x_ptr: asc2.GlobalAddress, gamma_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress,
                   rows: int, cols: int, padded: int, tiles: int, TILE: asc2.ConstExpr[int],
                   EPS: asc2.ConstExpr[float], UNROLL: asc2.ConstExpr[int], PARALLEL: asc2.ConstExpr[bool]):
    x_gm = asc2.global_tensor(x_ptr, [rows, padded])
    gamma_gm = asc2.global_tensor(gamma_ptr, [1, padded])
    out_gm = asc2.global_tensor(out_ptr, [rows, padded])
    for r in asc2.range(asc2.block_idx(), rows, asc2.block_num(), unroll_factor=UNROLL, parallel=PARALLEL):
        sum_sq = asc2.reduce_sum(asc2.zeros([1, TILE], asc2.float32))
        for t in asc2.range(tiles, unroll_factor=2):
            x = asc2.copy_in(x_gm, [r, t * TILE], [1, TILE]).to(asc2.float32)
            sum_sq = sum_sq + asc2.reduce_sum(x * x)
        inv_rms = 1.0 / asc2.sqrt(sum_sq / cols + EPS)
        for t in asc2.range(tiles, unroll_factor=UNROLL, parallel=PARALLEL):
            x_in = asc2.copy_in(x_gm, [r, t * TILE], [1, TILE])
            gamma = asc2.copy_in(gamma_gm, [0, t * TILE], [1, TILE]).to(asc2.float32)
            asc2.copy_out((x_in.to(asc2.float32) * gamma * inv_rms).to(x_in.dtype), out_gm, [r, t * TILE])


@asc2.jit
def layer_norm_rows(x_ptr: asc2.GlobalAddress, gamma_ptr: asc2.GlobalAddress, beta_ptr: asc2.GlobalAddress,
                    out_ptr: asc2.GlobalAddress, rows: int, cols: int, COLS: asc2.ConstExpr[int],
                    EPS: asc2.ConstExpr[float], UNROLL: asc2.ConstExpr[int], PARALLEL: asc2.ConstExpr[bool]):
    x_gm = asc2.global_tensor(x_ptr, [rows, COLS])
    gamma_gm = asc2.global_tensor(gamma_ptr, [1, COLS])
    beta_gm = asc2.global_tensor(beta_ptr, [1, COLS])
    out_gm = asc2.global_tensor(out_ptr, [rows, COLS])
    for r in asc2.range(asc2.block_idx(), rows, asc2.block_num(), unroll_factor=UNROLL, parallel=PARALLEL):
        x_in = asc2.copy_in(x_gm, [r, 0], [1, COLS])
        x = x_in.to(asc2.float32)
        mean = x.sum(1, keep_dims=True) / cols
        var = (x * x).sum(1, keep_dims=True) / cols - mean * mean
        rstd = asc2.rsqrt(var + EPS)
        gamma = asc2.copy_in(gamma_gm, [0, 0], [1, COLS]).to(asc2.float32)
        beta = asc2.copy_in(beta_gm, [0, 0], [1, COLS]).to(asc2.float32)
        asc2.copy_out(((x - mean) * rstd * gamma + beta).to(x_in.dtype), out_gm, [r, 0])


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


def _norm_rtol(dtype):
    return 4e-3 if np.dtype(dtype) == np.float16 else 1e-5


def run_rms_norm(cores, shapes, dtype="float16", unroll=1, parallel=False, tile=64, eps=1e-5, seed=2026):
    """One launch per [rows, cols] in ``shapes``, full-row or split-D as the published dispatcher
    chooses (split-D when cols is not a multiple of 8)."""
    rng = np.random.default_rng(seed)
    result = Measurement()
    for rows, cols in shapes:
        x = (rng.random((rows, cols), dtype=np.float32) * 4 - 2).astype(dtype)
        gamma = (rng.random(cols, dtype=np.float32) + 0.5).astype(dtype)
        if cols % 8 == 0:
            out = np.zeros_like(x)
            rms_norm_rows[cores](x, gamma, out, rows, cols, eps, unroll, parallel)
            result.add_launch(rms_norm_rows, cores)
        else:
            padded = -(-cols // tile) * tile
            x_pad = np.zeros((rows, padded), dtype)
            x_pad[:, :cols] = x
            gamma_pad = np.zeros(padded, dtype)
            gamma_pad[:cols] = gamma
            out_pad = np.zeros_like(x_pad)
            rms_norm_split[cores](x_pad, gamma_pad, out_pad, rows, cols, padded, padded // tile, tile, eps,
                                  unroll, parallel)
            result.add_launch(rms_norm_split, cores)
            out = out_pad[:, :cols]
        x64 = x.astype(np.float64)
        want = x64 / np.sqrt((x64 * x64).mean(axis=1, keepdims=True) + eps) * gamma.astype(np.float64)
        result.check(out, want, rtol=_norm_rtol(dtype), atol=1e-5)
    return result


def run_layer_norm(cores, rows, cols, dtype="float32", unroll=1, parallel=False, eps=1e-5, seed=2026):
    rng = np.random.default_rng(seed)
    x = (rng.random((rows, cols), dtype=np.float32) * 4 - 2).astype(dtype)
    gamma = (rng.random(cols, dtype=np.float32) + 0.5).astype(dtype)
    beta = (rng.random(cols, dtype=np.float32) - 0.5).astype(dtype)
    out = np.zeros_like(x)
    layer_norm_rows[cores](x, gamma, beta, out, rows, cols, cols, eps, unroll, parallel)
    result = Measurement()
    result.add_launch(layer_norm_rows, cores)
    x64 = x.astype(np.float64)
    mean = x64.mean(axis=1, keepdims=True)
    want = (x64 - mean) / np.sqrt(x64.var(axis=1, keepdims=True) + eps) * gamma + beta
    return result.check(out, want, rtol=_norm_rtol(dtype), atol=1e-5)
