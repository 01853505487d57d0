"""Misuse of the tile language: every error names the problem and points at the kernel line."""

import numpy as np
import pytest

import asc2
from conftest import line_of

F32 = np.zeros(256, np.float32)
F16 = np.zeros(256, np.float16)
I32 = np.zeros(256, np.int32)
U8 = np.zeros(256, np.uint8)
M32 = np.zeros((4, 64), np.float32)


def error_at(kernel, *args, **kwargs):
    """The CompilationError for these arguments; asserts it points at the '# ERR' line."""
    with pytest.raises(asc2.CompilationError) as info:
        kernel.ir(*args, **kwargs)
    err = info.value
    assert err.file == kernel.source.file
    assert err.line == line_of(kernel, "# ERR"), str(err)
    assert "^" in str(err).splitlines()[-1]
    return err


@asc2.jit
def k_shapes(x_ptr, y_ptr):
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [4, 64]), [0, 0], [4, 64])
    y = asc2.copy_in(asc2.global_tensor(y_ptr, [4, 64]), [0, 0], [2, 64])
    z = asc2.maximum(x, y)  # ERR


def test_shapes_that_do_not_broadcast():
    err = error_at(k_shapes, M32, M32)
    assert isinstance(err, asc2.ShapeError)
    assert err.message == ("mismatched tile shapes [4, 64] and [2, 64]: they do not broadcast "
                           "(dimension 0: 4 vs 2)")
    assert err.col == 9


@asc2.jit
def k_bitwise(x_ptr):
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [256]), [0], [256])
    y = x & x  # ERR


@asc2.jit
def k_shift(x_ptr):
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [256]), [0], [256])
    y = asc2.left_shift(x, 2)  # ERR


def test_bitwise_on_floats():
    err = error_at(k_bitwise, F32)
    assert isinstance(err, asc2.CompilationTypeError) and isinstance(err, TypeError)
    assert err.message == ("asc2.bitwise_and does not support the float32 dtype (supported dtypes: int8, int16, "
                           "int32, int64)")
    err = error_at(k_shift, F16)
    assert err.message == "asc2.left_shift does not support the float16 dtype (supported dtypes: int16, int32, int64)"
    assert "arith.andi" in k_bitwise.ir(I32)


@asc2.jit
def k_exp(x_ptr):
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [256]), [0], [256])
    y = asc2.exp(x)  # ERR


@asc2.jit
def k_method(x_ptr):
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [256]), [0], [256])
    y = x.tanh()  # ERR


def test_float_only_unary_on_ints():
    err = error_at(k_exp, I32)
    assert isinstance(err, asc2.CompilationTypeError)
    assert err.message == ("asc2.exp does not support the int32 dtype (supported dtypes: float16, float32); cast to "
                           "float32 first: asc2.cast(x, asc2.float32)")
    assert error_at(k_method, I32).message.startswith("asc2.tanh does not support the int32 dtype")


@asc2.jit
def k_uint(x_ptr):
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [256]), [0], [256])
    y = x + x
    s = y.prod(0, keep_dims=True)  # ERR


def test_uint8_product():
    # uint8 sums, maxima and minima work (test_upstream_kernels.py); products are float32 only, as upstream's.
    err = error_at(k_uint, U8)
    assert isinstance(err, asc2.UnsupportedDtypeError)
    assert err.message == ("asc2.reduce_prod does not support the uint8 dtype (supported dtypes: float32); cast to "
                           "float32 first: asc2.cast(x, asc2.float32)")


@asc2.jit
def k_reduce_dim(x_ptr, DIM: asc2.ConstExpr):
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [4, 64]), [0, 0], [4, 64])
    s = asc2.reduce_max(x, DIM)  # ERR


def test_bad_reduce_dims():
    # RuntimeErrors, as upstream raises them (its unit tests: "between 0 and", "Repeating").
    err = error_at(k_reduce_dim, M32, DIM=2)
    assert isinstance(err, asc2.ShapeError) and isinstance(err, RuntimeError)
    assert err.message == ("asc2.reduce_max: dimension 2 is out of range: reduction dimensions must be between 0 and "
                           "1 for a rank-2 tile (or -2..-1 from the end)")
    err = error_at(k_reduce_dim, M32, DIM=(1, -1))
    assert isinstance(err, asc2.ShapeError)
    assert err.message == "asc2.reduce_max: Repeating dimensions are not allowed: [1, -1] names a dimension twice"
    err = error_at(k_reduce_dim, M32, DIM=1.5)
    assert isinstance(err, asc2.CompilationTypeError)
    assert "reduction dimensions must be ints (compile-time integers), got float 1.5" in err.message


def test_bad_reduce_dims_raise_runtime_error_without_capture():
    raw = asc2.jit(capture_exceptions=False)(k_reduce_dim.fn)
    with pytest.raises(RuntimeError, match="dimension 2 is out of range") as info:
        raw.ir(M32, DIM=2)
    assert not isinstance(info.value, asc2.CompilationError)
    with pytest.raises(RuntimeError, match="Repeating dimensions"):
        raw.ir(M32, DIM=(0, 0))


@asc2.jit
def k_keep_dims_store(x_ptr):
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [4, 64]), [0, 0], [4, 64])
    s = x.sum(axis=1, keep_dims=True) / 64
    asc2.copy_out(s, asc2.global_tensor(x_ptr, [4, 64]), [0, 0])  # ERR


def test_a_keep_dims_column_computes_but_does_not_store():
    # Element-wise work on a [4, 1] column is fine (its elements are dense); a DMA moves rows, which it has not.
    err = error_at(k_keep_dims_store, M32)
    assert isinstance(err, asc2.AlignmentError)
    assert "UB tile [4, 1] of float32: the last dimension is 4 bytes" in err.message


@asc2.jit
def k_offsets(x_ptr, WHICH: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [4, 64])
    t = asc2.copy_in(x_gm, [0, 0], [1, 64])
    if WHICH == 0:
        asc2.copy_in(x_gm, [0], [1, 64])  # ERR
    elif WHICH == 1:
        asc2.copy_out(t, x_gm, [0, 0, 0])  # ERR
    elif WHICH == 2:
        asc2.atomic_add(t, x_gm, [1])  # ERR
    else:
        v = asc2.copy_in(x_gm, [1])  # ERR


@pytest.mark.parametrize("which,what,count", [(0, "copy_in", 1), (1, "copy_out", 3), (2, "atomic_add", 1),
                                              (3, "copy_in", 1)])
def test_offsets_rank_mismatch(which, what, count):
    with pytest.raises(asc2.CompilationValueError) as info:
        k_offsets.ir(M32, WHICH=which)
    err = info.value
    assert err.message == f"asc2.{what}: {count} offset(s) given for a rank-2 tensor"
    lines = [i for i, text in enumerate(open(k_offsets.source.file), 1) if "# ERR" in text]
    first = line_of(k_offsets, "asc2.copy_in(x_gm, [0], [1, 64])")
    assert err.line == first + 2 * which and err.line in lines


@asc2.jit
def k_where(x_ptr):
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [256]), [0], [256])
    y = asc2.where(x, x, 0.0)  # ERR


def test_where_needs_a_bool_mask():
    err = error_at(k_where, F32)
    assert isinstance(err, asc2.CompilationTypeError)
    assert err.message.startswith("asc2.where: the mask must be a bool tile (from a comparison), got tile")


@asc2.jit
def k_tile_condition(x_ptr):
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [256]), [0], [256])
    if x > 0:  # ERR
        x = x + 1.0


def test_tile_as_condition():
    err = error_at(k_tile_condition, F32)
    assert "a tile cannot be used as a condition" in err.message and "asc2.where" in err.message


@asc2.jit
def k_shape_op(x_ptr, WHICH: asc2.ConstExpr[int]):
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [4, 64]), [0, 0], [4, 64])
    if WHICH == 0:
        y = x.reshape(3, 64)  # ERR
    elif WHICH == 1:
        y = asc2.broadcast_to(x, [8, 32])  # ERR
    elif WHICH == 2:
        y = asc2.expand_dims(x, 3)  # ERR
    elif WHICH == 3:
        y = asc2.squeeze(x, 0)  # ERR
    else:
        y = x.reshape(-1, -1)  # ERR


@pytest.mark.parametrize("which,cls,message", [
    (0, asc2.ShapeError, "asc2.reshape: cannot reshape a tile of 256 elements [4, 64] into [3, 64] (the element "
                         "counts do not match)"),
    (1, asc2.ShapeError, "asc2.broadcast_to: Cannot broadcast a tile of shape [4, 64] to [8, 32] (dimension 0: 4 "
                         "is neither 1 nor 8)"),
    (2, asc2.CompilationIndexError, "asc2.expand_dims: dimension 3 is out of range for a rank-2 tile (valid: -3..2)"),
    (3, asc2.ShapeError, "asc2.squeeze: dimension 0 of [4, 64] has size 4; it must be 1"),
    (4, asc2.CompilationValueError, "asc2.reshape: only one dimension can be -1"),
])
def test_shape_manipulation_errors(which, cls, message):
    with pytest.raises(cls) as info:
        k_shape_op.ir(M32, WHICH=which)
    assert info.value.message == message
    assert info.value.line == line_of(k_shape_op, "if WHICH == 0:") + 1 + 2 * which


@asc2.jit
def k_cast(x_ptr, DT: asc2.ConstExpr, MODE: asc2.ConstExpr, N: asc2.ConstExpr[int]):
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [256]), [0], [N])
    y = asc2.cast(x, DT, MODE)  # ERR


def test_cast_errors():
    err = error_at(k_cast, F32, DT=asc2.float16, MODE="sideways", N=256)
    assert isinstance(err, asc2.CompilationValueError)
    assert err.message.startswith("unsupported round mode 'sideways'; expected one of none, rint, floor")
    err = error_at(k_cast, F32, DT="float16", MODE=None, N=256)
    assert err.message == "asc2.cast: dtype must be an asc2 dtype, got str 'float16'"
    assert "round rint" in k_cast.ir(F32, DT=asc2.int32, MODE=asc2.RoundMode.RINT, N=256)
    assert "round floor" in k_cast.ir(F32, DT=asc2.int32, MODE="CAST_FLOOR", N=256)


@asc2.jit
def k_full(x_ptr):
    t = asc2.full([256], 1.5, asc2.int32)  # ERR


def test_full_with_a_float_for_an_int_tile():
    err = error_at(k_full, F32)
    assert err.message == ("cannot fill an int32 tile with a float (float 1.5); cast it or use a float dtype")


@asc2.jit
def k_fused(x_ptr, g_ptr, WHICH: asc2.ConstExpr[int]):
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [4, 64]), [0, 0], [4, 64])
    g = asc2.copy_in(asc2.global_tensor(g_ptr, [4, 64]), [0, 0], [2, 64])
    if WHICH == 0:
        y = asc2.rms_norm(x, g)  # ERR
    elif WHICH == 1:
        y = asc2.softmax(x)  # ERR
    else:
        y = asc2.layer_norm(x, x, x, eps=-1.0)  # ERR


def test_fused_op_errors():
    with pytest.raises(asc2.ShapeError) as info:
        k_fused.ir(M32, M32, WHICH=0)
    assert info.value.message == ("asc2.rms_norm: 'gamma' has shape [2, 64]; expected one row [1, 64] or the "
                                  "shape of x [4, 64]")
    first = line_of(k_fused, "y = asc2.rms_norm(x, g)")
    assert info.value.line == first
    with pytest.raises(asc2.CompilationTypeError) as info:
        k_fused.ir(M32, M32.astype(np.float16), WHICH=0)
    assert info.value.message == "asc2.rms_norm: 'gamma' is float16 but x is float32"
    with pytest.raises(asc2.CompilationTypeError) as info:
        k_fused.ir(M32.astype(np.int32), M32.astype(np.int32), WHICH=1)
    assert info.value.message.startswith("asc2.softmax does not support the int32 dtype (supported dtypes: float16, "
                                         "float32)")
    assert info.value.line == first + 2
    with pytest.raises(asc2.CompilationTypeError) as info:
        k_fused.ir(M32, M32, WHICH=2)
    assert "eps must be a non-negative compile-time number" in info.value.message
    assert info.value.line == first + 4


@asc2.jit
def k_atomic(x_ptr, out_ptr):
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [256]), [0], [256])
    asc2.atomic_max(x, asc2.global_tensor(out_ptr, [256]), [0])  # ERR


def test_atomic_dtype_mismatch():
    err = error_at(k_atomic, F32, F16)
    assert err.message == "asc2.atomic_max: float32 tile into a float16 tensor: the dtypes must match (convert with .to())"


@asc2.jit
def k_pow(x_ptr, E: asc2.ConstExpr):
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [256]), [0], [256])
    y = x ** E  # ERR


def test_power_needs_a_small_constant_exponent():
    err = error_at(k_pow, F32, E=3.5)
    assert isinstance(err, asc2.UnsupportedError)
    assert "'**' with exponent 3.5 is not supported" in err.message
    ir = k_pow.ir(F32, E=2)
    assert ir.count("arith.mulf") == 1 and "math.rsqrt" in k_pow.ir(F32, E=-0.5)


@asc2.jit
def k_scalar_load(x_ptr):
    v = asc2.copy_in(asc2.global_tensor(x_ptr, [256]), [3], pad_value=0.0)  # ERR


@asc2.jit
def k_int_pad(x_ptr):
    v = asc2.copy_in(asc2.global_tensor(x_ptr, [256]), [0], [256], pad_value=0.5)  # ERR


def test_copy_in_argument_errors():
    err = error_at(k_scalar_load, F32)
    assert err.message == "asc2.copy_in: real_shape and pad_value need a tile shape"
    err = error_at(k_int_pad, I32)
    assert err.message == "asc2.copy_in: float pad_value 0.5 for an int32 tensor"


# -- features the compiler does not lower yet


@asc2.jit
def k_unsupported(x_ptr, WHICH: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [64, 64])
    x = asc2.copy_in(x_gm, [0, 0], [64, 64])
    if WHICH == 0:
        with asc2.mask(count=32):  # ERR
            y = x + 1.0
    elif WHICH == 1:
        y = asc2.concat(x, x.to(asc2.float16), axis=1)  # ERR
    elif WHICH == 2:
        y = asc2.transpose(asc2.expand_dims(x, 0))  # ERR
    elif WHICH == 3:
        y = x @ x  # ERR
    elif WHICH == 4:
        y = asc2.copy_in(x_gm, [0, 0], [64, 64], asc2.TensorLocation.L0C)  # ERR
    elif WHICH == 5:
        asc2.copy_out(asc2.copy_in(x_gm, [0, 0], [64, 64], "L1"), x_gm, [0, 0])  # ERR
    else:
        y = x.to("L0A")  # ERR


def test_formerly_unsupported_mask_and_rank3_transpose():
    k_unsupported.ir(np.zeros((64, 64), np.float32), WHICH=0)  # with asc2.mask compiles
    with pytest.raises(asc2.AlignmentError) as info:  # (1, 64, 64) -> (64, 64, 1): a 4-byte last dimension
        k_unsupported.ir(np.zeros((64, 64), np.float32), WHICH=2)
    assert "UB tile [64, 64, 1] of float32: the last dimension is 4 bytes" in info.value.message
    assert info.value.line == line_of(k_unsupported, "asc2.transpose(asc2.expand_dims")


@pytest.mark.parametrize("which,needle", [
    (3, "asc2.matmul (left operand): the tensor location must be L0A, got UB"),
    (4, "asc2.copy_in: L0C tiles are not supported here (supported: UB, L1, L0A, L0B, BT)"),
    (5, "asc2.copy_out: cannot store from location L1"),
    (6, "copying a tile from UB to L0A is not supported"),
])
def test_not_supported_yet(which, needle):
    with pytest.raises(asc2.UnsupportedError) as info:
        k_unsupported.ir(np.zeros((64, 64), np.float32), WHICH=which)
    assert needle in info.value.message
    base = line_of(k_unsupported, "with asc2.mask(count=32)")
    assert info.value.line == base + (0 if which == 0 else 1 + 2 * which)


def test_concat_of_mixed_dtypes_is_a_type_error():
    with pytest.raises(asc2.CompilationTypeError) as info:
        k_unsupported.ir(np.zeros((64, 64), np.float32), WHICH=1)
    assert "asc2.concat: tiles of float32 and float16" in info.value.message
    assert info.value.line == line_of(k_unsupported, "asc2.concat(x, x.to")


@asc2.jit
def k_with(x_ptr):
    with open("f") as f:  # ERR
        pass


def test_other_with_blocks():
    err = error_at(k_with, F32)
    assert isinstance(err, asc2.UnsupportedError)
    assert "'with' blocks are not supported in asc2 kernels" in err.message
