"""Sweeps on Dask: a real `dask scheduler` and two `dask worker` processes on 127.0.0.1, started (and always
stopped) here; the autotuned samples' softmax and GELU pick their configs on them over upstream target shapes
with numpy's numbers, the batch CLI runs a grid and the random-kernel campaign through them, and every result
equals the serial in-process run's."""

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time

import numpy as np
import pytest

import asc2
from conftest import ROOT, requires_native

distributed = pytest.importorskip("distributed")

START_TIMEOUT = 60  # seconds for the scheduler and the workers to come up


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _stop(procs):
    """SIGTERM to each process's session, workers first (a worker whose scheduler went first waits for it), then
    SIGKILL to whatever is still there after 10 s."""
    deadline = time.monotonic() + 10
    for proc in reversed(procs):
        if proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(max(0.1, deadline - time.monotonic()))
    for proc in procs:
        if proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


@contextlib.contextmanager
def dask_cluster(base, workers, pythonpath):
    """A `dask scheduler` and ``workers`` single-threaded `dask worker` processes on 127.0.0.1 with ``pythonpath``,
    each in its own session; yields the scheduler's address once the workers are up, and stops them all however
    the block ends. The scheduler also ends by itself after 10 idle minutes, a worker a minute after it."""
    env = dict(os.environ, ASC2_CACHE_DIR=str(base / "worker-cache"), PYTHONPATH=pythonpath)
    address = f"tcp://127.0.0.1:{_free_port()}"
    procs = []
    with open(base / "dask.log", "w") as log:
        try:
            procs.append(subprocess.Popen(
                [sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port",
                 address.rsplit(":", 1)[1], "--no-dashboard", "--idle-timeout", "600s"],
                env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True, cwd=base))
            for i in range(workers):
                procs.append(subprocess.Popen(
                    [sys.executable, "-m", "distributed.cli.dask_worker", address, "--nthreads", "1", "--no-nanny",
                     "--no-dashboard", "--name", f"w{i}", "--local-directory", str(base / f"w{i}"),
                     "--death-timeout", "60"],
                    env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True, cwd=base))
            try:
                with distributed.Client(address, timeout=START_TIMEOUT, set_as_default=False) as client:
                    client.wait_for_workers(workers, timeout=START_TIMEOUT)
            except Exception:
                log.flush()
                print((base / "dask.log").read_text()[-4000:])
                raise
            yield address
        finally:
            _stop(procs)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    """Two workers that import this asc2."""
    package_parent = os.path.dirname(os.path.dirname(os.path.abspath(asc2.__file__)))
    with dask_cluster(tmp_path_factory.mktemp("dask"), 2, package_parent) as address:
        yield address


@pytest.fixture
def client(cluster):
    with distributed.Client(cluster, timeout=START_TIMEOUT, set_as_default=False) as c:
        yield c


# Upstream target shapes (compiler-team-ru/pyasc-skill-stack@5621a4f:golden/target/test_softmax.py,
# golden/target/test_gelu.py), flattened to the 2-D rows x cols the kernels take: softmax_test_4, _9, _8,
# _17 and _15, and GELU's 32 x 2048 x 2304 cut to its first 2048 x 2304 (the whole one is bench/autotune.py's).
SOFTMAX_SHAPES = [(4, 5), (100, 4), (12, 2500), (4, 2048), (700, 6)]
GELU_SIZE = 2048 * 2304


def _tuned_softmax(**where):
    """The sample's softmax (one row per loop trip, in a [1, TILE] tile) over tiles of 8 to 2560 elements on 8
    (the sample's) or 48 cores; a tile must hold a row, so the pruning hook keeps the two smallest that do."""
    from softmax import softmax

    configs = [asc2.Config(TILE=t, block_num=b) for t in (8, 64, 128, 2048, 2560) for b in (8, 48)]

    def rows_fit(configs, args):
        return [c for c in configs if c.kwargs["TILE"] >= args["cols"]][:4]

    return asc2.autotune(configs=configs, key=["rows", "cols"], cache_results=False,
                         prune_configs_by={"early_config_prune": rows_fit}, **where)(softmax)


def _gelu_configs():
    return [asc2.Config(TILE=256), asc2.Config(TILE=4096, block_num=48), asc2.Config(TILE=8192, block_num=48),
            asc2.Config(TILE=32768, block_num=48)]


def _row_facts(report):
    return [(r["index"], r["params"], r["verdict"], r["cycles"], r["ub_peak"], r["bound_pipe"], r["reason"])
            for r in report]


@requires_native
def test_autotuned_gelu_picks_its_config_on_two_workers_as_a_serial_run_does(client):
    from gelu import gelu, reference

    x = (np.random.default_rng(0).standard_normal(GELU_SIZE) * 2).astype(np.float32)
    reports = {}
    for where in ({"client": client}, {"executor": "local"}):
        tuned = asc2.autotune(configs=_gelu_configs(), key=["size"], cache_results=False, **where)(gelu)
        out = np.zeros_like(x)
        tuned[8](x, out, x.size)
        np.testing.assert_allclose(out, reference(x), rtol=1e-5, atol=1e-5)
        reports[next(iter(where))] = tuned.autotune_report
    on_dask, serial = reports["client"], reports["executor"]
    assert _row_facts(on_dask) == _row_facts(serial)
    verdicts = [r["verdict"] for r in on_dask]
    assert verdicts[3] == "dropped" and "does not fit" in on_dask[3]["reason"]  # 32768-element f32 tiles: too big even with the copies sharing
    assert verdicts.count("winner") == 1 and on_dask[verdicts.index("winner")]["cycles"] < on_dask[0]["cycles"]
    assert len({r["worker"] for r in on_dask}) == 2  # both workers ran configs
    assert len({r["worker"] for r in serial}) == 1


@requires_native
def test_autotuned_softmax_over_target_shapes_on_two_workers_equals_numpy_and_a_serial_run(client):
    from softmax import reference

    on_dask, serial = _tuned_softmax(client=client), _tuned_softmax(executor="local")
    for rows, cols in SOFTMAX_SHAPES:
        x = (np.random.default_rng(rows * cols).standard_normal((rows, cols)) * 3).astype(np.float32)
        for tuned in (on_dask, serial):
            out = np.zeros_like(x)
            tuned[8](x, out, rows, cols)
            np.testing.assert_allclose(out, reference(x), rtol=1e-5, atol=1e-6)
        assert _row_facts(on_dask.autotune_report) == _row_facts(serial.autotune_report), (rows, cols)
        assert on_dask.best_config == serial.best_config
        assert all(r["verdict"] == "pruned" for r in on_dask.autotune_report if r["config"]["kwargs"]["TILE"] < cols)
    assert on_dask.tuning_stats["sweeps"] == len(SOFTMAX_SHAPES)


def _spec(tmp_path):
    spec = {
        "seed": 3,
        "kernels": [
            {"file": os.path.join(ROOT, "samples", "gelu.py"), "name": "gelu", "block_num": 8,
             "shapes": [{"n": 4096}, {"n": 50000}],
             "args": {"x_ptr": {"array": ["n"], "dtype": "float32", "init": "normal", "scale": 2},
                      "out_ptr": {"array": ["n"], "dtype": "float32", "init": "zeros"}, "size": "n"},
             "configs": [{"TILE": 256}, {"TILE": 2048, "block_num": 16}, {"TILE": 65536}]},
            {"file": os.path.join(ROOT, "samples", "softmax.py"), "name": "softmax", "block_num": 8,
             "shapes": [{"rows": 37, "cols": 100}],
             "args": {"x_ptr": {"array": ["rows", "cols"], "scale": 3}, "out_ptr": {"array": ["rows", "cols"],
                                                                                    "init": "zeros"},
                      "rows": "rows", "cols": "cols"},
             "configs": [{"TILE": {"expr": "align(cols, 64)"}}, {"TILE": {"expr": "align(cols, 8)"}, "block_num": 48},
                         {"TILE": 64}]},
        ],
        "campaign": {"count": 4, "seed": 10, "chunk": 2},
    }
    path = tmp_path / "spec.json"
    path.write_text(json.dumps(spec))
    return path


def _sweep(args):
    from asc2.tune import sweep

    return sweep.main([str(a) for a in args])


@requires_native
def test_the_batch_sweep_on_two_workers_writes_what_a_serial_run_writes(cluster, tmp_path, capsys):
    spec = _spec(tmp_path)
    assert _sweep([spec, "--scheduler", cluster, "--json", tmp_path / "dask.json", "--csv", tmp_path / "dask.csv"]) == 1
    on_dask = capsys.readouterr().out
    assert _sweep([spec, "--executor", "local", "--json", tmp_path / "local.json"]) == 1
    dask_run, local_run = (json.loads((tmp_path / f"{n}.json").read_text()) for n in ("dask", "local"))
    assert (dask_run["executor"], dask_run["workers"], local_run["executor"]) == ("dask", 2, "local")

    def facts(run):
        return [(r["kind"], r.get("label"), r.get("params"), r.get("verdict"), r.get("cycles"), r.get("ub_peak"),
                 r.get("seed"), r.get("status")) for r in run["results"]]

    assert facts(dask_run) == facts(local_run)
    rows = [r for r in dask_run["results"] if r["kind"] == "config"]
    assert [r["label"] for r in rows] == (["gelu(n=4096)"] * 3 + ["gelu(n=50000)"] * 3
                                          + ["softmax(rows=37, cols=100)"] * 3)
    assert all(r["verdict"] == "dropped" and "does not fit" in r["reason"] for r in rows if r["params"] == "TILE=65536")
    # A 64-element tile cuts the 100-column rows short: its numbers differ from the two configs that agree, which
    # is why the sweep exits with 1.
    softmax_rows = rows[6:]
    assert softmax_rows[2]["verdict"] == "mismatch" and "2 config(s) that agree" in softmax_rows[2]["reason"]
    assert softmax_rows[0]["params"] == "TILE=128" and softmax_rows[1]["params"] == "TILE=104, block_num=48"
    assert len({r["worker"] for r in rows}) == 2
    seeds = [r for r in dask_run["results"] if r["kind"] == "random_kernel"]
    assert [r["seed"] for r in seeds] == [10, 11, 12, 13] and all(r["status"] == "ok" for r in seeds)
    assert "random kernels: 4: ok 4" in on_dask and "gelu(n=50000)" in on_dask
    header = (tmp_path / "dask.csv").read_text().splitlines()[0]
    assert header.startswith("label,index,params,block_num,cycles,time_us,metric,ub_peak,ub_capacity,bound_pipe,"
                             "verdict,reason,worker")


def test_a_bad_spec_is_an_error_naming_the_entry(tmp_path, capsys):
    spec = json.loads(_spec(tmp_path).read_text())
    spec["kernels"][1]["configs"][0] = {"TILE": {"expr": "align(columns, 64)"}}
    del spec["campaign"]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(spec))
    assert _sweep([path, "--executor", "local"]) == 2
    assert capsys.readouterr().err.strip() == (
        "asc2.tune.sweep: kernels[1].configs[0]: 'TILE': 'align(columns, 64)' uses 'columns', which the shape does not "
        "define (it has rows, cols)")


@requires_native
def test_a_local_cluster_started_for_a_sweep_is_closed_with_it():
    from asc2.tune import DaskExecutor

    before = os.environ.get("MALLOC_TRIM_THRESHOLD_")
    with DaskExecutor(n_workers=1) as ex:
        pids = list(ex.client.run(os.getpid).values())
        assert ex.worker_count() == 1
        # Not the nanny's 65536, which makes the native compiler ~3x slower.
        assert list(ex.client.run(os.getenv, "MALLOC_TRIM_THRESHOLD_").values()) == [str(128 << 20)]
    assert os.environ.get("MALLOC_TRIM_THRESHOLD_") == before
    assert len(pids) == 1
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and os.path.exists(f"/proc/{pids[0]}"):
        time.sleep(0.1)
    assert not os.path.exists(f"/proc/{pids[0]}")


def test_an_unreachable_scheduler_is_a_clear_error():
    from asc2.tune import DaskExecutor

    address = f"tcp://127.0.0.1:{_free_port()}"
    with pytest.raises(ConnectionError, match=f"cannot reach the Dask scheduler {address}"):
        DaskExecutor(scheduler=address, timeout=1)


def test_a_worker_without_asc2_is_an_error_saying_how_to_start_it(tmp_path):
    from asc2.tune import DaskExecutor

    with dask_cluster(tmp_path, 1, "") as address:
        with pytest.raises(RuntimeError, match="a Dask worker cannot run asc2 .*No module named 'asc2'.*Start the "
                                               "workers with PYTHONPATH reaching the asc2 package"):
            DaskExecutor(scheduler=address)


def _scheduler_tasks(client):
    return client.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.tasks))


@requires_native
def test_stopping_a_sweep_cancels_its_dask_futures(client):
    from asc2.tune import events
    from gelu import gelu

    heard = []

    def stop_after_the_first_config(event):
        heard.append(event["event"])
        if event["event"] == "config_done":
            raise KeyboardInterrupt  # what the workbench's Stop raises in the script

    tuned = asc2.autotune(configs=[asc2.Config(TILE=t, block_num=b) for t in (256, 512) for b in (4, 8, 12, 16)],
                          key=["size"], cache_results=False, client=client)(gelu)
    x = np.random.default_rng(0).standard_normal(GELU_SIZE).astype(np.float32)
    events.add_listener(stop_after_the_first_config)
    try:
        # `stopped` keeps the traceback, and with it the sweep's futures, alive (as an interpreter's last
        # traceback does): only cancelling them stops the configs still queued or running.
        with pytest.raises(KeyboardInterrupt) as stopped:
            tuned[8](x, np.zeros_like(x), x.size)
    finally:
        events.remove_listener(stop_after_the_first_config)
    assert heard == ["sweep_started", "config_done", "sweep_cancelled"]
    deadline = time.monotonic() + 2
    while _scheduler_tasks(client) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _scheduler_tasks(client) == 0, stopped  # nothing left running or held for the sweep


SCRIPT_KERNEL = '''
import numpy as np
import asc2

@asc2.autotune(configs=[asc2.Config(TILE=256), asc2.Config(TILE=512)], key=["n"], cache_results=False, n_workers=2)
@asc2.jit
def twice(x_ptr, out_ptr, n: int, TILE: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [n])
    out_gm = asc2.global_tensor(out_ptr, [n])
    for t in asc2.range(asc2.block_idx(), n // TILE, asc2.block_num(), parallel=True):
        asc2.copy_out(asc2.copy_in(x_gm, [t * TILE], [TILE]) * 2.0, out_gm, [t * TILE])

def main():
    x = np.arange(2048, dtype=np.float32)
    out = np.zeros_like(x)
    twice[4](x, out, 2048)
    assert np.array_equal(out, x * 2), out
    print("TUNED", twice.best_config, sorted({r.get("worker") is not None for r in twice.autotune_report}))
'''


def _run_script(tmp_path, text):
    script = tmp_path / "tune_script.py"
    script.write_text(text)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    env.pop("ASC2_DASK_SCHEDULER", None)
    return subprocess.run([sys.executable, "-W", "always::RuntimeWarning", str(script)], capture_output=True,
                          text=True, timeout=240, env=env, cwd=tmp_path)


@requires_native
def test_a_script_without_a_main_guard_tunes_in_process_and_says_why(tmp_path):
    """Dask workers import a kernel's file: a script that launches at its top level would run again on every
    worker (and start a cluster there). Its kernels tune in this process, with a warning at the launch line."""
    proc = _run_script(tmp_path, SCRIPT_KERNEL + "\nmain()\n")
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "TUNED" in proc.stdout, proc.stderr[-3000:]
    assert "tune_script.py:16: RuntimeWarning" in proc.stderr and "without an `if __name__" in proc.stderr
    assert "freeze_support" not in proc.stderr and "daemonic" not in proc.stderr


@requires_native
def test_a_guarded_script_tunes_its_own_kernel_on_a_local_cluster(tmp_path):
    """Spawned worker processes start from the parent's main script unless it has no file to them; the workers
    import the kernel's file, whose guard keeps its launches from running there."""
    proc = _run_script(tmp_path, SCRIPT_KERNEL + "\nif __name__ == \"__main__\":\n    main()\n")
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "TUNED" in proc.stdout and "RuntimeWarning" not in proc.stderr, proc.stderr[-3000:]
