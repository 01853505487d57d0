"""GELU (tanh approximation) over a 1-D array, two tiles per loop trip (unroll_factor=2).

    gelu(x) = 0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x**3)))
"""

import argparse
import math
import sys

import numpy as np

import asc2

SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)


@asc2.jit
def gelu(x_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress, size: int, TILE: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [size])
    out_gm = asc2.global_tensor(out_ptr, [size])
    tiles = asc2.ceildiv(size, TILE)
    for t in asc2.range(asc2.block_idx(), tiles, asc2.block_num(), unroll_factor=2):
        x = asc2.copy_in(x_gm, [t * TILE], [TILE])
        inner = SQRT_2_OVER_PI * (x + 0.044715 * x * x * x)
        asc2.copy_out(0.5 * x * (1.0 + asc2.tanh(inner)), out_gm, [t * TILE])


def reference(x):
    x = x.astype(np.float64)
    return 0.5 * x * (1.0 + np.tanh(SQRT_2_OVER_PI * (x + 0.044715 * x ** 3)))


def run(n, cores=8, tile=256, dtype=np.float32, seed=0):
    rng = np.random.default_rng(seed)
    x = (rng.standard_normal(n) * 2).astype(dtype)
    out = np.zeros(n, dtype=dtype)
    gelu[cores](x, out, n, TILE=tile)
    launch = gelu.last_report["launch"]
    if launch is None:  # Compile Only: compiled, nothing ran, nothing to check
        return None
    err = float(np.max(np.abs(out.astype(np.float64) - reference(x))))
    return err, launch.get("cycles", "no")  # the CPU twin runs untimed


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, action="append", help="element count (repeatable)")
    parser.add_argument("--cores", type=int, default=8)
    parser.add_argument("--dtype", choices=("float32", "float16"), default="float32")
    args = parser.parse_args(argv)
    dtype = np.dtype(args.dtype)
    tolerance = 1e-5 if dtype == np.float32 else 1e-2
    ok = True
    for n in args.n or [8 * 256 * 4, 5000]:
        result = run(n, args.cores, dtype=dtype)
        if result is None:
            print(f"gelu: compiled, not run (n={n}, {args.dtype}, {args.cores} cores)")
            continue
        err, cycles = result
        status = "OK" if err <= tolerance else "MISMATCH"
        ok &= status == "OK"
        print(f"gelu: {status} (n={n}, {args.dtype}, {args.cores} cores, max abs err {err:.3g}, {cycles} cycles)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
