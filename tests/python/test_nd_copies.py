"""Rank-3+ UB tiles whose inner part is whole rows of the tensor move as one DMA of fewer dimensions.

A [92, 4, 80] tile of a [92, 256, 80] tensor (the shape upstream's N-D transpose kernels load: a few
rows of every leading index) is one strided [92, 320] copy, not 92 slabs and a concat, and the
[4, 92, 80] transposed tile goes back as one contiguous store. Where the DMA buffers of an unrolled
loop's copies cannot stay apart in the UB, the copies share them (a remark says so) instead of a
compile error: upstream's transpose tiling sizes its tiles for that.
"""

import numpy as np
import pytest

import asc2
from conftest import in_child_process, line_of, requires_native

RNG = np.random.default_rng(92)
PLATFORMS = ["Ascend910B1", "Ascend950"]


@asc2.jit(reuse_alloc=1)
def rows_transpose(x_ptr, y_ptr, STEP: asc2.ConstExpr[int], UNROLL: asc2.ConstExpr[int]):
    """y[j, a, c] = x[a, j, c]: STEP rows of every leading index per trip, transposed (1, 0, 2)."""
    x = asc2.global_tensor(x_ptr, [92, 256, 80])
    y = asc2.global_tensor(y_ptr, [256, 92, 80])
    for i in asc2.range(asc2.block_idx(), 256 // STEP, asc2.block_num(), unroll_factor=UNROLL):
        t = asc2.copy_in(x, [0, i * STEP, 0], [92, STEP, 80])
        asc2.copy_out(t.transpose(1, 0, 2), y, [i * STEP, 0, 0])


def _rows_transpose(platform, step, unroll):
    asc2.set_platform(backend="Model", platform=platform)
    x = RNG.standard_normal((92, 256, 80)).astype(np.float32)
    y = np.zeros((256, 92, 80), np.float32)
    rows_transpose[8](x, y, step, unroll)
    np.testing.assert_array_equal(y, x.transpose(1, 0, 2))
    report = rows_transpose.last_report
    return {"races": report["launch"]["races"],
            "diagnostics": [d.get("message", "") for d in report.get("diagnostics", [])],
            "ascendc": report["ascendc"]}


def test_whole_rows_merge_into_one_load_and_one_store():
    ir = str(rows_transpose.ir(np.zeros((92, 256, 80), np.float32), np.zeros((256, 92, 80), np.float32), 2, 1))
    assert ir.count("asctile.load") == 1 and ir.count("asctile.store") == 1, ir
    assert "asctile.concat" not in ir
    assert "tensor<92x20480xf32>" in ir  # the [92, 2, 80] load: 92 rows of 160 contiguous elements
    assert "tile<92x160xf32, UB>" in ir
    assert "tensor<1884160xf32>" in ir  # the [2, 92, 80] store: one contiguous run


@requires_native
@pytest.mark.parametrize("platform", PLATFORMS)
def test_many_leading_indices_transpose_numpy_exact(platform):
    r = in_child_process(_rows_transpose, platform, 2, 1)
    assert r["races"] == []
    assert not any("share their UB buffers" in d for d in r["diagnostics"])


@requires_native
@pytest.mark.parametrize("platform,step", [("Ascend910B1", 2), ("Ascend950", 8)])
def test_unrolled_copies_share_buffers_when_apart_they_do_not_fit(platform, step):
    # Two copies x (load + transposed) kept apart: 4 x 58,880 bytes > 192 KB on 910B1; on Ascend950 the load
    # writes the transposed tile (test_transposing_load.py), one tile a copy: 2 x 235,520 > 248 KB with STEP 8.
    # Shared, each copy fits.
    r = in_child_process(_rows_transpose, platform, step, 2)
    assert r["races"] == []
    assert any("copies of an unrolled loop share their UB buffers" in d for d in r["diagnostics"]), r["diagnostics"]


@requires_native
def test_transposing_loads_keep_unrolled_copies_apart_on_ascend950():
    # Upstream transpose_test_1's tiling (STEP 4, unroll 2): 4 x 117,760 bytes shared on Ascend950 before the
    # transpose was folded into the load; now two 117,760-byte tiles stay apart.
    r = in_child_process(_rows_transpose, "Ascend950", 4, 2)
    assert r["races"] == []
    assert not any("share their UB buffers" in d for d in r["diagnostics"]), r["diagnostics"]
    assert "NdDmaParams<float, 3>" in r["ascendc"]


@asc2.jit
def leading_runtime_extent(x_ptr, out_ptr, a, pad: asc2.ConstExpr[float]):
    x_gm, out_gm = asc2.global_tensor(x_ptr, [7, 9, 64]), asc2.global_tensor(out_ptr, [7, 9, 64])
    t = asc2.copy_in(x_gm, [2, 0, 0], [6, 9, 64], real_shape=[a, 9, 64], pad_value=pad)
    asc2.copy_out(t * 2.0, out_gm, [1, 0, 0], real_shape=[a, 9, 64])


@requires_native
@pytest.mark.parametrize("a", [0, 3, 5, 6, 40])
def test_run_time_leading_extent_pads_and_clamps_like_slabs(a):
    x = RNG.standard_normal((7, 9, 64)).astype(np.float32)
    out = np.zeros_like(x)
    leading_runtime_extent[1](x, out, a, -1.0)
    n = min(a, 6)  # the lowering clamps a run-time extent to the tile
    tile = np.full((6, 9, 64), -1.0, np.float32)  # padded past real_shape and past the tensor (x has 5 from 2)
    for k in range(min(n, 5)):
        tile[k] = x[2 + k]
    ref = np.zeros_like(x)
    for k in range(n):  # stored from leading index 1: all 6 fit the 7 of out
        ref[1 + k] = tile[k] * 2.0
    np.testing.assert_array_equal(out, ref)


@asc2.jit
def inner_rows_only(x_ptr, out_ptr):
    """[3, 9, 32] of a [5, 9, 64] tensor: the rows are not whole (32 of 64 columns) but all 9 rows of each
    leading index are there, so dimensions 0 and 1 merge into 27 strided rows."""
    x_gm, out_gm = asc2.global_tensor(x_ptr, [5, 9, 64]), asc2.global_tensor(out_ptr, [5, 9, 64])
    t = asc2.copy_in(x_gm, [1, 0, 16], [3, 9, 32])
    asc2.copy_out(t + 1.0, out_gm, [2, 0, 8])


@requires_native
def test_whole_middle_dimension_merges_into_strided_rows():
    ir = str(inner_rows_only.ir(np.zeros((5, 9, 64), np.float32), np.zeros((5, 9, 64), np.float32)))
    assert ir.count("asctile.load") == 1 and "tile<27x32xf32, UB>" in ir and "asctile.concat" not in ir
    x = RNG.standard_normal((5, 9, 64)).astype(np.float32)
    out = np.zeros_like(x)
    inner_rows_only[1](x, out)
    ref = np.zeros_like(x)
    ref[2:5, :, 8:40] = x[1:4, :, 16:48] + 1.0
    np.testing.assert_array_equal(out, ref)


@asc2.jit
def neither_merges(x_ptr):
    x_gm = asc2.global_tensor(x_ptr, [100, 9, 64])
    asc2.copy_in(x_gm, [0, 0, 0], [65, 2, 32])  # ERR


def test_too_many_slabs_that_cannot_merge_is_an_error_at_the_line():
    with pytest.raises(asc2.UnsupportedError) as info:
        neither_merges.ir(np.zeros(4, np.float32))
    assert "moves as 65 slabs of [2, 32], more than 64" in info.value.message
    assert info.value.line == line_of(neither_merges, "# ERR")
