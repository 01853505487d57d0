"""Casts: float32 -> float16 (round to nearest even) -> float32, and float32 ->
int32 with each rounding mode, checked bit-exactly against numpy.
"""

import argparse
import sys

import numpy as np

import asc2

ROUNDINGS = {"rint": np.rint, "floor": np.floor, "ceil": np.ceil, "trunc": np.trunc}


@asc2.jit
def round_trip(x_ptr: asc2.GlobalAddress, half_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress, size: int,
               TILE: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [size])
    half_gm = asc2.global_tensor(half_ptr, [size])
    out_gm = asc2.global_tensor(out_ptr, [size])
    for t in asc2.range(asc2.block_idx(), asc2.ceildiv(size, TILE), asc2.block_num()):
        half = asc2.cast(asc2.copy_in(x_gm, [t * TILE], [TILE]), asc2.float16)
        asc2.copy_out(half, half_gm, [t * TILE])
        asc2.copy_out(half.to(asc2.float32), out_gm, [t * TILE])


@asc2.jit
def to_int(x_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress, size: int, MODE: asc2.ConstExpr,
           TILE: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [size])
    out_gm = asc2.global_tensor(out_ptr, [size])
    for t in asc2.range(asc2.block_idx(), asc2.ceildiv(size, TILE), asc2.block_num()):
        x = asc2.copy_in(x_gm, [t * TILE], [TILE])
        asc2.copy_out(asc2.cast(x, asc2.int32, MODE), out_gm, [t * TILE])


def run(n, cores=8, tile=256, seed=0):
    """Mismatching element counts: {check name: count}, or None when the kernels only compiled."""
    rng = np.random.default_rng(seed)
    x = (rng.standard_normal(n) * 100).astype(np.float32)
    half = np.zeros(n, np.float16)
    out = np.zeros(n, np.float32)
    round_trip[cores](x, half, out, n, TILE=tile)
    ran = round_trip.last_report["launch"] is not None  # Compile Only: compiled, nothing ran
    bad = {"f32->f16": int(np.sum(half != x.astype(np.float16))),
           "f16->f32": int(np.sum(out != x.astype(np.float16).astype(np.float32)))}
    for mode, fn in ROUNDINGS.items():
        ints = np.zeros(n, np.int32)
        to_int[cores](x, ints, n, MODE=mode, TILE=tile)
        bad[f"f32->i32 {mode}"] = int(np.sum(ints != fn(x).astype(np.int32)))
    return bad if ran else None


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=3000)
    parser.add_argument("--cores", type=int, default=8)
    args = parser.parse_args(argv)
    bad = run(args.n, args.cores)
    if bad is None:
        print(f"cast: compiled, not run (n={args.n}, {args.cores} cores)")
        return 0
    ok = not any(bad.values())
    detail = ", ".join(f"{name}: {count} bad" for name, count in bad.items())
    print(f"cast: {'OK' if ok else 'MISMATCH'} (n={args.n}, {args.cores} cores; {detail})")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
