"""Matrix multiply on the cube unit, in the upstream PyAsc2 form: A and B go to L0A/L0B, C = A @ B.

    C (M x N, float32) = A (M x K) @ B (K x N)

copy_in(..., location=L0A) stages A through L1 (GM only reaches L1); `a @ b` is one mmad into L0C;
copy_out of the L0C tile goes through the fixpipe.
"""

import argparse
import sys

import numpy as np

import asc2


@asc2.jit
def matmul_kernel(a_ptr: asc2.GlobalAddress, b_ptr: asc2.GlobalAddress, c_ptr: asc2.GlobalAddress,
                  M: asc2.ConstExpr[int], N: asc2.ConstExpr[int], K: asc2.ConstExpr[int]):
    a_gm = asc2.global_tensor(a_ptr, [M, K])
    b_gm = asc2.global_tensor(b_ptr, [K, N])
    c_gm = asc2.global_tensor(c_ptr, [M, N])
    a = asc2.copy_in(a_gm, [0, 0], [M, K], location=asc2.TensorLocation.L0A)
    b = asc2.copy_in(b_gm, [0, 0], [K, N], location=asc2.TensorLocation.L0B)
    c = a @ b
    asc2.copy_out(c, c_gm, [0, 0])


def run(m, n, k, dtype=np.float16, seed=0):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((m, k)).astype(dtype)
    b = rng.standard_normal((k, n)).astype(dtype)
    c = np.zeros((m, n), dtype=np.float32)
    matmul_kernel[1](a, b, c, m, n, k)
    launch = matmul_kernel.last_report["launch"]
    if launch is None:  # Compile Only: compiled, nothing ran, nothing to check
        return None
    expected = a.astype(np.float32) @ b.astype(np.float32)
    err = float(np.max(np.abs(c - expected)) / max(1.0, np.max(np.abs(expected))))
    return err, launch.get("cycles", "no")  # the CPU twin runs untimed


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shape", type=int, nargs=3, action="append", metavar=("M", "N", "K"))
    parser.add_argument("--dtype", choices=("float16", "float32"), action="append")
    args = parser.parse_args(argv)
    ok = True
    for dtype in args.dtype or ["float16", "float32"]:
        for m, n, k in args.shape or [(64, 64, 64), (32, 96, 128)]:
            result = run(m, n, k, np.dtype(dtype).type)
            if result is None:
                print(f"matmul: compiled, not run ({m}x{n}x{k}, {dtype})")
                continue
            err, cycles = result
            status = "OK" if err <= 1e-5 else "MISMATCH"
            ok &= status == "OK"
            print(f"matmul: {status} ({m}x{n}x{k}, {dtype}, relative err {err:.3g}, {cycles} cycles)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
