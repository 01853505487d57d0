"""Leaky ReLU, written as an @asc2.jit helper that the kernel calls (it is inlined).

    leaky_relu(x) = x if x >= 0 else alpha * x
"""

import argparse
import sys

import numpy as np

import asc2


@asc2.jit
def leaky_relu(x, alpha):
    return asc2.where(x >= 0, x, x * alpha)


@asc2.jit
def leaky_relu_kernel(x_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress, size: int, alpha: float,
                      TILE: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [size])
    out_gm = asc2.global_tensor(out_ptr, [size])
    for t in asc2.range(asc2.block_idx(), asc2.ceildiv(size, TILE), asc2.block_num()):
        x = asc2.copy_in(x_gm, [t * TILE], [TILE])
        asc2.copy_out(leaky_relu(x, alpha), out_gm, [t * TILE])


def run(n, alpha=0.1, cores=8, tile=256, dtype=np.float32, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(n).astype(dtype)
    out = np.zeros(n, dtype=dtype)
    leaky_relu_kernel[cores](x, out, n, alpha, TILE=tile)
    launch = leaky_relu_kernel.last_report["launch"]
    if launch is None:  # Compile Only: compiled, nothing ran, nothing to check
        return None
    expected = np.where(x >= 0, x, x * dtype(alpha))
    err = float(np.max(np.abs(out.astype(np.float64) - expected.astype(np.float64))))
    return err, launch.get("cycles", "no")  # the CPU twin runs untimed


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, action="append", help="element count (repeatable)")
    parser.add_argument("--alpha", type=float, default=0.1)
    parser.add_argument("--cores", type=int, default=8)
    parser.add_argument("--dtype", choices=("float32", "float16"), default="float32")
    args = parser.parse_args(argv)
    dtype = np.dtype(args.dtype).type
    tolerance = 0.0 if dtype == np.float32 else 1e-3
    ok = True
    for n in args.n or [4096, 3000]:
        result = run(n, args.alpha, args.cores, dtype=dtype)
        if result is None:
            print(f"leaky_relu: compiled, not run (n={n}, alpha={args.alpha}, {args.dtype}, {args.cores} cores)")
            continue
        err, cycles = result
        status = "OK" if err <= tolerance else "MISMATCH"
        ok &= status == "OK"
        print(f"leaky_relu: {status} (n={n}, alpha={args.alpha}, {args.dtype}, {args.cores} cores, "
              f"max abs err {err:.3g}, {cycles} cycles)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
