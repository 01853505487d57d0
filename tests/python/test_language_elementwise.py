"""Element-wise ops (arithmetic, bitwise, unary math, comparisons + where, promotion) against numpy.

Every kernel runs on a 1-D array of N elements in tiles of TILE with N not a
multiple of TILE (the last tile is partial) and the size passed at run time
(a dynamic tensor shape), on several cores.  bfloat16 (numpy has no bf16 type:
bits in uint16 arrays) is covered by test_bf16.py, uint8 by test_uint8.py.
"""

import math

import numpy as np
import pytest

import asc2
from conftest import on_a_platform_with_integer_division, requires_native

pytestmark = requires_native

N = 1000
TILE = 256
CORES = 4
FLOATS = ("float32", "float16")
INTS = ("int32", "int16")


@asc2.jit
def binary_kernel(x_ptr, y_ptr, out_ptr, size: int, OP: asc2.ConstExpr, TILE: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [size])
    y_gm = asc2.global_tensor(y_ptr, [size])
    out_gm = asc2.global_tensor(out_ptr, [size])
    for t in asc2.range(asc2.block_idx(), asc2.ceildiv(size, TILE), asc2.block_num()):
        x = asc2.copy_in(x_gm, [t * TILE], [TILE])
        y = asc2.copy_in(y_gm, [t * TILE], [TILE], pad_value=1)  # no division by zero past the end
        asc2.copy_out(OP(x, y), out_gm, [t * TILE])


@asc2.jit
def scalar_kernel(x_ptr, out_ptr, size: int, s, OP: asc2.ConstExpr, LEFT: asc2.ConstExpr, TILE: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [size])
    out_gm = asc2.global_tensor(out_ptr, [size])
    for t in asc2.range(asc2.block_idx(), asc2.ceildiv(size, TILE), asc2.block_num()):
        x = asc2.copy_in(x_gm, [t * TILE], [TILE], pad_value=1)
        asc2.copy_out(OP(s, x) if LEFT else OP(x, s), out_gm, [t * TILE])


@asc2.jit
def unary_kernel(x_ptr, out_ptr, size: int, OP: asc2.ConstExpr, TILE: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [size])
    out_gm = asc2.global_tensor(out_ptr, [size])
    for t in asc2.range(asc2.block_idx(), asc2.ceildiv(size, TILE), asc2.block_num()):
        x = asc2.copy_in(x_gm, [t * TILE], [TILE])
        asc2.copy_out(OP(x), out_gm, [t * TILE])


def inputs(dtype, kind="any", seed=0):
    rng = np.random.default_rng(seed)
    dt = np.dtype(dtype)
    if dt.kind == "f":
        if kind == "positive":
            return rng.uniform(0.1, 4.0, N).astype(dt)
        if kind == "nonzero":
            return (rng.choice([-1, 1], N) * rng.uniform(0.5, 2.0, N)).astype(dt)
        if kind == "small":
            return rng.uniform(-1.0, 1.0, N).astype(dt)
        return (rng.standard_normal(N) * 2).astype(dt)
    if kind == "shift":
        return rng.integers(0, 8, N).astype(dt)
    if kind == "nonzero":
        return (rng.choice([-1, 1], N) * rng.integers(1, 20, N)).astype(dt)
    return rng.integers(-100, 100, N).astype(dt)


def check(out, expected, dtype):
    dt = np.dtype(dtype)
    if dt.kind == "f":
        tol = 1e-5 if dt == np.float32 else 2e-3
        np.testing.assert_allclose(out.astype(np.float64), expected.astype(np.float64), rtol=tol, atol=tol)
    else:
        np.testing.assert_array_equal(out, expected.astype(dt))


def c_div(x, y):
    """Integer division truncating toward zero (arith.divsi)."""
    return (np.trunc(x.astype(np.float64) / y)).astype(x.dtype)


# name -> (builtin, numpy reference, dtypes, operand kinds (x, y))
BINARY = {
    "add": (asc2.add, np.add, FLOATS + INTS, ("any", "any")),
    "sub": (asc2.sub, np.subtract, FLOATS + INTS, ("any", "any")),
    "mul": (asc2.mul, np.multiply, FLOATS + INTS, ("any", "any")),
    "div": (asc2.div, lambda x, y: x / y if x.dtype.kind == "f" else c_div(x, y), FLOATS + INTS, ("any", "nonzero")),
    "floordiv": (asc2.floordiv, lambda x, y: np.floor(x / y) if x.dtype.kind == "f" else np.floor_divide(x, y),
                 FLOATS + INTS, ("any", "nonzero")),
    "maximum": (asc2.maximum, np.maximum, FLOATS + INTS, ("any", "any")),
    "minimum": (asc2.minimum, np.minimum, FLOATS + INTS, ("any", "any")),
    "bitwise_and": (asc2.bitwise_and, np.bitwise_and, INTS, ("any", "any")),
    "bitwise_or": (asc2.bitwise_or, np.bitwise_or, INTS, ("any", "any")),
    "bitwise_xor": (asc2.bitwise_xor, np.bitwise_xor, INTS, ("any", "any")),
    "left_shift": (asc2.left_shift, np.left_shift, INTS, ("any", "shift")),
    "right_shift": (asc2.right_shift, np.right_shift, INTS, ("any", "shift")),
}


@pytest.mark.parametrize("name,dtype", [(n, d) for n, (_, _, dts, _) in BINARY.items() for d in dts])
def test_binary_tile_tile(name, dtype):
    op, ref, _, (kx, ky) = BINARY[name]
    on_a_platform_with_integer_division(name, dtype)
    x, y = inputs(dtype, kx, 1), inputs(dtype, ky, 2)
    out = np.zeros(N, dtype)
    binary_kernel[CORES](x, y, out, N, OP=op, TILE=TILE)
    check(out, ref(x, y), dtype)


@pytest.mark.parametrize("name", ["add", "sub", "mul", "div", "maximum", "minimum"])
@pytest.mark.parametrize("dtype", FLOATS + INTS)
@pytest.mark.parametrize("left", [False, True])
def test_binary_tile_scalar(name, dtype, left):
    op, ref, _, _ = BINARY[name]
    on_a_platform_with_integer_division(name, dtype)
    is_float = np.dtype(dtype).kind == "f"
    x = inputs(dtype, "nonzero" if left and name == "div" else "any", 3)
    s = 1.5 if is_float else 3
    out = np.zeros(N, dtype)
    scalar_kernel[CORES](x, out, N, asc2.ConstExpr(s), OP=op, LEFT=left, TILE=TILE)
    sv = np.full(N, s, dtype)
    check(out, ref(sv, x) if left else ref(x, sv), dtype)


@pytest.mark.parametrize("dtype", FLOATS + INTS)
def test_runtime_scalar_argument(dtype):
    """A Python float/int passed at launch (an f32 / index kernel argument) splatted into the tile's dtype."""
    x = inputs(dtype, "any", 4)
    s = 0.75 if np.dtype(dtype).kind == "f" else 7
    out = np.zeros(N, dtype)
    scalar_kernel[CORES](x, out, N, s, OP=asc2.mul, LEFT=False, TILE=TILE)
    check(out, x * np.asarray(s, dtype), dtype)


# name -> (builtin, numpy reference, dtypes, input kind)
UNARY = {
    "exp": (asc2.exp, np.exp, FLOATS, "small"),
    "exp2": (asc2.exp2, np.exp2, FLOATS, "small"),
    "log": (asc2.log, np.log, FLOATS, "positive"),
    "log2": (asc2.log2, np.log2, FLOATS, "positive"),
    "sqrt": (asc2.sqrt, np.sqrt, FLOATS, "positive"),
    "rsqrt": (asc2.rsqrt, lambda x: 1 / np.sqrt(x), FLOATS, "positive"),
    "sin": (asc2.sin, np.sin, FLOATS, "any"),
    "cos": (asc2.cos, np.cos, FLOATS, "any"),
    "tan": (asc2.tan, np.tan, FLOATS, "small"),
    "sinh": (asc2.sinh, np.sinh, FLOATS, "small"),
    "cosh": (asc2.cosh, np.cosh, FLOATS, "small"),
    "tanh": (asc2.tanh, np.tanh, FLOATS, "any"),
    "erf": (asc2.erf, np.vectorize(math.erf), FLOATS, "any"),
    "ceil": (asc2.ceil, np.ceil, FLOATS, "any"),
    "floor": (asc2.floor, np.floor, FLOATS, "any"),
    "abs": (asc2.abs, np.abs, FLOATS + INTS, "any"),
    "negative": (asc2.negative, np.negative, FLOATS + INTS, "any"),
    "relu": (asc2.relu, lambda x: np.maximum(x, 0).astype(x.dtype), FLOATS, "any"),  # upstream's: floats only
    "bitwise_not": (asc2.bitwise_not, np.invert, INTS, "any"),
}


@pytest.mark.parametrize("name,dtype", [(n, d) for n, (_, _, dts, _) in UNARY.items() for d in dts])
def test_unary(name, dtype):
    op, ref, _, kind = UNARY[name]
    x = inputs(dtype, kind, 5)
    out = np.zeros(N, dtype)
    unary_kernel[CORES](x, out, N, OP=op, TILE=TILE)
    expected = ref(x.astype(np.float64)) if np.dtype(dtype).kind == "f" else ref(x)
    check(out, expected, dtype)


@asc2.jit
def operators_kernel(x_ptr, y_ptr, out_ptr, size: int, TILE: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [size])
    y_gm = asc2.global_tensor(y_ptr, [size])
    out_gm = asc2.global_tensor(out_ptr, [size])
    for t in asc2.range(asc2.block_idx(), asc2.ceildiv(size, TILE), asc2.block_num()):
        x = asc2.copy_in(x_gm, [t * TILE], [TILE])
        y = asc2.copy_in(y_gm, [t * TILE], [TILE])
        z = (x + y) * 2 - y / 4 + abs(-x) + max(x, y) - x ** 2
        asc2.copy_out(z, out_gm, [t * TILE])


def test_python_operators_and_builtins():
    x, y = inputs("float32", "any", 6), inputs("float32", "any", 7)
    out = np.zeros(N, np.float32)
    operators_kernel[CORES](x, y, out, N, TILE=TILE)
    check(out, (x + y) * 2 - y / 4 + np.abs(-x) + np.maximum(x, y) - x ** 2, "float32")


@asc2.jit
def compare_kernel(x_ptr, y_ptr, out_ptr, size: int, CMP: asc2.ConstExpr, TILE: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [size])
    y_gm = asc2.global_tensor(y_ptr, [size])
    out_gm = asc2.global_tensor(out_ptr, [size])
    for t in asc2.range(asc2.block_idx(), asc2.ceildiv(size, TILE), asc2.block_num()):
        x = asc2.copy_in(x_gm, [t * TILE], [TILE])
        y = asc2.copy_in(y_gm, [t * TILE], [TILE])
        asc2.copy_out(asc2.where(CMP(x, y), x, y), out_gm, [t * TILE])


COMPARE = {
    "less": (asc2.less, np.less), "less_equal": (asc2.less_equal, np.less_equal),
    "greater": (asc2.greater, np.greater), "greater_equal": (asc2.greater_equal, np.greater_equal),
    "equal": (asc2.equal, np.equal), "not_equal": (asc2.not_equal, np.not_equal),
}


@pytest.mark.parametrize("name", COMPARE)
@pytest.mark.parametrize("dtype", FLOATS + INTS)
def test_compare_and_where(name, dtype):
    op, ref = COMPARE[name]
    x = inputs(dtype, "any", 8)
    y = np.where(np.arange(N) % 3 == 0, x, inputs(dtype, "any", 9)).astype(dtype)  # some equal pairs
    out = np.zeros(N, dtype)
    compare_kernel[CORES](x, y, out, N, CMP=op, TILE=TILE)
    check(out, np.where(ref(x, y), x, y), dtype)


@asc2.jit
def where_scalars_kernel(x_ptr, out_ptr, size: int, TILE: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [size])
    out_gm = asc2.global_tensor(out_ptr, [size])
    for t in asc2.range(asc2.block_idx(), asc2.ceildiv(size, TILE), asc2.block_num()):
        x = asc2.copy_in(x_gm, [t * TILE], [TILE])
        inside = (x > -1.0) & (x <= 1.0)
        asc2.copy_out(asc2.where(inside, 1.0, asc2.where(x > 0, x, 0)), out_gm, [t * TILE])


def test_where_with_scalars_and_combined_masks():
    x = inputs("float32", "any", 10)
    out = np.zeros(N, np.float32)
    where_scalars_kernel[CORES](x, out, N, TILE=TILE)
    check(out, np.where((x > -1) & (x <= 1), 1.0, np.where(x > 0, x, 0)), "float32")


@pytest.mark.parametrize("xd,yd,outd", [
    ("float16", "float32", "float32"),
    ("float32", "float16", "float32"),
    ("int32", "float32", "float32"),
    ("int16", "float16", "float16"),
    ("int16", "int32", "int32"),
])
def test_dtype_promotion(xd, yd, outd):
    x, y = inputs(xd, "any", 11), inputs(yd, "any", 12)
    out = np.zeros(N, outd)
    binary_kernel[CORES](x, y, out, N, OP=asc2.add, TILE=TILE)
    check(out, x.astype(outd) + y.astype(outd), outd)


def test_int_tile_with_float_scalar_promotes_to_float32():
    x = inputs("int32", "any", 13)
    out = np.zeros(N, np.float32)
    scalar_kernel[CORES](x, out, N, asc2.ConstExpr(0.5), OP=asc2.mul, LEFT=False, TILE=TILE)
    check(out, x.astype(np.float32) * 0.5, "float32")
