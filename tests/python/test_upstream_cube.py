"""Cube kernels written the way upstream PyAsc2 writes them, run unmodified.

Upstream matmul kernels use two spellings of the memory API (the earlier ``asc2.tensor`` / ``asc2.load(gm,
shape, offsets=...)`` / ``asc2.store`` / ``asc2.TileLocation`` and the later ``global_tensor`` / ``copy_in``),
``asc.GlobalAddress`` / ``asc.ConstExpr`` annotations from the ``asc`` package, ``matmul_acc`` as a statement
that updates its accumulator (in both argument orders), ``asc2.copy(l1, shape, offsets=...)`` sub-tiles at
runtime offsets inside K loops over the builtin ``range`` with ``unroll_factor``, ``acc.to(dtype)`` epilogues,
``kernel_type=asc.runtime.config.KernelType.AIC_ONLY`` and ``config.set_platform(config.Backend.Model, ...)``;
operands transposed on their way to L0 (``l0.T``, ``asc2.transpose``, ``copy_in(..., L1).T`` views), ``hf32=True``,
bias rows (``matmul(a, b, bias)``, ``zeros_acc(..., bias=)``, f16 rows, rows staged in L1) and tiles of any
shape ([47, 21]). Every kernel here is ours, written in those forms, and checked against numpy on the simulator.
"""

import numpy as np
import pytest

import asc
import asc.runtime.config as config
import asc2
from conftest import in_child_process, line_of, requires_native


@asc2.jit(always_compile=True, kernel_type=asc.runtime.config.KernelType.AIC_ONLY)
def mm_relu_half(x_ptr: asc.GlobalAddress, y_ptr: asc.GlobalAddress, z_ptr: asc.GlobalAddress,
                 x_shape: asc.ConstExpr, y_shape: asc.ConstExpr, z_shape: asc.ConstExpr):
    x_gm = asc2.tensor(x_ptr, x_shape)
    y_gm = asc2.tensor(y_ptr, y_shape)
    z_gm = asc2.tensor(z_ptr, z_shape)
    x = asc2.load(x_gm, x_shape, offsets=[0, 0], location=asc2.TileLocation.L0A)
    y = asc2.load(y_gm, y_shape, offsets=[0, 0], location=asc2.TileLocation.L0B)
    z = asc2.relu(x @ y).to(asc.float16)
    asc2.store(z, z_gm, offsets=[0, 0])


@requires_native
def test_earlier_memory_api_with_asc_annotations_and_kernel_type():
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
    rng = np.random.default_rng(3)
    x = (rng.random((32, 96)) - 0.5).astype(np.float16)
    y = (rng.random((96, 48)) - 0.5).astype(np.float16)
    z = np.zeros((32, 48), np.float16)
    mm_relu_half[1](x, y, z, x.shape, y.shape, z.shape)
    ref = np.maximum(x.astype(np.float32) @ y.astype(np.float32), 0).astype(np.float16)
    np.testing.assert_array_equal(z, ref)
    report = mm_relu_half.last_report
    assert report["options"]["kernel_type"] == "AIC_ONLY" and report["launch"]["races"] == []


@asc2.jit(kernel_type=config.KernelType.AIV_ONLY)
def mm_wrong_kind(x_ptr: asc2.GlobalAddress, y_ptr: asc2.GlobalAddress, z_ptr: asc2.GlobalAddress):
    x_gm = asc2.global_tensor(x_ptr, [16, 16])
    y_gm = asc2.global_tensor(y_ptr, [16, 16])
    z_gm = asc2.global_tensor(z_ptr, [16, 16])
    x = asc2.copy_in(x_gm, [0, 0], [16, 16], asc2.TensorLocation.L0A)
    y = asc2.copy_in(y_gm, [0, 0], [16, 16], asc2.TensorLocation.L0B)
    asc2.copy_out(x @ y, z_gm, [0, 0])


@requires_native
def test_kernel_type_option_is_checked_against_the_detected_type():
    x = np.ones((16, 16), np.float16)
    with pytest.raises(asc2.UnsupportedError) as info:
        mm_wrong_kind[1](x, x, np.zeros((16, 16), np.float32))
    assert "kernel_type=AIV_ONLY was requested, but the kernel uses AIC_ONLY" in info.value.message
    with pytest.raises(ValueError, match="kernel_type must be one of"):
        asc2.jit(kernel_type="GPU")(mm_wrong_kind.fn)


@asc2.jit
def mm_k_loop(x_ptr: asc2.GlobalAddress, y_ptr: asc2.GlobalAddress, z_ptr: asc2.GlobalAddress,
              x_shape: asc2.ConstExpr, y_shape: asc2.ConstExpr, block_m: asc2.ConstExpr, block_n: asc2.ConstExpr,
              step_k: asc2.ConstExpr, out_type: asc2.ConstExpr, acc_last: asc2.ConstExpr):
    """Blocks of Z over the cores; per block a K loop over L1 slabs, sub-tiles at runtime offsets."""
    m, k = x_shape
    _, n = y_shape
    x_gm = asc2.tensor(x_ptr, x_shape)
    y_gm = asc2.tensor(y_ptr, y_shape)
    z_gm = asc2.tensor(z_ptr, [m, n])
    n_blocks = asc2.ceildiv(n, block_n)
    row = block_m * (asc2.block_idx() / n_blocks)
    col = block_n * (asc2.block_idx() % n_blocks)
    acc = asc2.zeros_acc([block_m, block_n], dtype=asc2.float32)
    x_l1 = asc2.load(x_gm, [block_m, k], offsets=[row, 0], location=asc2.TileLocation.L1)
    y_l1 = asc2.load(y_gm, [k, block_n], offsets=[0, col], location=asc2.TileLocation.L1)
    for s in range(k // step_k, unroll_factor=2, parallel=True):
        x_s = asc2.copy(x_l1, [block_m, step_k], offsets=[0, s * step_k], location=asc2.TileLocation.L0A)
        y_s = asc2.copy(y_l1, [step_k, block_n], offsets=[s * step_k, 0], location=asc2.TileLocation.L0B)
        if acc_last:
            asc2.matmul_acc(x_s, y_s, acc)
        else:
            asc2.matmul_acc(acc, x_s, y_s)
    asc2.store(acc.to(out_type), z_gm, offsets=[row, col])


@requires_native
@pytest.mark.parametrize("acc_last, out", [(False, np.float32), (True, np.float16)])
def test_statement_matmul_acc_over_runtime_l1_subtiles(acc_last, out):
    m, k, n = 64, 128, 96
    rng = np.random.default_rng(5)
    x = rng.random((m, k)).astype(np.float16)
    y = rng.random((k, n)).astype(np.float16)
    z = np.zeros((m, n), out)
    out_type = asc2.float32 if out == np.float32 else asc2.float16
    mm_k_loop[6](x, y, z, x.shape, y.shape, 32, 32, 32, out_type, acc_last)
    ref = (x.astype(np.float32) @ y.astype(np.float32)).astype(out)
    tol = 1e-5 if out == np.float32 else 2e-3
    np.testing.assert_allclose(z.astype(np.float32), ref.astype(np.float32), rtol=tol, atol=tol)
    report = mm_k_loop.last_report
    assert report["launch"]["races"] == []
    assert "asctile.matmul_acc" in report["passes"][0]["ir"] and "scf.for" in report["passes"][0]["ir"]


@asc2.jit(always_compile=True)
def mm_chain_earlier_copy(x_ptr: asc.GlobalAddress, y_ptr: asc.GlobalAddress, z_ptr: asc.GlobalAddress,
                          x_shape: asc.ConstExpr, y_shape: asc.ConstExpr, z_shape: asc.ConstExpr,
                          dtype: asc.ConstExpr):
    """(X @ Y).to(dtype) staged in L1, moved to L0A with the earlier copy(src, shape, offsets=...) form."""
    x_gm = asc2.tensor(x_ptr, x_shape)
    y_gm = asc2.tensor(y_ptr, y_shape)
    z_gm = asc2.tensor(z_ptr, z_shape)
    y = asc2.load(y_gm, y_shape, offsets=[0, 0], location=asc2.TileLocation.L0B)
    h = (asc2.load(x_gm, x_shape, offsets=[0, 0], location=asc2.TileLocation.L0A) @ y).to(dtype)
    h_l1 = asc2.copy(h, z_shape, offsets=[0, 0], location=asc2.TileLocation.L1)
    h_l0a = asc2.copy(h_l1, z_shape, offsets=[0, 0], location=asc2.TileLocation.L0A)
    asc2.store(h_l0a @ y, z_gm, offsets=[0, 0])


@requires_native
def test_earlier_copy_form_chains_a_result_through_l1():
    rng = np.random.default_rng(7)
    x = (rng.random((48, 64)) - 0.5).astype(np.float16)
    y = (rng.random((64, 64)) - 0.5).astype(np.float16)
    z = np.zeros((48, 64), np.float32)
    mm_chain_earlier_copy[1](x, y, z, x.shape, y.shape, z.shape, asc2.float16)
    h = (x.astype(np.float32) @ y.astype(np.float32)).astype(np.float16).astype(np.float32)
    np.testing.assert_allclose(z, h @ y.astype(np.float32), rtol=1e-5, atol=1e-5)
    assert mm_chain_earlier_copy.last_report["launch"]["races"] == []


@asc2.jit
def mm_in_place(x_ptr: asc2.GlobalAddress, y_ptr: asc2.GlobalAddress, z_ptr: asc2.GlobalAddress):
    x_gm = asc2.global_tensor(x_ptr, [32, 32])
    y_gm = asc2.global_tensor(y_ptr, [32, 32])
    z_gm = asc2.global_tensor(z_ptr, [64, 32])
    x = asc2.copy_in(x_gm, [0, 0], [32, 32], asc2.TensorLocation.L0A)
    y = asc2.copy_in(y_gm, [0, 0], [32, 32], asc2.TensorLocation.L0B)
    acc = asc2.zeros_acc([32, 32])
    first = asc2.matmul_acc(acc, x, y)
    asc2.matmul_acc(first, x, y)
    asc2.copy_out(acc, z_gm, [0, 0])    # every name of the accumulator sees both updates
    asc2.copy_out(first, z_gm, [32, 0])


@requires_native
def test_matmul_acc_updates_the_accumulator_in_place():
    rng = np.random.default_rng(11)
    x = (rng.random((32, 32)) - 0.5).astype(np.float16)
    y = (rng.random((32, 32)) - 0.5).astype(np.float16)
    z = np.zeros((64, 32), np.float32)
    mm_in_place[1](x, y, z)
    ref = 2 * (x.astype(np.float32) @ y.astype(np.float32))
    np.testing.assert_allclose(z, np.vstack([ref, ref]), rtol=1e-5, atol=1e-5)


@asc2.jit
def mm_hf32_half(x_ptr: asc2.GlobalAddress, y_ptr: asc2.GlobalAddress, z_ptr: asc2.GlobalAddress):
    x_gm = asc2.global_tensor(x_ptr, [16, 16])
    y_gm = asc2.global_tensor(y_ptr, [16, 16])
    z_gm = asc2.global_tensor(z_ptr, [16, 16])
    x = asc2.copy_in(x_gm, [0, 0], [16, 16], asc2.TensorLocation.L0A)
    y = asc2.copy_in(y_gm, [0, 0], [16, 16], asc2.TensorLocation.L0B)
    asc2.copy_out(asc2.matmul(x, y, hf32=True), z_gm, [0, 0])  # ERR


def test_hf32_needs_float32_operands():
    x = np.ones((16, 16), np.float16)
    with pytest.raises(asc2.UnsupportedError) as info:
        mm_hf32_half.ir(x, x, np.zeros((16, 16), np.float32))
    assert "HF32 mode rounds float32 operands" in info.value.message
    assert info.value.line == line_of(mm_hf32_half, "# ERR")


def _hf32(x):
    """float32 values as the cube reads them in HF32 mode (11 mantissa bits, round to nearest even)."""
    bits = np.ascontiguousarray(x, np.float32).view(np.uint32).astype(np.uint64)
    bits = (bits + 0x7FF + ((bits >> 12) & 1)) & ~np.uint64(0xFFF)
    return bits.astype(np.uint32).view(np.float32)


@asc2.jit
def mm_blocked(a_ptr: asc2.GlobalAddress, b_ptr: asc2.GlobalAddress, c_ptr: asc2.GlobalAddress,
               bias_ptr: asc2.GlobalAddress, a_shape: asc2.ConstExpr, b_shape: asc2.ConstExpr,
               tiles: asc2.ConstExpr, trans: asc2.ConstExpr, out_type: asc2.ConstExpr, hf32: asc2.ConstExpr,
               has_bias: asc2.ConstExpr):
    """C = op(A) @ op(B) (+ bias): blocks of C over the cores, K in L1 slabs, L0 steps at runtime offsets.

    tiles = (block_m, block_n, slab_k, step_k); trans = (a stored K x M, b stored N x K): the L1 slab is
    loaded as stored and transposed as a view (.T), its sub-tiles moved to L0A/L0B transposed."""
    block_m, block_n, slab_k, step_k = tiles
    a_t, b_t = trans
    m, k = a_shape
    if a_t:
        k, m = a_shape
    n = b_shape[0] if b_t else b_shape[1]
    a_gm = asc2.global_tensor(a_ptr, a_shape)
    b_gm = asc2.global_tensor(b_ptr, b_shape)
    c_gm = asc2.global_tensor(c_ptr, [m, n])
    if has_bias:
        bias_gm = asc2.global_tensor(bias_ptr, [n])
    n_blocks = asc2.ceildiv(n, block_n)
    for blk in range(asc2.block_idx(), asc2.ceildiv(m, block_m) * n_blocks, asc2.block_num(), unroll_factor=1):
        row = block_m * (blk / n_blocks)
        col = block_n * (blk % n_blocks)
        if has_bias:
            bias = asc2.copy_in(bias_gm, [col], [block_n], asc2.TensorLocation.BT)
            acc = asc2.zeros_acc([block_m, block_n], dtype=asc2.float32, bias=bias)
        else:
            acc = asc2.zeros_acc([block_m, block_n], dtype=asc2.float32)
        for slab in range(asc2.ceildiv(k, slab_k), unroll_factor=2, parallel=True):
            if a_t:
                a_l1 = asc2.copy_in(a_gm, [slab * slab_k, row], [slab_k, block_m], asc2.TensorLocation.L1).T
            else:
                a_l1 = asc2.copy_in(a_gm, [row, slab * slab_k], [block_m, slab_k], asc2.TensorLocation.L1)
            if b_t:
                b_l1 = asc2.copy_in(b_gm, [col, slab * slab_k], [block_n, slab_k], asc2.TensorLocation.L1).T
            else:
                b_l1 = asc2.copy_in(b_gm, [slab * slab_k, col], [slab_k, block_n], asc2.TensorLocation.L1)
            for step in range(slab_k // step_k, unroll_factor=2, parallel=True):
                a_l0 = asc2.copy(a_l1, [0, step * step_k], [block_m, step_k], asc2.TensorLocation.L0A)
                b_l0 = asc2.copy(b_l1, [step * step_k, 0], [step_k, block_n], asc2.TensorLocation.L0B)
                asc2.matmul_acc(acc, a_l0, b_l0, hf32=hf32)
        asc2.copy_out(acc.to(out_type), c_gm, offsets=[row, col])


BLOCKED_CASES = [
    (np.float16, (False, False), False, False, (64, 48, 96)),
    (np.float16, (True, False), True, False, (48, 64, 64)),
    (np.float16, (False, True), False, False, (31, 33, 47)),
    (np.float16, (True, True), True, False, (32, 32, 128)),
    (np.float32, (False, True), True, True, (32, 64, 64)),
    (np.float32, (False, False), False, True, (16, 17, 80)),
]


def _run_blocked(dtype, trans, has_bias, hf32, mnk):
    """mm_blocked against numpy on the current platform; returns the compile report."""
    m, n, k = mnk
    rng = np.random.default_rng(m * n + k)
    a_shape = (k, m) if trans[0] else (m, k)
    b_shape = (n, k) if trans[1] else (k, n)
    a = (rng.random(a_shape) * 2 - 1).astype(dtype)
    b = (rng.random(b_shape) * 2 - 1).astype(dtype)
    bias = (rng.random(n) * 2 - 1).astype(dtype)
    c = np.zeros((m, n), dtype)
    out_type = asc2.float16 if dtype == np.float16 else asc2.float32
    mm_blocked[4](a, b, c, bias, a.shape, b.shape, (16, 16, 32, 16), trans, out_type, hf32, has_bias)
    op_a = (a.T if trans[0] else a).astype(np.float32)
    op_b = (b.T if trans[1] else b).astype(np.float32)
    if hf32:
        op_a, op_b = _hf32(op_a), _hf32(op_b)
    ref = op_a.astype(np.float64) @ op_b.astype(np.float64)
    if has_bias:
        ref = ref + bias.astype(np.float64)
    ref = ref.astype(dtype).astype(np.float32)
    tol = 2e-3 if dtype == np.float16 else 1e-5
    np.testing.assert_allclose(c.astype(np.float32), ref, rtol=tol, atol=tol)
    if hf32:  # HF32 differs from a float32 product, within upstream's 1e-3 tolerance
        exact = (a.T if trans[0] else a).astype(np.float64) @ (b.T if trans[1] else b).astype(np.float64)
        exact = exact + (bias if has_bias else 0)
        assert 1e-6 < np.max(np.abs(c - exact)) < 1e-2
    report = mm_blocked.last_report
    assert report["launch"]["races"] == []
    final = report["passes"][-1]["ir"]
    if any(trans):
        assert "ascendc.load_data" in final and "transpose" in final
    if hf32:
        assert "SetHF32Mode(AscendC::HF32Mode::ENABLE)" in report["ascendc"]
        assert "SetHF32Mode(AscendC::HF32Mode::DISABLE)" in report["ascendc"]
    return report


@requires_native
@pytest.mark.parametrize("dtype, trans, has_bias, hf32, mnk", BLOCKED_CASES)
def test_blocked_matmul_transposes_bias_hf32(dtype, trans, has_bias, hf32, mnk):
    src = _run_blocked(dtype, trans, has_bias, hf32, mnk)["ascendc"]
    # c220: banded LoadData2DParams into the ZZ L0A, FixpipeParamsV220.
    assert "AscendC::LoadData2DParams p;" in src and "LoadData2DParamsV2" not in src
    assert "AscendC::FixpipeParamsV220 p;" in src and "p.deqScalar = 0;" in src


def _blocked_on_ascend950(*case):
    asc2.set_platform(backend="Model", platform="Ascend950")
    return _run_blocked(*case)["ascendc"]


@requires_native
@pytest.mark.parametrize("dtype, trans, has_bias, hf32, mnk", BLOCKED_CASES)
def test_blocked_matmul_on_ascend950_uses_the_c310_recipe(dtype, trans, has_bias, hf32, mnk):
    """Ascend950 loads L0A as NZ (LoadData2DParamsV2) and the simulator's mmad reads it so: the
    transposed and plain operands, bias and HF32 give numpy's numbers there too."""
    src = in_child_process(_blocked_on_ascend950, dtype, trans, has_bias, hf32, mnk)
    assert "AscendC::LoadData2DParamsV2 p;" in src and "LoadData2DParams p;" not in src
    assert "AscendC::FixpipeParamsArch3510<AscendC::CO2Layout::ROW_MAJOR> p;" in src
    assert "FixpipeParamsV220" not in src and "p.deqScalar = 0;" in src
    # Static-tensor code: the kernel initialises the SoC state and drains the pipes itself.
    body = src[src.index("KERNEL_TASK_TYPE_DEFAULT"):]
    assert body.split("\n")[1].strip() == "AscendC::InitSocState();"
    assert src.rstrip().endswith("AscendC::PipeBarrier<PIPE_ALL>();\n}")


@asc2.jit(always_compile=True)
def mm_relu_cast(a_ptr: asc2.GlobalAddress, b_ptr: asc2.GlobalAddress, c_ptr: asc2.GlobalAddress,
                 a_shape: asc2.ConstExpr, b_shape: asc2.ConstExpr, c_shape: asc2.ConstExpr,
                 tile_a: asc2.ConstExpr, tile_b: asc2.ConstExpr, quant_type: asc2.ConstExpr):
    """Tiles of any shape: stored as whole fractals, the padding zero."""
    a_gm = asc2.global_tensor(a_ptr, a_shape)
    b_gm = asc2.global_tensor(b_ptr, b_shape)
    c_gm = asc2.global_tensor(c_ptr, c_shape)
    a = asc2.copy_in(a_gm, [0, 0], tile_a, asc2.TensorLocation.L0A)
    b = asc2.copy_in(b_gm, [0, 0], tile_b, asc2.TensorLocation.L0B)
    asc2.copy_out(asc2.relu(a @ b).to(quant_type), c_gm, [0, 0])


@requires_native
@pytest.mark.parametrize("m, k, n, tile_k", [(47, 21, 35, 21), (1, 32, 11, 32), (19, 1, 19, 1), (24, 40, 24, 20)])
def test_tiles_that_are_not_whole_fractals(m, k, n, tile_k):
    rng = np.random.default_rng(m + k + n)
    a = (rng.random((m, k)) - 0.5).astype(np.float16) * 4
    b = (rng.random((k, n)) - 0.5).astype(np.float16) * 4
    c = np.zeros((m, n), np.float16)
    mm_relu_cast[1](a, b, c, a.shape, b.shape, c.shape, [m, tile_k], [tile_k, n], asc2.float16)
    ref = np.maximum(a[:, :tile_k].astype(np.float32) @ b[:tile_k].astype(np.float32), 0).astype(np.float16)
    np.testing.assert_allclose(c.astype(np.float32), ref.astype(np.float32), rtol=1e-3, atol=1e-3)


@asc2.jit
def mm_transpose_ops(a_ptr: asc2.GlobalAddress, b_ptr: asc2.GlobalAddress, c_ptr: asc2.GlobalAddress,
                     a_shape: asc2.ConstExpr, b_shape: asc2.ConstExpr, c_shape: asc2.ConstExpr):
    """A and B stored transposed: asc2.transpose(L0A operand) and .T of the L0B operand."""
    a_gm = asc2.global_tensor(a_ptr, a_shape)
    b_gm = asc2.global_tensor(b_ptr, b_shape)
    c_gm = asc2.global_tensor(c_ptr, c_shape)
    a = asc2.copy(asc2.copy_in(a_gm, [0, 0], a_shape, asc2.TensorLocation.L1), [0, 0],
                  location=asc2.TensorLocation.L0A)
    b = asc2.copy_in(b_gm, [0, 0], b_shape, asc2.TensorLocation.L0B).T
    asc2.copy_out(asc2.transpose(a) @ b, c_gm, [0, 0])


def _bf16_bits(x):
    """float32 values rounded to bfloat16 (nearest even): their bits as uint16, and the values as float32."""
    bits = np.ascontiguousarray(x, np.float32).view(np.uint32).astype(np.uint64)
    bits = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16)
    return bits, (bits.astype(np.uint32) << 16).view(np.float32)


@requires_native
@pytest.mark.parametrize("dtype", [np.float16, np.float32, "bfloat16"])
def test_transposed_operands(dtype):
    m, k, n = 48, 32, 64
    rng = np.random.default_rng(2)
    a = rng.random((k, m)) - 0.5
    b = rng.random((n, k)) - 0.5
    if dtype == "bfloat16":  # numpy has no bfloat16: pass the bits
        (a_bits, a), (b_bits, b) = _bf16_bits(a), _bf16_bits(b)
        args = (asc2.reinterpret(a_bits, asc2.bfloat16), asc2.reinterpret(b_bits, asc2.bfloat16))
    else:
        a, b = a.astype(dtype), b.astype(dtype)
        args = (a, b)
    c = np.zeros((m, n), np.float32)
    mm_transpose_ops[1](*args, c, a.shape, b.shape, c.shape)
    np.testing.assert_allclose(c, a.T.astype(np.float32) @ b.T.astype(np.float32), rtol=1e-5, atol=1e-5)
    assert mm_transpose_ops.last_report["launch"]["races"] == []


@asc2.jit(capture_exceptions=False)
def mm_misuse(x_ptr: asc2.GlobalAddress, y_ptr: asc2.GlobalAddress, WHICH: asc2.ConstExpr):
    x_gm = asc2.global_tensor(x_ptr, [64, 64])
    y_gm = asc2.global_tensor(y_ptr, [64, 64])
    x = asc2.copy_in(x_gm, [0, 0], [32, 64], asc2.TensorLocation.L0A)
    y = asc2.copy_in(y_gm, [0, 0], [64, 32], asc2.TensorLocation.L0B)
    if WHICH == "lhs":
        asc2.matmul("string", y)
    elif WHICH == "shape":
        asc2.matmul(x, asc2.copy_in(y_gm, [0, 0], [32, 32], asc2.TensorLocation.L0B))
    elif WHICH == "hf32":
        asc2.matmul(x, y, hf32=True)
    elif WHICH == "location":
        asc2.matmul(asc2.copy_in(x_gm, [0, 0], [32, 64]), y)


@pytest.mark.parametrize("which, kind, match", [
    ("lhs", TypeError, "must be"),
    ("shape", RuntimeError, "incompatible shapes"),
    ("hf32", RuntimeError, "HF32.*float32"),
    ("location", RuntimeError, "location"),
])
def test_matmul_misuse_raises_what_upstream_raises(which, kind, match):
    """With capture_exceptions=False the frontend's own exception kinds and wording, as upstream's tests expect."""
    x = np.zeros((64, 64), np.float16)
    with pytest.raises(kind, match=match):
        mm_misuse.ir(x, x, which)


@asc2.jit
def mm_bias_row(a_ptr: asc2.GlobalAddress, b_ptr: asc2.GlobalAddress, bias_ptr: asc2.GlobalAddress,
                c_ptr: asc2.GlobalAddress, m: asc2.ConstExpr, k: asc2.ConstExpr, n: asc2.ConstExpr,
                parts: asc2.ConstExpr, via_acc: asc2.ConstExpr):
    """One bias row staged in L1; each column block takes its part into the bias table (L1 -> BT)."""
    a_gm = asc2.global_tensor(a_ptr, [m, k])
    b_gm = asc2.global_tensor(b_ptr, [k, n])
    bias_gm = asc2.global_tensor(bias_ptr, [n])
    c_gm = asc2.global_tensor(c_ptr, [m, n])
    row = asc2.copy_in(bias_gm, [0], [n], asc2.TensorLocation.L1)
    part = n // parts
    a = asc2.copy_in(a_gm, [0, 0], [m, k], asc2.TensorLocation.L0A)
    for j in asc2.range(parts, unroll_factor=1):
        bias = asc2.copy(row, [j * part], [part], asc2.TensorLocation.BT)
        b = asc2.copy_in(b_gm, [0, j * part], [k, part], asc2.TensorLocation.L0B)
        if via_acc:
            acc = asc2.zeros_acc([m, part], dtype=asc2.float32, bias=bias)
            asc2.matmul_acc(acc, a, b)
            asc2.copy_out(acc, c_gm, [0, j * part])
        else:
            asc2.copy_out(asc2.matmul(a, b, bias), c_gm, [0, j * part])


@requires_native
@pytest.mark.parametrize("dtype, parts, via_acc", [(np.float16, 2, False), (np.float32, 1, False),
                                                   (np.float16, 4, True)])
def test_bias_row_staged_in_l1(dtype, parts, via_acc):
    m, k, n = 32, 64, 64
    rng = np.random.default_rng(parts)
    a = (rng.random((m, k)) - 0.5).astype(dtype)
    b = (rng.random((k, n)) - 0.5).astype(dtype)
    bias = (rng.random(n) - 0.5).astype(dtype)
    c = np.zeros((m, n), np.float32)
    mm_bias_row[1](a, b, bias, c, m, k, n, parts, via_acc)
    ref = a.astype(np.float32) @ b.astype(np.float32) + bias.astype(np.float32)
    np.testing.assert_allclose(c, ref, rtol=1e-5, atol=1e-5)
    report = mm_bias_row.last_report
    assert report["launch"]["races"] == []
    assert "ascendc.copy_bias" in report["passes"][-1]["ir"]


def _bias_and_f32_operands_on_twin(platform):
    import os
    os.environ["ASC2_TWIN_COMPARE"] = "1"
    asc2.set_platform(backend="Twin", platform=platform)
    m, k, n = 32, 64, 64
    rng = np.random.default_rng(5)
    a = (rng.random((m, k)) - 0.5).astype(np.float16)
    b = (rng.random((k, n)) - 0.5).astype(np.float16)
    bias = (rng.random(n) - 0.5).astype(np.float16)
    c = np.zeros((m, n), np.float32)
    mm_bias_row[1](a, b, bias, c, m, k, n, 2, False)
    np.testing.assert_allclose(c, a.astype(np.float32) @ b.astype(np.float32) + bias.astype(np.float32),
                               rtol=1e-5, atol=1e-5)
    launches = [mm_bias_row.last_report["launch"]]
    # float32, both operands stored transposed: A^T and B^T staged in L1, on A2/A3 A goes to L0A
    # through LoadData3DParamsV2 with enTranspose.
    at = rng.integers(-3, 4, (k, m)).astype(np.float32)
    bt = rng.integers(-3, 4, (n, k)).astype(np.float32)
    out = np.zeros((m, n), np.float32)
    mm_transpose_ops[1](at, bt, out, at.shape, bt.shape, out.shape)
    np.testing.assert_array_equal(out, at.T @ bt.T)
    launches.append(mm_transpose_ops.last_report["launch"])
    return [(l["backend"], l["compared_with_model"]) for l in launches], mm_transpose_ops.last_report["ascendc"]


@requires_native
@pytest.mark.parametrize("platform", ["Ascend910B1", "Ascend950"])
def test_half_bias_and_transposed_float32_operands_run_on_the_twin(platform, twin_cache):
    """The widening L1 -> bias-table copy (DataCopy with two element types and DataCopyParams) and
    the float32 transposing loads compile against the CPU twin and match numpy and the simulator."""
    launches, src = in_child_process(_bias_and_f32_operands_on_twin, platform)
    assert launches == [("Twin", True), ("Twin", True)]
    assert ("p.enTranspose = true;" in src) == (platform == "Ascend910B1")
