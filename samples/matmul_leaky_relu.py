"""Matmul with a leaky-ReLU epilogue on the vector cores: a MIX kernel (cube + vector).

    C = leaky_relu(A @ B) = max(A @ B, alpha * (A @ B))

The cube core (AIC) computes each block in L0C and stores it to a GM workspace through the
fixpipe; the two vector cores (AIVs) of the same group each load half of its rows into UB, apply
the epilogue with a nested @asc2.jit helper and store their half of C (KERNEL_TYPE_MIX_AIC_1_2:
the compiler divides the vector tiles by rows, each AIV picking its half by its sub-block index).
The compiler splits the kernel by core and orders the sides with cross-core flags (workspace
written -> read by both AIVs). The tile loop is `parallel=True`: its trips use different tiles of
the workspace, so no trip's fixpipe has to wait for the previous trip's reads of it.
"""

import argparse
import sys

import numpy as np

import asc2


@asc2.jit
def leaky_relu(x, alpha):
    return asc2.maximum(x, x * alpha)


@asc2.jit
def matmul_leaky_relu(a_ptr: asc2.GlobalAddress, b_ptr: asc2.GlobalAddress, ws_ptr: asc2.GlobalAddress,
                      c_ptr: asc2.GlobalAddress, M: asc2.ConstExpr[int], N: asc2.ConstExpr[int],
                      K: asc2.ConstExpr[int], BM: asc2.ConstExpr[int], BN: asc2.ConstExpr[int],
                      BK: asc2.ConstExpr[int], alpha: float):
    a_gm = asc2.global_tensor(a_ptr, [M, K])
    b_gm = asc2.global_tensor(b_ptr, [K, N])
    ws = asc2.global_tensor(ws_ptr, [M, N])
    c_gm = asc2.global_tensor(c_ptr, [M, N])
    blocks_n = asc2.ceildiv(N, BN)
    for blk in asc2.range(asc2.block_idx(), asc2.ceildiv(M, BM) * blocks_n, asc2.block_num(), parallel=True):
        m0 = (blk // blocks_n) * BM
        n0 = (blk % blocks_n) * BN
        acc = asc2.zeros_acc([BM, BN])
        for k in asc2.range(0, K, BK):
            a = asc2.copy_in(a_gm, [m0, k], [BM, BK], location=asc2.TensorLocation.L0A)
            b = asc2.copy_in(b_gm, [k, n0], [BK, BN], location=asc2.TensorLocation.L0B)
            acc = asc2.matmul_acc(acc, a, b)
        asc2.copy_out(acc, ws, [m0, n0])           # cube core -> GM (fixpipe)
        x = asc2.copy_in(ws, [m0, n0], [BM, BN])    # vector core <- GM
        asc2.copy_out(leaky_relu(x, alpha), c_gm, [m0, n0])


def run(m, n, k, cores=8, bm=64, bn=64, bk=64, alpha=0.1, seed=0):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((m, k)).astype(np.float16)
    b = rng.standard_normal((k, n)).astype(np.float16)
    ws = np.zeros((m, n), dtype=np.float32)
    c = np.zeros((m, n), dtype=np.float32)
    matmul_leaky_relu[cores](a, b, ws, c, m, n, k, bm, bn, bk, alpha)
    report = matmul_leaky_relu.last_report
    if report["launch"] is None:  # Compile Only: compiled, nothing ran, nothing to check
        return None
    product = a.astype(np.float32) @ b.astype(np.float32)
    expected = np.maximum(product, product * np.float32(alpha))
    err = float(np.max(np.abs(c - expected)) / max(1.0, np.max(np.abs(expected))))
    return err, report


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shape", type=int, nargs=3, default=(256, 192, 256), metavar=("M", "N", "K"))
    parser.add_argument("--cores", type=int, default=8)
    parser.add_argument("--alpha", type=float, default=0.1)
    args = parser.parse_args(argv)
    m, n, k = args.shape
    result = run(m, n, k, args.cores, alpha=args.alpha)
    if result is None:
        print(f"matmul_leaky_relu: compiled, not run ({m}x{n}x{k}, {args.cores} cores)")
        return 0
    err, report = result
    launch = report["launch"]
    kind = report["options"].get("kernel_type", "?")
    if "mix_ratio" in report["options"]:
        kind += f" {report['options']['mix_ratio']}"  # AIC : AIV
    status = "OK" if err <= 1e-5 else "MISMATCH"
    print(f"matmul_leaky_relu: {status} ({m}x{n}x{k}, {args.cores} cores, {kind}, relative err {err:.3g}, "
          f"{launch.get('cycles', 'no')} cycles, races {len(launch['races'])})")
    return 0 if status == "OK" else 1


if __name__ == "__main__":
    sys.exit(main())
