"""erf on Ascend950 is Huawei's one-call Erf; elsewhere the compiler's expansion.

Huawei's advanced-API Erf on __NPU_ARCH__ 3510 is a single vector function (a RegBase loop over the
tile, cannmirror/asc-devkit@e138706:impl/adv_api/detail/math/erf/erf_3510_impl.h); the expansion
(Abramowitz & Stegun 7.1.26, asctile-transform-math-ops) is ~20 basic-API calls, each its own vector
function there. Both must match numpy; the Ascend950 kernel must call Erf once per tile, with the
scratch buffer of the four-argument form, in a handful of calls where the expansion takes ~20.
"""

import math
import re

import numpy as np
import pytest

import asc2
from conftest import requires_native
from kernel_project import HAS_TWIN, NO_TWIN

ERF = np.vectorize(math.erf)
TOL = {"float32": 2e-6, "float16": 2e-3}


@asc2.jit
def erf_tiles(x_ptr, y_ptr, n: int, TILE: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [n])
    y_gm = asc2.global_tensor(y_ptr, [n])
    for i in asc2.range(asc2.block_idx(), asc2.ceildiv(n, TILE), asc2.block_num()):
        x = asc2.copy_in(x_gm, [i * TILE], [TILE])
        asc2.copy_out(asc2.erf(x) * 0.5 + 0.5, y_gm, [i * TILE])


@asc2.jit
def erf_counted(x_ptr, y_ptr, n: int):
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [512]), [0], [512])
    with asc2.mask(count=n, other=-3):
        z = asc2.erf(x)
    asc2.copy_out(z, asc2.global_tensor(y_ptr, [512]), [0])


@asc2.jit
def erf_bits(x_ptr, y_ptr, HI: asc2.ConstExpr, LO: asc2.ConstExpr):
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [512]), [0], [512])
    with asc2.mask(bits=(HI, LO), other=-3):
        z = asc2.erf(x)
    asc2.copy_out(z, asc2.global_tensor(y_ptr, [512]), [0])


def _run_tiles(platform, dtype, backend="Model"):
    asc2.set_platform(backend=backend, platform=platform)
    rng = np.random.default_rng(7)
    n = 4000  # not a multiple of the tile: the last tile is partial
    x = (rng.standard_normal(n) * 2.5).astype(dtype)
    y = np.zeros_like(x)
    erf_tiles[4](x, y, n, 256)
    report = erf_tiles.last_report
    v = next((p["busy_cycles"] for p in report["launches"][-1].get("pipes", []) if p["pipe"] == "V"), 0)
    return x, y, report["ascendc"], v, report["launch"]


@requires_native
@pytest.mark.parametrize("dtype", ["float32", "float16"])
def test_ascend950_calls_the_one_vf_erf_and_matches_numpy(dtype):
    x, y, code, v950, _ = _run_tiles("Ascend950", dtype)
    want = ERF(x.astype(np.float64)) * 0.5 + 0.5
    np.testing.assert_allclose(y.astype(np.float64), want, rtol=TOL[dtype], atol=TOL[dtype])
    # One Erf per tile body (the loop may be unrolled or peeled: as many bodies as stores to y).
    assert code.count("AscendC::Erf(") == code.count("AscendC::DataCopyPad(gm1[") >= 1
    tmp = 768 if dtype == "float32" else 2048  # GetErfMaxMinTmpSize's minimum
    # Every Erf's scratch is a uint8 buffer of that size (the declaration, not any ", N);" in the file).
    scratch = re.findall(r"LocalTensor<uint8_t> erf_tmp\w*\(AscendC::TPosition::VECCALC, \d+, (\d+)\)", code)
    assert len(scratch) == code.count("AscendC::Erf(") and set(scratch) == {str(tmp)}
    # The expansion's exp is gone from the Ascend950 kernel; Atlas A2 keeps it (its Erf is many calls too).
    assert "AscendC::Exp(" not in code
    xa, ya, code_a2, _, _ = _run_tiles("Ascend910B1", dtype)
    np.testing.assert_allclose(ya.astype(np.float64), ERF(xa.astype(np.float64)) * 0.5 + 0.5,
                               rtol=TOL[dtype] * 2, atol=TOL[dtype] * 2)
    assert "AscendC::Erf(" not in code_a2 and "AscendC::Exp(" in code_a2


@requires_native
def test_the_ascend950_kernel_issues_far_fewer_vector_calls():
    # Each basic-API call is its own vector function on Ascend950 (VF fusion off): the one Erf
    # replaces the expansion's ~20 calls, which Atlas A2 keeps (its library Erf is a call sequence too).
    count = lambda c: sum(c.count(f"AscendC::{api}(") for api in  # noqa: E731
                          ("Abs", "Mul", "Muls", "Adds", "Add", "Div", "Exp", "Sub", "Compare", "Select",
                           "Erf"))
    _, _, code, v950, _ = _run_tiles("Ascend950", "float32")
    _, _, code_a2, _, _ = _run_tiles("Ascend910B1", "float32")
    bodies = code.count("AscendC::DataCopyPad(gm1[")
    assert count(code) <= 4 * bodies and count(code) + 10 * bodies <= count(code_a2)
    assert v950 > 0


@requires_native
@pytest.mark.parametrize("count", [0, 100, 512])
def test_erf_under_a_count_mask(count):
    asc2.set_platform(backend="Model", platform="Ascend950")
    x = (np.random.default_rng(1).standard_normal(512) * 2).astype(np.float32)
    y = np.zeros_like(x)
    erf_counted[1](x, y, count)
    want = np.where(np.arange(512) < count, ERF(x.astype(np.float64)), -3.0)
    np.testing.assert_allclose(y, want, rtol=2e-6, atol=2e-6)


@requires_native
def test_erf_under_lane_bits_computes_whole_then_copies_the_lanes():
    asc2.set_platform(backend="Model", platform="Ascend950")
    lo = 0xF0F0_0FF0_8001_7FFE
    x = (np.random.default_rng(2).standard_normal(512) * 2).astype(np.float32)
    y = np.zeros_like(x)
    erf_bits[1](x, y, 0, lo)
    picked = np.array([(lo >> int(i % 64)) & 1 for i in range(512)], bool)
    want = np.where(picked, ERF(x.astype(np.float64)), -3.0)
    np.testing.assert_allclose(y, want, rtol=2e-6, atol=2e-6)
    code = erf_bits.last_report["ascendc"]
    assert code.count("AscendC::Erf(") == 1 and "SetVectorMask" in code


@requires_native
@pytest.mark.skipif(not HAS_TWIN, reason=NO_TWIN)
@pytest.mark.parametrize("dtype", ["float32", "float16"])
def test_emitted_erf_runs_on_the_twin_as_simulated(dtype, twin_cache, monkeypatch):
    monkeypatch.setenv("ASC2_TWIN_COMPARE", "1")
    x, y, code, _, launch = _run_tiles("Ascend950", dtype, backend="Twin")
    assert launch.get("backend") == "Twin" and launch.get("compared_with_model")
    np.testing.assert_allclose(y.astype(np.float64), ERF(x.astype(np.float64)) * 0.5 + 0.5,
                               rtol=TOL[dtype], atol=TOL[dtype])
