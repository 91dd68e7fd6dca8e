#!/usr/bin/env bash
# Builds dist/BatchDesk.app for this Mac's architecture, smoke-tests it, signs it and makes the dmg:
#   build_spec/macos/build_macos.sh
# arm64 and x86_64 are separate builds, each on its own kind of Mac (PyInstaller cannot cross-build: every
# wheel would have to be universal2). BATCHDESK_TARGET_ARCH may name the machine's arch explicitly.
# Python: $PYTHON, else .venv/bin/python, else python3, with the package, its extras and pyinstaller.
# Signing and notarization: environment variables in sign_app.sh and make_dmg.sh; skipped when absent.
set -euo pipefail
cd "$(dirname "$0")/../.."
PY="${PYTHON:-}"
[[ -z "$PY" && -x .venv/bin/python ]] && PY=.venv/bin/python
PY="${PY:-python3}"

started=$(date +%s)
rm -rf dist/BatchDesk dist/BatchDesk.app
"$PY" -m PyInstaller --noconfirm --log-level WARN --distpath dist --workpath build/pyinstaller build_spec/batchdesk.spec
echo "build: $(($(date +%s) - started)) s; BatchDesk.app $(du -sh dist/BatchDesk.app | cut -f1)"

build_spec/macos/sign_app.sh dist/BatchDesk.app
PYTHON="$PY" build_spec/smoke_test.sh dist/BatchDesk.app/Contents/MacOS/BatchDesk
build_spec/macos/make_dmg.sh dist/BatchDesk.app
