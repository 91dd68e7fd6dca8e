#!/usr/bin/env bash
# Sets up (first time) and opens BatchDesk on the embedded SQLite database in your data folder.
# Extra arguments go to the app: scripts/run.sh --demo, scripts/run.sh --data-dir DIR, ...
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
exec .venv/bin/python -m desktop_app "$@"
