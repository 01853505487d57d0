"""Calibrate timing parameters of one platform on its calibration points: a grid search.

    PYTHONPATH=build/python:python /usr/bin/python3 bench/fidelity/fit.py --platform Ascend910B1 \\
        --param gm_read_latency_cycles=500,700,900 --param mte_outstanding=1,2 [--slow] [--top N]

A dotted NAME reaches into a table of the file (--param vector_instr_cost.whole_reduce.per_repeat=2,4,7).

For every combination of the --param values, a copy of resources/arch with the platform's file changed
(ASC2_ARCH_DIR) runs the platform's *calibration* points (run.py, a fresh compile cache each time) and
the combination is scored by the share within ±20 % and then the typical factor exp(mean |ln r|) (the
issue's two criteria, in that order). Prints the combinations best first. Validation points are never run: fitting on them would make them
calibration points. The chosen values go into resources/arch/<platform>.json by hand, with their
source ("[fit] on <point ids>").
"""

import argparse
import itertools
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(HERE))

from fidelity import run  # noqa: E402  (bench/fidelity/run.py)


def parse_param(text):
    name, sep, values = text.partition("=")
    if not sep or not name or not values:
        raise argparse.ArgumentTypeError(f"--param wants NAME=V1,V2,...; got {text!r}")
    parsed = []
    for v in values.split(","):
        try:
            parsed.append(int(v) if v.lstrip("-").isdigit() else float(v))
        except ValueError:
            raise argparse.ArgumentTypeError(f"--param {name}: {v!r} is not a number") from None
    return name, parsed


def arch_dir_with(platform, values, into):
    """resources/arch copied to `into`, with `values` set in <platform>.json (each key must exist)."""
    shutil.copytree(os.path.join(ROOT, "resources", "arch"), into, dirs_exist_ok=True)
    path = os.path.join(into, f"{platform}.json")
    with open(path) as f:
        doc = json.load(f)
    for key, value in values.items():
        # A dotted name reaches into a table: vector_instr_cost.whole_reduce.per_repeat.
        *tables, leaf = key.split(".")
        table = doc
        for part in tables:
            table = table.get(part) if isinstance(table, dict) else None
        if not isinstance(table, dict) or leaf not in table:
            raise SystemExit(f"fit: {platform}.json has no parameter {key!r}")
        table[leaf] = value
    with open(path, "w") as f:
        json.dump(doc, f, indent=1)


def score(platform, values, point_ids, slow):
    with tempfile.TemporaryDirectory(prefix="asc2-fit-") as tmp:
        arch = os.path.join(tmp, "arch")
        arch_dir_with(platform, values, arch)
        out = os.path.join(tmp, "rows.json")
        env = dict(os.environ, ASC2_ARCH_DIR=arch, ASC2_CACHE_DIR=os.path.join(tmp, "cache"))
        argv = [sys.executable, os.path.join(HERE, "run.py"), "--set", "calibration", "--json", out]
        for pid in point_ids:
            argv += ["--point", pid]
        if slow:
            argv.append("--slow")
        proc = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=ROOT)
        if not os.path.exists(out):
            raise SystemExit(f"fit: run.py failed with {values}:\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}")
        with open(out) as f:
            doc = json.load(f)
    return doc["summary"]["calibration"], {r["id"]: r["ratio"] for r in doc["rows"]}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--platform", required=True)
    parser.add_argument("--param", type=parse_param, action="append", required=True, metavar="NAME=V1,V2")
    parser.add_argument("--slow", action="store_true", help="also the calibration points marked slow")
    parser.add_argument("--top", type=int, default=10)
    args = parser.parse_args(argv)

    points = [p for p in run.load_points() if p["set"] == "calibration" and p["platform"] == args.platform]
    if not points:
        raise SystemExit(f"fit: no calibration point on {args.platform}")
    ids = [p["id"] for p in points if args.slow or not p.get("slow")]
    names = [n for n, _ in args.param]
    results = []
    for combo in itertools.product(*[v for _, v in args.param]):
        values = dict(zip(names, combo))
        summary, ratios = score(args.platform, values, ids, args.slow)
        results.append((summary["typical_factor"], -summary["within"], values, ratios))
        print(f"  {values}: x{summary['typical_factor']:.3f}, within {summary['within']}/{summary['points']}  "
              + " ".join(f"{k}={v:.2f}" if v else f"{k}=-" for k, v in ratios.items()), flush=True)
    results.sort(key=lambda r: (r[1], r[0]))
    print(f"\nbest on {len(ids)} calibration point(s) of {args.platform} ({', '.join(ids)}):")
    for factor, within, values, _ in results[:args.top]:
        print(f"  x{factor:.3f}  within {-within}  {values}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
