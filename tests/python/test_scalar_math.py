"""Math on scalars: reduced values and float arguments, as upstream's norm kernels write ``1 / asc2.sqrt(...)``.

The AI core's scalar unit has float arithmetic, compares and casts, plus Ascend C's AscendC::Std::sqrt and Std::abs
(asc-devkit@82b89a15f:include/utils/std/cmath.h); asctile-lower-scalar-math gives the rest a form it runs: rsqrt as
1 / sqrt, floor and ceil (and float ``//``) through a truncating cast, and exp, log, erf, tanh, sin, ... on one vector
block. Numbers against numpy's, on both targets (the twin sweep runs the printed Ascend C of these kernels too).
"""

import math

import numpy as np
import pytest

import asc2
from conftest import requires_native

FUNCTIONS = {  # name: (numpy reference, rtol, atol); the kernel side is apply() below. The vector unit's erf
    # (A&S 7.1.26), tanh (1 - 2 / (e^2x + 1)) and sin (range reduction by pi) are accurate to ~1.5e-7 absolute.
    "sqrt": (lambda v: np.sqrt(abs(v)), 1e-6, 0),
    "rsqrt": (lambda v: 1 / np.sqrt(abs(v) + 1.0), 1e-6, 0),
    "abs": (np.abs, 0, 0),
    "floor": (np.floor, 0, 0),
    "ceil": (np.ceil, 0, 0),
    "floordiv": (lambda v: np.floor_divide(v, 2.5), 0, 0),
    "exp": (lambda v: np.exp(v * 0.01), 2e-6, 0),
    "log": (lambda v: np.log(abs(v) + 1.0), 2e-6, 0),
    "erf": (lambda v: np.vectorize(math.erf)(v * 0.01), 2e-6, 3e-7),
    "tanh": (lambda v: np.tanh(v * 0.01), 2e-6, 2e-7),
    "sin": (lambda v: np.sin(v * 0.01), 2e-6, 1e-6),
}
NAMES = list(FUNCTIONS)


@asc2.jit
def apply(v, WHICH: asc2.ConstExpr[int]):
    """FUNCTIONS[NAMES[WHICH]] of the scalar v, in asc2."""
    if WHICH == 0:
        return asc2.sqrt(abs(v))
    elif WHICH == 1:
        return asc2.rsqrt(abs(v) + 1.0)
    elif WHICH == 2:
        return abs(v)
    elif WHICH == 3:
        return asc2.floor(v)
    elif WHICH == 4:
        return asc2.ceil(v)
    elif WHICH == 5:
        return v // 2.5
    elif WHICH == 6:
        return asc2.exp(v * 0.01)
    elif WHICH == 7:
        return asc2.log(abs(v) + 1.0)
    elif WHICH == 8:
        return asc2.erf(v * 0.01)
    elif WHICH == 9:
        return asc2.tanh(v * 0.01)
    else:
        return asc2.sin(v * 0.01)


@asc2.jit
def of_argument(out_ptr, a: float, WHICH: asc2.ConstExpr[int]):
    """f(a) of a run-time float argument, stored as a scalar."""
    out = asc2.global_tensor(out_ptr, [8])
    asc2.copy_out(apply(a, WHICH), out, [0])


@asc2.jit
def of_row_sum(x_ptr, out_ptr, rows: int, COLS: asc2.ConstExpr[int], WHICH: asc2.ConstExpr[int]):
    """f(sum of the row) per row, the result scaling the row: a reduced value back on the vector unit."""
    x_gm = asc2.global_tensor(x_ptr, [rows, COLS])
    out_gm = asc2.global_tensor(out_ptr, [rows, COLS])
    for r in asc2.range(asc2.block_idx(), rows, asc2.block_num()):
        row = asc2.copy_in(x_gm, [r, 0], [1, COLS])
        asc2.copy_out(row * apply(asc2.reduce_sum(row), WHICH), out_gm, [r, 0])


def check(name, got, v):
    want = FUNCTIONS[name][0](np.float32(v) if np.ndim(v) == 0 else v.astype(np.float32)).astype(np.float32)
    _, rtol, atol = FUNCTIONS[name]
    np.testing.assert_allclose(got, want, rtol=rtol, atol=atol, err_msg=f"{name}({v})")


@requires_native
@pytest.mark.parametrize("platform", ["Ascend910B1", "Ascend950"])
@pytest.mark.parametrize("name", NAMES)
def test_math_of_a_float_argument(platform, name):
    asc2.set_platform("Model", platform)
    values = [-7.5, -2.0, -0.25, 0.0, 0.75, 3.0, 41.5, 1e7 + 0.5]
    if name in ("floor", "ceil", "floordiv"):
        values += [-3e9 - 0.5, 2.0 ** 40, 12345678.0]  # beyond int32; integers already
    for v in values:
        out = np.zeros(8, np.float32)
        of_argument[1](out, v, NAMES.index(name))
        check(name, out[0], np.float32(v))


@requires_native
@pytest.mark.parametrize("platform", ["Ascend910B1", "Ascend950"])
@pytest.mark.parametrize("name", ["sqrt", "rsqrt", "floor", "exp", "erf"])
def test_math_of_a_reduced_value(platform, name):
    asc2.set_platform("Model", platform)
    rows, cols = 12, 64
    x = (np.random.default_rng(7).random((rows, cols), dtype=np.float32) - 0.45) * 3
    out = np.zeros_like(x)
    of_row_sum[4](x, out, rows, cols, NAMES.index(name))
    sums = x.astype(np.float64).sum(1).astype(np.float32)
    factor = FUNCTIONS[name][0](sums).astype(np.float32)
    if name == "floor":  # a sum that rounds across an integer differently in another order is not an error
        factor = np.rint(out[:, 0] / x[:, 0]).astype(np.float32)
        np.testing.assert_allclose(factor, np.floor(sums), atol=1)
        assert (factor == np.floor(sums)).mean() > 0.8
    np.testing.assert_allclose(out, x * factor[:, None], rtol=1e-5 + FUNCTIONS[name][1], atol=1e-5)


@requires_native
def test_floor_passes_nan_and_infinity_through():
    asc2.set_platform("Model", "Ascend910B1")
    for v in (float("nan"), float("inf"), -float("inf")):
        for name in ("floor", "ceil"):
            out = np.zeros(8, np.float32)
            of_argument[1](out, v, NAMES.index(name))
            np.testing.assert_array_equal(out[0], np.float32(v), err_msg=f"{name}({v})")


@requires_native
def test_norm_with_a_scalar_statistic_matches_numpy():
    """The published rms_norm form: the row's statistic a scalar, 1 / sqrt of it on the scalar unit."""

    @asc2.jit
    def rms_rows(x_ptr, g_ptr, out_ptr, rows: int, COLS: asc2.ConstExpr[int], EPS: asc2.ConstExpr[float]):
        x_gm, out_gm = asc2.global_tensor(x_ptr, [rows, COLS]), asc2.global_tensor(out_ptr, [rows, COLS])
        gamma = asc2.copy_in(asc2.global_tensor(g_ptr, [1, COLS]), [0, 0], [1, COLS]).to(asc2.float32)
        for r in asc2.range(asc2.block_idx(), rows, asc2.block_num()):
            x_in = asc2.copy_in(x_gm, [r, 0], [1, COLS])
            x = x_in.to(asc2.float32)
            inv = 1.0 / asc2.sqrt(asc2.reduce_sum(x * x) / COLS + EPS)
            asc2.copy_out((x * inv * gamma).to(x_in.dtype), out_gm, [r, 0])

    for platform in ("Ascend910B1", "Ascend950"):
        asc2.set_platform("Model", platform)
        rng = np.random.default_rng(3)
        x = rng.standard_normal((16, 256)).astype(np.float16)
        g = rng.standard_normal((1, 256)).astype(np.float16)
        out = np.zeros_like(x)
        rms_rows[8](x, g, out, 16, 256, 1e-5)
        xf = x.astype(np.float64)
        want = xf / np.sqrt((xf * xf).mean(1, keepdims=True) + 1e-5) * g.astype(np.float64)
        np.testing.assert_allclose(out.astype(np.float64), want, rtol=4e-3, atol=4e-3)


@asc2.jit
def extremes(out_ptr, a: float, b: float):
    out = asc2.global_tensor(out_ptr, [8])
    asc2.copy_out(asc2.maximum(a, b), out, [0])
    asc2.copy_out(asc2.minimum(a, b), out, [1])


@requires_native
@pytest.mark.parametrize("platform", ["Ascend910B1", "Ascend950"])
def test_scalar_maximum_and_minimum_propagate_nan_in_either_order(platform):
    """numpy's rule; Ascend C's Std::max/min (``a > b ? a : b``) keep a NaN in one operand order only, so the
    emitted code spells the test out (the twin sweep runs it)."""
    asc2.set_platform("Model", platform)
    nan, inf = float("nan"), float("inf")
    for a, b in [(nan, 1.0), (1.0, nan), (nan, nan), (-inf, 2.0), (3.0, -0.5), (-0.0, 0.0)]:
        out = np.zeros(8, np.float32)
        extremes[1](out, a, b)
        A, B = np.float32(a), np.float32(b)
        np.testing.assert_array_equal(out[:2], [np.maximum(A, B), np.minimum(A, B)], err_msg=f"{a}, {b}")
