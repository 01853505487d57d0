"""Generated code vs hand-written Ascend C: simulated cycles of each asc2 sample kernel and of its
expert baseline (samples/baselines/*.mlir) on the same inputs, with a bandwidth/vector bound.

    PYTHONPATH=build/python /usr/bin/python3 bench/codegen_vs_baseline.py [--cores 48] [--trips 16]
        [--kernel NAME ...] [--json FILE]

Per kernel it prints: cycles of the asc2 kernel and of the baseline, baseline/asc2 (> 1: asc2 is
faster), the bound and bound/asc2 (the fraction of the bound asc2 reaches), the pipe that sets
the bound, static sync counts (set_flag / wait_flag / pipe_barrier, "+N id": get_buf/rls_buf
pairs of Ascend950's buffer-id sync) and the UB peak of each, the geometric mean of base/asc2,
and per-core busy cycles per pipe of both runs (from the launch record).

The bound is the simulator's own machine model (resources/arch/<platform>.json), not a
measurement: per core, max over
  MTE2: bytes the kernel must read / min(gm_to_ub, hbm / active cores)   (bytes per cycle)
  MTE3: bytes it must write      / min(ub_to_gm, hbm / active cores)
  V:    the smaller per-core vector busy time of the two implementations
  M:    (matmul) the cube's fractal cycles per core (mmad_cycles_per_fractal per 16x16x16 fractal)
with the bytes spread evenly over the cores and no per-transfer fixed cost, so no kernel can go
below it in the model (matmul reads: each C block loads its A rows and B columns, through L1).  Both runs are checked against numpy; a wrong or racy run is an error.
"""

import argparse
import json
import math
import os
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "samples"))
sys.path.insert(0, os.path.join(ROOT, "tests", "python"))

import gelu  # noqa: E402
import layer_norm  # noqa: E402
import matmul_ktiled  # noqa: E402
import rms_norm  # noqa: E402
import softmax  # noqa: E402
import vadd  # noqa: E402
from asc2 import _C  # noqa: E402
from kernelgen import runtime_args  # noqa: E402  (tests/python/kernelgen.py)

PIPES = ("S", "V", "MTE2", "MTE3", "MTE1", "M", "FIX")


class Case:
    """One comparison: an asc2 kernel and a baseline on the same arrays.

    make(cores, trips) -> (asc2 args, constexprs, baseline args, check(outputs) -> max error,
    bytes read, bytes written); outputs are the arrays at ``out_index`` of each argument list."""

    def __init__(self, name, kernel, baseline, make, out_index, tolerance):
        self.name, self.kernel, self.baseline = name, kernel, baseline
        self.make, self.out_index, self.tolerance = make, out_index, tolerance


def _vadd(cores, trips):
    tile = 4096
    n = cores * trips * tile - 1000
    rng = np.random.default_rng(0)
    x, y = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
    out_a, out_b = np.zeros(n, np.float32), np.zeros(n, np.float32)
    tpb = -(-(-(-n // tile)) // cores)
    check = lambda out: float(np.max(np.abs(out - (x + y))))  # noqa: E731
    return (x, y, out_a, n, tpb), {"TILE": tile}, [x, y, out_b, n, tpb], check, 2 * x.nbytes, x.nbytes


def _gelu(cores, trips):
    tile = 4096
    n = cores * trips * tile - 123
    x = (np.random.default_rng(0).standard_normal(n) * 2).astype(np.float32)
    out_a, out_b = np.zeros_like(x), np.zeros_like(x)
    check = lambda out: float(np.max(np.abs(out - gelu.reference(x))))  # noqa: E731
    return (x, out_a, n), {"TILE": tile}, [x, out_b, n], check, x.nbytes, x.nbytes


def _softmax(cores, trips):
    cols = 1024
    rows = cores * 8 * trips - 5  # the baseline takes 8 rows per tile
    x = (np.random.default_rng(0).standard_normal((rows, cols)) * 3).astype(np.float32)
    out_a, out_b = np.zeros_like(x), np.zeros_like(x)
    check = lambda out: float(np.max(np.abs(out - softmax.reference(x))))  # noqa: E731
    return (x, out_a, rows, cols), {"TILE": cols}, [x, out_b, rows, cols], check, x.nbytes, x.nbytes


def _rms_norm(cores, trips):
    rows_per_tile, cols, eps = 8, 1024, 1e-6
    rows = cores * rows_per_tile * trips - 3
    rng = np.random.default_rng(0)
    x = rng.standard_normal((rows, cols)).astype(np.float32)
    gamma = rng.uniform(0.5, 1.5, (1, cols)).astype(np.float32)
    out_a, out_b = np.zeros_like(x), np.zeros_like(x)
    check = lambda out: float(np.max(np.abs(out - rms_norm.reference(x, gamma, eps))))  # noqa: E731
    return ((x, gamma, out_a, rows), {"eps": eps, "ROWS": rows_per_tile, "COLS": cols}, [x, gamma, out_b, rows],
            check, x.nbytes + gamma.nbytes, x.nbytes)


def _layer_norm(fused):
    def make(cores, trips):
        cols, eps = 1024, 1e-5
        rows = cores * 4 * trips - 3  # the baseline takes 4 rows per tile
        rng = np.random.default_rng(0)
        x = (rng.standard_normal((rows, cols)) * 2 + 1).astype(np.float32)
        gamma = rng.uniform(0.5, 1.5, cols).astype(np.float32)
        beta = rng.standard_normal(cols).astype(np.float32)
        out_a, out_b = np.zeros_like(x), np.zeros_like(x)
        check = lambda out: float(np.max(np.abs(out - layer_norm.reference(x, gamma, beta, eps))))  # noqa: E731
        if fused:
            args, constexprs = (x, gamma, beta, out_a, rows), {"eps": eps, "COLS": cols}
        else:
            args, constexprs = (x, gamma.reshape(1, -1), beta.reshape(1, -1), out_a, rows, eps), {"COLS": cols}
        return (args, constexprs, [x, gamma.reshape(1, -1), beta.reshape(1, -1), out_b, rows, eps], check,
                x.nbytes + gamma.nbytes + beta.nbytes, x.nbytes)

    return make


def _matmul(cores, trips):
    bm = bn = 128
    bk = 64
    k = 1024
    blocks = cores * trips  # C blocks, `trips` per core
    m, n = 128 * max(1, blocks // 4), 128 * min(4, blocks)
    rng = np.random.default_rng(0)
    a = rng.standard_normal((m, k)).astype(np.float16)
    b = rng.standard_normal((k, n)).astype(np.float16)
    out_a, out_b = np.zeros((m, n), np.float32), np.zeros((m, n), np.float32)
    expected = a.astype(np.float32) @ b.astype(np.float32)
    check = lambda out: float(np.max(np.abs(out - expected)))  # noqa: E731
    reads = (m // bm) * (n // bn) * (bm + bn) * k * 2
    return ((a, b, out_a, m, n, k, bm, bn, bk), {}, [a, b, out_b, m, n, k], check, reads, out_a.nbytes,
            {"fractals": (m // 16) * (n // 16) * (k // 16)})


CASES = [
    Case("vadd", vadd.vadd, "vadd", _vadd, (2, 2), 0.0),
    Case("gelu", gelu.gelu, "gelu", _gelu, (1, 1), 1e-5),
    Case("softmax", softmax.softmax, "softmax", _softmax, (1, 1), 1e-6),
    Case("softmax_fused", softmax.softmax_fused, "softmax", _softmax, (1, 1), 1e-6),
    Case("rms_norm", rms_norm.rms_norm, "rms_norm", _rms_norm, (2, 2), 1e-5),
    Case("rms_norm_fused", rms_norm.rms_norm_fused, "rms_norm", _rms_norm, (2, 2), 1e-5),
    Case("layer_norm", layer_norm.layer_norm, "layer_norm", _layer_norm(False), (3, 3), 1e-4),
    Case("layer_norm_fused", layer_norm.layer_norm_fused, "layer_norm", _layer_norm(True), (3, 3), 1e-4),
    Case("matmul_ktiled", matmul_ktiled.matmul_ktiled, "matmul_ktiled", _matmul, (2, 2), 1e-3),
]


def arch_model(platform):
    with open(os.path.join(ROOT, "resources", "arch", f"{platform}.json")) as f:
        return json.load(f)


def sync_counts(report):
    kinds = [s["kind"] for s in report["sync"]]
    return {"set_flag": kinds.count("set_flag"), "wait_flag": kinds.count("wait_flag"),
            "get_buf": kinds.count("get_buf"),
            "pipe_barrier": sum(1 for k in kinds if k not in ("set_flag", "wait_flag", "get_buf", "rls_buf"))}


def sync_text(counts):
    """set/wait/barrier, plus the get_buf/rls_buf pairs of buffer-id sync (Ascend950)."""
    text = "/".join(str(counts[k]) for k in ("set_flag", "wait_flag", "pipe_barrier"))
    return text + (f"+{counts['get_buf']}id" if counts.get("get_buf") else "")


def run(native, block_num, args, check, out_index, tolerance, what):
    result = dict(native.launch(block_num, args))
    if not result["ok"] or result["races"]:
        raise RuntimeError(f"{what}: {result['error']} {result['races'][:2]}")
    err = check(args[out_index])
    if err > tolerance:
        raise RuntimeError(f"{what}: wrong result, max abs error {err:.3g} > {tolerance}")
    report = json.loads(native.report_json(False))
    launch = report["launches"][-1]
    busy = {p["pipe"]: p["busy_cycles"] / block_num for p in launch["pipes"]}
    peaks = {s["space"]: s["peak"] for s in report["memory"]["spaces"]}
    return {"cycles": result["cycles"], "busy_per_core": {p: round(busy.get(p, 0)) for p in PIPES},
            "sync": sync_counts(report), "ub_peak": peaks.get("UB", 0), "peaks": peaks, "max_abs_err": err,
            "kernel_type": report["options"].get("kernel_type", "?")}


def compare(case, cores, trips, platform):
    args, constexprs, base_args, check, bytes_in, bytes_out, *extra = case.make(cores, trips)
    cube = extra[0] if extra else None
    compiled = case.kernel.compile(*args, **constexprs)
    asc = run(compiled.native, cores, runtime_args(case.kernel, args, constexprs), check, case.out_index[0],
              case.tolerance, f"{case.name} (asc2)")
    path = os.path.join(ROOT, "samples", "baselines", case.baseline + ".mlir")
    with open(path) as f:
        baseline = _C.compile_baseline(f.read(), platform=platform, source_file=path)
    base = run(baseline, cores, base_args, check, case.out_index[1], case.tolerance, f"{case.name} (baseline)")

    arch = arch_model(platform)
    cycles_per_s = arch["clock_mhz"] * 1e6
    active = min(cores, arch["aic_cores"] if cube else arch["aiv_cores"])
    hbm_share = arch["hbm_gbps"] * 1e9 / cycles_per_s / active
    if cube:
        limits = {
            "MTE2": bytes_in / cores / min(arch["gm_to_l1_gbps"] * 1e9 / cycles_per_s, hbm_share),
            "FIX": bytes_out / cores / min(arch["l0c_to_gm_gbps"] * 1e9 / cycles_per_s, hbm_share),
            "M": cube["fractals"] / cores * arch["mmad_cycles_per_fractal"],
        }
    else:
        limits = {
            "MTE2": bytes_in / cores / min(arch["gm_to_ub_gbps"] * 1e9 / cycles_per_s, hbm_share),
            "MTE3": bytes_out / cores / min(arch["ub_to_gm_gbps"] * 1e9 / cycles_per_s, hbm_share),
            "V": min(asc["busy_per_core"]["V"], base["busy_per_core"]["V"]),
        }
    bound_pipe = max(limits, key=limits.get)
    bound = limits[bound_pipe]
    return {"kernel": case.name, "baseline": os.path.relpath(path, ROOT), "cores": cores,
            "asc2": asc, "base": base,
            "baseline_over_asc2": base["cycles"] / asc["cycles"],
            "bound": round(bound), "bound_pipe": bound_pipe, "bound_parts": {k: round(v) for k, v in limits.items()},
            "bound_over_asc2": bound / asc["cycles"]}


def print_table(rows):
    head = (f"{'kernel':17s} {'asc2':>8s} {'base':>8s} {'base/asc2':>9s} {'bound':>7s} {'pipe':>4s} "
            f"{'bnd/asc2':>8s}  {'sync asc2 s/w/b':>15s} {'sync base s/w/b':>15s} {'UB asc2':>8s} {'UB base':>8s}")
    print(head)
    print("-" * len(head))
    for r in rows:
        a, b = r["asc2"], r["base"]
        sa, sb = sync_text(a["sync"]), sync_text(b["sync"])
        print(f"{r['kernel']:17s} {a['cycles']:8d} {b['cycles']:8d} {r['baseline_over_asc2']:9.2f} {r['bound']:7d} "
              f"{r['bound_pipe']:>4s} {r['bound_over_asc2']:8.2f}  {sa:>15s} {sb:>15s} {a['ub_peak']:8d} "
              f"{b['ub_peak']:8d}")
    ratios = [r["baseline_over_asc2"] for r in rows]
    geomean = math.exp(sum(math.log(x) for x in ratios) / len(ratios))
    print(f"geometric mean of base/asc2: {geomean:.3f}; lowest: {min(ratios):.2f} "
          f"({rows[ratios.index(min(ratios))]['kernel']})")
    print("\nbusy cycles per core (asc2 | baseline), pipes the kernel uses:")
    for r in rows:
        a, b = r["asc2"]["busy_per_core"], r["base"]["busy_per_core"]
        used = [p for p in PIPES if a[p] or b[p]]
        print(f"  {r['kernel']:17s} " + "  ".join(f"{p} {a[p]:6d} | {b[p]:6d}" for p in used))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cores", type=int, default=48)
    parser.add_argument("--trips", type=int, default=16, help="tiles per core of the baseline (>= 16)")
    parser.add_argument("--platform", default="Ascend910B1")
    parser.add_argument("--kernel", action="append", help="only these kernels (repeatable)")
    parser.add_argument("--json", help="also write the rows as JSON")
    args = parser.parse_args(argv)
    import asc2
    asc2.set_platform(platform=args.platform)
    rows = [compare(c, args.cores, args.trips, args.platform) for c in CASES
            if not args.kernel or c.name in args.kernel]
    print(f"asc2 vs hand-written baselines, {args.platform}, {args.cores} cores, {args.trips} baseline tiles per core")
    print_table(rows)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
