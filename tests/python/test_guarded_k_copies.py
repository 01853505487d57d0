"""An unrolled K loop whose trip count is not a multiple of its unroll factor puts its second copy under a bounds
guard: `then` runs the inner K loop on the accumulator, `else` yields it unchanged. The accumulator is updated in
place in L0C; the else branch's use of it is on another path, so the lowering accepts it (it refused with "carries
an L0C accumulator that is also used elsewhere": upstream skill-stack matmul_v3 with K = 1152 or 1280 over 256-deep
L1 panels, unroll_factor=2 at both K levels).
"""

import numpy as np
import pytest

import asc2
from conftest import in_child_process, requires_native

L = asc2.TensorLocation


@asc2.jit
def k_panels(a_ptr, b_ptr, c_ptr, M: asc2.ConstExpr, N: asc2.ConstExpr, K: asc2.ConstExpr, KL1: asc2.ConstExpr,
             BK: asc2.ConstExpr, U1: asc2.ConstExpr, U0: asc2.ConstExpr):
    a_gm = asc2.global_tensor(a_ptr, [M, K])
    b_gm = asc2.global_tensor(b_ptr, [K, N])
    c_gm = asc2.global_tensor(c_ptr, [M, N])
    acc = asc2.zeros_acc([M, N], dtype=asc2.float32)
    for outer in range(asc2.ceildiv(K, KL1), unroll_factor=U1):
        a_l1 = asc2.copy_in(a_gm, [0, outer * KL1], [M, KL1], L.L1)
        b_l1 = asc2.copy_in(b_gm, [outer * KL1, 0], [KL1, N], L.L1)
        for inner in range(asc2.ceildiv(KL1, BK), unroll_factor=U0):
            a_l0 = asc2.copy(a_l1, [0, inner * BK], [M, BK], L.L0A)
            b_l0 = asc2.copy(b_l1, [inner * BK, 0], [BK, N], L.L0B)
            asc2.matmul_acc(acc, a_l0, b_l0)
    asc2.copy_out(acc, c_gm, [0, 0])


def _run(platform, k, unroll_outer, unroll_inner):
    asc2.set_platform(backend="Model", platform=platform)
    rng = np.random.default_rng(k)
    m, n = 64, 32
    a = rng.integers(-2, 3, (m, k)).astype(np.float16)
    b = rng.integers(-2, 3, (k, n)).astype(np.float16)
    c = np.zeros((m, n), np.float32)
    k_panels[1](a, b, c, m, n, k, 256, 64, unroll_outer, unroll_inner)
    np.testing.assert_array_equal(c, a.astype(np.float32) @ b.astype(np.float32))  # small integers: exact
    return k_panels.last_report["launch"]["races"]


@requires_native
@pytest.mark.parametrize("platform", ["Ascend910B1", "Ascend950"])
@pytest.mark.parametrize("k,unroll_outer,unroll_inner", [(1280, 2, 2), (1280, 2, 1), (1152, 2, 2), (1280, 3, 2),
                                                         (1024, 2, 2)])
def test_guarded_copy_of_a_k_loop_accumulates_in_place(platform, k, unroll_outer, unroll_inner):
    assert in_child_process(_run, platform, k, unroll_outer, unroll_inner) == []
