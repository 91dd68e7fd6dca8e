#!/usr/bin/env bash
# Sets up (first time) and runs the whole test suite: unit, gui (offscreen) and integration, against
# SQLite, PostgreSQL (127.0.0.1:5432, database test) and MariaDB (127.0.0.1:3306, database test).
# With CI=true an unreachable database fails the run instead of skipping. Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --test
export QT_QPA_PLATFORM=offscreen
.venv/bin/ruff check desktop_app tests bench
.venv/bin/mypy
exec .venv/bin/python -m pytest "$@"
