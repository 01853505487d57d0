"""Kernel project export: kernel[block_num].export_project(dir, *args) and $ASC2_EXPORT_PROJECT write a
CANN Ascend C project whose CPU-twin build reproduces the simulator's numbers."""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

import asc2
from conftest import ROOT, requires_native
from kernel_project import HAS_TWIN, NO_TWIN, readme_block, run_readme

pytestmark = requires_native

N, CORES, TILE = 8 * 256 * 2, 8, 256
FILES = ["CMakeLists.txt", "README.md", "ascendc.cpp", "launch.asc", "launch.h", "main.cpp", "kernel.json",
         "scripts/compare.py", "input/x_ptr.bin", "input/y_ptr.bin", "input/out_ptr.bin",
         "golden/x_ptr.bin", "golden/y_ptr.bin", "golden/out_ptr.bin"]


def _vadd_args(n=N):
    rng = np.random.default_rng(1)
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    out = np.zeros(n, np.float32)
    return x, y, out, n, asc2.ceildiv(asc2.ceildiv(n, TILE), CORES)


def _export_vadd(path):
    from vadd import vadd

    x, y, out, n, tiles = _vadd_args()
    vadd[CORES].export_project(str(path), x, y, out, n, tiles, TILE=TILE)
    return x, y, out, tiles


def test_export_writes_the_project(tmp_path):
    path = tmp_path / "vadd"
    x, y, out, tiles = _export_vadd(path)
    for f in FILES:
        assert (path / f).is_file(), f
    assert not out.any(), "export_project simulates on copies: the caller's arrays stay as they were"
    np.testing.assert_array_equal(np.fromfile(path / "input" / "x_ptr.bin", np.float32), x)
    np.testing.assert_array_equal(np.fromfile(path / "input" / "out_ptr.bin", np.float32), 0)
    np.testing.assert_array_equal(np.fromfile(path / "golden" / "out_ptr.bin", np.float32), x + y)

    meta = json.loads((path / "kernel.json").read_text())
    assert meta["schema"] == "asc2.kernel-project/1"
    assert (meta["kernel"], meta["platform"], meta["soc"], meta["npu_arch"], meta["block_dim"]) == \
        ("vadd", "Ascend910B1", "c220", "dav-2201", CORES)
    assert [(p["name"], p["kind"]) for p in meta["params"]] == [
        ("x_ptr", "array"), ("y_ptr", "array"), ("out_ptr", "array"), ("size", "scalar"),
        ("tiles_per_block", "scalar")]
    assert meta["constexprs"] == {"TILE": "256"}

    # The emitted kernel verbatim; runtime values are launch arguments named after the Python parameters.
    from vadd import vadd

    assert (path / "ascendc.cpp").read_text() == vadd.compile(x, y, out, N, tiles, TILE=TILE).ascendc
    launch = (path / "launch.asc").read_text()
    # The C symbol is the report's kernel_symbol (asc2_ + the Python name), not the Python name.
    assert meta["kernel"] == "vadd"
    assert "asc2_vadd<<<blockDim, nullptr, stream>>>(x_ptr, y_ptr, out_ptr, size, tiles_per_block);" in launch
    assert "asc2_twin::Launch(blockDim, asc2_vadd, x_ptr, y_ptr, out_ptr, size, tiles_per_block);" in launch
    main = (path / "main.cpp").read_text()
    for call in ("aclInit(nullptr)", "aclrtSetDevice(device)", "aclrtCreateStream(&stream)", "aclrtMalloc(",
                 "ACL_MEMCPY_HOST_TO_DEVICE", "aclrtSynchronizeStream(stream)", "ACL_MEMCPY_DEVICE_TO_HOST",
                 "aclrtFree(", "aclrtDestroyStream(stream)", "aclrtResetDevice(device)", "aclFinalize()"):
        assert call in main, call
    assert str(N) not in main and str(N) not in launch, "the size is a runtime argument, not baked in"
    cmake = (path / "CMakeLists.txt").read_text()
    assert "find_package(ASC REQUIRED)" in cmake and "LANGUAGES ASC CXX" in cmake
    assert '"dav-2201"' in cmake and "--npu-arch=${CMAKE_ASC_ARCHITECTURES}" in cmake
    assert "option(ASC2_TWIN" in cmake and "ASC2_TWIN_DIR" in cmake
    npu = readme_block(path, "on an NPU")
    assert f"./build/vadd_demo --block_dim {CORES} --size {N} --tiles_per_block {tiles}" in npu
    assert "-DCMAKE_ASC_ARCHITECTURES=dav-2201" in npu and "python3 scripts/compare.py" in npu
    assert "-DASC2_TWIN=ON" in readme_block(path, "against the asc2 CPU twin")
    assert "cce-simd-vf-fusion" not in cmake, "dav-2201's bisheng has no VF fusion to pin"


def test_export_for_ascend950_targets_dav_3510(tmp_path):
    asc2.set_platform(platform="Ascend950")
    _export_vadd(tmp_path / "vadd")
    meta = json.loads((tmp_path / "vadd" / "kernel.json").read_text())
    assert (meta["platform"], meta["soc"], meta["npu_arch"]) == ("Ascend950", "c310", "dav-3510")
    cmake = (tmp_path / "vadd" / "CMakeLists.txt").read_text()
    assert '"dav-3510"' in cmake
    # The simulator timed one VF function per vector call: the build pins bisheng's fusion off unless asked.
    option = next(line for line in cmake.splitlines() if "option(ASC2_VF_FUSION" in line)
    assert option.rstrip().endswith("OFF)")
    branch = cmake[cmake.index("if(ASC2_VF_FUSION)"):]
    assert branch.index("--cce-simd-vf-fusion=true") < branch.index("else()") < branch.index("--cce-simd-vf-fusion=false")
    assert "-DASC2_VF_FUSION=ON" in (tmp_path / "vadd" / "README.md").read_text()


def test_float_scalars_are_passed_exactly(tmp_path):
    @asc2.jit
    def scale(x_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress, alpha: float):
        x_gm = asc2.global_tensor(x_ptr, [64])
        out_gm = asc2.global_tensor(out_ptr, [64])
        asc2.copy_out(asc2.copy_in(x_gm, [0], [64]) * alpha, out_gm, [0])

    x = np.arange(64, dtype=np.float32)
    scale[1].export_project(str(tmp_path / "scale"), x, np.zeros(64, np.float32), 0.1)
    meta = json.loads((tmp_path / "scale" / "kernel.json").read_text())
    assert meta["run"][-2:] == ["--alpha", "0.1"]
    assert meta["params"][2] == {"name": "alpha", "kind": "scalar", "ctype": "float", "value": 0.1}
    assert "float alpha" in (tmp_path / "scale" / "launch.h").read_text()
    np.testing.assert_array_equal(np.fromfile(tmp_path / "scale" / "golden" / "out_ptr.bin", np.float32),
                                  x * np.float32(0.1))


def test_export_rejects_a_bad_block_count(tmp_path):
    from vadd import vadd

    with pytest.raises(ValueError, match="block count"):
        vadd.export_project(str(tmp_path), *_vadd_args()[:5], block_num=0, TILE=TILE)


def test_compare_script_catches_a_wrong_output(tmp_path):
    path = tmp_path / "vadd"
    _export_vadd(path)
    (path / "output").mkdir()
    for name in ("x_ptr", "y_ptr", "out_ptr"):
        (path / "output" / f"{name}.bin").write_bytes((path / "golden" / f"{name}.bin").read_bytes())
    compare = [sys.executable, "scripts/compare.py"]
    ok = subprocess.run(compare, cwd=path, capture_output=True, text=True)
    assert ok.returncode == 0 and "test pass" in ok.stdout, ok.stdout
    wrong = np.fromfile(path / "golden" / "out_ptr.bin", np.float32)
    wrong[100] += 1e-2
    wrong.tofile(path / "output" / "out_ptr.bin")
    bad = subprocess.run(compare, cwd=path, capture_output=True, text=True)
    assert bad.returncode == 1, bad.stdout
    assert "out_ptr: 1 of 4096 elements differ" in bad.stdout and "first at (100,)" in bad.stdout


def _run_sample(script, export_dir, tmp_path, *args):
    env = dict(os.environ, ASC2_EXPORT_PROJECT=str(export_dir), ASC2_CACHE_DIR=str(tmp_path / "cache"))
    return subprocess.run([sys.executable, os.path.join(ROOT, "samples", script), *args], capture_output=True,
                          text=True, timeout=600, env=env, cwd=tmp_path)


def test_export_hook_keeps_the_first_launch_of_each_kernel(tmp_path):
    done = _run_sample("vadd.py", tmp_path / "out", tmp_path, "--n", "2048", "--n", "3000")
    assert done.returncode == 0, done.stderr
    assert "vadd: OK" in done.stdout  # the golden data is the run the sample checked against numpy
    assert f"asc2: exported vadd to {tmp_path / 'out' / 'vadd'}" in done.stderr
    assert "vadd launched again" in done.stderr
    meta = json.loads((tmp_path / "out" / "vadd" / "kernel.json").read_text())
    assert meta["params"][3]["value"] == 2048


@pytest.mark.skipif(not HAS_TWIN, reason=NO_TWIN)
def test_exported_vadd_builds_and_matches_on_the_twin(tmp_path):
    path = tmp_path / "vadd"
    _export_vadd(path)
    clean, done = run_readme(path, "against the asc2 CPU twin", tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "out_ptr: 4096 elements match" in done.stdout and "test pass" in done.stdout
    # The outputs are the twin's, not copies of the golden data.
    assert (clean / "output" / "out_ptr.bin").read_bytes() == (path / "golden" / "out_ptr.bin").read_bytes()
    assert (clean / "input" / "out_ptr.bin").read_bytes() != (path / "golden" / "out_ptr.bin").read_bytes()


@pytest.mark.skipif(not HAS_TWIN, reason=NO_TWIN)
@pytest.mark.parametrize("script,kernel", [
    ("softmax.py", "softmax"),
    ("matmul_leaky_relu.py", "matmul_leaky_relu")])
def test_exported_sample_builds_and_matches_on_the_twin(script, kernel, tmp_path):
    done = _run_sample(script, tmp_path / "out", tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    _, built = run_readme(tmp_path / "out" / kernel, "against the asc2 CPU twin", tmp_path)
    assert built.returncode == 0, built.stdout + built.stderr
    assert "test pass" in built.stdout
