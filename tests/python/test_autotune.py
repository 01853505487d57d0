"""@asc2.autotune: picks the fastest correct config, drops what does not fit or compile, refuses wrong numbers,
keeps the caller's arrays, stores the choice on disk; asc2.Config and the decorator check their input."""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

import asc2
from asc2.tune import AutotuneError
from conftest import requires_native


@asc2.jit
def affine(x_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress, size: int, TILE: asc2.ConstExpr[int],
           PART: asc2.ConstExpr[int] = 1):
    """out = 2x + 1; PART=2 "optimises" by doing only the first half of the tiles: fast and wrong."""
    x_gm = asc2.global_tensor(x_ptr, [size])
    out_gm = asc2.global_tensor(out_ptr, [size])
    for t in asc2.range(asc2.block_idx(), asc2.ceildiv(size, TILE) // PART, asc2.block_num()):
        x = asc2.copy_in(x_gm, [t * TILE], [TILE])
        asc2.copy_out(x * 2.0 + 1.0, out_gm, [t * TILE])


@asc2.jit
def accumulate(x_ptr: asc2.GlobalAddress, acc_ptr: asc2.GlobalAddress, size: int, TILE: asc2.ConstExpr[int]):
    """acc += x: a config run on the caller's own arrays would add x once per config."""
    x_gm = asc2.global_tensor(x_ptr, [size])
    acc_gm = asc2.global_tensor(acc_ptr, [size])
    for t in asc2.range(asc2.block_idx(), asc2.ceildiv(size, TILE), asc2.block_num()):
        x = asc2.copy_in(x_gm, [t * TILE], [TILE])
        acc = asc2.copy_in(acc_gm, [t * TILE], [TILE])
        asc2.copy_out(acc + x, acc_gm, [t * TILE])


N = 20000


def _data(n=N, seed=0):
    x = np.random.default_rng(seed).standard_normal(n).astype(np.float32)
    return x, np.zeros_like(x)


def _local(configs, **kw):
    return asc2.autotune(configs=configs, key=["size"], executor="local", **kw)


def _row(report, params):
    return next(r for r in report if r["params"] == params)


@requires_native
def test_picks_the_fastest_config_that_fits_and_drops_the_one_that_does_not():
    configs = [asc2.Config(TILE=256), asc2.Config(TILE=2048), asc2.Config(TILE=2048, block_num=16),
               asc2.Config(TILE=1 << 17)]
    kernel = _local(configs)(affine)
    x, out = _data()
    kernel[8](x, out, N)
    np.testing.assert_allclose(out, 2 * x + 1, rtol=1e-6)

    report = kernel.autotune_report
    assert [r["index"] for r in report] == [0, 1, 2, 3]
    too_big = report[3]
    assert too_big["verdict"] == "dropped"
    assert too_big["reason"].startswith("does not fit: UB overflow") and "tile [131072] float32" in too_big["reason"]
    ran = report[:3]
    assert all(r["cycles"] > 0 and r["ub_peak"] > 0 and r["bound_pipe"] for r in ran)
    fastest = min(ran, key=lambda r: r["cycles"])
    assert [r["verdict"] for r in ran].count("winner") == 1 and fastest["verdict"] == "winner"
    assert kernel.best_config == configs[fastest["index"]]
    # The chosen config's cycles are what a plain launch of it takes, and the launch was it.
    assert kernel.last_report["launch"]["cycles"] == fastest["cycles"]
    assert kernel.last_report["launch"]["block_num"] == fastest["block_num"]
    assert ran[0]["ub_peak"] < ran[1]["ub_peak"]  # a bigger tile takes more UB
    table = str(report)
    assert "winner" in table and "dropped: does not fit" in table and "cycles" in table.splitlines()[0]
    json.dumps(report)  # a plain list of dicts


@requires_native
def test_a_config_with_wrong_numbers_is_a_mismatch_even_when_it_is_fastest():
    configs = [asc2.Config(TILE=512), asc2.Config(TILE=1024), asc2.Config(TILE=1024, PART=2)]
    kernel = _local(configs)(affine)
    x, out = _data()
    kernel[8](x, out, N)
    report = kernel.autotune_report
    wrong = report[2]
    assert wrong["cycles"] < min(report[0]["cycles"], report[1]["cycles"])  # it skips half the work
    assert wrong["verdict"] == "mismatch"
    assert "'out_ptr'" in wrong["reason"] and "differ" in wrong["reason"]
    assert {report[0]["verdict"], report[1]["verdict"]} == {"winner", "ok"}
    np.testing.assert_allclose(out, 2 * x + 1, rtol=1e-6)


@requires_native
def test_the_sweep_runs_on_copies_of_the_callers_arrays():
    kernel = _local([asc2.Config(TILE=256), asc2.Config(TILE=1024), asc2.Config(TILE=2048)])(accumulate)
    x, _ = _data()
    acc = np.full_like(x, 3.0)
    x_before = x.copy()
    kernel[4](x, acc, N)
    np.testing.assert_array_equal(x, x_before)
    np.testing.assert_allclose(acc, 3.0 + x, rtol=1e-6)  # added once: by the winner's launch only
    assert all(r["verdict"] in ("winner", "ok") for r in kernel.autotune_report)


@requires_native
def test_a_new_key_tunes_again_and_a_known_one_reuses_the_choice():
    kernel = _local([asc2.Config(TILE=256), asc2.Config(TILE=4096)])(affine)
    for n in (4096, 50000, 4096):
        x, out = _data(n)
        kernel[8](x, out, n)
        np.testing.assert_allclose(out, 2 * x + 1, rtol=1e-6)
    assert kernel.tuning_stats == {"sweeps": 2, "memory": 1, "disk": 0}


@requires_native
def test_prune_configs_by_leaves_configs_out_before_they_run():
    configs = [asc2.Config(TILE=t) for t in (256, 512, 1024, 2048, 4096)]
    kernel = _local(configs, prune_configs_by={
        "early_config_prune": lambda cs, args: [c for c in cs if c.kwargs["TILE"] <= args["size"]],
        "perf_model": lambda c, args: -c.kwargs["TILE"],  # "bigger is faster"
        "top_k": 2,
    })(affine)
    x, out = _data(2048)
    kernel[8](x, out, 2048)
    verdicts = [r["verdict"] for r in kernel.autotune_report]
    assert verdicts[4] == "pruned" and kernel.autotune_report[4]["reason"] == "early_config_prune"
    assert verdicts[:2] == ["pruned", "pruned"] and "perf_model" in kernel.autotune_report[0]["reason"]
    assert sorted(verdicts[2:4]) == ["ok", "winner"]
    np.testing.assert_allclose(out, 2 * x + 1, rtol=1e-6)


@requires_native
def test_no_config_that_runs_is_an_error_listing_every_reason():
    kernel = _local([asc2.Config(TILE=1 << 17), asc2.Config(TILE=1 << 18)])(affine)
    x, out = _data()
    with pytest.raises(AutotuneError) as info:
        kernel[8](x, out, N)
    message = str(info.value)
    assert "no config of kernel 'affine' compiled, fitted and ran for size=20000" in message
    assert "TILE=131072" in message and "TILE=262144" in message and "does not fit" in message
    assert not out.any()


CACHED_SCRIPT = '''
import json, sys
import numpy as np
import asc2

SCALE = {scale}


@asc2.autotune(configs=[asc2.Config(TILE=256), asc2.Config(TILE=2048, block_num=16)], key=["x_ptr"],
               executor="local")
@asc2.jit
def scale(x_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress, size: int, TILE: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [size])
    out_gm = asc2.global_tensor(out_ptr, [size])
    for t in asc2.range(asc2.block_idx(), asc2.ceildiv(size, TILE), asc2.block_num()):
        asc2.copy_out(asc2.copy_in(x_gm, [t * TILE], [TILE]) * SCALE, out_gm, [t * TILE])


x = np.arange(10000, dtype=np.float32)
out = np.zeros_like(x)
scale[8](x, out, x.size)
print(json.dumps({{"stats": scale.tuning_stats, "best": repr(scale.best_config),
                  "ok": bool(np.array_equal(out, x * SCALE)), "report": scale.autotune_report}}))
'''


def _run_script(path, cache_dir):
    import asc2 as pkg

    env = dict(os.environ, ASC2_CACHE_DIR=str(cache_dir),
               PYTHONPATH=os.pathsep.join([os.path.dirname(os.path.dirname(os.path.abspath(pkg.__file__))),
                                           os.environ.get("PYTHONPATH", "")]))
    proc = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=120, env=env)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


@requires_native
def test_the_choice_is_stored_on_disk_and_the_next_process_does_not_sweep(tmp_path, isolated_cache):
    script = tmp_path / "tuned.py"
    script.write_text(CACHED_SCRIPT.format(scale=3.0))
    first = _run_script(script, isolated_cache)
    assert first["stats"] == {"sweeps": 1, "memory": 0, "disk": 0} and first["ok"]
    stored = list((isolated_cache / "autotune").rglob("*.json"))
    assert len(stored) == 1

    second = _run_script(script, isolated_cache)
    assert second["stats"] == {"sweeps": 0, "memory": 0, "disk": 1} and second["ok"]
    assert second["best"] == first["best"] and second["report"] == first["report"]

    script.write_text(CACHED_SCRIPT.format(scale=5.0))  # what the kernel reads changed: tuned again
    third = _run_script(script, isolated_cache)
    assert third["stats"]["sweeps"] == 1 and third["ok"]


@requires_native
def test_a_damaged_stored_choice_is_tuned_again_with_a_warning(isolated_cache):
    kernel = _local([asc2.Config(TILE=256), asc2.Config(TILE=1024)])(affine)
    x, out = _data()
    kernel[8](x, out, N)
    (path,) = (isolated_cache / "autotune").rglob("*.json")
    path.write_text("{not json")
    again = _local([asc2.Config(TILE=256), asc2.Config(TILE=1024)])(affine)
    with pytest.warns(RuntimeWarning, match="ignoring the damaged choice .*not valid JSON"):
        again[8](x, out, N)
    assert again.tuning_stats["sweeps"] == 1
    np.testing.assert_allclose(out, 2 * x + 1, rtol=1e-6)


@pytest.fixture
def heard():
    """The asc2.tune.events of the test."""
    from asc2.tune import events

    seen = []
    listener = events.add_listener(seen.append)
    yield seen
    events.remove_listener(listener)


@requires_native
def test_a_sweep_tells_its_listeners_as_it_goes(heard):
    configs = [asc2.Config(TILE=256), asc2.Config(TILE=1024), asc2.Config(TILE=1 << 17)]
    kernel = _local(configs)(affine)
    x, out = _data()
    kernel[8](x, out, N)
    assert [e["event"] for e in heard] == ["sweep_started"] + ["config_done"] * 3 + ["sweep_finished"]
    started, finished = heard[0], heard[-1]
    assert (started["kernel"], started["key"], started["executor"], started["platform"]) == \
        ("affine", "size=20000", "local", "Ascend910B1")
    assert started["configs"] == [{"index": i, "params": c.describe()} for i, c in enumerate(configs)]
    assert len({e["sweep"] for e in heard}) == 1
    done = [e["row"] for e in heard[1:4]]
    assert [r["index"] for r in done] == [0, 1, 2] and [r["verdict"] for r in done] == ["ok", "ok", "dropped"]
    assert finished["rows"] == kernel.autotune_report and not finished["cached"]
    assert finished["winner"] == kernel.autotune_report.winner()["index"]
    # The SHA-1 of each config's Ascend C finds its compile report (the workbench's views link by it).
    from asc2.tune import events

    winner = kernel.autotune_report.winner()
    assert winner["code_sha1"] == events.code_sha1(kernel.last_report)
    assert done[0]["code_sha1"] != done[1]["code_sha1"] and done[2]["code_sha1"] is None

    heard.clear()
    again = _local(configs)(affine)  # a new process would do the same: the choice comes from disk
    again[8](x, out, N)
    assert [(e["event"], e["cached"], e["winner"]) for e in heard] == [("sweep_finished", True, winner["index"])]


@requires_native
def test_a_stopped_sweep_says_so_and_runs_nothing_more(heard):
    from asc2.tune import events

    def stop_at_the_second_config(event):
        if event["event"] == "config_done" and event["row"]["index"] == 1:
            raise KeyboardInterrupt  # what the workbench's Stop raises in the script

    events.add_listener(stop_at_the_second_config)
    try:
        kernel = _local([asc2.Config(TILE=t) for t in (256, 512, 1024, 2048)])(affine)
        x, out = _data()
        with pytest.raises(KeyboardInterrupt):
            kernel[8](x, out, N)
    finally:
        events.remove_listener(stop_at_the_second_config)
    assert [e["event"] for e in heard] == ["sweep_started", "config_done", "config_done", "sweep_cancelled"]
    assert not out.any() and kernel.best_config is None


# -- input errors, in the user's terms


def test_a_config_naming_an_unknown_parameter_names_it_and_the_kernels_parameters():
    with pytest.raises(TypeError) as info:
        asc2.autotune(configs=[asc2.Config(TILES=256)], key=["size"])(affine)
    assert str(info.value) == ("asc2.autotune: asc2.Config(TILES=256) sets 'TILES', which is not a parameter of kernel "
                               "'affine' (its parameters: x_ptr, out_ptr, size, TILE, PART)")


def test_a_key_naming_an_unknown_parameter_is_an_error():
    with pytest.raises(TypeError, match=r"key 'n' is not a parameter of kernel 'affine' \(its parameters: x_ptr, "):
        asc2.autotune(configs=[asc2.Config(TILE=256)], key=["n"])(affine)
    with pytest.raises(TypeError, match="key must be a list of argument names"):
        asc2.autotune(configs=[asc2.Config(TILE=256)], key="size")


def test_launching_with_a_tuned_parameter_is_an_error():
    kernel = _local([asc2.Config(TILE=256)])(affine)
    x, out = _data(256)
    with pytest.raises(TypeError, match="launched with 'TILE', which its configs set"):
        kernel[8](x, out, 256, TILE=256)


@pytest.mark.parametrize("call, error, match", [
    (lambda: asc2.autotune(configs=[])(affine), TypeError, "non-empty list of asc2.Config"),
    (lambda: asc2.autotune(configs=[{"TILE": 256}])(affine), TypeError, r"configs\[0\] is \{'TILE': 256\}, not an"),
    (lambda: asc2.autotune(configs=[asc2.Config(TILE=1), asc2.Config(TILE=1)]), ValueError, r"configs\[1\] repeats"),
    (lambda: asc2.autotune(configs=[asc2.Config(TILE=1)], executor="ray"), ValueError, "unknown executor 'ray'"),
    (lambda: asc2.autotune(configs=[asc2.Config(TILE=1)], prune_configs_by={"topk": 2}), TypeError,
     "unknown field.*topk.*early_config_prune, perf_model, top_k"),
    (lambda: asc2.autotune(configs=[asc2.Config(TILE=1)], prune_configs_by={"top_k": 2}), TypeError,
     "needs a 'perf_model'"),
    (lambda: asc2.autotune(configs=[asc2.Config(TILE=1)], rep=0), ValueError, "rep must be an integer >= 1"),
    (lambda: asc2.autotune(configs=[asc2.Config(TILE=1)])(lambda x: x), TypeError, "goes above @asc2.jit"),
    (lambda: asc2.Config(TILE=1, block_num=0), ValueError, "block_num: the block count must be an integer"),
    (lambda: asc2.Config(TILE=1, options={"num_stage": 2}), TypeError, "unknown asc2.jit option.*num_stage"),
    (lambda: asc2.Config({"TILE": 1}, TILE=2), TypeError, "TILE given both in the dict and as a keyword"),
])
def test_bad_input_is_a_clear_error(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_a_config_reads_as_it_was_written():
    c = asc2.Config(TILE=256, ROWS=(8, 64), block_num=16, options={"num_stages": 1})
    assert repr(c) == "asc2.Config(TILE=256, ROWS=(8, 64), block_num=16, options={'num_stages': 1})"
    assert c.describe() == "TILE=256, ROWS=(8, 64), block_num=16, num_stages=1"
    assert c.to_json() == {"kwargs": {"TILE": 256, "ROWS": [8, 64]}, "block_num": 16, "options": {"num_stages": 1}}
    assert asc2.Config({"TILE": 256}) == asc2.Config(TILE=256) != asc2.Config(TILE=256, block_num=2)
    import pickle

    assert pickle.loads(pickle.dumps(c)) == c


@requires_native
def test_config_options_compile_the_config_with_those_jit_options():
    kernel = _local([asc2.Config(TILE=2048, options={"num_stages": 1}), asc2.Config(TILE=2048)])(affine)
    x, out = _data()
    kernel[8](x, out, N)
    report = kernel.autotune_report
    assert report[0]["params"] == "TILE=2048, num_stages=1"
    # Single-buffered, the loop holds fewer tiles in UB than the double-buffered default.
    assert report[0]["ub_peak"] < report[1]["ub_peak"]
    np.testing.assert_allclose(out, 2 * x + 1, rtol=1e-6)
