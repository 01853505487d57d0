"""``with asc2.mask(count=n | bits=(hi, lo), other=v):`` against numpy.

Semantics (docs/passes.md, asc2.mask's docstring): every element-wise op in the block computes only the
selected elements of its result; the others are ``other`` (default 0).  ``count``: the first n elements in
row-major order (Ascend C counter mode).  ``bits``: element i is selected when bit (i mod L) of the 128-bit mask
hi:lo is set, L = 128 lanes for 16-bit and 64 for 32-bit computations (one 256-byte repeat; for 32-bit types
``hi`` must be 0).
"""

import math

import numpy as np
import pytest

import asc2
from conftest import line_of, on_a_platform_with_integer_division, requires_native

N = 512
FLOATS = ("float32", "float16")
LO = 0xF0F0_0FF0_8001_7FFE
HI = 0x0123_4567_89AB_CDEF


def lanes_of(dtype):
    return 128 if np.dtype(dtype).itemsize == 2 else 64


def bit_selection(n, lanes, hi, lo):
    lane = np.arange(n) % lanes
    return np.array([((lo >> int(l)) if l < 64 else (hi >> int(l - 64))) & 1 for l in lane], bool)


def count_selection(n, count):
    return np.arange(n) < count


def inputs(dtype, kind="any", seed=0):
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind == "f":
        if kind == "positive":
            return rng.uniform(0.5, 3.0, N).astype(dtype)
        if kind == "nonzero":
            return (rng.choice([-1, 1], N) * rng.uniform(0.5, 2.0, N)).astype(dtype)
        return (rng.standard_normal(N) * 2).astype(dtype)
    if kind == "nonzero":
        return (rng.choice([-1, 1], N) * rng.integers(1, 20, N)).astype(dtype)
    if kind == "shift":
        return rng.integers(0, 8, N).astype(dtype)
    return rng.integers(-100, 100, N).astype(dtype)


def check(out, expected, dtype):
    if np.dtype(dtype).kind == "f":
        tol = 1e-5 if np.dtype(dtype) == np.float32 else 2e-3
        np.testing.assert_allclose(out.astype(np.float64), expected.astype(np.float64), rtol=tol, atol=tol)
    else:
        np.testing.assert_array_equal(out, expected.astype(out.dtype))


# ---------------------------------------------------------------------------
# Kernels: one tile of N elements; the op is a compile-time parameter.


@asc2.jit
def binary_count(x_ptr, y_ptr, out_ptr, n: int, OP: asc2.ConstExpr, OTHER: asc2.ConstExpr):
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [512]), [0], [512])
    y = asc2.copy_in(asc2.global_tensor(y_ptr, [512]), [0], [512])
    with asc2.mask(count=n, other=OTHER):
        z = OP(x, y)
    asc2.copy_out(z, asc2.global_tensor(out_ptr, [512]), [0])


@asc2.jit
def binary_bits(x_ptr, y_ptr, out_ptr, OP: asc2.ConstExpr, HI: asc2.ConstExpr, LO: asc2.ConstExpr,
                OTHER: asc2.ConstExpr):
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [512]), [0], [512])
    y = asc2.copy_in(asc2.global_tensor(y_ptr, [512]), [0], [512])
    with asc2.mask(bits=(HI, LO), other=OTHER):
        z = OP(x, y)
    asc2.copy_out(z, asc2.global_tensor(out_ptr, [512]), [0])


@asc2.jit
def unary_count(x_ptr, out_ptr, n: int, OP: asc2.ConstExpr):
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [512]), [0], [512])
    with asc2.mask(count=n, other=-3):
        z = OP(x)
    asc2.copy_out(z, asc2.global_tensor(out_ptr, [512]), [0])


@asc2.jit
def unary_bits(x_ptr, out_ptr, OP: asc2.ConstExpr, HI: asc2.ConstExpr, LO: asc2.ConstExpr):
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [512]), [0], [512])
    with asc2.mask(bits=(HI, LO), other=-3):
        z = OP(x)
    asc2.copy_out(z, asc2.global_tensor(out_ptr, [512]), [0])


def c_div(x, y):
    return np.trunc(x.astype(np.float64) / y).astype(x.dtype)


# name -> (builtin, numpy reference, dtypes, (x kind, y kind))
BINARY = {
    "add": (asc2.add, np.add, FLOATS + ("int32", "int16"), ("any", "any")),
    "sub": (asc2.sub, np.subtract, FLOATS + ("int32", "int16"), ("any", "any")),
    "mul": (asc2.mul, np.multiply, FLOATS + ("int32", "int16"), ("any", "any")),
    "div": (asc2.div, lambda x, y: x / y if x.dtype.kind == "f" else c_div(x, y), FLOATS + ("int32",),
            ("any", "nonzero")),
    "maximum": (asc2.maximum, np.maximum, FLOATS + ("int32", "int16"), ("any", "any")),
    "minimum": (asc2.minimum, np.minimum, FLOATS + ("int32", "int16"), ("any", "any")),
    "bitwise_and": (asc2.bitwise_and, np.bitwise_and, ("int32", "int16"), ("any", "any")),
    "bitwise_xor": (asc2.bitwise_xor, np.bitwise_xor, ("int32", "int16"), ("any", "any")),
    "left_shift": (asc2.left_shift, np.left_shift, ("int32", "int16"), ("any", "shift")),
}


@requires_native
@pytest.mark.parametrize("name,dtype", [(n, d) for n, (_, _, dts, _) in BINARY.items() for d in dts])
@pytest.mark.parametrize("count", [0, 100, 512, 1000])
def test_binary_count(name, dtype, count):
    op, ref, _, (kx, ky) = BINARY[name]
    on_a_platform_with_integer_division(name, dtype)
    x, y = inputs(dtype, kx, 1), inputs(dtype, ky, 2)
    other = -1.5 if np.dtype(dtype).kind == "f" else -7
    out = np.zeros(N, dtype)
    binary_count[1](x, y, out, count, OP=op, OTHER=other)
    check(out, np.where(count_selection(N, count), ref(x, y), other), dtype)


@requires_native
@pytest.mark.parametrize("name,dtype", [(n, d) for n, (_, _, dts, _) in BINARY.items() for d in dts])
def test_binary_bits(name, dtype):
    op, ref, _, (kx, ky) = BINARY[name]
    on_a_platform_with_integer_division(name, dtype)
    x, y = inputs(dtype, kx, 3), inputs(dtype, ky, 4)
    hi = HI if lanes_of(dtype) == 128 else 0
    other = 2.25 if np.dtype(dtype).kind == "f" else 9
    out = np.zeros(N, dtype)
    binary_bits[1](x, y, out, OP=op, HI=hi, LO=LO, OTHER=other)
    check(out, np.where(bit_selection(N, lanes_of(dtype), hi, LO), ref(x, y), other), dtype)


# Tile-scalar forms (Adds, Muls, ...), scalar on either side: inlined @asc2.jit helpers.
@asc2.jit
def plus_const(x, y):
    return x + 1.5


@asc2.jit
def const_times(x, y):
    return 2.0 * x


@asc2.jit
def const_minus(x, y):
    return 1.0 - x


@asc2.jit
def max_const(x, y):
    return asc2.maximum(x, 0.5)


@asc2.jit
def div_const(x, y):
    return x / 4.0


SCALAR_FORMS = {
    "x + 1.5": (plus_const, lambda x, y: x + np.float32(1.5)),
    "2 * x": (const_times, lambda x, y: 2 * x),
    "1 - x": (const_minus, lambda x, y: 1 - x),
    "max(x, 0.5)": (max_const, lambda x, y: np.maximum(x, np.float32(0.5))),
    "x / 4": (div_const, lambda x, y: x / 4),
}


@requires_native
@pytest.mark.parametrize("form", list(SCALAR_FORMS))
@pytest.mark.parametrize("dtype", FLOATS)
def test_scalar_forms_under_both_masks(form, dtype):
    op, ref = SCALAR_FORMS[form]
    x, y = inputs(dtype, "any", 5), inputs(dtype, "any", 6)
    expected = ref(x, y).astype(dtype)
    out = np.zeros(N, dtype)
    binary_count[1](x, y, out, 300, OP=op, OTHER=0.0)
    check(out, np.where(count_selection(N, 300), expected, 0), dtype)
    hi = HI if lanes_of(dtype) == 128 else 0
    binary_bits[1](x, y, out, OP=op, HI=hi, LO=LO, OTHER=0.0)
    check(out, np.where(bit_selection(N, lanes_of(dtype), hi, LO), expected, 0), dtype)


# Unary ops, including ones the compiler expands into several vector ops (tanh, sin, floor).
UNARY = {
    "exp": (asc2.exp, np.exp, "any"),
    "log": (asc2.log, np.log, "positive"),
    "sqrt": (asc2.sqrt, np.sqrt, "positive"),
    "rsqrt": (asc2.rsqrt, lambda v: 1 / np.sqrt(v), "positive"),
    "abs": (asc2.abs, np.abs, "any"),
    "relu": (asc2.relu, lambda v: np.maximum(v, 0), "any"),
    "negative": (asc2.negative, np.negative, "any"),
    "tanh": (asc2.tanh, np.tanh, "any"),
    "sin": (asc2.sin, np.sin, "any"),
    "floor": (asc2.floor, np.floor, "any"),
}


@requires_native
@pytest.mark.parametrize("name", list(UNARY))
@pytest.mark.parametrize("dtype", FLOATS)
def test_unary_under_both_masks(name, dtype):
    op, ref, kind = UNARY[name]
    x = inputs(dtype, kind, 7)
    expected = ref(x.astype(np.float32)).astype(dtype)
    tol = {"tanh": 2e-3, "sin": 2e-3}.get(name)
    out = np.zeros(N, dtype)
    unary_count[1](x, out, 77, OP=op)
    got_c = np.where(count_selection(N, 77), expected, -3)
    hi = HI if lanes_of(dtype) == 128 else 0
    out_b = np.zeros(N, dtype)
    unary_bits[1](x, out_b, OP=op, HI=hi, LO=LO)
    got_b = np.where(bit_selection(N, lanes_of(dtype), hi, LO), expected, -3)
    for got, want in ((out, got_c), (out_b, got_b)):
        if tol:
            np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64), rtol=tol, atol=tol)
        else:
            check(got, want, dtype)


@requires_native
@pytest.mark.parametrize("dtype", ("int32", "int16"))
def test_integer_unary_under_both_masks(dtype):
    x = inputs(dtype, "any", 8)
    out = np.zeros(N, dtype)
    unary_count[1](x, out, 200, OP=asc2.abs)
    check(out, np.where(count_selection(N, 200), np.abs(x), -3), dtype)
    hi = HI if lanes_of(dtype) == 128 else 0
    unary_bits[1](x, out, OP=asc2.bitwise_not, HI=hi, LO=LO)
    check(out, np.where(bit_selection(N, lanes_of(dtype), hi, LO), ~x, -3), dtype)


# Comparisons (bool results), where, casts.


@asc2.jit
def compare_where(x_ptr, y_ptr, m_ptr, s_ptr, n: int, BITS: asc2.ConstExpr):
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [512]), [0], [512])
    y = asc2.copy_in(asc2.global_tensor(y_ptr, [512]), [0], [512])
    if BITS is None:
        with asc2.mask(count=n, other=True):
            m = x < y
            s = asc2.where(x > y, x, y)
    else:
        with asc2.mask(bits=BITS):
            m = x < y
            s = asc2.where(x > y, x, y)
    asc2.copy_out(m, asc2.global_tensor(m_ptr, [512]), [0])
    asc2.copy_out(s, asc2.global_tensor(s_ptr, [512]), [0])


@requires_native
@pytest.mark.parametrize("dtype", FLOATS + ("int32",))
def test_compare_and_where(dtype):
    x, y = inputs(dtype, "any", 9), inputs(dtype, "any", 10)
    m, s = np.zeros(N, bool), np.zeros(N, dtype)
    compare_where[1](x, y, m, s, 123, BITS=None)
    sel = count_selection(N, 123)
    np.testing.assert_array_equal(m, np.where(sel, x < y, True))
    check(s, np.where(sel, np.maximum(x, y), 1), dtype)  # other=True is 1 in a numeric result
    hi = HI if lanes_of(dtype) == 128 else 0
    compare_where[1](x, y, m, s, 0, BITS=(hi, LO))
    sel = bit_selection(N, lanes_of(dtype), hi, LO)
    np.testing.assert_array_equal(m, np.where(sel, x < y, False))
    check(s, np.where(sel, np.maximum(x, y), 0), dtype)


@asc2.jit
def cast_masked(x_ptr, out_ptr, n: int, DST: asc2.ConstExpr, BITS: asc2.ConstExpr):
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [512]), [0], [512])
    if BITS is None:
        with asc2.mask(count=n, other=5):
            y = x.to(DST)
    else:
        with asc2.mask(bits=BITS, other=5):
            y = x.to(DST)
    asc2.copy_out(y, asc2.global_tensor(out_ptr, [512]), [0])


@requires_native
@pytest.mark.parametrize("src,dst", [("float32", "float16"), ("float16", "float32"), ("float32", "int32"),
                                     ("int16", "float16")])
def test_cast(src, dst):
    x = inputs(src, "any", 11)
    out = np.zeros(N, dst)
    cast_masked[1](x, out, 250, DST=getattr(asc2, dst), BITS=None)
    expected = x.astype(np.float64).astype(dst) if np.dtype(dst).kind == "f" else np.trunc(x).astype(dst)
    check(out, np.where(count_selection(N, 250), expected, 5), dst)
    lanes = 256 // max(np.dtype(src).itemsize, np.dtype(dst).itemsize)  # the wider type's repeat
    hi = HI if lanes == 128 else 0
    cast_masked[1](x, out, 0, DST=getattr(asc2, dst), BITS=(hi, LO))
    check(out, np.where(bit_selection(N, lanes, hi, LO), expected, 5), dst)


# ---------------------------------------------------------------------------
# Realistic uses: a runtime count per tile, runtime bits, expressions, loops, other as a runtime scalar.


@asc2.jit
def masked_tail(x_ptr, out_ptr, size: int, other: float, TILE: asc2.ConstExpr[int]):
    """Each block computes only the part of its tile inside the tensor; the rest of the tile is `other`."""
    x_gm = asc2.global_tensor(x_ptr, [size])
    out_gm = asc2.global_tensor(out_ptr, [asc2.ceildiv(size, TILE) * TILE])
    for t in asc2.range(asc2.block_idx(), asc2.ceildiv(size, TILE), asc2.block_num()):
        x = asc2.copy_in(x_gm, [t * TILE], [TILE])
        with asc2.mask(count=size - t * TILE, other=other):
            y = asc2.exp(x * 0.5) + x * x
        asc2.copy_out(y, out_gm, [t * TILE])


@requires_native
@pytest.mark.parametrize("dtype", FLOATS)
def test_runtime_count_per_tile(dtype):
    size, tile = 1000, 256
    x = np.random.default_rng(12).uniform(-1, 1, size).astype(dtype)
    padded = math.ceil(size / tile) * tile
    out = np.full(padded, 99, dtype)
    masked_tail[3](x, out, size, -2.0, TILE=tile)
    xf = x.astype(np.float32)
    expected = np.full(padded, -2.0, np.float32)
    expected[:size] = np.exp(xf * 0.5) + xf * xf
    check(out, expected.astype(dtype), dtype)
    source = masked_tail.last_report["ascendc"]
    assert "SetMaskCount()" in source and "AscendC::MaskMode::COUNTER" in source and "ResetMask()" in source


@asc2.jit
def runtime_bits(x_ptr, out_ptr, hi: int, lo: int):
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [512]), [0], [512])
    with asc2.mask(bits=(hi, lo), other=1.0):
        y = x * 3.0 - 1.0
    asc2.copy_out(y, asc2.global_tensor(out_ptr, [512]), [0])


@requires_native
def test_runtime_bits_f16():
    x = inputs("float16", "any", 13)
    out = np.zeros(N, np.float16)
    hi, lo = 0x7FFF_0000_FFFF_0001, 0x0000_FFFF_0000_FFFF  # positive: fit a Python int argument as int64
    runtime_bits[1](x, out, hi, lo)
    expected = (x * np.float16(3) - np.float16(1)).astype(np.float16)
    check(out, np.where(bit_selection(N, 128, hi, lo), expected, 1.0), "float16")
    source = runtime_bits.last_report["ascendc"]
    assert "SetVectorMask<half, AscendC::MaskMode::NORMAL>" in source and "MASK_PLACEHOLDER" in source


@asc2.jit
def shared_op(x_ptr, a_ptr, b_ptr, n: int):
    """The same expression outside and inside the mask: CSE shares the op, the mask then applies afterwards."""
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [512]), [0], [512])
    a = x + 1.0
    with asc2.mask(count=n, other=-1.0):
        b = x + 1.0
    asc2.copy_out(a, asc2.global_tensor(a_ptr, [512]), [0])
    asc2.copy_out(b, asc2.global_tensor(b_ptr, [512]), [0])


@requires_native
def test_mask_of_a_shared_op():
    x = inputs("float32", "any", 14)
    a, b = np.zeros(N, np.float32), np.zeros(N, np.float32)
    shared_op[1](x, a, b, 333)
    check(a, x + 1, "float32")
    check(b, np.where(count_selection(N, 333), x + 1, -1), "float32")


@asc2.jit
def mask_2d(x_ptr, out_ptr, n: int):
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [4, 64]), [0, 0], [4, 64])
    with asc2.mask(count=n):
        y = x * 2.0
    asc2.copy_out(y, asc2.global_tensor(out_ptr, [4, 64]), [0, 0])


@requires_native
def test_count_is_row_major_over_2d_tiles():
    x = np.random.default_rng(15).standard_normal((4, 64)).astype(np.float32)
    out = np.zeros((4, 64), np.float32)
    mask_2d[1](x, out, 100)
    expected = np.where((np.arange(256) < 100).reshape(4, 64), x * 2, 0)
    check(out, expected, "float32")


@asc2.jit
def helper_scale(x):
    return x * 4.0


@asc2.jit
def mask_around_helper_and_loop(x_ptr, out_ptr, n: int):
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [512]), [0], [512])
    acc = asc2.zeros([512], asc2.float32)
    with asc2.mask(count=n):
        for i in range(2):
            acc = acc + helper_scale(x)
    asc2.copy_out(acc, asc2.global_tensor(out_ptr, [512]), [0])


@requires_native
def test_mask_reaches_helpers_and_loop_bodies():
    x = inputs("float32", "any", 16)
    out = np.zeros(N, np.float32)
    mask_around_helper_and_loop[1](x, out, 260)
    check(out, np.where(count_selection(N, 260), 8 * x, 0), "float32")


# ---------------------------------------------------------------------------
# Errors: message, class and line.


@asc2.jit
def k_errors(x_ptr, f: float, WHICH: asc2.ConstExpr[int]):
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [512]), [0], [512])
    y = x
    if WHICH == 0:
        with asc2.mask(count=2.5):  # ERR0
            y = x + 1.0
    elif WHICH == 1:
        with asc2.mask(count=f):  # ERR1
            y = x + 1.0
    elif WHICH == 2:
        with asc2.mask(bits=(1, 2, 3)):  # ERR2
            y = x + 1.0
    elif WHICH == 3:
        with asc2.mask(bits=5):  # ERR3
            y = x + 1.0
    elif WHICH == 4:
        with asc2.mask(bits=(1.0, 2)):  # ERR4
            y = x + 1.0
    elif WHICH == 5:
        with asc2.mask():  # ERR5
            y = x + 1.0
    elif WHICH == 6:
        with asc2.mask(count=3, bits=(0, 1)):  # ERR6
            y = x + 1.0
    elif WHICH == 7:
        with asc2.mask(count=3, other=x):  # ERR7
            y = x + 1.0
    elif WHICH == 8:
        with asc2.mask(bits=(1, 1)):
            y = x + 1.0  # ERR8
    elif WHICH == 9:
        with asc2.mask(count=4):
            with asc2.mask(count=2):  # ERR9
                y = x + 1.0
    elif WHICH == 10:
        with asc2.mask(count=4):
            y = asc2.reduce_max(x)  # ERR10
    elif WHICH == 11:
        with asc2.mask(count=4) as m:  # ERR11
            y = x + 1.0
    elif WHICH == 12:
        m = asc2.mask(count=4)  # ERR12
    elif WHICH == 13:
        with asc2.mask(bits=(0, 1)):
            y = (x > 0.0) & (x < 1.0)  # ERR13
    elif WHICH == 14:
        with asc2.mask(bits=(0, 1 << 64)):  # ERR14
            y = x + 1.0
    elif WHICH == 15:
        with asc2.mask(count=1):
            y = asc2.transpose(x.reshape(16, 32))  # ERR15
    elif WHICH == 16:
        with asc2.mask(count=1, other=0.5):
            y = x.to(asc2.int32) + 1  # ERR16
    asc2.copy_out(y, asc2.global_tensor(x_ptr, [512]), [0])


MASK_ERRORS = [
    (0, asc2.CompilationTypeError, "asc2.mask: count must be an integer, got float 2.5"),
    (1, asc2.CompilationTypeError, "asc2.mask: count must be an integer, got runtime float32 scalar"),
    (2, asc2.CompilationValueError, "asc2.mask: bits must have 2 values, a pair (high, low) of 64-bit lane masks; got "
                                    "3 value(s)"),
    (3, asc2.CompilationTypeError, "asc2.mask: bits must be a pair (high, low) of 64-bit lane masks, got int 5"),
    (4, asc2.CompilationTypeError, "asc2.mask: bits must be a pair of integers (high, low), got float 1.0 as high"),
    (5, asc2.CompilationValueError, "asc2.mask: one of count= or bits= must be provided (count=n: the first n "
                                    "elements; bits=(high, low): a 128-bit lane mask)"),
    (6, asc2.CompilationValueError, "asc2.mask takes one of count= or bits=, not both"),
    (7, asc2.CompilationTypeError, "asc2.mask: other must be a scalar (the value of the lanes the mask leaves out), "
                                   "got tile [512] float32 in UB"),
    (8, asc2.CompilationValueError, "asc2.mask: the high bits 0x1 select lanes 64..127, but a float32 repeat has 64 "
                                    "lanes; pass 0 as high"),
    (9, asc2.UnsupportedError, "nested 'with asc2.mask(...)' blocks are not supported"),
    (10, asc2.UnsupportedError, "asc2.reduce_max inside 'with asc2.mask(...)' is not supported: the mask limits "
                                "element-wise ops; compute it outside the block"),
    (11, asc2.UnsupportedError, "'with asc2.mask(...) as name' is not supported: the mask has no value"),
    (12, asc2.UnsupportedError, "asc2.mask(...) is a context manager: write 'with asc2.mask(count=n):' around the "
                                "element-wise ops it limits"),
    (13, asc2.UnsupportedError, "asc2.mask(bits=...) selects lanes of 16- or 32-bit elements (128 or 64 per 256-byte "
                                "repeat); this op computes on bool"),
    (14, asc2.CompilationValueError, "asc2.mask: the low bits 0x10000000000000000 do not fit in 64 bits"),
    (15, asc2.UnsupportedError, "asc2.transpose inside 'with asc2.mask(...)' is not supported"),
    (16, asc2.CompilationTypeError, "asc2.mask: other=float 0.5 for an int32 result; use an integer"),
]


@pytest.mark.parametrize("which,cls,message", MASK_ERRORS)
def test_mask_errors(which, cls, message):
    with pytest.raises(cls) as info:
        k_errors.ir(np.zeros(512, np.float32), 1.5, WHICH=which)
    err = info.value
    assert message in err.message
    assert err.file == k_errors.source.file
    assert err.line == line_of(k_errors, f"# ERR{which}"), str(err)
    assert "^" in str(err).splitlines()[-1]


@asc2.jit
def k_ok_forms(x_ptr, n: int):
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [512]), [0], [512])
    h = x.to(asc2.float16)
    with asc2.mask(count=asc2.ConstExpr(8)):
        y = x + 1.0
    with asc2.mask(bits=[0xFFFF_FFFF_FFFF_FFFF, -1], other=n):  # unsigned or two's complement halves
        z = h * 2.0
    with asc2.mask(bits=(0, 3)):
        w = h.to(asc2.float32)  # a cast: lanes of the wider type
    with asc2.mask(count=n):
        asc2.copy_out(y, asc2.global_tensor(x_ptr, [512]), [0])  # copies are not masked


def test_accepted_forms_produce_mask_ops():
    ir = k_ok_forms.ir(np.zeros(512, np.float32), 3)
    assert ir.count("asctile.mask") == 3
    assert ir.count("{lanes = 128 : i64}") == 1 and ir.count("{lanes = 64 : i64}") == 1
