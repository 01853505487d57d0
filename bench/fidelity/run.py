"""Simulator fidelity: our simulator's predicted times against published silicon and CAModel figures.

    PYTHONPATH=build/python:python /usr/bin/python3 bench/fidelity/run.py
        [--set calibration|validation|all] [--quick] [--slow] [--point ID ...] [--pipes] [--json OUT]

Each published point (points/*.json: platform, kernel, shape, dtype, tiling, cores, the figure, its
unit and source) is re-run here with our own asc2 kernel of the same work, tiling and core count
(kernels/), on the Model backend of the point's platform, and its outputs are checked against
numpy. One row per point: the published figure, the prediction in the same unit (cycles <-> us
with the platform's clock_mhz from resources/arch), the ratio predicted / published, whether it
is within ±20 % and whether the numbers equal numpy's; then, per set (calibration, validation,
all), the typical factor exp(mean |ln r|) and the share within ±20 % (metrics.py). A point (or its
file) naming "num_stages" is compiled with that ping-pong depth: 1 for the pyasc points, whose measured
code upstream PyAsc2 compiled without multi-buffering.

--quick runs the points marked "quick" (CI, < 60 s); points marked "slow" (minutes of simulation)
run only with --slow, otherwise their row says so and they count as misses. A kernel that fails
prints its error in its row and counts as a miss. The exit status is 1 when any kernel failed or
differed from numpy (never because of the accuracy: the timing model is being calibrated).
"""

import argparse
import glob
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(HERE))

from fidelity import metrics  # noqa: E402  (bench/fidelity/metrics.py)

SETS = ("calibration", "validation")
# Points marked "slow" in points/*.json (minutes of functional cube simulation) say this instead.
SLOW_HINT = "minutes of simulation; --slow runs it"
NUM_STAGES_VAR = "ASC2_JIT_NUM_STAGES"  # asc2.jit's num_stages for every kernel of a run (asc2/runtime/jit.py)


def load_points(directory=os.path.join(HERE, "points")):
    """Every point of points/*.json; a file's "source" / "kernel_source" apply to its points
    that do not name their own."""
    points = []
    for path in sorted(glob.glob(os.path.join(directory, "*.json"))):
        with open(path) as f:
            doc = json.load(f)
        for point in doc["points"]:
            point = dict(point)
            for key in ("source", "kernel_source", "num_stages"):
                point.setdefault(key, doc.get(key))
            if point["set"] not in SETS:
                raise ValueError(f"{path}: point {point['id']}: set must be one of {SETS}, not {point['set']!r}")
            points.append(point)
    ids = [p["id"] for p in points]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        raise ValueError(f"duplicate point ids: {duplicates}")
    return points


def select(points, which="all", quick=False, ids=None):
    chosen = [p for p in points if which == "all" or p["set"] == which]
    if quick:
        chosen = [p for p in chosen if p.get("quick")]
    if ids:
        unknown = set(ids) - {p["id"] for p in points}
        if unknown:
            raise ValueError(f"unknown point ids: {sorted(unknown)}")
        chosen = [p for p in chosen if p["id"] in ids]
    return chosen


def clock_mhz(platform):
    arch_dir = os.environ.get("ASC2_ARCH_DIR") or os.path.join(ROOT, "resources", "arch")  # as the compiler
    with open(os.path.join(arch_dir, f"{platform}.json")) as f:
        return json.load(f)["clock_mhz"]


def evaluate(point, measurement=None, error=None, clock=None, wall=None):
    """The row of one point: ``measurement`` (a kernels.common.Measurement) when its kernel ran,
    ``error`` (text) when it failed or was not run."""
    row = {key: point.get(key) for key in ("id", "set", "platform", "kernel", "shape", "dtype", "cores",
                                           "tiling", "measured_on", "published", "unit", "source", "where")}
    row.update(predicted=None, ratio=None, within=False, numpy_ok=None, max_err=None, cycles=None,
               error=error, wall_s=wall)
    if measurement is not None:
        row["cycles"] = measurement.cycles
        row["numpy_ok"] = measurement.ok
        row["max_err"] = measurement.max_err
        row["predicted"] = metrics.predicted_in_unit(measurement.cycles, point["unit"], clock)
        row["ratio"] = metrics.ratio(row["predicted"], point["published"])
        row["within"] = metrics.within(row["ratio"])
        row["launch_cycles"] = list(measurement.launches)
        row["predicted_pipes"] = {pipe: round(share, 4) for pipe, share in measurement.pipes.items()}
        if point.get("published_pipes"):
            row["pipes"] = {pipe: {"published": share, "predicted": round(measurement.pipes.get(pipe, 0.0), 4)}
                            for pipe, share in point["published_pipes"].items()}
    return row


def run_point(point, slow=False):
    if point.get("slow") and not slow:
        return evaluate(point, error=f"not run: {SLOW_HINT}")
    import asc2  # the build's package (PYTHONPATH); imported here so --help works without it

    from fidelity.kernels import KERNELS
    start = time.perf_counter()
    # A point timed on code another compiler generated is compiled with that compiler's buffering:
    # "num_stages": 1 for upstream PyAsc2, which multi-buffers a loop only through its own
    # unroll_factor (ours ping-pongs every loop that loads tiles: asctile-multi-buffer).
    saved = os.environ.get(NUM_STAGES_VAR)
    if point.get("num_stages"):
        os.environ[NUM_STAGES_VAR] = str(point["num_stages"])
    else:
        os.environ.pop(NUM_STAGES_VAR, None)
    try:
        asc2.set_platform(asc2.Backend.Model, point["platform"], 0)
        measurement = KERNELS[point["kernel"]](cores=point["cores"], **point["params"])
        return evaluate(point, measurement, clock=clock_mhz(point["platform"]),
                        wall=round(time.perf_counter() - start, 2))
    except Exception as exc:  # one failing point must not stop the others
        text = " ".join(f"{type(exc).__name__}: {exc}".split())
        return evaluate(point, error=text[:300], wall=round(time.perf_counter() - start, 2))
    finally:
        if saved is None:
            os.environ.pop(NUM_STAGES_VAR, None)
        else:
            os.environ[NUM_STAGES_VAR] = saved


MEASURED_ON = ("silicon", "camodel")


def summarize(rows):
    """Metrics per set present in ``rows`` and over all of them; where a set mixes silicon and CAModel
    points, also per kind of measurement ("validation/silicon", ...): a CAModel figure is a proxy for
    silicon, timed on code upstream generated, and the two are read apart."""
    result = {}
    for name in SETS + ("all",):
        chosen = [r for r in rows if name == "all" or r["set"] == name]
        if not chosen:
            continue
        result[name] = _metrics(chosen)
        kinds = [[r for r in chosen if r.get("measured_on") == kind] for kind in MEASURED_ON]
        if all(kinds):
            for kind, part in zip(MEASURED_ON, kinds):
                result[f"{name}/{kind}"] = _metrics(part)
    return result


def _metrics(chosen):
    m = metrics.summary([r["ratio"] for r in chosen])
    m["failed"] = sum(1 for r in chosen if r["error"] and not r["error"].startswith("not run"))
    m["not_run"] = sum(1 for r in chosen if r["error"] and r["error"].startswith("not run"))
    m["numpy_mismatch"] = sum(1 for r in chosen if r["numpy_ok"] is False)
    return m


def _number(value, unit):
    if value is None:
        return "-"
    return f"{value:.1f} us" if unit == "us" else f"{value:.0f} cyc"


def format_row(row):
    if row["ratio"] is None:
        tail = f"{'-':>6s} {'-':>5s} {'-':>5s}  {row['error']}"
    else:
        tail = (f"{row['ratio']:6.2f} {'yes' if row['within'] else 'no':>5s} "
                f"{'OK' if row['numpy_ok'] else 'DIFF':>5s}  {row['wall_s']:.1f} s")
    return (f"{row['id']:24s} {row['set'][:5]:5s} {row['platform']:16s} {row['kernel']:15s} "
            f"{row['shape']:20s} {_number(row['published'], row['unit']):>12s} "
            f"{_number(row['predicted'], row['unit']):>12s} {tail}")


HEADER = (f"{'point':24s} {'set':5s} {'platform':16s} {'kernel':15s} {'shape':20s} {'published':>12s} "
          f"{'predicted':>12s} {'ratio':>6s} {'±20%':>5s} {'numpy':>5s}  wall / error")


def format_summary(summary):
    lines = []
    for name, s in summary.items():
        factor = "-" if s["typical_factor"] is None else f"x{s['typical_factor']:.2f}"
        share = "-" if s["share_within"] is None else f"{s['share_within']:.0%}"
        extra = [f"{s[k]} {label}" for k, label in (("failed", "failed"), ("not_run", "not run"),
                                                   ("numpy_mismatch", "differ from numpy")) if s[k]]
        label = f"  {name.partition('/')[2]}" if "/" in name else name
        lines.append(f"{label:12s} {s['points']:3d} points: typical factor {factor:>6s} (exp mean |ln r| over "
                     f"{s['with_ratio']}), within ±20% {s['within']}/{s['points']} = {share}"
                     + (f"; {', '.join(extra)}" if extra else ""))
    return lines


def format_pipes(rows):
    lines = []
    for row in rows:
        if row.get("pipes"):
            shares = ", ".join(f"{pipe} {v['predicted']:.0%} (published {v['published']:.0%})"
                               for pipe, v in row["pipes"].items())
            lines.append(f"{row['id']:24s} busy share per core: {shares}")
    return lines


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", choices=SETS + ("all",), default="all")
    parser.add_argument("--quick", action="store_true", help="only the points marked quick (CI, < 60 s)")
    parser.add_argument("--slow", action="store_true", help="also run the points marked slow")
    parser.add_argument("--point", action="append", metavar="ID", help="only this point (repeatable)")
    parser.add_argument("--pipes", action="store_true", help="per-pipe busy shares where the source gives them")
    parser.add_argument("--json", metavar="OUT", help="also write the rows and metrics as JSON")
    args = parser.parse_args(argv)

    points = select(load_points(), args.set, args.quick, args.point)
    print(HEADER)
    rows = []
    for point in points:
        rows.append(run_point(point, slow=args.slow))
        print(format_row(rows[-1]), flush=True)
    summary = summarize(rows)
    print()
    for line in format_summary(summary):
        print(line)
    if args.pipes:
        print()
        for line in format_pipes(rows):
            print(line)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"rows": rows, "summary": summary}, f, indent=1)
    broken = [r["id"] for r in rows if r["numpy_ok"] is False
              or (r["error"] and not r["error"].startswith("not run"))]
    if broken:
        print(f"\nkernels failed or differ from numpy: {', '.join(broken)}")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
