"""Integer division where the hardware has it, a clear error where it does not.

Atlas A2/A3's Div takes float16 and float32 only (asc-devkit@82b89a15f:impl/basic_api/dav_c220/
kernel_operator_vec_binary_impl.h, DivImpl; the level-2 check is debug-only, so an int Div there compiles and computes
garbage on the device). On A2/A3 int16 (and the uint8/int8 that compute in int16) divide exactly in float32; int32
division is a compile error at its line; Ascend950 has integer Div. Numbers against numpy at the extremes of each type.
"""

import numpy as np
import pytest

import asc2
from conftest import line_of, requires_native

N = 2048


@asc2.jit
def divide(x_ptr, y_ptr, q_ptr, f_ptr, n: int):
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [n]), [0], [N])
    y = asc2.copy_in(asc2.global_tensor(y_ptr, [n]), [0], [N])
    asc2.copy_out(x / y, asc2.global_tensor(q_ptr, [n]), [0])  # the division
    asc2.copy_out(x // y, asc2.global_tensor(f_ptr, [n]), [0])


def operands(dtype, seed):
    info = np.iinfo(dtype)
    rng = np.random.default_rng(seed)
    x = rng.integers(info.min + 1, info.max, N).astype(dtype)
    y = rng.integers(-400, 400, N).astype(dtype)
    y[y == 0] = 3
    y[:64], y[64:128], y[128:192] = -1, 1, info.max  # |x / y| = |x|, x, below 1
    x[192:256], y[192:256] = info.max, rng.integers(1, info.max, 64)  # quotients just below integers
    x[256:320] = info.min + 1
    return x, y


@requires_native
@pytest.mark.parametrize("platform,dtype", [("Ascend910B1", np.int16), ("Ascend950", np.int16),
                                            ("Ascend950", np.int32)])
def test_integer_division_matches_numpy(platform, dtype):
    asc2.set_platform("Model", platform)
    x, y = operands(dtype, 5)
    q, f = np.zeros(N, dtype), np.zeros(N, dtype)
    divide[1](x, y, q, f, N)
    np.testing.assert_array_equal(q, np.trunc(x.astype(np.float64) / y).astype(dtype))
    np.testing.assert_array_equal(f, np.floor_divide(x, y))


@requires_native
def test_int32_division_on_a2_is_an_error_at_its_line():
    asc2.set_platform("Model", "Ascend910B1")
    x, y = operands(np.int32, 6)
    q, f = np.zeros(N, np.int32), np.zeros(N, np.int32)
    with pytest.raises(asc2.CompilationError) as e:
        divide[1](x, y, q, f, N)
    message = str(e.value)
    assert f"test_integer_division_on_a2.py:{line_of(divide, '# the division')}:" in message
    assert "Atlas A2/A3 have no integer division" in message and "int32" in message
    assert "arith." not in message and "!asctile" not in message
