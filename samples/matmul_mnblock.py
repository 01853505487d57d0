"""Matrix multiply blocked over M and N across cores: each core computes BM x BN blocks of C with all of K.

    C (M x N, float32) = A (M x K) @ B (K x N), blocks of C round-robin over the cores

The default shape is the upstream PyAsc2 mnblock case: 480 x 224 x 1344 on 30 cores. Each block
loads BM x K of A into L0A and K x BN of B into L0B (through L1) and does one mmad; the compiler
double-buffers the loads of consecutive blocks (ping-pong in L1, L0A and L0B).
"""

import argparse
import sys

import numpy as np

import asc2


@asc2.jit
def matmul_mnblock(a_ptr: asc2.GlobalAddress, b_ptr: asc2.GlobalAddress, c_ptr: asc2.GlobalAddress,
                   M: asc2.ConstExpr[int], N: asc2.ConstExpr[int], K: asc2.ConstExpr[int],
                   BM: asc2.ConstExpr[int], BN: asc2.ConstExpr[int]):
    a_gm = asc2.global_tensor(a_ptr, [M, K])
    b_gm = asc2.global_tensor(b_ptr, [K, N])
    c_gm = asc2.global_tensor(c_ptr, [M, N])
    blocks_n = asc2.ceildiv(N, BN)
    for blk in asc2.range(asc2.block_idx(), asc2.ceildiv(M, BM) * blocks_n, asc2.block_num()):
        m0 = (blk // blocks_n) * BM
        n0 = (blk % blocks_n) * BN
        a = asc2.copy_in(a_gm, [m0, 0], [BM, K], location=asc2.TensorLocation.L0A)
        b = asc2.copy_in(b_gm, [0, n0], [K, BN], location=asc2.TensorLocation.L0B)
        asc2.copy_out(a @ b, c_gm, [m0, n0])


def run(m, n, k, cores=30, bm=16, bn=16, dtype=np.float16, seed=0):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((m, k)).astype(dtype)
    b = rng.standard_normal((k, n)).astype(dtype)
    c = np.zeros((m, n), dtype=np.float32)
    matmul_mnblock[cores](a, b, c, m, n, k, bm, bn)
    launch = matmul_mnblock.last_report["launch"]
    if launch is None:  # Compile Only: compiled, nothing ran, nothing to check
        return None
    expected = a.astype(np.float32) @ b.astype(np.float32)
    err = float(np.max(np.abs(c - expected)) / max(1.0, np.max(np.abs(expected))))
    return err, launch


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shape", type=int, nargs=3, default=(480, 224, 1344), metavar=("M", "N", "K"))
    parser.add_argument("--cores", type=int, default=30)
    parser.add_argument("--block", type=int, nargs=2, default=(16, 16), metavar=("BM", "BN"))
    args = parser.parse_args(argv)
    m, n, k = args.shape
    result = run(m, n, k, args.cores, *args.block)
    if result is None:
        print(f"matmul_mnblock: compiled, not run ({m}x{n}x{k}, blocks {args.block[0]}x{args.block[1]}, "
              f"{args.cores} cores)")
        return 0
    err, launch = result
    status = "OK" if err <= 1e-5 else "MISMATCH"
    print(f"matmul_mnblock: {status} ({m}x{n}x{k}, blocks {args.block[0]}x{args.block[1]}, {args.cores} cores, "
          f"relative err {err:.3g}, {launch.get('cycles', 'no')} cycles, races {len(launch['races'])})")
    return 0 if status == "OK" else 1


if __name__ == "__main__":
    sys.exit(main())
