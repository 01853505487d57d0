"""int64 tiles where the hardware has the instructions, a clear error where it does not.

Atlas A2/A3's vector arithmetic takes half, float, int16 and int32 lanes (the static_asserts of
mirror-cann/asc-devkit@82b89a15f:impl/basic_api/dav_c220/kernel_operator_vec_binary_impl.h and its scalar and
unary siblings), so int64 +, -, *, max, ... on A2/A3 are a compile error at their line, where the compiler used to
emit calls the device does not have. Bit operations (&, |, ^) are width-blind and run on the uint16 view on every
target; Ascend950 has 64-bit integer arithmetic. The emitted Ascend C of both kinds type-checks against Huawei's
headers (ascendc-check; docs/ascendc-api.md).
"""

import operator
import re

import numpy as np
import pytest

import asc2
from conftest import assert_user_terms, line_of, requires_native

N = 512


@asc2.jit
def combine(x_ptr: asc2.GlobalAddress, y_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress, n: int,
            OP: asc2.ConstExpr):
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [n]), [0], [N])
    y = asc2.copy_in(asc2.global_tensor(y_ptr, [n]), [0], [N])
    asc2.copy_out(OP(x, y), asc2.global_tensor(out_ptr, [n]), [0])  # the operation


def operands():
    rng = np.random.default_rng(64)
    info = np.iinfo(np.int64)
    x = rng.integers(info.min, info.max, N, dtype=np.int64)
    y = rng.integers(info.min, info.max, N, dtype=np.int64)
    return x, y, np.zeros(N, np.int64)


@requires_native
@pytest.mark.parametrize("op", [operator.add, operator.mul, operator.sub])
def test_int64_arithmetic_on_a2_is_an_error_at_its_line(op):
    asc2.set_platform("Model", "Ascend910B1")
    x, y, out = operands()
    with pytest.raises(asc2.CompilationError) as e:
        combine[1](x, y, out, N, op)
    message = str(e.value)
    assert f"test_int64_on_a2.py:{line_of(combine, '# the operation')}:" in message
    assert "int64 tile arithmetic" in message and "Atlas A2/A3" in message and "Ascend950" in message
    assert_user_terms(message)


@requires_native
@pytest.mark.parametrize("platform", ["Ascend910B1", "Ascend950"])
@pytest.mark.parametrize("op", [operator.and_, operator.or_, operator.xor])
def test_int64_bit_operations_run_everywhere(platform, op):
    asc2.set_platform("Model", platform)
    x, y, out = operands()
    combine[1](x, y, out, N, op)
    np.testing.assert_array_equal(out, op(x, y))
    src = combine.compile(x, y, out, N, op).ascendc
    assert not re.search(r"AscendC::(And|Or)\((?:(?!\);).)*int64", src)
    assert "ReinterpretCast<uint16_t>()" in src


@requires_native
@pytest.mark.parametrize("op", [operator.add, operator.mul, operator.sub])
def test_int64_arithmetic_on_ascend950_wraps_like_numpy(op):
    asc2.set_platform("Model", "Ascend950")
    x, y, out = operands()
    combine[1](x, y, out, N, op)
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(out, op(x, y))


@asc2.jit
def filled(out_ptr: asc2.GlobalAddress, n: int, v: int):
    asc2.copy_out(asc2.full([N], v, dtype=asc2.int64), asc2.global_tensor(out_ptr, [n]), [0])


@requires_native
@pytest.mark.parametrize("platform", ["Ascend910B1", "Ascend950"])
@pytest.mark.parametrize("value", [0, -1, (5 << 33) + 3, -(1 << 62)])
def test_int64_tiles_fill_with_any_value(platform, value):
    """No int64 Duplicate on A2/A3: the uint32_t view when the halves are equal, the scalar unit otherwise."""
    asc2.set_platform("Model", platform)
    out = np.zeros(N, np.int64)
    filled[1](out, N, value)
    np.testing.assert_array_equal(out, np.full(N, value, np.int64))
    src = filled.compile(out, N, value).ascendc
    int64_duplicate = re.search(r"AscendC::Duplicate\(\w+, static_cast<int64_t>", src)
    assert (int64_duplicate is None) == (platform == "Ascend910B1")
