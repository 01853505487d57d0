"""The .deb `make package` builds, unpacked into a temporary root with `dpkg -x`: it holds the app,
asc2-python, the asc2 package, arch models and samples, names no build or source path, and runs a
sample headless from the root with a clean environment, with the source and build trees hidden
(a private mount namespace) wherever the machine allows one."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

SOURCE_DIR = Path(os.environ.get("ASC2_SOURCE_DIR", Path(__file__).resolve().parents[2])).resolve()
BUILD_DIR = Path(os.environ["ASC2_BUILD_DIR"]).resolve() if os.environ.get("ASC2_BUILD_DIR") else None
VERSION = os.environ.get("ASC2_VERSION")
# Debian's tools (cpack, dpkg, readelf, unshare) run without the sanitizer runtimes `make test-asan`
# preloads into the suite's processes; the package's own binaries keep them (there they are the
# instrumented build, whose Python extension needs ASan loaded first).
TOOL_ENV = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
SANITIZER_ENV = {k: v for k, v in os.environ.items() if k in ("LD_PRELOAD", "ASAN_OPTIONS", "UBSAN_OPTIONS")}
PYTHON_MM = f"{sys.version_info.major}.{sys.version_info.minor}"

pytestmark = pytest.mark.skipif(BUILD_DIR is None, reason="ASC2_BUILD_DIR is not set (run through ctest)")

# Where the probe script finds what it imports and what the compiler loaded.
PROBE = """
import json, os
import asc2
from asc2 import _C
maps = open("/proc/self/maps").read().split()
print("PROBE " + json.dumps({
    "asc2": asc2.__file__,
    "_C": _C.__file__,
    "libraries": sorted({p for p in maps if p.startswith("/") and ("libasc2" in p or "libMLIR" in p)}),
    "arch_dir": os.environ.get("ASC2_ARCH_DIR"),
    "platforms": list(_C.platforms()),
}))
"""


def hidden_trees():
    """The source and build trees, outermost first, without one inside the other."""
    trees = sorted({SOURCE_DIR, BUILD_DIR}, key=lambda p: len(p.parts))
    return [t for i, t in enumerate(trees) if not any(o in t.parents for o in trees[:i])]


# sh -c HIDE sh DIR... -- COMMAND...: an empty tmpfs over each DIR, then COMMAND.
HIDE = 'while [ "$1" != -- ]; do mount -t tmpfs asc2-hidden "$1" || exit 97; shift; done; shift; exec "$@"'


def namespace_prefix():
    """A command prefix that runs its command with the trees hidden, or None where no mount
    namespace is allowed."""
    trees = [str(t) for t in hidden_trees()]
    for unshare in (["unshare", "--user", "--map-root-user", "--mount"], ["unshare", "--mount"]):
        prefix = [*unshare, "sh", "-c", HIDE, "sh", *trees, "--"]
        probe = subprocess.run([*prefix, "find", *trees, "-mindepth", "1", "-maxdepth", "1"],
                               capture_output=True, text=True, env=TOOL_ENV)
        if probe.returncode == 0 and not probe.stdout:
            return prefix
    return None


@pytest.fixture(scope="module")
def package(tmp_path_factory):
    """(the .deb, the root it was unpacked into)."""
    work = tmp_path_factory.mktemp("deb")
    assert not any(t == work or t in work.parents for t in hidden_trees()), "the temporary root is in a hidden tree"
    build = subprocess.run(["cpack", "-G", "DEB", "--config", str(BUILD_DIR / "CPackConfig.cmake"),
                            "-B", str(work / "cpack")], capture_output=True, text=True, timeout=600, env=TOOL_ENV)
    assert build.returncode == 0, build.stdout + build.stderr
    debs = list((work / "cpack").glob("*.deb"))
    assert len(debs) == 1, build.stdout
    root = work / "root"
    subprocess.run(["dpkg", "-x", str(debs[0]), str(root)], check=True, env=TOOL_ENV)
    return debs[0], root


@pytest.fixture(scope="module")
def sandbox(package, tmp_path_factory):
    """Runs a command of the unpacked package as a user would: a clean environment (no PYTHONPATH,
    no ASC2_*), a fresh HOME, no display, and the trees hidden when a namespace is allowed."""
    _, root = package
    home = tmp_path_factory.mktemp("home")
    env = {"PATH": "/usr/bin:/bin", "HOME": str(home), "LANG": "C.UTF-8", "QT_QPA_PLATFORM": "offscreen",
           "TMPDIR": str(home), **SANITIZER_ENV}
    prefix = namespace_prefix() or []
    if not prefix:
        print("packaging: no mount namespace here; the source and build trees stay visible")

    def run(program, *args, timeout=300):
        command = [*prefix, str(root / "usr" / "bin" / program), *map(str, args)]
        return subprocess.run(command, capture_output=True, text=True, env=env, cwd=home, timeout=timeout)

    run.root = root
    run.home = home
    run.hides_trees = bool(prefix)
    return run


def control(deb, field):
    return subprocess.run(["dpkg-deb", "-f", str(deb), field], capture_output=True, text=True,
                          check=True, env=TOOL_ENV).stdout.strip()


def test_control_names_the_package_and_its_dependencies(package):
    deb, _ = package
    assert control(deb, "Package") == "asc2-workbench"
    assert VERSION and control(deb, "Version") == VERSION
    depends = [d.strip().split()[0] for d in control(deb, "Depends").split(",")]
    for needed in ("python3", "python3-numpy", "libmlir-19", f"libpython{PYTHON_MM}",
                   "libqt6widgets6"):
        assert needed in depends, f"{needed} missing from Depends: {control(deb, 'Depends')}"
    assert "python3 (<< " in control(deb, "Depends")


def test_the_tree_holds_app_python_package_arch_models_and_samples(package):
    _, root = package
    usr = root / "usr"
    for path in ("bin/asc2-workbench", "bin/asc2-python", "lib/asc2/bin/asc2-workbench",
                 "lib/asc2/lib/libasc2compiler.so", "lib/asc2/python/asc2/__init__.py",
                 "lib/asc2/python/asc/__init__.py", "share/asc2/arch/Ascend910B1.json",
                 "share/asc2/samples/vadd.py", "share/asc2/samples/baselines/vadd.mlir",
                 "share/asc2/twin/include/kernel_operator.h",
                 "share/applications/org.asc2.Workbench.desktop", "share/metainfo/org.asc2.Workbench.metainfo.xml",
                 "share/icons/hicolor/scalable/apps/org.asc2.Workbench.svg"):
        assert (usr / path).is_file(), f"/usr/{path} is not in the package"
    assert list((usr / "lib/asc2/python/asc2").glob("_C.cpython-*.so")), "the asc2._C extension is not in the package"
    assert not list(usr.rglob("__pycache__")) and not (usr / "lib/asc2/python/asc2/twin_paths.json").exists()


def test_nothing_names_the_build_or_source_tree(package):
    _, root = package
    trees = [str(t).encode() for t in (SOURCE_DIR, BUILD_DIR)]
    for path in root.rglob("*"):
        if not path.is_file():
            continue
        data = path.read_bytes()
        if data.startswith(b"\x7fELF"):
            # The binaries keep their build-time fallbacks as strings, never reached from here (the
            # run below hides the trees); what the loader follows must not lead back.
            dynamic = subprocess.run(["readelf", "-d", str(path)], capture_output=True, text=True,
                                     env=TOOL_ENV).stdout
            runpath = [line for line in dynamic.splitlines() if "RUNPATH" in line or "RPATH" in line]
            assert not any(str(t) in line for line in runpath for t in (SOURCE_DIR, BUILD_DIR)), (path, runpath)
        else:
            assert not any(t in data for t in trees), f"{path} names the build or source tree"


def test_the_launchers_find_everything_in_the_root(sandbox):
    root = str(sandbox.root.resolve())
    probe = sandbox.home / "probe.py"
    probe.write_text(PROBE)
    for program, args in (("asc2-python", [probe]), ("asc2-workbench", ["--headless", probe])):
        result = sandbox(program, *args, timeout=120)
        assert result.returncode == 0, result.stdout + result.stderr
        line = next(ln for ln in result.stdout.splitlines() if ln.startswith("PROBE "))
        found = json.loads(line[len("PROBE "):])
        for what in ("asc2", "_C", "arch_dir"):
            assert found[what].startswith(root + "/"), (program, what, found[what])
        assert found["libraries"], found
        asc2_libs = [p for p in found["libraries"] if "libasc2" in p]
        assert asc2_libs and all(p.startswith(root + "/") for p in asc2_libs), (program, found["libraries"])
        assert "Ascend910B1" in found["platforms"]


def test_a_sample_runs_headless_from_the_root(sandbox):
    report = sandbox.home / "out"
    sample = sandbox.root / "usr/share/asc2/samples/vadd.py"
    result = sandbox("asc2-workbench", "--headless", sample, "--report", report)
    assert result.returncode == 0, result.stdout + result.stderr
    oks = [ln for ln in result.stdout.splitlines() if ln.startswith("vadd: OK")]
    assert len(oks) == 2, result.stdout
    kernels = json.loads((report / "report.json").read_text())
    assert "vadd" in json.dumps(kernels) and (report / "trace.json").is_file()
    print("trees hidden during the run:", sandbox.hides_trees)


def test_asc2_python_runs_a_sample_from_the_root(sandbox):
    sample = sandbox.root / "usr/share/asc2/samples/vadd.py"
    result = sandbox("asc2-python", sample, "--n", 4096)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("vadd: OK"), result.stdout
