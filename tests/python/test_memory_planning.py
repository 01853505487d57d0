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


@asc2.jit
def _two_tile_add(x_ptr, y_ptr, out_ptr, n: int, TILE: asc2.ConstExpr[int], TPB: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [n])
    y_gm = asc2.global_tensor(y_ptr, [n])
    out_gm = asc2.global_tensor(out_ptr, [n])
    base = asc2.block_idx() * TILE * TPB
    for i in asc2.range(TPB, unroll_factor=2, parallel=True):
        off = base + i * TILE
        asc2.copy_out(asc2.copy_in(x_gm, [off], [TILE]) + asc2.copy_in(y_gm, [off], [TILE]), out_gm, [off])


@requires_native
@pytest.mark.parametrize("platform", ["Ascend910B1", "Ascend950"])
def test_a_loop_unrolled_whole_keeps_its_copies_dma_buffers_apart(platform):
    """Two trips unrolled by 2 leave one trip, which canonicalization folds into straight-line
    code: the copies' loaded and stored tiles must still not share bytes (before the fix the
    second copy's loads reused the first copy's bytes and waited for its store: a serial block,
    the published 32-core add 1.22x slower than the CAModel instead of 0.97x)."""
    asc2.set_platform(asc2.Backend.Model, platform, 0)
    tile, tpb, blocks = 2048, 2, 2
    n = tile * tpb * blocks
    rng = np.random.default_rng(3)
    x = rng.random(n, dtype=np.float32).astype(np.float16)
    y = rng.random(n, dtype=np.float32).astype(np.float16)
    out = np.zeros_like(x)
    _two_tile_add[blocks](x, y, out, n, tile, tpb)
    np.testing.assert_array_equal(out, x + y)
    buffers = [b for b in _two_tile_add.last_report["memory"]["buffers"] if b["space"] == "UB"]
    by_slot = {}
    for b in buffers:
        assert b["slot"] in (0, 1), b
        by_slot.setdefault(b["slot"], []).append((b["offset"], b["offset"] + b["size"]))
    assert len(by_slot) == 2, buffers
    for lo0, hi0 in by_slot[0]:
        for lo1, hi1 in by_slot[1]:
            assert hi0 <= lo1 or hi1 <= lo0, f"copy 0 [{lo0}, {hi0}) shares bytes with copy 1 [{lo1}, {hi1})"


def _single_buffered_add(x_ptr, y_ptr, out_ptr, n: int, TILE: asc2.ConstExpr[int], TPB: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [n])
    y_gm = asc2.global_tensor(y_ptr, [n])
    out_gm = asc2.global_tensor(out_ptr, [n])
    base = asc2.block_idx() * TILE * TPB
    for i in asc2.range(TPB):
        off = base + i * TILE
        asc2.copy_out(asc2.copy_in(x_gm, [off], [TILE]) + asc2.copy_in(y_gm, [off], [TILE]), out_gm, [off])


@requires_native
def test_a_single_buffered_loop_keeps_its_loaded_and_stored_tiles_apart():
    """num_stages=1: one buffer per tile, as Huawei's single-buffered add sample has. The sum must not
    be written in place of x (then the next trip's load of x waits for this trip's store of the sum:
    the sample's one-core stream 1.71x slower than silicon); it still may when UB cannot hold them."""
    asc2.set_platform(asc2.Backend.Model, "Ascend910B1", 0)
    tile, tpb = 4096, 16
    n = tile * tpb
    rng = np.random.default_rng(4)
    x = rng.random(n, dtype=np.float32).astype(np.float16)
    y = rng.random(n, dtype=np.float32).astype(np.float16)
    out = np.zeros_like(x)
    runs = {}
    for name, tile_now in (("fits", tile), ("full", 8 * tile)):  # 3 x 64 KB tiles overflow the 184 KB UB
        kernel = asc2.jit(_single_buffered_add, num_stages=1, always_compile=True)
        kernel[1](x, y, out, n, tile_now, n // tile_now)
        np.testing.assert_array_equal(out, x + y)
        ub = [b for b in kernel.last_report["memory"]["buffers"] if b["space"] == "UB"]
        runs[name] = (kernel.last_report["launch"]["cycles"], sorted((b["offset"], b["size"]) for b in ub))
    _, fits = runs["fits"]
    assert len({offset for offset, _ in fits}) == 3, f"x, y and the sum each in their own bytes: {fits}"
    _, full = runs["full"]
    assert len({offset for offset, _ in full}) == 2, f"too big to keep apart: the sum takes x's bytes: {full}"


@asc2.jit
def _deep_panels(a_ptr, bt_ptr, c_ptr, M: asc2.ConstExpr[int], N: asc2.ConstExpr[int], K: asc2.ConstExpr[int]):
    """A [128, 512] panel of A and two [256, 256] panels of Bᵀ per K step: 384 KB of L1 a trip, which
    ping-ponged needs 768 KB of the 512 KB L1."""
    L = asc2.TensorLocation
    a_gm = asc2.global_tensor(a_ptr, [M, K])
    bt_gm = asc2.global_tensor(bt_ptr, [N, K])
    c_gm = asc2.global_tensor(c_ptr, [M, N])
    acc = asc2.zeros_acc([128, 256])
    for k1 in asc2.range(0, K, 512):
        a_panel = asc2.copy_in(a_gm, [0, k1], [128, 512], location=L.L1)
        for kb in asc2.static_range(2):
            b_panel = asc2.copy_in(bt_gm, [0, k1 + kb * 256], [256, 256], location=L.L1).T
            for kk in asc2.static_range(4):
                a0 = asc2.copy(a_panel, [0, (kb * 4 + kk) * 64], [128, 64], location=L.L0A)
                b0 = asc2.copy(b_panel, [kk * 64, 0], [64, 256], location=L.L0B)
                acc = asc2.matmul_acc(acc, a0, b0)
    asc2.copy_out(acc, c_gm, [0, 0])


@requires_native
def test_copies_that_share_l1_say_so_with_the_l1_numbers():
    """The remark names the space that did not fit and its bytes (it used to say UB for an L1 overflow)."""
    asc2.set_platform(asc2.Backend.Model, "Ascend910B1", 0)
    rng = np.random.default_rng(5)
    a = rng.standard_normal((128, 1024)).astype(np.float16)
    bt = rng.standard_normal((256, 1024)).astype(np.float16)
    c = np.zeros((128, 256), np.float32)
    _deep_panels[1](a, bt, c, 128, 256, 1024)
    np.testing.assert_allclose(c, a.astype(np.float32) @ bt.astype(np.float32).T, rtol=1e-3, atol=1e-2)
    remarks = [d["message"] for d in _deep_panels.last_report["diagnostics"]]
    assert any(m.startswith("the copies of an unrolled loop share their L1 buffers (kept apart they need ")
               and "of the 524160 the L1 has" in m for m in remarks), remarks
