#!/usr/bin/env python3
"""Compare an exported asc2 kernel project's outputs with its golden data.

    python3 scripts/compare.py [OUTPUT_DIR] [GOLDEN_DIR]     (defaults: output golden)

Run from the project directory after the host program. Every array of the launch is compared
(the kernel may write any of them): floats within |out - golden| <= atol + rtol * |golden| (per
dtype, from kernel.json; NaNs must match NaNs), integers and masks exactly. Prints "test pass"
and exits 0, or lists the mismatches and exits 1.
"""

import json
import os
import sys

import numpy as np


def load(path, storage, shape):
    data = np.fromfile(path, dtype=np.dtype(storage))
    count = int(np.prod(shape)) if shape else 1
    if data.size != count:
        raise ValueError(f"{path}: {data.size} elements, expected {count} (shape {tuple(shape)})")
    return data.reshape(shape)


def as_float(array, dtype):
    if dtype == "bfloat16":  # numpy has no bfloat16: the file holds its bits
        return (array.astype(np.uint16).astype(np.uint32) << 16).view(np.float32)
    return array.astype(np.float64)


def compare(param, output_dir, golden_dir, tolerances):
    name, dtype = param["name"], param["dtype"]
    out = load(os.path.join(output_dir, name + ".bin"), param["storage"], param["shape"])
    golden = load(os.path.join(golden_dir, name + ".bin"), param["storage"], param["shape"])
    if dtype not in tolerances:
        bad = out != golden
        worst = ""
    else:
        rtol, atol = tolerances[dtype]["rtol"], tolerances[dtype]["atol"]
        o, g = as_float(out, dtype), as_float(golden, dtype)
        nan = np.isnan(o) | np.isnan(g)
        with np.errstate(invalid="ignore"):
            close = np.abs(o - g) <= atol + rtol * np.abs(g)
            close |= o == g  # equal infinities
        bad = np.where(nan, np.isnan(o) != np.isnan(g), ~close)
        diff = np.where(nan | np.isinf(g), 0.0, np.abs(o - g))
        worst = f", max abs diff {float(diff.max()) if diff.size else 0.0:.3g} (rtol {rtol}, atol {atol})"
    count = int(np.count_nonzero(bad))
    if count:
        first = np.argwhere(bad)[0]
        index = tuple(int(i) for i in first)
        print(f"{name}: {count} of {bad.size} elements differ{worst}; first at {index}: "
              f"output {out[index]!r}, golden {golden[index]!r}")
        return False
    print(f"{name}: {bad.size} elements match ({dtype}{worst})")
    return True


def main(argv):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    output_dir = argv[1] if len(argv) > 1 else "output"
    golden_dir = argv[2] if len(argv) > 2 else "golden"
    with open(os.path.join(root, "kernel.json"), encoding="utf-8") as f:
        project = json.load(f)
    if not os.path.isdir(golden_dir):
        print(f"no golden data in {golden_dir}/ (this export was not simulated)")
        return 1
    ok = True
    for param in project["params"]:
        if param["kind"] == "array":
            try:
                ok &= compare(param, output_dir, golden_dir, project["tolerances"])
            except (OSError, ValueError) as e:
                print(f"{param['name']}: {e}")
                ok = False
    print("test pass" if ok else "test FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
