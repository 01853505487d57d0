"""Kernels whose tiling upstream PyAsc2 fits in the UB fit here too.

- An elementwise result takes the bytes of a source that dies at it at every reuse_alloc level (upstream
  marks reuse sources whatever reuse_alloc says): `z = a + b` stored back over `a` with reuse_alloc=0 and
  two unrolled copies needs two live tiles per copy, not three.
- An elementwise op on a broadcast row statistic ([R, 1] -> [R, C]) or row ([1, C] -> [R, C]) reads the
  broadcast's source in place (level-0 calls with zero strides) instead of a materialised [R, C] tile of
  copies, and its result may overwrite the other operand: rms_norm over [14, 2048] float16 rows fits the
  Ascend950 UB (it needed two [14, 2048] float32 tiles of copies more). Upstream's largest tiling, 15 rows,
  is still 1,920 bytes over here: the first WholeReduceSum's partials (15 x 32 floats) are live with the
  squares and the float32 rows.
"""

import numpy as np
import pytest

import asc2
from conftest import in_child_process


@asc2.jit(reuse_alloc=0, always_compile=True)
def add_inplace(a_ptr, b_ptr, n, tile: asc2.ConstExpr[int], unroll: asc2.ConstExpr[int]):
    a_gm = asc2.global_tensor(a_ptr, [n])
    b_gm = asc2.global_tensor(b_ptr, [n])
    loops = asc2.ceildiv(asc2.ceildiv(n, asc2.block_num()), tile)
    base = asc2.block_idx() * tile * loops
    for i in asc2.range(loops, unroll_factor=unroll):
        off = base + i * tile
        a = asc2.copy_in(a_gm, [off], [tile])
        b = asc2.copy_in(b_gm, [off], [tile])
        asc2.copy_out(a + b, a_gm, [off])


def _add_inplace(platform, tile):
    asc2.set_platform(backend="Model", platform=platform)
    rng = np.random.default_rng(0)
    n = tile * 4
    a = rng.standard_normal(n).astype(np.float16)
    b = rng.standard_normal(n).astype(np.float16)
    want = a + b
    add_inplace[2](a, b, n, tile, 2)
    np.testing.assert_array_equal(a, want)
    return next(s for s in add_inplace.last_report["memory"]["spaces"] if s["space"] == "UB")


def test_an_elementwise_result_overwrites_its_dying_source_without_reuse():
    # 24,448 halves = 48,896 bytes a tile: a, b and a + b in two copies would need 293,376 bytes,
    # more than the Ascend950 UB (253,952); with a + b over a it is 195,584.
    ub = in_child_process(_add_inplace, "Ascend950", 24448)
    assert ub["peak"] <= 4 * 48896 + 1024, ub


@asc2.jit(reuse_alloc=2, always_compile=True)
def rms_norm_rows(x_ptr, gamma_ptr, y_ptr, rows, cols: asc2.ConstExpr[int], ub_rows: asc2.ConstExpr[int], eps):
    x_gm = asc2.global_tensor(x_ptr, [rows, cols])
    gamma_gm = asc2.global_tensor(gamma_ptr, [1, cols])
    y_gm = asc2.global_tensor(y_ptr, [rows, cols])
    gamma = asc2.copy_in(gamma_gm, [0, 0], [1, cols])
    for i in asc2.range(asc2.ceildiv(rows, ub_rows), unroll_factor=1):
        x = asc2.copy_in(x_gm, [i * ub_rows, 0], [ub_rows, cols])
        asc2.copy_out(asc2.rms_norm(x, gamma, eps), y_gm, [i * ub_rows, 0])


@asc2.jit(always_compile=True)
def centre_and_scale(x_ptr, s_ptr, y_ptr, R: asc2.ConstExpr[int], C: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [R, C])
    s_gm = asc2.global_tensor(s_ptr, [1, C])
    y_gm = asc2.global_tensor(y_ptr, [R, C])
    x = asc2.copy_in(x_gm, [0, 0], [R, C])
    s = asc2.copy_in(s_gm, [0, 0], [1, C])
    mean = asc2.reduce_sum(x, 1, keep_dims=True) / C
    peak = asc2.reduce_max(x, 1, keep_dims=True)
    # column statistics on either side of - and /, a row on either side of * and max
    y = (x - mean) / (peak - mean + 1.0)
    y = asc2.maximum(s * y, y - s) / s
    asc2.copy_out(y, y_gm, [0, 0])


def _rms_norm(platform, rows, cols, ub_rows):
    asc2.set_platform(backend="Model", platform=platform)
    rng = np.random.default_rng(1)
    x = rng.standard_normal((rows, cols)).astype(np.float16)
    gamma = rng.standard_normal(cols).astype(np.float16)
    y = np.zeros_like(x)
    rms_norm_rows[1](x, gamma, y, rows, cols, ub_rows, 1e-5)
    xf = x.astype(np.float32)
    want = xf / np.sqrt((xf * xf).mean(-1, keepdims=True) + 1e-5) * gamma.astype(np.float32)
    np.testing.assert_allclose(y.astype(np.float32), want, atol=4e-3, rtol=4e-3)
    code = rms_norm_rows.last_report["ascendc"]
    return code


def test_rms_norm_of_wide_rows_reads_its_statistics_in_place():
    code = in_child_process(_rms_norm, "Ascend950", 28, 2048, 14)
    # no [14, 2048] tile of copies: the multiplies read the Brcb'd rstd and the gamma row in place
    assert "AscendC::Copy(" not in code
    assert "AscendC::Brcb(" in code and "AscendC::Mul<float>(" in code
    assert "BinaryRepeatParams(1, 1, 0, 8, 8, 0)" in code  # row r reads block r of the Brcb'd column


@pytest.mark.parametrize("platform", ["Ascend910B1", "Ascend950"])
@pytest.mark.parametrize("shape", [(4, 64), (8, 512), (40, 96), (64, 64), (1, 64), (1, 768)])
def test_binary_ops_on_broadcast_operands_match_numpy(platform, shape):
    in_child_process(_centre_and_scale, platform, *shape)


def _one_row_code(platform):
    _centre_and_scale(platform, 1, 768)
    return centre_and_scale.last_report["ascendc"]


@pytest.mark.parametrize("platform", ["Ascend910B1", "Ascend950"])
def test_a_one_row_tile_reads_its_own_statistic_in_place(platform):
    """[1, C] - [1, 1] (a row kernel's mean): the [1, 1] is Brcb'd to a block and read with block and repeat
    stride 0, not copied out to a [1, C] tile first (one vector call less per use, one VF less on Ascend950)."""
    code = in_child_process(_one_row_code, platform)
    assert "AscendC::Copy(" not in code
    assert "BinaryRepeatParams(1, 1, 0, 8, 8, 0)" in code


def _centre_and_scale(platform, r, c):
    asc2.set_platform(backend="Model", platform=platform)
    rng = np.random.default_rng(r * c)
    x = rng.uniform(-4, 4, (r, c)).astype(np.float32)
    s = rng.uniform(1, 2, (1, c)).astype(np.float32)
    y = np.zeros_like(x)
    centre_and_scale[1](x, s, y, r, c)
    mean = x.sum(1, keepdims=True, dtype=np.float32) / np.float32(c)
    peak = x.max(1, keepdims=True)
    want = (x - mean) / (peak - mean + np.float32(1))
    want = np.maximum(s * want, want - s) / s
    np.testing.assert_allclose(y, want, rtol=2e-6, atol=2e-6)
    report = centre_and_scale.last_report
    assert not report["launch"]["races"]
