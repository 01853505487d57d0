"""Buffer-id sync (Ascend950: ascendc-insert-buf-id-sync + ascendc-fuse-buf-id-sync, get_buf/rls_buf).

Every sample script runs on Ascend950, where buffer ids are the default sync style, in both allocation
modes with ascendc-verify-sync on: each checks itself against numpy, and a data race in the simulator
fails the launch.  The report records the style, each get/rls with its reason and the sync op counts
before and after fusion; ``sync_style="flag"`` forces set_flag/wait_flag on the same target.  The
random-kernel generator's seeds run on Ascend950 too.  Mutation testing of the get_bufs lives in
test_sync_mutation.py.
"""

import os
import subprocess
import sys

import numpy as np
import pytest

import asc2
import kernelgen
from conftest import ROOT, in_child_process, requires_native
from test_random_kernels import SEEDS
from test_samples import SAMPLES


@requires_native
@pytest.mark.parametrize("static_alloc", [True, False], ids=["static", "tpipe"])
@pytest.mark.parametrize("script", sorted(SAMPLES))
def test_sample_on_ascend950_with_buffer_ids(script, static_alloc, tmp_path):
    env = dict(os.environ, ASC2_CACHE_DIR=str(tmp_path / "cache"), ASC2_PLATFORM="Ascend950",
               ASC2_BACKEND="Model", ASC2_JIT_STATIC_ALLOC=str(int(static_alloc)), ASC2_JIT_VERIFY_SYNC="1",
               ASC2_DUMP_PATH=str(tmp_path / "dump"))
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "samples", script)], capture_output=True, text=True,
                          timeout=900, env=env, cwd=tmp_path)
    assert proc.returncode == 0, f"{script} failed:\n{proc.stdout}\n{proc.stderr[-3000:]}"
    for name in SAMPLES[script]:
        assert f"{name}: OK" in proc.stdout, proc.stdout
    # Every kernel it compiled used buffer ids.
    import json
    reports = [os.path.join(d, "report.json") for d, _, files in os.walk(tmp_path / "dump") if "report.json" in files]
    assert reports
    for path in reports:
        with open(path) as f:
            report = json.load(f)
        assert report["options"]["sync_style"] == "buffer-id", path
        assert report["options"]["allocation"] == ("static" if static_alloc else "tpipe"), path
        assert not any(s["kind"] == "wait_flag" and not s["reason"].startswith(("RAW on", "WAR on", "WAW on"))
                       for s in report["sync"])


def _vadd(sync_style=None):
    options = {} if sync_style is None else {"sync_style": sync_style}

    @asc2.jit(**options)
    def vadd(x_ptr: asc2.GlobalAddress, y_ptr: asc2.GlobalAddress, z_ptr: asc2.GlobalAddress, n: int,
             TILE: asc2.ConstExpr[int]):
        x_gm = asc2.global_tensor(x_ptr, [n])
        y_gm = asc2.global_tensor(y_ptr, [n])
        z_gm = asc2.global_tensor(z_ptr, [n])
        for i in asc2.range(asc2.block_idx() * TILE, n, asc2.block_num() * TILE):
            x = asc2.copy_in(x_gm, [i], [TILE])
            y = asc2.copy_in(y_gm, [i], [TILE])
            asc2.copy_out(x * 2.0 + y, z_gm, [i])

    return vadd


def _run_vadd(platform, sync_style=None):
    asc2.set_platform(backend="Model", platform=platform)
    n = 256 * 12
    x = np.random.default_rng(0).standard_normal(n).astype(np.float32)
    y = np.random.default_rng(1).standard_normal(n).astype(np.float32)
    z = np.zeros(n, np.float32)
    kernel = _vadd(sync_style)
    kernel[3](x, y, z, n, TILE=256)
    report = kernel.last_report
    np.testing.assert_array_equal(z, x * np.float32(2.0) + y)
    launch = report["launches"][-1]
    return {"options": report["options"], "sync": report["sync"], "counts": report["sync_counts"],
            "ascendc": report["ascendc"], "cycles": launch["cycles"], "races": launch["races"]}


@requires_native
def test_report_records_each_get_and_release_with_its_reason():
    r = in_child_process(_run_vadd, "Ascend950")
    assert r["options"]["sync_style"] == "buffer-id"
    assert r["races"] == 0
    kinds = {s["kind"] for s in r["sync"]}
    assert {"get_buf", "rls_buf"} <= kinds
    assert "wait_flag" not in kinds  # every hazard of vadd is on a local buffer
    for s in r["sync"]:
        if s["kind"] in ("get_buf", "rls_buf"):
            assert s["role"] == "buf_id"
            assert s["src_pipe"] == s["dst_pipe"] and s["src_pipe"] in ("MTE2", "V", "MTE3")
            assert 0 <= s["event_id"] < 28
            assert s["reason"].startswith(f"id {s['event_id']} on ") and " shares it with " in s["reason"]
    gets = [s for s in r["sync"] if s["kind"] == "get_buf"]
    assert r["counts"]["get_buf"] == len(gets) == r["counts"]["rls_buf"]
    # Fusion merged the V ops of the expression (x * 2 then + y on one buffer).
    assert r["counts"]["get_buf_before_fuse"] > r["counts"]["get_buf"]
    assert "AscendC::Mutex::Lock<PIPE_MTE2>(" in r["ascendc"]
    assert "AscendC::Mutex::Unlock<PIPE_V>(" in r["ascendc"]
    assert "SetFlag" not in r["ascendc"]


@requires_native
def test_flags_can_be_forced_on_ascend950():
    ids = in_child_process(_run_vadd, "Ascend950")
    flags = in_child_process(_run_vadd, "Ascend950", "flag")
    assert flags["options"]["sync_style"] == "flag"
    assert flags["races"] == 0
    kinds = {s["kind"] for s in flags["sync"]}
    assert "get_buf" not in kinds and {"set_flag", "wait_flag"} <= kinds
    assert "Mutex" not in flags["ascendc"]
    assert ids["cycles"] > 0 and flags["cycles"] > 0


@requires_native
def test_flag_targets_keep_flags_and_reject_buffer_ids():
    r = in_child_process(_run_vadd, "Ascend910B1")
    assert r["options"]["sync_style"] == "flag"
    assert not any(s["kind"] == "get_buf" for s in r["sync"])

    def forced():
        try:
            _run_vadd("Ascend910B1", "buffer-id")
        except asc2.CompilationError as e:
            return str(e)
        return ""

    message = in_child_process(forced)
    assert 'sync_style="buffer-id" needs buffer ids (Mutex), which Ascend910B1 does not have' in message


def test_sync_style_option_is_validated():
    with pytest.raises(ValueError, match="sync_style must be 'flag', 'buffer-id' or None"):
        asc2.jit(sync_style="mutex")(lambda: None)


def _random_on_ascend950(seed):
    asc2.set_platform(backend="Model", platform="Ascend950")
    k = kernelgen.generate(seed)
    k.config = dict(k.config)
    return kernelgen.check(k)


@requires_native
@pytest.mark.parametrize("seed", SEEDS)
def test_random_kernel_on_ascend950(seed):
    result = in_child_process(_random_on_ascend950, seed)
    k = kernelgen.generate(seed)
    assert result["status"] == "ok", (f"{k.describe()}\n{result['status']}: {result['detail']}\n"
                                      f"--- kernel source ---\n{k.source}")
