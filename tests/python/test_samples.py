"""Every sample script runs under build/bin/asc2-python, checks itself against numpy and prints OK."""

import os
import subprocess

import pytest

from conftest import ROOT, requires_native

SAMPLES = {  # script -> the result lines it prints ("<name>: OK ...")
    "vadd.py": ["vadd"],
    "softmax.py": ["softmax", "softmax_fused"],
    "gelu.py": ["gelu"],
    "rms_norm.py": ["rms_norm", "rms_norm_fused"],
    "layer_norm.py": ["layer_norm", "layer_norm_fused"],
    "leaky_relu.py": ["leaky_relu"],
    "reduce_sum.py": ["reduce_sum"],
    "where.py": ["where"],
    "cast.py": ["cast"],
    "matmul.py": ["matmul"],
    "matmul_mnblock.py": ["matmul_mnblock"],
    "matmul_ktiled.py": ["matmul_ktiled"],
    "matmul_leaky_relu.py": ["matmul_leaky_relu"],
    "flash_attention.py": ["flash_attention"],
}
PYTHON = os.path.join(ROOT, "build", "bin", "asc2-python")


def test_every_sample_is_listed():
    scripts = {f for f in os.listdir(os.path.join(ROOT, "samples")) if f.endswith(".py")}
    assert scripts == set(SAMPLES)


@requires_native
@pytest.mark.skipif(not os.path.exists(PYTHON), reason="build/bin/asc2-python is not built")
@pytest.mark.parametrize("script", sorted(SAMPLES))
def test_sample_runs(script, tmp_path):
    env = dict(os.environ, ASC2_CACHE_DIR=str(tmp_path / "cache"))
    proc = subprocess.run([PYTHON, os.path.join(ROOT, "samples", script)], capture_output=True, text=True,
                          timeout=600, env=env, cwd=tmp_path)
    assert proc.returncode == 0, f"{script} failed:\n{proc.stdout}\n{proc.stderr[-3000:]}"
    for name in SAMPLES[script]:
        assert f"{name}: OK" in proc.stdout, proc.stdout
    assert "MISMATCH" not in proc.stdout


WORKBENCH = os.path.join(ROOT, "build", "bin", "asc2-workbench")


@requires_native
@pytest.mark.skipif(not os.path.exists(WORKBENCH), reason="build/bin/asc2-workbench is not built")
@pytest.mark.parametrize("script", sorted(SAMPLES))
def test_sample_runs_headless(script, tmp_path):
    """The same scripts in the workbench's embedded interpreter, with a report."""
    import json

    env = dict(os.environ, ASC2_CACHE_DIR=str(tmp_path / "cache"), QT_QPA_PLATFORM="offscreen")
    out = tmp_path / "report"
    proc = subprocess.run([WORKBENCH, "--headless", os.path.join(ROOT, "samples", script), "--report", str(out)],
                          capture_output=True, text=True, timeout=600, env=env, cwd=tmp_path)
    assert proc.returncode == 0, f"{script} failed:\n{proc.stdout}\n{proc.stderr[-3000:]}"
    for name in SAMPLES[script]:
        assert f"{name}: OK" in proc.stdout, proc.stdout
    report = json.loads((out / "report.json").read_text())
    assert report["schema"] == "asc2.report/1" and report["ok"]
    assert report["kernels"], "no kernel reports"
    for kernel in report["kernels"]:
        assert len(kernel["passes"]) >= 5
        assert all(launch["ok"] and launch["races"] == 0 for launch in kernel["launches"])
    json.loads((out / "trace.json").read_text())


@requires_native
@pytest.mark.skipif(not os.path.exists(PYTHON), reason="build/bin/asc2-python is not built")
@pytest.mark.parametrize("script", sorted(SAMPLES))
def test_sample_flags_verify(script, tmp_path):
    """Every sample compiles with verify_sync (ascendc-verify-sync after insertion)."""
    env = dict(os.environ, ASC2_CACHE_DIR=str(tmp_path / "cache"), ASC2_JIT_VERIFY_SYNC="1")
    proc = subprocess.run([PYTHON, os.path.join(ROOT, "samples", script)], capture_output=True, text=True,
                          timeout=600, env=env, cwd=tmp_path)
    assert proc.returncode == 0, f"{script} failed:\n{proc.stdout}\n{proc.stderr[-3000:]}"
    assert "MISMATCH" not in proc.stdout


@requires_native
@pytest.mark.skipif(not os.path.exists(PYTHON), reason="build/bin/asc2-python is not built")
@pytest.mark.parametrize("platform", ["Ascend910B1", "Ascend950"])
@pytest.mark.parametrize("static_alloc", ["0", "1"])
def test_samples_on_both_targets_and_allocation_modes(platform, static_alloc, tmp_path):
    """Every sample, race-free and correct, on A2 and A5, with static and TPipe-managed buffers."""
    env = dict(os.environ, ASC2_CACHE_DIR=str(tmp_path / "cache"), ASC2_PLATFORM=platform,
               ASC2_JIT_STATIC_ALLOC=static_alloc)
    for script in sorted(SAMPLES):
        proc = subprocess.run([PYTHON, os.path.join(ROOT, "samples", script)], capture_output=True,
                              text=True, timeout=600, env=env, cwd=tmp_path)
        assert proc.returncode == 0, f"{script} on {platform} static_alloc={static_alloc}:\n{proc.stderr[-2000:]}"
        assert "MISMATCH" not in proc.stdout
