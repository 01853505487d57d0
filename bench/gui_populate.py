#!/usr/bin/env python3
"""Time until every workbench view is populated after opening and running a sample.

Runs `asc2-workbench --screenshot` offscreen (a fresh process each time: the
interpreter starts, the sample runs, the views fill) with ASC2_WORKBENCH_TIMINGS
set, and prints, per view, when it first had content (ms after Run). The
first repetition compiles (empty kernel cache); later ones hit the cache.

    python3 bench/gui_populate.py [--workbench build/bin/asc2-workbench] [--repeat 5] [SAMPLE]
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VIEWS = ("console", "passes", "ascendc", "finished", "shown")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workbench", default=str(ROOT / "build" / "bin" / "asc2-workbench"))
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("sample", nargs="?")
    args = parser.parse_args()
    sample = Path(args.sample) if args.sample else ROOT / "samples" / "softmax.py"
    if not sample.exists():
        sample = ROOT / "samples" / "vadd.py"

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, QT_QPA_PLATFORM="offscreen", ASC2_WORKBENCH_TIMINGS="1",
                   ASC2_CACHE_DIR=str(Path(tmp) / "cache"))
        for i in range(args.repeat):
            start = time.perf_counter()
            result = subprocess.run([args.workbench, "--screenshot", str(Path(tmp) / "shot.png"), "--view", "passes",
                                     str(sample)], env=env, capture_output=True, text=True, timeout=600)
            process_ms = (time.perf_counter() - start) * 1000
            match = re.search(r"timings-ms (.*)", result.stderr)
            if result.returncode != 0 or not match:
                print(f"run {i + 1} failed (exit {result.returncode}):\n{result.stderr}", file=sys.stderr)
                return 1
            timings = {k: float(v) for k, v in (kv.split("=") for kv in match.group(1).split())}
            timings["process"] = process_ms
            rows.append(timings)

    columns = VIEWS + ("process",)
    print(f"sample: {sample.relative_to(ROOT) if sample.is_relative_to(ROOT) else sample}")
    print("ms after Run until the view had content (process: whole process incl. start-up and exit)")
    print("run    " + "".join(f"{c:>10}" for c in columns))
    for i, row in enumerate(rows):
        label = "cold" if i == 0 else f"{i + 1}"
        print(f"{label:<7}" + "".join(f"{row.get(c, float('nan')):>10.1f}" for c in columns))
    if len(rows) > 1:
        warm = rows[1:]
        print("median " + "".join(f"{statistics.median(r.get(c, float('nan')) for r in warm):>10.1f}" for c in columns)
              + "   (warm runs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
