"""Matrix multiply tiled over K: each core accumulates BM x BN blocks of C over K in L0C (matmul_acc).

    acc = zeros_acc([BM, BN]); for k: acc = matmul_acc(acc, A[m0, k], B[k, n0]); C[m0, n0] = acc

The accumulator stays in L0C for the whole K loop (the first mmad overwrites it, the others
accumulate); the loads of step k + 1 overlap the mmad of step k (ping-pong, chosen by the
compiler); the fixpipe stores C, here converted to float16 on the way out.
"""

import argparse
import sys

import numpy as np

import asc2


@asc2.jit
def matmul_ktiled(a_ptr: asc2.GlobalAddress, b_ptr: asc2.GlobalAddress, c_ptr: asc2.GlobalAddress,
                  M: asc2.ConstExpr[int], N: asc2.ConstExpr[int], K: asc2.ConstExpr[int],
                  BM: asc2.ConstExpr[int], BN: asc2.ConstExpr[int], BK: asc2.ConstExpr[int]):
    a_gm = asc2.global_tensor(a_ptr, [M, K])
    b_gm = asc2.global_tensor(b_ptr, [K, N])
    c_gm = asc2.global_tensor(c_ptr, [M, N])
    blocks_n = asc2.ceildiv(N, BN)
    for blk in asc2.range(asc2.block_idx(), asc2.ceildiv(M, BM) * blocks_n, asc2.block_num()):
        m0 = (blk // blocks_n) * BM
        n0 = (blk % blocks_n) * BN
        acc = asc2.zeros_acc([BM, BN])
        for k in asc2.range(0, K, BK):
            a = asc2.copy_in(a_gm, [m0, k], [BM, BK], location=asc2.TensorLocation.L0A)
            b = asc2.copy_in(b_gm, [k, n0], [BK, BN], location=asc2.TensorLocation.L0B)
            acc = asc2.matmul_acc(acc, a, b)
        asc2.copy_out(acc, c_gm, [m0, n0])


def run(m, n, k, cores=8, bm=64, bn=64, bk=64, seed=0):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((m, k)).astype(np.float16)
    b = rng.standard_normal((k, n)).astype(np.float16)
    c = np.zeros((m, n), dtype=np.float16)
    matmul_ktiled[cores](a, b, c, m, n, k, bm, bn, bk)
    launch = matmul_ktiled.last_report["launch"]
    if launch is None:  # Compile Only: compiled, nothing ran, nothing to check
        return None
    expected = (a.astype(np.float32) @ b.astype(np.float32)).astype(np.float16).astype(np.float32)
    err = float(np.max(np.abs(c.astype(np.float32) - expected)) / max(1.0, np.max(np.abs(expected))))
    return err, launch


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shape", type=int, nargs=3, action="append", metavar=("M", "N", "K"))
    parser.add_argument("--cores", type=int, default=8)
    parser.add_argument("--block", type=int, nargs=3, default=(64, 64, 64), metavar=("BM", "BN", "BK"))
    args = parser.parse_args(argv)
    ok = True
    for m, n, k in args.shape or [(256, 256, 512), (200, 120, 330)]:
        result = run(m, n, k, args.cores, *args.block)
        if result is None:
            print(f"matmul_ktiled: compiled, not run ({m}x{n}x{k}, blocks {'x'.join(map(str, args.block))}, "
                  f"{args.cores} cores)")
            continue
        err, launch = result
        status = "OK" if err <= 1e-3 else "MISMATCH"
        ok &= status == "OK"
        print(f"matmul_ktiled: {status} ({m}x{n}x{k}, blocks {'x'.join(map(str, args.block))}, {args.cores} "
              f"cores, relative err {err:.3g}, {launch.get('cycles', 'no')} cycles, races {len(launch['races'])})")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
