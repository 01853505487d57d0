"""asc2's dtypes answer upstream PyAsc2's DataType questions in upstream's spelling (methods), and float64 — a name
upstream's dtype list has and its unit helpers import — is a clear compile error wherever a tile or tensor would hold it.
"""

import numpy as np
import pytest

import asc2
from conftest import requires_native


@pytest.mark.parametrize("dt,flt,integer,signed,unsigned,size", [
    (asc2.float32, True, False, False, False, 4), (asc2.float16, True, False, False, False, 2),
    (asc2.bfloat16, True, False, False, False, 2), (asc2.float64, True, False, False, False, 8),
    (asc2.int64, False, True, True, False, 8), (asc2.int32, False, True, True, False, 4),
    (asc2.int16, False, True, True, False, 2), (asc2.int8, False, True, True, False, 1),
    (asc2.uint8, False, True, False, True, 1)])
def test_predicates_are_methods_as_upstream(dt, flt, integer, signed, unsigned, size):
    assert (dt.is_float(), dt.is_int(), dt.is_signed(), dt.is_unsigned()) == (flt, integer, signed, unsigned)
    assert dt.is_numeric() and not dt.is_void()
    assert dt.sizeof() == size == dt.itemsize and dt.bitwidth == 8 * size


def test_bool_is_not_numeric_and_has_no_byte_size():
    assert not asc2.bool_.is_numeric() and not asc2.bool_.is_float() and not asc2.bool_.is_int()
    with pytest.raises(ValueError, match="not a whole number of bytes"):
        asc2.bool_.sizeof()


def test_float64_names():
    assert asc2.float64 is asc2.double and repr(asc2.float64) == "asc2.float64"
    assert asc2.float64 != asc2.float32 and len({asc2.float64, asc2.float32}) == 2


@asc2.jit
def float64_tile(out_ptr):
    t = asc2.full([8], 1.0, dtype=asc2.float64)  # the float64 tile
    asc2.copy_out(t.to(asc2.float32), asc2.global_tensor(out_ptr, [8]), [0])


@asc2.jit
def float64_cast(x_ptr, out_ptr):
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [8]), [0], [8])
    asc2.copy_out(x.to(asc2.float64).to(asc2.float32), asc2.global_tensor(out_ptr, [8]), [0])  # the cast


@requires_native
@pytest.mark.parametrize("kernel,marker", [(float64_tile, "# the float64 tile"), (float64_cast, "# the cast")])
def test_float64_tiles_are_a_compile_error_at_their_line(kernel, marker):
    from conftest import line_of
    args = (np.zeros(8, np.float32),) if kernel is float64_tile else (np.zeros(8, np.float32), np.zeros(8, np.float32))
    with pytest.raises(asc2.CompilationTypeError) as e:
        kernel[1](*args)
    message = str(e.value)
    assert f"test_dtype_api.py:{line_of(kernel, marker)}:" in message
    assert "float64" in message and "asc2.float32" in message and "f64" not in message.replace("float64", "")


@requires_native
def test_float64_arrays_are_refused_naming_the_argument():
    with pytest.raises(asc2.CompilationError, match="argument 'x_ptr'.*float64"):
        float64_cast[1](np.zeros(8, np.float64), np.zeros(8, np.float32))
