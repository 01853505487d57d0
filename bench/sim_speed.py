"""Simulator speed on a production shape: GELU over 32 x 2048 x 2304 float32
on 48 cores with 15872-element tiles (DESIGN.md §5 targets: >= 1e7 simulated
cycles per wall-second, >= 1e8 element-ops per second per thread).

    build/bin/asc2-python bench/sim_speed.py [--elements N] [--tile T] [--cores C]

Prints numbers; checks the result against numpy so a fast wrong run does not
count.
"""

import argparse
import os
import sys
import time

import numpy as np

import asc2  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "samples"))
from gelu import SQRT_2_OVER_PI, reference  # noqa: E402  (samples/gelu.py)


@asc2.jit
def gelu(x_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress, size: int, TILE: asc2.ConstExpr[int]):
    """The production form: one 15872-element tile per loop trip (the
    compiler decides on multi-buffering within UB)."""
    x_gm = asc2.global_tensor(x_ptr, [size])
    out_gm = asc2.global_tensor(out_ptr, [size])
    for t in asc2.range(asc2.block_idx(), asc2.ceildiv(size, TILE), asc2.block_num()):
        x = asc2.copy_in(x_gm, [t * TILE], [TILE])
        inner = SQRT_2_OVER_PI * (x + 0.044715 * x * x * x)
        asc2.copy_out(0.5 * x * (1.0 + asc2.tanh(inner)), out_gm, [t * TILE])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--elements", type=int, default=32 * 2048 * 2304)
    parser.add_argument("--tile", type=int, default=15872)
    parser.add_argument("--cores", type=int, default=48)
    args = parser.parse_args(argv)

    n = args.elements
    rng = np.random.default_rng(0)
    x = (rng.standard_normal(n, dtype=np.float32) * 2).astype(np.float32)
    out = np.zeros(n, dtype=np.float32)

    t0 = time.perf_counter()
    gelu[args.cores](x, out, n, TILE=args.tile)  # compile + first run
    first = time.perf_counter() - t0
    t0 = time.perf_counter()
    gelu[args.cores](x, out, n, TILE=args.tile)  # cached: simulation only
    wall = time.perf_counter() - t0

    report = gelu.last_report
    launch = report["launches"][-1]
    cycles = launch["cycles"]
    # Element operations the vector unit performed (each vector op counts its
    # elements once).
    vec_ops = sum(1 for line in report["passes"][-1]["ir"].splitlines()
                  if line.strip().startswith(("ascendc.add", "ascendc.sub", "ascendc.mul",
                                              "ascendc.div", "ascendc.exp", "ascendc.max",
                                              "ascendc.min")))
    sample = slice(0, min(n, 1 << 20))
    err = float(np.max(np.abs(out[sample].astype(np.float64) - reference(x[sample]))))
    core_cycles = sum(p["busy_cycles"] for p in launch["pipes"] if p["pipe"] == "V")
    threads = os.cpu_count() or 1
    print(f"gelu {n} float32 elements, {args.cores} cores, tile {args.tile}: "
          f"{'OK' if err < 1e-5 else 'MISMATCH'} (max abs err {err:.3g} on the first {sample.stop})")
    print(f"  compile + run {first:.2f} s, run {wall:.2f} s, {cycles} simulated cycles "
          f"({launch['time_us']:.1f} us at the arch clock)")
    print(f"  simulated cycles per wall-second (launch): {cycles / wall:.3g}")
    print(f"  simulated core-cycles per wall-second (sum over {args.cores} cores): "
          f"{cycles * args.cores / wall:.3g}")
    print(f"  element-ops per second per thread ({threads} threads, ~{vec_ops} vector ops "
          f"per element): {n * vec_ops / wall / threads:.3g}")
    print(f"  vector pipe busy cycles (all cores): {core_cycles}")
    return 0 if err < 1e-5 else 1


if __name__ == "__main__":
    sys.exit(main())
