"""Ascend950's local paths between the cube and the vector core, in upstream PyAsc2's forms.

On Ascend950 (c310) the cube core's fixpipe writes a matmul result straight into its vector core's UB
(``c.to(asc2.TensorLocation.UB)``, ``asc2.copy(acc, location=UB)``) and the vector core copies UB tiles into
the cube core's L1 (``asc2.copy(a_ub, offsets, shape, asc2.TensorLocation.L1)``), from where they go on to
L0A/L0B. Atlas A2/A3 have neither path: there the compiler refuses them at the line, naming the way through
GM. Every kernel here is ours, checked against numpy on the simulator (race-free: a launch with a data race
raises), and every inserted wait is shown to be needed by dropping it.
"""

import re

import numpy as np
import pytest

import asc2
from conftest import in_child_process, line_of, requires_native
from kernel_project import HAS_TWIN, NO_TWIN

L = asc2.TensorLocation


@asc2.jit(always_compile=True)
def matmul_add(a_ptr: asc2.GlobalAddress, b_ptr: asc2.GlobalAddress, c_ptr: asc2.GlobalAddress,
               a_shape: asc2.ConstExpr, b_shape: asc2.ConstExpr, c_shape: asc2.ConstExpr):
    a_gm = asc2.global_tensor(a_ptr, a_shape)
    b_gm = asc2.global_tensor(b_ptr, b_shape)
    c_gm = asc2.global_tensor(c_ptr, c_shape)
    a = asc2.copy_in(a_gm, [0, 0], a_shape, "L0A")
    b = asc2.copy_in(b_gm, [0, 0], b_shape, "L0B")
    c = a @ b
    c_ub = c.to(asc2.TensorLocation.UB)  # line: to UB
    asc2.copy_out(c_ub + c_ub, c_gm, [0, 0])


@asc2.jit(always_compile=True)
def matmul_in_bands(a_ptr: asc2.GlobalAddress, b_ptr: asc2.GlobalAddress, c_ptr: asc2.GlobalAddress,
                    M: asc2.ConstExpr, K: asc2.ConstExpr, N: asc2.ConstExpr, BANDS: asc2.ConstExpr,
                    FIRST: asc2.ConstExpr):
    """The accumulator moved to UB a band of rows at a time (a result too large for UB at once), each band's
    vector work and store before the next band's fixpipe may reuse the UB buffer."""
    a_gm = asc2.global_tensor(a_ptr, [M, K])
    b_gm = asc2.global_tensor(b_ptr, [K, N])
    c_gm = asc2.global_tensor(c_ptr, [M, N])
    acc = asc2.copy_in(a_gm, [0, 0], [M, K], L.L0A) @ asc2.copy_in(b_gm, [0, 0], [K, N], L.L0B)
    for p in asc2.static_range(BANDS):
        row = FIRST + p * ((M - FIRST) // BANDS)
        band = asc2.copy(acc, [row, 0], [(M - FIRST) // BANDS, N], L.UB)  # line: band to UB
        asc2.copy_out(band * 2.0 + 1.0, c_gm, [row, 0])


@asc2.jit(always_compile=True)
def relu_half_to_ub(a_ptr: asc2.GlobalAddress, b_ptr: asc2.GlobalAddress, c_ptr: asc2.GlobalAddress,
                    a_shape: asc2.ConstExpr, b_shape: asc2.ConstExpr, c_shape: asc2.ConstExpr):
    a_gm = asc2.global_tensor(a_ptr, a_shape)
    b_gm = asc2.global_tensor(b_ptr, b_shape)
    c_gm = asc2.global_tensor(c_ptr, c_shape)
    a = asc2.copy_in(a_gm, [0, 0], a_shape, asc2.TensorLocation.L0A)
    b = asc2.copy_in(b_gm, [0, 0], b_shape, asc2.TensorLocation.L0B)
    h = asc2.relu(a @ b).to(asc2.float16)  # ReLU and the f32 -> f16 rounding in the fixpipe
    h_ub = asc2.copy(h, location=asc2.TensorLocation.UB)
    asc2.copy_out(h_ub * 2.0, c_gm, [0, 0])


@asc2.jit(always_compile=True)
def matmul_ub_l1(a_ptr: asc2.GlobalAddress, b_ptr: asc2.GlobalAddress, c_ptr: asc2.GlobalAddress,
                 a_shape: asc2.ConstExpr, b_shape: asc2.ConstExpr, c_shape: asc2.ConstExpr,
                 tile_k: asc2.ConstExpr):
    a_gm = asc2.global_tensor(a_ptr, a_shape)
    b_gm = asc2.global_tensor(b_ptr, b_shape)
    c_gm = asc2.global_tensor(c_ptr, c_shape)
    a_ub = asc2.copy_in(a_gm, [0, 0], a_shape, asc2.TensorLocation.UB)
    b_ub = asc2.copy_in(b_gm, [0, 0], b_shape, asc2.TensorLocation.UB)
    acc = asc2.zeros_acc(c_shape, dtype=asc2.float32)
    for i in asc2.range(a_shape[1] // tile_k, unroll_factor=2):
        a_l1 = asc2.copy(a_ub, [0, i * tile_k], [a_shape[0], tile_k], asc2.TensorLocation.L1)  # line: UB -> L1
        b_l1 = asc2.copy(b_ub, [i * tile_k, 0], [tile_k, b_shape[1]], asc2.TensorLocation.L1)
        a_l0a = asc2.copy(a_l1, [0, 0], [a_shape[0], tile_k], asc2.TensorLocation.L0A)
        b_l0b = asc2.copy(b_l1, [0, 0], [tile_k, b_shape[1]], asc2.TensorLocation.L0B)
        asc2.matmul_acc(acc, a_l0a, b_l0b)
    c_ub = asc2.copy(acc, location=asc2.TensorLocation.UB)
    asc2.copy_out(c_ub, c_gm, [0, 0])


@asc2.jit(always_compile=True)
def scaled_row_blocks(a_ptr: asc2.GlobalAddress, b_ptr: asc2.GlobalAddress, c_ptr: asc2.GlobalAddress,
                      M: asc2.ConstExpr, K: asc2.ConstExpr, N: asc2.ConstExpr, BM: asc2.ConstExpr):
    """Blocks of BM rows over the cores: each trip's fixpipe into UB waits for the previous trip's vector
    work on the same buffer (a loop-carried hand-off the other way)."""
    a_gm = asc2.global_tensor(a_ptr, [M, K])
    b_gm = asc2.global_tensor(b_ptr, [K, N])
    c_gm = asc2.global_tensor(c_ptr, [M, N])
    b = asc2.copy_in(b_gm, [0, 0], [K, N], asc2.TensorLocation.L0B)
    for m in asc2.range(asc2.block_idx() * BM, M, asc2.block_num() * BM):
        a = asc2.copy_in(a_gm, [m, 0], [BM, K], asc2.TensorLocation.L0A)
        c = (a @ b).to(asc2.TensorLocation.UB)
        asc2.copy_out(c * 0.5 - 1.0, c_gm, [m, 0])


@asc2.jit(always_compile=True)
def bias_row_from_ub(a_ptr: asc2.GlobalAddress, b_ptr: asc2.GlobalAddress, bias_ptr: asc2.GlobalAddress,
                     c_ptr: asc2.GlobalAddress, M: asc2.ConstExpr, K: asc2.ConstExpr, N: asc2.ConstExpr):
    """A bias row computed on the vector core (doubled), staged UB -> L1 as a plain row, then L1 -> BT."""
    a_gm = asc2.global_tensor(a_ptr, [M, K])
    b_gm = asc2.global_tensor(b_ptr, [K, N])
    bias_gm = asc2.global_tensor(bias_ptr, [N])
    c_gm = asc2.global_tensor(c_ptr, [M, N])
    row = asc2.copy_in(bias_gm, [0], [N]) * 2.0
    bias = asc2.copy(asc2.copy(row, location=asc2.TensorLocation.L1), location=asc2.TensorLocation.BT)
    a = asc2.copy_in(a_gm, [0, 0], [M, K], asc2.TensorLocation.L0A)
    b = asc2.copy_in(b_gm, [0, 0], [K, N], asc2.TensorLocation.L0B)
    asc2.copy_out(asc2.matmul(a, b, bias), c_gm, [0, 0])


def _ints(shape, dtype, seed):
    """Small integers: every product and sum is exact in float32, so the results compare bit-exactly."""
    return np.random.default_rng(seed).integers(-3, 4, shape).astype(dtype)


def _run_matmul_add(m, k, n):
    asc2.set_platform("Model", "Ascend950")
    a, b = _ints((m, k), np.float16, 1), _ints((k, n), np.float16, 2)
    c = np.zeros((m, n), np.float32)
    matmul_add[1](a, b, c, a.shape, b.shape, c.shape)
    ref = a.astype(np.float32) @ b.astype(np.float32)
    np.testing.assert_array_equal(c, ref + ref)
    report = matmul_add.last_report
    return report["options"], report["launch"]["races"], report["ascendc"]


@requires_native
@pytest.mark.parametrize("m, k, n", [(16, 16, 16), (32, 64, 64), (64, 32, 128)])
def test_matmul_result_goes_to_ub_for_vector_work(m, k, n):
    options, races, src = in_child_process(_run_matmul_add, m, k, n)
    assert options["kernel_type"] == "MIX" and races == []
    # The two vector cores of the AI core each get half of the rows: the dual-destination fixpipe
    # (dualDstCtl = 1 splits M), each storing its half.
    assert options["mix_ratio"] == "1:2" and "vector_work" not in options
    assert "KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);" in src and "p.dualDstCtl = 1;" in src
    # The fixpipe with a UB destination: a FixpipeConfig with isToUB, NZ -> ND rows.
    assert "constexpr AscendC::FixpipeConfig ASC2_CFG_ROW_MAJOR_UB = {AscendC::CO2Layout::ROW_MAJOR, true};" in src
    assert "AscendC::Fixpipe<float, float, ASC2_CFG_ROW_MAJOR_UB>(" in src
    assert f"p.srcStride = {m};" in src and f"p.dstStride = {n};" in src
    assert "AscendC::CrossCoreSetFlag<0x2, PIPE_FIX>" in src


def _run_bands(m, k, n, bands, first=0):
    asc2.set_platform("Model", "Ascend950")
    a, b = _ints((m, k), np.float16, 6), _ints((k, n), np.float16, 7)
    c = np.zeros((m, n), np.float32)
    matmul_in_bands[1](a, b, c, m, k, n, bands, first)
    want = (a.astype(np.float32) @ b.astype(np.float32)) * 2 + 1
    np.testing.assert_array_equal(c[first:], want[first:])   # small integers: exact
    assert not c[:first].any()                               # rows before the first band never move
    report = matmul_in_bands.last_report
    fix = sum(p["busy_cycles"] for p in report["launches"][-1]["pipes"] if p["pipe"] == "FIX")
    return report["options"], report["launches"][-1]["races"], report["ascendc"], fix


@requires_native
@pytest.mark.parametrize("m, k, n, bands, first", [(64, 32, 64, 2, 0), (96, 32, 32, 3, 0), (64, 16, 32, 1, 32)])
def test_an_accumulator_goes_to_ub_a_band_of_rows_at_a_time(m, k, n, bands, first):
    options, races, src, fix = in_child_process(_run_bands, m, k, n, bands, first)
    assert not races and options["mix_ratio"] == "1:2"
    # Each band: the dual-destination fixpipe from its first row (row * 16 elements into the NZ tile), its
    # rows in mSize, the whole tile's rows in srcStride.
    rows = (m - first) // bands
    starts = [int(at or 0) for at in re.findall(r"Fixpipe<float, float, ASC2_CFG_ROW_MAJOR_UB>\(\w+, \w+(?:\[(\d+)\])?, p\)",
                                                src)]
    assert starts == [(first + p * rows) * 16 for p in range(bands)]
    assert src.count(f"p.mSize = {rows};") == bands and src.count(f"p.srcStride = {m};") == bands
    # The FIX pipe moves the bands' bytes, not the whole tile each time: as long as one move of those rows.
    whole = in_child_process(_run_bands, m, k, n, 1, first)[3]
    assert fix == pytest.approx(whole, rel=0.05 * bands)


def _band_refusal(m, k, n, bands, first):
    asc2.set_platform("Model", "Ascend950")
    a, b = _ints((m, k), np.float16, 6), _ints((k, n), np.float16, 7)
    with pytest.raises(asc2.CompilationError) as info:
        matmul_in_bands[1](a, b, np.zeros((m, n), np.float32), m, k, n, bands, first)
    return info.value.line, str(info.value), line_of(matmul_in_bands, "line: band to UB")


@requires_native
def test_a_band_must_start_on_a_fractal_row():
    line, message, expected = in_child_process(_band_refusal, 64, 16, 32, 1, 8)
    assert line == expected
    assert "16-row fractal boundary" in message and "row 8" in message


def _run_relu_half():
    asc2.set_platform("Model", "Ascend950")
    rng = np.random.default_rng(3)
    a = (rng.random((32, 48)) - 0.5).astype(np.float16)
    b = (rng.random((48, 64)) - 0.5).astype(np.float16)
    c = np.zeros((32, 64), np.float16)
    relu_half_to_ub[1](a, b, c, a.shape, b.shape, c.shape)
    product = np.maximum(a.astype(np.float32) @ b.astype(np.float32), 0)
    # f32 products summed in k order round to float16 in the fixpipe; doubling is exact.
    np.testing.assert_allclose(c.astype(np.float32), product.astype(np.float16).astype(np.float32) * 2,
                               rtol=2e-3, atol=2e-3)
    return relu_half_to_ub.last_report["ascendc"]


@requires_native
def test_relu_and_half_cast_fold_into_the_fixpipe_to_ub():
    src = in_child_process(_run_relu_half)
    assert "AscendC::Fixpipe<half, float, ASC2_CFG_ROW_MAJOR_UB>(" in src
    assert "p.quantPre = QuantMode_t::F322F16;" in src and "p.reluEn = true;" in src


def _run_matmul_ub_l1(m, k, n, dtype, tile_k):
    import torch
    asc2.set_platform("Model", "Ascend950")
    a = torch.from_numpy(_ints((m, k), np.float32, 4)).to(dtype)
    b = torch.from_numpy(_ints((k, n), np.float32, 5)).to(dtype)
    c = torch.zeros((m, n), dtype=torch.float32)
    matmul_ub_l1[1](a, b, c, a.shape, b.shape, c.shape, tile_k)
    assert torch.equal(c, a.to(torch.float32) @ b.to(torch.float32))
    assert matmul_ub_l1.last_report["options"]["vector_work"] == "first vector core"
    return matmul_ub_l1.last_report["ascendc"]


@requires_native
@pytest.mark.parametrize("m, k, n, dtype, tile_k", [
    (16, 32, 16, "float16", 16),
    (128, 64, 64, "float16", 32),
    (32, 64, 48, "bfloat16", 16),
    (16, 32, 16, "float32", 16),
    (48, 96, 32, "float32", 32),
])
def test_ub_tiles_reach_the_cube_through_l1(m, k, n, dtype, tile_k):
    import torch
    src = in_child_process(_run_matmul_ub_l1, m, k, n, getattr(torch, dtype), tile_k)
    # ND -> NZ on the way: one DataCopy per 32-byte column block, a burst of one block per row.
    c0 = 32 // (4 if dtype == "float32" else 2)
    assert f"AscendC::DataCopyParams{{{m}, 1, {k // c0 - 1}, 0}}" in src  # A: m rows of a k-wide tile
    assert f"AscendC::DataCopyParams{{{tile_k}, 1, {n // c0 - 1}, 0}}" in src  # B: tile_k rows
    assert "AscendC::CrossCoreSetFlag<0x2, PIPE_MTE3>" in src
    # B's K slabs are parts of its rows, which the vector cores cannot divide: the first vector core of
    # the MIX_AIC_1_2 group does the vector work, the second only takes part in the cross-core flags.
    assert "KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);" in src
    assert "if (AscendC::GetSubBlockIdx() == 0) {" in src and "p.dualDstCtl = 0;" in src


@asc2.jit(always_compile=True)
def scaled_a_times_b(a_ptr: asc2.GlobalAddress, b_ptr: asc2.GlobalAddress, c_ptr: asc2.GlobalAddress,
                     M: asc2.ConstExpr, K: asc2.ConstExpr, N: asc2.ConstExpr):
    """A scaled on the vector cores, moved whole to L1: each vector core scales and copies its half of A's
    rows into the cube core's L1 tile."""
    a_gm = asc2.global_tensor(a_ptr, [M, K])
    b_gm = asc2.global_tensor(b_ptr, [K, N])
    c_gm = asc2.global_tensor(c_ptr, [M, N])
    a = asc2.copy_in(a_gm, [0, 0], [M, K]) * 2.0
    a_l0a = a.to(asc2.TensorLocation.L1).to(asc2.TensorLocation.L0A)
    b = asc2.copy_in(b_gm, [0, 0], [K, N], asc2.TensorLocation.L0B)
    asc2.copy_out(a_l0a @ b, c_gm, [0, 0])


def _run_scaled_a(m, k, n):
    asc2.set_platform("Model", "Ascend950")
    a, b = _ints((m, k), np.float16, 11), _ints((k, n), np.float16, 12)
    c = np.zeros((m, n), np.float32)
    scaled_a_times_b[1](a, b, c, m, k, n)
    np.testing.assert_array_equal(c, (2 * a.astype(np.float32)) @ b.astype(np.float32))
    return scaled_a_times_b.last_report["options"]["mix_ratio"], scaled_a_times_b.last_report["ascendc"]


@requires_native
@pytest.mark.parametrize("m, k, n", [(32, 32, 16), (48, 64, 32)])
def test_each_vector_core_copies_its_rows_into_l1(m, k, n):
    ratio, src = in_child_process(_run_scaled_a, m, k, n)
    assert ratio == "1:2"
    # Each AIV's m/2 rows land from row GetSubBlockIdx() * m/2 of the L1 tile.
    assert f"AscendC::DataCopyParams{{{m // 2}, 1, {k // 16 - 1}, 0}}" in src
    assert "AscendC::GetSubBlockIdx()" in src


def _mix_1_1_refused():
    asc2.set_platform("Model", "Ascend950")
    kernel = asc2.jit(kernel_type="MIX_AIC_1_1")(matmul_add.fn)
    a, b = _ints((16, 16), np.float16, 1), _ints((16, 16), np.float16, 2)
    with pytest.raises(asc2.CompilationError) as info:
        kernel[1](a, b, np.zeros((16, 16), np.float32), a.shape, b.shape, (16, 16))
    return info.value.line, str(info.value), line_of(matmul_add, "line: to UB")


@requires_native
def test_one_vector_core_per_cube_core_is_refused():
    line, message, expected = in_child_process(_mix_1_1_refused)
    assert line == expected
    assert "kernel_type=MIX_AIC_1_1" in message and "MIX_AIC_1_2" in message


def _run_row_blocks(cores, sync_style):
    asc2.set_platform("Model", "Ascend950")
    kernel = scaled_row_blocks if sync_style is None else asc2.jit(sync_style=sync_style)(scaled_row_blocks.fn)
    m, k, n, bm = 128, 32, 64, 32
    a, b = _ints((m, k), np.float16, 6), _ints((k, n), np.float16, 7)
    c = np.zeros((m, n), np.float32)
    kernel[cores](a, b, c, m, k, n, bm)
    np.testing.assert_array_equal(c, (a.astype(np.float32) @ b.astype(np.float32)) * 0.5 - 1.0)
    return kernel.last_report["options"]["sync_style"]


@requires_native
@pytest.mark.parametrize("cores", [1, 2])
@pytest.mark.parametrize("sync_style", [None, "flag"])
def test_each_trip_hands_its_ub_buffer_back_to_the_cube_core(cores, sync_style):
    assert in_child_process(_run_row_blocks, cores, sync_style) == (sync_style or "buffer-id")


def _run_bias_row():
    asc2.set_platform("Model", "Ascend950")
    m, k, n = 16, 32, 64
    a, b = _ints((m, k), np.float16, 8), _ints((k, n), np.float16, 9)
    bias = _ints((n,), np.float32, 10)
    c = np.zeros((m, n), np.float32)
    bias_row_from_ub[1](a, b, bias, c, m, k, n)
    np.testing.assert_array_equal(c, a.astype(np.float32) @ b.astype(np.float32) + 2 * bias)
    assert bias_row_from_ub.last_report["options"]["vector_work"] == "first vector core"
    return bias_row_from_ub.last_report["ascendc"]


@requires_native
def test_a_bias_row_from_ub_goes_to_the_bias_table_through_l1():
    src = in_child_process(_run_bias_row)
    # A 1-D row is copied as it is (a plain DataCopy of its 64 floats), not as NZ fractals.
    assert "AscendC::DataCopy(from_ub" in src and ", 64);" in src


# -- the emitted Ascend C on the CPU twin: the same numbers as numpy and the simulator ----------------------

def _twin_cases():
    f16 = lambda shape, seed: _ints(shape, np.float16, seed)  # noqa: E731
    a, b = f16((32, 64), 1), f16((64, 64), 2)
    product = lambda x, y: x.astype(np.float32) @ y.astype(np.float32)  # noqa: E731
    cases = []
    c = np.zeros((32, 64), np.float32)
    cases.append(("matmul_add", matmul_add, lambda: matmul_add[1](a, b, c, a.shape, b.shape, c.shape), c,
                  lambda: 2 * product(a, b)))
    a2, b2 = f16((64, 32), 3), f16((32, 64), 4)
    c2 = np.zeros((64, 64), np.float32)
    cases.append(("matmul_in_bands", matmul_in_bands, lambda: matmul_in_bands[1](a2, b2, c2, 64, 32, 64, 2, 0), c2,
                  lambda: 2 * product(a2, b2) + 1))
    a3, b3 = f16((32, 64), 5), f16((64, 32), 6)
    c3 = np.zeros((32, 32), np.float32)
    cases.append(("matmul_ub_l1", matmul_ub_l1, lambda: matmul_ub_l1[1](a3, b3, c3, a3.shape, b3.shape, c3.shape, 16), c3,
                  lambda: product(a3, b3)))
    a4, b4 = f16((128, 32), 7), f16((32, 64), 8)
    c4 = np.zeros((128, 64), np.float32)
    cases.append(("scaled_row_blocks", scaled_row_blocks, lambda: scaled_row_blocks[2](a4, b4, c4, 128, 32, 64, 32), c4,
                  lambda: product(a4, b4) * 0.5 - 1.0))
    a5, b5 = f16((32, 32), 9), f16((32, 16), 10)
    c5 = np.zeros((32, 16), np.float32)
    cases.append(("scaled_a_times_b", scaled_a_times_b, lambda: scaled_a_times_b[1](a5, b5, c5, 32, 32, 16), c5, None))
    return cases


def _run_on_twin():
    import os
    os.environ["ASC2_TWIN_COMPARE"] = "1"  # each launch also runs the simulator and must agree
    asc2.set_platform("Twin", "Ascend950")
    done = []
    for name, kernel, launch, out, want in _twin_cases():
        launch()
        assert kernel.last_report["launch"]["compared_with_model"], name
        if want is not None:
            np.testing.assert_array_equal(out, want(), err_msg=name)
        done.append(name)
    return done


@requires_native
@pytest.mark.skipif(not HAS_TWIN, reason=NO_TWIN)
def test_the_local_paths_run_on_the_twin(twin_cache):
    # L0C -> UB (whole, dual-destination, in bands) and UB -> L1 (each vector core its rows, into the cube
    # core's L1): the twin's AIC writes the vector cores' UB and an AIV's copy lands in its AIC's L1.
    assert in_child_process(_run_on_twin) == ["matmul_add", "matmul_in_bands", "matmul_ub_l1",
                                              "scaled_row_blocks", "scaled_a_times_b"]


# -- every inserted wait and buffer id is needed (the simulator catches its removal) ------------------------

def _mutation_cases():
    import test_sync_mutation as mutation

    def f16(*shape, seed=0):
        return _ints(shape, np.float16, seed)

    def zeros(*shape):
        return np.zeros(shape, np.float32)

    return [
        mutation.Case("matmul_add", matmul_add, 1,
                      lambda: (f16(32, 32), f16(32, 64, seed=1), zeros(32, 64), (32, 32), (32, 64), (32, 64)), {}),
        mutation.Case("matmul_ub_l1", matmul_ub_l1, 1,
                      lambda: (f16(32, 64), f16(64, 32, seed=1), zeros(32, 32), (32, 64), (64, 32), (32, 32), 16),
                      {}),
        # Four trips per core, two of the unrolled pair: the loop-carried hand-offs run.
        mutation.Case("scaled_row_blocks", scaled_row_blocks, 2,
                      lambda: (f16(256, 32), f16(32, 64, seed=1), zeros(256, 64), 256, 32, 64, 32), {}),
        mutation.Case("scaled_a_times_b", scaled_a_times_b, 1,
                      lambda: (f16(32, 32), f16(32, 16, seed=1), zeros(32, 16), 32, 32, 16), {}),
        mutation.Case("matmul_in_bands", matmul_in_bands, 1,
                      lambda: (f16(64, 32), f16(32, 32, seed=1), zeros(64, 32), 64, 32, 32, 2, 0), {}),
    ]


def _known_redundant():
    """Waits the flag planner inserts that another pair already orders (a compiler inefficiency: the
    simulator cannot catch their removal). test_sync_mutation's KNOWN_REDUNDANT asserts they are still there
    and still uncaught, so fixing the planner makes these entries fail as stale."""
    carried = ("the AIV's carried pair from its store (MTE3, which waited for the V op) already orders the V op "
               "before the next trip's fixpipe into the same UB bytes; the planner does not order one loop-carried "
               "pair through another")
    subs = line_of(scaled_row_blocks, "c * 0.5 - 1.0")
    return {
        ("matmul_ub_l1", "WAR on fixpiped: ascendc.copy_ub_to_l1"):
            "the fixpipe into UB after the K loop reuses the bytes of the A tile the vector core copied to L1; the "
            "loop's own MTE3 -> MTE1 (cross-core) -> M -> FIX chain orders it, but the planner does not carry "
            "what a loop's pipes waited for out of the loop",
        ("scaled_row_blocks", f"WAW on fixpiped: ascendc.subs (V, line {subs}) -> ascendc.fixpipe_ub"): carried,
        ("scaled_row_blocks", f"WAR on fixpiped_1: ascendc.subs (V, line {subs}) -> ascendc.fixpipe_ub"): carried,
    }


def _check_waits(name, sync_style):
    import test_sync_mutation as mutation
    mutation.KNOWN_REDUNDANT.update(_known_redundant())
    asc2.set_platform("Model", "Ascend950")
    case = next(c for c in _mutation_cases() if c.name == name)
    case = mutation.Case(case.name, asc2.jit(sync_style=sync_style)(case.kernel.fn), case.block_num,
                         case.make_args, case.constexprs)
    if sync_style == "flag":
        return mutation.check(case)
    return mutation.check_buf_ids(case)


@requires_native
@pytest.mark.parametrize("sync_style", ["flag", "buffer-id"])
@pytest.mark.parametrize("name", ["matmul_add", "matmul_ub_l1", "scaled_row_blocks", "scaled_a_times_b",
                                  "matmul_in_bands"])
def test_every_wait_and_buffer_id_is_needed(name, sync_style):
    problems, summary = in_child_process(_check_waits, name, sync_style)
    print(summary)
    assert not problems, "\n".join(problems)


# -- Atlas A2/A3: no such path, a clear error at the line ----------------------------------------------------

def _refusal(kernel, args, marker):
    asc2.set_platform("Model", "Ascend910B1")
    with pytest.raises(asc2.CompilationError) as info:
        kernel[1](*args)
    return info.value.line, str(info.value), line_of(kernel, marker)


@requires_native
def test_atlas_a2_refuses_l0c_to_ub_at_its_line():
    a, b = _ints((16, 16), np.float16, 1), _ints((16, 16), np.float16, 2)
    line, message, expected = in_child_process(
        _refusal, matmul_add, (a, b, np.zeros((16, 16), np.float32), a.shape, b.shape, (16, 16)), "line: to UB")
    assert line == expected
    assert "L0C -> UB has no data path on Atlas A2/A3 (only Ascend950 moves L0C -> UB)" in message
    assert "copy_out (fixpipe)" in message


@requires_native
def test_atlas_a2_refuses_ub_to_l1_at_its_line():
    a, b = _ints((16, 32), np.float16, 1), _ints((32, 16), np.float16, 2)
    line, message, expected = in_child_process(
        _refusal, matmul_ub_l1, (a, b, np.zeros((16, 16), np.float32), a.shape, b.shape, (16, 16), 16),
        "line: UB -> L1")
    assert line == expected
    assert "UB -> L1 has no data path on Atlas A2/A3 (only Ascend950 copies UB -> L1)" in message
