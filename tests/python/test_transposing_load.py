"""Ascend950 loads a tile already transposed: one N-dimensional DMA (DataCopy with NdDmaParams).

Upstream's skill-stack transpose (tiling key 10002) loads a tile sized to the whole Unified Buffer and
transposes it, the last dimension included. On Atlas A2/A3 the vector unit transposes from one UB tile
into a second one; on Ascend950 `asctile-fold-transpose-into-load` makes the load write the transposed
tile directly, so one tile is enough. The kernels here are written in upstream's form (a loop over slices
of one axis, copy_in, transpose, copy_out) and checked against numpy, race-free, on both targets.
"""

import numpy as np
import pytest

import asc2
from conftest import in_child_process, requires_native
from kernel_project import HAS_TWIN, NO_TWIN

RNG = np.random.default_rng(1002)
UB_BYTES = {"Ascend950": 253952, "Ascend910B1": 196608}


@asc2.jit(reuse_alloc=1)
def transpose_slices(x_ptr, y_ptr, shape: asc2.ConstExpr, perm: asc2.ConstExpr, axis: asc2.ConstExpr[int],
                     step: asc2.ConstExpr[int], ub_shape: asc2.ConstExpr, unroll: asc2.ConstExpr[int]):
    """y = x.transpose(perm), `step` indices of `axis` per trip; the tile is `ub_shape` (padded to 32 bytes)."""
    out_shape = []
    for d in asc2.static_range(0, len(shape)):
        out_shape += [shape[perm[d]]]
    x = asc2.global_tensor(x_ptr, shape)
    y = asc2.global_tensor(y_ptr, out_shape)
    out_axis = 0
    for d in asc2.static_range(0, len(shape)):
        if perm[d] == axis:
            out_axis = d
    for i in asc2.range(asc2.block_idx(), asc2.ceildiv(shape[axis], step), asc2.block_num(), unroll_factor=unroll):
        read = [0] * axis + [i * step] + [0] * (len(shape) - 1 - axis)
        tile = asc2.copy_in(x, read, ub_shape)
        write = [0] * out_axis + [i * step] + [0] * (len(shape) - 1 - out_axis)
        asc2.copy_out(tile.transpose(*perm), y, write)


def ub_tile(shape, perm, axis, step, itemsize):
    """upstream's tile: `step` on the axis, the last dimension and the one that becomes last padded to 32 bytes."""
    per_block = 32 // itemsize
    tile = [step if d == axis else n for d, n in enumerate(shape)]
    for d in (len(shape) - 1, perm[-1]):
        tile[d] = -(-tile[d] // per_block) * per_block
    return tile


def _transpose(platform, shape, perm, axis, step, dtype="float32", unroll=1, cores=8):
    asc2.set_platform(backend="Model", platform=platform)
    bits = np.dtype("uint16" if dtype == "bfloat16" else dtype)
    x = RNG.integers(-30000, 30000, size=shape).astype(bits) if dtype == "bfloat16" else \
        RNG.standard_normal(shape).astype(bits)
    y = np.zeros([shape[p] for p in perm], bits)
    xs, ys = (asc2.reinterpret(x, asc2.bfloat16), asc2.reinterpret(y, asc2.bfloat16)) if dtype == "bfloat16" else (x, y)
    tile = ub_tile(shape, perm, axis, step, bits.itemsize)
    transpose_slices[cores](xs, ys, list(shape), list(perm), axis, step, tile, unroll)
    report = transpose_slices.last_report
    ub = next(s for s in report["memory"]["spaces"] if s["space"] == "UB")
    return {"exact": bool(np.array_equal(y, x.transpose(perm))), "races": report["launch"]["races"],
            "ub_peak": ub["peak"], "tile_bytes": int(np.prod(tile)) * bits.itemsize,
            "ub_buffers": [b["size"] for b in report["memory"]["buffers"] if b["space"] == "UB"],
            "ascendc": report["ascendc"], "cycles": report["launch"]["cycles"],
            "passes": [p["name"] for p in report["passes"]]}


# (shape, perm, axis, step, dtype): upstream's 10002 cases at smaller sizes, with their tile sizing.
CASES = {
    # [7000, 8, 4, 32] -> (0, 2, 3, 1) simplified: the tile fills the UB exactly (62 x 8 x 128 x 4 bytes)
    "fills_ub": ([700, 8, 128], (0, 2, 1), 0, 62, "float32"),
    # [4096, 39, 1500] -> (0, 2, 1): one slice, 39 rows padded to 40 and 1500 columns to 1504 (240 KB)
    "odd_rows": ([24, 39, 1500], (0, 2, 1), 0, 1, "float32"),
    # [4096, 1500, 39] -> (0, 2, 1)
    "odd_columns": ([24, 1500, 39], (0, 2, 1), 0, 1, "float32"),
    # [50, 4096, 16] -> (1, 2, 0) simplified: rows 50 padded to 56, a tail block of columns
    "columns_2d": ([50, 8192], (1, 0), 1, 1009, "float32"),
    # [50, 4096, 16] -> (1, 0, 2): the last dimension stays, the tile still needs one buffer only
    "rows_of_16": ([50, 512, 16], (1, 0, 2), 1, 63, "float32"),
    # [7000, 100, 4, 32] -> (0, 2, 3, 1) simplified: 100 rows padded to 104
    "padded_rows": ([70, 100, 128], (0, 2, 1), 0, 4, "float32"),
    "half": ([64, 24, 400], (0, 2, 1), 0, 8, "float16"),
    "bfloat16": ([16, 6, 16, 64], (0, 3, 1, 2), 0, 4, "bfloat16"),
    "four_dims_int8": ([6, 8, 4, 64], (0, 2, 3, 1), 0, 2, "int8"),
}


@requires_native
@pytest.mark.parametrize("case", sorted(CASES))
def test_transposing_load_on_ascend950_numpy_exact(case):
    shape, perm, axis, step, dtype = CASES[case]
    r = in_child_process(_transpose, "Ascend950", shape, perm, axis, step, dtype)
    assert r["exact"] and r["races"] == []
    assert "asctile-fold-transpose-into-load" in r["passes"]
    # One N-dimensional DMA writes the transposed tile: no vector transpose, no second tile (a small one is
    # multi-buffered: one tile per copy).
    assert "AscendC::NdDmaDci();" in r["ascendc"] and "NdDmaParams<" in r["ascendc"]
    assert "AscendC::Transpose(" not in r["ascendc"]
    assert set(r["ub_buffers"]) == {r["tile_bytes"]} and len(r["ub_buffers"]) <= 2


@requires_native
def test_a_tile_that_fills_the_ub_needed_two_before():
    shape, perm, axis, step, dtype = CASES["fills_ub"]
    assert 62 * 8 * 128 * 4 == UB_BYTES["Ascend950"]
    # Atlas A2 has no N-dimensional DMA: today's vector transpose needs the loaded tile and its transpose.
    with pytest.raises(asc2.CompilationError, match="UB") as err:
        in_child_process(_transpose, "Ascend910B1", shape, perm, axis, 46, dtype)
    assert "tile [47104] float32" in str(err.value) and "tile [46, 128, 8] float32" in str(err.value)
    r = in_child_process(_transpose, "Ascend910B1", shape, perm, axis, 16, dtype)
    assert r["exact"] and r["races"] == []
    assert "asctile-fold-transpose-into-load" not in r["passes"]
    assert "NdDma" not in r["ascendc"] and "AscendC::Transpose(" in r["ascendc"]


@asc2.jit
def padded_columns(x_ptr, y_ptr, cols: asc2.ConstExpr[int], real_rows, real_cols, pad: asc2.ConstExpr[float]):
    """Each trip: a [56, 1016] tile of x whose first real_rows x real_cols are read, transposed whole."""
    x = asc2.global_tensor(x_ptr, [50, cols])
    y = asc2.global_tensor(y_ptr, [asc2.ceildiv(cols, 1016) * 1016, 56])
    for j in asc2.range(asc2.block_idx(), asc2.ceildiv(cols, 1016), asc2.block_num()):
        t = asc2.copy_in(x, [0, j * 1016], [56, 1016], real_shape=[real_rows, real_cols], pad_value=pad)
        asc2.copy_out(t.transpose(), y, [j * 1016, 0])


def _padded(platform, real_rows, real_cols, backend="Model"):
    asc2.set_platform(backend=backend, platform=platform)
    cols = 2500
    x = RNG.standard_normal((50, cols)).astype(np.float32)
    y = np.zeros((3 * 1016, 56), np.float32)
    padded_columns[2](x, y, cols, real_rows, real_cols, -1.5)
    want = np.full((3 * 1016, 56), -1.5, np.float32)
    for j in range(3):
        r, c = min(real_rows, 50), min(real_cols, cols - j * 1016, 1016)
        want[j * 1016:j * 1016 + max(c, 0), :max(r, 0)] = x[:max(r, 0), j * 1016:j * 1016 + max(c, 0)].T
    report = padded_columns.last_report
    return {"exact": bool(np.array_equal(y, want)), "races": report["launch"].get("races"),
            "ascendc": report["ascendc"], "backend": report["launch"].get("backend", "Model"),
            "compared": report["launch"].get("compared_with_model")}


@requires_native
@pytest.mark.parametrize("real_rows,real_cols", [(50, 1016), (7, 900), (50, 100), (0, 1016), (40, 0)])
def test_padding_past_the_dma_fields_and_empty_boxes(real_rows, real_cols):
    # The DMA pads up to 255 elements per loop: 1016 - 100 columns, or an empty box, take the vector fill.
    r = in_child_process(_padded, "Ascend950", real_rows, real_cols)
    assert r["exact"] and r["races"] == []
    assert "NdDmaParams<float, 2>" in r["ascendc"] and "AscendC::Duplicate(" in r["ascendc"]


@requires_native
@pytest.mark.skipif(not HAS_TWIN, reason=NO_TWIN)
@pytest.mark.parametrize("real_rows,real_cols", [(50, 1016), (7, 100)])
def test_emitted_nd_dma_runs_on_the_twin_as_simulated(real_rows, real_cols, twin_cache, monkeypatch):
    monkeypatch.setenv("ASC2_TWIN_COMPARE", "1")
    r = in_child_process(_padded, "Ascend950", real_rows, real_cols, "Twin")
    assert r["exact"] and r["backend"] == "Twin" and r["compared"]


@requires_native
def test_tiles_loaded_as_slabs_keep_the_vector_transpose():
    # Neither inner dimension is whole: the frontend loads 64 [32, 16] slabs and joins them, no one load to fold.
    r = in_child_process(_transpose, "Ascend950", [64, 24, 400], (2, 0, 1), 2, 16, "bfloat16")
    assert r["exact"] and r["races"] == []
    assert "NdDma" not in r["ascendc"]


@asc2.jit
def six_axes(x_ptr, y_ptr):
    x = asc2.global_tensor(x_ptr, [2, 2, 2, 2, 8, 8])
    y = asc2.global_tensor(y_ptr, [2, 2, 2, 2, 8, 8])
    t = asc2.copy_in(x, [0] * 6, [2, 2, 2, 2, 8, 8])
    asc2.copy_out(t.transpose(1, 0, 3, 2, 5, 4), y, [0] * 6)


def _six_axes():
    asc2.set_platform(backend="Model", platform="Ascend950")
    x = RNG.standard_normal((2, 2, 2, 2, 8, 8)).astype(np.float32)
    y = np.zeros_like(x)
    six_axes[1](x, y)
    report = six_axes.last_report
    return {"exact": bool(np.array_equal(y, x.transpose(1, 0, 3, 2, 5, 4))), "races": report["launch"]["races"],
            "ascendc": report["ascendc"]}


@requires_native
def test_more_loops_than_the_dma_has_keep_the_vector_transpose():
    # Six axes that no two merge: six loops, the DMA takes five.
    r = in_child_process(_six_axes)
    assert r["exact"] and r["races"] == []
    assert "NdDma" not in r["ascendc"] and "AscendC::Transpose(" in r["ascendc"]


@requires_native
def test_one_tile_per_copy_lets_the_loop_multi_buffer():
    # 96 KB tiles: a load and its vector transpose (192 KB) fit once; folded, two copies of the tile fit.
    shape, perm = [64, 24, 512], (0, 2, 1)
    r = in_child_process(_transpose, "Ascend950", shape, perm, 0, 2, "float32", 1, 4)
    assert r["exact"] and r["races"] == []
    assert r["ub_buffers"] == [r["tile_bytes"]] * 2 and r["ub_peak"] == 2 * r["tile_bytes"]
    assert r["ascendc"].count("AscendC::DataCopy(") == 2


@requires_native
def test_dma_cost_is_one_burst_per_contiguous_run():
    # The same bytes: rows of 16 floats (64-byte runs) cost what a contiguous tile costs; a transpose that
    # moves the last dimension reads single elements, each a 32-byte burst (8x the bytes of float32).
    rows = in_child_process(_transpose, "Ascend950", [64, 512, 16], (1, 0, 2), 1, 16, "float32", 1, 1)
    contiguous = in_child_process(_transpose, "Ascend950", [64, 512, 16], (0, 1, 2), 1, 16, "float32", 1, 1)
    columns = in_child_process(_transpose, "Ascend950", [64, 512, 16], (0, 2, 1), 1, 16, "float32", 1, 1)
    assert all(r["exact"] for r in (rows, contiguous, columns))
    assert abs(rows["cycles"] - contiguous["cycles"]) < 0.05 * contiguous["cycles"]
    assert columns["cycles"] > 3 * contiguous["cycles"]
