"""The cube path end to end: L1/L0A/L0B/L0C tiles, matmul, matmul_acc, fixpipe stores, MIX kernels.

Every numeric test compares the simulator against numpy (float32 accumulation) and checks the run
is race-free; every error case checks the message and the kernel line it points at.
"""

import re

import numpy as np
import pytest

import asc2
from conftest import in_child_process, line_of, requires_native

L = asc2.TensorLocation


@asc2.jit
def mm_upstream(a_ptr, b_ptr, c_ptr, M: asc2.ConstExpr[int], N: asc2.ConstExpr[int], K: asc2.ConstExpr[int]):
    a_gm = asc2.global_tensor(a_ptr, [M, K])
    b_gm = asc2.global_tensor(b_ptr, [K, N])
    c_gm = asc2.global_tensor(c_ptr, [M, N])
    a = asc2.copy_in(a_gm, [0, 0], [M, K], location=asc2.TensorLocation.L0A)
    b = asc2.copy_in(b_gm, [0, 0], [K, N], location=asc2.TensorLocation.L0B)
    asc2.copy_out(a @ b, c_gm, [0, 0])


@asc2.jit
def mm_tiled(a_ptr, b_ptr, c_ptr, M: asc2.ConstExpr[int], N: asc2.ConstExpr[int], K: asc2.ConstExpr[int],
             BM: asc2.ConstExpr[int], BN: asc2.ConstExpr[int], BK: asc2.ConstExpr[int],
             FORM: asc2.ConstExpr[int], RELU: asc2.ConstExpr[bool]):
    a_gm = asc2.global_tensor(a_ptr, [M, K])
    b_gm = asc2.global_tensor(b_ptr, [K, N])
    c_gm = asc2.global_tensor(c_ptr, [M, N])
    blocks_n = asc2.ceildiv(N, BN)
    for blk in asc2.range(asc2.block_idx(), asc2.ceildiv(M, BM) * blocks_n, asc2.block_num()):
        m0 = (blk // blocks_n) * BM
        n0 = (blk % blocks_n) * BN
        acc = asc2.zeros_acc([BM, BN])
        for k in asc2.range(0, K, BK):
            if FORM == 0:    # matmul_acc with operands loaded straight to L0A/L0B
                a = asc2.copy_in(a_gm, [m0, k], [BM, BK], location=L.L0A)
                b = asc2.copy_in(b_gm, [k, n0], [BK, BN], location=L.L0B)
                acc = asc2.matmul_acc(acc, a, b)
            else:            # acc + a @ b with L1 operands moved to L0A/L0B
                a = asc2.copy_in(a_gm, [m0, k], [BM, BK], location="L1")
                b = asc2.copy_in(b_gm, [k, n0], [BK, BN], location="L1")
                acc = acc + a.to(L.L0A) @ b.to(L.L0B)
        if RELU:
            acc = asc2.relu(acc)
        asc2.copy_out(acc, c_gm, [m0, n0])


def _operands(m, n, k, dtype, seed=0):
    rng = np.random.default_rng(seed)
    if np.dtype(dtype) == np.int8:
        return (rng.integers(-8, 8, (m, k)).astype(np.int8), rng.integers(-8, 8, (k, n)).astype(np.int8))
    return rng.standard_normal((m, k)).astype(dtype), rng.standard_normal((k, n)).astype(dtype)


def _check(out, a, b, relu=False):
    ref = a.astype(np.float64) @ b.astype(np.float64)
    if relu:
        ref = np.maximum(ref, 0)
    ref = ref.astype(out.dtype).astype(np.float64)
    scale = max(1.0, float(np.max(np.abs(ref))))
    tol = 1e-3 if out.dtype == np.float16 else 1e-5
    err = float(np.max(np.abs(out.astype(np.float64) - ref))) / scale
    assert err <= tol, f"relative error {err}"


def _launch(kernel):
    launch = kernel.last_report["launch"]
    assert launch["ok"] and launch["races"] == [], launch
    return launch


@requires_native
@pytest.mark.parametrize("dtype", [np.float16, np.float32])
@pytest.mark.parametrize("shape", [(16, 16, 16), (32, 48, 64), (64, 16, 128)])
def test_upstream_matmul_form(dtype, shape):
    m, n, k = shape
    a, b = _operands(m, n, k, dtype)
    c = np.zeros((m, n), np.float32)
    mm_upstream[1](a, b, c, m, n, k)
    _check(c, a, b)
    assert mm_upstream.last_report["options"]["kernel_type"] == "AIC_ONLY"
    _launch(mm_upstream)
    src = mm_upstream.last_report["ascendc"]
    for needle in ("KERNEL_TYPE_AIC_ONLY", "Nd2NzParams", "AscendC::LoadData(", "AscendC::Mmad(",
                   "static_cast<bool>(", "AscendC::Fixpipe<float, float", "HardEvent::MTE1_M"):
        assert needle in src, needle


SWEEP = [  # (M, N, K), (BM, BN, BK), cores
    ((64, 64, 128), (32, 32, 32), 2),
    ((128, 96, 256), (64, 32, 64), 3),
    ((100, 70, 90), (32, 32, 32), 4),      # partial blocks on every edge (loads pad, stores clamp)
    ((480, 224, 1344), (96, 112, 64), 10),  # the upstream mnblock shape, K-tiled
    ((256, 128, 96), (128, 128, 32), 1),    # one core, many blocks
]


@requires_native
@pytest.mark.parametrize("dims,blocks,cores", SWEEP)
@pytest.mark.parametrize("form", [0, 1])
def test_tiled_matmul_sweep(dims, blocks, cores, form):
    m, n, k = dims
    a, b = _operands(m, n, k, np.float16, seed=m + n + k)
    c = np.zeros((m, n), np.float32)
    mm_tiled[cores](a, b, c, m, n, k, *blocks, FORM=form, RELU=False)
    _check(c, a, b)
    _launch(mm_tiled)


@requires_native
@pytest.mark.parametrize("out_dtype", [np.float32, np.float16])
def test_fixpipe_relu_and_conversion(out_dtype):
    m, n, k = 64, 64, 96
    a, b = _operands(m, n, k, np.float16, seed=3)
    c = np.zeros((m, n), out_dtype)
    mm_tiled[2](a, b, c, m, n, k, 32, 32, 32, FORM=0, RELU=True)
    _check(c, a, b, relu=True)
    ir = mm_tiled.last_report["passes"][-1]["ir"]
    assert "{relu}" in ir and "ascendc.fixpipe" in ir
    assert "ascendc.max" not in ir  # relu happens in the fixpipe, not on a vector unit
    _launch(mm_tiled)


@requires_native
def test_float32_inputs_and_multibuffered_k_loop():
    m, n, k = 64, 64, 256
    a, b = _operands(m, n, k, np.float32, seed=5)
    c = np.zeros((m, n), np.float32)
    mm_tiled[2](a, b, c, m, n, k, 32, 32, 32, FORM=0, RELU=False)
    _check(c, a, b)
    report = mm_tiled.last_report
    slots = {buf.get("slot") for buf in report["memory"]["buffers"] if buf["space"] in ("L0A", "L0B")}
    assert {0, 1} <= slots, "the K loop's L0A/L0B loads should be ping-ponged"
    spaces = {s["space"] for s in report["memory"]["spaces"]}
    assert {"L1", "L0A", "L0B", "L0C"} <= set(spaces)
    pipes = {entry["src_pipe"] for entry in report["sync"] if "src_pipe" in entry} | \
            {entry["dst_pipe"] for entry in report["sync"] if "dst_pipe" in entry}
    assert {"MTE2", "MTE1", "M", "FIX"} <= pipes


@asc2.jit
def mm_int8(a_ptr, b_ptr, c_ptr, M: asc2.ConstExpr[int], N: asc2.ConstExpr[int], K: asc2.ConstExpr[int]):
    a_gm = asc2.global_tensor(a_ptr, [M, K])
    b_gm = asc2.global_tensor(b_ptr, [K, N])
    c_gm = asc2.global_tensor(c_ptr, [M, N])
    acc = asc2.zeros_acc([M, N], asc2.int32)
    a = asc2.copy_in(a_gm, [0, 0], [M, K], location=L.L0A)
    b = asc2.copy_in(b_gm, [0, 0], [K, N], location=L.L0B)
    asc2.copy_out(asc2.matmul_acc(acc, a, b), c_gm, [0, 0])


@requires_native
def test_int8_accumulates_in_int32():
    m, n, k = 32, 32, 64
    a, b = _operands(m, n, k, np.int8)
    c = np.zeros((m, n), np.int32)
    mm_int8[1](a, b, c, m, n, k)
    np.testing.assert_array_equal(c, a.astype(np.int32) @ b.astype(np.int32))
    _launch(mm_int8)
    # A2/A3: B (K x N) to L0B through LoadDataWithTranspose's b8 squares, one call per 32 rows of K
    # (LoadData2DParams transposes only b16 fractals).
    src = mm_int8.last_report["ascendc"]
    if "Generated by asc2 for c310" in src:  # Ascend950: LoadData2DParamsV2 (the c310 test)
        return
    assert src.count("AscendC::LoadDataWithTranspose(") == 1 and "for (int band = 0; band < 2; ++band)" in src
    assert "AscendC::LoadData2dTransposeParams p(static_cast<uint16_t>((0) * 2 + 0 + band), 1, 2, 1, 0);" in src


@requires_native
def test_int8_rhs_in_squares_of_32():
    a = np.zeros((32, 64), np.int8)
    b = np.zeros((64, 16), np.int8)
    with pytest.raises(asc2.CompilationError, match=r"int8 right operand is moved to L0B in 32 x 32 squares") as info:
        mm_int8[1](a, b, np.zeros((32, 16), np.int32), 32, 16, 64)
    assert info.value.line == line_of(mm_int8, "location=L.L0B")


def _int8_tiles_on_a5():
    asc2.set_platform(backend="Model", platform="Ascend950")
    a = np.ones((32, 64), np.int8)
    with pytest.raises(asc2.CompilationError, match=r"8-bit cube tile is made of 16 x 32 fractals.*got 64 x 16") as info:
        mm_int8[1](a, np.ones((64, 16), np.int8), np.zeros((32, 16), np.int32), 32, 16, 64)
    assert info.value.line == line_of(mm_int8, "location=L.L0B")


@requires_native
def test_int8_tiles_are_whole_16_by_32_fractals_on_a5():
    # A 32 x 16 int8 B is half a fractal wide: its ND -> NZ copy and the load to L0B move 32 bytes a
    # row, twice the 512 bytes the tile had in L1 (the race detector caught the overlap with the
    # next A in a random MIX kernel). A compile error at the copy instead. (32 columns run and
    # match on Ascend950 in test_cube_kernels_on_ascend950_use_the_c310_recipe_with_numpy_numbers.)
    in_child_process(_int8_tiles_on_a5)


@asc2.jit
def mm_sub_tiles(a_ptr, b_ptr, c_ptr, M: asc2.ConstExpr[int], N: asc2.ConstExpr[int], K: asc2.ConstExpr[int],
                 BK: asc2.ConstExpr[int]):
    """A and B staged once in L1; the K loop moves BK-wide sub-tiles to L0A/L0B."""
    a_gm = asc2.global_tensor(a_ptr, [M, K])
    b_gm = asc2.global_tensor(b_ptr, [K, N])
    c_gm = asc2.global_tensor(c_ptr, [M, N])
    a1 = asc2.copy_in(a_gm, [0, 0], [M, K], location=L.L1)
    b1 = asc2.copy_in(b_gm, [0, 0], [K, N], location=L.L1)
    acc = asc2.zeros_acc([M, N])
    for kk in asc2.static_range(K // BK):
        a0 = asc2.copy(a1, [0, kk * BK], [M, BK], location=L.L0A)
        b0 = b1.to(L.L0B) if K == BK else asc2.copy(b1, [kk * BK, 0], [BK, N], location="L0B")
        acc = asc2.matmul_acc(acc, a0, b0)
    asc2.copy_out(acc, c_gm, [0, 0])


@requires_native
@pytest.mark.parametrize("bk", [32, 64, 128])
def test_l1_sub_tiles_moved_to_l0(bk):
    m, n, k = 48, 64, 128
    a, b = _operands(m, n, k, np.float16, seed=bk)
    c = np.zeros((m, n), np.float32)
    mm_sub_tiles[1](a, b, c, m, n, k, bk)
    _check(c, a, b)
    _launch(mm_sub_tiles)


@requires_native
def test_mix_kernel_sample_runs_on_cube_and_vector_cores():
    import matmul_leaky_relu as sample

    err, report = sample.run(128, 96, 128, cores=3, bm=32, bn=32, bk=64, alpha=0.2)
    assert err <= 1e-5
    assert report["options"]["kernel_type"] == "MIX"
    assert report["options"]["mix_ratio"] == "1:2"  # the epilogue divided between both vector cores
    assert report["launch"]["races"] == []
    ir = report["passes"][-1]["ir"]
    assert "cross_core" in ir
    src = report["ascendc"]
    for needle in ("KERNEL_TYPE_MIX_AIC_1_2", "if ASCEND_IS_AIC", "if ASCEND_IS_AIV", "AscendC::CrossCoreSetFlag<0x2, PIPE_FIX>",
                   "AscendC::CrossCoreWaitFlag("):
        assert needle in src, needle


@requires_native
def test_mnblock_sample_upstream_shape():
    import matmul_mnblock as sample

    err, launch = sample.run(480, 224, 1344, cores=30)
    assert err <= 1e-5 and launch["races"] == []


# ---------------------------------------------------------------------------
# Errors: message and line


def _compile_error(kernel, *args, **kwargs):
    with pytest.raises(asc2.CompilationError) as info:
        kernel.compile(*args, **kwargs)
    return info.value


@asc2.jit
def k_bad(a_ptr, b_ptr, c_ptr, WHICH: asc2.ConstExpr[int]):
    a_gm = asc2.global_tensor(a_ptr, [64, 64])
    b_gm = asc2.global_tensor(b_ptr, [64, 64])
    c_gm = asc2.global_tensor(c_ptr, [64, 64])
    if WHICH == 0:
        acc = asc2.zeros_acc([64, 24])  # ERR0
    elif WHICH == 1:
        a = asc2.copy_in(a_gm, [0, 0], [32, 32], location=L.L0A)
        b = asc2.copy_in(b_gm, [0, 0], [48, 32], location=L.L0B)
        c = a @ b  # ERR1
    elif WHICH == 2:
        a = asc2.copy_in(a_gm, [0, 0], [32, 32], location=L.L0A)
        b = asc2.copy_in(b_gm, [0, 0], [32, 32], location=L.L0B)
        c = a @ b
        d = c * 2.0  # ERR2
        asc2.copy_out(d, c_gm, [0, 0])
    elif WHICH == 4:
        a = asc2.copy_in(a_gm, [0, 0], [64, 64], location=L.L0A)
        b = asc2.copy_in(b_gm, [0, 0], [64, 64], location=L.L0B)
        c = a @ b
        x = asc2.copy(c, location=L.UB)  # ERR4
        asc2.copy_out(x, c_gm, [0, 0])


@pytest.mark.parametrize("which,kind,needle", [
    (0, asc2.AlignmentError, "not made of whole 16 x 16 fractals"),
    (1, asc2.ShapeError, "do not chain"),
])
def test_frontend_cube_errors(which, kind, needle):
    with pytest.raises(kind) as info:
        k_bad.ir(np.zeros((64, 64), np.float16), np.zeros((64, 64), np.float16), np.zeros((64, 64), np.float32),
                 WHICH=which)
    assert needle in info.value.message
    assert info.value.line == line_of(k_bad, f"# ERR{which}")


@requires_native
@pytest.mark.parametrize("which,needle", [
    (2, "only relu and dtype casts apply to matmul results"),
    (4, "L0C -> UB has no data path on Atlas A2/A3 (only Ascend950 moves L0C -> UB)"),
])
def test_compiler_cube_errors(which, needle):
    err = _compile_error(k_bad, np.zeros((64, 64), np.float16), np.zeros((64, 64), np.float16),
                         np.zeros((64, 64), np.float32), WHICH=which)
    assert needle in err.message
    assert err.line == line_of(k_bad, f"# ERR{which}")


@asc2.jit
def k_l0a_overflow(a_ptr, b_ptr, c_ptr):
    a_gm = asc2.global_tensor(a_ptr, [256, 256])
    b_gm = asc2.global_tensor(b_ptr, [256, 64])
    c_gm = asc2.global_tensor(c_ptr, [256, 64])
    a = asc2.copy_in(a_gm, [0, 0], [256, 256], location=L.L0A)  # 128 KB of f16 > 64 KB of L0A
    b = asc2.copy_in(b_gm, [0, 0], [256, 64], location=L.L0B)
    asc2.copy_out(a @ b, c_gm, [0, 0])


@requires_native
def test_l0a_overflow_names_the_space_and_the_tile():
    err = _compile_error(k_l0a_overflow, np.zeros((256, 256), np.float16), np.zeros((256, 64), np.float16),
                         np.zeros((256, 64), np.float32))
    assert isinstance(err, asc2.MemoryError)
    assert "L0A overflow" in err.message
    assert f"tile [256, 256] float16 (131072 bytes) from {__file__}:{line_of(k_l0a_overflow, '# 128 KB')}:" \
        in err.message


@asc2.jit(matmul_cube_only=True)
def k_cube_only(a_ptr, b_ptr, c_ptr, SCALE: asc2.ConstExpr[bool]):
    a_gm = asc2.global_tensor(a_ptr, [32, 32])
    b_gm = asc2.global_tensor(b_ptr, [32, 32])
    c_gm = asc2.global_tensor(c_ptr, [32, 32])
    a = asc2.copy_in(a_gm, [0, 0], [32, 32], location=L.L0A)
    b = asc2.copy_in(b_gm, [0, 0], [32, 32], location=L.L0B)
    asc2.copy_out(a @ b, c_gm, [0, 0])
    if SCALE:
        x = asc2.copy_in(c_gm, [0, 0], [32, 32])  # VEC: a UB tile is vector-core work
        asc2.copy_out(x * 2.0, c_gm, [0, 0])


@requires_native
def test_matmul_cube_only_option():
    a, b = _operands(32, 32, 32, np.float16)
    c = np.zeros((32, 32), np.float32)
    k_cube_only[1](a, b, c, SCALE=False)
    _check(c, a, b)
    err = _compile_error(k_cube_only, a, b, c, SCALE=True)
    assert "matmul_cube_only=True, but the kernel uses the vector unit" in err.message
    assert err.line == line_of(k_cube_only, "# VEC")


@asc2.jit
def mm_bias(a_ptr, b_ptr, bias_ptr, c_ptr, M: asc2.ConstExpr[int], N: asc2.ConstExpr[int], K: asc2.ConstExpr[int],
            BK: asc2.ConstExpr[int]):
    """The first K step starts from the bias (bias table, BT), the others accumulate."""
    a_gm = asc2.global_tensor(a_ptr, [M, K])
    b_gm = asc2.global_tensor(b_ptr, [K, N])
    bias_gm = asc2.global_tensor(bias_ptr, [1, N])
    c_gm = asc2.global_tensor(c_ptr, [M, N])
    bias = asc2.copy_in(bias_gm, [0, 0], [1, N], location=L.BT)
    acc = asc2.copy_in(a_gm, [0, 0], [M, BK], location=L.L0A) @ asc2.copy_in(b_gm, [0, 0], [BK, N], location=L.L0B) \
        + bias
    for k in asc2.range(BK, K, BK):
        acc = acc + asc2.copy_in(a_gm, [0, k], [M, BK], location=L.L0A) @ \
            asc2.copy_in(b_gm, [k, 0], [BK, N], location=L.L0B)
    asc2.copy_out(asc2.relu(acc), c_gm, [0, 0])


@requires_native
@pytest.mark.parametrize("k", [32, 128])
def test_bias_from_the_bias_table(k):
    m, n = 48, 64
    a, b = _operands(m, n, k, np.float16, seed=k)
    bias = np.random.default_rng(1).standard_normal((1, n)).astype(np.float32)
    c = np.zeros((m, n), np.float32)
    mm_bias[1](a, b, bias, c, m, n, k, 32)
    ref = np.maximum(a.astype(np.float64) @ b.astype(np.float64) + bias, 0)
    assert np.max(np.abs(c - ref)) / max(1.0, np.max(np.abs(ref))) < 1e-5
    _launch(mm_bias)
    report = mm_bias.last_report
    assert "ascendc.copy_bias" in report["passes"][-1]["ir"]
    assert any(s["space"] == "BT" for s in report["memory"]["spaces"])
    assert "AscendC::TPosition::C2" in report["ascendc"] or "C2" in report["ascendc"]


@asc2.jit
def k_bad_bias(a_ptr, bias_ptr):
    bias_gm = asc2.global_tensor(bias_ptr, [40])
    bias = asc2.copy_in(bias_gm, [0], [40], location=L.BT)  # ERR


def test_bias_tile_shape_error():
    with pytest.raises(asc2.ShapeError) as info:
        k_bad_bias.ir(np.zeros(4, np.float32), np.zeros(40, np.float32))
    assert "one row of N float32 values, N a multiple of 16" in info.value.message
    assert info.value.line == line_of(k_bad_bias, "# ERR")


@asc2.jit
def mm_chain(a_ptr, b_ptr, w_ptr, c_ptr, M: asc2.ConstExpr[int], N: asc2.ConstExpr[int], K: asc2.ConstExpr[int],
             P: asc2.ConstExpr[int], HALF: asc2.ConstExpr[bool]):
    """(relu(A @ B)) @ W: the first result goes L0C -> L1 (fixpipe) -> L0A for the second matmul."""
    a_gm = asc2.global_tensor(a_ptr, [M, K])
    b_gm = asc2.global_tensor(b_ptr, [K, N])
    w_gm = asc2.global_tensor(w_ptr, [N, P])
    c_gm = asc2.global_tensor(c_ptr, [M, P])
    h = asc2.relu(asc2.copy_in(a_gm, [0, 0], [M, K], location=L.L0A) @ asc2.copy_in(b_gm, [0, 0], [K, N], location=L.L0B))
    if HALF:
        h = asc2.cast(h, asc2.float16)
    staged = h.to(L.L1)
    w = asc2.copy_in(w_gm, [0, 0], [N, P], location=L.L0B)
    asc2.copy_out(staged.to(L.L0A) @ w, c_gm, [0, 0])


@requires_native
@pytest.mark.parametrize("half", [True, False])
def test_matmul_result_staged_in_l1_feeds_the_next_matmul(half):
    m, n, k, p = 32, 48, 64, 32
    a, b = _operands(m, n, k, np.float16, seed=11)
    w_dtype = np.float16 if half else np.float32
    w = np.random.default_rng(12).standard_normal((n, p)).astype(w_dtype)
    c = np.zeros((m, p), np.float32)
    mm_chain[1](a, b, w, c, m, n, k, p, HALF=half)
    h = np.maximum(a.astype(np.float32) @ b.astype(np.float32), 0)
    if half:
        h = h.astype(np.float16)
    ref = h.astype(np.float64) @ w.astype(np.float64)
    assert np.max(np.abs(c - ref)) / max(1.0, np.max(np.abs(ref))) < 1e-4
    _launch(mm_chain)
    ir = mm_chain.last_report["passes"][-1]["ir"]
    assert "ascendc.fixpipe_l1" in ir and "{relu}" in ir
    assert "CFG_NZ" in mm_chain.last_report["ascendc"]


@asc2.jit
def mm_chain_rhs(a_ptr, b_ptr, w_ptr, c_ptr, M: asc2.ConstExpr[int], N: asc2.ConstExpr[int],
                 K: asc2.ConstExpr[int], P: asc2.ConstExpr[int]):
    """W @ relu(A @ B) in float32: the staged result is the right operand (L1 -> L0B as stored)."""
    a_gm = asc2.global_tensor(a_ptr, [M, K])
    b_gm = asc2.global_tensor(b_ptr, [K, N])
    w_gm = asc2.global_tensor(w_ptr, [P, M])
    c_gm = asc2.global_tensor(c_ptr, [P, N])
    h = asc2.relu(asc2.copy_in(a_gm, [0, 0], [M, K], location=L.L0A) @ asc2.copy_in(b_gm, [0, 0], [K, N], location=L.L0B))
    staged = h.to(L.L1)
    w = asc2.copy_in(w_gm, [0, 0], [P, M], location=L.L0A)
    asc2.copy_out(w @ staged.to(L.L0B), c_gm, [0, 0])


@asc2.jit
def mm_square(x_ptr, c_ptr, K: asc2.ConstExpr[int]):
    """X @ X from one L1 tile: the same NZ tile goes to L0A and to L0B."""
    x_gm = asc2.global_tensor(x_ptr, [K, K])
    c_gm = asc2.global_tensor(c_ptr, [K, K])
    x = asc2.copy_in(x_gm, [0, 0], [K, K], location=L.L1)
    asc2.copy_out(x.to(L.L0A) @ x.to(L.L0B), c_gm, [0, 0])


def _float32_l1_reuse(platform):
    asc2.set_platform(backend="Model", platform=platform)
    m, n, k, p = 32, 48, 64, 16
    rng = np.random.default_rng(21)
    a = rng.integers(-3, 4, (m, k)).astype(np.float32)
    b = rng.integers(-3, 4, (k, n)).astype(np.float32)
    w = rng.integers(-3, 4, (p, m)).astype(np.float32)
    c = np.zeros((p, n), np.float32)
    mm_chain_rhs[1](a, b, w, c, m, n, k, p)
    np.testing.assert_array_equal(c, w @ np.maximum(a @ b, 0))
    x = rng.integers(-3, 4, (48, 48)).astype(np.float32)
    sq = np.zeros((48, 48), np.float32)
    mm_square[1](x, sq, 48)
    np.testing.assert_array_equal(sq, x @ x)
    return mm_chain_rhs.last_report["ascendc"], mm_square.last_report["ascendc"]


@requires_native
@pytest.mark.parametrize("platform", ["Ascend910B1", "Ascend950"])
def test_float32_l1_tiles_feed_either_operand(platform):
    """A float32 L1 tile (NZ, from GM or staged by the fixpipe) goes to L0B as stored and, the same
    tile, to L0A: on A2/A3 through LoadData3DParamsV2 for B, which the old ZZ-in-L1 route refused.
    Exact numbers (small integers) on the simulator."""
    chain, square = in_child_process(_float32_l1_reuse, platform)
    for src in (chain, square):
        assert ("AscendC::LoadData3DParamsV2<float> p;" in src) == (platform != "Ascend950")


_FLAG_CALL = re.compile(r"AscendC::(?:Set|Wait)Flag<AscendC::HardEvent::(\w+)>\((\w+)\);")


@requires_native
def test_tpipe_kernels_take_their_event_ids_from_alloc_event_id():
    """Under a TPipe (the c220 default) every SetFlag/WaitFlag id comes from TPipe::AllocEventID (the
    TPipe holds M_MTE1 0-2 on the AIC itself), one per planned (pipe pair, id), released at the end."""
    m, n, k = 64, 64, 256
    a, b = _operands(m, n, k, np.float16, seed=5)
    c = np.zeros((m, n), np.float32)
    mm_tiled[2](a, b, c, m, n, k, 32, 32, 32, FORM=1, RELU=False)
    _check(c, a, b)
    src = mm_tiled.last_report["ascendc"]
    assert "AscendC::TPipe pipe;" in src and "InitSocState" not in src
    allocs = re.findall(r"AscendC::TEventID (\w+) = pipe\.AllocEventID<AscendC::HardEvent::(\w+)>\(\);", src)
    assert any(event == "M_MTE1" for _, event in allocs), allocs
    names = {name: event for name, event in allocs}
    assert len(names) == len(allocs)
    for name, event in allocs:
        assert f"pipe.ReleaseEventID<AscendC::HardEvent::{event}>({name});" in src
    flags = _FLAG_CALL.findall(src)
    assert flags
    for event, arg in flags:
        assert names.get(arg) == event, (event, arg)  # never a raw id, always its own pair's id


@requires_native
def test_static_tensor_kernels_init_the_soc_and_drain_the_pipes_on_c220_too():
    m, n, k = 64, 64, 96
    a, b = _operands(m, n, k, np.float16, seed=3)
    c = np.zeros((m, n), np.float32)
    kernel = asc2.jit(static_alloc=True)(mm_tiled.fn)
    kernel[2](a, b, c, m, n, k, 32, 32, 32, FORM=0, RELU=False)
    _check(c, a, b)
    src = kernel.last_report["ascendc"]
    assert "TPipe" not in src and "AllocEventID" not in src
    lines = [line.strip() for line in src.splitlines()]
    assert lines[lines.index(next(x for x in lines if x.startswith("KERNEL_TASK_TYPE_DEFAULT"))) + 1] == \
        "AscendC::InitSocState();"
    assert src.rstrip().endswith("AscendC::PipeBarrier<PIPE_ALL>();\n}")
    # Static-tensor code may use ids 0-5 only (6 and 7 are reserved by the Ascend C docs).
    assert all(int(arg) <= 5 for _, arg in _FLAG_CALL.findall(src))


def _cube_kernels_on_ascend950():
    asc2.set_platform(backend="Model", platform="Ascend950")
    sources = {}
    test_int8_accumulates_in_int32()
    sources["int8"] = mm_int8.last_report["ascendc"]
    test_float32_inputs_and_multibuffered_k_loop()
    sources["f32"] = mm_tiled.last_report["ascendc"]
    for bk in (32, 128):
        test_l1_sub_tiles_moved_to_l0(bk)
        sources[f"sub{bk}"] = mm_sub_tiles.last_report["ascendc"]
    for half in (True, False):
        test_matmul_result_staged_in_l1_feeds_the_next_matmul(half)
        sources[f"chain{half}"] = mm_chain.last_report["ascendc"]
    test_tiled_matmul_sweep(*SWEEP[2], 1)
    sources["sweep"] = mm_tiled.last_report["ascendc"]
    return sources


@requires_native
def test_cube_kernels_on_ascend950_use_the_c310_recipe_with_numpy_numbers():
    """Ascend950 (c310): one LoadData2DParamsV2 per L0 load (L0A stays NZ; the simulator's load and
    mmad follow), FixpipeParamsArch3510 with dstStride in elements for NZ output, and the same numbers
    as on A2 (each case asserts numpy's)."""
    sources = in_child_process(_cube_kernels_on_ascend950)
    for name, src in sources.items():
        assert "AscendC::LoadData2DParamsV2 p;" in src and "LoadData2DParams p;" not in src, name
        assert "FixpipeParamsV220" not in src and "FixpipeParamsArch3510<" in src, name
        assert "AscendC::InitSocState();" in src and src.rstrip().endswith("PipeBarrier<PIPE_ALL>();\n}"), name
    # (32 x 48 relu(A @ B)) staged in L1 as NZ: column blocks M * C0 elements apart (C0 = 16 for f16, 8 for f32).
    assert "FixpipeParamsArch3510<AscendC::CO2Layout::NZ> p;" in sources["chainTrue"]
    assert "p.dstStride = 512;" in sources["chainTrue"]
    assert "p.dstStride = 256;" in sources["chainFalse"]


def _float32_rhs_sources(platform):
    asc2.set_platform(backend="Model", platform=platform)
    sources = {}
    for m, n, k in ((32, 48, 64), (16, 16, 16)):
        a, b = _operands(m, n, k, np.float32)
        c = np.zeros((m, n), np.float32)
        mm_upstream[1](a, b, c, m, n, k)
        _check(c, a, b)
        _launch(mm_upstream)
        sources[f"upstream{m}x{n}x{k}"] = mm_upstream.last_report["ascendc"]
    for bk in (32, 64):  # L1 sub-tiles of float32 B at K offsets
        m, n, k = 48, 64, 128
        a, b = _operands(m, n, k, np.float32, seed=bk)
        c = np.zeros((m, n), np.float32)
        mm_sub_tiles[1](a, b, c, m, n, k, bk)
        _check(c, a, b)
        _launch(mm_sub_tiles)
        sources[f"sub{bk}"] = mm_sub_tiles.last_report["ascendc"]
    return sources


@requires_native
@pytest.mark.parametrize("platform", ["Ascend910B1", "Ascend950"])
def test_float32_rhs_takes_the_documented_b32_route(platform):
    """float32 B (K x N) to L0B ZN: on A2/A3 LoadData2DParams transposes only b16, so B goes from its
    NZ L1 tile to L0B by LoadData3DParamsV2 (a 1 x K feature map of N channels; Huawei's Matmul does
    the same there), sub-tiles as windows at their K offset; on Ascend950 LoadData2DParamsV2's
    ifTranspose takes b32 (kStep even). numpy's numbers either way (each case asserts them on the
    simulator)."""
    sources = in_child_process(_float32_rhs_sources, platform)
    for name, src in sources.items():
        assert "LoadDataWithTranspose" not in src, name
        if platform == "Ascend950":
            assert "LoadData3DParamsV2" not in src and "p.ifTranspose = true;" in src, name
            continue
        assert "AscendC::LoadData3DParamsV2<float> p;" in src, name
        assert "p.ifTranspose = true;" not in src, name  # no b32 LoadData2DParams transpose
        assert "p.l1H = 1;" in src and "p.enTranspose" not in src, name
