"""One-dimensional tiles in cube locations: a [N] tile in L1, L0A, L0B or L0C is the one-row matrix [1, N].

Upstream's unit tests (pyasc/unit/test_memory_ops.py: test_from_l0c, test_l1_to_l0a, test_l1_to_l0b) build such
tiles with their conftest's constant_tile (asc2.codegen.ops.splat in a cube location) and store or move them. A
filled tile moves between locations as the same fill (no data moves: the cube unit has no fill of L0C), so a
filled L0C tile is stored by the vector unit, N values (a row of a 2-D tensor when the tensor is 2-D), and the
float16/bfloat16 conversion of the fixpipe still applies. Here the same kernels run on the simulator, not mocked,
with their numbers checked, on both targets.
"""

import inspect

import numpy as np
import pytest

import asc2
from asc2.codegen import ops
from asc2.codegen.visitor import CodeGenerator
from conftest import line_of, requires_native

L = asc2.TensorLocation
PLATFORMS = ["Ascend910B1", "Ascend950"]


def constant_tile(value, shape, dtype, loc):
    """A filled tile of any location, as upstream's conftest builds it (asc2.language.utils.constant_tile)."""
    frame = inspect.currentframe()
    while not isinstance(frame.f_locals.get("self"), CodeGenerator):
        frame = frame.f_back
    return ops.splat(frame.f_locals["self"], value, [int(s) for s in shape], dtype, loc)


@asc2.jit
def from_l0c(out_ptr: asc2.GlobalAddress, N: asc2.ConstExpr, V: asc2.ConstExpr):
    """upstream's test_from_l0c, with the fill value a parameter."""
    out_gm = asc2.global_tensor(out_ptr, [N])
    src = constant_tile(V, [N], asc2.float32, L.L0C)
    asc2.copy_out(src, out_gm, [0])


@asc2.jit
def row_into_matrix(out_ptr: asc2.GlobalAddress, rows: int, N: asc2.ConstExpr, ROW: asc2.ConstExpr,
                    V: asc2.ConstExpr):
    """A 1-D L0C tile stored into a 2-D tensor: the row [1, N] at (ROW, 0)."""
    out_gm = asc2.global_tensor(out_ptr, [rows, N])
    asc2.copy_out(constant_tile(V, [N], asc2.float32, L.L0C), out_gm, [ROW, 0])


@asc2.jit
def from_l0c_as(out_ptr: asc2.GlobalAddress, N: asc2.ConstExpr, V: asc2.ConstExpr, DT: asc2.ConstExpr):
    """A float32 L0C row into a float16/bfloat16 tensor: converted as the fixpipe would."""
    out_gm = asc2.global_tensor(out_ptr, [N])
    asc2.copy_out(constant_tile(V, [N], asc2.float32, L.L0C), out_gm, [0])


@asc2.jit
def l1_to_l0(DST: asc2.ConstExpr):
    """upstream's test_l1_to_l0a / _l0b."""
    src = constant_tile(0.0, [128], asc2.float32, L.L1)
    asc2.copy(src, location=DST)


@requires_native
@pytest.mark.parametrize("platform", PLATFORMS)
@pytest.mark.parametrize("n,value", [(128, 0.0), (128, 2.5), (16, -3.0), (4096, 1.0)])
def test_from_l0c_stores_the_row(platform, n, value):
    asc2.set_platform("Model", platform)
    out = np.full(n, 7.0, np.float32)
    from_l0c[1](out, n, value)
    np.testing.assert_array_equal(out, np.full(n, value, np.float32))
    assert not from_l0c.last_report["launch"]["races"]


@requires_native
@pytest.mark.parametrize("platform", PLATFORMS)
@pytest.mark.parametrize("row", [0, 3])
def test_a_1d_l0c_tile_is_one_row_of_a_matrix(platform, row):
    asc2.set_platform("Model", platform)
    out = np.full((5, 64), 7.0, np.float32)
    row_into_matrix[1](out, 5, 64, row, 1.5)
    expected = np.full((5, 64), 7.0, np.float32)
    expected[row] = 1.5
    np.testing.assert_array_equal(out, expected)


@requires_native
@pytest.mark.parametrize("platform", PLATFORMS)
@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_a_1d_l0c_row_converts_like_the_fixpipe(platform, dtype):
    asc2.set_platform("Model", platform)
    if dtype == "bfloat16":
        torch = pytest.importorskip("torch")
        out = torch.zeros(64, dtype=torch.bfloat16)
        from_l0c_as[1](out, 64, 0.1, asc2.bfloat16)
        assert out.float().unique().tolist() == [torch.tensor(0.1).bfloat16().float().item()]
        return
    out = np.zeros(64, np.float16)
    from_l0c_as[1](out, 64, 0.1, asc2.float16)
    np.testing.assert_array_equal(out, np.full(64, np.float16(0.1)))


@requires_native
@pytest.mark.parametrize("platform", PLATFORMS)
@pytest.mark.parametrize("dst", [L.L0A, L.L0B])
def test_l1_row_moves_to_l0a_and_l0b(platform, dst):
    """The move is the same fill in the destination, a [128] (= [1, 128]) tile; the kernel runs."""
    asc2.set_platform("Model", platform)
    ir = l1_to_l0.ir(DST=dst)
    assert f"-> !asctile.tile<128xf32, {dst.value}>" in ir and "asctile.move" not in ir
    l1_to_l0[1](dst)
    assert l1_to_l0.last_report["launch"]["ok"]


@asc2.jit
def bad_row(out_ptr: asc2.GlobalAddress, DST: asc2.ConstExpr):
    src = constant_tile(0.0, [24], asc2.float32, L.L1)
    asc2.copy(src, location=DST)  # a row of 24


@requires_native
@pytest.mark.parametrize("dst", [L.L0A, L.L0B])
def test_a_row_is_whole_fractals(dst):
    with pytest.raises(asc2.CompilationError) as e:
        bad_row[1](np.zeros(24, np.float32), dst)
    message = str(e.value)
    assert f"test_cube_rows.py:{line_of(bad_row, '# a row of 24')}:" in message
    assert f"a 1-D {dst.value} tile is one row [1, N]" in message and "multiple of 16" in message


@asc2.jit
def loaded_row(x_ptr: asc2.GlobalAddress):
    asc2.copy_in(asc2.global_tensor(x_ptr, [128]), [0], [128], location=L.L0A)  # a loaded row


@requires_native
def test_loading_a_1d_operand_still_asks_for_two_dims():
    """Only filled rows move as rows: a loaded 1-D L0A operand is refused where it is loaded, in user terms."""
    with pytest.raises(asc2.CompilationError, match=r"L0A tiles are 2-D \(rows x columns\), got shape \[128\]"):
        loaded_row[1](np.zeros(128, np.float32))
