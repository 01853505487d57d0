"""Reductions, broadcasting, shapes, creation, casts, scalar loads/stores, atomics and fused ops vs numpy.

2-D kernels use tiles of whole rows and sub-blocks (strided rows); row counts
that are not a multiple of the tile rows exercise padded loads and clamped
stores.  bfloat16 is covered by test_bf16.py, uint8 by test_uint8.py.
"""

import math

import numpy as np
import pytest

import asc2
from conftest import in_child_process, requires_native

pytestmark = requires_native

DTYPES = ("float32", "float16", "int32", "int16")


def rand(shape, dtype, seed=0, low=-50, high=50):
    rng = np.random.default_rng(seed)
    dt = np.dtype(dtype)
    if dt.kind == "f":
        return rng.uniform(low / 10, high / 10, shape).astype(dt)
    return rng.integers(low, high, shape).astype(dt)


def check(out, expected, dtype, tol=None):
    dt = np.dtype(dtype)
    if dt.kind == "f":
        tol = tol or (1e-5 if dt == np.float32 else 3e-3)
        np.testing.assert_allclose(out.astype(np.float64), np.asarray(expected, np.float64), rtol=tol, atol=tol)
    else:
        np.testing.assert_array_equal(out, np.asarray(expected).astype(dt))


# -- reductions


@asc2.jit
def reduce_rows_kernel(x_ptr, out_ptr, rows: int, KIND: asc2.ConstExpr, R: asc2.ConstExpr[int],
                       C: asc2.ConstExpr[int]):
    """out = x - reduce(x, axis=1, keep_dims=True): the [R, 1] result broadcasts over the columns."""
    x_gm = asc2.global_tensor(x_ptr, [rows, C])
    out_gm = asc2.global_tensor(out_ptr, [rows, C])
    for b in asc2.range(asc2.block_idx(), asc2.ceildiv(rows, R), asc2.block_num()):
        x = asc2.copy_in(x_gm, [b * R, 0], [R, C])
        asc2.copy_out(x - KIND(x, 1, keep_dims=True), out_gm, [b * R, 0])


@asc2.jit
def reduce_cols_kernel(x_ptr, out_ptr, keep_ptr, R: asc2.ConstExpr[int], C: asc2.ConstExpr[int],
                       KIND: asc2.ConstExpr):
    """Column reductions of one [R, C] tile, with and without keep_dims."""
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [R, C]), [0, 0], [R, C])
    asc2.copy_out(KIND(x, 0), asc2.global_tensor(out_ptr, [C]), [0])
    asc2.copy_out(KIND(x, axis=-2, keep_dims=True), asc2.global_tensor(keep_ptr, [1, C]), [0, 0])


@asc2.jit
def reduce_all_kernel(x_ptr, out_ptr, scalar_ptr, R: asc2.ConstExpr[int], C: asc2.ConstExpr[int],
                      KIND: asc2.ConstExpr):
    """Reducing every dimension gives a scalar: stored directly and splatted into a tile op."""
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [R, C]), [0, 0], [R, C])
    total = KIND(x)
    asc2.copy_out(total, asc2.global_tensor(scalar_ptr, [8]), [0])
    asc2.copy_out(x - total, asc2.global_tensor(out_ptr, [R, C]), [0, 0])


REDUCE = {"sum": (asc2.reduce_sum, np.sum), "max": (asc2.reduce_max, np.max), "min": (asc2.reduce_min, np.min),
          "prod": (asc2.reduce_prod, np.prod)}


# The dtypes each reduction takes (upstream PyAsc2's sets, docs/language.md "Dtypes"): over some dimensions, and
# to a scalar. The other combinations are refused with the cast to make (test_reductions_refuse_other_dtypes).
TAKES = {"sum": (("float32", "int32"), ("float32", "float16")),
         "max": (DTYPES, DTYPES), "min": (DTYPES, DTYPES),
         "prod": (("float32",), ())}


def over_dims(kinds=REDUCE):
    return [(k, d) for k in kinds for d in DTYPES if d in TAKES[k][0]]


def reduce_input(kind, shape, dtype, seed):
    if kind == "prod":  # keep products representable
        rng = np.random.default_rng(seed)
        if np.dtype(dtype).kind == "f":
            return rng.uniform(0.9, 1.1, shape).astype(dtype)
        return rng.choice([1, 1, 1, -1, 2], shape).astype(dtype)
    return rand(shape, dtype, seed)


@pytest.mark.parametrize("kind,dtype", over_dims())
def test_reduce_rows_keep_dims_broadcast(kind, dtype):
    op, ref = REDUCE[kind]
    rows, cols = 10, 64  # 3 blocks of 4 rows; the last one is partial
    x = reduce_input(kind, (rows, cols), dtype, 1)
    if kind == "prod" and np.dtype(dtype).kind != "f":
        x[:, 16:] = 1  # 16 factors of at most 2 stay in int16
    out = np.zeros_like(x)
    reduce_rows_kernel[2](x, out, rows, KIND=op, R=4, C=cols)
    expected = x.astype(np.float64) - ref(x.astype(np.float64), axis=1, keepdims=True)
    check(out, expected, dtype, tol=1e-2 if dtype == "float16" else None)


@pytest.mark.parametrize("kind,dtype", over_dims())
def test_reduce_columns(kind, dtype):
    op, ref = REDUCE[kind]
    x = reduce_input(kind, (4, 64), dtype, 2)
    out, keep = np.zeros(64, dtype), np.zeros((1, 64), dtype)
    reduce_cols_kernel[1](x, out, keep, R=4, C=64, KIND=op)
    check(out, ref(x.astype(np.float64), axis=0), dtype)
    check(keep, ref(x.astype(np.float64), axis=0, keepdims=True), dtype)


@pytest.mark.parametrize("kind,dtype", [(k, d) for k in REDUCE for d in ("float32", "int32") if d in TAKES[k][1]])
def test_reduce_everything_to_a_scalar(kind, dtype):
    op, ref = REDUCE[kind]
    x = reduce_input(kind, (2, 64), dtype, 3)
    out, scalar = np.zeros_like(x), np.zeros(8, dtype)
    reduce_all_kernel[1](x, out, scalar, R=2, C=64, KIND=op)
    total = ref(x.astype(np.float64))
    check(scalar[:1], [total], dtype, tol=1e-4)
    check(out, x.astype(np.float64) - total, dtype, tol=1e-4)


@pytest.mark.parametrize("kind,dtype", [(k, d) for k in REDUCE for d in DTYPES if d not in TAKES[k][0]])
def test_reductions_refuse_other_dtypes(kind, dtype):
    x = np.zeros((4, 64), dtype)
    with pytest.raises(asc2.UnsupportedDtypeError, match=f"asc2.reduce_{kind} does not support the {dtype} dtype.*"
                                                         r"; cast to \w+ first: asc2.cast\(x, asc2.\w+\)"):
        reduce_cols_kernel.ir(x, np.zeros(64, dtype), np.zeros((1, 64), dtype), R=4, C=64, KIND=REDUCE[kind][0])


@asc2.jit
def methods_kernel(x_ptr, out_ptr, C: asc2.ConstExpr[int]):
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [1, C]), [0, 0], [1, C])
    y = (x - x.max()) / (x.sum() - x.min()) + x.prod(axis=0)
    asc2.copy_out(y, asc2.global_tensor(out_ptr, [1, C]), [0, 0])


def test_tile_reduction_methods():
    x = np.random.default_rng(4).uniform(0.9, 1.1, (1, 64)).astype(np.float32)
    out = np.zeros_like(x)
    methods_kernel[1](x, out, C=64)
    check(out, (x - x.max()) / (x.sum() - x.min()) + x, "float32", tol=1e-4)


# -- shapes and broadcasting


@asc2.jit
def shapes_kernel(x_ptr, row_ptr, out_ptr, R: asc2.ConstExpr[int], C: asc2.ConstExpr[int]):
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [R, C]), [0, 0], [R, C])
    row = asc2.copy_in(asc2.global_tensor(row_ptr, [C]), [0], [C])
    a = x + row  # [C] broadcasts over the rows
    b = asc2.broadcast_to(asc2.expand_dims(row, 0), [R, C]) * 2
    c = asc2.reshape(asc2.ravel(x), [R // 2, 2 * C]).reshape(R, C)
    d = asc2.squeeze(asc2.expand_dims(row, 0)) - row
    asc2.copy_out(a + b + c + d, asc2.global_tensor(out_ptr, [R, C]), [0, 0])


@pytest.mark.parametrize("dtype", DTYPES)
def test_shape_ops_and_implicit_broadcast(dtype):
    x, row = rand((4, 64), dtype, 5), rand(64, dtype, 6)
    out = np.zeros_like(x)
    shapes_kernel[1](x, row, out, R=4, C=64)
    expected = x.astype(np.float64) + row + row * 2 + x
    check(out, expected, dtype, tol=1e-2 if dtype == "float16" else None)


@asc2.jit
def sub_block_kernel(x_ptr, out_ptr, rows: int, cols: int, R: asc2.ConstExpr[int], C: asc2.ConstExpr[int]):
    """[R, C] blocks of a [rows, cols] tensor: strided rows, padded/clamped at both ends."""
    x_gm = asc2.global_tensor(x_ptr, [rows, cols])
    out_gm = asc2.global_tensor(out_ptr, [rows, cols])
    col_blocks = asc2.ceildiv(cols, C)
    for b in asc2.range(asc2.block_idx(), asc2.ceildiv(rows, R) * col_blocks, asc2.block_num()):
        r = b // col_blocks
        c = b - r * col_blocks
        x = asc2.copy_in(x_gm, [r * R, c * C], [R, C], pad_value=0.0)
        asc2.copy_out(x * 3.0 + 1.0, out_gm, [r * R, c * C])


@pytest.mark.parametrize("rows,cols", [(16, 256), (13, 200)])
def test_2d_sub_blocks_with_dynamic_shapes(rows, cols):
    x = rand((rows, cols), "float32", 7)
    out = np.zeros_like(x)
    sub_block_kernel[3](x, out, rows, cols, R=4, C=64)
    check(out, x * 3 + 1, "float32")


# -- creation and casts


@asc2.jit
def creation_kernel(x_ptr, out_ptr, fill, C: asc2.ConstExpr[int]):
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [C]), [0], [C])
    a = asc2.full([C], 2, x.dtype) + asc2.zeros_like(x) + asc2.full_like(x, fill)
    b = asc2.zeros([C], x.dtype) * x
    asc2.copy_out(a + b + asc2.number(1, x.dtype), asc2.global_tensor(out_ptr, [C]), [0])


@pytest.mark.parametrize("dtype", DTYPES)
def test_creation(dtype):
    x = rand(64 if "32" in dtype else 128, dtype, 8)
    out = np.zeros_like(x)
    fill = 0.5 if np.dtype(dtype).kind == "f" else 5
    creation_kernel[1](x, out, fill, C=x.size)
    check(out, np.full(x.size, 2 + fill + 1, np.float64), dtype)


@asc2.jit
def cast_kernel(x_ptr, out_ptr, size: int, DT: asc2.ConstExpr, MODE: asc2.ConstExpr, TILE: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [size])
    out_gm = asc2.global_tensor(out_ptr, [size])
    for t in asc2.range(asc2.block_idx(), asc2.ceildiv(size, TILE), asc2.block_num()):
        x = asc2.copy_in(x_gm, [t * TILE], [TILE])
        asc2.copy_out(asc2.cast(x, DT, MODE), out_gm, [t * TILE])


CASTS = [  # (from, to, round mode, numpy reference)
    ("float32", "float16", None, lambda x: x.astype(np.float16)),
    ("float16", "float32", None, lambda x: x.astype(np.float32)),
    ("float32", "int32", None, lambda x: np.trunc(x).astype(np.int32)),
    ("float32", "int32", "rint", lambda x: np.rint(x).astype(np.int32)),
    ("float32", "int32", "floor", lambda x: np.floor(x).astype(np.int32)),
    ("float32", "int32", "ceil", lambda x: np.ceil(x).astype(np.int32)),
    ("int32", "float32", None, lambda x: x.astype(np.float32)),
    ("int16", "float16", None, lambda x: x.astype(np.float16)),
    ("float16", "int16", "trunc", lambda x: np.trunc(x).astype(np.int16)),
]


@pytest.mark.parametrize("src,dst,mode,ref", CASTS)
def test_cast(src, dst, mode, ref):
    x = rand(1000, src, 9, -500, 500)
    out = np.zeros(1000, dst)
    cast_kernel[4](x, out, 1000, DT=getattr(asc2, dst), MODE=mode, TILE=256)
    np.testing.assert_array_equal(out, ref(x))


@asc2.jit
def bool_cast_kernel(x_ptr, out_ptr, C: asc2.ConstExpr[int]):
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [C]), [0], [C])
    asc2.copy_out((x > 0).to(asc2.float32) + x.to(asc2.bool).to(asc2.float32), asc2.global_tensor(out_ptr, [C]), [0])


def test_bool_conversions():
    x = np.array([-2, 0, 3, 0.5] * 16, np.float32)
    out = np.zeros_like(x)
    bool_cast_kernel[1](x, out, C=64)
    np.testing.assert_array_equal(out, (x > 0).astype(np.float32) + (x != 0).astype(np.float32))


# -- scalar loads and stores


@asc2.jit
def gather_kernel(idx_ptr, x_ptr, out_ptr, n: int, size: int):
    idx_gm = asc2.global_tensor(idx_ptr, [n])
    x_gm = asc2.global_tensor(x_ptr, [size])
    out_gm = asc2.global_tensor(out_ptr, [n])
    for i in asc2.range(asc2.block_idx(), n, asc2.block_num()):
        j = asc2.copy_in(idx_gm, [i])
        asc2.copy_out(asc2.copy_in(x_gm, [j]), out_gm, [i])


def test_scalar_gather():
    x = rand(300, "float32", 10)
    idx = np.random.default_rng(11).integers(0, 300, 37).astype(np.int32)
    out = np.zeros(37, np.float32)
    gather_kernel[4](idx, x, out, 37, 300)
    np.testing.assert_array_equal(out, x[idx])


@asc2.jit
def scale_by_first_kernel(x_ptr, out_ptr, size: int, TILE: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [size])
    out_gm = asc2.global_tensor(out_ptr, [size])
    first = asc2.copy_in(x_gm, [0])
    for t in asc2.range(asc2.block_idx(), asc2.ceildiv(size, TILE), asc2.block_num()):
        asc2.copy_out(asc2.copy_in(x_gm, [t * TILE], [TILE]) * first, out_gm, [t * TILE])


def test_scalar_load_splatted():
    x = rand(1000, "float32", 12)
    out = np.zeros_like(x)
    scale_by_first_kernel[4](x, out, 1000, TILE=256)
    check(out, x * x[0], "float32")


# -- atomics across cores


@asc2.jit
def atomic_kernel(x_ptr, out_ptr, size: int, KIND: asc2.ConstExpr, TILE: asc2.ConstExpr[int]):
    """Each core folds its tiles together, then combines its partial result into out atomically."""
    x_gm = asc2.global_tensor(x_ptr, [size])
    out_gm = asc2.global_tensor(out_ptr, [TILE])
    acc = asc2.copy_in(x_gm, [asc2.block_idx() * TILE], [TILE])
    for t in asc2.range(asc2.block_idx() + asc2.block_num(), size // TILE, asc2.block_num()):
        x = asc2.copy_in(x_gm, [t * TILE], [TILE])
        acc = acc + x if KIND == "add" else asc2.maximum(acc, x) if KIND == "max" else asc2.minimum(acc, x)
    if KIND == "add":
        asc2.atomic_add(acc, out_gm, [0])
    elif KIND == "max":
        asc2.atomic_max(acc, out_gm, [0])
    else:
        asc2.atomic_min(acc, out_gm, [0])


@pytest.mark.parametrize("kind,ref,init", [("add", np.sum, 0.0), ("max", np.max, -1e30), ("min", np.min, 1e30)])
@pytest.mark.parametrize("cores", [1, 4, 8])
def test_multicore_atomics(kind, ref, init, cores):
    tiles = 16
    x = rand((tiles, 256), "float32", 13)

    def launch():  # a loop-carried tile: kept out of the pytest process while that crashes the compiler
        out = np.full(256, init, np.float32)
        atomic_kernel[cores](x.ravel(), out, x.size, KIND=kind, TILE=256)
        return out

    check(in_child_process(launch), ref(x.astype(np.float64), axis=0), "float32", tol=1e-4)


@asc2.jit
def atomic_sum_kernel(x_ptr, out_ptr, size: int, TILE: asc2.ConstExpr[int]):
    """Per-core partial sums (scalars) accumulated onto one output through atomic_add of a tile."""
    x_gm = asc2.global_tensor(x_ptr, [size])
    out_gm = asc2.global_tensor(out_ptr, [8])
    for t in asc2.range(asc2.block_idx(), asc2.ceildiv(size, TILE), asc2.block_num()):
        partial = asc2.copy_in(x_gm, [t * TILE], [TILE], pad_value=0.0).sum()
        asc2.atomic_add(asc2.full([8], partial, asc2.float32), out_gm, [0])


def test_atomic_add_of_partial_sums():
    x = rand(5000, "float32", 14)
    out = np.zeros(8, np.float32)
    atomic_sum_kernel[8](x, out, 5000, TILE=256)
    check(out, np.full(8, x.astype(np.float64).sum()), "float32", tol=1e-3)


# -- fused row ops


@asc2.jit
def fused_kernel(x_ptr, g_ptr, b_ptr, out_ptr, rows: int, OP: asc2.ConstExpr, R: asc2.ConstExpr[int],
                 C: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [rows, C])
    out_gm = asc2.global_tensor(out_ptr, [rows, C])
    gamma = asc2.copy_in(asc2.global_tensor(g_ptr, [C]), [0], [C])
    beta = asc2.copy_in(asc2.global_tensor(b_ptr, [1, C]), [0, 0], [1, C])
    for b in asc2.range(asc2.block_idx(), asc2.ceildiv(rows, R), asc2.block_num()):
        x = asc2.copy_in(x_gm, [b * R, 0], [R, C])
        if OP == "softmax":
            y = asc2.softmax(x)
        elif OP == "rms_norm":
            y = asc2.rms_norm(x, gamma, 1e-6)
        else:
            y = asc2.layer_norm(x, gamma, beta, eps=1e-5)
        asc2.copy_out(y, out_gm, [b * R, 0])


def fused_reference(op, x, gamma, beta):
    x = x.astype(np.float64)
    if op == "softmax":
        e = np.exp(x - x.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)
    if op == "rms_norm":
        return x / np.sqrt((x * x).mean(axis=1, keepdims=True) + 1e-6) * gamma
    mean = x.mean(axis=1, keepdims=True)
    return (x - mean) / np.sqrt(((x - mean) ** 2).mean(axis=1, keepdims=True) + 1e-5) * gamma + beta


@pytest.mark.parametrize("op", ["softmax", "rms_norm", "layer_norm"])
@pytest.mark.parametrize("dtype", ["float32", "float16"])
def test_fused_row_ops(op, dtype):
    rows, cols = 11, 128
    x = rand((rows, cols), dtype, 15)
    gamma = np.random.default_rng(16).uniform(0.5, 1.5, cols).astype(dtype)
    beta = rand((1, cols), dtype, 17)
    out = np.zeros_like(x)
    fused_kernel[4](x, gamma, beta, out, rows, OP=op, R=2, C=cols)
    check(out, fused_reference(op, x, gamma.astype(np.float64), beta.astype(np.float64)), dtype,
          tol=1e-5 if dtype == "float32" else 5e-3)
