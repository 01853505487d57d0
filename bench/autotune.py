"""Autotuned softmax and GELU over the upstream target shapes, tuned on a two-worker Dask cluster.

    build/bin/asc2-python bench/autotune.py [--workers 2] [--quick] [--gelu-elements N] [--no-scaling]

The shapes are upstream's target tests (compiler-team-ru/pyasc-skill-stack@5621a4f3f87f7643907e84cc148e8159b4ef2b4c,
golden/target/test_softmax.py: its 30 enabled cases, flattened to rows x cols as upstream does; and
golden/target/test_gelu.py: 32 x 2048 x 2304 float32). The kernels are ours: ``softmax_rows`` takes ROWS rows
per loop trip in one [ROWS, cols padded to 8] tile (asc2.softmax over each row), ``gelu_tiles`` one TILE-element
tile per trip with a tunable unroll factor; their configs (rows or tile size, unroll factor, block count) are
chosen by ``@asc2.autotune`` on a LocalCluster of --workers processes (configs that overflow UB are dropped).

Prints, per shape, the chosen config and its simulated cycles against the sample's default launch
(samples/softmax.py: one row per trip, the row padded to 64, 8 cores; samples/gelu.py: 256-element tiles,
8 cores), the speed-up, and the tuned output's max error against numpy; then the wall time of the whole tuning
on 1 and on --workers workers.
"""

import argparse
import contextlib
import math
import os
import sys
import tempfile
import time

import numpy as np

import asc2
from asc2.tune import DaskExecutor

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "samples"))
import gelu as gelu_sample  # noqa: E402  (samples/gelu.py)
import softmax as softmax_sample  # noqa: E402  (samples/softmax.py)

# (upstream test name, input shape); the kernels take [prod(shape[:-1]), shape[-1]].
SOFTMAX_SHAPES = [
    ("softmax_test_1", (128, 1, 4)), ("softmax_test_2", (200, 1, 4)), ("softmax_test_3", (8, 5, 5)),
    ("softmax_test_4", (4, 5)), ("softmax_test_5", (1024, 4, 4)), ("softmax_test_6", (256, 1, 4)),
    ("softmax_test_7", (2500, 8)), ("softmax_test_8", (12, 2500)), ("softmax_test_9", (100, 4)),
    ("softmax_test_10", (100, 2, 300)), ("softmax_test_11", (100, 4, 100)), ("softmax_test_12", (100, 2, 100)),
    ("softmax_test_13", (100, 1, 2)), ("softmax_test_14", (700, 1, 4)), ("softmax_test_15", (700, 6)),
    ("softmax_test_16", (750, 1, 4)), ("softmax_test_17", (4, 2048)), ("softmax_test_18", (100, 8, 1, 64)),
    ("softmax_test_19", (1, 4, 1, 300)), ("softmax_test_20", (100, 2, 1, 302)), ("softmax_test_21", (100, 551, 10)),
    ("softmax_test_22", (100, 412, 10)), ("softmax_test_23", (400, 2, 300)), ("softmax_test_24", (7376, 50)),
    ("softmax_test_25", (100, 8, 1, 128)), ("softmax_test_26", (200, 8, 1, 200)),
    ("softmax_test_27", (200, 8, 1, 256)), ("softmax_test_28", (7000, 1, 10)), ("softmax_test_29", (200, 8, 1, 300)),
    ("softmax_test_39", (8, 1500, 1, 512)),
]
QUICK = ("softmax_test_4", "softmax_test_8", "softmax_test_21", "softmax_test_24", "softmax_test_39")
GELU_SHAPE = ("gelu_test_1", (32, 2048, 2304))


@asc2.jit
def softmax_rows(x_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress, rows: int, cols: int,
                 COLS: asc2.ConstExpr[int], ROWS: asc2.ConstExpr[int], UNROLL: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [rows, cols])
    out_gm = asc2.global_tensor(out_ptr, [rows, cols])
    for t in asc2.range(asc2.block_idx(), asc2.ceildiv(rows, ROWS), asc2.block_num(), unroll_factor=UNROLL,
                        parallel=True):
        x = asc2.copy_in(x_gm, [t * ROWS, 0], [ROWS, COLS], pad_value=float("-inf"))
        asc2.copy_out(asc2.softmax(x), out_gm, [t * ROWS, 0])


@asc2.jit
def gelu_tiles(x_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress, size: int, TILE: asc2.ConstExpr[int],
               UNROLL: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [size])
    out_gm = asc2.global_tensor(out_ptr, [size])
    for t in asc2.range(asc2.block_idx(), asc2.ceildiv(size, TILE), asc2.block_num(), unroll_factor=UNROLL):
        x = asc2.copy_in(x_gm, [t * TILE], [TILE])
        inner = gelu_sample.SQRT_2_OVER_PI * (x + 0.044715 * x * x * x)
        asc2.copy_out(0.5 * x * (1.0 + asc2.tanh(inner)), out_gm, [t * TILE])


SOFTMAX_CONFIGS = [asc2.Config(ROWS=r, UNROLL=u, block_num=b)
                   for r in (1, 4, 16, 64) for u in (1, 2) for b in (8, 24, 48)]
GELU_CONFIGS = [asc2.Config(TILE=t, UNROLL=u, block_num=b)
                for t in (1024, 4096, 8192, 15872) for u in (1, 2) for b in (24, 48)]


def _rows_that_exist(configs, args):
    """More rows per trip than the tensor has only pads: keep ROWS=1 and the ROWS up to the row count."""
    return [c for c in configs if c.kwargs["ROWS"] == 1 or c.kwargs["ROWS"] <= args["rows"]]


def tuned_kernels(executor):
    softmax = asc2.autotune(configs=SOFTMAX_CONFIGS, key=["rows", "cols"], cache_results=False, executor=executor,
                            prune_configs_by={"early_config_prune": _rows_that_exist})(softmax_rows)
    gelu = asc2.autotune(configs=GELU_CONFIGS, key=["size"], cache_results=False, executor=executor)(gelu_tiles)
    return softmax, gelu


def _max_error(out, reference, x):
    step = 1 << 22
    flat_out, flat_x = out.reshape(-1), x.reshape(-1)
    if out.ndim == 1:
        return max(float(np.max(np.abs(flat_out[i:i + step] - reference(flat_x[i:i + step]))))
                   for i in range(0, flat_x.size, step))
    return float(np.max(np.abs(out - reference(x))))


def tune(executor, cases):
    """Tune every case on ``executor``: ({"softmax": seconds, "gelu": seconds}, {case: (config, cycles, max
    error)})."""
    softmax, gelu = tuned_kernels(executor)
    results, wall = {}, {"softmax": 0.0, "gelu": 0.0}
    for name, x in cases:
        out = np.zeros_like(x)
        start = time.perf_counter()
        if x.ndim == 2:
            rows, cols = x.shape
            softmax[8](x, out, rows, cols, COLS=-(-cols // 8) * 8)
            kernel, family, reference = softmax, "softmax", softmax_sample.reference
        else:
            gelu[8](x, out, x.size)
            kernel, family, reference = gelu, "gelu", gelu_sample.reference
        wall[family] += time.perf_counter() - start
        results[name] = (kernel.best_config, kernel.last_report["launch"]["cycles"], _max_error(out, reference, x))
    return wall, results


def baseline(x):
    """Cycles of the sample's own launch (its run() defaults)."""
    out = np.zeros_like(x)
    if x.ndim == 2:
        rows, cols = x.shape
        softmax_sample.softmax[8](x, out, rows, cols, TILE=-(-cols // 64) * 64)
        return softmax_sample.softmax.last_report["launch"]["cycles"]
    gelu_sample.gelu[8](x, out, x.size, TILE=256)
    return gelu_sample.gelu.last_report["launch"]["cycles"]


@contextlib.contextmanager
def cluster(workers):
    """A LocalCluster of ``workers`` with a fresh compile cache (a run does not reuse the other's compiles)."""
    saved = os.environ.get("ASC2_CACHE_DIR")
    with tempfile.TemporaryDirectory(prefix="asc2-bench-autotune-") as cache:
        os.environ["ASC2_CACHE_DIR"] = cache  # the workers start with it
        try:
            with DaskExecutor(n_workers=workers) as executor:
                yield executor
        finally:
            if saved is None:
                os.environ.pop("ASC2_CACHE_DIR", None)
            else:
                os.environ["ASC2_CACHE_DIR"] = saved


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--quick", action="store_true", help=f"softmax only on {', '.join(QUICK)}")
    parser.add_argument("--gelu-elements", type=int, default=math.prod(GELU_SHAPE[1]),
                        help="GELU size (default: upstream's 32 x 2048 x 2304)")
    parser.add_argument("--no-scaling", action="store_true", help="skip the 1-worker run")
    args = parser.parse_args(argv)

    rng = np.random.default_rng(0)
    cases = []
    for name, shape in SOFTMAX_SHAPES:
        if args.quick and name not in QUICK:
            continue
        rows, cols = math.prod(shape[:-1]), shape[-1]
        cases.append((name, (rng.standard_normal((rows, cols), dtype=np.float32) * 3)))
    cases.append((GELU_SHAPE[0], rng.standard_normal(args.gelu_elements, dtype=np.float32) * 2))

    runs = {}
    for workers in ([] if args.no_scaling else [1]) + [args.workers]:
        with cluster(workers) as executor:
            runs[workers] = tune(executor, cases)
        wall = runs[workers][0]
        print(f"tuned {len(cases)} shapes on {workers} Dask worker(s): softmax {wall['softmax']:.1f} s, "
              f"gelu {wall['gelu']:.1f} s", flush=True)
    results = runs[args.workers][1]

    print(f"\n{'case':16s} {'shape':>14s}  {'sample cycles':>13s}  {'tuned cycles':>12s}  {'speed-up':>8s}  "
          f"{'max err':>8s}  config")
    speedups = []
    for name, x in cases:
        config, cycles, err = results[name]
        base = baseline(x)
        speedups.append(base / cycles)
        shape = "x".join(map(str, x.shape))
        print(f"{name:16s} {shape:>14s}  {base:13,d}  {cycles:12,d}  {base / cycles:7.2f}x  {err:8.2g}  "
              f"{config.describe()}")
    print(f"\ngeometric mean speed-up over the samples' defaults: "
          f"{math.exp(sum(map(math.log, speedups)) / len(speedups)):.2f}x ({len(speedups)} shapes)")
    if 1 in runs and args.workers != 1:
        for family in ("softmax", "gelu", "total"):
            one, more = (sum(runs[w][0].values()) if family == "total" else runs[w][0][family]
                         for w in (1, args.workers))
            print(f"tuning wall time, {family:7s}: 1 worker {one:6.1f} s, {args.workers} workers {more:6.1f} s: "
                  f"{one / more:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
