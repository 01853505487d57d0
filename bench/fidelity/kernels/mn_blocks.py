"""Small matmuls with the whole K in L0, blocked over M and N (the published
Ascend950 pyasc cube points).

- ``mn_tiles``: block b computes M_TPB row tiles x N_TPB column tiles of C
  (M_TILE x N_TILE each) starting where the published kernel starts them: at
  row (b * M_TILE * M_TPB) % M, column ((b * M_TILE * M_TPB) // M) * N_TILE * N_TPB.
  For each column tile the K x N_TILE slab of B goes to L0B once, then each row
  tile of A to L0A, one mmad, one fixpipe store. Both loops unroll at compile time.
- ``batched``: block b multiplies batch b (A[b] @ B[b], [M, K] x [K, N]); for
  each M_TILE row block of A (in L0A) it streams N_TILE-wide slabs of B through
  L0B in a run-time loop (unrolled by UNROLL, parallel trips).
"""

import numpy as np

import asc2

from .common import Measurement

L = asc2.TensorLocation


@asc2.jit
def mn_tiles(a_ptr: asc2.GlobalAddress, b_ptr: asc2.GlobalAddress, c_ptr: asc2.GlobalAddress,
             M: asc2.ConstExpr[int], N: asc2.ConstExpr[int], K: asc2.ConstExpr[int],
             M_TILE: asc2.ConstExpr[int], M_TPB: asc2.ConstExpr[int],
             N_TILE: asc2.ConstExpr[int], N_TPB: asc2.ConstExpr[int]):
    a_gm = asc2.global_tensor(a_ptr, [M, K])
    b_gm = asc2.global_tensor(b_ptr, [K, N])
    c_gm = asc2.global_tensor(c_ptr, [M, N])
    first_row = M_TILE * M_TPB * asc2.block_idx()
    m_base = first_row % M
    n_base = (first_row // M) * (N_TILE * N_TPB)
    for j in asc2.static_range(N_TPB):
        b = asc2.copy_in(b_gm, [0, n_base + j * N_TILE], [K, N_TILE], location=L.L0B)
        for i in asc2.static_range(M_TPB):
            a = asc2.copy_in(a_gm, [m_base + i * M_TILE, 0], [M_TILE, K], location=L.L0A)
            asc2.copy_out(a @ b, c_gm, [m_base + i * M_TILE, n_base + j * N_TILE])


# reuse_alloc=2: the B slabs of the two unrolled trips share their DMA buffers, so two 32 KB
# [256, 64] slabs fit the 64 KB L0B as in the published kernel (otherwise the compiler plans three).
@asc2.jit(reuse_alloc=2)
def batched(a_ptr: asc2.GlobalAddress, b_ptr: asc2.GlobalAddress, c_ptr: asc2.GlobalAddress,
            BATCH: asc2.ConstExpr[int], M: asc2.ConstExpr[int], N: asc2.ConstExpr[int],
            K: asc2.ConstExpr[int], M_TILE: asc2.ConstExpr[int], N_TILE: asc2.ConstExpr[int],
            UNROLL: asc2.ConstExpr[int], PARALLEL: asc2.ConstExpr[bool]):
    a_gm = asc2.global_tensor(a_ptr, [BATCH * M, K])
    b_gm = asc2.global_tensor(b_ptr, [BATCH * K, N])
    c_gm = asc2.global_tensor(c_ptr, [BATCH * M, N])
    a_row = asc2.block_idx() * M
    b_row = asc2.block_idx() * K
    for i in asc2.static_range(M // M_TILE):
        a = asc2.copy_in(a_gm, [a_row + i * M_TILE, 0], [M_TILE, K], location=L.L0A)
        for j in asc2.range(N // N_TILE, unroll_factor=UNROLL, parallel=PARALLEL):
            b = asc2.copy_in(b_gm, [b_row, j * N_TILE], [K, N_TILE], location=L.L0B)
            asc2.copy_out(a @ b, c_gm, [a_row + i * M_TILE, j * N_TILE])


def _matmul_check(result, c, a, b):
    want = a.astype(np.float64) @ b.astype(np.float64)
    return result.check(c, want, rtol=0.0, atol=1e-5 * max(1.0, float(np.max(np.abs(want)))))


def run_mn_tiles(cases, seed=2026):
    """``cases``: one launch each, [m, k, n, cores, m_tile, n_tile, m_tpb, n_tpb]; the published
    Total tick covers all of them."""
    rng = np.random.default_rng(seed)
    result = Measurement()
    for m, k, n, cores, m_tile, n_tile, m_tpb, n_tpb in cases:
        a = rng.random((m, k), dtype=np.float32).astype(np.float16)
        b = rng.random((k, n), dtype=np.float32).astype(np.float16)
        c = np.zeros((m, n), np.float32)
        mn_tiles[cores](a, b, c, m, n, k, m_tile, m_tpb, n_tile, n_tpb)
        result.add_launch(mn_tiles, cores)
        _matmul_check(result, c, a, b)
    return result


def run_batched(cores, batch, m, k, n, m_tile, n_tile, unroll=1, parallel=False, seed=2026):
    if batch != cores:
        raise ValueError(f"one batch per core: {batch} batches on {cores} cores")
    rng = np.random.default_rng(seed)
    a = (rng.random((batch, m, k), dtype=np.float32) - 0.5).astype(np.float16)
    b = (rng.random((batch, k, n), dtype=np.float32) - 0.5).astype(np.float16)
    c = np.zeros((batch * m, n), np.float32)
    batched[cores](a.reshape(batch * m, k), b.reshape(batch * k, n), c, batch, m, n, k, m_tile, n_tile,
                   unroll, parallel)
    result = Measurement()
    result.add_launch(batched, cores)
    return _matmul_check(result, c.reshape(batch, m, n), a, b)
