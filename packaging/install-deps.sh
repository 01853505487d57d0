#!/usr/bin/env bash
# Installs the Debian 12 packages asc2 Workbench builds and runs with.
# Idempotent: does nothing when everything is already installed.
set -euo pipefail

PACKAGES=(
  cmake ninja-build ccache g++ git
  libmlir-19-dev mlir-19-tools llvm-19-dev llvm-19-tools
  qt6-base-dev qt6-svg-dev libqscintilla2-qt6-dev libgraphviz-dev
  pybind11-dev python3-dev python3-numpy python3-pytest
  libgtest-dev xvfb
  libopenblas0-pthread
  python3-torch python3-distributed
  desktop-file-utils appstream dpkg-dev
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
