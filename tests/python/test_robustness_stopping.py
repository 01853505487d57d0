"""issue 17: every run can be stopped. Ctrl+C (SIGINT) ends a simulation that would run for days within a
fraction of a second, in asc2-python and in the headless workbench; the headless workbench has --timeout; a step
limit (ASC2_MAX_STEPS, --max-steps) stops an endless block with a message naming the loop's line."""

import os
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

import asc2
from conftest import requires_native

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.environ.get("ASC2_BUILD_DIR", os.path.join(ROOT, "build"))
WORKBENCH = os.path.join(BUILD, "bin", "asc2-workbench")

HERE = os.path.dirname(os.path.abspath(__file__))

# A script launching spin (below) for 10**12 trips of its scalar loop: days of simulation.
ENDLESS = textwrap.dedent(f"""\
    import sys
    sys.path.insert(0, {HERE!r})
    import numpy as np
    from test_robustness_stopping import spin
    x = np.zeros(8, np.float32)
    spin[1](x, 1)  # compiled (and cached) before announcing, so the signal arrives during the simulation
    print("simulating", flush=True)
    spin[1](x, 10**12)
    print("finished", x)
    """)


def _default_sigint():
    # A child of a non-interactive shell inherits SIGINT ignored; Python then keeps it ignored.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _interrupt_after_start(command, tmp_path, env):
    """Starts command, sends SIGINT once it reports that the simulation runs; returns (proc, seconds to exit)."""
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                            cwd=tmp_path, preexec_fn=_default_sigint)
    try:
        line = proc.stdout.readline()
        assert line.strip() == "simulating", (line, proc.stderr.read() if proc.poll() is not None else "")
        time.sleep(0.5)  # well inside the simulation
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=20)
        return proc.returncode, time.monotonic() - sent, out, err
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()


def _env(tmp_path):
    return dict(os.environ, ASC2_CACHE_DIR=str(tmp_path / "cache"), QT_QPA_PLATFORM="offscreen")


@requires_native
def test_ctrl_c_stops_a_simulation_in_python_with_keyboard_interrupt(tmp_path):
    script = tmp_path / "spin.py"
    script.write_text(ENDLESS)
    code, seconds, out, err = _interrupt_after_start([sys.executable, str(script)], tmp_path, _env(tmp_path))
    assert "KeyboardInterrupt" in err, err[-2000:]
    assert "finished" not in out
    assert code != 0
    assert seconds < 3.0, f"took {seconds:.2f} s to stop"  # polled every 50 ms; slack for a loaded CI machine


@requires_native
@pytest.mark.skipif(not os.path.exists(WORKBENCH), reason="build/bin/asc2-workbench is not built")
def test_ctrl_c_stops_the_headless_workbench(tmp_path):
    script = tmp_path / "spin.py"
    script.write_text(ENDLESS)
    code, seconds, out, err = _interrupt_after_start([WORKBENCH, "--headless", str(script)], tmp_path,
                                                     _env(tmp_path))
    assert code == 130, (code, err[-2000:])
    assert "spin: launch 2 was stopped before it finished" in err, err[-2000:]  # launch 1: the warm-up
    assert seconds < 3.0, f"took {seconds:.2f} s to stop"


@requires_native
@pytest.mark.skipif(not os.path.exists(WORKBENCH), reason="build/bin/asc2-workbench is not built")
def test_headless_timeout_stops_the_run_with_status_124(tmp_path):
    script = tmp_path / "spin.py"
    script.write_text(ENDLESS)
    start = time.monotonic()
    proc = subprocess.run([WORKBENCH, "--headless", "--timeout", "1", str(script)], capture_output=True, text=True,
                          timeout=60, env=_env(tmp_path), cwd=tmp_path)
    assert proc.returncode == 124, (proc.returncode, proc.stderr[-2000:])
    assert f"--timeout: {script} still running after 1 s, stopping it" in proc.stderr
    assert "finished" not in proc.stdout
    assert time.monotonic() - start < 30


@requires_native
@pytest.mark.skipif(not os.path.exists(WORKBENCH), reason="build/bin/asc2-workbench is not built")
def test_headless_max_steps_names_the_loop(tmp_path):
    script = tmp_path / "spin.py"
    script.write_text(ENDLESS)
    proc = subprocess.run([WORKBENCH, "--headless", "--max-steps", "1000000", str(script)], capture_output=True,
                          text=True, timeout=120, env=_env(tmp_path), cwd=tmp_path)
    assert proc.returncode not in (0, 124), proc.stderr[-2000:]
    assert (f"block 0 ran past the step limit of 1000000 instructions without finishing, in the loop at "
            f"{__file__}:{SPIN_LOOP_LINE}:") in proc.stderr


@pytest.mark.skipif(not os.path.exists(WORKBENCH), reason="build/bin/asc2-workbench is not built")
@pytest.mark.parametrize("flag, value, message", [
    ("--max-steps", "many", "--max-steps needs a whole number of instructions (0: no limit), got 'many'"),
    ("--timeout", "0", "--timeout needs a positive number of seconds"),
])
def test_headless_rejects_bad_limits(tmp_path, flag, value, message):
    script = tmp_path / "empty.py"
    script.write_text("print('never run')\n")
    proc = subprocess.run([WORKBENCH, "--headless", flag, value, str(script)], capture_output=True, text=True,
                          timeout=60, env=_env(tmp_path), cwd=tmp_path)
    assert proc.returncode != 0
    assert message in proc.stderr
    assert "never run" not in proc.stdout


@asc2.jit
def spin(x_ptr: asc2.GlobalAddress, n: int):
    x = asc2.global_tensor(x_ptr, [8])
    t = asc2.copy_in(x, [0], [8])
    s = 0
    for i in asc2.range(n):
        s = s + i
    asc2.copy_out(t + s, x, [0])


SPIN_LOOP_LINE = spin.fn.__code__.co_firstlineno + 5  # the decorator, def, 3 statements, then the loop


@requires_native
def test_step_limit_stops_an_endless_block_naming_the_loop(monkeypatch):
    monkeypatch.setenv("ASC2_MAX_STEPS", "200000")
    with pytest.raises(asc2.SimulationError) as e:
        spin[2](np.zeros(8, np.float32), 10**12)
    assert (f"ran past the step limit of 200000 instructions without finishing, in the loop at "
            f"{__file__}:{SPIN_LOOP_LINE}:") in str(e.value)
    assert "ASC2_MAX_STEPS" in str(e.value)


@requires_native
def test_step_limit_leaves_a_kernel_that_ends_alone(monkeypatch):
    monkeypatch.setenv("ASC2_MAX_STEPS", "200000")
    x = np.zeros(8, np.float32)
    spin[1](x, 1000)
    np.testing.assert_array_equal(x, np.full(8, sum(range(1000)), np.float32))


@requires_native
@pytest.mark.parametrize("value", ["-5", "lots", "1e9"])
def test_a_bad_step_limit_is_a_clear_error(monkeypatch, value):
    monkeypatch.setenv("ASC2_MAX_STEPS", value)
    with pytest.raises(ValueError, match=f"ASC2_MAX_STEPS must be a whole number of instructions "
                                         f"\\(0 for no limit\\), got '{value}'"):
        spin[1](np.zeros(8, np.float32), 3)
