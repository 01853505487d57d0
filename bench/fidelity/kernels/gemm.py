"""fp16 GEMMs C = A · Bᵀ with the tilings of the PTO-ISA manual GEMMs: our own
asc2 kernels doing the same work in the same order.

``gemm_abt`` (hw-native-sys/pto-isa@3186c381:kernels/manual/a2a3/gemm_performance),
fp32 output:

- Core grid GRID_M x GRID_N (4 x 6 on 24 cube cores): block b owns the
  (M / GRID_M) x (N / GRID_N) panel of C at row (b % GRID_M), column (b // GRID_M).
- Inside it, BM x BN base blocks of C (128 x 256), each accumulated in L0C over
  all of K with one mmad per BK (64) step.
- Every STEP_K (4) steps one DMA brings a BM x (BK * STEP_K) panel of A and a
  BN x (BK * STEP_K) panel of Bᵀ into L1; the BK slices move to L0A / L0B (B
  transposed on the way). The compiler double-buffers L1, L0A and L0B, as the
  reference does by hand.

``gemm_abt_tiles`` (the compute kernel of pto-isa@3186c381:kernels/manual/*/gemm_ar,
timed alone as "Compute-only"), fp16 output cast by the fixpipe: the
(M / BM) x (N / BN) base blocks, numbered row by row with every odd row walked
backwards (zigzag, so neighbours share a Bᵀ panel), are split into contiguous
ranges over the blocks (the first T % B blocks one more); each base block as
above.
"""

import numpy as np

import asc2

from .common import Measurement

L = asc2.TensorLocation


@asc2.jit
def _base_block(a_gm: asc2.GlobalTensor, bt_gm: asc2.GlobalTensor, m0, n0, K, BM, BN, BK, STEP_KA, STEP_KB):
    """C[m0:m0+BM, n0:n0+BN] accumulated over K in L0C (inlined into the kernels). An L1 panel of A
    holds STEP_KA BK-steps, one of Bᵀ STEP_KB (STEP_KA a multiple of STEP_KB)."""
    acc = asc2.zeros_acc([BM, BN])
    for k1 in asc2.range(0, K, BK * STEP_KA):
        a_panel = asc2.copy_in(a_gm, [m0, k1], [BM, BK * STEP_KA], location=L.L1)
        for kb in asc2.static_range(STEP_KA // STEP_KB):
            b_panel = asc2.copy_in(bt_gm, [n0, k1 + kb * BK * STEP_KB], [BN, BK * STEP_KB], location=L.L1).T
            for kk in asc2.static_range(STEP_KB):
                a0 = asc2.copy(a_panel, [0, (kb * STEP_KB + kk) * BK], [BM, BK], location=L.L0A)
                b0 = asc2.copy(b_panel, [kk * BK, 0], [BK, BN], location=L.L0B)
                acc = asc2.matmul_acc(acc, a0, b0)
    return acc


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
            acc = _base_block(a_gm, bt_gm, m_base + i, n_base + j, K, BM, BN, BK, STEP_K, STEP_K)
            asc2.copy_out(acc, c_gm, [m_base + i, n_base + j])


@asc2.jit
def gemm_abt_tiles(a_ptr: asc2.GlobalAddress, bt_ptr: asc2.GlobalAddress, c_ptr: asc2.GlobalAddress,
                   M: asc2.ConstExpr[int], N: asc2.ConstExpr[int], K: asc2.ConstExpr[int],
                   BM: asc2.ConstExpr[int], BN: asc2.ConstExpr[int], BK: asc2.ConstExpr[int],
                   STEP_K: asc2.ConstExpr[int]):
    a_gm = asc2.global_tensor(a_ptr, [M, K])
    bt_gm = asc2.global_tensor(bt_ptr, [N, K])
    c_gm = asc2.global_tensor(c_ptr, [M, N])
    n_tiles = N // BN
    tiles = (M // BM) * n_tiles
    b = asc2.block_idx()
    share = tiles // asc2.block_num()
    extra = tiles % asc2.block_num()
    start = b * share + extra
    count = share
    if b < extra:
        start = b * (share + 1)
        count = share + 1
    for t in asc2.range(start, start + count):
        mi = t // n_tiles
        ni = t % n_tiles
        if mi % 2 == 1:
            ni = n_tiles - 1 - ni
        acc = _base_block(a_gm, bt_gm, mi * BM, ni * BN, K, BM, BN, BK, STEP_K, STEP_K)
        asc2.copy_out(acc, c_gm, [mi * BM, ni * BN])


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


def run_tiles(cores, m, n, k, base=(128, 256, 64), step_k=4, seed=0):
    """fp16 output: numpy's fp32 product rounded to fp16 (half an ulp) plus the accumulation order."""
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((m, k)).astype(np.float16)
    bt = rng.standard_normal((n, k)).astype(np.float16)
    c = np.zeros((m, n), np.float16)
    gemm_abt_tiles[cores](a, bt, c, m, n, k, *base, step_k)
    result = Measurement()
    result.add_launch(gemm_abt_tiles, cores)
    want = a.astype(np.float32) @ bt.astype(np.float32).T
    return result.check(c, want, rtol=2 ** -10, atol=1e-5 * max(1.0, float(np.max(np.abs(want)))))
