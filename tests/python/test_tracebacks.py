"""An uncaught asc2 error reads in the user's terms: their frames, the message
with its file:line:col and caret, not twenty frames of asc2's compiler and a
chained internal cause (issue 18). Other exceptions keep their whole traceback."""

import os
import subprocess
import sys
import textwrap

import asc2
from asc2 import tracebacks

from conftest import requires_native

BAD_KERNEL = textwrap.dedent("""\
    import numpy as np
    import asc2


    @asc2.jit
    def kernel(x_ptr: asc2.GlobalAddress, n: int):
        x_gm = asc2.global_tensor(x_ptr, [n])
        x = asc2.copy_in(x_gm, [0], [256])
        asc2.copy_out(x.upper(), x_gm, [0])


    kernel[1](np.zeros(256, dtype=np.float32), 256)
    """)


def run(script, tmp_path, **env):
    path = tmp_path / "user_script.py"
    path.write_text(script)
    full_env = dict(os.environ, **env)
    full_env.setdefault("PYTHONPATH", os.path.dirname(os.path.dirname(asc2.__file__)))
    return subprocess.run([sys.executable, str(path)], capture_output=True, text=True, env=full_env, timeout=120)


@requires_native
def test_a_kernel_error_shows_the_users_frames_only(tmp_path):
    proc = run(BAD_KERNEL, tmp_path)
    assert proc.returncode == 1
    err = proc.stderr
    assert 'user_script.py", line 12, in <module>' in err
    assert "user_script.py:9:" in err and "has no attribute 'upper'" in err
    assert "^" in err  # the caret under the column
    assert "frames inside asc2 hidden" in err
    for internal in ("codegen", "visitor.py", "ast.py", "During handling", "direct cause"):
        assert internal not in err, err


@requires_native
def test_the_full_traceback_on_request(tmp_path):
    err = run(BAD_KERNEL, tmp_path, ASC2_FULL_TRACEBACK="1").stderr
    assert "visitor.py" in err and "frames inside asc2" not in err


def test_other_exceptions_keep_their_traceback(tmp_path):
    err = run("import asc2\n\ndef f():\n    return 1 / 0\n\nf()\n", tmp_path).stderr
    assert 'line 4, in f' in err and "ZeroDivisionError" in err and "frames inside asc2" not in err


def test_an_asc2_bug_is_not_hidden():
    # An exception that is no user error (a KeyError escaping asc2 would be a
    # bug) keeps every frame, for the report.
    try:
        tracebacks._internal(None)  # a TypeError raised inside asc2's own code
    except TypeError as e:
        lines = "".join(tracebacks.format_exception(type(e), e, e.__traceback__))
    assert "test_tracebacks.py" in lines and "asc2/tracebacks.py" in lines
    assert "frames inside asc2" not in lines


def test_hooks_of_other_tools_are_kept(monkeypatch):
    mine = lambda *a: None  # noqa: E731
    monkeypatch.setattr(sys, "excepthook", mine)
    tracebacks.install()
    assert sys.excepthook is mine
