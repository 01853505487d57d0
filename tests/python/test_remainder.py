"""``%`` with Python's (and numpy's) sign convention, on tiles of every dtype and on float scalars.

a % b = a - (a // b) * b, the definition torch.remainder documents: integer tiles exact (through the same floor division
as ``//``: on A2/A3 int16 and uint8 exact in float32, int32 a compile error there), float32 rounding like that formula,
float16/bfloat16 computed in float32 and rounded once, b = 0 NaN for floats as in numpy.
"""

import numpy as np
import pytest

import asc2
from conftest import line_of, requires_native

N = 256


@asc2.jit
def remainder(x_ptr, y_ptr, out_ptr, n: asc2.ConstExpr):
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [n]), [0], [n])
    y = asc2.copy_in(asc2.global_tensor(y_ptr, [n]), [0], [n])
    asc2.copy_out(x % y, asc2.global_tensor(out_ptr, [n]), [0])  # the remainder


@asc2.jit
def remainder_by(x_ptr, out_ptr, b, n: asc2.ConstExpr):
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [n]), [0], [n])
    asc2.copy_out(x % b, asc2.global_tensor(out_ptr, [n]), [0])


@asc2.jit
def scalar_remainder(out_ptr, a: float, b: float):
    asc2.copy_out(a % b, asc2.global_tensor(out_ptr, [8]), [0])


def operands(dtype, seed=1):
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind == "f":
        x = (rng.standard_normal(N) * 20).astype(dtype)
        y = (rng.standard_normal(N) * 3).astype(dtype)
        y[y == 0] = 1.5
        x[:8] = [7.5, -7.5, 7.5, -7.5, 0.0, -0.0, 6.0, -6.0]
        y[:8] = [2.0, 2.0, -2.0, -2.0, 3.0, 3.0, 3.0, 3.0]
    else:
        info = np.iinfo(dtype)
        x = rng.integers(max(info.min, -30000), min(info.max, 30000), N).astype(dtype)
        y = rng.integers(1 if info.min == 0 else -300, 300, N).astype(dtype)
        y[y == 0] = 7
    return x, y


CASES = [("Ascend910B1", np.float32), ("Ascend910B1", np.float16), ("Ascend910B1", np.int16),
         ("Ascend910B1", np.uint8), ("Ascend950", np.float32), ("Ascend950", np.float16), ("Ascend950", np.int16),
         ("Ascend950", np.int32)]


@requires_native
@pytest.mark.parametrize("platform,dtype", CASES)
def test_tile_remainder_matches_numpy(platform, dtype):
    asc2.set_platform("Model", platform)
    x, y = operands(dtype)
    out = np.zeros_like(x)
    remainder[1](x, y, out, N)
    want = np.remainder(x, y)
    if np.dtype(dtype).kind == "f":
        # The float32 formula's rounding, relative to |a|; the sign is always b's (or the result is 0).
        np.testing.assert_allclose(out, want, rtol=0, atol=float(np.abs(x).max()) * 2e-7 * (dtype == np.float32)
                                   + (np.finfo(dtype).eps * 4 if dtype == np.float16 else 0))
        np.testing.assert_array_equal(out[:8], want[:8])
        assert np.all((out == 0) | (np.sign(out) == np.sign(y)))
    else:
        np.testing.assert_array_equal(out, want)


@requires_native
@pytest.mark.parametrize("platform", ["Ascend910B1", "Ascend950"])
def test_remainder_by_a_scalar_and_of_scalars(platform):
    asc2.set_platform("Model", platform)
    x, _ = operands(np.float32)
    out = np.zeros_like(x)
    remainder_by[1](x, out, -2.5, N)
    np.testing.assert_allclose(out, np.remainder(x, np.float32(-2.5)), rtol=0, atol=1e-5)
    for a, b in [(-7.5, 2.0), (7.5, -2.0), (7.0, 0.0), (1e6 + 0.5, 3.0), (-0.0, 5.0)]:
        o = np.zeros(8, np.float32)
        scalar_remainder[1](o, a, b)
        with np.errstate(invalid="ignore", divide="ignore"):
            np.testing.assert_array_equal(o[0], np.remainder(np.float32(a), np.float32(b)), err_msg=f"{a} % {b}")


@requires_native
def test_int32_remainder_on_a2_names_the_operators():
    asc2.set_platform("Model", "Ascend910B1")
    x, y = operands(np.int32)
    with pytest.raises(asc2.CompilationError) as e:
        remainder[1](x, y, np.zeros_like(x), N)
    message = str(e.value)
    assert f"test_remainder.py:{line_of(remainder, '# the remainder')}:" in message
    assert "(/, // or %)" in message and "int32" in message and "arith." not in message
