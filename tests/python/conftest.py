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


@pytest.fixture
def twin_cache(tmp_path_factory, monkeypatch):
    """One g++ output cache for the Twin backend's tests of a session (its precompiled header is slow)."""
    monkeypatch.setenv("ASC2_TWIN_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "twin-build"))


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


def in_child_process(fn, *args, **kwargs):
    """``fn(*args, **kwargs)`` in a forked child: a crash in the native compiler or simulator fails
    the calling test instead of killing the whole pytest session.  Returns fn's result."""
    import pickle

    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # child
        os.close(read_fd)
        try:
            payload = ("ok", fn(*args, **kwargs))
        except BaseException as e:  # noqa: BLE001 - everything goes back to the parent
            payload = ("error", e)
        try:
            data = pickle.dumps(payload)
        except Exception as e:  # noqa: BLE001
            data = pickle.dumps(("error", RuntimeError(f"unpicklable result: {e!r}")))
        with os.fdopen(write_fd, "wb") as out:
            out.write(data)
        os._exit(0)
    os.close(write_fd)
    with os.fdopen(read_fd, "rb") as inp:
        data = inp.read()
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status) or not data:
        raise AssertionError(f"the child process crashed (status {status}, signal "
                             f"{os.WTERMSIG(status) if os.WIFSIGNALED(status) else None})")
    kind, value = __import__("pickle").loads(data)
    if kind == "error":
        raise value
    return value


def on_a_platform_with_integer_division(op_name, dtype):
    """Atlas A2/A3 have no int32 division (their Div takes float16/float32; the compiler refuses it
    at the line, test_integer_division_on_a2.py): an int32 division test runs on Ascend950."""
    if op_name in ("div", "floordiv") and str(dtype) == "int32":
        import asc2
        asc2.set_platform("Model", "Ascend950")


# -- messages in the user's terms (issue 17): no MLIR type, no loc(...), no internal buffer or SSA name, no
# pybind11 signature dump. Every error a robustness test expects (pytest.raises) is scanned.

COMPILER_TERMS = (
    ("an MLIR type", r"!(asctile|ascendc|llvm)\.|\b(tensor|memref|vector)<"),
    ("an MLIR location", r"\bloc\(|asctile-input:"),
    ("an SSA value name", r"(?<![\w%])%[A-Za-z_0-9][\w.$#]*\b"),
    ("an MLIR op name", r"'(arith|math|scf|func|asctile|ascendc)\.[a-z_]+' op\b"),
    ("a pybind11 dump", r"incompatible function arguments|Invoked with:|Unable to cast Python instance|"
                        r"_C\.\w+\(\)|<asc2\._C\."),
)


def compiler_terms_in(message):
    """The kinds of compiler-internal text ``message`` contains (empty: it speaks the user's terms)."""
    import re

    return [what for what, pattern in COMPILER_TERMS if re.search(pattern, message)]


def assert_user_terms(message):
    found = compiler_terms_in(message)
    assert not found, f"the message shows {', '.join(found)} to the user:\n{message}"


@pytest.fixture(autouse=True)
def scanned_error_messages(request, monkeypatch):
    """In the robustness suites, pytest.raises also checks that the error it caught speaks the user's terms."""
    if not request.module.__name__.startswith("test_robustness"):
        yield
        return
    import contextlib

    real_raises = pytest.raises

    def checked_raises(expected, *args, **kwargs):
        if args and callable(args[0]):  # pytest.raises(E, fn, *args)
            info = real_raises(expected, *args, **kwargs)
            assert_user_terms(str(info.value))
            return info

        @contextlib.contextmanager
        def scope():
            with real_raises(expected, *args, **kwargs) as info:
                yield info
            assert_user_terms(str(info.value))

        return scope()

    monkeypatch.setattr(pytest, "raises", checked_raises)
    yield
