"""MIX_AIC_1_2: a MIX kernel's vector work divided between the two vector cores of each cube core
(asctile-split-vector-work). Each AIV loads, computes and stores half the rows of every vector tile
(its sub-block index picks the half); the cube side and the cross-core hand-offs stay as they are.

Checked on Ascend910B1 and Ascend950 against numpy, race-free: an epilogue (matmul_leaky_relu), a
vector prologue feeding the cube, partial edge tiles where one AIV's half lies past the tensor, the
emitted Ascend C (KERNEL_TYPE_MIX_AIC_1_2, GetSubBlockIdx, the group index), the simulated group of
three cores (veccore0 and veccore1 in the trace) and its speed-up; kernel_type=MIX_AIC_1_1 keeps one
vector core; kernels whose stored tiles need all their rows on one core stay MIX_AIC_1_1 with a
remark, or fail to compile when MIX_AIC_1_2 is asked for.
"""

import json
import os

import numpy as np
import pytest

import asc2
from conftest import ROOT, in_child_process, requires_native
from test_mix_sync import _relu_then_matmul  # a ReLU on the vector side stored to GM, loaded into L0A

L0A, L0B = asc2.TensorLocation.L0A, asc2.TensorLocation.L0B
PLATFORMS = ["Ascend910B1", "Ascend950"]


def _epilogue_kernel(kernel_type=None, reduce_rows=False):
    """C = gelu-ish epilogue of A @ B per [BM, BN] tile; `reduce_rows`: also store the tile's column
    sums (a reduction over its rows)."""
    @asc2.jit(kernel_type=kernel_type, always_compile=True)
    def mm_epilogue(a_ptr, b_ptr, ws_ptr, c_ptr, s_ptr, M: asc2.ConstExpr[int], N: asc2.ConstExpr[int],
                    K: asc2.ConstExpr[int], BM: asc2.ConstExpr[int], BN: asc2.ConstExpr[int],
                    SUMS: asc2.ConstExpr[bool]):
        a_gm = asc2.global_tensor(a_ptr, [M, K])
        b_gm = asc2.global_tensor(b_ptr, [K, N])
        ws = asc2.global_tensor(ws_ptr, [M, N])
        c_gm = asc2.global_tensor(c_ptr, [M, N])
        s_gm = asc2.global_tensor(s_ptr, [asc2.ceildiv(M, BM), N])
        blocks_n = asc2.ceildiv(N, BN)
        for t in asc2.range(asc2.block_idx(), asc2.ceildiv(M, BM) * blocks_n, asc2.block_num()):
            m0 = (t // blocks_n) * BM
            n0 = (t % blocks_n) * BN
            a = asc2.copy_in(a_gm, [m0, 0], [BM, K], location=L0A)
            b = asc2.copy_in(b_gm, [0, n0], [K, BN], location=L0B)
            asc2.copy_out(a @ b, ws, [m0, n0])
            x = asc2.copy_in(ws, [m0, n0], [BM, BN])
            y = x
            for _ in asc2.static_range(6):
                y = asc2.maximum(y * 0.5 + x * 0.25, x * 0.125)
            asc2.copy_out(y, c_gm, [m0, n0])
            if SUMS:
                asc2.copy_out(x.sum(0, keep_dims=True), s_gm, [t // blocks_n, n0])
    return mm_epilogue


def _reference(a, b):
    x = a.astype(np.float32) @ b.astype(np.float32)
    y = x
    for _ in range(6):
        y = np.maximum(y * np.float32(0.5) + x * np.float32(0.25), x * np.float32(0.125))
    return x, y


def _run_epilogue(platform, m, n, k, bm, bn, cores, kernel_type=None, sums=False):
    asc2.set_platform(backend="Model", platform=platform)
    rng = np.random.default_rng(11)
    a = rng.integers(-3, 4, (m, k)).astype(np.float16)
    b = rng.integers(-3, 4, (k, n)).astype(np.float16)
    ws = np.zeros((m, n), np.float32)
    c = np.zeros((m, n), np.float32)
    s = np.zeros((-(-m // bm), n), np.float32)
    kernel = _epilogue_kernel(kernel_type)
    kernel[cores](a, b, ws, c, s, m, n, k, bm, bn, sums)
    x, want = _reference(a, b)
    np.testing.assert_array_equal(c, want)
    if sums:
        for i in range(s.shape[0]):
            np.testing.assert_array_equal(s[i], x[i * bm:(i + 1) * bm].sum(0))
    report = kernel.last_report
    launch = report["launch"]
    diagnostics = [d.get("message", "") for d in report.get("diagnostics", [])]
    return {"mix_ratio": report["options"].get("mix_ratio"), "races": launch["races"],
            "cycles": launch["cycles"], "ascendc": report["ascendc"], "diagnostics": diagnostics}


@requires_native
@pytest.mark.parametrize("platform", PLATFORMS)
def test_an_epilogue_runs_on_both_vector_cores_of_each_group(platform):
    split = in_child_process(_run_epilogue, platform, 128, 128, 64, 64, 64, 2)
    assert split["mix_ratio"] == "1:2" and split["races"] == []
    src = split["ascendc"]
    for needle in ("KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2)", "AscendC::GetSubBlockIdx()",
                   "AscendC::GetBlockIdx() / AscendC::GetSubBlockNum()"):
        assert needle in src, needle
    one = in_child_process(_run_epilogue, platform, 128, 128, 64, 64, 64, 2, "MIX_AIC_1_1")
    assert one["mix_ratio"] == "1:1" and one["races"] == []
    assert "KERNEL_TYPE_MIX_AIC_1_1" in one["ascendc"] and "GetSubBlockIdx" not in one["ascendc"]
    # The epilogue is vector-bound: half the rows per vector core is a real speed-up.
    assert split["cycles"] < 0.8 * one["cycles"], (split["cycles"], one["cycles"])


@requires_native
@pytest.mark.parametrize("platform", PLATFORMS)
@pytest.mark.parametrize("m", [40, 56, 72])
def test_partial_edge_tiles_leave_a_vector_core_fewer_or_no_rows(platform, m):
    # BM = 32: the last row of tiles has 8, 24 or 8 valid rows; the second AIV's half starts at row
    # 16 of the tile, past the tensor for 8 (its load is all padding, its store writes nothing).
    r = in_child_process(_run_epilogue, platform, m, 64, 32, 32, 32, 3)
    assert r["mix_ratio"] == "1:2" and r["races"] == []


@requires_native
def test_rows_reduced_over_stay_on_one_vector_core_with_a_remark():
    r = in_child_process(_run_epilogue, "Ascend910B1", 64, 64, 32, 32, 32, 2, None, True)
    assert r["mix_ratio"] == "1:1" and r["races"] == []
    assert any("MIX_AIC_1_1" in d and "reduced over its first dimension" in d for d in r["diagnostics"]), \
        r["diagnostics"]


def _mix_aic_1_2_required(platform):
    asc2.set_platform(backend="Model", platform=platform)
    a = np.ones((64, 32), np.float16)
    b = np.ones((32, 64), np.float16)
    zeros = [np.zeros((64, 64), np.float32), np.zeros((64, 64), np.float32), np.zeros((2, 64), np.float32)]
    try:
        _epilogue_kernel("MIX_AIC_1_2")[2](a, b, *zeros, 64, 64, 32, 32, 32, True)
    except asc2.CompilationError as e:
        return str(e)
    return None


@requires_native
def test_mix_aic_1_2_asked_for_but_impossible_is_a_compile_error_at_the_op():
    message = in_child_process(_mix_aic_1_2_required, "Ascend910B1")
    assert message is not None
    assert "kernel_type=MIX_AIC_1_2" in message and "reduced over its first dimension" in message, message
    assert "test_mix_split.py" in message and "x.sum(0, keep_dims=True)" in message, message


@requires_native
@pytest.mark.parametrize("platform", PLATFORMS)
def test_a_vector_prologue_feeds_the_cube_from_both_vector_cores(platform):
    options, races = in_child_process(_relu_then_matmul, platform)  # numpy-checked there
    assert (options.get("mix_ratio"), races) == ("1:2", [])


def _sample_trace(platform, directory):
    import importlib.util
    spec = importlib.util.spec_from_file_location("mlr_sample", os.path.join(ROOT, "samples", "matmul_leaky_relu.py"))
    sample = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(sample)
    asc2.set_platform(backend="Model", platform=platform)
    os.environ["ASC2_DUMP_PATH"] = directory
    err, report = sample.run(128, 64, 64, cores=2, bm=64, bn=64, bk=64)
    assert err <= 1e-5
    base = os.path.join(directory, "matmul_leaky_relu")
    with open(os.path.join(base, "trace.json")) as f:
        trace = json.load(f)
    with open(os.path.join(base, "PipeUtilization.csv")) as f:
        rows = [line.split(",")[:2] for line in f.read().splitlines()[1:]]
    pids = {e["pid"] for e in trace["traceEvents"] if e.get("ph") == "X"}
    return report["options"].get("mix_ratio"), sorted(pids), rows


@requires_native
@pytest.mark.parametrize("platform", PLATFORMS)
def test_the_simulated_group_has_a_cube_core_and_two_vector_cores(platform, tmp_path):
    ratio, pids, rows = in_child_process(_sample_trace, platform, str(tmp_path))
    assert ratio == "1:2"
    # msprof's names: one process per core, the block's AIC and its two AIVs.
    assert pids == ["core0.cubecore0", "core0.veccore0", "core0.veccore1",
                    "core1.cubecore0", "core1.veccore0", "core1.veccore1"], pids
    assert rows == [["0", "0"], ["0", "1"], ["1", "0"], ["1", "1"]], rows
