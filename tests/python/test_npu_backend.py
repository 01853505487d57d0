"""backend="NPU": the precise "NPU backend unavailable" messages, and the orchestration (export, CANN
CMake configure and build, run, outputs back into the caller's arrays, msprof) driven through a
stand-in toolkit whose CMake package builds the CPU twin instead (fake_cann/README.md)."""

import os

import numpy as np
import pytest

import asc2
from asc2.runtime import platform
from conftest import requires_native
from kernel_project import HAS_TWIN, NO_TWIN, python_first

FAKE_CANN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fake_cann")


@pytest.fixture
def toolkit(tmp_path, monkeypatch):
    """The stand-in CANN with a device node that exists."""
    node = tmp_path / "davinci0"
    node.write_text("")
    monkeypatch.setenv("ASCEND_HOME_PATH", FAKE_CANN)
    monkeypatch.setenv("ASC2_NPU_DEVICE_NODE", str(node))
    monkeypatch.delenv("ASC_DIR", raising=False)
    monkeypatch.delenv("ASC2_MSPROF", raising=False)
    return FAKE_CANN


def _unavailable(match):
    with pytest.raises(RuntimeError, match="^NPU backend unavailable: " + match):
        asc2.set_platform(backend="NPU")


def test_unavailable_without_ascend_home_path(monkeypatch):
    monkeypatch.delenv("ASCEND_HOME_PATH", raising=False)
    _unavailable(r"no CANN toolkit \(ASCEND_HOME_PATH unset")


def test_unavailable_when_ascend_home_path_is_missing(tmp_path, monkeypatch):
    monkeypatch.setenv("ASCEND_HOME_PATH", str(tmp_path / "nowhere"))
    _unavailable(f"ASCEND_HOME_PATH={tmp_path / 'nowhere'} is not a directory")


def test_unavailable_without_the_cmake_module(tmp_path, monkeypatch):
    monkeypatch.setenv("ASCEND_HOME_PATH", str(tmp_path))
    monkeypatch.delenv("ASC_DIR", raising=False)
    _unavailable(r"CANN's Ascend C CMake module is missing \(" + str(tmp_path / "lib64" / "cmake" / "asc-config.cmake"))


def test_unavailable_without_a_device(toolkit, tmp_path, monkeypatch):
    monkeypatch.setenv("ASC2_NPU_DEVICE_NODE", str(tmp_path / "davinci{device_id}"))
    with pytest.raises(RuntimeError, match=r"^NPU backend unavailable: no NPU device 3 \(.*davinci3 does not exist"):
        asc2.set_platform(backend="NPU", device_id=3)


def test_available_with_toolkit_and_device(toolkit):
    assert asc2.set_platform(backend="NPU").backend == "NPU"


def _vadd_launch(n, seed):
    from vadd import vadd

    rng = np.random.default_rng(seed)
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    out = np.zeros(n, np.float32)
    vadd[4](x, y, out, n, asc2.ceildiv(asc2.ceildiv(n, 256), 4), TILE=256)
    return vadd, x + y, out


@requires_native
@pytest.mark.skipif(not HAS_TWIN, reason=NO_TWIN)
def test_npu_launch_builds_runs_and_reads_back(toolkit, tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", python_first(tmp_path)["PATH"])
    asc2.set_platform(backend="NPU")
    vadd, expected, out = _vadd_launch(2048, seed=2)
    np.testing.assert_array_equal(out, expected)
    launch = vadd.last_report["launch"]
    assert (launch["backend"], launch["block_num"], launch["ok"], launch["msprof_dir"]) == ("NPU", 4, True, None)
    log = open(launch["log"]).read()
    assert f"-DASC_DIR={FAKE_CANN}/lib64/cmake" in log and "-DCMAKE_ASC_ARCHITECTURES=dav-2201" in log
    assert "vadd_demo --device 0 --block_dim 4 --size 2048 --tiles_per_block 2" in log

    # The same specialisation with other data and sizes: the cached build is reused, not reconfigured.
    vadd, expected, out = _vadd_launch(3000, seed=3)
    np.testing.assert_array_equal(out, expected)
    assert vadd.last_report["launch"]["project"] == launch["project"]
    log = open(vadd.last_report["launch"]["log"]).read()
    assert "cmake -S" not in log and "--size 3000 --tiles_per_block 3" in log

    # Under msprof op: its newest OPPROF_* directory is the launch's profile, recorded for the workbench.
    monkeypatch.setenv("ASC2_MSPROF", "1")
    vadd, expected, out = _vadd_launch(1024, seed=4)
    np.testing.assert_array_equal(out, expected)
    msprof_dir = vadd.last_report["launch"]["msprof_dir"]
    assert os.path.basename(msprof_dir).startswith("OPPROF_")
    assert os.path.isfile(os.path.join(msprof_dir, "PipeUtilization.csv"))
    assert "tools/profiler/bin/msprof op --output=" in open(vadd.last_report["launch"]["log"]).read()
    recorded = vadd.last_report["launches"][-1]
    assert (recorded["backend"], recorded["profile_dir"], recorded["block_num"]) == ("NPU", msprof_dir, 4)


@requires_native
def test_npu_build_failure_names_the_step(toolkit, tmp_path, monkeypatch):
    monkeypatch.setenv("ASC2_TWIN_INCLUDE", str(tmp_path / "no-twin"))  # the project's CMake refuses it
    asc2.set_platform(backend="NPU")
    with pytest.raises(RuntimeError, match=r"NPU backend: configuring the kernel project failed .*cmake -S"):
        _vadd_launch(256, seed=5)


def test_environment_backend_fails_at_launch_with_the_reason(monkeypatch, tmp_path):
    monkeypatch.setenv("ASC2_BACKEND", "NPU")
    monkeypatch.setenv("ASCEND_HOME_PATH", str(tmp_path))
    platform.reset_platform()

    @asc2.jit
    def k(x_ptr):
        pass

    with pytest.raises(RuntimeError, match="NPU backend unavailable: CANN's Ascend C CMake module is missing"):
        k[1](np.zeros(8, np.float32))
