"""Compile-time errors point at the kernel source: message, file, line, column, caret."""

import numpy as np
import pytest

import asc2
from conftest import line_of

X = np.zeros(256, np.float32)
H = np.zeros(256, np.float16)


def compile_error(kernel, *args, **kwargs):
    with pytest.raises(asc2.CompilationError) as info:
        kernel.ir(*args, **kwargs)
    return info.value


@asc2.jit
def k_unknown_name(x_ptr, n: int):
    x_gm = asc2.global_tensor(x_ptr, [n])
    y = no_such_name + 1  # ERR


def test_unknown_name():
    err = compile_error(k_unknown_name, X, 256)
    assert "unknown name 'no_such_name'" in err.message
    assert err.file == k_unknown_name.source.file
    assert err.line == line_of(k_unknown_name, "# ERR")
    assert err.col == 9
    text = str(err)
    assert text.startswith(f"{err.file}:{err.line}:9: unknown name 'no_such_name'")
    lines = text.splitlines()
    assert lines[1].strip() == "y = no_such_name + 1  # ERR"
    assert lines[2].index("^") == lines[1].index("no_such_name")


@asc2.jit
def k_while(x_ptr, n: int):
    i = 0
    while i < n:  # ERR
        i += 1


@asc2.jit
def k_try(x_ptr):
    try:  # ERR
        pass
    except Exception:
        pass


@asc2.jit
def k_lambda(x_ptr):
    f = lambda v: v  # ERR  # noqa: E731


@pytest.mark.parametrize("kernel,args,needle", [
    (k_while, (X, 3), "'while' loops are not supported"),
    (k_try, (X,), "'try' statements are not supported"),
    (k_lambda, (X,), "lambda expressions are not supported"),
])
def test_unsupported_syntax(kernel, args, needle):
    err = compile_error(kernel, *args)
    assert isinstance(err, asc2.UnsupportedError)
    assert needle in err.message
    assert err.line == line_of(kernel, "# ERR")


@asc2.jit
def k_tile(x_ptr, n: int, TILE: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [n, n])
    t = asc2.copy_in(x_gm, [0, 0], [2, TILE])  # ERR
    asc2.copy_out(t, x_gm, [0, 0])


def test_ub_alignment():
    # Rows of a rank-2 UB tile must be 32-byte aligned; a rank-1 tile may have any length.
    err = compile_error(k_tile, X, 256, TILE=3)
    assert isinstance(err, asc2.AlignmentError)
    assert "not 32-byte aligned" in err.message and "12 bytes" in err.message
    assert err.line == line_of(k_tile, "# ERR")
    assert err.col == 9
    # 16 f16 elements are 32 bytes: fine
    assert "tile<2x16xf16, UB>" in k_tile.ir(H, 256, TILE=16)


@asc2.jit
def k_args(x_ptr: asc2.GlobalAddress, n: int):  # ERR
    pass


def test_wrong_argument_kind():
    line = line_of(k_args, "# ERR")
    err = compile_error(k_args, 5, 3)
    assert isinstance(err, asc2.CompilationTypeError) and isinstance(err, TypeError)
    assert "argument 'x_ptr' expects an array (GlobalAddress), got int 5" in err.message
    assert err.line == line
    err = compile_error(k_args, X, 2.5)
    assert "argument 'n' expects an int, got float 2.5" in err.message
    assert err.line == line
    err = compile_error(k_args, X, (1, 2))
    assert "argument 'n'" in err.message


@asc2.jit
def k_unannotated(x_ptr, n):
    pass


def test_unannotated_runtime_argument_of_unsupported_type():
    err = compile_error(k_unannotated, X, "text")
    assert "cannot be passed at run time" in err.message and "asc2.ConstExpr" in err.message


@asc2.jit
def k_mixed(x_ptr, y_ptr):
    a = asc2.copy_in(asc2.global_tensor(x_ptr, [256]), [0], [256])
    b = asc2.copy_in(asc2.global_tensor(y_ptr, [256]), [0], [128])
    c = a + b  # ERR


def test_mismatched_shapes():
    # dtypes promote (f32 + f16 -> f32) but [256] and [128] do not broadcast
    for y in (X, H):
        err = compile_error(k_mixed, X, y)
        assert isinstance(err, asc2.ShapeError)
        assert "mismatched tile shapes [256] and [128]: they do not broadcast" in err.message
        assert err.line == line_of(k_mixed, "# ERR")


@asc2.jit
def k_runtime_shape(x_ptr, n: int):
    x_gm = asc2.global_tensor(x_ptr, [n])
    t = asc2.copy_in(x_gm, [0], [n])  # ERR


def test_runtime_tile_shape():
    err = compile_error(k_runtime_shape, X, 256)
    assert isinstance(err, asc2.ShapeError)
    assert "known at compile time" in err.message
    assert err.line == line_of(k_runtime_shape, "# ERR")


@asc2.jit
def k_matmul_ub(x_ptr):
    t = asc2.copy_in(asc2.global_tensor(x_ptr, [256]), [0], [256])
    s = t @ t  # ERR


def test_matmul_of_ub_tiles_is_a_clear_error():
    err = compile_error(k_matmul_ub, X)
    assert isinstance(err, asc2.UnsupportedError)
    assert "the tensor location must be L0A, got UB" in err.message
    assert "location=asc2.TensorLocation.L0A" in err.message
    assert err.line == line_of(k_matmul_ub, "# ERR")


@asc2.jit
def k_not_yet(x_ptr):
    t = asc2.copy_in(asc2.global_tensor(x_ptr, [256]), [0], [256])
    with asc2.mask(count=16):
        t = t + 1.0
        s = t.sum()  # ERR


def test_planned_op_is_a_clear_error():
    err = compile_error(k_not_yet, X)
    assert isinstance(err, asc2.UnsupportedError)
    assert "asc2.reduce_sum inside 'with asc2.mask(...)' is not supported" in err.message
    assert err.line == line_of(k_not_yet, "# ERR")


@asc2.jit(capture_exceptions=False)
def k_raw(x_ptr):
    x_gm = asc2.global_tensor(x_ptr, [32, 33])
    asc2.copy_in(x_gm, [0, 0], [32, 33])


@asc2.jit(capture_exceptions=False)
def k_raw_src(x_ptr):
    asc2.copy_in("invalid", [0], [128])


def test_capture_exceptions_false_propagates_plain_exceptions():
    with pytest.raises(RuntimeError, match="aligned") as info:
        k_raw.ir(X)
    assert not isinstance(info.value, asc2.CompilationError)
    with pytest.raises(TypeError, match="src"):
        k_raw_src.ir(X)
    with pytest.raises(TypeError, match="argument 'x_ptr'"):
        asc2.jit(capture_exceptions=False)(k_args.fn).ir(5, 3)


def test_errors_pickle_and_keep_position():
    import pickle

    err = compile_error(k_tile, X, 256, TILE=3)
    copy = pickle.loads(pickle.dumps(err))
    assert type(copy) is asc2.AlignmentError
    assert (copy.file, copy.line, copy.col, copy.message) == (err.file, err.line, err.col, err.message)
    assert str(copy) == str(err)
