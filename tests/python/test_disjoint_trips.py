"""asctile-disjoint-trips: a loop whose trips provably touch disjoint GM bytes gets no loop-carried GM
order, as if the kernel had said parallel=True, and only such loops.

The MIX hand-off through a workspace tile per trip (the cube core writes tile t, the vector cores read
it back) used to get a cross-core WAR from trip t's read to trip t+1's write: no byte is shared, but
sync insertion tracks a GM tensor as one resource. The pass evaluates the offsets of every access of
each written buffer for every possible trip and marks the loop when they are disjoint. A loop whose
trips share a tile, or whose offsets come from a run-time value, keeps its order.
"""

import numpy as np
import pytest

import asc2
from conftest import in_child_process, requires_native

L0A, L0B = asc2.TensorLocation.L0A, asc2.TensorLocation.L0B


@asc2.jit(always_compile=True)
def mm_relu(a_ptr, b_ptr, ws_ptr, c_ptr, M: asc2.ConstExpr[int], N: asc2.ConstExpr[int], K: asc2.ConstExpr[int],
            BM: asc2.ConstExpr[int], BN: asc2.ConstExpr[int], SHARED: asc2.ConstExpr[bool],
            RUNTIME: asc2.ConstExpr[bool], shift: int):
    a_gm = asc2.global_tensor(a_ptr, [M, K])
    b_gm = asc2.global_tensor(b_ptr, [K, N])
    ws = asc2.global_tensor(ws_ptr, [M, N])
    c_gm = asc2.global_tensor(c_ptr, [M, N])
    blocks_n = asc2.ceildiv(N, BN)
    for t in asc2.range(asc2.block_idx(), asc2.ceildiv(M, BM) * blocks_n, asc2.block_num()):
        m0 = (t // blocks_n) * BM
        n0 = (t % blocks_n) * BN
        # SHARED: every trip goes through the same workspace tile. RUNTIME: the tile's row is
        # m0 + shift, a kernel argument (0 here) the compiler cannot see.
        w0 = 0 if SHARED else (m0 + shift if RUNTIME else m0)
        w1 = 0 if SHARED else n0
        a = asc2.copy_in(a_gm, [m0, 0], [BM, K], location=L0A)
        b = asc2.copy_in(b_gm, [0, n0], [K, BN], location=L0B)
        asc2.copy_out(a @ b, ws, [w0, w1])
        x = asc2.copy_in(ws, [w0, w1], [BM, BN])
        asc2.copy_out(asc2.relu(x), c_gm, [m0, n0])


def _run(platform, shared, runtime):
    asc2.set_platform(backend="Model", platform=platform)
    m, n, k, bm, bn = 128, 128, 32, 64, 64
    rng = np.random.default_rng(2)
    a = rng.integers(-3, 4, (m, k)).astype(np.float16)
    b = rng.integers(-3, 4, (k, n)).astype(np.float16)
    ws = np.zeros((m, n), np.float32)
    c = np.zeros((m, n), np.float32)
    # A shared tile on one core only: blocks of a launch are not ordered with each other.
    mm_relu[1 if shared else 2](a, b, ws, c, m, n, k, bm, bn, shared, runtime, 0)
    np.testing.assert_array_equal(c, np.maximum(a.astype(np.float32) @ b.astype(np.float32), 0))
    report = mm_relu.last_report
    # The kernel has one loop, the tile loop.
    ir = next(p["ir"] for p in report["passes"] if p["name"] == "asctile-disjoint-trips")
    carried = [s["reason"] for s in report["sync"]
               if s["kind"] == "wait_flag" and "ws_ptr in GM" in s["reason"] and "loop-carried" in s["reason"]]
    return "asctile.disjoint_trips" in ir, carried, report["launch"]["races"]


@requires_native
@pytest.mark.parametrize("platform", ["Ascend910B1", "Ascend950"])
def test_a_tile_per_trip_needs_no_order_between_trips(platform):
    marked, carried, races = in_child_process(_run, platform, False, False)
    assert marked and carried == [] and races == []


@requires_native
def test_trips_sharing_a_workspace_tile_stay_ordered():
    marked, carried, races = in_child_process(_run, "Ascend910B1", True, False)
    assert not marked
    assert carried, "the WAR from one trip's read of the shared tile to the next trip's write is needed"
    assert races == []


@requires_native
def test_offsets_from_a_run_time_value_are_not_guessed():
    marked, carried, races = in_child_process(_run, "Ascend910B1", False, True)
    assert not marked and carried and races == []


@asc2.jit(always_compile=True)
def scatter_then_read(x_ptr, idx_ptr, out_ptr, y_ptr, N: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [N, 16])
    idx_gm = asc2.global_tensor(idx_ptr, [N])
    out = asc2.global_tensor(out_ptr, [N, 16])
    y_gm = asc2.global_tensor(y_ptr, [N, 16])
    for t in asc2.range(0, N // 8):
        x = asc2.copy_in(x_gm, [t * 8, 0], [8, 16])
        i = asc2.copy_in(idx_gm, [t * 8], [8])
        asc2.scatter(x, 0, i, out, [0])                       # rows anywhere in out
        asc2.copy_out(asc2.copy_in(out, [t * 8, 0], [8, 16]), y_gm, [t * 8, 0])


def _scatter_loop():
    asc2.set_platform(backend="Model", platform="Ascend950")
    n = 32
    x = np.arange(n * 16, dtype=np.float32).reshape(n, 16)
    idx = np.random.default_rng(1).permutation(n).astype(np.int32)
    out = np.zeros((n, 16), np.float32)
    y = np.zeros((n, 16), np.float32)
    scatter_then_read[1](x, idx, out, y, n)
    want_out = np.zeros_like(out)
    want_out[idx] = x
    np.testing.assert_array_equal(out, want_out)
    report = scatter_then_read.last_report
    ir = next(p["ir"] for p in report["passes"] if p["name"] == "asctile-disjoint-trips")
    return "asctile.disjoint_trips" in ir, report["launch"]["races"]


@requires_native
def test_a_scatter_makes_its_tensor_unprovable():
    # Trip t reads rows of out that a later trip's scatter may write: the order stays.
    marked, races = in_child_process(_scatter_loop)
    assert not marked and races == []
