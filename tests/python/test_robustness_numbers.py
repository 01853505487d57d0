"""issue 17: no silently wrong numbers at the edges (negative operands, zeros, NaN, Inf, huge values)."""

import numpy as np
import pytest

import asc2
from conftest import requires_native

pytestmark = requires_native


@asc2.jit
def int_division(out_ptr, a: int, b: int):
    out_gm = asc2.global_tensor(out_ptr, [32])
    asc2.copy_out(asc2.full([8], a // b, asc2.int32), out_gm, [0])
    asc2.copy_out(asc2.full([8], a % b, asc2.int32), out_gm, [8])
    asc2.copy_out(asc2.full([8], a // 3, asc2.int32), out_gm, [16])  # a known positive divisor
    asc2.copy_out(asc2.full([8], a % 3, asc2.int32), out_gm, [24])


@pytest.mark.parametrize("a,b", [(-7, 2), (7, -2), (-7, -2), (7, 2), (-8, 2), (-7, 3), (0, -3), (-1, 5),
                                 (-2**40, 7), (2**40 + 3, -7)])
def test_runtime_integer_floor_division_and_modulo_follow_python(a, b):
    out = np.zeros(32, np.int32)
    int_division[1](out, a, b)
    got = [int(v) for v in out[::8]]
    expected = [a // b, a % b, a // 3, a % 3]
    # The tiles are int32: what the scalars compute in 64 bits is stored truncated, as numpy's astype does.
    assert got == [int(np.int64(v).astype(np.int32)) for v in expected]


@asc2.jit
def unary_f32(x_ptr, out_ptr, N: asc2.ConstExpr[int], OP: asc2.ConstExpr[str]):
    x_gm = asc2.global_tensor(x_ptr, [N])
    out_gm = asc2.global_tensor(out_ptr, [N])
    x = asc2.copy_in(x_gm, [0], [N])
    if OP == "floor":
        y = asc2.floor(x)
    elif OP == "ceil":
        y = asc2.ceil(x)
    elif OP == "sin":
        y = asc2.sin(x)
    elif OP == "cos":
        y = asc2.cos(x)
    else:
        y = x // asc2.full([N], 0.0, asc2.float32)
    asc2.copy_out(y, out_gm, [0])


def _unary(op, values, dtype=np.float32):
    n = 64
    x = np.resize(np.asarray(values, dtype), n)
    out = np.zeros(n, dtype)
    unary_f32[1](x, out, N=n, OP=op)
    return x, out


EDGES = [np.nan, np.inf, -np.inf, 2.0**31, -2.0**31, 3e9, -3e9, 1e20, -1e38, 2.0**23 + 1, -(2.0**23) - 1,
         8388607.5, -8388607.5, 2.5, -2.5, 0.0, 1e-30]


@pytest.mark.parametrize("op", ["floor", "ceil"])
def test_floor_and_ceil_of_huge_values_nan_and_inf_match_numpy(op):
    x, out = _unary(op, EDGES)
    np.testing.assert_array_equal(out, getattr(np, op)(x))


def test_float_floor_division_by_zero_matches_numpy():
    x, out = _unary("floordiv0", [1.0, -1.0, 0.0, 7.5, -np.inf, np.nan])
    with np.errstate(divide="ignore", invalid="ignore"):
        np.testing.assert_array_equal(out, np.floor(x / np.float32(0.0)))  # inf, -inf, nan, inf, -inf, nan


@pytest.mark.parametrize("op", ["sin", "cos"])
def test_sin_and_cos_of_inf_and_nan_are_nan(op):
    _, out = _unary(op, [np.inf, -np.inf, np.nan, 0.5])
    assert np.isnan(out[:3]).all() and np.isnan(out[4:7]).all()
    assert out[3] == pytest.approx(getattr(np, op)(0.5), abs=1e-6)


@pytest.mark.parametrize("op", ["sin", "cos"])
def test_sin_and_cos_are_accurate_on_the_documented_range(op):
    # docs/language.md: accurate on [-65504, 65504] (the range Huawei's own Sin supports on Atlas A2/A3).
    x = np.concatenate([np.linspace(-65504, 65504, 48), [65504.0, -65504.0, 12345.678, 1e4, 3.0, -2.0, 0.1, 0.0,
                                                           40000.5, -50000.25, 60000.0, 1.5e4, 2e4, 3e4, 4.4e4,
                                                           5.5e4]]).astype(np.float32)
    _, out = _unary(op, x)
    np.testing.assert_allclose(out, getattr(np, op)(x.astype(np.float64)), atol=2e-5)


@asc2.jit
def trips(out_ptr, a: int, b: int, s: int):
    out_gm = asc2.global_tensor(out_ptr, [64])
    n = 0
    for i in asc2.range(a, b, s):
        asc2.copy_out(asc2.full([8], i, asc2.int32), out_gm, [n * 8])
        n = n + 1


@asc2.jit
def trips_down(out_ptr):
    out_gm = asc2.global_tensor(out_ptr, [64])
    n = 0
    for i in asc2.range(10, 0, -3):
        asc2.copy_out(asc2.full([8], i, asc2.int32), out_gm, [n * 8])
        n = n + 1


def _visited(out):
    return [int(v) for v in out[::8] if v != -99]


@pytest.mark.parametrize("a,b,s", [(4, 0, -1), (0, 4, 1), (0, 7, 3), (7, 0, -3), (0, 4, -1), (4, 0, 1),
                                   (-3, -8, -2), (5, 5, -1), (0, 8, 100)])
def test_a_runtime_step_runs_like_pythons_range(a, b, s):
    out = np.full(64, -99, np.int32)
    trips[1](out, a, b, s)
    assert _visited(out) == list(range(a, b, s))


def test_a_compile_time_negative_step_runs_like_pythons_range():
    out = np.full(64, -99, np.int32)
    trips_down[1](out)
    assert _visited(out) == [10, 7, 4, 1]


def test_a_runtime_step_of_zero_is_a_run_time_error_at_the_loop():
    with pytest.raises(asc2.SimulationError, match=r"division by zero .* at .*test_robustness_numbers.py:\d+"):
        trips[1](np.zeros(64, np.int32), 0, 4, 0)


@asc2.jit
def copy_n(x_ptr, out_ptr, n: int):
    x_gm = asc2.global_tensor(x_ptr, [n])
    out_gm = asc2.global_tensor(out_ptr, [n])
    asc2.copy_out(asc2.copy_in(x_gm, [0], [64]), out_gm, [0])


def test_a_negative_tensor_extent_is_rejected_at_launch():
    x, out = np.ones(64, np.float32), np.zeros(64, np.float32)
    with pytest.raises(ValueError, match=r"test_robustness_numbers.py:\d+:\d+: copy_n: the global tensor extent "
                                         r"'n' is -1000 at this launch; extents must not be negative"):
        copy_n[1](x, out, -1000)
    assert not out.any()
    copy_n[1](x, out, 64)
    np.testing.assert_array_equal(out, x)


@asc2.jit
def nan_binary(x_ptr, y_ptr, out_ptr, N: asc2.ConstExpr[int], OP: asc2.ConstExpr[str]):
    x_gm = asc2.global_tensor(x_ptr, [N])
    y_gm = asc2.global_tensor(y_ptr, [N])
    out_gm = asc2.global_tensor(out_ptr, [N])
    x = asc2.copy_in(x_gm, [0], [N])
    y = asc2.copy_in(y_gm, [0], [N])
    if OP == "maximum":
        r = asc2.maximum(x, y)
    elif OP == "minimum":
        r = asc2.minimum(x, y)
    elif OP == "relu":
        r = asc2.relu(x)
    elif OP == "maximum_scalar":
        r = asc2.maximum(x, 1.0)
    elif OP == "minimum_scalar":
        r = asc2.minimum(x, 1.0)
    else:
        r = asc2.relu(x + y)
    asc2.copy_out(r, out_gm, [0])


NAN_REFERENCE = {"maximum": np.maximum, "minimum": np.minimum, "relu": lambda x, y: np.maximum(x, 0),
                 "maximum_scalar": lambda x, y: np.maximum(x, 1), "minimum_scalar": lambda x, y: np.minimum(x, 1),
                 "add_relu": lambda x, y: np.maximum(x + y, 0)}


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@pytest.mark.parametrize("op", list(NAN_REFERENCE))
def test_maximum_minimum_and_relu_propagate_nan_like_numpy(op, dtype):
    n = 128
    x = np.resize(np.array([np.nan, 1, np.nan, 2, -np.inf, -3, 0.5, np.inf], dtype), n)
    y = np.resize(np.array([0, np.nan, np.nan, 1, 5, np.inf, -0.5, np.nan], dtype), n)
    out = np.zeros(n, dtype)
    nan_binary[1](x, y, out, N=n, OP=op)
    np.testing.assert_array_equal(out, NAN_REFERENCE[op](x, y).astype(dtype))
