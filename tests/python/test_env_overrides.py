"""Environment overrides of asc2.jit options: compile only, insert_sync, reuse_alloc (the workbench toolbar), num_stages."""

import numpy as np
import pytest

import asc2
from conftest import requires_native


@asc2.jit
def scaled(x_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress, n: int):
    x_gm = asc2.global_tensor(x_ptr, [n])
    out_gm = asc2.global_tensor(out_ptr, [n])
    for t in asc2.range(asc2.block_idx(), asc2.ceildiv(n, 64), asc2.block_num()):
        x = asc2.copy_in(x_gm, [t * 64], [64])
        asc2.copy_out(asc2.exp(x) * 2.0, out_gm, [t * 64])


def _run(monkeypatch, **env):
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    x = np.linspace(-1, 1, 300, dtype=np.float32)
    out = np.zeros_like(x)
    scaled[2](x, out, 300)
    return x, out, scaled.last_report


@requires_native
def test_compile_only_does_not_run(monkeypatch):
    x, out, report = _run(monkeypatch, ASC2_COMPILE_ONLY="1")
    assert not out.any(), "compile only must not touch the arrays"
    # In both modes a launch leaves report["launch"]: None says it only compiled.
    assert report["passes"] and report["launch"] is None


@requires_native
def test_compile_only_writes_the_dump_without_a_trace(monkeypatch, tmp_path):
    _run(monkeypatch, ASC2_COMPILE_ONLY="1", ASC2_DUMP_PATH=str(tmp_path))
    kernel_dir = tmp_path / "scaled"
    assert (kernel_dir / "report.json").exists() and (kernel_dir / "ascendc.cpp").exists()
    assert any((kernel_dir / "passes").iterdir())
    assert not (kernel_dir / "trace.json").exists()


@requires_native
def test_insert_sync_override_reaches_the_compiler(monkeypatch):
    # Without sync insertion the kernel races, and the simulator says so.
    with pytest.raises(asc2.SimulationError, match="data race"):
        _run(monkeypatch, ASC2_JIT_INSERT_SYNC="0")
    report = scaled.last_report
    assert report["options"]["insert_sync"] == "false"
    assert not [s for s in report["sync"] if s["kind"] != "pipe_barrier"]


@requires_native
def test_reuse_alloc_override_and_cache_key(monkeypatch):
    x, out, report = _run(monkeypatch, ASC2_JIT_REUSE_ALLOC="0")
    assert report["options"]["reuse_alloc"] == "0"
    np.testing.assert_allclose(out, np.exp(x) * 2, rtol=1e-6)
    monkeypatch.delenv("ASC2_JIT_REUSE_ALLOC")
    _, _, again = _run(monkeypatch)
    assert again["options"].get("reuse_alloc") != "0"


def test_bad_override_is_a_clear_error(monkeypatch):
    from asc2.runtime.jit import effective_options, validate_options
    monkeypatch.setenv("ASC2_JIT_INSERT_SYNC", "maybe")
    with pytest.raises(ValueError, match="ASC2_JIT_INSERT_SYNC"):
        effective_options(validate_options({}))


@requires_native
def test_num_stages_override_sets_the_ping_pong_depth(monkeypatch):
    # The loop loads tiles, so the compiler ping-pongs it (two buffers of the loaded tile);
    # ASC2_JIT_NUM_STAGES=1 compiles it as upstream PyAsc2 would: one buffer per tile.
    def copy_calls(report):
        return report["ascendc"].count("AscendC::DataCopyPad(")
    x, out, report = _run(monkeypatch)
    pingpong = copy_calls(report)
    assert "num_stages" not in report["options"]
    x, out, report = _run(monkeypatch, ASC2_JIT_NUM_STAGES="1")
    assert report["options"]["num_stages"] == "1"
    np.testing.assert_allclose(out, np.exp(x) * 2, rtol=1e-6)
    assert copy_calls(report) * 2 == pingpong, "one copy of the loop body instead of two"
    monkeypatch.setenv("ASC2_JIT_NUM_STAGES", "0")
    with pytest.raises(ValueError, match="num_stages"):
        scaled[2](x, out, 300)
