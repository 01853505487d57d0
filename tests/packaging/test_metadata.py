"""The desktop entry, the AppStream metadata and the icon: Debian's validators pass them and they
name each other (id, desktop file, icon, binary, release version) consistently."""

import configparser
import os
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

SOURCE_DIR = Path(os.environ.get("ASC2_SOURCE_DIR", Path(__file__).resolve().parents[2]))
PACKAGING = SOURCE_DIR / "packaging"
APP_ID = "org.asc2.Workbench"
DESKTOP = PACKAGING / f"{APP_ID}.desktop"
METAINFO = PACKAGING / f"{APP_ID}.metainfo.xml"
ICON = PACKAGING / f"{APP_ID}.svg"
# Debian's tools run without the sanitizer runtimes `make test-asan` preloads into the suite's
# processes: they are not ours to check, and appstreamcli hangs under a preloaded ASan.
TOOL_ENV = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}


def desktop_entry():
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str  # keys are case-sensitive
    parser.read(DESKTOP, encoding="utf-8")
    return parser["Desktop Entry"]


def test_desktop_file_validate_passes_without_a_remark():
    result = subprocess.run(["desktop-file-validate", str(DESKTOP)], capture_output=True, text=True, env=TOOL_ENV)
    assert result.returncode == 0 and not (result.stdout + result.stderr).strip(), result.stdout + result.stderr


def test_appstreamcli_validate_passes_strictly_offline():
    # --strict fails on infos too; pedantic hints (an id with capitals) are not issues.
    result = subprocess.run(["appstreamcli", "validate", "--no-net", "--strict", str(METAINFO)],
                            capture_output=True, text=True, env=TOOL_ENV)
    assert result.returncode == 0, result.stdout + result.stderr


def test_metainfo_desktop_entry_and_icon_name_one_app():
    root = ET.parse(METAINFO).getroot()
    assert root.findtext("id") == APP_ID
    assert root.findtext("launchable[@type='desktop-id']") == DESKTOP.name
    entry = desktop_entry()
    assert entry["Icon"] == APP_ID
    program = entry["Exec"].split()[0]
    assert program in [b.text for b in root.findall("provides/binary")]
    assert entry["TryExec"] == program
    svg = ET.parse(ICON).getroot()
    assert svg.tag == "{http://www.w3.org/2000/svg}svg" and svg.get("viewBox") == "0 0 128 128"


def test_metainfo_lists_this_release():
    version = os.environ.get("ASC2_VERSION")
    assert version, "ASC2_VERSION (the CMake project version) is not set: run through ctest"
    releases = [r.get("version") for r in ET.parse(METAINFO).getroot().findall("releases/release")]
    assert releases and releases[0] == version, f"newest <release> is {releases[:1]}, the project is {version}"
