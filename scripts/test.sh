#!/usr/bin/env bash
# Sets up (first time) and runs the whole test suite: unit, gui (offscreen) and integration, against
# SQLite, PostgreSQL (127.0.0.1:5432, database test) and MariaDB (127.0.0.1:3306, database test).
# With CI=true an unreachable database fails the run instead of skipping. Extra arguments go to pytest.
# Two stages: every test not marked slow on parallel workers (pytest-xdist, BATCHDESK_TEST_WORKERS,
# default 6; each test has its own schema and tmp_path, so workers do not collide), then the slow ones
# (kill -9, crash and fault campaigns) on BATCHDESK_SLOW_WORKERS (default 3), each test to the next free
# worker. More workers than a 2-core machine's cores, measured: a few fast-stage files wait on real time
# (outages, a frozen desk, heartbeats: 17-43 s a test) while the other workers have CPU to use; the fast
# stage took 487 s on 6 workers against 568 s on 4 once its CPU had halved (docs/BENCHMARKS.md, "The test
# suite").
# BATCHDESK_TEST_RANDOM=1 runs each stage in random order (pytest-random-order; the seed is printed).
# BATCHDESK_TEST_STAGES=together runs the two stages at once (below).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --test
export QT_QPA_PLATFORM=offscreen
# Machines of this kind set PYTHONDONTWRITEBYTECODE=1: every pytest worker then rewrote the asserts of
# every test module again (13 s of CPU for a collection, 4.5 s from the cache) and every command run as
# a process of its own compiled BatchDesk again (0.8 s, 0.5 s from the cache). The caches are written
# once, by a collection run beside ruff and mypy (docs/BENCHMARKS.md, "The test suite").
unset PYTHONDONTWRITEBYTECODE
.venv/bin/python -m pytest --collect-only -q -p no:cacheprovider >/dev/null 2>&1 &
warm=$!
.venv/bin/ruff check desktop_app tests bench
.venv/bin/mypy
wait "$warm" || true  # a collection error shows again, in words, in the stage below
order=()
if [[ "${BATCHDESK_TEST_RANDOM:-}" == 1 ]]; then
  order=(--random-order)
fi
stage() {  # pytest exits 5 when a stage selects no test (extra arguments naming only fast or slow ones)
  local rc=0
  .venv/bin/python -m pytest --durations=10 ${order[@]+"${order[@]}"} "$@" || rc=$?
  [[ $rc == 5 ]] && return 0
  return $rc
}
fast=(-n "${BATCHDESK_TEST_WORKERS:-6}" --dist loadfile -m "not slow")
slow=(-n "${BATCHDESK_SLOW_WORKERS:-3}" --dist load -m slow)
if [[ "${BATCHDESK_TEST_STAGES:-serial}" == serial ]]; then
  stage "${fast[@]}" "$@"
  stage "${slow[@]}" "$@"
  exit 0
fi
# BATCHDESK_TEST_STAGES=together: the slow stage runs beside the fast one, each line of its output marked
# "slow| ", each stage with its own temporary folder; the run fails when either stage fails. Measured on a
# fresh clone (docs/BENCHMARKS.md, "The test suite"): no faster than one after the other (19.8 min with
# the bundle built beside them, against 18.0), so it is not the default.
tmp="${TMPDIR:-/tmp}/batchdesk-tests-$$"
rm -rf "$tmp" && mkdir -p "$tmp"
( stage "${slow[@]}" --basetemp "$tmp/slow" "$@" 2>&1 | sed -u 's/^/slow| /'; exit "${PIPESTATUS[0]}" ) &
slow_pid=$!
fast_rc=0
stage "${fast[@]}" --basetemp "$tmp/fast" "$@" || fast_rc=$?
slow_rc=0
wait "$slow_pid" || slow_rc=$?
echo "test.sh: fast stage exit $fast_rc, slow stage exit $slow_rc"
(( fast_rc == 0 && slow_rc == 0 )) && rm -rf "$tmp"  # kept after a failure, to look at
(( fast_rc == 0 && slow_rc == 0 ))
