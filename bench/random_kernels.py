"""Random-kernel sweep: generate, compile, simulate and check many seeded random vector kernels.

    PYTHONPATH=build/python /usr/bin/python3 bench/random_kernels.py --count 1000 --seed 0 [--jobs 2]
        [--mix] [--mutate] [--minimize] [--show N] [--json FILE]

Each kernel comes from tests/python/kernelgen.py (random DAGs of element-wise ops, scalars,
compare + where, casts, reductions; 1-D/2-D tiles; 1-8 cores; unroll 1-3; num_stages None/1;
reuse_alloc 0/1) and runs in a forked child, so a crash in the native compiler or simulator is
counted, not fatal.  Prints the count per outcome (ok, mismatch, race, sim_error, compile_error,
crash, ub_overflow) and, for the first --show failures of each kind, the seed, the message and
(--minimize) a reduced kernel source that fails the same way.  --mutate also drops every
non-drain wait_flag of each passing kernel and counts removals that nothing notices.
--mix generates cube and MIX kernels instead (tests/python/mixgen.py: K loops of matmuls, vector
prologues and epilogues, a second matmul fed back from the vector core; exact integer data, both
targets); with --mutate, only the kernels whose launch runs every wait (mixgen.mutation_config)
are mutated, and the workspace WARs between output tiles (mixgen.REDUNDANT) are counted apart.
"""

import argparse
import collections
import json
import os
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "python"))

import kernelgen  # noqa: E402  (tests/python/kernelgen.py)
import mixgen  # noqa: E402  (tests/python/mixgen.py)
from conftest import in_child_process  # noqa: E402  (crash isolation, shared with the tests)

FAILURES = ("mismatch", "race", "sim_error", "compile_error", "crash")


def _check(seed, mutate, mix=False):
    if mix:
        k = mixgen.generate(seed)
        result = mixgen.check(k, mutate=mutate and mixgen.mutation_config(k))
    else:
        k = kernelgen.generate(seed)
        result = kernelgen.check(k, mutate=mutate)
    if "uncaught" in result:
        result["uncaught"] = [(i, w["src_pipe"], w["dst_pipe"], w["role"], w["reason"]) for i, w in result["uncaught"]]
    return result


def run_one(seed, mutate, mix=False):
    try:
        return in_child_process(_check, seed, mutate, mix)
    except AssertionError as e:  # the child died: a native crash
        return {"seed": seed, "status": "crash", "detail": str(e), "cycles": 0}
    except Exception as e:  # noqa: BLE001
        return {"seed": seed, "status": "crash", "detail": f"{type(e).__name__}: {e}", "cycles": 0}


def _minimized_source(seed):
    return kernelgen.minimize(kernelgen.generate(seed)).source


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0, help="first seed; kernels use seed .. seed+count-1")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--mutate", action="store_true", help="also drop each non-drain wait of passing kernels")
    parser.add_argument("--mix", action="store_true", help="cube and MIX kernels (tests/python/mixgen.py)")
    parser.add_argument("--minimize", action="store_true", help="print a reduced reproducer per shown failure")
    parser.add_argument("--show", type=int, default=3, help="failures shown per kind")
    parser.add_argument("--json", help="write every result to this file")
    args = parser.parse_args(argv)

    os.environ.setdefault("ASC2_CACHE_DIR", tempfile.mkdtemp(prefix="asc2-random-cache-"))
    seeds = range(args.seed, args.seed + args.count)
    t0 = time.perf_counter()
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            results = list(pool.map(run_one, seeds, [args.mutate] * len(seeds), [args.mix] * len(seeds),
                                    chunksize=8))
    else:
        results = [run_one(s, args.mutate, args.mix) for s in seeds]
    wall = time.perf_counter() - t0

    counts = collections.Counter(r["status"] for r in results)
    kind = "cube/MIX" if args.mix else "vector"
    print(f"random {kind} kernels: {args.count} (seeds {args.seed}..{args.seed + args.count - 1}), {wall:.1f} s wall")
    for status in ("ok", "ub_overflow") + FAILURES:
        print(f"  {status:14s} {counts.get(status, 0)}")
    ratios = collections.Counter(r["mix_ratio"] for r in results if r.get("mix_ratio"))
    if ratios:
        print("  vector cores per cube core: " + ", ".join(
            f"{ratio} ({'MIX_AIC_1_' + ratio[-1]}) {n}" for ratio, n in sorted(ratios.items())))
    checked = sum(r.get("checked", 0) for r in results)
    elements = sum(r.get("elements", 0) for r in results)
    if elements:
        print(f"  elements checked {checked} of {elements} ({100.0 * checked / elements:.1f}%; the rest were "
              "too close to a comparison or floor boundary to call)")
    if args.mutate:
        waits = sum(r.get("waits", 0) for r in results)
        uncaught = [(r["seed"], u) for r in results for u in r.get("uncaught", [])]
        if args.mix:
            redundant = [x for x in uncaught if mixgen.REDUNDANT.search(x[1][4])]
            uncaught = [x for x in uncaught if not mixgen.REDUNDANT.search(x[1][4])]
            print(f"  mutation: {sum(1 for r in results if 'waits' in r)} kernels mutated, "
                  f"{len(redundant)} removals of workspace WARs between tiles (no shared bytes) not caught")
        print(f"  mutation: {waits} waits in passing kernels, {len(uncaught)} non-drain removals not caught")
        for seed, (i, src, dst, role, reason) in uncaught[:args.show * 3]:
            print(f"    seed {seed} wait #{i} {src}->{dst} ({role}): {reason}")

    for status in FAILURES:
        bad = [r for r in results if r["status"] == status]
        for r in bad[:args.show]:
            print(f"\n--- {status}: seed {r['seed']}: {r['detail'][:600]}")
            if args.minimize:
                try:
                    print(mixgen.generate(r["seed"]).source if args.mix
                          else in_child_process(_minimized_source, r["seed"]))
                except Exception as e:  # noqa: BLE001
                    print(f"(minimizing crashed: {e}); the full kernel:\n{kernelgen.generate(r['seed']).source}")
        if len(bad) > args.show:
            print(f"    ... and {len(bad) - args.show} more {status} seeds: {[r['seed'] for r in bad[args.show:]][:40]}")

    if args.json:
        with open(args.json, "w") as f:
            json.dump({"count": args.count, "seed": args.seed, "wall_s": wall, "counts": counts, "results": results},
                      f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
