"""UB planning across the samples: peak vs lower bound, and the reuse_alloc levels."""

import os
import sys

import numpy as np
import pytest

import asc2
from conftest import ROOT, requires_native

sys.path.insert(0, os.path.join(ROOT, "samples"))


def _vadd_kernel(**options):
    import vadd
    return asc2.jit(**options)(vadd.vadd.fn)


def _launch(kernel, n=256 * 8 * 6 + 17):
    x = np.random.default_rng(1).standard_normal(n).astype(np.float32)
    y = np.random.default_rng(2).standard_normal(n).astype(np.float32)
    out = np.zeros(n, np.float32)
    tiles = -(-(-(-n // 256)) // 8)
    kernel[8](x, y, out, n, tiles, TILE=256)
    np.testing.assert_array_equal(out, x + y)
    return kernel.last_report


@requires_native
def test_reuse_levels_trade_memory_for_overlap():
    peaks = {}
    cycles = {}
    for level in (0, 1, 2):
        report = _launch(_vadd_kernel(reuse_alloc=level, always_compile=True))
        ub = [s for s in report["memory"]["spaces"] if s["space"] == "UB"][0]
        peaks[level], cycles[level] = ub["peak"], report["launch"]["cycles"]
        assert ub["peak"] <= ub["capacity"]
    assert peaks[0] >= peaks[1] >= peaks[2]
    assert peaks[2] < peaks[1], "level 2 lets the ping/pong copies share bytes"
    assert cycles[1] <= cycles[2], "sharing the copies' bytes serialises them"


@requires_native
@pytest.mark.parametrize("sample,kernel_names", [
    ("vadd", ["vadd"]), ("gelu", ["gelu"]), ("softmax", ["softmax", "softmax_fused"]),
    ("rms_norm", ["rms_norm", "rms_norm_fused"]), ("layer_norm", ["layer_norm", "layer_norm_fused"]),
    ("leaky_relu", ["leaky_relu_kernel"]), ("where", ["select"]),
])
def test_planner_reaches_the_lower_bound(sample, kernel_names, monkeypatch):
    """Every sample's UB peak equals the most bytes live at any program point."""
    module = __import__(sample)
    monkeypatch.setattr(sys, "argv", [sample])
    module.main([])  # runs the sample's own launches (and its numpy checks)
    checked = 0
    for name in kernel_names:
        kernel = getattr(module, name, None)
        if kernel is None or getattr(kernel, "last_report", None) is None:
            continue
        for space in kernel.last_report["memory"]["spaces"]:
            assert space["peak"] == space["lower_bound"], (name, space)
        checked += 1
    assert checked, f"no kernel of {sample} was launched"
