"""End to end: compile vadd with the C++ pipeline and run it on the simulator."""

import json
import os

import numpy as np
import pytest

import asc2
from conftest import line_of, requires_native
from vadd import run, vadd

pytestmark = requires_native


@pytest.mark.parametrize("n,cores", [(8 * 256 * 2, 8), (1000, 8), (12345, 3), (256, 1), (7, 2), (4096 + 31, 5)])
def test_vadd_f32(n, cores):
    err, cycles = run(n, cores=cores)
    assert err == 0.0
    assert cycles > 0


@pytest.mark.parametrize("n,cores", [(4096, 4), (999, 8)])
def test_vadd_f16(n, cores):
    err, _ = run(n, cores=cores, dtype=np.float16)
    assert err <= 1e-2


def test_vadd_tile_sizes():
    for tile in (64, 512, 1024):
        err, _ = run(5000, cores=4, tile=tile)
        assert err == 0.0


def test_last_report_contents():
    n = 4096
    x = np.arange(n, dtype=np.float32)
    out = np.zeros(n, np.float32)
    vadd[4](x, x, out, n, 4, TILE=256)
    np.testing.assert_array_equal(out, 2 * x)
    r = vadd.last_report
    assert r["schema"] == "asc2.report/1"
    assert r["kernel"] == "vadd" and r["target"]
    assert r["source_file"] == vadd.source.file
    assert len(r["passes"]) >= 5
    assert all(p["name"] and "ir" in p for p in r["passes"])
    buffers = r["memory"]["buffers"]
    assert buffers and all(b["offset"] >= 0 and b["size"] > 0 for b in buffers)
    assert any(b["space"] for b in buffers)
    assert r["sync"], "vadd needs MTE2->V and V->MTE3 synchronisation"
    assert all(s["src_pipe"] and s["dst_pipe"] for s in r["sync"])
    assert r["launch"]["ok"] and r["launch"]["cycles"] > 0 and r["launch"]["races"] == []
    assert r["launch"]["block_num"] == 4
    assert "ascendc" in r and r["ascendc"]
    json.dumps(r)  # plain data


def test_each_launch_gets_its_own_report():
    """Each launch's report is a fresh dict carrying its own launch, so changing one (or its passes)
    cannot leak into the next."""
    n = 512
    x = np.arange(n, dtype=np.float32)
    out = np.zeros(n, np.float32)
    vadd[2](x, x, out, n, 2, TILE=256)
    first = vadd.last_report
    first["passes"].clear()
    first["kernel"] = "changed"
    vadd[1](x, x, out, n, 1, TILE=256)
    second = vadd.last_report
    assert second is not first
    assert second["kernel"] == "vadd" and len(second["passes"]) >= 5
    assert first["launch"]["block_num"] == 2 and second["launch"]["block_num"] == 1
    assert vadd.last_report is second  # made once per launch


def test_a_launch_does_not_build_the_report_until_it_is_read(monkeypatch):
    """The report (every pass's IR as JSON) costs more than a small launch: a launch must not make it;
    reading last_report does, once."""
    n = 256
    x = np.arange(n, dtype=np.float32)
    out = np.zeros(n, np.float32)
    vadd[1](x, x, out, n, 1, TILE=256)  # compiled
    compiled = next(iter(vadd._memory_cache.values()))
    calls = []
    original = type(compiled).report
    monkeypatch.setattr(type(compiled), "report", lambda self, *a, **k: calls.append(1) or original(self, *a, **k))
    for _ in range(5):
        vadd[1](x, x, out, n, 1, TILE=256)
    assert calls == []
    np.testing.assert_array_equal(out, x + x)
    assert vadd.last_report["launch"]["ok"] and len(calls) == 1
    vadd.last_report
    assert len(calls) == 1


def test_report_carries_the_static_schedule():
    """Set -> wait pairing and stalls are the compiler's (StaticSchedule on the
    final IR); the views only draw them."""
    n = 4096
    x = np.arange(n, dtype=np.float32)
    out = np.zeros(n, np.float32)
    vadd[4](x, x, out, n, 4, TILE=256)
    r = vadd.last_report
    kinds = {s["point"]: s for s in r["sync"]}
    edges, stalls = r["schedule"]["edges"], r["schedule"]["stalls"]
    assert edges, "vadd's loads, adds and stores are chained by flags"
    for e in edges:
        set_, wait = kinds[e["set_point"]], kinds[e["wait_point"]]
        assert set_["kind"] == "set_flag" and wait["kind"] == "wait_flag"
        assert (set_["src_pipe"], set_["dst_pipe"], set_["event_id"]) == (e["src_pipe"], e["dst_pipe"], e["event_id"])
        assert (wait["src_pipe"], wait["dst_pipe"], wait["event_id"]) == (e["src_pipe"], e["dst_pipe"], e["event_id"])
        # A wait earlier in program order can only be a later iteration's (the
        # converse does not hold: a set in one arm of an scf.if reaches a wait
        # in the other arm only around the loop).
        assert e["wraps"] or e["wait_point"] > e["set_point"]
    assert [(e["set_point"], e["wait_point"]) for e in edges] == sorted((e["set_point"], e["wait_point"]) for e in edges)
    # The ping-pong loop carries flags around its back-edge.
    assert any(e["wraps"] for e in edges)
    assert stalls and all(0 <= s["edge"] < len(edges) and s["from"] < s["to"] for s in stalls)
    assert all(s["pipe"] == edges[s["edge"]]["dst_pipe"] for s in stalls)


def test_compile_only_and_ascendc():
    compiled = vadd.compile(np.zeros(16, np.float32), np.zeros(16, np.float32), np.zeros(16, np.float32), 16, 1,
                            TILE=256)
    assert compiled.name == "vadd"
    assert compiled.ascendc
    assert compiled.report()["schema"] == "asc2.report/1"
    # Users see the Python name; the C symbol has the fixed prefix (no clash with libc's names).
    assert compiled.report()["kernel"] == "vadd"
    assert compiled.report()["kernel_symbol"] == "asc2_vadd"
    assert 'extern "C" __global__ __aicore__ void asc2_vadd(' in compiled.ascendc


def test_dump_directory(tmp_path, monkeypatch):
    monkeypatch.setenv("PYASC_DUMP_PATH", str(tmp_path))
    run(2048, cores=2)
    kernel_dir = tmp_path / "vadd"
    assert (kernel_dir / "report.json").exists()
    assert (kernel_dir / "ascendc.cpp").exists()
    assert any((kernel_dir / "passes").iterdir())


@asc2.jit
def _too_big(x_ptr, n: int, TILE: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [n])
    for i in asc2.range(1):
        a = asc2.copy_in(x_gm, [0], [TILE])  # BIG
        asc2.copy_out(a + a, x_gm, [0])


def test_ub_overflow_is_a_compile_error():
    x = np.zeros(16, np.float32)
    with pytest.raises(asc2.CompilationError) as info:
        _too_big[1](x, 16, TILE=1024 * 1024)
    err = info.value
    assert isinstance(err, asc2.MemoryError)
    assert err.file == _too_big.source.file
    assert err.line is not None and err.line >= line_of(_too_big, "def _too_big")
    assert "\n" in str(err)


def test_sample_script_runs():
    import subprocess
    import sys

    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    proc = subprocess.run([sys.executable, os.path.join(root, "samples", "vadd.py"), "--n", "1000", "--n", "8192"],
                          capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.count("vadd: OK") == 2


@asc2.jit
def _grid_stride(x_ptr: asc2.GlobalAddress, y_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress,
                 size: int, num_tiles: int, tile_size: asc2.ConstExpr[int]):
    # The upstream PyAsc2 sample style: grid-stride tiles, real_shape on the tail.
    x_gm = asc2.global_tensor(x_ptr, [size])
    y_gm = asc2.global_tensor(y_ptr, [size])
    out_gm = asc2.global_tensor(out_ptr, [size])
    for t in asc2.range(asc2.block_idx(), num_tiles, asc2.block_num(), unroll_factor=2):
        off = t * tile_size
        n = tile_size if off + tile_size <= size else size - off
        x = asc2.copy_in(x_gm, [off], [tile_size], real_shape=[n])
        y = asc2.copy_in(y_gm, [off], [tile_size], real_shape=[n])
        z = asc2.maximum(x * 2.0 - y, asc2.exp(-asc2.abs(y))) / 3.0
        asc2.copy_out(asc2.relu(z), out_gm, [off], real_shape=[n])


@pytest.mark.parametrize("n,cores", [(1000, 8), (12345, 8), (65536, 48)])
def test_grid_stride_elementwise(n, cores):
    rng = np.random.default_rng(1)
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    out = np.zeros_like(x)
    _grid_stride[cores](x, y, out, n, asc2.ceildiv(n, 256), tile_size=256)
    expected = np.maximum(np.maximum(x * 2 - y, np.exp(-np.abs(y))) / 3, 0)
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-6)
