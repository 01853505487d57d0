"""bfloat16 tiles against a float32 reference: element-wise ops, reductions, casts, compare/where.

The math upstream PyAsc2 takes in float16 and float32 only (div, exp, sqrt, abs, relu, ..., softmax, sums) is
refused on bfloat16 tiles with the cast that makes the kernel portable; these kernels make it (``in_float32``):
the operands cast to float32, the result cast back, one rounding, as the compiler computed them before.

numpy has no bfloat16: arrays hold the bit patterns in uint16 and go to kernels as
``asc2.reinterpret(bits, asc2.bfloat16)`` (torch bfloat16 tensors work too when torch is installed).  The reference
rounds float32 results to bfloat16 (round to nearest even on the top 16 bits), as the vector unit does once per
instruction; transcendental functions and reductions get a tolerance of a few bfloat16 ulps (2**-8 relative).
"""

import numpy as np
import pytest

import asc2
from conftest import requires_native

N = 1000
TILE = 256
CORES = 3
BF16_EPS = 2.0 ** -8


def to_bf16(x):
    """float32 -> bfloat16 bit patterns (uint16), round to nearest even; NaN stays NaN."""
    x = np.atleast_1d(np.asarray(x, np.float32))
    u = x.view(np.uint32).astype(np.uint64)
    sixteen, one = np.uint64(16), np.uint64(1)
    rounded = ((u + np.uint64(0x7FFF) + ((u >> sixteen) & one)) >> sixteen).astype(np.uint16)
    nan = np.isnan(x)
    return np.where(nan, np.uint16(0x7FC0), rounded).astype(np.uint16)


def from_bf16(bits):
    return (np.atleast_1d(np.asarray(bits, np.uint16)).astype(np.uint32) << np.uint32(16)).view(np.float32)


def round_bf16(x):
    return from_bf16(to_bf16(x))


def bf16(bits):
    return asc2.reinterpret(bits, asc2.bfloat16)


def test_reference_rounding():
    x = np.array([1.0, 1.00390625, 1.005859375, 1.0078125, -3.0, 1e-40, np.inf, 65504.0], np.float32)
    # 1 + 2**-8 is a tie between 1 and 1 + 2**-7: even (1); 1 + 1.5 * 2**-8 rounds up.
    np.testing.assert_array_equal(round_bf16(x)[:4], np.array([1.0, 1.0, 1.0078125, 1.0078125], np.float32))
    assert round_bf16(np.float32(np.inf))[0] == np.inf and round_bf16(np.float32(-3.0))[0] == -3.0
    assert np.isnan(round_bf16(np.float32(np.nan))[0])


def inputs(kind="any", seed=0, n=N):
    rng = np.random.default_rng(seed)
    if kind == "positive":
        x = rng.uniform(0.25, 4.0, n)
    elif kind == "nonzero":
        x = rng.choice([-1, 1], n) * rng.uniform(0.5, 2.0, n)
    elif kind == "small":
        x = rng.uniform(-2.0, 2.0, n)
    else:
        x = rng.standard_normal(n) * 3
    return to_bf16(x.astype(np.float32))


def assert_bf16_close(out_bits, expected, ulps=1.0, atol=0.0):
    got = from_bf16(out_bits).astype(np.float64)
    np.testing.assert_allclose(got, np.asarray(expected, np.float64), rtol=ulps * BF16_EPS, atol=atol)


@asc2.jit
def scalar_kernel(x_ptr, out_ptr, size: int, s: float, OP: asc2.ConstExpr, LEFT: asc2.ConstExpr,
                  TILE: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [size])
    out_gm = asc2.global_tensor(out_ptr, [size])
    for t in asc2.range(asc2.block_idx(), asc2.ceildiv(size, TILE), asc2.block_num()):
        x = asc2.copy_in(x_gm, [t * TILE], [TILE], pad_value=1.0)
        asc2.copy_out(OP(s, x) if LEFT else OP(x, s), out_gm, [t * TILE])


from test_language_elementwise import binary_kernel, unary_kernel  # noqa: E402  (one kernel each for every dtype)


def in_float32(op, arity=1):
    """``op`` as a kernel writes it for bfloat16 tiles: its operands cast to float32, its result back."""
    if arity == 1:
        @asc2.jit
        def wide(x):
            return asc2.cast(op(asc2.cast(x, asc2.float32)), asc2.bfloat16)
    else:
        @asc2.jit
        def wide(x, y):
            return asc2.cast(op(asc2.cast(x, asc2.float32), asc2.cast(y, asc2.float32)), asc2.bfloat16)
    return wide


# What upstream takes in float16/float32 only: refused on bfloat16, computed through in_float32 here.
FLOAT32_ONLY = {"div", "exp", "log", "sqrt", "rsqrt", "abs", "relu", "tanh", "sin"}


def assert_refused(kernel, *args, **kwargs):
    with pytest.raises(asc2.UnsupportedDtypeError, match=r"does not support the bfloat16 dtype.*cast to float32 "
                                                         r"first: asc2.cast\(x, asc2.float32\)"):
        kernel.ir(*args, **kwargs)


BINARY = {
    "add": (asc2.add, np.add, "any"),
    "sub": (asc2.sub, np.subtract, "any"),
    "mul": (asc2.mul, np.multiply, "any"),
    "div": (asc2.div, np.divide, "nonzero"),
    "maximum": (asc2.maximum, np.maximum, "any"),
    "minimum": (asc2.minimum, np.minimum, "any"),
}


@requires_native
@pytest.mark.parametrize("name", list(BINARY))
def test_binary(name):
    op, ref, ykind = BINARY[name]
    x, y = inputs("any", 1), inputs(ykind, 2)
    out = np.zeros(N, np.uint16)
    if name in FLOAT32_ONLY:
        assert_refused(binary_kernel, bf16(x), bf16(y), bf16(out), N, OP=op, TILE=TILE)
        op = in_float32(op, 2)
    binary_kernel[CORES](bf16(x), bf16(y), bf16(out), N, OP=op, TILE=TILE)
    # One rounding of the float32 result: bit-exact except for float32's own rounding.
    expected = round_bf16(ref(from_bf16(x), from_bf16(y)))
    assert_bf16_close(out, expected, ulps=0.5)


@requires_native
@pytest.mark.parametrize("name", ["add", "sub", "mul", "div", "maximum"])
@pytest.mark.parametrize("left", [False, True])
def test_binary_with_scalar(name, left):
    op, ref, _ = BINARY[name]
    x = inputs("nonzero" if left and name == "div" else "any", 3)
    s = 1.25  # exact in bfloat16
    out = np.zeros(N, np.uint16)
    if name in FLOAT32_ONLY:
        assert_refused(scalar_kernel, bf16(x), bf16(out), N, s, OP=op, LEFT=left, TILE=TILE)
        op = in_float32(op, 2)
    scalar_kernel[CORES](bf16(x), bf16(out), N, s, OP=op, LEFT=left, TILE=TILE)
    xf = from_bf16(x)
    expected = round_bf16(ref(np.float32(s), xf) if left else ref(xf, np.float32(s)))
    assert_bf16_close(out, expected, ulps=0.5)


UNARY = {
    "exp": (asc2.exp, np.exp, "small", 1.0),
    "log": (asc2.log, np.log, "positive", 1.0),
    "sqrt": (asc2.sqrt, np.sqrt, "positive", 0.5),
    "rsqrt": (asc2.rsqrt, lambda v: 1 / np.sqrt(v), "positive", 1.0),
    "abs": (asc2.abs, np.abs, "any", 0.0),
    "relu": (asc2.relu, lambda v: np.maximum(v, 0), "any", 0.0),
    "negative": (asc2.negative, np.negative, "any", 0.0),
    "tanh": (asc2.tanh, np.tanh, "small", 4.0),
    "sin": (asc2.sin, np.sin, "small", 4.0),
}


@requires_native
@pytest.mark.parametrize("name", list(UNARY))
def test_unary(name):
    op, ref, kind, ulps = UNARY[name]
    x = inputs(kind, 4)
    out = np.zeros(N, np.uint16)
    if name in FLOAT32_ONLY:
        assert_refused(unary_kernel, bf16(x), bf16(out), N, OP=op, TILE=TILE)
        op = in_float32(op)
    unary_kernel[CORES](bf16(x), bf16(out), N, OP=op, TILE=TILE)
    expected = ref(from_bf16(x).astype(np.float64))
    if ulps == 0.0:
        np.testing.assert_array_equal(from_bf16(out), round_bf16(expected.astype(np.float32)))
    else:
        assert_bf16_close(out, expected, ulps=ulps + 0.5, atol=4 * BF16_EPS * (name in ("tanh", "sin")))


@asc2.jit
def reduce_kernel(x_ptr, rows_ptr, cols_ptr, all_ptr, KIND: asc2.ConstExpr, R: asc2.ConstExpr[int],
                  C: asc2.ConstExpr[int], IN: asc2.ConstExpr = None, DIMS: asc2.ConstExpr[bool] = True,
                  TOTAL: asc2.ConstExpr[bool] = True):
    """x reduced along its rows and columns (DIMS) and to a scalar (TOTAL), computed in dtype IN (x's by
    default) and stored in x's."""
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [R, C]), [0, 0], [R, C])
    w = x if IN is None else asc2.cast(x, IN)
    if DIMS:
        asc2.copy_out(asc2.cast(KIND(w, 1), x.dtype), asc2.global_tensor(rows_ptr, [R]), [0])
        asc2.copy_out(asc2.cast(KIND(w, 0), x.dtype), asc2.global_tensor(cols_ptr, [C]), [0])
    if TOTAL:
        asc2.copy_out(KIND(w), asc2.global_tensor(all_ptr, [1]), [0])


@requires_native
@pytest.mark.parametrize("kind,ref", [(asc2.reduce_sum, np.sum), (asc2.reduce_max, np.max),
                                      (asc2.reduce_min, np.min)])
def test_reductions(kind, ref):
    r, c = 16, 64  # 16 row results: a 32-byte bfloat16 tile
    x = inputs("any", 5, r * c).reshape(r, c)
    rows, cols, total = np.zeros(r, np.uint16), np.zeros(c, np.uint16), np.zeros(1, np.uint16)
    # Sums (and maxima/minima to a scalar) take no bfloat16 tile, as upstream's: in float32, rounded once.
    assert_refused(reduce_kernel, bf16(x), bf16(rows), bf16(cols), bf16(total), KIND=kind, R=r, C=c)
    reduce_kernel[1](bf16(x), bf16(rows), bf16(cols), bf16(total), KIND=kind, R=r, C=c, IN=asc2.float32)
    xf = from_bf16(x).astype(np.float64)
    # Accumulated wide, rounded once: within half an ulp (2**-8 relative) of the exact value.
    for got, want in ((rows, ref(xf, axis=1)), (cols, ref(xf, axis=0)), (total, [ref(xf)])):
        if kind is asc2.reduce_sum:
            assert_bf16_close(got, want, ulps=1.0)
        else:
            np.testing.assert_array_equal(from_bf16(got), np.asarray(want, np.float32))


@asc2.jit
def cast_kernel(x_ptr, out_ptr, DST: asc2.ConstExpr, ROUND: asc2.ConstExpr):
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [512]), [0], [512])
    asc2.copy_out(asc2.cast(x, DST, ROUND), asc2.global_tensor(out_ptr, [512]), [0])


@requires_native
def test_cast_float32_to_bf16_rounds_to_nearest_even():
    rng = np.random.default_rng(6)
    x = (rng.standard_normal(512) * 100).astype(np.float32)
    x[:4] = [1.00390625, 1.005859375, -2.0078125 - 2 ** -8, 3.0e38]  # ties and near-overflow
    out = np.zeros(512, np.uint16)
    cast_kernel[1](x, bf16(out), DST=asc2.bfloat16, ROUND=None)
    np.testing.assert_array_equal(out, to_bf16(x))


@requires_native
@pytest.mark.parametrize("dst", ["float32", "float16", "int32"])
def test_cast_from_bf16(dst):
    x = inputs("any", 7, 512)
    out = np.zeros(512, dst)
    cast_kernel[1](bf16(x), out, DST=getattr(asc2, dst), ROUND=None)
    xf = from_bf16(x)
    if dst == "int32":
        np.testing.assert_array_equal(out, np.trunc(xf).astype(np.int32))
    else:
        np.testing.assert_array_equal(out, xf.astype(dst))  # exact, or one rounding to float16


@requires_native
def test_cast_float16_to_bf16():
    x = (np.random.default_rng(8).standard_normal(512) * 10).astype(np.float16)
    out = np.zeros(512, np.uint16)
    cast_kernel[1](x, bf16(out), DST=asc2.bfloat16, ROUND=None)
    np.testing.assert_array_equal(out, to_bf16(x.astype(np.float32)))


@asc2.jit
def select_kernel(x_ptr, y_ptr, out_ptr, m_ptr):
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [512]), [0], [512])
    y = asc2.copy_in(asc2.global_tensor(y_ptr, [512]), [0], [512])
    m = x > y
    asc2.copy_out(asc2.where(m, x * 2.0, y), asc2.global_tensor(out_ptr, [512]), [0])
    asc2.copy_out(m, asc2.global_tensor(m_ptr, [512]), [0])


@requires_native
def test_compare_and_where():
    x, y = inputs("any", 9, 512), inputs("any", 10, 512)
    out, m = np.zeros(512, np.uint16), np.zeros(512, bool)
    select_kernel[1](bf16(x), bf16(y), bf16(out), m)
    xf, yf = from_bf16(x), from_bf16(y)
    np.testing.assert_array_equal(m, xf > yf)
    np.testing.assert_array_equal(from_bf16(out), np.where(xf > yf, round_bf16(xf * 2), yf))


@asc2.jit
def mixed_kernel(x_ptr, h_ptr, out_ptr):
    """bfloat16 with float16 computes in float32 (neither holds the other)."""
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [256]), [0], [256])
    h = asc2.copy_in(asc2.global_tensor(h_ptr, [256]), [0], [256])
    asc2.copy_out(x + h, asc2.global_tensor(out_ptr, [256]), [0])


@requires_native
def test_bf16_with_f16_promotes_to_f32():
    x = inputs("any", 11, 256)
    h = np.random.default_rng(12).uniform(-4, 4, 256).astype(np.float16)
    out = np.zeros(256, np.float32)
    mixed_kernel[1](bf16(x), h, out)
    np.testing.assert_array_equal(out, from_bf16(x) + h.astype(np.float32))


@asc2.jit
def softmax_kernel(x_ptr, out_ptr, R: asc2.ConstExpr[int], C: asc2.ConstExpr[int], IN: asc2.ConstExpr = None):
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [R, C]), [0, 0], [R, C])
    w = x if IN is None else asc2.cast(x, IN)
    asc2.copy_out(asc2.cast(asc2.softmax(w), x.dtype), asc2.global_tensor(out_ptr, [R, C]), [0, 0])


@requires_native
def test_softmax():
    r, c = 4, 64
    x = inputs("small", 13, r * c).reshape(r, c)
    out = np.zeros((r, c), np.uint16)
    assert_refused(softmax_kernel, bf16(x), bf16(out), R=r, C=c)
    softmax_kernel[1](bf16(x), bf16(out), R=r, C=c, IN=asc2.float32)
    xf = from_bf16(x).astype(np.float64)
    e = np.exp(xf - xf.max(axis=1, keepdims=True))
    np.testing.assert_allclose(from_bf16(out), e / e.sum(axis=1, keepdims=True), rtol=4 * BF16_EPS, atol=1e-3)


def test_reinterpret_checks_its_arguments():
    with pytest.raises(TypeError, match="only asc2.bfloat16"):
        asc2.reinterpret(np.zeros(4, np.uint16), asc2.float16)
    with pytest.raises(TypeError, match="16-bit integer array"):
        asc2.reinterpret(np.zeros(4, np.float32), asc2.bfloat16)
    view = asc2.reinterpret(np.zeros((2, 16), np.int16), asc2.bfloat16)
    assert view.dtype == asc2.bfloat16 and view.ndim == 2


def test_bf16_argument_specialises_the_kernel():
    ir = unary_kernel.ir(bf16(np.zeros(N, np.uint16)), bf16(np.zeros(N, np.uint16)), N, OP=asc2.negative,
                         TILE=TILE)
    assert "!asctile.ptr<bf16>" in ir and "!asctile.tile<256xbf16, UB>" in ir
