"""torch tensors as kernel arguments (asc2/runtime/tensors.py), checked against torch's own results.

A tensor goes wherever a numpy array goes: GlobalAddress arguments read, written and updated in place, every
dtype a kernel takes (bfloat16 without asc2.reinterpret), strided tensors (results written back through the
view), 0-d tensors as run-time scalars, asc2.reinterpret, export_project, the Twin and NPU backends.
Tolerances: element-wise +, -, * and in-place updates are exact (the vector unit rounds once to nearest even,
as torch does); the samples' GELU and softmax in bfloat16 round every intermediate to bfloat16 where torch
rounds once, so they get rtol 2**-6 (two bfloat16 ulps) and an atol of one ulp of their intermediates.
"""

import operator

import numpy as np
import pytest

import asc2
from conftest import requires_native
from kernel_project import HAS_TWIN, NO_TWIN, python_first

torch = pytest.importorskip("torch", reason="python3-torch is not installed (packaging/install-deps.sh installs it)")

from test_language_elementwise import binary_kernel, scalar_kernel  # noqa: E402  (one kernel for every dtype)
from test_npu_backend import toolkit  # noqa: E402,F401  (the stand-in CANN fixture)

pytestmark = requires_native

N, TILE, CORES = 1000, 256, 4
BF16_SAMPLE_RTOL = 2.0 ** -6


def randn(*shape, dtype=torch.float32, seed=0, scale=1.0):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(*shape, generator=g) * scale).to(dtype)


def add(x, y, out, op=operator.add):
    binary_kernel[CORES](x, y, out, out.shape[0], OP=op, TILE=TILE)


@asc2.jit
def twice_plus_one(x_ptr: asc2.GlobalAddress, size: int, TILE: asc2.ConstExpr[int]):
    """x = 2 * x + 1 in place."""
    x_gm = asc2.global_tensor(x_ptr, [size])
    for t in asc2.range(asc2.block_idx(), asc2.ceildiv(size, TILE), asc2.block_num(), parallel=True):
        x = asc2.copy_in(x_gm, [t * TILE], [TILE])
        asc2.copy_out(x * 2 + 1, x_gm, [t * TILE])


@asc2.jit
def rows_axpy(x_ptr: asc2.GlobalAddress, y_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress, rows: int,
              COLS: asc2.ConstExpr[int]):
    """out = 2 * x + y over [rows, COLS], a row per trip."""
    x_gm = asc2.global_tensor(x_ptr, [rows, COLS])
    y_gm = asc2.global_tensor(y_ptr, [rows, COLS])
    out_gm = asc2.global_tensor(out_ptr, [rows, COLS])
    for r in asc2.range(asc2.block_idx(), rows, asc2.block_num(), parallel=True):
        x = asc2.copy_in(x_gm, [r, 0], [1, COLS])
        y = asc2.copy_in(y_gm, [r, 0], [1, COLS])
        asc2.copy_out(x * 2 + y, out_gm, [r, 0])


# -- dtypes: the kernel's results equal torch's, bit for bit


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16])
@pytest.mark.parametrize("op", [operator.add, operator.sub, operator.mul])
def test_float_ops_equal_torch(dtype, op):
    x, y = randn(N, dtype=dtype, seed=1), randn(N, dtype=dtype, seed=2)
    out = torch.zeros(N, dtype=dtype)
    add(x, y, out, op)
    assert torch.equal(out, op(x, y))


@pytest.mark.parametrize("dtype", [torch.int8, torch.uint8, torch.int16, torch.int32, torch.int64])
@pytest.mark.parametrize("op", [operator.add, operator.mul, operator.xor])
def test_integer_ops_wrap_as_torch(dtype, op):
    info = torch.iinfo(dtype)
    g = torch.Generator().manual_seed(3)
    x, y = (torch.randint(info.min, info.max, (N,), generator=g, dtype=torch.int64).to(dtype) for _ in range(2))
    out = torch.zeros(N, dtype=dtype)
    if dtype == torch.int8 and op is not operator.xor:  # int8 tiles take no arithmetic, as upstream's
        with pytest.raises(asc2.UnsupportedDtypeError, match="does not support the int8 dtype.*cast to int16 first"):
            add(x, y, out, op)
        return
    if dtype == torch.int64 and op is not operator.xor:  # no int64 arithmetic on A2/A3 (test_int64_on_a2.py)
        asc2.set_platform("Model", "Ascend950")
    add(x, y, out, op)
    assert torch.equal(out, op(x, y))


def test_bool_tensors_in_and_out():
    x, y = randn(N, seed=4), randn(N, seed=5)
    greater = torch.zeros(N, dtype=torch.bool)
    add(x, y, greater, operator.gt)
    assert torch.equal(greater, x > y)
    both = torch.zeros(N, dtype=torch.bool)
    add(greater, y > 0, both, operator.and_)
    assert torch.equal(both, (x > y) & (y > 0))


def test_float64_is_refused_naming_the_argument():
    x = torch.zeros(N, dtype=torch.float64)
    with pytest.raises(asc2.ShapeError, match="argument 'x_ptr': unsupported array dtype torch.float64"):
        add(x, x, x)


def test_zero_dim_tensors_are_run_time_scalars():
    x = randn(N, dtype=torch.bfloat16, seed=6)
    out = torch.zeros(N, dtype=torch.bfloat16)
    scalar_kernel[CORES](x, out, torch.tensor(N), torch.tensor(0.5, requires_grad=True), OP=operator.mul,
                         LEFT=False, TILE=TILE)
    assert torch.equal(out, x * 0.5)


# -- samples on torch inputs, against torch.nn.functional.gelu and torch.softmax


def test_gelu_sample_float32():
    from gelu import gelu

    x = randn(5000, seed=7, scale=2.0)
    out = torch.zeros_like(x)
    gelu[8](x, out, x.numel(), TILE=256)
    torch.testing.assert_close(out, torch.nn.functional.gelu(x, approximate="tanh"), rtol=0, atol=1e-5)


@asc2.jit
def gelu_via_float32(x_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress, size: int, TILE: asc2.ConstExpr[int]):
    """The gelu sample's math for bfloat16 tensors: in float32 (tanh takes float16/float32 tiles), rounded once."""
    x_gm = asc2.global_tensor(x_ptr, [size])
    out_gm = asc2.global_tensor(out_ptr, [size])
    for t in asc2.range(asc2.block_idx(), asc2.ceildiv(size, TILE), asc2.block_num()):
        x = asc2.cast(asc2.copy_in(x_gm, [t * TILE], [TILE]), asc2.float32)
        inner = 0.7978845608028654 * (x + 0.044715 * x * x * x)
        asc2.copy_out(asc2.cast(0.5 * x * (1.0 + asc2.tanh(inner)), asc2.bfloat16), out_gm, [t * TILE])


def test_gelu_sample_bfloat16():
    from gelu import gelu

    x = randn(5000, dtype=torch.bfloat16, seed=8, scale=2.0)
    out = torch.zeros_like(x)
    with pytest.raises(asc2.UnsupportedDtypeError, match=r"asc2.tanh does not support the bfloat16 dtype.*cast to "
                                                         r"float32 first: asc2.cast\(x, asc2.float32\)"):
        gelu[8](x, out, x.numel(), TILE=256)
    gelu_via_float32[8](x, out, x.numel(), TILE=256)
    torch.testing.assert_close(out, torch.nn.functional.gelu(x, approximate="tanh"), rtol=BF16_SAMPLE_RTOL,
                               atol=2.0 ** -7)


@pytest.mark.parametrize("dtype, atol", [(torch.float32, 1e-6), (torch.float16, 2.0 ** -10)])
def test_softmax_sample_on_strided_tensors(dtype, atol):
    """Rows of a transposed input, written into a transposed output: the results land in the caller's view."""
    from softmax import softmax_fused

    rows, cols = 37, 256
    x = randn(cols, rows, dtype=dtype, seed=9, scale=3.0).t()
    out_base = torch.full((cols, rows), -1.0, dtype=dtype)
    out = out_base.t()
    assert not x.is_contiguous() and not out.is_contiguous()
    softmax_fused[8](x, out, rows, cols, TILE=cols)
    want = torch.softmax(x.float(), dim=1).to(dtype)
    torch.testing.assert_close(out, want, rtol=0 if dtype == torch.float32 else BF16_SAMPLE_RTOL, atol=atol)
    assert out.data_ptr() == out_base.data_ptr()


# -- where the results land


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16, torch.int32])
def test_in_place_update(dtype):
    x = randn(N, seed=10, scale=8.0).to(dtype)
    expected = x * 2 + 1
    twice_plus_one[CORES](x, N, TILE=TILE)
    assert torch.equal(x, expected)


def test_in_place_update_of_a_strided_column():
    base = randn(N, 2, dtype=torch.bfloat16, seed=11)
    before = base.clone()
    column = base[:, 1]
    twice_plus_one[CORES](column, N, TILE=TILE)
    assert torch.equal(base[:, 1], before[:, 1] * 2 + 1)
    assert torch.equal(base[:, 0], before[:, 0]), "the elements between the view's are untouched"


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
def test_sliced_and_transposed_arguments(dtype):
    rows, cols = 19, 64
    x = randn(cols, rows, dtype=dtype, seed=12).t()           # transposed
    y = randn(rows, 2 * cols, dtype=dtype, seed=13)[:, ::2]   # every other column
    out_base = torch.full((rows + 2, cols), 7.0, dtype=dtype)
    out = out_base[1:-1]                                     # contiguous rows at an offset
    rows_axpy[CORES](x, y, out, rows, COLS=cols)
    assert torch.equal(out, x * 2 + y)
    assert (out_base[0] == 7).all() and (out_base[-1] == 7).all()

    out_t = torch.zeros(cols, rows, dtype=dtype).t()
    rows_axpy[CORES](x, y, out_t, rows, COLS=cols)
    assert torch.equal(out_t, x * 2 + y)


def test_expanded_tensor_is_read_but_not_written():
    y = randn(N, seed=14)
    one = torch.tensor([1.5]).expand(N)  # one element seen N times
    out = torch.zeros(N)
    add(one, y, out)
    assert torch.equal(out, 1.5 + y)
    with pytest.raises(ValueError, match=r"binary_kernel: argument 'out_ptr' is a torch tensor whose elements share "
                                         r"memory \(strides \(0,\).*but the kernel writes it"):
        add(y, y, torch.zeros(1).expand(N))


# -- what is refused or changes


def test_tensor_on_another_device_is_refused_naming_the_argument():
    x, out = randn(N, seed=15), torch.zeros(N)
    with pytest.raises(ValueError, match=r"binary_kernel: argument 'y_ptr' is a torch tensor on device 'meta'.*"
                                         r"pass a CPU tensor \(\.cpu\(\)\)"):
        add(x, torch.empty(N, device="meta"), out)
    assert not out.any(), "nothing ran"


def test_sparse_tensor_is_refused_naming_the_argument():
    x = randn(N, seed=16)
    with pytest.raises(ValueError, match=r"argument 'x_ptr' is a torch.sparse_coo torch tensor, not a strided "
                                         r"\(dense\) one; pass \.to_dense\(\)"):
        add(x.to_sparse(), x, torch.zeros(N))


def test_tensors_requiring_grad_are_used_detached():
    x = randn(N, seed=17).requires_grad_()
    y = randn(N, seed=18)
    weight = torch.zeros(N, requires_grad=True)  # a leaf written by the kernel
    x_version = x._version
    add(x, y, weight)
    assert torch.equal(weight.detach(), x.detach() + y)
    assert weight.requires_grad and weight.grad_fn is None and x.grad is None
    assert x._version == x_version, "an argument the kernel only reads is not marked modified"

    # A tensor autograd saved for backward and then overwritten by a kernel: backward refuses, as after an
    # in-place op on tensor.detach(), instead of computing gradients from the kernel's values.
    e = x.exp()
    add(x, y, e)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        e.sum().backward()


def test_torch_and_numpy_arguments_share_specialisations():
    @asc2.jit
    def scale(x_ptr, out_ptr, size: int, TILE: asc2.ConstExpr[int]):
        x_gm = asc2.global_tensor(x_ptr, [size])
        out_gm = asc2.global_tensor(out_ptr, [size])
        for t in asc2.range(asc2.block_idx(), asc2.ceildiv(size, TILE), asc2.block_num()):
            asc2.copy_out(asc2.copy_in(x_gm, [t * TILE], [TILE]) * 3, out_gm, [t * TILE])

    def run(x, out=None):
        out = torch.zeros_like(x) if out is None else out
        scale[2](x, out, x.shape[0], TILE=TILE)
        return out, scale.last_cache

    x = randn(N, seed=19)
    assert run(x.numpy(), np.zeros(N, np.float32))[1] == "miss"
    out, cached = run(x)
    assert cached == "memory" and torch.equal(out, x * 3)
    assert run(randn(N + 77, seed=20))[1] == "memory", "the shape is a run-time value, as for numpy"
    assert run(x.half())[1] == "miss", "another dtype is another specialisation"
    assert run(x.reshape(8, -1))[1] == "miss", "another rank is another specialisation"
    bits = randn(N, dtype=torch.bfloat16, seed=21).view(torch.int16).numpy()
    assert run(asc2.reinterpret(bits, asc2.bfloat16), asc2.reinterpret(np.zeros_like(bits), asc2.bfloat16))[1] == "miss"
    x = torch.from_numpy(bits).view(torch.bfloat16)
    out, cached = run(x)
    assert cached == "memory" and torch.equal(out, x * 3)


def test_reinterpret_takes_int16_tensors():
    x = randn(N, dtype=torch.bfloat16, seed=22)
    out = torch.zeros(N, dtype=torch.int16)
    add(asc2.reinterpret(x.view(torch.int16), asc2.bfloat16), x, asc2.reinterpret(out, asc2.bfloat16))
    assert torch.equal(out.view(torch.bfloat16), x + x)
    with pytest.raises(TypeError, match="must be held in a 16-bit integer array .*got torch.float32"):
        asc2.reinterpret(torch.zeros(4), asc2.bfloat16)


# -- the other ways a launch runs: export_project, the Twin and NPU backends


def test_export_project_reads_tensors_and_leaves_them_alone(tmp_path):
    x, y = randn(N, dtype=torch.bfloat16, seed=23), randn(N, dtype=torch.bfloat16, seed=24)
    out = torch.zeros(N, dtype=torch.bfloat16)
    binary_kernel[CORES].export_project(str(tmp_path / "p"), x, y, out, N, OP=operator.add, TILE=TILE)
    assert not out.any(), "export_project simulates on copies"
    assert (tmp_path / "p" / "input" / "x_ptr.bin").read_bytes() == x.view(torch.int16).numpy().tobytes()
    golden = np.fromfile(tmp_path / "p" / "golden" / "out_ptr.bin", np.int16)
    assert torch.equal(torch.from_numpy(golden).view(torch.bfloat16), x + y)


@pytest.mark.skipif(not HAS_TWIN, reason=NO_TWIN)
def test_twin_backend_writes_strided_bfloat16_tensors(twin_cache):
    asc2.set_platform(backend="Twin", platform="Ascend910B1")
    x, y = randn(N, dtype=torch.bfloat16, seed=25), randn(N, dtype=torch.bfloat16, seed=26)
    base = torch.zeros(N, 3, dtype=torch.bfloat16)
    add(x, y, base[:, 1])
    assert binary_kernel.last_report["launch"]["backend"] == "Twin"
    assert torch.equal(base[:, 1], x + y) and not base[:, 0].any() and not base[:, 2].any()


@pytest.mark.skipif(not HAS_TWIN, reason=NO_TWIN)
@pytest.mark.usefixtures("toolkit")
def test_npu_backend_reads_results_back_into_tensors(tmp_path, monkeypatch):
    """Through the stand-in CANN of test_npu_backend.py, whose project build runs on the CPU twin."""
    monkeypatch.setenv("PATH", python_first(tmp_path)["PATH"])
    asc2.set_platform(backend="NPU")
    x = randn(N, dtype=torch.bfloat16, seed=27)
    expected = x * 2 + 1
    twice_plus_one[CORES](x, N, TILE=TILE)
    assert twice_plus_one.last_report["launch"]["backend"] == "NPU"
    assert torch.equal(x, expected)
    base = torch.zeros(N, 2, dtype=torch.bfloat16)
    column = base[:, 0]
    column.copy_(expected)
    twice_plus_one[CORES](column, N, TILE=TILE)
    assert torch.equal(base[:, 0], expected * 2 + 1) and not base[:, 1].any()


# -- the compile cache keys a module-level tensor a kernel reads by its values

COEFFS = torch.tensor([0.12345, 2.0])


@asc2.jit
def scale_by_module_tensor(x_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress, N: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [N])
    out_gm = asc2.global_tensor(out_ptr, [N])
    asc2.copy_out(asc2.copy_in(x_gm, [0], [N]) * float(COEFFS[0]), out_gm, [0])


def test_a_module_tensor_the_kernel_reads_is_in_its_key():
    """A tensor's repr rounds to 4 decimals: keyed by it, 0.12345 -> 0.12346 reused the stale kernel."""
    x = torch.ones(64)
    out = torch.zeros(64)
    scale_by_module_tensor[1](x, out, N=64)
    assert torch.equal(out, torch.full((64,), 0.12345))
    COEFFS[0] = 0.12346
    try:
        scale_by_module_tensor[1](x, out, N=64)
        assert scale_by_module_tensor.last_cache == "miss"
        assert torch.equal(out, torch.full((64,), 0.12346))
    finally:
        COEFFS[0] = 0.12345


def test_a_numpy_view_whose_elements_overlap_is_read_but_not_written():
    """np.lib.stride_tricks.as_strided makes writable views whose indices share elements; writing the kernel's
    results back through one would keep one of several results per element."""
    base = np.arange(8, dtype=np.float32)
    view = np.lib.stride_tricks.as_strided(base, shape=(1000,), strides=(0,))
    out = np.zeros(1000, np.float32)
    binary_kernel[CORES](view, view, out, 1000, OP=operator.add, TILE=TILE)  # only read: fine
    np.testing.assert_array_equal(out, np.zeros(1000, np.float32))
    with pytest.raises(ValueError, match="argument 'out_ptr' is an array whose elements share memory"):
        binary_kernel[CORES](out, out, view, 1000, OP=operator.add, TILE=TILE)
