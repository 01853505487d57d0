"""Helpers for tests of exported kernel projects: the twin's presence and the README's commands."""

import os
import re
import shutil
import subprocess
import sys

from asc2.runtime import project

# Until the CPU twin's kernel_operator.h is in the tree, a project cannot build on the host.
TWIN_DIR = project.twin_dir()
HAS_TWIN = os.path.exists(os.path.join(TWIN_DIR, "kernel_operator.h")) and \
    os.path.exists(os.path.join(TWIN_DIR, "asc2_twin", "launch.h"))
NO_TWIN = f"the CPU twin's headers are not in {TWIN_DIR} (kernel_operator.h, asc2_twin/launch.h)"


def readme_block(path, heading):
    """The shell commands of the README section whose heading contains ``heading``."""
    text = open(os.path.join(path, "README.md"), encoding="utf-8").read()
    section = text[text.index(heading):]
    return re.search(r"```sh\n(.*?)```", section, re.S).group(1)


def python_first(tmp_path):
    """An environment whose ``python3`` is this interpreter (the one with numpy)."""
    bin_dir = tmp_path / "python-bin"
    bin_dir.mkdir(exist_ok=True)
    link = bin_dir / "python3"
    if not link.exists():
        link.symlink_to(sys.executable)
    return dict(os.environ, PATH=f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")


def run_readme(path, heading, tmp_path, timeout=300):
    """Run a README section's commands in a clean copy of the project; returns (copy, CompletedProcess)."""
    clean = tmp_path / (os.path.basename(path) + "-clean")
    shutil.rmtree(clean, ignore_errors=True)
    shutil.copytree(path, clean, ignore=shutil.ignore_patterns("build*", "output"))
    script = "set -e\n" + readme_block(path, heading)
    done = subprocess.run(["bash", "-c", script], cwd=clean, env=python_first(tmp_path), capture_output=True,
                          text=True, timeout=timeout)
    return clean, done
