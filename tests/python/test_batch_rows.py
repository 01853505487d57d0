"""asctile-batch-rows: row-parallel loops of [1, N] tiles take k rows per trip.

The samples softmax and layer_norm are written upstream's way, one row per
trip; the compiler batches them. Numbers must stay numpy-exact for any row
count (partial last blocks, fewer rows than cores x k) and the batched
kernel must be faster; loops the pass must not touch stay as they are.
"""

import numpy as np
import pytest

import asc2
import layer_norm
import softmax


def _batched_rows(kernel):
    """rows_per_trip of the kernel's row loop after the pass, or None."""
    for p in kernel.last_report["passes"]:
        if p["name"] == "asctile-batch-rows":
            ir = p["ir"]
            if "asctile.rows_per_trip = " not in ir:
                return None
            return int(ir.split("asctile.rows_per_trip = ")[1].split(" ")[0])
    raise AssertionError("asctile-batch-rows did not run")


@pytest.mark.parametrize("rows", [1, 5, 8, 37, 130])
@pytest.mark.parametrize("cores", [1, 8, 48])
def test_softmax_batched_is_exact(rows, cores):
    err, _ = softmax.run(softmax.softmax, rows, 256, cores)
    assert err <= 1e-6
    assert _batched_rows(softmax.softmax) == 8


@pytest.mark.parametrize("kernel", [layer_norm.layer_norm, layer_norm.layer_norm_fused],
                         ids=["layer_norm", "layer_norm_fused"])
@pytest.mark.parametrize("rows", [3, 20, 67])
def test_layer_norm_batched_is_exact(kernel, rows):
    err, _ = layer_norm.run(kernel, rows, 256, cores=8)
    assert err <= 2e-5
    assert _batched_rows(kernel) == 8


def test_softmax_float16_batched():
    err, _ = softmax.run(softmax.softmax_fused, 45, 512, cores=8, dtype=np.float16)
    assert err <= 2e-3
    assert _batched_rows(softmax.softmax_fused) is not None


def test_batching_is_faster_than_one_row_per_trip(monkeypatch):
    _, batched = softmax.run(softmax.softmax, 8 * 8 * 16, 1024, cores=8)

    @asc2.jit
    def one_row(x_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress, rows: int, cols: int,
                TILE: asc2.ConstExpr[int]):
        x_gm = asc2.global_tensor(x_ptr, [rows, cols])
        out_gm = asc2.global_tensor(out_ptr, [rows, cols])
        # Not declared parallel: the compiler may not reorder rows across cores.
        for row in asc2.range(asc2.block_idx(), rows, asc2.block_num()):
            x = asc2.copy_in(x_gm, [row, 0], [1, TILE], pad_value=float("-inf"))
            e = asc2.exp(x - x.max())
            asc2.copy_out(e / e.sum(), out_gm, [row, 0])

    err, single = softmax.run(one_row, 8 * 8 * 16, 1024, cores=8)
    assert err <= 1e-6
    assert _batched_rows(one_row) is None
    assert batched < 0.85 * single, (batched, single)


def test_batched_tiles_that_do_not_fit_fall_back_to_one_row():
    # 14 [k, 2048] float32 tiles live at once: batched they overflow the UB,
    # so the driver compiles again without batching and says so in a note.
    @asc2.jit
    def many_live(x_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress, rows: int, COLS: asc2.ConstExpr[int]):
        x_gm = asc2.global_tensor(x_ptr, [rows, COLS])
        out_gm = asc2.global_tensor(out_ptr, [rows, COLS])
        for row in asc2.range(asc2.block_idx(), rows, asc2.block_num(), parallel=True):
            x = asc2.copy_in(x_gm, [row, 0], [1, COLS])
            t0 = asc2.exp(x * 0.125)
            t1 = asc2.exp(x * 0.1875)
            t2 = asc2.exp(x * 0.25)
            t3 = asc2.exp(x * 0.3125)
            t4 = asc2.exp(x * 0.375)
            t5 = asc2.exp(x * 0.4375)
            t6 = asc2.exp(x * 0.5)
            t7 = asc2.exp(x * 0.5625)
            t8 = asc2.exp(x * 0.625)
            t9 = asc2.exp(x * 0.6875)
            t10 = asc2.exp(x * 0.75)
            t11 = asc2.exp(x * 0.8125)
            t12 = asc2.exp(x * 0.875)
            t13 = asc2.exp(x * 0.9375)
            acc = t0 + t1 + t2 + t3 + t4 + t5 + t6
            acc = acc + t7 + t8 + t9 + t10 + t11 + t12 + t13
            asc2.copy_out(acc, out_gm, [row, 0])

    rows, cols = 21, 2048
    x = np.random.default_rng(0).standard_normal((rows, cols)).astype(np.float32)
    out = np.zeros_like(x)
    many_live[4](x, out, rows, COLS=cols)
    ref = sum(np.exp(x.astype(np.float64) * ((i + 2) / 16)) for i in range(14))
    np.testing.assert_allclose(out, ref, rtol=2e-6)
    report = many_live.last_report
    assert "asctile-batch-rows" not in [p["name"] for p in report["passes"]]
    notes = [d["message"] for d in report["diagnostics"] if d["severity"] == "note"]
    assert any(n.startswith("row batching dropped: the batched rows' tiles do not fit (UB overflow") for n in notes), notes
