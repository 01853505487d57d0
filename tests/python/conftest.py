"""Shared fixtures for the asc2 Python tests.

Run with the built package first on the path:
    PYTHONPATH=build/python /usr/bin/python3 -m pytest tests/python
Frontend-only tests also run against the source tree (python/) when the
extension is not built; tests that compile or launch are skipped then.
"""

import inspect
import os
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "samples"))
try:
    import asc2  # noqa: F401
except ImportError:
    sys.path.insert(0, os.path.join(ROOT, "python"))
    import asc2  # noqa: F401


def _has_native():
    try:
        from asc2 import _C  # noqa: F401
        return True
    except ImportError:
        return False


HAS_NATIVE = _has_native()
requires_native = pytest.mark.skipif(not HAS_NATIVE, reason="asc2._C (the C++ compiler) is not built")


@pytest.fixture(autouse=True)
def isolated_cache(tmp_path, monkeypatch):
    """Each test gets its own disk cache and the default platform."""
    monkeypatch.setenv("ASC2_CACHE_DIR", str(tmp_path / "cache"))
    for var in ("ASC2_BACKEND", "ASC2_PLATFORM", "ASC2_DUMP_PATH", "PYASC_DUMP_PATH"):
        monkeypatch.delenv(var, raising=False)
    from asc2.runtime import platform
    platform.reset_platform()
    yield tmp_path / "cache"
    platform.reset_platform()


def _find_asc2_opt():
    for candidate in (os.environ.get("ASC2_OPT"), os.path.join(ROOT, "build", "bin", "asc2-opt"),
                      shutil.which("asc2-opt")):
        if candidate and os.path.exists(candidate):
            return candidate
    return None


@pytest.fixture
def parse_ir():
    """Round-trip IR text through asc2-opt (verifier included); skipped when it is not built."""
    tool = _find_asc2_opt()
    if tool is None:
        pytest.skip("asc2-opt is not built")

    def parse(text):
        proc = subprocess.run([tool, "-"], input=text, capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0, f"asc2-opt rejected the IR:\n{proc.stderr}\n--- IR ---\n{text}"
        return proc.stdout

    return parse


def line_of(fn, marker):
    """The file line number of the line in ``fn``'s source that contains ``marker``."""
    lines, start = inspect.getsourcelines(getattr(fn, "fn", fn))
    for i, text in enumerate(lines):
        if marker in text:
            return start + i
    raise AssertionError(f"marker {marker!r} not found")
