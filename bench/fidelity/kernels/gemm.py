"""fp16 GEMM C = A · Bᵀ → fp32 with the tiling of the PTO-ISA manual GEMM
(hw-native-sys/pto-isa@3186c381:kernels/manual/a2a3/gemm_performance): our own
asc2 kernel doing the same work in the same order.

- Core grid GRID_M x GRID_N (4 x 6 on 24 cube cores): block b owns the
  (M / GRID_M) x (N / GRID_N) panel of C at row (b % GRID_M), column (b // GRID_M).
- Inside it, BM x BN base blocks of C (128 x 256), each accumulated in L0C over
  all of K with one mmad per BK (64) step.
- Every STEP_K (4) steps one DMA brings a BM x (BK * STEP_K) panel of A and a
  BN x (BK * STEP_K) panel of Bᵀ into L1; the BK slices move to L0A / L0B (B
  transposed on the way). The compiler double-buffers L1, L0A and L0B, as the
  reference does by hand.
"""

import numpy as np

import asc2

from .common import Measurement

L = asc2.TensorLocation


@asc2.jit
def gemm_abt(a_ptr: asc2.GlobalAddress, bt_ptr: asc2.GlobalAddress, c_ptr: asc2.GlobalAddress,
             M: asc2.ConstExpr[int], N: asc2.ConstExpr[int], K: asc2.ConstExpr[int],
             GRID_M: asc2.ConstExpr[int], GRID_N: asc2.ConstExpr[int],
             BM: asc2.ConstExpr[int], BN: asc2.ConstExpr[int], BK: asc2.ConstExpr[int],
             STEP_K: asc2.ConstExpr[int]):
    a_gm = asc2.global_tensor(a_ptr, [M, K])
    bt_gm = asc2.global_tensor(bt_ptr, [N, K])
    c_gm = asc2.global_tensor(c_ptr, [M, N])
    m_base = (asc2.block_idx() % GRID_M) * (M // GRID_M)
    n_base = (asc2.block_idx() // GRID_M) * (N // GRID_N)
    for i in asc2.range(0, M // GRID_M, BM):
        for j in asc2.range(0, N // GRID_N, BN):
            acc = asc2.zeros_acc([BM, BN])
            for k1 in asc2.range(0, K, BK * STEP_K):
                a_panel = asc2.copy_in(a_gm, [m_base + i, k1], [BM, BK * STEP_K], location=L.L1)
                b_panel = asc2.copy_in(bt_gm, [n_base + j, k1], [BN, BK * STEP_K], location=L.L1).T
                for kk in asc2.static_range(STEP_K):
                    a0 = asc2.copy(a_panel, [0, kk * BK], [BM, BK], location=L.L0A)
                    b0 = asc2.copy(b_panel, [kk * BK, 0], [BK, BN], location=L.L0B)
                    acc = asc2.matmul_acc(acc, a0, b0)
            asc2.copy_out(acc, c_gm, [m_base + i, n_base + j])


def run(cores, m, n, k, grid=(4, 6), base=(128, 256, 64), step_k=4, seed=0):
    if grid[0] * grid[1] != cores:
        raise ValueError(f"core grid {grid[0]}x{grid[1]} does not cover {cores} cores")
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((m, k)).astype(np.float16)
    bt = rng.standard_normal((n, k)).astype(np.float16)
    c = np.zeros((m, n), np.float32)
    gemm_abt[cores](a, bt, c, m, n, k, grid[0], grid[1], *base, step_k)
    result = Measurement()
    result.add_launch(gemm_abt, cores)
    want = a.astype(np.float32) @ bt.astype(np.float32).T
    # fp32 accumulation in a different order than numpy's: relative to the largest |C|.
    return result.check(c, want, rtol=0.0, atol=1e-5 * max(1.0, float(np.max(np.abs(want)))))
