"""The asc2-workbench binary's command-line modes, run as a user would."""

import base64
import json
import os
import re
import struct
import subprocess
import sys
from pathlib import Path

import pytest

WORKBENCH = os.environ.get("ASC2_WORKBENCH")
SOURCE_DIR = Path(os.environ.get("ASC2_SOURCE_DIR", Path(__file__).resolve().parents[2]))
VADD = SOURCE_DIR / "samples" / "vadd.py"
SOFTMAX = SOURCE_DIR / "samples" / "softmax.py"

pytestmark = pytest.mark.skipif(not WORKBENCH, reason="ASC2_WORKBENCH is not set (run through ctest)")


def run(args, tmp_path, timeout=300):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", ASC2_CACHE_DIR=str(tmp_path / "cache"))
    return subprocess.run([WORKBENCH, *map(str, args)], capture_output=True, text=True,
                          timeout=timeout, env=env)


def script(tmp_path, text, name="script.py"):
    path = tmp_path / name
    path.write_text(text)
    return path


def png_size(path):
    data = Path(path).read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_headless_streams_output_and_succeeds(tmp_path):
    path = script(tmp_path, "import sys\nprint('hello', __name__)\nprint('warn', file=sys.stderr)\n")
    result = run(["--headless", path], tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "hello __main__\n"
    assert "warn\n" in result.stderr


def test_headless_exception_fails_with_traceback(tmp_path):
    path = script(tmp_path, "def f():\n    raise ValueError('bad tile')\nf()\n")
    result = run(["--headless", path], tmp_path)
    assert result.returncode == 1
    assert "Traceback (most recent call last)" in result.stderr
    assert "ValueError: bad tile" in result.stderr


def test_headless_passes_the_exit_code_through(tmp_path):
    result = run(["--headless", script(tmp_path, "import sys\nsys.exit(3)\n")], tmp_path)
    assert result.returncode == 3


def test_headless_sets_platform_and_backend(tmp_path):
    path = script(tmp_path, "import os\nprint(os.environ['ASC2_PLATFORM'], os.environ['ASC2_BACKEND'])\n")
    result = run(["--headless", path, "--platform", "Ascend910B4", "--backend", "Model"], tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "Ascend910B4 Model"


def test_headless_passes_arguments_after_double_dash(tmp_path):
    path = script(tmp_path, "import sys\nprint(sys.argv[1:])\n")
    result = run(["--headless", path, "--", "--n", "8192"], tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "['--n', '8192']"


def test_headless_missing_file_is_an_error(tmp_path):
    result = run(["--headless", tmp_path / "nope.py"], tmp_path)
    assert result.returncode == 2
    assert "cannot open" in result.stderr


def test_headless_report_of_a_failed_run_says_so(tmp_path):
    path = script(tmp_path, "raise RuntimeError('no')\n")
    report_dir = tmp_path / "report"
    result = run(["--headless", path, "--report", report_dir], tmp_path)
    assert result.returncode == 1
    report = json.loads((report_dir / "report.json").read_text())
    assert report["schema"] == "asc2.report/1"
    assert report["file"] == str(path)
    assert report["ok"] is False
    assert report["kernels"] == []
    assert str(report_dir / "report.json") in result.stderr


def test_screenshot_of_a_plain_script(tmp_path):
    path = script(tmp_path, "print('pixels')\n")
    out = tmp_path / "shot.png"
    result = run(["--screenshot", out, "--view", "console", path], tmp_path)
    assert result.returncode == 0, result.stderr
    assert png_size(out) == (1600, 1000)


def test_screenshot_of_a_failing_script_exits_non_zero(tmp_path):
    path = script(tmp_path, "1 / 0\n")
    out = tmp_path / "shot.png"
    result = run(["--screenshot", out, path], tmp_path)
    assert result.returncode != 0
    assert "ZeroDivisionError" in result.stderr
    assert out.exists()  # still written: it shows what went wrong


def test_help_needs_no_display(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    for flag in ("--help", "--version"):
        result = subprocess.run([WORKBENCH, flag], capture_output=True, text=True, timeout=60, env=env)
        assert result.returncode == 0, result.stderr
    help_text = subprocess.run([WORKBENCH, "--help"], capture_output=True, text=True, timeout=60, env=env).stdout
    assert "--headless" in help_text and "--platform" in help_text


def test_the_window_takes_platform_as_the_target_not_as_qts_plugin(tmp_path):
    # Qt's own --platform names the windowing plugin; ours the Ascend target.
    path = script(tmp_path, "import os, sys\nprint('target', os.environ['ASC2_PLATFORM'], file=sys.stderr)\n")
    out = tmp_path / "shot.png"
    for args in (["--platform", "Ascend950"], ["--platform=Ascend950"]):
        result = run(["--screenshot", out, *args, path], tmp_path)
        assert result.returncode == 0, result.stderr
        assert "target Ascend950\n" in result.stderr


def test_screenshot_rejects_an_unknown_view(tmp_path):
    path = script(tmp_path, "pass\n")
    result = run(["--screenshot", tmp_path / "x.png", "--view", "nonsense", path], tmp_path)
    assert result.returncode == 2
    assert "unknown view" in result.stderr


@pytest.mark.skipif(not VADD.exists(), reason="samples/vadd.py is not there yet")
def test_headless_vadd_writes_the_full_report(tmp_path):
    report_dir = tmp_path / "report"
    result = run(["--headless", VADD, "--report", report_dir], tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "vadd: OK" in result.stdout
    report = json.loads((report_dir / "report.json").read_text())
    assert report["schema"] == "asc2.report/1"
    assert report["ok"] is True
    assert report["kernels"], "no kernel was reported"
    kernel = report["kernels"][0]
    assert kernel["kernel"] == "vadd"
    assert len(kernel["passes"]) >= 5
    assert all(p["ir"] for p in kernel["passes"][:1])
    assert kernel["launches"] and kernel["launches"][-1]["ok"] is True
    assert (report_dir / "trace.json").stat().st_size > 0
    json.loads((report_dir / "trace.json").read_text())
    assert (report_dir / "vadd" / "ascendc.cpp").stat().st_size > 0
    assert list((report_dir / "vadd" / "passes").glob("*.mlir"))


@pytest.mark.skipif(not VADD.exists(), reason="samples/vadd.py is not there yet")
@pytest.mark.parametrize("view,theme", [("passes", "light"), ("ascendc", "light"), ("diff", "light"),
                                        ("diff", "dark"), ("editor", "dark"), ("ub-map", "light"),
                                        ("sync", "light"), ("pingpong", "dark"), ("graph", "light"),
                                        ("profile", "light")])
def test_screenshot_of_vadd(tmp_path, view, theme):
    out = tmp_path / f"vadd-{view}-{theme}.png"
    # One size is enough for a picture.
    result = run(["--screenshot", out, "--view", view, "--theme", theme, VADD, "--", "--n", "8192"], tmp_path)
    assert result.returncode == 0, result.stderr
    assert png_size(out) == (1600, 1000)
    keep = os.environ.get("ASC2_TEST_SCREENSHOTS")
    if keep:
        Path(keep, out.name).write_bytes(out.read_bytes())


def test_help_lists_the_exports(tmp_path):
    result = run(["--help"], tmp_path)
    assert result.returncode == 0, result.stderr
    assert "--export-html <OUT.html>" in result.stdout
    assert "--export-trace <OUT.json>" in result.stdout
    assert "Perfetto" in result.stdout


def test_exports_need_headless(tmp_path):
    path = script(tmp_path, "pass\n")
    result = run(["--screenshot", tmp_path / "x.png", "--export-html", tmp_path / "r.html", path], tmp_path)
    assert result.returncode == 2
    assert "go with --headless" in result.stderr


def test_export_trace_without_a_launch_fails(tmp_path):
    path = script(tmp_path, "print('no kernel here')\n")
    out = tmp_path / "trace.json"
    result = run(["--headless", path, "--export-trace", out], tmp_path)
    assert result.returncode == 1
    assert "no simulated trace" in result.stderr
    assert not out.exists()


@pytest.fixture(scope="module")
def softmax_exports(tmp_path_factory):
    """One headless run of samples/softmax.py writing both exports."""
    tmp_path = tmp_path_factory.mktemp("softmax")
    html, trace = tmp_path / "softmax.html", tmp_path / "softmax-trace.json"
    result = run(["--headless", SOFTMAX, "--export-html", html, "--export-trace", trace], tmp_path)
    return result, html, trace


@pytest.mark.skipif(not SOFTMAX.exists(), reason="samples/softmax.py is not there yet")
def test_export_html_of_softmax(softmax_exports):
    result, html, _ = softmax_exports
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"HTML report written to {html}" in result.stderr
    raw = html.read_bytes()
    text = raw.decode("utf-8")
    assert text.startswith("<!DOCTYPE html>")
    # Every kernel of the script (softmax.py compiles two), listed on top and
    # each with the sections of a run: passes, UB map, timeline (both modes),
    # ping-pong, profile.
    assert "<h1>softmax.py</h1>" in text
    for k, kernel in ((1, "softmax"), (2, "softmax_fused")):
        assert f'<a href="#k{k}-kernel">{kernel}</a>' in text
        assert f'<h1 id="k{k}-kernel">{kernel}</h1>' in text
        for section in ("passes", "final-ir", "ub-map", "sync-timeline-program-order", "sync-timeline-simulated",
                        "ping-pong-schedule", "pipe-utilization", "profile", "sync"):
            assert f'id="k{k}-{section}"' in text, (k, section)
    # µ once encoded (the hot-lines header was Latin-1 bytes read as UTF-8: "Âµs").
    assert "busy \u00b5s" in text and "\u00c2" not in text
    # Names read from the left, numbers line up on the right.
    assert "td,th{border:1px solid #ccc;padding:2px 8px;text-align:left}td.n,th.n{text-align:right}" in text
    assert re.search(r'<tr><td class="n">\d+</td><td>[a-z-]+</td>', text)
    # Self-contained: every image is inline, nothing is fetched.
    assert "http://" not in text and "https://" not in text
    sources = re.findall(r'src="([^"]*)"', text)
    assert len(sources) == 10
    for source in sources:
        assert source.startswith("data:image/png;base64,")
        png = base64.b64decode(source.split(",", 1)[1])
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
        width, height = struct.unpack(">II", png[16:24])
        assert width >= 900 and height >= 100
    # The ping-pong image is as tall as its rows (a few iterations per core
    # here), not a fixed 420 px of blank.
    titles = re.findall(r'<img alt="([^"]*)" src="data:image/png;base64,([^"]*)"', text)
    pingpong = [base64.b64decode(b) for alt, b in titles if alt == "Ping-pong schedule"]
    assert len(pingpong) == 2
    assert all(struct.unpack(">II", png[16:24])[1] < 400 for png in pingpong)
    assert "<link" not in text and "<script" not in text


MIX_SAMPLE = SOURCE_DIR / "samples" / "matmul_leaky_relu.py"


@pytest.mark.skipif(not MIX_SAMPLE.exists(), reason="samples/matmul_leaky_relu.py is not there")
def test_export_html_of_a_mix_kernel_shows_both_sides(tmp_path):
    html = tmp_path / "mix.html"
    result = run(["--headless", MIX_SAMPLE, "--export-html", html], tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    text = html.read_text(encoding="utf-8")
    alts = re.findall(r'<img alt="([^"]*)"', text)
    for side in ("core0.cubecore0", "core0.veccore0", "core0.veccore1"):  # MIX_AIC_1_2: both AIVs
        assert f"Sync timeline (simulated, {side})" in alts, alts
        assert f"Ping-pong schedule ({side})" in alts, alts


@pytest.mark.skipif(not SOFTMAX.exists(), reason="samples/softmax.py is not there yet")
def test_export_trace_of_softmax(softmax_exports):
    result, _, trace = softmax_exports
    assert result.returncode == 0, result.stdout + result.stderr
    data = json.loads(trace.read_text())
    events = data["traceEvents"]
    assert isinstance(events, list) and events
    # Perfetto wants numbers for pid/tid; the names are metadata.
    assert all(isinstance(e["pid"], int) for e in events)
    assert all(isinstance(e["tid"], int) for e in events if "tid" in e)
    lanes = {(e["pid"], e["tid"]): e["args"]["name"] for e in events
             if e.get("ph") == "M" and e.get("name") == "thread_name"}
    processes = {e["pid"]: e["args"]["name"] for e in events if e.get("ph") == "M" and e.get("name") == "process_name"}
    assert processes and all(name.startswith("core") for name in processes.values())
    # The vector kernel's pipes, each with instructions on it.
    busy = {lanes[(e["pid"], e["tid"])] for e in events if e.get("ph") == "X"}
    assert {"MTE2", "VECTOR", "MTE3"} <= busy, busy
    assert all(e["dur"] >= 0 and e["ts"] >= 0 for e in events if e.get("ph") == "X")
    # set_flag -> wait_flag arrows come as flow events.
    assert any(e.get("ph") == "s" for e in events) and any(e.get("ph") == "f" for e in events)


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q"]))


def test_export_project_writes_every_launched_kernel(tmp_path):
    out = tmp_path / "projects"
    result = run(["--export-project", out, SOFTMAX], tmp_path)
    assert result.returncode == 0, result.stderr
    for kernel in ("softmax", "softmax_fused"):
        meta = json.loads((out / kernel / "kernel.json").read_text())
        assert meta["kernel"] == kernel and meta["golden"] is True
        assert (out / kernel / "golden").is_dir() and (out / kernel / "CMakeLists.txt").is_file()
        assert f"asc2: exported {kernel} to {out / kernel}" in result.stderr


def test_export_project_without_a_launch_fails(tmp_path):
    result = run(["--export-project", tmp_path / "p", script(tmp_path, "print('no kernel here')\n")], tmp_path)
    assert result.returncode == 1
    assert "--export-project: " in result.stderr and "launched no kernel, so there is nothing to export" in result.stderr
