"""Compile time against kernel size: a straight-line kernel of N tiles (asc2.static_range), from 1k to ~200k ops.

    build/bin/asc2-python bench/compile_scaling.py [--trips 250,1000,4000,12000] [--platform Ascend910B1]

Each size is generated (the frontend), compiled by the native driver (every pass, its IR captured for the
workbench, the report) and checked once on the simulator for the smallest size. Prints, per size, the ops after
the last pass, the frontend and compile seconds, the two planning passes (ascendc-insert-sync,
ascendc-plan-memory) and the growth exponent between consecutive sizes (1.0: linear; 2.0: quadratic).

Measured on the 2-core dev machine (2026-12-04, a sanitizer build running beside it). Before the planners were
indexed (4820aa3): 34,000 ops took 33.8 s to compile, 29.1 s of it in insert-sync and 1.1 s in plan-memory,
growing as ops^2.0. After: 204,000 ops compile in 25.0 s (insert-sync 1.0 s, plan-memory 0.38 s; the rest is
the frontend-independent IR capture of every pass and the report), growing as ops^1.1. The plans themselves did
not change: identical Ascend C, memory and sync reports on 150 random vector and 150 random MIX kernels.
"""

import argparse
import math
import time

import numpy as np

import asc2


@asc2.jit(always_compile=True)
def straight_line(x_ptr, out_ptr, N: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [N * 64])
    out_gm = asc2.global_tensor(out_ptr, [N * 64])
    for i in asc2.static_range(N):
        x = asc2.copy_in(x_gm, [i * 64], [64])
        asc2.copy_out(x * 2.0 + 1.0, out_gm, [i * 64])


def measure(trips):
    x = np.arange(trips * 64, dtype=np.float32)
    out = np.zeros_like(x)
    start = time.perf_counter()
    straight_line.ir(x, out, N=trips)
    frontend = time.perf_counter() - start
    start = time.perf_counter()
    compiled = straight_line.compile(x, out, N=trips)
    total = time.perf_counter() - start
    passes = compiled.report(include_ir=False)["passes"]
    by_name = {}
    for p in passes:
        by_name[p["name"]] = by_name.get(p["name"], 0.0) + p["wall_ms"]
    return {"trips": trips, "ops": passes[-1]["op_count"], "frontend": frontend, "compile": total,
            "passes": sum(p["wall_ms"] for p in passes) / 1000, "sync": by_name.get("ascendc-insert-sync", 0.0),
            "memory": by_name.get("ascendc-plan-memory", 0.0), "x": x, "out": out}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trips", default="250,1000,4000,12000",
                        help="comma-separated tile counts (12000 trips: ~200,000 ops after the passes)")
    parser.add_argument("--platform", default="Ascend910B1")
    args = parser.parse_args()
    asc2.set_platform(backend="Model", platform=args.platform)
    rows = []
    print(f"{'trips':>6} {'ops':>8} {'frontend s':>10} {'compile s':>9} {'passes s':>8} {'insert-sync ms':>14} "
          f"{'plan-memory ms':>14} {'exponent':>8}")
    for trips in (int(t) for t in args.trips.split(",")):
        r = measure(trips)
        if not rows:  # the smallest size also runs, so a fast wrong compile does not count
            straight_line[1](r["x"], r["out"], N=trips)
            if not np.array_equal(r["out"], r["x"] * 2.0 + 1.0):
                raise SystemExit("compile_scaling: the kernel computed wrong numbers")
        exponent = ""
        if rows:
            prev = rows[-1]
            exponent = f"{math.log(r['compile'] / prev['compile']) / math.log(r['ops'] / prev['ops']):.2f}"
        rows.append(r)
        print(f"{trips:>6} {r['ops']:>8} {r['frontend']:>10.2f} {r['compile']:>9.2f} {r['passes']:>8.2f} "
              f"{r['sync']:>14.0f} {r['memory']:>14.0f} {exponent:>8}", flush=True)


if __name__ == "__main__":
    main()
