"""A UB tile assigned in both branches of an `if` (upstream's kimi_k3 attn_residual: a row loaded from one
tensor or the other) leaves the `if` in one buffer on Ascend950: each branch copies its tile in.

It used to be a compile error ("branches yield tile #0 in different buffers"); on Ascend910B1 it still is,
with the reason: the event-id sync planner can reuse, for the join's balancing set_flag, an id that a pair
inside the branch waits on just before it (a race the simulator reports as "set twice").
"""

import numpy as np
import pytest

import asc2
from conftest import in_child_process


@asc2.jit(always_compile=True)
def pick_rows(a_ptr, b_ptr, out_ptr, rows: asc2.ConstExpr[int], split, n: asc2.ConstExpr[int]):
    a_gm = asc2.global_tensor(a_ptr, [rows, n])
    b_gm = asc2.global_tensor(b_ptr, [rows, n])
    out_gm = asc2.global_tensor(out_ptr, [rows, n])
    for row in asc2.range(rows, unroll_factor=2):
        value = asc2.full([n], 0, dtype=asc2.float32)
        if row < split:
            value = asc2.copy_in(a_gm, [row, 0], [n])
        else:
            value = asc2.copy_in(b_gm, [row, 0], [n]) * 2.0
        asc2.copy_out(value + 1.0, out_gm, [row, 0])


def _pick(platform, rows, split, n):
    asc2.set_platform(backend="Model", platform=platform)
    rng = np.random.default_rng(rows + split)
    a = rng.standard_normal((rows, n)).astype(np.float32)
    b = rng.standard_normal((rows, n)).astype(np.float32)
    out = np.zeros_like(a)
    pick_rows[1](a, b, out, rows, split, n)
    want = np.where(np.arange(rows)[:, None] < split, a, b * np.float32(2)) + np.float32(1)
    np.testing.assert_array_equal(out, want)
    return pick_rows.last_report["launch"]["races"]


@pytest.mark.parametrize("rows, split", [(5, 3), (4, 0), (6, 6)])
def test_a_tile_assigned_in_both_branches_leaves_the_if_in_one_buffer(rows, split):
    assert not in_child_process(_pick, "Ascend950", rows, split, 256)


def test_on_ascend910b1_it_is_a_compile_error_at_the_if():
    with pytest.raises(asc2.errors.CompilationError, match="branches must update one tile") as e:
        in_child_process(_pick, "Ascend910B1", 5, 3, 256)
    assert "test_if_tiles.py:23" in str(e.value) and "asctile" not in str(e.value)
