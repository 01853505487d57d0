"""Per-channel kernels of the published pyasc points: BatchNorm (training
forward) over an [N, C, L] float32 tensor viewed as [N * C, L] rows.

- ``batch_norm_channels``: block b owns channels [b * CH, (b + 1) * CH). For
  each sample n its channels are CH consecutive rows (n * C + b * CH ...), one
  [CH, L] tile. A first loop over n sums each row and each row's squares into
  [CH] accumulators (carried from trip to trip, so the trips run in order); the
  per-channel scale weight * invstd and shift bias - scale * mean follow, mean
  and invstd are stored, and a second loop over n reloads each [CH, L] tile and
  stores x * scale + shift.
"""

import numpy as np

import asc2

from .common import Measurement


@asc2.jit
def batch_norm_channels(x_ptr: asc2.GlobalAddress, w_ptr: asc2.GlobalAddress, b_ptr: asc2.GlobalAddress,
                        out_ptr: asc2.GlobalAddress, mean_ptr: asc2.GlobalAddress, invstd_ptr: asc2.GlobalAddress,
                        N: asc2.ConstExpr[int], C: asc2.ConstExpr[int], L: asc2.ConstExpr[int],
                        CH: asc2.ConstExpr[int], INV_COUNT: asc2.ConstExpr[float], EPS: asc2.ConstExpr[float]):
    x_gm = asc2.global_tensor(x_ptr, [N * C, L])
    out_gm = asc2.global_tensor(out_ptr, [N * C, L])
    w_gm = asc2.global_tensor(w_ptr, [C])
    b_gm = asc2.global_tensor(b_ptr, [C])
    mean_gm = asc2.global_tensor(mean_ptr, [C])
    invstd_gm = asc2.global_tensor(invstd_ptr, [C])
    first = asc2.block_idx() * CH
    sums = asc2.full([CH], 0.0, dtype=asc2.float32)
    squares = asc2.full([CH], 0.0, dtype=asc2.float32)
    for n in asc2.range(N, gm_barrier=True):
        rows = asc2.copy_in(x_gm, [n * C + first, 0], [CH, L])
        sums = sums + asc2.reduce_sum(rows, 1)
        squares = squares + asc2.reduce_sum(rows * rows, 1)
    mean = sums * INV_COUNT
    invstd = asc2.rsqrt(squares * INV_COUNT - mean * mean + EPS)
    scale = asc2.copy_in(w_gm, [first], [CH]) * invstd
    shift = asc2.copy_in(b_gm, [first], [CH]) - scale * mean
    asc2.copy_out(mean, mean_gm, [first])
    asc2.copy_out(invstd, invstd_gm, [first])
    scale_rows = asc2.broadcast_to(asc2.expand_dims(scale, 1), CH, L)
    shift_rows = asc2.broadcast_to(asc2.expand_dims(shift, 1), CH, L)
    for n in asc2.range(N):
        rows = asc2.copy_in(x_gm, [n * C + first, 0], [CH, L])
        asc2.copy_out(rows * scale_rows + shift_rows, out_gm, [n * C + first, 0])


def run_batch_norm(cores, n, c, l, eps=1e-5, seed=2026):
    if c % cores:
        raise ValueError(f"{c} channels do not split evenly over {cores} cores")
    rng = np.random.default_rng(seed)
    x = (rng.random((n, c, l), dtype=np.float32) * 2 - 1)
    weight = rng.random(c, dtype=np.float32) * 2
    bias = rng.random(c, dtype=np.float32) * 2 - 1
    out = np.zeros((n * c, l), dtype=np.float32)
    mean = np.zeros(c, dtype=np.float32)
    invstd = np.zeros(c, dtype=np.float32)
    batch_norm_channels[cores](x.reshape(n * c, l), weight, bias, out, mean, invstd,
                               n, c, l, c // cores, 1.0 / (n * l), eps)
    result = Measurement()
    result.add_launch(batch_norm_channels, cores)
    x64 = x.astype(np.float64)
    want_mean = x64.mean(axis=(0, 2))
    want_invstd = 1.0 / np.sqrt(x64.var(axis=(0, 2)) + eps)
    want_out = ((x64 - want_mean[None, :, None]) * (want_invstd * weight)[None, :, None]
                + bias[None, :, None]).reshape(n * c, l)
    result.check(mean, want_mean, 1e-4, 1e-5)
    result.check(invstd, want_invstd, 1e-4, 1e-5)
    return result.check(out, want_out, 1e-4, 1e-5)
