"""Host-side cost of launching an already compiled kernel: a 256-element vadd, launched N times.

    build/bin/asc2-python bench/launch_overhead.py [--launches N]

What a launch does besides simulating: specialisation and its cache key, argument checks, the report
(last_report, made only when read) and the simulator call. Prints ms per launch; checks the result so a
fast wrong launch does not count. With the report made at every launch (before 2026-12-02):
35.2-37.3 ms per launch on the 2-core dev machine under load; made when read: 2.26-2.41 ms (~15x).
"""

import argparse
import time

import numpy as np

import asc2


@asc2.jit
def vadd(x_ptr, y_ptr, z_ptr, n: asc2.ConstExpr[int]):
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [n]), [0], [n])
    y = asc2.copy_in(asc2.global_tensor(y_ptr, [n]), [0], [n])
    asc2.copy_out(x + y, asc2.global_tensor(z_ptr, [n]), [0])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--launches", type=int, default=200)
    args = parser.parse_args()
    x = np.arange(256, dtype=np.float32)
    y = np.ones(256, np.float32)
    z = np.zeros(256, np.float32)
    vadd[1](x, y, z, n=256)  # compiles
    start = time.perf_counter()
    for _ in range(args.launches):
        vadd[1](x, y, z, n=256)
    per_launch = (time.perf_counter() - start) / args.launches
    np.testing.assert_array_equal(z, x + y)
    print(f"launch_overhead: {args.launches} launches, {1e3 * per_launch:.3f} ms per launch "
          f"(simulated {vadd.last_report['launch']['cycles']} cycles each)")


if __name__ == "__main__":
    main()
