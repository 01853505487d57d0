"""The asc2-workbench binary's command-line modes, run as a user would."""

import json
import os
import struct
import subprocess
import sys
from pathlib import Path

import pytest

WORKBENCH = os.environ.get("ASC2_WORKBENCH")
SOURCE_DIR = Path(os.environ.get("ASC2_SOURCE_DIR", Path(__file__).resolve().parents[2]))
VADD = SOURCE_DIR / "samples" / "vadd.py"

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


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q"]))
