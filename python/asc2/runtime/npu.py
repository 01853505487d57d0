"""The NPU backend: a launch becomes the kernel's exported project, built with the CANN toolchain and run
on the device; the arrays it writes are read back into the caller's.

Per specialisation the project lives in ``$ASC2_CACHE_DIR/npu/<key>/`` and its CMake build is kept, so a
second launch only rewrites the inputs and runs again. The toolchain calls are the project's README
commands: ``cmake -S P -B P/build -DASC_DIR=$ASCEND_HOME_PATH/lib64/cmake -DCMAKE_ASC_ARCHITECTURES=dav-…``,
``cmake --build``, then ``P/build/<kernel>_demo --device N --block_dim B --<scalar> v …`` in ``P``
(under ``msprof op --output=P/msprof`` with ``ASC2_MSPROF=1``).

Without an NPU this cannot run; the tests drive it up to the toolchain with a stand-in CANN whose
``asc-config.cmake`` switches the project to its CPU-twin build (docs/user-guide.md, "NPU backend").
"""

import glob
import hashlib
import os
import shutil
import subprocess

from . import cache, project

UNAVAILABLE = "NPU backend unavailable: "


def asc_cmake_dir(home):
    """Where CANN's Ascend C CMake package config is (asc-config.cmake): $ASC_DIR, else the toolkit's."""
    return os.environ.get("ASC_DIR") or os.path.join(home, "lib64", "cmake")


def device_node(device_id):
    """The device file of NPU ``device_id`` (the driver's /dev/davinciN; $ASC2_NPU_DEVICE_NODE overrides
    it where a container maps the device elsewhere, and in tests)."""
    return os.environ.get("ASC2_NPU_DEVICE_NODE", "/dev/davinci{device_id}").format(device_id=device_id)


def check_available(device_id=0):
    """Raise ``RuntimeError("NPU backend unavailable: <what is missing>")``; returns ASCEND_HOME_PATH."""
    home = os.environ.get("ASCEND_HOME_PATH")
    if not home:
        raise RuntimeError(UNAVAILABLE + "no CANN toolkit (ASCEND_HOME_PATH unset): source <cann>/set_env.sh")
    if not os.path.isdir(home):
        raise RuntimeError(UNAVAILABLE + f"ASCEND_HOME_PATH={home} is not a directory")
    config = os.path.join(asc_cmake_dir(home), "asc-config.cmake")
    if not os.path.isfile(config):
        raise RuntimeError(UNAVAILABLE + f"CANN's Ascend C CMake module is missing ({config} does not exist; "
                           "install the asc-devkit package or set ASC_DIR)")
    if not shutil.which("cmake"):
        raise RuntimeError(UNAVAILABLE + "cmake is not on PATH")
    node = device_node(device_id)
    if not os.path.exists(node):
        raise RuntimeError(UNAVAILABLE + f"no NPU device {device_id} ({node} does not exist; is the driver "
                           "installed and the device visible here?)")
    return home


def _msprof_requested():
    return os.environ.get("ASC2_MSPROF", "") not in ("", "0")


def _run(command, cwd, log, what):
    with open(log, "a", encoding="utf-8") as f:
        f.write("$ " + " ".join(command) + "\n")
        f.flush()
        done = subprocess.run(command, cwd=cwd, stdout=f, stderr=subprocess.STDOUT)
    if done.returncode != 0:
        with open(log, encoding="utf-8", errors="replace") as f:
            tail = "".join(f.readlines()[-20:])
        raise RuntimeError(f"NPU backend: {what} failed (exit status {done.returncode}): {' '.join(command)}\n"
                           f"{tail}(full log: {log})")


def project_dir(proj):
    """The cached project of a specialisation: the same kernel source and parameters, the same build."""
    key = hashlib.sha256("\0".join([proj.platform, proj.symbol, proj.ascendc,
                                    *(f"{a.name}:{a.kind}:{a.ctype}" for a in proj.args)]).encode()).hexdigest()
    return os.path.join(cache.cache_dir(), "npu", f"{proj.kernel}-{key[:16]}")


def _msprof_command(home):
    found = shutil.which("msprof") or shutil.which("msprof", path=os.path.join(home, "tools", "profiler", "bin"))
    if not found:
        raise RuntimeError("NPU backend: ASC2_MSPROF=1 but msprof is not on PATH (source <cann>/set_env.sh)")
    return found


def launch(kernel, compiled, spec, block_num, values):
    """Run one launch on the NPU: ``values`` are the launch's arrays (written in place) and scalars.
    Returns the report (``last_report``), its ``launch`` entry naming the project and msprof directory."""
    from .platform import get_platform

    device_id = get_platform().device_id
    home = check_available(device_id)
    proj = project.for_launch(kernel, compiled, spec, block_num, values)
    path = project_dir(proj)
    proj.write(path)
    build = os.path.join(path, "build")
    log = os.path.join(path, "npu.log")
    if os.path.exists(log):
        os.remove(log)
    if not os.path.exists(os.path.join(build, "CMakeCache.txt")):
        _run(["cmake", "-S", path, "-B", build, f"-DASC_DIR={asc_cmake_dir(home)}",
              f"-DCMAKE_ASC_ARCHITECTURES={proj.npu_arch}", "-DCMAKE_BUILD_TYPE=Release"], path, log,
             "configuring the kernel project")
    _run(["cmake", "--build", build, "-j"], path, log, "building the kernel project")
    outputs = os.path.join(path, "output")
    shutil.rmtree(outputs, ignore_errors=True)
    command = [os.path.join(build, proj.executable), *proj.run_arguments(device=device_id)]
    msprof_dir = None
    if _msprof_requested():
        msprof_root = os.path.join(path, "msprof")
        shutil.rmtree(msprof_root, ignore_errors=True)
        command = [_msprof_command(home), "op", f"--output={msprof_root}", *command]
    _run(command, path, log, f"running {proj.symbol} on NPU {device_id}")
    if _msprof_requested():
        # msprof op writes OPPROF_<timestamp>_<id>/ under --output: the newest is this run's.
        runs = sorted(glob.glob(os.path.join(msprof_root, "OPPROF_*")), key=os.path.getmtime)
        msprof_dir = runs[-1] if runs else msprof_root
    import numpy as np

    for a in proj.args:
        if a.kind != "array":
            continue
        out = os.path.join(outputs, a.name + ".bin")
        data = np.fromfile(out, dtype=a.array.dtype) if os.path.exists(out) else None
        if data is None or data.size != a.array.size:
            raise RuntimeError(f"NPU backend: the run wrote no {a.name} of {a.array.size} elements ({out})")
        a.array.reshape(-1)[...] = data
    compiled.native.record_device_launch(block_num, msprof_dir or "")  # the workbench shows it (and its profile)
    report = compiled.report()
    report["launch"] = {"ok": True, "backend": "NPU", "device_id": device_id, "block_num": block_num,
                        "project": path, "log": log, "msprof_dir": msprof_dir}
    return report
