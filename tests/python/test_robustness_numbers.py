"""issue 17: no silently wrong numbers at the edges (negative operands, zeros, NaN, Inf, huge values)."""

import numpy as np
import pytest

import asc2
from conftest import requires_native

pytestmark = requires_native


@asc2.jit
def int_division(out_ptr, a: int, b: int):
    out_gm = asc2.global_tensor(out_ptr, [32])
    asc2.copy_out(asc2.full([8], a // b, asc2.int32), out_gm, [0])
    asc2.copy_out(asc2.full([8], a % b, asc2.int32), out_gm, [8])
    asc2.copy_out(asc2.full([8], a // 3, asc2.int32), out_gm, [16])  # a known positive divisor
    asc2.copy_out(asc2.full([8], a % 3, asc2.int32), out_gm, [24])


@pytest.mark.parametrize("a,b", [(-7, 2), (7, -2), (-7, -2), (7, 2), (-8, 2), (-7, 3), (0, -3), (-1, 5),
                                 (-2**40, 7), (2**40 + 3, -7)])
def test_runtime_integer_floor_division_and_modulo_follow_python(a, b):
    out = np.zeros(32, np.int32)
    int_division[1](out, a, b)
    got = [int(v) for v in out[::8]]
    expected = [a // b, a % b, a // 3, a % 3]
    # The tiles are int32: what the scalars compute in 64 bits is stored truncated, as numpy's astype does.
    assert got == [int(np.int64(v).astype(np.int32)) for v in expected]
