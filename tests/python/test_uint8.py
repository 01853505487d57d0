"""uint8 tiles against numpy: wrap-around arithmetic, unsigned order, bitwise ops and shifts, where, casts.

uint8 arithmetic, comparisons and shifts compute in int16 (the vector unit has no unsigned 8-bit arithmetic; a
uint8 value zero-extends exactly) and the result is cast back, which wraps modulo 256 like numpy.  Scalars combined
with a uint8 tile must be in 0..255 (numpy 2 raises OverflowError for others).  Each kernel runs on N elements in
tiles of TILE (the last one partial) on several cores.
"""

import numpy as np
import pytest

import asc2
from conftest import line_of, requires_native

pytestmark = requires_native

N = 1000
TILE = 256
CORES = 3


@asc2.jit
def binary_kernel(x_ptr, y_ptr, out_ptr, size: int, OP: asc2.ConstExpr, TILE: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [size])
    y_gm = asc2.global_tensor(y_ptr, [size])
    out_gm = asc2.global_tensor(out_ptr, [size])
    for t in asc2.range(asc2.block_idx(), asc2.ceildiv(size, TILE), asc2.block_num()):
        x = asc2.copy_in(x_gm, [t * TILE], [TILE])
        y = asc2.copy_in(y_gm, [t * TILE], [TILE], pad_value=1)
        asc2.copy_out(OP(x, y), out_gm, [t * TILE])


@asc2.jit
def scalar_kernel(x_ptr, out_ptr, size: int, OP: asc2.ConstExpr, S: asc2.ConstExpr, LEFT: asc2.ConstExpr,
                  TILE: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [size])
    out_gm = asc2.global_tensor(out_ptr, [size])
    for t in asc2.range(asc2.block_idx(), asc2.ceildiv(size, TILE), asc2.block_num()):
        x = asc2.copy_in(x_gm, [t * TILE], [TILE], pad_value=1)
        asc2.copy_out(OP(S, x) if LEFT else OP(x, S), out_gm, [t * TILE])


from test_language_elementwise import unary_kernel  # noqa: E402  (one kernel for every dtype)


def u8(seed, lo=0, hi=256):
    return np.random.default_rng(seed).integers(lo, hi, N).astype(np.uint8)


# name -> (builtin, numpy reference, y range)
BINARY = {
    "add": (asc2.add, np.add, (0, 256)),
    "sub": (asc2.sub, np.subtract, (0, 256)),
    "mul": (asc2.mul, np.multiply, (0, 256)),
    "maximum": (asc2.maximum, np.maximum, (0, 256)),
    "minimum": (asc2.minimum, np.minimum, (0, 256)),
    "bitwise_and": (asc2.bitwise_and, np.bitwise_and, (0, 256)),
    "bitwise_or": (asc2.bitwise_or, np.bitwise_or, (0, 256)),
    "bitwise_xor": (asc2.bitwise_xor, np.bitwise_xor, (0, 256)),
    "left_shift": (asc2.left_shift, np.left_shift, (0, 10)),
    "right_shift": (asc2.right_shift, np.right_shift, (0, 10)),
    "floordiv": (asc2.floordiv, np.floor_divide, (1, 256)),
    "div": (asc2.div, np.floor_divide, (1, 256)),  # integer division (truncates; unsigned: floors)
}


@pytest.mark.parametrize("name", list(BINARY))
def test_binary_tile_tile(name):
    op, ref, (lo, hi) = BINARY[name]
    x, y = u8(1), u8(2, lo, hi)
    out = np.zeros(N, np.uint8)
    binary_kernel[CORES](x, y, out, N, OP=op, TILE=TILE)
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(out, ref(x, y).astype(np.uint8))


@pytest.mark.parametrize("name,s", [("add", 200), ("sub", 7), ("mul", 3), ("maximum", 128), ("minimum", 100),
                                    ("bitwise_and", 0xF0), ("bitwise_xor", 0xFF), ("right_shift", 3),
                                    ("left_shift", 5), ("floordiv", 7)])
@pytest.mark.parametrize("left", [False, True])
def test_binary_tile_scalar(name, s, left):
    op, ref, _ = BINARY[name]
    x = u8(3, 1, 256) if left and name == "floordiv" else u8(3)
    if left and "shift" in name:
        x = u8(3, 0, 8)
    out = np.zeros(N, np.uint8)
    scalar_kernel[CORES](x, out, N, OP=op, S=s, LEFT=left, TILE=TILE)
    with np.errstate(over="ignore"):
        expected = ref(np.uint8(s), x) if left else ref(x, np.uint8(s))
    np.testing.assert_array_equal(out, expected.astype(np.uint8))


CMP = {"less": np.less, "less_equal": np.less_equal, "greater": np.greater, "greater_equal": np.greater_equal,
       "equal": np.equal, "not_equal": np.not_equal}


@pytest.mark.parametrize("name", list(CMP))
def test_compare_is_unsigned(name):
    x, y = u8(4), u8(5)
    y[::7] = x[::7]  # some ties
    out = np.zeros(N, bool)
    binary_kernel[CORES](x, y, out, N, OP=getattr(asc2, name), TILE=TILE)
    np.testing.assert_array_equal(out, CMP[name](x, y))
    scalar_kernel[CORES](x, out, N, OP=getattr(asc2, name), S=200, LEFT=False, TILE=TILE)
    np.testing.assert_array_equal(out, CMP[name](x, np.uint8(200)))


@asc2.jit
def unary_ops(x_ptr, not_ptr, neg_ptr, abs_ptr, relu_ptr):
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [256]), [0], [256])
    asc2.copy_out(~x, asc2.global_tensor(not_ptr, [256]), [0])
    asc2.copy_out(-x, asc2.global_tensor(neg_ptr, [256]), [0])
    asc2.copy_out(abs(x), asc2.global_tensor(abs_ptr, [256]), [0])
    asc2.copy_out(asc2.relu(x), asc2.global_tensor(relu_ptr, [256]), [0])


def test_unary():
    x = np.arange(256, dtype=np.uint8)
    outs = [np.zeros(256, np.uint8) for _ in range(4)]
    unary_ops[1](x, *outs)
    np.testing.assert_array_equal(outs[0], ~x)
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(outs[1], (-x.astype(np.int16)).astype(np.uint8))
    np.testing.assert_array_equal(outs[2], x)
    np.testing.assert_array_equal(outs[3], x)


@asc2.jit
def where_kernel(x_ptr, y_ptr, a_ptr, b_ptr):
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [256]), [0], [256])
    y = asc2.copy_in(asc2.global_tensor(y_ptr, [256]), [0], [256])
    asc2.copy_out(asc2.where(x > y, x, y), asc2.global_tensor(a_ptr, [256]), [0])
    asc2.copy_out(asc2.where(x >= 128, 255, x), asc2.global_tensor(b_ptr, [256]), [0])


def test_where():
    x, y = u8(6)[:256], u8(7)[:256]
    a, b = np.zeros(256, np.uint8), np.zeros(256, np.uint8)
    where_kernel[1](x, y, a, b)
    np.testing.assert_array_equal(a, np.maximum(x, y))
    np.testing.assert_array_equal(b, np.where(x >= 128, 255, x).astype(np.uint8))


@asc2.jit
def cast_kernel(x_ptr, out_ptr, DST: asc2.ConstExpr, ROUND: asc2.ConstExpr):
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [512]), [0], [512])
    asc2.copy_out(asc2.cast(x, DST, ROUND), asc2.global_tensor(out_ptr, [512]), [0])


@pytest.mark.parametrize("dst", ["float16", "float32", "int16", "int32"])
def test_cast_from_uint8(dst):
    x = np.random.default_rng(8).integers(0, 256, 512).astype(np.uint8)
    out = np.zeros(512, dst)
    cast_kernel[1](x, out, DST=getattr(asc2, dst), ROUND=None)
    np.testing.assert_array_equal(out, x.astype(dst))


@pytest.mark.parametrize("src,rnd", [("float16", None), ("float32", None), ("float32", "rint"), ("int16", None)])
def test_cast_to_uint8(src, rnd):
    rng = np.random.default_rng(9)
    if src == "int16":
        x = rng.integers(-1000, 1000, 512).astype(np.int16)  # wraps modulo 256 like numpy's astype
        expected = x.astype(np.uint8)
    else:
        x = rng.uniform(0, 255.4, 512).astype(src)
        expected = (np.rint(x) if rnd == "rint" else np.trunc(x)).astype(np.uint8)
    out = np.zeros(512, np.uint8)
    cast_kernel[1](x, out, DST=asc2.uint8, ROUND=rnd)
    np.testing.assert_array_equal(out, expected)


@asc2.jit
def mixed_kernel(x_ptr, h_ptr, out_ptr, b_ptr):
    """Promotion: uint8 with float16 computes in float16; uint8 with int8 in int16; uint8 -> bool."""
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [256]), [0], [256])
    h = asc2.copy_in(asc2.global_tensor(h_ptr, [256]), [0], [256])
    asc2.copy_out(x * h, asc2.global_tensor(out_ptr, [256]), [0])
    asc2.copy_out(x.to(asc2.bool), asc2.global_tensor(b_ptr, [256]), [0])


def test_promotion_and_bool():
    x = np.arange(256, dtype=np.uint8)
    h = np.random.default_rng(10).uniform(-2, 2, 256).astype(np.float16)
    out, b = np.zeros(256, np.float16), np.zeros(256, bool)
    mixed_kernel[1](x, h, out, b)
    np.testing.assert_allclose(out.astype(np.float32), (x.astype(np.float16) * h).astype(np.float32), rtol=2e-3)
    np.testing.assert_array_equal(b, x != 0)


@asc2.jit
def k_bad(x_ptr, WHICH: asc2.ConstExpr[int]):
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [256]), [0], [256])
    y = x
    if WHICH == 0:
        y = x + 300  # ERR0
    elif WHICH == 1:
        y = x * 1.5  # ERR1
    elif WHICH == 2:
        y = asc2.exp(x)  # ERR2
    elif WHICH == 3:
        y = x < -1  # ERR3
    asc2.copy_out(y, asc2.global_tensor(x_ptr, [256]), [0])


@pytest.mark.parametrize("which,cls,message", [
    (0, asc2.CompilationValueError, "'add': scalar 300 is outside the uint8 range 0..255"),
    (2, asc2.CompilationTypeError, "asc2.exp is not supported on uint8 tiles (only float tiles)"),
    (3, asc2.CompilationValueError, "'lt': scalar -1 is outside the uint8 range 0..255"),
])
def test_errors(which, cls, message):
    with pytest.raises(cls) as info:
        k_bad.ir(np.zeros(256, np.uint8), WHICH=which)
    assert info.value.message == message
    assert info.value.line == line_of(k_bad, f"# ERR{which}")


def test_float_scalar_promotes_to_float32():
    # A float scalar with an integer tile computes in float32 (as for int tiles); then the uint8 copy_out is a
    # dtype error at that line.
    with pytest.raises(asc2.CompilationTypeError) as info:
        k_bad.ir(np.zeros(256, np.uint8), WHICH=1)
    assert "float32 tile into a uint8 tensor" in info.value.message
