#!/usr/bin/env bash
# Sets up what BatchDesk needs on this machine: Qt's system libraries and a CJK font (Debian/Ubuntu,
# when missing), and a .venv with the package and its extras. Safe to run again: it skips what is done.
#   scripts/setup.sh            runtime only
#   scripts/setup.sh --test     also the test and lint tools
set -euo pipefail
cd "$(dirname "$0")/.."

want_test=0
[[ "${1:-}" == "--test" ]] && want_test=1

# Qt offscreen and on a desktop (xcb), plus fonts so Chinese text does not render as boxes.
APT_PACKAGES=(libglib2.0-0 libgl1 libegl1 libfontconfig1 libxkbcommon0 libdbus-1-3
              libxcb-cursor0 libxkbcommon-x11-0 libxcb-icccm4 libxcb-keysyms1 libxcb-shape0
              fonts-noto-cjk)
if [[ "$(uname -s)" == "Linux" ]] && command -v dpkg >/dev/null 2>&1; then
  missing=()
  for pkg in "${APT_PACKAGES[@]}"; do
    dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
  done
  if ((${#missing[@]})); then
    SUDO=""
    [[ "$(id -u)" != "0" ]] && command -v sudo >/dev/null 2>&1 && SUDO="sudo"
    if [[ "$(id -u)" == "0" || -n "$SUDO" ]]; then
      echo "setup: installing ${missing[*]}"
      $SUDO apt-get update -qq
      DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    else
      echo "setup: please install these packages (needs root): ${missing[*]}" >&2
    fi
  fi
fi

PY="${PYTHON:-}"
if [[ -z "$PY" ]]; then
  for candidate in python3.11 python3.12 python3.13 python3; do
    if command -v "$candidate" >/dev/null 2>&1 && "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
      PY="$candidate"; break
    fi
  done
fi
[[ -n "$PY" ]] || { echo "setup: Python 3.11 or newer is needed" >&2; exit 1; }

[[ -x .venv/bin/python ]] || "$PY" -m venv .venv
extras="postgresql,mysql"
((want_test)) && extras="test,$extras"
stamp=".venv/.batchdesk-installed-$(cat pyproject.toml | sha256sum | cut -c1-16)-$extras"
# an install with the test extra holds everything the plain one needs: the bundle's build (which asks for
# the plain one) must not reinstall the package under a test run going on beside it (.ci/run)
((want_test)) || [[ ! -f "${stamp%-"$extras"}-test,$extras" ]] || stamp="${stamp%-"$extras"}-test,$extras"
if [[ ! -f "$stamp" ]]; then
  .venv/bin/python -m pip install -q --upgrade pip
  .venv/bin/python -m pip install -q -e ".[$extras]"
  rm -f .venv/.batchdesk-installed-*
  touch "$stamp"
fi
