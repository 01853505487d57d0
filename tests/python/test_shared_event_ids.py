"""More flag pairs of one pipe pair than event ids: two pairs share an id only when a flag the other way
orders the first pair's wait before the second pair's set.

A loop unrolled three times whose trips load two tiles needs six MTE2 -> V pairs on Ascend910B1, which
plans five ids. The planner used to give the sixth an id by rotation, assuming the pairs in between ordered
the two uses; here nothing did: the MTE2 queue could set event 0 for the next copy before the vector pipe
had waited for it (a lost signal on hardware). With the DMA's real queue depth (32 copies in flight) the
simulator's MTE2 runs that far ahead and reported "set twice". Such a pair now takes an id whose uses a
V -> MTE2 flag orders, else a PIPE_ALL barrier.
"""

import numpy as np
import pytest

import asc2
from conftest import in_child_process


@asc2.jit(reuse_alloc=0, always_compile=True)
def two_loads_three_copies(x_ptr: asc2.GlobalAddress, y_ptr: asc2.GlobalAddress, q_ptr: asc2.GlobalAddress,
                           y_out_ptr: asc2.GlobalAddress, size: int, TILE: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [size])
    y_gm = asc2.global_tensor(y_ptr, [size])
    q_gm = asc2.global_tensor(q_ptr, [size])
    y_out_gm = asc2.global_tensor(y_out_ptr, [size])
    for t in asc2.range(asc2.block_idx(), asc2.ceildiv(size, TILE), asc2.block_num(), unroll_factor=3):
        x = asc2.copy_in(x_gm, [t * TILE], [TILE])
        y = asc2.copy_in(y_gm, [t * TILE], [TILE])
        asc2.copy_out(y / (asc2.abs(x) + 1.0), q_gm, [t * TILE])
        asc2.copy_out(y, y_out_gm, [t * TILE])   # y: read by the vector pipe and by MTE3 only


def _run(platform, tiles, blocks):
    asc2.set_platform(backend="Model", platform=platform)
    tile = 400
    n = tiles * tile
    rng = np.random.default_rng(tiles)
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    q = np.zeros_like(x)
    y_out = np.zeros_like(y)
    two_loads_three_copies[blocks](x, y, q, y_out, n, tile)
    np.testing.assert_allclose(q, y / (np.abs(x) + np.float32(1)), rtol=1e-6)
    np.testing.assert_array_equal(y_out, y)
    return two_loads_three_copies.last_report["launch"]["races"]


@pytest.mark.parametrize("platform", ["Ascend910B1", "Ascend950"])
@pytest.mark.parametrize("tiles, blocks", [(23, 5), (30, 1), (7, 2)])
def test_a_shared_event_id_is_never_set_twice(platform, tiles, blocks):
    # A flag set twice before its wait is a simulation error; a race would be listed.
    assert not in_child_process(_run, platform, tiles, blocks)
