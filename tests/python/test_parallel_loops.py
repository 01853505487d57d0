"""`asc2.range(..., parallel=True)`: the trips of the loop are independent in GM.

Upstream's semantics (compiler-team-ru/pyasc docs/design/software-pipelining.md): a parallel loop
lets the stores of trip n run beside the loads of trip n + 1, also between the unrolled copies of
one trip. A kernel that updates a tensor in place tile by tile (Adam, in-place scaling) then needs no
MTE3 -> MTE2 flag around the loop, and its copies overlap. Without `parallel=True` the same GM tensor
read and written in a loop is ordered trip after trip (the write of trip n may be what trip n + 1
reads). A kernel that claims independence and is wrong gets a GM race from the simulator, not a
silent wrong answer.
"""

import numpy as np
import pytest

import asc2
from conftest import in_child_process, requires_native


@asc2.jit
def scale_in_place(x_ptr: asc2.GlobalAddress, n: int, TILE: asc2.ConstExpr[int], TRIPS: asc2.ConstExpr[int],
                   UNROLL: asc2.ConstExpr[int], PARALLEL: asc2.ConstExpr[bool]):
    x_gm = asc2.global_tensor(x_ptr, [n])
    base = asc2.block_idx() * TILE * TRIPS
    for i in asc2.range(TRIPS, unroll_factor=UNROLL, parallel=PARALLEL):
        x = asc2.copy_in(x_gm, [base + i * TILE], [TILE])
        asc2.copy_out(x * 2.0 + 1.0, x_gm, [base + i * TILE])


@asc2.jit
def count_up_in_place(x_ptr: asc2.GlobalAddress, n: int, TILE: asc2.ConstExpr[int],
                      PARALLEL: asc2.ConstExpr[bool]):
    """Trip t reads the tile trip t - 1 wrote: tile t = tile 0 + t."""
    x_gm = asc2.global_tensor(x_ptr, [n])
    for t in asc2.range(1, n // TILE, parallel=PARALLEL):
        prev = asc2.copy_in(x_gm, [(t - 1) * TILE], [TILE])
        asc2.copy_out(prev + 1.0, x_gm, [t * TILE])


TILE, BLOCKS = 512, 2


def _scale(trips, unroll, parallel):
    asc2.set_platform(backend="Model", platform="Ascend910B1")
    n = TILE * trips * BLOCKS
    x = np.random.default_rng(7).standard_normal(n).astype(np.float32)
    want = x * np.float32(2.0) + np.float32(1.0)
    scale_in_place[BLOCKS](x, n, TILE, trips, unroll, parallel)
    np.testing.assert_array_equal(x, want)
    report = scale_in_place.last_report
    gm_flags = [(s["src_pipe"], s["dst_pipe"], s["reason"]) for s in report["sync"]
                if s["kind"] in ("set_flag", "wait_flag") and "on x_ptr in GM" in s["reason"]]
    return {"gm_flags": gm_flags, "cycles": report["launch"]["cycles"], "races": report["launch"]["races"]}


@requires_native
@pytest.mark.parametrize("unroll", [1, 2], ids=["rolled", "unrolled"])
def test_a_parallel_loop_does_not_order_its_trips_in_gm(unroll):
    serial = in_child_process(_scale, 8, unroll, False)
    parallel = in_child_process(_scale, 8, unroll, True)
    # In order: the store of a trip is waited for before the next trip's load of the same tensor.
    assert any(src == "MTE3" and dst == "MTE2" for src, dst, _ in serial["gm_flags"]), serial["gm_flags"]
    # Independent trips: nothing orders GM, loads of trip n + 1 overlap the store of trip n.
    assert parallel["gm_flags"] == []
    assert serial["races"] == [] and parallel["races"] == []
    assert parallel["cycles"] < serial["cycles"], (parallel["cycles"], serial["cycles"])


def _count_up(parallel):
    asc2.set_platform(backend="Model", platform="Ascend910B1")
    n = 256 * 6
    x = np.zeros(n, dtype=np.float32)
    x[:256] = np.arange(256)
    want = (x[:256] + np.arange(6, dtype=np.float32)[:, None]).reshape(-1)
    try:
        count_up_in_place[1](x, n, 256, parallel)
    except asc2.errors.SimulationError as e:
        return str(e)
    np.testing.assert_array_equal(x, want)
    return ""


@requires_native
def test_a_loop_whose_trips_depend_on_each_other_is_ordered_without_parallel():
    assert in_child_process(_count_up, False) == ""


@requires_native
def test_a_false_parallel_claim_is_a_gm_race_not_a_wrong_answer():
    message = in_child_process(_count_up, True)
    assert "data race on GM bytes" in message and "of x_ptr" in message, message
    assert "(MTE3, write)" in message and "(MTE2, read)" in message, message
