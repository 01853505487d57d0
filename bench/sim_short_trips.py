"""Simulator speed on long loops of short trips: one-hot encoding on Ascend950,
one index per loop trip (a scalar GM read, a compare and a select on a
DEPTH-element tile, a DEPTH-element store), the form of upstream's one_hot
kernels with tens of millions of trips.

    build/bin/asc2-python bench/sim_short_trips.py [--trips N ...] [--cores C] [--depth D]

Prints the host time per simulated trip for each trip count, and the ratio of
the largest count's time per trip to the smallest's: the simulator should be
linear in the trips (a ratio near 1). It was quadratic on Ascend950 before the
shared GM port forgot bookings behind the scalar unit (time per trip 4x at a
million trips). Checks the result against numpy so a fast wrong run does not
count.
"""

import argparse
import sys
import time

import numpy as np

import asc2


@asc2.jit
def one_hot(idx_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress, arange_ptr: asc2.GlobalAddress,
            total: int, DEPTH: asc2.ConstExpr[int]):
    idx_gm = asc2.global_tensor(idx_ptr, [total])
    out_gm = asc2.global_tensor(out_ptr, [total * DEPTH])
    arange = asc2.copy_in(asc2.global_tensor(arange_ptr, [DEPTH]), [0], [DEPTH])
    per_block = asc2.ceildiv(total, asc2.block_num())
    first = asc2.block_idx() * per_block
    for i in asc2.range(per_block):
        pos = first + i
        hot = asc2.equal(arange, asc2.copy_in(idx_gm, [pos]))
        asc2.copy_out(asc2.where(hot, asc2.number(1, asc2.int32), asc2.number(0, asc2.int32)), out_gm,
                      [pos * DEPTH])


def run(trips, cores, depth, rng):
    idx = rng.integers(0, depth, trips, dtype=np.int32)
    out = np.full(trips * depth, -1, dtype=np.int32)
    arange = np.arange(depth, dtype=np.int32)
    start = time.perf_counter()
    one_hot[cores](idx, out, arange, trips, depth)
    wall = time.perf_counter() - start
    want = (idx[:, None] == arange[None, :]).astype(np.int32).reshape(-1)
    if not np.array_equal(out, want):
        raise SystemExit(f"sim_short_trips: {trips} trips: the output differs from numpy's")
    return wall


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trips", type=int, nargs="+", default=[65536, 262144, 1048576])
    parser.add_argument("--cores", type=int, default=56)
    parser.add_argument("--depth", type=int, default=8)
    args = parser.parse_args(argv)
    asc2.set_platform(asc2.Backend.Model, "Ascend950", 0)
    rng = np.random.default_rng(2026)
    run(args.cores * 16, args.cores, args.depth, rng)  # compile outside the timings
    per_trip = {}
    for trips in args.trips:
        trips = -(-trips // args.cores) * args.cores  # whole blocks: no block reads past the end
        wall = run(trips, args.cores, args.depth, rng)
        per_trip[trips] = wall / trips
        print(f"{trips:>10d} trips on {args.cores} cores: {wall:7.2f} s, {per_trip[trips] * 1e6:6.2f} us per trip",
              flush=True)
    lo, hi = min(per_trip), max(per_trip)
    print(f"time per trip at {hi} trips / at {lo} trips: x{per_trip[hi] / per_trip[lo]:.2f} (1.0 = linear)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
