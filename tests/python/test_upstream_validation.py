"""Bad operands get the exception upstream PyAsc2's unit tests expect, with a message in the user's terms.

Each kernel here is ours, written in the forms of upstream's unit tests: a kernel compiled with
``capture_exceptions=False`` makes one bad call, and the test checks the builtin exception type (TypeError for
a wrong kind of argument, RuntimeError for an unsupported dtype or location, ValueError/IndexError where upstream
uses them) and a word of the message. With the default ``capture_exceptions=True`` the same mistakes are
``asc2.CompilationError``s at the kernel line (checked once at the end).
"""

import numpy as np
import pytest

import asc2
from conftest import line_of

L = asc2.TensorLocation
X = np.zeros(64, np.float32)


def no_ir_text(message):
    """Messages speak the user's language: no MLIR types, locations or binding dumps."""
    return all(s not in message for s in ("!asctile", "loc(", "tensor<", "pybind11", "f32", "i32"))


# ---------------------------------------------------------------------------
# Element-wise builtins: operands must be tiles or scalars, and not only Python numbers


@asc2.jit(capture_exceptions=False)
def binary_call(x_ptr, OP: asc2.ConstExpr, LHS: asc2.ConstExpr, RHS: asc2.ConstExpr):
    t = asc2.copy_in(asc2.global_tensor(x_ptr, [64]), [0], [64])
    lhs = t if LHS == "tile" else LHS
    rhs = t if RHS == "tile" else RHS
    OP(lhs, rhs)


@pytest.mark.parametrize("op", [asc2.add, asc2.sub, asc2.mul, asc2.div, asc2.maximum, asc2.minimum, asc2.equal,
                                asc2.less_equal, asc2.bitwise_and, asc2.bitwise_xor, asc2.left_shift])
@pytest.mark.parametrize("lhs,rhs", [("text", "tile"), ("tile", "text"), (None, "tile"), ("tile", None),
                                     ((1, 2), "tile"), ("tile", (1, 2)), (1, 2), (None, 2.5)])
def test_binary_builtin_operands_must_be_tiles_or_scalars(op, lhs, rhs):
    with pytest.raises(TypeError, match="must be") as info:
        binary_call.ir(X, OP=op, LHS=lhs, RHS=rhs)
    assert not isinstance(info.value, asc2.CompilationError)
    assert str(info.value).startswith(f"asc2.{op.__name__}: ")
    assert no_ir_text(str(info.value))


@asc2.jit
def constants_with_operators(x_ptr, out_ptr):
    """The Python operators still fold constants (only the builtins insist on a tile or run-time scalar)."""
    t = asc2.copy_in(asc2.global_tensor(x_ptr, [64]), [0], [64])
    asc2.copy_out(asc2.add(t, 2 + 3), asc2.global_tensor(out_ptr, [64]), [0])


def test_operators_still_fold_constants():
    assert "asctile" in constants_with_operators.ir(X, X)


@asc2.jit(capture_exceptions=False)
def unary_call(x_ptr, OP: asc2.ConstExpr, ARG: asc2.ConstExpr):
    OP(ARG)


@pytest.mark.parametrize("op", [asc2.exp, asc2.sqrt, asc2.abs, asc2.relu, asc2.negative, asc2.bitwise_not,
                                asc2.floor])
@pytest.mark.parametrize("arg", ["text", None, (1, 2)])
def test_unary_builtin_operand_must_be_a_tile_or_a_scalar(op, arg):
    with pytest.raises(TypeError, match="must be") as info:
        unary_call.ir(X, OP=op, ARG=arg)
    assert str(info.value).startswith(f"asc2.{op.__name__}: ")


def test_unary_builtins_still_take_python_numbers():
    assert unary_call.ir(X, OP=asc2.exp, ARG=2.0) is not None


# ---------------------------------------------------------------------------
# Other builtins: the argument named in the message


@asc2.jit(capture_exceptions=False)
def bad_argument(x_ptr, WHICH: asc2.ConstExpr[int]):
    t = asc2.copy_in(asc2.global_tensor(x_ptr, [64]), [0], [64])
    if WHICH == 0:
        asc2.reduce_sum("text", 0)
    elif WHICH == 1:
        asc2.reshape("text", 8, 8)
    elif WHICH == 2:
        asc2.broadcast_to("text", 2, 64)
    elif WHICH == 3:
        asc2.cast("text", asc2.float16)
    elif WHICH == 4:
        asc2.concat("text")
    elif WHICH == 5:
        asc2.full([64], "text", asc2.float32)
    elif WHICH == 6:
        asc2.where(t > 0.0, "text", t)
    elif WHICH == 7:
        asc2.where(t > 0.0, t, "text")
    elif WHICH == 8:
        asc2.global_tensor("text", [64])
    elif WHICH == 9:
        asc2.global_tensor(x_ptr, ["text"])
    elif WHICH == 10:
        asc2.softmax(None)


@pytest.mark.parametrize("which,match", [
    (0, "asc2.reduce_sum: the input must be a tile"), (1, "asc2.reshape: the input must be a tile"),
    (2, "asc2.broadcast_to: the input must be a tile"), (3, "asc2.cast: the input must be a tile or a scalar"),
    (4, "asc2.concat: the tensors to join must be tiles"), (5, "asc2.full: the fill value must be a scalar"),
    (6, "asc2.where: src0, the value where mask is true, must be"),
    (7, "asc2.where: src1, the value where mask is false, must be"),
    (8, "asc2.global_tensor: the base address 'ptr' must be a GlobalAddress"),
    (9, "asc2.global_tensor: dimensions must be integers, got str 'text'"),
    (10, "asc2.softmax: the input must be a tile"),
])
def test_wrong_kind_of_argument_is_a_type_error_naming_it(which, match):
    with pytest.raises(TypeError) as info:
        bad_argument.ir(X, WHICH=which)
    assert str(info.value).startswith(match)


# ---------------------------------------------------------------------------
# float64: a RuntimeError naming the dtype (and still a TypeError)


@asc2.jit(capture_exceptions=False)
def float64_tile(x_ptr):
    t = asc2.copy_in(asc2.global_tensor(x_ptr, [64]), [0], [64])
    t.to(asc2.float64)


@asc2.jit(capture_exceptions=False)
def float64_full(x_ptr):
    asc2.full([64], 2.0, asc2.float64)


@pytest.mark.parametrize("kernel", [float64_tile, float64_full])
def test_float64_is_a_runtime_error_about_the_dtype(kernel):
    with pytest.raises(RuntimeError, match="dtype") as info:
        kernel.ir(X)
    assert isinstance(info.value, TypeError) and not isinstance(info.value, asc2.CompilationError)
    assert "float64" in str(info.value) and "asc2.float32" in str(info.value)


@asc2.jit
def float64_captured(x_ptr):
    t = asc2.copy_in(asc2.global_tensor(x_ptr, [64]), [0], [64])
    t.to(asc2.float64)  # the float64 tile


def test_float64_captured_is_an_unsupported_dtype_error_at_its_line():
    with pytest.raises(asc2.UnsupportedDtypeError) as info:
        float64_captured.ir(X)
    err = info.value
    assert isinstance(err, asc2.CompilationTypeError) and isinstance(err, asc2.UnsupportedError)
    assert isinstance(err, TypeError) and isinstance(err, RuntimeError)
    assert err.line == line_of(float64_captured, "# the float64 tile")


@asc2.jit(capture_exceptions=False)
def unsupported_dtype(x_ptr, WHICH: asc2.ConstExpr[int]):
    t = asc2.copy_in(asc2.global_tensor(x_ptr, [64]), [0], [64])
    if WHICH == 0:
        asc2.exp(t.to(asc2.int32))
    elif WHICH == 1:
        asc2.concat(t, t.to(asc2.float16))
    elif WHICH == 2:
        asc2.zeros_acc([16, 16], asc2.float16)
    elif WHICH == 3:
        asc2.where(t, t, t)
    elif WHICH == 4:
        asc2.atomic_add(t.to(asc2.float16), asc2.global_tensor(x_ptr, [64]), [0])


@pytest.mark.parametrize("which,match", [
    (0, "asc2.exp "), (1, "asc2.concat: tiles of float32 and float16; cast them to one dtype first"),
    (2, "asc2.zeros_acc: the accumulator dtype must be float32"), (3, "asc2.where: the mask must be a bool tile"),
    (4, "asc2.atomic_add: float16 tile into a float32 tensor"),
])
def test_unsupported_dtype_is_both_a_runtime_error_and_a_type_error(which, match):
    with pytest.raises(RuntimeError) as info:
        unsupported_dtype.ir(X, WHICH=which)
    assert isinstance(info.value, TypeError) and not isinstance(info.value, asc2.CompilationError)
    assert str(info.value).startswith(match) and no_ir_text(str(info.value))
    if which in (1, 2, 3):  # (0 and 4 keep the wording they had before upstream's checks)
        assert "dtype" in str(info.value)


# ---------------------------------------------------------------------------
# Locations: operations on UB tiles name the location of a tile elsewhere


@asc2.jit(capture_exceptions=False)
def wrong_location(x_ptr, WHICH: asc2.ConstExpr[int]):
    gm = asc2.global_tensor(x_ptr, [32, 64])
    l1 = asc2.copy_in(gm, [0, 0], [32, 64], L.L1)
    if WHICH == 0:
        asc2.reduce_sum(l1, 0)
    elif WHICH == 1:
        asc2.reduce_max(l1, 1, keep_dims=True)
    elif WHICH == 2:
        asc2.copy_in(gm, [0, 0], [1, 64], L.L1).broadcast_to(32, 64)
    elif WHICH == 3:
        asc2.full([32, 64], 2.0, asc2.float32, L.L1)
    elif WHICH == 4:
        asc2.zeros([32, 64], asc2.float32, L.L0A)
    elif WHICH == 5:
        asc2.copy(asc2.copy_in(gm, [0, 0], [32, 64]), location=L.L0A)


@pytest.mark.parametrize("which,what", [(0, "asc2.reduce_sum"), (1, "asc2.reduce_max"), (2, "asc2.broadcast_to"),
                                        (3, "asc2.full"), (4, "asc2.zeros"), (5, "asc2.copy")])
def test_wrong_location_is_a_runtime_error_naming_it(which, what):
    with pytest.raises(RuntimeError, match="location") as info:
        wrong_location.ir(np.zeros(32 * 64, np.float32), WHICH=which)
    assert str(info.value).startswith(what)
    assert no_ir_text(str(info.value))


@asc2.jit(capture_exceptions=False)
def one_dim_accumulator(x_ptr, ATOMIC: asc2.ConstExpr[bool]):
    acc = asc2.zeros_acc([16, 16], asc2.float32).reshape(256)
    if ATOMIC:
        asc2.atomic_add(acc, asc2.global_tensor(x_ptr, [256]), [0])
    else:
        asc2.copy_out(acc, asc2.global_tensor(x_ptr, [256]), [0])


@pytest.mark.parametrize("atomic,match", [
    (False, r"L0C tiles \(matmul results\) are 2-D \(rows x columns\), got shape \[256\]"),
    (True, r"asc2.atomic_add: the src tile location must be UB, got L0C"),  # atomics take UB tiles, as upstream's
])
def test_a_rank_1_accumulator_is_refused_in_the_users_terms(atomic, match):
    with pytest.raises(RuntimeError, match=match) as info:
        one_dim_accumulator.ir(np.zeros(256, np.float32), ATOMIC=atomic)
    assert no_ir_text(str(info.value))


@asc2.jit(capture_exceptions=False)
def scalar_cast_with_round_mode(x_ptr):
    asc2.cast(2.5, asc2.int32, round_mode=asc2.RoundMode.Floor)


def test_a_round_mode_on_a_scalar_cast_is_refused_not_ignored():
    with pytest.raises(RuntimeError, match="asc2.cast: round_mode applies to tiles"):
        scalar_cast_with_round_mode.ir(X)


# ---------------------------------------------------------------------------
# Global tensor shapes: upstream's is_dynamic_dim


@asc2.jit
def dynamic_dims(x_ptr, out_ptr, n: int):
    gm = asc2.global_tensor(x_ptr, [n, 64])
    assert gm.shape.is_dynamic_dim(0) and gm.shape.is_dynamic_dim(-2)
    assert not gm.shape.is_dynamic_dim(1)
    t = asc2.copy_in(gm, [0, 0], [1, 64])
    assert not t.shape.is_dynamic_dim(0)
    asc2.copy_out(t, asc2.global_tensor(out_ptr, [1, 64]), [0, 0])


def test_is_dynamic_dim():
    assert "asctile" in dynamic_dims.ir(X, X, 1)


@asc2.jit(capture_exceptions=False)
def dynamic_dim_out_of_range(x_ptr, n: int):
    asc2.global_tensor(x_ptr, [n, 64]).shape.is_dynamic_dim(2)


def test_is_dynamic_dim_out_of_range_is_an_index_error():
    with pytest.raises(IndexError, match="out of range"):
        dynamic_dim_out_of_range.ir(X, 1)


# ---------------------------------------------------------------------------
# The same mistakes, captured: a CompilationError of the matching class at the kernel line


@asc2.jit
def captured(x_ptr, WHICH: asc2.ConstExpr[int]):
    t = asc2.copy_in(asc2.global_tensor(x_ptr, [64]), [0], [64])
    if WHICH == 0:
        asc2.add(1, 2)  # ERR0
    else:
        asc2.reduce_sum(asc2.copy_in(asc2.global_tensor(x_ptr, [32, 64]), [0, 0], [32, 64], L.L1), 0)  # ERR1


@pytest.mark.parametrize("which,cls", [(0, asc2.CompilationTypeError), (1, asc2.UnsupportedError)])
def test_captured_errors_point_at_the_call(which, cls):
    with pytest.raises(cls) as info:
        captured.ir(np.zeros(32 * 64, np.float32), WHICH=which)
    assert info.value.line == line_of(captured, f"# ERR{which}")
