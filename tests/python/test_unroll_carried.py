"""asc2.range(unroll_factor=N) on a loop that carries a UB tile from trip to trip (a running sum): asc2 does not
unroll it, and says so at the loop's line (a remark in the report's diagnostics) instead of dropping the option
silently; a loop whose trips carry nothing is unrolled and gets no remark."""

import numpy as np

import asc2
from conftest import line_of, requires_native


@asc2.jit(always_compile=True)
def running_sum(x_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress, N: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [N * 64])
    out_gm = asc2.global_tensor(out_ptr, [64])
    total = asc2.full([64], 0.0, dtype=asc2.float32)
    for i in asc2.range(N, unroll_factor=2):  # line: carried loop
        total = total + asc2.copy_in(x_gm, [i * 64], [64])
    asc2.copy_out(total, out_gm, [0])


@asc2.jit(always_compile=True)
def doubled(x_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress, N: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [N * 64])
    out_gm = asc2.global_tensor(out_ptr, [N * 64])
    for i in asc2.range(N, unroll_factor=2):
        asc2.copy_out(asc2.copy_in(x_gm, [i * 64], [64]) * 2.0, out_gm, [i * 64])


def _remarks(kernel):
    return [d for d in kernel.last_report["diagnostics"] if d["severity"] == "remark"
            and "unroll_factor" in d["message"]]


@requires_native
def test_a_carried_loop_runs_one_trip_at_a_time_and_says_so():
    asc2.set_platform("Model", "Ascend910B1")
    x = np.arange(8 * 64, dtype=np.float32)
    out = np.zeros(64, np.float32)
    running_sum[1](x, out, 8)
    np.testing.assert_array_equal(out, x.reshape(8, 64).sum(axis=0))
    (remark,) = _remarks(running_sum)
    assert remark["loc"]["line"] == line_of(running_sum, "line: carried loop")
    assert "unroll_factor=2 is not applied" in remark["message"] and "carries a tile" in remark["message"]


@requires_native
def test_a_loop_carrying_nothing_is_unrolled_without_a_remark():
    asc2.set_platform("Model", "Ascend910B1")
    x = np.arange(8 * 64, dtype=np.float32)
    out = np.zeros_like(x)
    doubled[1](x, out, 8)
    np.testing.assert_array_equal(out, x * 2)
    assert _remarks(doubled) == []
    assert "v += 2" in doubled.last_report["ascendc"] or "+= 2)" in doubled.last_report["ascendc"]
