"""Sum of a 1-D array across cores: each core sums its tiles, then atomically adds
its partial sums into the output.

The last tile usually runs past the end of the array; its load pads with
pad_value=0 so the padding adds nothing.  Each core accumulates a whole tile
(element-wise adds) and reduces once at the end; the TILE-wide partial is
added into `partial` with asc2.atomic_add, and core 0's scalar reduction of
its own tile shows copy_out of a scalar.
"""

import argparse
import sys

import numpy as np

import asc2


@asc2.jit
def reduce_sum(x_ptr: asc2.GlobalAddress, partial_ptr: asc2.GlobalAddress, size: int, TILE: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [size])
    partial_gm = asc2.global_tensor(partial_ptr, [TILE])
    acc = asc2.zeros([TILE], asc2.float32)
    for t in asc2.range(asc2.block_idx(), asc2.ceildiv(size, TILE), asc2.block_num()):
        acc = acc + asc2.copy_in(x_gm, [t * TILE], [TILE], pad_value=0.0)
    asc2.atomic_add(acc, partial_gm, [0])


@asc2.jit
def finish(partial_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress, TILE: asc2.ConstExpr[int]):
    partial_gm = asc2.global_tensor(partial_ptr, [TILE])
    out_gm = asc2.global_tensor(out_ptr, [8])
    total = asc2.copy_in(partial_gm, [0], [TILE]).sum()
    asc2.copy_out(total, out_gm, [0])


def run(n, cores=8, tile=256, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.uniform(-1, 1, n).astype(np.float32)
    partial = np.zeros(tile, np.float32)
    out = np.zeros(8, np.float32)
    reduce_sum[cores](x, partial, n, TILE=tile)
    launch = reduce_sum.last_report["launch"]
    finish[1](partial, out, TILE=tile)
    if launch is None:  # Compile Only: both compiled, nothing ran, nothing to check
        return None
    expected = np.pad(x.astype(np.float64), (0, -n % tile)).reshape(-1, tile).sum(axis=0)
    err = max(float(np.max(np.abs(partial - expected))), abs(float(out[0]) - float(expected.sum())))
    return err, launch.get("cycles", "no")  # the CPU twin runs untimed


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, action="append", help="element count (repeatable)")
    parser.add_argument("--cores", type=int, default=8)
    args = parser.parse_args(argv)
    ok = True
    for n in args.n or [8 * 256 * 3, 10000]:
        result = run(n, args.cores)
        if result is None:
            print(f"reduce_sum: compiled, not run (n={n}, float32, {args.cores} cores)")
            continue
        err, cycles = result
        status = "OK" if err <= 1e-3 else "MISMATCH"
        ok &= status == "OK"
        print(f"reduce_sum: {status} (n={n}, float32, {args.cores} cores, max abs err {err:.3g}, {cycles} cycles)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
