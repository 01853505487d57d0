"""A UB tile assigned in both branches of an `if` (upstream's kimi_k3 attn_residual: a row loaded from one
tensor or the other) leaves the `if` in one buffer: each branch copies its tile in.

It used to be a compile error ("branches yield tile #0 in different buffers"). On Ascend910B1 (event-id
flags) it exposed a sync-planner bug: the balancing twin of a set placed at the end of the skipped branch
took an event id that a pair inside that branch had just waited on, which the set's pipe may overtake (the
simulator reported "set twice"); ids used in the skipped branch are now taken.
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


@pytest.mark.parametrize("platform", ["Ascend910B1", "Ascend950"])
@pytest.mark.parametrize("rows, split", [(5, 3), (4, 0), (6, 6), (9, 5)])
def test_a_tile_assigned_in_both_branches_leaves_the_if_in_one_buffer(platform, rows, split):
    assert not in_child_process(_pick, platform, rows, split, 256)
