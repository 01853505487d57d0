"""issue 17: inputs that crashed the process (SIGSEGV/SIGFPE) or gave pybind11 dumps are clear errors."""

import mmap

import numpy as np
import pytest

import asc2
from conftest import requires_native


@asc2.jit
def full_tile(out_ptr, SHAPE: asc2.ConstExpr):
    out_gm = asc2.global_tensor(out_ptr, [64])
    t = asc2.full(SHAPE, 1.0, asc2.float32)
    asc2.copy_out(t, out_gm, [0])


@asc2.jit
def loaded_tile(x_ptr, SHAPE: asc2.ConstExpr):
    x_gm = asc2.global_tensor(x_ptr, [8] * len(SHAPE))
    asc2.copy_out(asc2.copy_in(x_gm, [0] * len(SHAPE), SHAPE), x_gm, [0] * len(SHAPE))


@pytest.mark.parametrize("shape", [[2**62], [2**32, 2**32], [2**63 - 1], [2**40], [1, 2**61]])
@pytest.mark.parametrize("kernel", [full_tile, loaded_tile])
def test_a_tile_too_large_for_any_memory_is_a_compile_error_at_its_line(kernel, shape):
    with pytest.raises(asc2.ShapeError, match=rf"a tile of shape \[{', '.join(map(str, shape))}\] float32 needs "
                                              r"\d+ bytes: more than any on-chip memory holds") as e:
        kernel.ir(np.zeros(64, np.float32), SHAPE=shape)
    assert e.value.line == kernel.source.node.lineno + 2
    assert "!asctile" not in str(e.value)


@requires_native
@pytest.mark.parametrize("shape", [[2**62], [2**32, 2**32]])
def test_a_huge_tile_does_not_reach_the_compiler(shape):
    with pytest.raises(asc2.ShapeError, match="more than any on-chip memory holds"):
        full_tile[1](np.zeros(64, np.float32), SHAPE=shape)


@asc2.jit
def add_one(x_ptr, out_ptr, n: int):
    x_gm = asc2.global_tensor(x_ptr, [n])
    out_gm = asc2.global_tensor(out_ptr, [n])
    asc2.copy_out(asc2.copy_in(x_gm, [0], [64]) + 1.0, out_gm, [0])


@requires_native
def test_a_read_only_input_array_is_accepted(tmp_path):
    x = np.frombuffer(np.arange(64, dtype=np.float32).tobytes(), np.float32)
    assert not x.flags["WRITEABLE"]
    out = np.zeros(64, np.float32)
    add_one[1](x, out, 64)
    np.testing.assert_array_equal(out, np.arange(64, dtype=np.float32) + 1)

    path = tmp_path / "x.bin"
    path.write_bytes((np.arange(64, dtype=np.float32) * 2).tobytes())
    with open(path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as m:
        mapped = np.frombuffer(m, np.float32)
        add_one[1](mapped, out, 64)
        np.testing.assert_array_equal(out, np.arange(64, dtype=np.float32) * 2 + 1)
        del mapped


@requires_native
def test_a_read_only_output_array_is_an_error_naming_the_parameter():
    x = np.zeros(64, np.float32)
    read_only = np.zeros(64, np.float32)
    read_only.flags.writeable = False
    with pytest.raises(ValueError, match="add_one: argument 'out_ptr' is a read-only array, but the kernel writes it"):
        add_one[1](x, read_only, 64)


@requires_native
@pytest.mark.parametrize("blocks", [2**31, 2**64, 0, -1])
def test_a_block_count_out_of_range_is_a_clear_error(blocks):
    with pytest.raises(ValueError, match=r"the block count must be an integer from 1 to 2147483647"):
        add_one[blocks](np.zeros(64, np.float32), np.zeros(64, np.float32), 64)


@requires_native
@pytest.mark.parametrize("n", [2**64, 2**63, -2**63 - 1])
def test_an_integer_argument_out_of_int64_is_a_clear_error(n):
    with pytest.raises(ValueError, match=rf"add_one: argument 'n' = {n} does not fit the kernel's 64-bit integers"):
        add_one[1](np.zeros(64, np.float32), np.zeros(64, np.float32), n)


def test_a_kernel_defined_by_exec_is_a_clear_error():
    namespace = {"asc2": asc2}
    exec("@asc2.jit\ndef made(x_ptr: asc2.GlobalAddress):\n    pass\n", namespace)
    with pytest.raises(TypeError, match=r"cannot compile 'made': its source is not in a file \(it was defined in "
                                        r"<string>, e\.g\. by exec\(\) or python -c\); asc2 compiles a kernel from "
                                        r"its source, so define it in a \.py file"):
        namespace["made"].ir(np.zeros(8, np.float32))
