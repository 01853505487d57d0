"""Element-wise selection (asc2.where): out = where(x > y, x - y, 0.5 * y), plus a clamp
built from comparisons and where with scalar branches.
"""

import argparse
import sys

import numpy as np

import asc2


@asc2.jit
def select(x_ptr: asc2.GlobalAddress, y_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress,
           clamped_ptr: asc2.GlobalAddress, size: int, limit: float, TILE: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [size])
    y_gm = asc2.global_tensor(y_ptr, [size])
    out_gm = asc2.global_tensor(out_ptr, [size])
    clamped_gm = asc2.global_tensor(clamped_ptr, [size])
    for t in asc2.range(asc2.block_idx(), asc2.ceildiv(size, TILE), asc2.block_num()):
        x = asc2.copy_in(x_gm, [t * TILE], [TILE])
        y = asc2.copy_in(y_gm, [t * TILE], [TILE])
        asc2.copy_out(asc2.where(x > y, x - y, 0.5 * y), out_gm, [t * TILE])
        high = asc2.where(x > limit, limit, x)
        asc2.copy_out(asc2.where(high < -limit, -limit, high), clamped_gm, [t * TILE])


def run(n, limit=0.5, cores=8, tile=256, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    out = np.zeros(n, np.float32)
    clamped = np.zeros(n, np.float32)
    select[cores](x, y, out, clamped, n, limit, TILE=tile)
    launch = select.last_report["launch"]
    if launch is None:  # Compile Only: compiled, nothing ran, nothing to check
        return None
    expected = np.where(x > y, x - y, np.float32(0.5) * y)
    err = max(float(np.max(np.abs(out - expected))), float(np.max(np.abs(clamped - np.clip(x, -limit, limit)))))
    return err, launch.get("cycles", "no")  # the CPU twin runs untimed


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, action="append", help="element count (repeatable)")
    parser.add_argument("--cores", type=int, default=8)
    args = parser.parse_args(argv)
    ok = True
    for n in args.n or [4096, 1000]:
        result = run(n, cores=args.cores)
        if result is None:
            print(f"where: compiled, not run (n={n}, float32, {args.cores} cores)")
            continue
        err, cycles = result
        status = "OK" if err == 0.0 else "MISMATCH"
        ok &= status == "OK"
        print(f"where: {status} (n={n}, float32, {args.cores} cores, max abs err {err:.3g}, {cycles} cycles)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
