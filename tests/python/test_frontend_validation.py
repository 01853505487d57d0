"""What the frontend accepts and rejects follows upstream PyAsc2: the dtypes each operation takes, the
argument rules of reductions, matmul, atomics and the fused row ops, asc2.mask and asc2.inline.

The kernels are ours, written in the forms of upstream's unit tests: compiled with
``capture_exceptions=False``, one call per kernel, ``pytest.raises(<builtin exception>, match=<a word
upstream's tests look for>)``. The dtype sets are a product decision (docs/language.md, "Dtypes"): a
kernel written here must also compile upstream, so a dtype upstream refuses is refused here too, with
the cast that makes the kernel portable.
"""

import inspect
import re

import numpy as np
import pytest

import asc2
from asc2.codegen import ops
from asc2.codegen.visitor import CodeGenerator
from conftest import line_of, requires_native

L = asc2.TensorLocation
M = np.zeros((32, 64), np.float32)


@asc2.jit(capture_exceptions=False)
def unary(OP: asc2.ConstExpr, DT: asc2.ConstExpr):
    x = asc2.zeros([32, 64], DT)
    OP(x)


@pytest.mark.parametrize("op", [asc2.exp, asc2.sin, asc2.sqrt, asc2.rsqrt, asc2.floor, asc2.abs, asc2.relu,
                                asc2.softmax])
def test_float_math_refuses_bfloat16_and_says_which_cast(op):
    with pytest.raises(RuntimeError, match="dtype") as info:
        unary.ir(OP=op, DT=asc2.bfloat16)
    assert str(info.value) == (f"asc2.{op.__name__} does not support the bfloat16 dtype (supported dtypes: "
                               + ("int8, int16, int32, int64, " if op is asc2.abs else "")
                               + "float16, float32); cast to float32 first: asc2.cast(x, asc2.float32)")


@pytest.mark.parametrize("op,dt,hint", [
    (asc2.relu, asc2.int32, "cast to float32 first"),
    (asc2.negative, asc2.int8, "cast to int16 first: asc2.cast(x, asc2.int16)"),
])
def test_integer_operands_get_the_nearest_dtype_the_op_takes(op, dt, hint):
    with pytest.raises(RuntimeError, match=f"does not support the {dt.name} dtype.*{re.escape(hint)}"):
        unary.ir(OP=op, DT=dt)


@asc2.jit(capture_exceptions=False)
def negate_int8():
    x = asc2.zeros([32, 64], asc2.int8)
    -x


def test_the_operators_check_what_their_builtins_check():
    with pytest.raises(RuntimeError, match="asc2.negative does not support the int8 dtype"):
        negate_int8.ir()


@asc2.jit(capture_exceptions=False)
def binary(OP: asc2.ConstExpr, DT: asc2.ConstExpr, FORM: asc2.ConstExpr[int]):
    x = asc2.zeros([32, 64], DT)
    y = asc2.zeros([32, 64], DT)
    if FORM == 0:
        OP(x, y)
    elif FORM == 1:
        x + y
    elif FORM == 2:
        x == y
    elif FORM == 3:
        max(x, y)
    else:
        x << 2


@pytest.mark.parametrize("op,dt,form,name", [
    (asc2.add, asc2.int8, 0, "add"), (None, asc2.int8, 1, "add"), (asc2.div, asc2.bfloat16, 0, "div"),
    (asc2.equal, asc2.int64, 0, "equal"), (None, asc2.int64, 2, "equal"), (None, asc2.int8, 3, "maximum"),
    (None, asc2.int8, 4, "left_shift"),
])
def test_binary_ops_take_upstreams_dtypes(op, dt, form, name):
    with pytest.raises(RuntimeError, match=f"asc2.{name} does not support the {dt.name} dtype"):
        binary.ir(OP=op, DT=dt, FORM=form)


def test_an_int64_comparison_is_told_to_narrow_when_the_values_fit():
    with pytest.raises(RuntimeError, match=r"cast to int32 first \(when the values fit\)"):
        binary.ir(OP=asc2.less, DT=asc2.int64, FORM=0)


@asc2.jit(capture_exceptions=False)
def where_int8():
    a = asc2.zeros([32, 64], asc2.int8)
    b = asc2.zeros([32, 64], asc2.int8)
    asc2.where(a > b, a, b)


def test_where_takes_16_and_32_bit_sources():
    with pytest.raises(RuntimeError, match=r"asc2.where \(src0\) does not support the int8 dtype"):
        where_int8.ir()


# ---------------------------------------------------------------------------
# Reductions


@asc2.jit(capture_exceptions=False)
def reduction(OP: asc2.ConstExpr, DT: asc2.ConstExpr, DIMS: asc2.ConstExpr, KEEP: asc2.ConstExpr[bool]):
    x = asc2.zeros([32, 64], DT)
    OP(x, *DIMS, keep_dims=KEEP)


@pytest.mark.parametrize("op,dt,dims,exc,match", [
    (asc2.reduce_sum, asc2.float16, (0,), RuntimeError, "reduce_sum does not support the float16 dtype"),
    (asc2.reduce_sum, asc2.int32, (), RuntimeError, "reduce_sum does not support the int32 dtype"),
    (asc2.reduce_max, asc2.int8, (), RuntimeError, "reduce_max does not support the int8 dtype"),
    (asc2.reduce_prod, asc2.float16, (1,), RuntimeError, "reduce_prod does not support the float16 dtype"),
    (asc2.reduce_prod, asc2.float32, (), RuntimeError, "reduce_prod to a scalar is not supported"),
    (asc2.reduce_min, asc2.float32, (1, 1), RuntimeError, "Repeating dimensions are not allowed"),
    (asc2.reduce_min, asc2.float32, (0, -2), RuntimeError, "Repeating dimensions are not allowed"),
    (asc2.reduce_sum, asc2.float32, (2,), RuntimeError, "must be between 0 and 1"),
    (asc2.reduce_sum, asc2.float32, ("rows",), TypeError, "reduction dimensions must be ints"),
    (asc2.reduce_sum, asc2.float32, (0, 1), RuntimeError, "reduction along all dimensions is not supported"),
])
def test_reductions_follow_upstreams_rules(op, dt, dims, exc, match):
    with pytest.raises(exc, match=match):
        reduction.ir(OP=op, DT=dt, DIMS=dims, KEEP=False)


def test_every_dimension_is_a_reduction_with_keep_dims_only():
    with pytest.raises(RuntimeError, match="reduction along all dimensions is not supported"):
        reduction.ir(OP=asc2.reduce_max, DT=asc2.float32, DIMS=(1, 0), KEEP=False)
    assert "asctile.reduce max" in reduction.ir(OP=asc2.reduce_max, DT=asc2.float32, DIMS=(1, 0), KEEP=True)


# ---------------------------------------------------------------------------
# Fused row ops: rank first, before any shape rule


@asc2.jit(capture_exceptions=False)
def row_op(WHICH: asc2.ConstExpr[int]):
    x = asc2.zeros([2, 4, 64], asc2.float32)
    g = asc2.zeros([64], asc2.float32)
    if WHICH == 0:
        asc2.softmax(x)
    elif WHICH == 1:
        asc2.rms_norm(x, g, 1e-6)
    else:
        asc2.layer_norm(x, g, g, 1e-6)


@pytest.mark.parametrize("which,name", [(0, "softmax"), (1, "rms_norm"), (2, "layer_norm")])
def test_fused_row_ops_take_rank_1_and_2_tiles(which, name):
    with pytest.raises(RuntimeError, match=f"asc2.{name}: tile dimensionality greater than two is not supported"):
        row_op.ir(WHICH=which)


def _generator():
    frame = inspect.currentframe()
    while frame is not None:
        if isinstance(frame.f_locals.get("self"), CodeGenerator):
            return frame.f_locals["self"]
        frame = frame.f_back
    raise AssertionError("not inside a kernel")


def harness_zeros(shape):
    """A float32 UB tile built as test harnesses build theirs (upstream's constant_tile shim)."""
    return ops.splat(_generator(), 0.0, shape, asc2.float32, L.UB)


@asc2.jit(capture_exceptions=False)
def harness_softmax(SOFTMAX: asc2.ConstExpr[bool]):
    x = harness_zeros([2, 3, 4])
    if SOFTMAX:
        asc2.softmax(x)


def test_a_harness_tile_is_rejected_by_the_op_it_was_built_for():
    with pytest.raises(RuntimeError, match="dimensionality"):
        harness_softmax.ir(SOFTMAX=True)
    # Used in nothing that rejects it, its rows are still an error, at its line.
    with pytest.raises(asc2.AlignmentError, match=r"UB tile \[2, 3, 4\] of float32: the last dimension is 16 "
                                                  r"bytes") as info:
        asc2.jit(harness_softmax.fn).ir(SOFTMAX=False)
    assert info.value.line == line_of(harness_softmax, "x = harness_zeros")


# ---------------------------------------------------------------------------
# Cube and memory


@asc2.jit(capture_exceptions=False)
def matmul(a_ptr, b_ptr, DT: asc2.ConstExpr, LHS: asc2.ConstExpr):
    a = asc2.copy_in(asc2.global_tensor(a_ptr, [32, 64]), [0, 0], [32, 64], LHS)
    b = asc2.copy_in(asc2.global_tensor(b_ptr, [64, 32]), [0, 0], [64, 32], L.L0B)
    asc2.matmul(a, b)


def test_matmul_operands_are_cube_dtypes():
    i16 = np.zeros((32, 64), np.int16)
    with pytest.raises(RuntimeError, match=r"asc2.matmul \(left operand\) does not support the int16 dtype"):
        matmul.ir(i16, i16.T.copy(), DT=asc2.int16, LHS=L.L0A)


def test_int8_matmul_is_kept_beyond_upstream():
    # A deliberate difference (docs/cube.md): upstream refuses int8 operands; the cube multiplies them into int32.
    i8 = np.zeros((32, 64), np.int8)
    assert "asctile.matmul" in matmul.ir(i8, i8.T.copy(), DT=asc2.int8, LHS=L.L0A)


def test_matmul_operands_are_in_l0a_and_l0b_not_l1():
    with pytest.raises(RuntimeError, match=r"the tensor location must be L0A, got L1; move it there first: "
                                           r"l1_tile.to\(asc2.TensorLocation.L0A\)"):
        matmul.ir(M, M.T.copy(), DT=asc2.float32, LHS=L.L1)


@asc2.jit(capture_exceptions=False)
def transposed_zero_operand(a_ptr, b_ptr, c_ptr):
    a = asc2.copy_in(asc2.global_tensor(a_ptr, [32, 64]), [0, 0], [32, 64], L.L0A)
    b = asc2.copy_in(asc2.global_tensor(b_ptr, [32, 64]), [0, 0], [32, 64], L.L0B)
    asc2.copy_out(asc2.zeros_like(a).T @ b, asc2.global_tensor(c_ptr, [64, 64]), [0, 0])


def test_a_filled_l0a_tile_transposes_to_the_same_fill():
    ir = transposed_zero_operand.ir(M, M, np.zeros((64, 64), np.float32))
    assert "!asctile.tile<64x32xf32, L0A>" in ir


@requires_native
def test_a_filled_l0a_tile_transposed_compiles():
    transposed_zero_operand.compile(M, M, np.zeros((64, 64), np.float32))


@asc2.jit(capture_exceptions=False)
def transpose_int64():
    asc2.zeros([32, 64], asc2.int64).T


def test_transpose_takes_upstreams_dtypes():
    with pytest.raises(RuntimeError, match="asc2.transpose does not support the int64 dtype"):
        transpose_int64.ir()


@asc2.jit(capture_exceptions=False)
def atomic(x_ptr, L0C_SOURCE: asc2.ConstExpr[bool]):
    gm = asc2.global_tensor(x_ptr, [32, 64])
    if L0C_SOURCE:
        a = asc2.copy_in(gm, [0, 0], [32, 64], L.L0A)
        b = asc2.copy_in(asc2.global_tensor(x_ptr, [64, 32]), [0, 0], [64, 32], L.L0B)
        asc2.atomic_add(a @ b, asc2.global_tensor(x_ptr, [32, 32]), [0, 0])
    else:
        asc2.atomic_max(asc2.copy_in(gm, [0, 0], [32, 64]), gm, [0, 0])


def test_atomics_take_upstreams_dtypes():
    with pytest.raises(RuntimeError, match=r"asc2.atomic_max \(dst\) does not support the int8 dtype"):
        atomic.ir(M.astype(np.int8), L0C_SOURCE=False)


def test_atomics_store_ub_tiles():
    with pytest.raises(RuntimeError, match="asc2.atomic_add: the src tile location must be UB, got L0C"):
        atomic.ir(M, L0C_SOURCE=True)


@asc2.jit(capture_exceptions=False)
def l1_with_real_shape(x_ptr):
    asc2.copy_in(asc2.global_tensor(x_ptr, [2048]), [0], [128], L.L1, real_shape=[64])


def test_real_shape_is_for_ub_loads():
    with pytest.raises(RuntimeError, match="'real_shape' is not supported with L1 tensor location"):
        l1_with_real_shape.ir(M.ravel())


# ---------------------------------------------------------------------------
# asc2.mask and asc2.inline


@asc2.jit(capture_exceptions=False)
def masked(BITS: asc2.ConstExpr):
    x = asc2.zeros([32, 64], asc2.float32)
    with asc2.mask(bits=BITS):
        x + 1


@pytest.mark.parametrize("bits,match", [(None, "one of count= or bits= must be provided"),
                                        ((0, 64, 128), "bits must have 2 values")])
def test_mask_arguments(bits, match):
    with pytest.raises(ValueError, match=match):
        masked.ir(BITS=bits)


@asc2.jit(capture_exceptions=False)
def inline(x_ptr, CODE: asc2.ConstExpr):
    asc2.inline(CODE, [x_ptr])


def test_inline_checks_its_code_then_compiles_it():
    with pytest.raises(TypeError, match="asc2.inline: 'code' must be a string"):
        inline.ir(M, CODE=42)
    assert 'asctile.inline "auto ptr = $0;"' in asc2.jit(inline.fn).ir(M, CODE="auto ptr = $0;")


# ---------------------------------------------------------------------------
# With captured exceptions (the default) the same mistakes point at the kernel line


@asc2.jit
def exp_of_bf16(x_ptr):
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [32, 64]), [0, 0], [32, 64])
    y = asc2.exp(x.to(asc2.bfloat16))


def test_a_dtype_error_is_at_the_line_with_its_hint():
    with pytest.raises(asc2.UnsupportedDtypeError) as info:
        exp_of_bf16.ir(M)
    assert info.value.line == line_of(exp_of_bf16, "y = asc2.exp")
    assert "cast to float32 first: asc2.cast(x, asc2.float32)" in str(info.value)
    assert isinstance(info.value, TypeError) and isinstance(info.value, RuntimeError)
