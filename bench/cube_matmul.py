"""Cube utilization of a large matmul on the simulator: how busy the M pipe (mmad) stays.

    PYTHONPATH=build/python /usr/bin/python3 bench/cube_matmul.py [--shape M N K] [--cores C]
        [--block BM BN BK1 BK0] [--json FILE]

The kernel is the two-level tiling an Ascend C expert uses: each core owns BM x BN blocks of C
(the float32 accumulator fills L0C), streams BK1-deep panels of A and B into L1 (MTE2) and
feeds the cube BK0-deep sub-tiles through L0A/L0B (MTE1). The compiler multi-buffers the L1
panels and the L0 operands, so MTE2, MTE1 and M overlap; the fixpipe stores each block.

It prints, per launch: simulated cycles, the per-core busy share of each pipe (cube utilization =
M busy / cycles, the msprof `aic_cube_ratio`), simulated TFLOPS against the cube peak of the
cores used, the largest relative error against numpy, and how fast the simulator ran it: wall and
CPU seconds of the launch (compilation included) and simulated multiply-adds per CPU second.

Model note: the simulator caps GM traffic at the chip's HBM bandwidth shared by the active
cores and has no L2 cache, so with all 24 cube cores a matmul is held to HBM speed (on hardware
the 192 MB L2 serves the re-read panels); the default runs on 4 cores, where each core gets its
full GM->L1 bandwidth.
"""

import argparse
import json
import sys
import time

import numpy as np

import asc2

L = asc2.TensorLocation


@asc2.jit
def matmul_l1_tiled(a_ptr: asc2.GlobalAddress, b_ptr: asc2.GlobalAddress, c_ptr: asc2.GlobalAddress,
                    M: asc2.ConstExpr[int], N: asc2.ConstExpr[int], K: asc2.ConstExpr[int],
                    BM: asc2.ConstExpr[int], BN: asc2.ConstExpr[int], BK1: asc2.ConstExpr[int],
                    BK0: asc2.ConstExpr[int]):
    a_gm = asc2.global_tensor(a_ptr, [M, K])
    b_gm = asc2.global_tensor(b_ptr, [K, N])
    c_gm = asc2.global_tensor(c_ptr, [M, N])
    blocks_n = asc2.ceildiv(N, BN)
    for blk in asc2.range(asc2.block_idx(), asc2.ceildiv(M, BM) * blocks_n, asc2.block_num()):
        m0 = (blk // blocks_n) * BM
        n0 = (blk % blocks_n) * BN
        acc = asc2.zeros_acc([BM, BN])
        for k1 in asc2.range(0, K, BK1):
            a1 = asc2.copy_in(a_gm, [m0, k1], [BM, BK1], location=L.L1)
            b1 = asc2.copy_in(b_gm, [k1, n0], [BK1, BN], location=L.L1)
            for kk in asc2.static_range(BK1 // BK0):
                a0 = asc2.copy(a1, [0, kk * BK0], [BM, BK0], location=L.L0A)
                b0 = asc2.copy(b1, [kk * BK0, 0], [BK0, BN], location=L.L0B)
                acc = asc2.matmul_acc(acc, a0, b0)
        asc2.copy_out(acc, c_gm, [m0, n0])


def run(m, n, k, cores, block, platform="Ascend910B1", seed=0):
    asc2.set_platform(platform=platform)
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((m, k)).astype(np.float16)
    b = rng.standard_normal((k, n)).astype(np.float16)
    c = np.zeros((m, n), np.float32)
    start, cpu = time.perf_counter(), time.process_time()
    matmul_l1_tiled[cores](a, b, c, m, n, k, *block)
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    report = matmul_l1_tiled.last_report
    launch = report["launches"][-1]
    ref = a.astype(np.float32) @ b.astype(np.float32)
    err = float(np.max(np.abs(c - ref)) / max(1.0, float(np.max(np.abs(ref)))))
    cycles = launch["cycles"]
    busy = {p["pipe"]: p["busy_cycles"] / cores / cycles for p in launch["pipes"]}
    with open(_arch_path(platform)) as f:
        arch = json.load(f)
    seconds = cycles / (arch["clock_mhz"] * 1e6)
    peak = min(cores, arch["aic_cores"]) * 16 * 16 * 16 * 2 * arch["clock_mhz"] * 1e6 / arch["mmad_cycles_per_fractal"]
    tflops = 2.0 * m * n * k / seconds / 1e12
    return {"shape": [m, n, k], "cores": cores, "block": list(block), "platform": platform, "cycles": cycles,
            "utilization": {p: round(v, 4) for p, v in busy.items() if v}, "cube_utilization": round(busy["M"], 4),
            "tflops": round(tflops, 2), "peak_tflops": round(peak / 1e12, 2), "relative_error": err,
            "races": len(launch["races"]) if isinstance(launch["races"], list) else launch["races"],
            "memory_peaks": {s["space"]: s["peak"] for s in report["memory"]["spaces"]},
            "wall_seconds": round(wall, 2), "cpu_seconds": round(cpu, 2),
            "sim_gmac_per_cpu_second": round(m * n * k / cpu / 1e9, 2)}


def _arch_path(platform):
    import os
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    return os.path.join(root, "resources", "arch", f"{platform}.json")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shape", type=int, nargs=3, action="append", metavar=("M", "N", "K"))
    parser.add_argument("--cores", type=int, action="append")
    parser.add_argument("--block", type=int, nargs=4, default=(128, 256, 256, 64), metavar=("BM", "BN", "BK1", "BK0"))
    parser.add_argument("--platform", default="Ascend910B1")
    parser.add_argument("--json", help="also write the rows as JSON")
    args = parser.parse_args(argv)
    rows = []
    for m, n, k in args.shape or [(512, 1024, 4096)]:
        for cores in args.cores or [4]:
            rows.append(run(m, n, k, cores, tuple(args.block), args.platform))
    print(f"{'shape':>16s} {'cores':>5s} {'cycles':>9s} {'cube':>6s} {'MTE2':>6s} {'MTE1':>6s} {'FIX':>6s} "
          f"{'TFLOPS':>7s} {'peak':>7s} {'rel err':>8s} {'races':>5s} {'wall s':>7s} {'cpu s':>7s} {'GMAC/cpu-s':>10s}")
    for r in rows:
        u = r["utilization"]
        print(f"{'x'.join(map(str, r['shape'])):>16s} {r['cores']:5d} {r['cycles']:9d} {u.get('M', 0):6.1%} "
              f"{u.get('MTE2', 0):6.1%} {u.get('MTE1', 0):6.1%} {u.get('FIX', 0):6.1%} {r['tflops']:7.2f} "
              f"{r['peak_tflops']:7.2f} {r['relative_error']:8.1e} {r['races']:5d} {r['wall_seconds']:7.2f} "
              f"{r['cpu_seconds']:7.2f} {r['sim_gmac_per_cpu_second']:10.2f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)
    return 0 if all(r["relative_error"] <= 1e-5 and not r["races"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
