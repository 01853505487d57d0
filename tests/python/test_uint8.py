"""uint8 tiles and scalars against numpy: wrap-around arithmetic, unsigned order, bitwise ops and shifts, where,
casts, scalar loads/stores, reductions used as scalars.

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
def scalar_kernel(x_ptr, out_ptr, size: int, OP: asc2.ConstExpr, S: asc2.ConstExpr, LEFT: asc2.ConstExpr,
                  TILE: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [size])
    out_gm = asc2.global_tensor(out_ptr, [size])
    for t in asc2.range(asc2.block_idx(), asc2.ceildiv(size, TILE), asc2.block_num()):
        x = asc2.copy_in(x_gm, [t * TILE], [TILE], pad_value=1)
        asc2.copy_out(OP(S, x) if LEFT else OP(x, S), out_gm, [t * TILE])


from test_language_elementwise import binary_kernel, unary_kernel  # noqa: E402  (one kernel each for every dtype)


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
    (2, asc2.CompilationTypeError, "asc2.exp does not support the uint8 dtype (only float tiles)"),
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


# ---------------------------------------------------------------------------
# uint8 scalars: carried zero-extended in an i32, wrapped modulo 256 where numpy's uint8 wraps, stored as one byte.

PAIRS_A = np.array([250, 3, 255, 16, 0, 128, 200, 7, 99, 1, 255, 64], np.uint8)
PAIRS_B = np.array([10, 5, 255, 17, 1, 128, 100, 3, 7, 255, 1, 4], np.uint8)


@asc2.jit
def scalar_scalar_kernel(a_ptr, b_ptr, out_ptr, n: asc2.ConstExpr[int], OP: asc2.ConstExpr, C: asc2.ConstExpr,
                         LEFT: asc2.ConstExpr):
    a_gm = asc2.global_tensor(a_ptr, [n])
    b_gm = asc2.global_tensor(b_ptr, [n])
    out_gm = asc2.global_tensor(out_ptr, [n])
    for i in range(n):
        a = asc2.copy_in(a_gm, [i])
        b = asc2.copy_in(b_gm, [i]) if C is None else C
        asc2.copy_out(OP(b, a) if LEFT else OP(a, b), out_gm, [i])


SCALAR_OPS = {
    "add": (asc2.add, np.add), "sub": (asc2.sub, np.subtract), "mul": (asc2.mul, np.multiply),
    "floordiv": (asc2.floordiv, np.floor_divide), "maximum": (asc2.maximum, np.maximum),
    "minimum": (asc2.minimum, np.minimum), "bitwise_and": (asc2.bitwise_and, np.bitwise_and),
    "bitwise_or": (asc2.bitwise_or, np.bitwise_or), "bitwise_xor": (asc2.bitwise_xor, np.bitwise_xor),
}
SHIFT_OPS = {"left_shift": (asc2.left_shift, np.left_shift), "right_shift": (asc2.right_shift, np.right_shift)}


@pytest.mark.parametrize("name", list(SCALAR_OPS))
def test_scalar_scalar(name):
    op, ref = SCALAR_OPS[name]
    n = len(PAIRS_A)
    out = np.zeros(n, np.uint8)
    scalar_scalar_kernel[1](PAIRS_A, PAIRS_B, out, n, OP=op, C=None, LEFT=False)
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(out, ref(PAIRS_A, PAIRS_B))  # 250 + 10 = 4, 3 - 5 = 254, 16 * 17 = 16


@pytest.mark.parametrize("name,c", [("add", 10), ("sub", 5), ("mul", 3), ("floordiv", 7), ("maximum", 100),
                                    ("minimum", 100), ("bitwise_xor", 0xFF), ("left_shift", 3),
                                    ("right_shift", 2)])
@pytest.mark.parametrize("left", [False, True])
def test_scalar_python_int(name, c, left):
    op, ref = {**SCALAR_OPS, **SHIFT_OPS}[name]
    a = PAIRS_A if not (left and name == "floordiv") else np.maximum(PAIRS_A, 1)
    if left and "shift" in name:
        a = PAIRS_A % 8
    n = len(a)
    out = np.zeros(n, np.uint8)
    scalar_scalar_kernel[1](a, PAIRS_B, out, n, OP=op, C=c, LEFT=left)
    with np.errstate(over="ignore"):
        expected = ref(np.uint8(c), a) if left else ref(a, np.uint8(c))
    np.testing.assert_array_equal(out, expected.astype(np.uint8))


@asc2.jit
def tile_scalar_kernel(x_ptr, s_ptr, out_ptr, size: int, OP: asc2.ConstExpr, LEFT: asc2.ConstExpr,
                       TILE: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [size])
    out_gm = asc2.global_tensor(out_ptr, [size])
    s = asc2.copy_in(asc2.global_tensor(s_ptr, [4]), [2])  # a run-time uint8 scalar
    for t in asc2.range(asc2.block_idx(), asc2.ceildiv(size, TILE), asc2.block_num()):
        x = asc2.copy_in(x_gm, [t * TILE], [TILE], pad_value=1)
        asc2.copy_out(OP(s, x) if LEFT else OP(x, s), out_gm, [t * TILE])


@pytest.mark.parametrize("name", ["add", "sub", "mul", "floordiv", "maximum", "minimum"])
@pytest.mark.parametrize("left", [False, True])
def test_tile_runtime_scalar(name, left):
    op, ref = SCALAR_OPS[name]
    x = u8(11, 1, 256)
    s = np.array([9, 8, 201, 7], np.uint8)
    out = np.zeros(N, np.uint8)
    tile_scalar_kernel[CORES](x, s, out, N, OP=op, LEFT=left, TILE=TILE)
    with np.errstate(over="ignore"):
        expected = ref(s[2], x) if left else ref(x, s[2])
    assert expected.dtype == np.uint8
    np.testing.assert_array_equal(out, expected)


@pytest.mark.parametrize("name", list(CMP))
@pytest.mark.parametrize("left", [False, True])
def test_compare_with_runtime_scalar(name, left):
    x = u8(12)
    x[::5] = 201  # ties with the scalar
    s = np.array([9, 8, 201, 7], np.uint8)
    out = np.zeros(N, bool)
    tile_scalar_kernel[CORES](x, s, out, N, OP=getattr(asc2, name), LEFT=left, TILE=TILE)
    np.testing.assert_array_equal(out, CMP[name](s[2], x) if left else CMP[name](x, s[2]))


@asc2.jit
def where_full_kernel(x_ptr, s_ptr, a_ptr, b_ptr):
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [256]), [0], [256])
    s = asc2.copy_in(asc2.global_tensor(s_ptr, [1]), [0])
    asc2.copy_out(asc2.where(x > s, s, x), asc2.global_tensor(a_ptr, [256]), [0])  # min(x, s)
    asc2.copy_out(asc2.full([256], s) ^ x, asc2.global_tensor(b_ptr, [256]), [0])  # a uint8 tile of s


def test_where_and_full_with_runtime_scalar():
    x, s = u8(16)[:256], np.array([173], np.uint8)
    a, b = np.zeros(256, np.uint8), np.zeros(256, np.uint8)
    where_full_kernel[1](x, s, a, b)
    np.testing.assert_array_equal(a, np.where(x > s[0], s[0], x))
    np.testing.assert_array_equal(b, np.full(256, s[0]) ^ x)


@asc2.jit
def scalar_compare_kernel(a_ptr, b_ptr, out_ptr, n: asc2.ConstExpr[int]):
    a_gm = asc2.global_tensor(a_ptr, [n])
    b_gm = asc2.global_tensor(b_ptr, [n])
    out_gm = asc2.global_tensor(out_ptr, [3 * n])
    for i in range(n):
        a, b = asc2.copy_in(a_gm, [i]), asc2.copy_in(b_gm, [i])
        asc2.copy_out(1 if a < b else 0, out_gm, [3 * i])
        asc2.copy_out(1 if a >= 128 else 0, out_gm, [3 * i + 1])
        asc2.copy_out(a if a > b else b, out_gm, [3 * i + 2])  # a uint8 select


def test_scalar_compare_and_select():
    n = len(PAIRS_A)
    out = np.zeros(3 * n, np.int32)
    scalar_compare_kernel[1](PAIRS_A, PAIRS_B, out, n)
    np.testing.assert_array_equal(out[0::3], PAIRS_A < PAIRS_B)
    np.testing.assert_array_equal(out[1::3], PAIRS_A >= 128)
    np.testing.assert_array_equal(out[2::3], np.maximum(PAIRS_A, PAIRS_B))


@asc2.jit
def number_kernel(x_ptr, out_ptr, v: int):
    x_gm = asc2.global_tensor(x_ptr, [4])
    out_gm = asc2.global_tensor(out_ptr, [10])
    c = asc2.number(250, asc2.uint8)
    s = asc2.copy_in(x_gm, [1])
    asc2.copy_out(c + 10, out_gm, [0])                  # 260 wraps to 4
    asc2.copy_out(asc2.number(v, asc2.uint8), out_gm, [1])  # a run-time int wraps like astype(uint8)
    asc2.copy_out(-s, out_gm, [2])
    asc2.copy_out(~s, out_gm, [3])
    asc2.copy_out(abs(s), out_gm, [4])
    asc2.copy_out(s << 4, out_gm, [5])
    asc2.copy_out(asc2.cast(c, asc2.int32) + s - 255, out_gm, [7])
    asc2.copy_out((c + 10) // 2, out_gm, [8])           # the wrap shows: 4 // 2, not 260 // 2
    asc2.copy_out((s - 50) // 2, out_gm, [9])           # 251 // 2
    asc2.copy_out(s, out_gm, [6])                       # last: a one-byte store leaves out[7:] alone


def test_number_and_store():
    x = np.array([0, 45, 3, 9], np.uint8)  # the load reads one byte
    out = np.full(10, 77, np.uint8)
    number_kernel[1](x, out, 1000)
    s = x[1]
    with np.errstate(over="ignore"):
        expected = [np.uint8(250) + np.uint8(10), np.array(1000).astype(np.uint8), -s, ~s, s, s << np.uint8(4), s,
                    np.int32(250) + s - 255, (np.uint8(250) + np.uint8(10)) // np.uint8(2),
                    (s - np.uint8(50)) // np.uint8(2)]
    np.testing.assert_array_equal(out, np.array(expected).astype(np.uint8))


@asc2.jit
def reduce_scalar_kernel(x_ptr, out_ptr, stats_ptr, sum_ptr):
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [256]), [0], [256])
    stats = asc2.global_tensor(stats_ptr, [5])
    hi, lo = x.max(), asc2.reduce_min(x)
    asc2.copy_out(x - lo + hi, asc2.global_tensor(out_ptr, [256]), [0])  # uint8 scalars with a uint8 tile
    asc2.copy_out(hi + 10, stats, [0])                                     # wraps when hi > 245
    asc2.copy_out(lo, stats, [1])
    asc2.copy_out(hi - lo, stats, [2])
    asc2.copy_out(lo - hi, stats, [3])
    asc2.copy_out(x.reshape([8, 32]).max(keep_dims=True), asc2.global_tensor(stats_ptr, [1, 5]), [0, 4])  # [1, 1]
    asc2.copy_out(x.sum() + hi, asc2.global_tensor(sum_ptr, [1]), [0])   # the sum is int32: no wrap


def test_reduction_as_scalar():
    x = u8(13)[:256].copy()
    x[17] = 251
    out, stats, total = np.zeros(256, np.uint8), np.zeros(5, np.uint8), np.zeros(1, np.int32)
    reduce_scalar_kernel[1](x, out, stats, total)
    hi, lo = x.max(), x.min()
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(out, x - lo + hi)
        np.testing.assert_array_equal(stats, [hi + np.uint8(10), lo, hi - lo, lo - hi, hi])
    assert total[0] == int(x.astype(np.int64).sum()) + int(hi)


@asc2.jit
def loop_kernel(x_ptr, out_ptr, n: int):
    x_gm = asc2.global_tensor(x_ptr, [n])
    acc = asc2.number(0, asc2.uint8)
    best = 0
    for i in range(n):
        v = asc2.copy_in(x_gm, [i])
        acc = acc + v                # wraps on every step, as a uint8 accumulator does
        best = v if v > best else best
    asc2.copy_out(acc, asc2.global_tensor(out_ptr, [2]), [0])
    asc2.copy_out(best, asc2.global_tensor(out_ptr, [2]), [1])


def test_loop_carried_scalar():
    x = u8(14)[:40]
    out = np.zeros(2, np.uint8)
    loop_kernel[1](x, out, len(x))
    assert out[0] == x.sum(dtype=np.uint8)
    assert out[1] == x.max()


@asc2.jit
def mixed_scalar_kernel(s_ptr, h_ptr, b_ptr, oh_ptr, ob_ptr, oi_ptr, n: int):
    """numpy promotion of a uint8 scalar: with float16 -> float16, with int16 -> int16, with an int -> int. (int8 tiles
    take no arithmetic, as upstream's: cast to int16 first.)"""
    s = asc2.copy_in(asc2.global_tensor(s_ptr, [1]), [0])
    h = asc2.copy_in(asc2.global_tensor(h_ptr, [256]), [0], [256])
    b = asc2.copy_in(asc2.global_tensor(b_ptr, [256]), [0], [256])
    asc2.copy_out(h * s, asc2.global_tensor(oh_ptr, [256]), [0])
    asc2.copy_out(b.to(asc2.int16) + s, asc2.global_tensor(ob_ptr, [256]), [0])
    asc2.copy_out(n + s * 2, asc2.global_tensor(oi_ptr, [1]), [0])


def test_scalar_promotion():
    s = np.array([200], np.uint8)
    rng = np.random.default_rng(15)
    h = rng.uniform(-2, 2, 256).astype(np.float16)
    b = rng.integers(-128, 128, 256).astype(np.int8)
    oh, ob, oi = np.zeros(256, np.float16), np.zeros(256, np.int16), np.zeros(1, np.int32)
    mixed_scalar_kernel[1](s, h, b, oh, ob, oi, 1000)
    np.testing.assert_allclose(oh.astype(np.float32), (h * s[0]).astype(np.float32), rtol=2e-3)
    assert (b + s[0]).dtype == np.int16
    np.testing.assert_array_equal(ob, b + s[0])
    with np.errstate(over="ignore"):
        assert oi[0] == 1000 + int(s[0] * np.uint8(2))  # s * 2 wraps in uint8 (144), then widens


@asc2.jit
def k_bad_scalar(x_ptr, WHICH: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [256])
    s = asc2.copy_in(x_gm, [0])
    if WHICH == 0:
        s = asc2.number(300, asc2.uint8)  # ERR0
    elif WHICH == 1:
        s = s + 256  # ERR1
    elif WHICH == 2:
        s = asc2.number(-1, asc2.uint8)  # ERR2
    asc2.copy_out(s, x_gm, [0])


@pytest.mark.parametrize("which,message", [
    (0, "asc2.number: 300 is outside the uint8 range 0..255"),
    (1, "'add': scalar 256 is outside the uint8 range 0..255"),
    (2, "asc2.number: -1 is outside the uint8 range 0..255"),
])
def test_scalar_errors(which, message):
    with pytest.raises(asc2.CompilationValueError) as info:
        k_bad_scalar.ir(np.zeros(256, np.uint8), WHICH=which)
    assert info.value.message == message
    assert info.value.line == line_of(k_bad_scalar, f"# ERR{which}")
    assert "^" in str(info.value)
