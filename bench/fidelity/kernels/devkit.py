"""Kernels of Huawei's Ascend C best-practice samples (cannmirror/asc-devkit@54f99b3
examples/01_simd_cpp_api/05_best_practices), written in asc2 with the same work,
split and copy sizes; their READMEs publish the samples' msprof times on silicon.

- ``add_rows``: z = x + y over an [M, N] array, the rows split evenly over the
  blocks (the first M % blocks blocks take one row more, each block's rows
  contiguous in GM), each block walking its rows in CHUNK-element copies (a last
  shorter one of whole rows when CHUNK does not divide them), x and y loaded,
  added, z stored per trip, each in its own buffer. STAGES 1 is the sample's
  single-buffered loop, 2 its ping-pong one.
- ``add_stream``: the same z = x + y with the rows split evenly over the blocks,
  each block's part walked as one flat run in CHUNK-element copies, the last
  one as long as what is left (``real_shape``), x, y and z each in their own
  ping-pong buffers (the L2 cache-mode sample's add, its NORMAL case).
- ``gelu_blocks``: the tanh GELU as x / (1 + exp(-sqrt(8/pi) (x + 0.044715 x^3))),
  the sample's eight basic-API vector ops in its order (x*x, *x, *0.044715, +x,
  *-sqrt(8/pi), exp, +1, x / .), over an [M, N] array cut into blocks of
  [BM, BN] (block b at row (b % (M / BM)) * BM, column (b // (M / BM)) * BN), each
  block walking its rows ROWS at a time (one strided [ROWS, BN] copy in and out
  per trip), ping-pong buffered.
- ``mm_blocks``: C = A · Bᵀ in float16 through float32 in L0C (the fixpipe casts),
  the matmul sample's basic-API form: block b owns C[(b % (M / SCM)) * SCM, ...]
  of SCM rows and SCN columns (fewer in the last column of blocks when SCN does
  not divide N); with ROUNDS > 1 a block takes ROUNDS such panels one after the
  other, the blocks of a round covering M / ROUNDS rows together (the sample's
  "L2 cache" order: a round's blocks share fewer A rows). Inside a panel the
  BN-wide column blocks are the outer loop, the BM row blocks the inner one,
  each accumulated over K in BK steps; an L1 panel of A holds SKA steps, one of
  Bᵀ SKB (SKA a multiple of SKB); L1 and L0 are ping-pong buffered, as the
  sample does by hand.
- ``mm_gelu_blocks``: the matmul-GELU fusion sample (a MIX kernel): ``mm_blocks``'s
  blocks, panels and loops with C in float32, each BM x BN block of C given the
  GELU of ``gelu_blocks`` on the vector cores as soon as the cube core has it
  (the two vector cores of the group half of its rows each). VIA_UB 0 hands the
  block over through GM (the fixpipe stores it to C, the vector cores load it
  back and overwrite it with its GELU); VIA_UB 1 through the Ascend950's
  L0C -> UB path (the fixpipe writes the vector cores' UB, no GM read).
  PARTS 2 hands each vector core its rows in two halves (in two bands of the
  accumulator's rows with VIA_UB 1, both moved before the vector work), where
  a whole half and its GELU would not fit the 248 KB of UB a kernel may use.
"""

import math

import numpy as np

import asc2

from .common import Measurement
from .gemm import _base_block

L = asc2.TensorLocation

NEG_SQRT_8_OVER_PI = -math.sqrt(8.0 / math.pi)


@asc2.jit
def _block_part(x_ptr, y_ptr, z_ptr, M, N, SPLIT):
    """The add kernels' three flat [M * N] tensors and this block's part of them: the rows of M split evenly
    over SPLIT blocks (the first M % SPLIT blocks take one more, each block's rows contiguous), as its first
    element and its element count."""
    x_gm = asc2.global_tensor(x_ptr, [M * N])
    y_gm = asc2.global_tensor(y_ptr, [M * N])
    z_gm = asc2.global_tensor(z_ptr, [M * N])
    base_rows = M // SPLIT
    extra = M % SPLIT
    b = asc2.block_idx()
    takes_extra = (extra - 1 - b + SPLIT) // SPLIT          # 1 for the first `extra` blocks, else 0
    first = b * base_rows + b * takes_extra + extra * (1 - takes_extra)
    return x_gm, y_gm, z_gm, first * N, (base_rows + takes_extra) * N


def _add_rows(x_ptr: asc2.GlobalAddress, y_ptr: asc2.GlobalAddress, z_ptr: asc2.GlobalAddress,
              M: asc2.ConstExpr[int], N: asc2.ConstExpr[int], SPLIT: asc2.ConstExpr[int],
              CHUNK: asc2.ConstExpr[int]):
    x_gm, y_gm, z_gm, start, total = _block_part(x_ptr, y_ptr, z_ptr, M, N, SPLIT)
    full = total // CHUNK
    for i in asc2.range(full):
        off = start + i * CHUNK
        asc2.copy_out(asc2.copy_in(x_gm, [off], [CHUNK]) + asc2.copy_in(y_gm, [off], [CHUNK]), z_gm, [off])
    tail_start = start + full * CHUNK
    for r in asc2.range((total - full * CHUNK) // N):  # CHUNK a whole number of rows: 0 or more rows left
        off = tail_start + r * N
        asc2.copy_out(asc2.copy_in(x_gm, [off], [N]) + asc2.copy_in(y_gm, [off], [N]), z_gm, [off])


def _add_stream(x_ptr: asc2.GlobalAddress, y_ptr: asc2.GlobalAddress, z_ptr: asc2.GlobalAddress,
                M: asc2.ConstExpr[int], N: asc2.ConstExpr[int], SPLIT: asc2.ConstExpr[int],
                CHUNK: asc2.ConstExpr[int]):
    x_gm, y_gm, z_gm, start, total = _block_part(x_ptr, y_ptr, z_ptr, M, N, SPLIT)
    for i in asc2.range(asc2.ceildiv(total, CHUNK)):
        off = start + i * CHUNK
        left = total - i * CHUNK
        if left > CHUNK:
            left = CHUNK
        x = asc2.copy_in(x_gm, [off], [CHUNK], real_shape=[left])
        y = asc2.copy_in(y_gm, [off], [CHUNK], real_shape=[left])
        asc2.copy_out(x + y, z_gm, [off], real_shape=[left])


def _gelu_blocks(x_ptr: asc2.GlobalAddress, y_ptr: asc2.GlobalAddress,
                 M: asc2.ConstExpr[int], N: asc2.ConstExpr[int], BM: asc2.ConstExpr[int],
                 BN: asc2.ConstExpr[int], ROWS: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [M, N])
    y_gm = asc2.global_tensor(y_ptr, [M, N])
    b = asc2.block_idx()
    row0 = (b % (M // BM)) * BM
    col0 = (b // (M // BM)) * BN
    for i in asc2.range(BM // ROWS):
        x = asc2.copy_in(x_gm, [row0 + i * ROWS, col0], [ROWS, BN])
        asc2.copy_out(_gelu(x), y_gm, [row0 + i * ROWS, col0])


def _mm_blocks(a_ptr: asc2.GlobalAddress, bt_ptr: asc2.GlobalAddress, c_ptr: asc2.GlobalAddress,
               M: asc2.ConstExpr[int], N: asc2.ConstExpr[int], K: asc2.ConstExpr[int],
               SCM: asc2.ConstExpr[int], SCN: asc2.ConstExpr[int], BM: asc2.ConstExpr[int],
               BN: asc2.ConstExpr[int], BK: asc2.ConstExpr[int], SKA: asc2.ConstExpr[int],
               SKB: asc2.ConstExpr[int], ROUNDS: asc2.ConstExpr[int]):
    a_gm = asc2.global_tensor(a_ptr, [M, K])
    bt_gm = asc2.global_tensor(bt_ptr, [N, K])
    c_gm = asc2.global_tensor(c_ptr, [M, N])
    b = asc2.block_idx()
    per_round = M // (SCM * ROUNDS)  # row panels a round of blocks covers
    n_base = (b // per_round) * SCN
    n_size = N - n_base
    if n_size > SCN:
        n_size = SCN
    for r in asc2.range(ROUNDS):
        m_base = (b % per_round + r * per_round) * SCM
        for j in asc2.range(0, n_size, BN):
            for i in asc2.range(0, SCM, BM):
                acc = _base_block(a_gm, bt_gm, m_base + i, n_base + j, K, BM, BN, BK, SKA, SKB)
                asc2.copy_out(acc, c_gm, [m_base + i, n_base + j])


@asc2.jit
def _gelu(x):
    """The samples' tanh GELU: their eight basic-API vector ops in their order."""
    return x / (asc2.exp((x * x * x * 0.044715 + x) * NEG_SQRT_8_OVER_PI) + 1)


def _mm_gelu_blocks(a_ptr: asc2.GlobalAddress, bt_ptr: asc2.GlobalAddress, c_ptr: asc2.GlobalAddress,
                    M: asc2.ConstExpr[int], N: asc2.ConstExpr[int], K: asc2.ConstExpr[int],
                    SCM: asc2.ConstExpr[int], SCN: asc2.ConstExpr[int], BM: asc2.ConstExpr[int],
                    BN: asc2.ConstExpr[int], BK: asc2.ConstExpr[int], SKA: asc2.ConstExpr[int],
                    SKB: asc2.ConstExpr[int], VIA_UB: asc2.ConstExpr[int], PARTS: asc2.ConstExpr[int]):
    a_gm = asc2.global_tensor(a_ptr, [M, K])
    bt_gm = asc2.global_tensor(bt_ptr, [N, K])
    c_gm = asc2.global_tensor(c_ptr, [M, N])
    b = asc2.block_idx()
    m_base = (b % (M // SCM)) * SCM
    n_base = (b // (M // SCM)) * SCN
    n_size = N - n_base
    if n_size > SCN:
        n_size = SCN
    for j in asc2.range(0, n_size, BN):
        for i in asc2.range(0, SCM, BM):
            acc = _base_block(a_gm, bt_gm, m_base + i, n_base + j, K, BM, BN, BK, SKA, SKB)
            if VIA_UB == 1:
                # Both bands (PARTS 1 or 2) into UB first, as the sample's one fixpipe moves the block: the
                # accumulator is free for the next block without waiting for this block's vector work.
                first = asc2.copy(acc, [0, 0], [BM // PARTS, BN], location=L.UB)
                if PARTS == 2:
                    second = asc2.copy(acc, [BM // 2, 0], [BM // 2, BN], location=L.UB)
            else:
                asc2.copy_out(acc, c_gm, [m_base + i, n_base + j])
            for p in asc2.static_range(PARTS):
                row = m_base + i + p * (BM // PARTS)
                if VIA_UB == 1:
                    if p == 0:
                        x = first
                    else:
                        x = second
                else:
                    x = asc2.copy_in(c_gm, [row, n_base + j], [BM // PARTS, BN])
                asc2.copy_out(_gelu(x), c_gm, [row, n_base + j])


# One compiled form per buffering: the samples fix it by hand (num_stages picks ours). The add sample keeps x, y
# and z in their own UB buffers (reuse_alloc=0: z does not take x's place, so the next trip's loads need not
# wait for this trip's store).
ADD_ROWS = {stages: asc2.jit(_add_rows, num_stages=stages, reuse_alloc=0) for stages in (1, 2)}
ADD_STREAM = asc2.jit(_add_stream, num_stages=2, reuse_alloc=0)
GELU_BLOCKS = asc2.jit(_gelu_blocks, num_stages=2)
MM_BLOCKS = asc2.jit(_mm_blocks)
MM_GELU_BLOCKS = asc2.jit(_mm_gelu_blocks)


def _gelu_reference(x):
    x = np.asarray(x, np.float64)
    return 0.5 * x * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x ** 3)))


def run_add_rows(cores, m, n, chunk, stages, seed=2026):
    rng = np.random.default_rng(seed)
    x = rng.random((m, n), dtype=np.float32).astype(np.float16)
    y = rng.random((m, n), dtype=np.float32).astype(np.float16)
    z = np.zeros_like(x)
    kernel = ADD_ROWS[stages]
    kernel[cores](x, y, z, m, n, cores, chunk)
    result = Measurement()
    result.add_launch(kernel, cores)
    return result.check(z, x.astype(np.float64) + y, 1e-3, 1e-3)


def run_add_stream(cores, m, n, chunk, seed=2026):
    rng = np.random.default_rng(seed)
    x = rng.random((m, n), dtype=np.float32).astype(np.float16)
    y = rng.random((m, n), dtype=np.float32).astype(np.float16)
    z = np.zeros_like(x)
    ADD_STREAM[cores](x, y, z, m, n, cores, chunk)
    result = Measurement()
    result.add_launch(ADD_STREAM, cores)
    return result.check(z, x.astype(np.float64) + y, 1e-3, 1e-3)


def run_gelu_blocks(cores, m, n, block_m, block_n, rows, seed=2026):
    if (m // block_m) * (n // block_n) != cores:
        raise ValueError(f"{m}x{n} in {block_m}x{block_n} blocks is {(m // block_m) * (n // block_n)} blocks, "
                         f"the point says {cores}")
    rng = np.random.default_rng(seed)
    x = (rng.random((m, n), dtype=np.float32) * 4 - 2).astype(np.float32)
    y = np.zeros_like(x)
    GELU_BLOCKS[cores](x, y, m, n, block_m, block_n, rows)
    result = Measurement()
    result.add_launch(GELU_BLOCKS, cores)
    return result.check(y, _gelu_reference(x), 1e-5, 1e-5)


def run_mm_blocks(cores, m, n, k, single_m, single_n, base=(128, 256, 64), step_ka=4, step_kb=4, rounds=1,
                  seed=0):
    blocks = (m // single_m // rounds) * -(-n // single_n)
    if blocks != cores:
        raise ValueError(f"{m}x{n} in {single_m}x{single_n} panels is {blocks} blocks, the point says {cores}")
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((m, k)).astype(np.float16)
    bt = rng.standard_normal((n, k)).astype(np.float16)
    c = np.zeros((m, n), np.float16)
    MM_BLOCKS[cores](a, bt, c, m, n, k, single_m, single_n, *base, step_ka, step_kb, rounds)
    result = Measurement()
    result.add_launch(MM_BLOCKS, cores)
    want = a.astype(np.float32) @ bt.astype(np.float32).T
    # float16 output: numpy's float32 product rounded (half an ulp) plus the accumulation order.
    return result.check(c, want, rtol=2 ** -10, atol=1e-5 * max(1.0, float(np.max(np.abs(want)))))


def run_mm_gelu_blocks(cores, m, n, k, single_m, single_n, base=(128, 256, 64), step_ka=4, step_kb=4, via_ub=0,
                       parts=1, seed=0):
    blocks = (m // single_m) * -(-n // single_n)
    if blocks != cores:
        raise ValueError(f"{m}x{n} in {single_m}x{single_n} panels is {blocks} blocks, the point says {cores}")
    rng = np.random.default_rng(seed)
    # Inputs scaled so that A * B^T stays where the GELU bends (|x| of a few units).
    a = (rng.standard_normal((m, k)) / math.sqrt(k)).astype(np.float16)
    bt = rng.standard_normal((n, k)).astype(np.float16)
    c = np.zeros((m, n), np.float32)
    MM_GELU_BLOCKS[cores](a, bt, c, m, n, k, single_m, single_n, *base, step_ka, step_kb, via_ub, parts)
    result = Measurement()
    result.add_launch(MM_GELU_BLOCKS, cores)
    want = _gelu_reference(a.astype(np.float32) @ bt.astype(np.float32).T)
    # float32 accumulation in another order than numpy's, then the vector unit's exp and division.
    return result.check(c, want, rtol=1e-4, atol=1e-4)
