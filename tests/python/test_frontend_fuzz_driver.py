"""tests/fuzz/frontend_fuzz.py judges itself correctly: a mutant that cannot import anything ran nothing, and a
fuzz run whose mutants cannot import asc2 stops with an error instead of reporting "0 bugs" (a 15-minute run
with a relative PYTHONPATH once did exactly that)."""

import os
import subprocess
import sys
import types

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.append(os.path.join(ROOT, "tests", "fuzz"))

import frontend_fuzz  # noqa: E402


def _finished(stderr, returncode=1):
    return types.SimpleNamespace(stderr=stderr, returncode=returncode)


def test_a_mutant_that_cannot_import_is_a_problem_not_a_refusal():
    stderr = ('Traceback (most recent call last):\n  File "/tmp/mutant_1_vadd.py", line 14, in <module>\n'
              "    import asc2\nModuleNotFoundError: No module named 'asc2'\n")
    assert frontend_fuzz.classify(_finished(stderr), False) == "cannot import: ModuleNotFoundError: No module named 'asc2'"


def test_an_asc2_error_is_still_a_fine_refusal():
    stderr = ('Traceback (most recent call last):\n  File "/tmp/mutant_2_vadd.py", line 40, in <module>\n'
              "asc2.errors.CompilationTypeError: k.py:3:5: tile [64] float32 in UB has no attribute 'upper'\n")
    assert frontend_fuzz.classify(_finished(stderr), False) is None


def test_a_run_whose_mutants_cannot_import_asc2_stops_with_an_error(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(tmp_path / "nothing here"))
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "tests", "fuzz", "frontend_fuzz.py"), "--runs", "3"],
                          capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120)
    assert proc.returncode == 2
    assert "cannot import asc2" in proc.stderr and "0 bugs" not in proc.stdout


def test_a_relative_pythonpath_reaches_the_mutants(tmp_path, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", os.path.relpath(os.path.join(ROOT, "python")))
    path = frontend_fuzz.child_environment(str(tmp_path))["PYTHONPATH"]
    assert os.path.isabs(path) and os.path.isdir(os.path.join(path, "asc2"))
