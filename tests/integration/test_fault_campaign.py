"""The fault campaign: kill -9 at random points during a large import, short imports and an export, with
restarts; every task ends with exact counts, each row once, no half-written file, the database whole.

Bounded for the normal suite (20,000 rows, 6 kills); the soak (docs/RELIABILITY.md) sets
BATCHDESK_CAMPAIGN_ROWS=200000 BATCHDESK_CAMPAIGN_KILLS=30 and a seed.
"""

from __future__ import annotations

import csv
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from desktop_app.app import Core, build_core
from desktop_app.domain.status import TaskStatus
from desktop_app.tasks.submit import submit_file
from tests.support.customers import HEADER, error_rows, row, write_csv

ROOT = Path(__file__).resolve().parents[2]
ROWS = int(os.environ.get("BATCHDESK_CAMPAIGN_ROWS", "20000"))
KILLS = int(os.environ.get("BATCHDESK_CAMPAIGN_KILLS", "6"))
SEED = int(os.environ.get("BATCHDESK_CAMPAIGN_SEED", str(int(time.time()))))
BAD_EVERY = 1000
SHORT_FILES, SHORT_ROWS = 8, 50

pytestmark = [pytest.mark.slow, pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")]


def _worker(data_dir: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "desktop_app", "worker", "--workers", "2"],
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT), "BATCHDESK_HOME": str(data_dir)},
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip


def _done_rows(core: Core) -> int:
    return sum(t.success_count + t.fail_count for t in core.store.list())


def _wait(predicate: Callable[[], bool], timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return False


def _integrity(path: Path) -> str:
    conn = sqlite3.connect(path)
    try:
        return str(conn.execute("PRAGMA integrity_check").fetchone()[0])
    finally:
        conn.close()


class Campaign:
    def __init__(self, core: Core, rng: random.Random) -> None:
        self.core, self.rng = core, rng
        self.kills = 0
        self.trials = 0

    def run(self, kills: int, settle: float = 600) -> None:
        """Start a worker, kill -9 it at a random point once work is under way, `kills` times, each after
        the work moved on (a crash without progress is the crash loop the cap is there for); then a last
        worker runs everything to its end."""
        for _ in range(kills):
            before = _done_rows(self.core)
            worker = _worker(self.core.paths.data_dir)
            try:
                moved = _wait(lambda before=before: _done_rows(self.core) > before, 120)
                if not moved or all(t.status.is_final for t in self.core.store.list()):
                    break  # nothing left to interrupt
                time.sleep(self.rng.uniform(0.0, 1.5))
            finally:
                worker.send_signal(signal.SIGKILL)
                worker.wait(30)
            self.kills += 1
            self.trials += 1
            assert _integrity(self.core.paths.database_file) == "ok"
        worker = _worker(self.core.paths.data_dir)
        try:
            assert _wait(lambda: all(t.status.is_final for t in self.core.store.list()), settle), [
                (t.task_no, t.status.value, t.stage) for t in self.core.store.list() if not t.status.is_final
            ]
        finally:
            worker.terminate()
            worker.wait(60)
        self.trials += 1


def _big_file(path: Path) -> Path:
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(HEADER)
        for i in range(1, ROWS + 1):
            writer.writerow(row(i, 手机号="bad") if i % BAD_EVERY == 0 else row(i))
    return path


def test_kill_9_campaign(tmp_path: Path) -> None:
    rng = random.Random(SEED)
    data_dir = tmp_path / "data"
    core = build_core(data_dir=data_dir)
    try:
        params = {"import_type": "customers", "dry_run": False, "batch_size": 500}
        big = submit_file(core.store, core.registry, task_type="import", path=_big_file(tmp_path / "big.csv"),
                          user="tester", params=params).task  # fmt: skip
        shorts = []
        for n in range(SHORT_FILES):
            first = ROWS + 1 + n * SHORT_ROWS
            path = write_csv(tmp_path / f"short{n}.csv", [row(i) for i in range(first, first + SHORT_ROWS)])
            shorts.append(submit_file(core.store, core.registry, task_type="import", path=path, user="tester",
                                      params=params).task)  # fmt: skip
        campaign = Campaign(core, rng)
        campaign.run(KILLS)
        export = core.submitter().submit_export("customers", filters={}, user="tester").task
        # An export starts again from its first row after a crash (it has no checkpoint), so each kill
        # during it is a recovery without progress: more than max_recoveries of them end it worker_lost.
        campaign.run(min(core.settings.max_recoveries, max(1, KILLS // 3)))

        bad = ROWS // BAD_EVERY
        expected = ROWS - bad + SHORT_FILES * SHORT_ROWS
        ended = core.store.get_by_id(big.id)
        assert ended is not None and ended.status is TaskStatus.PARTIALLY_SUCCEEDED, (ended.error_code, ended.error_msg)
        assert (ended.total_count, ended.success_count, ended.fail_count) == (ROWS, ROWS - bad, bad)
        named = [int(next(iter(r.values()))) for r in error_rows(ended)]  # the row number, in either language
        assert sorted(named) == [i + 1 for i in range(BAD_EVERY, ROWS + 1, BAD_EVERY)]  # each bad row once
        for task in shorts:
            done = core.store.get_by_id(task.id)
            assert done is not None and done.status is TaskStatus.SUCCEEDED and done.success_count == SHORT_ROWS
        with core.store.reading() as conn:
            count, distinct = conn.exec_driver_sql("SELECT COUNT(*), COUNT(DISTINCT code) FROM customers").one()
        exported = core.store.get_by_id(export.id)
        assert exported is not None and exported.status is TaskStatus.SUCCEEDED, (
            exported.error_code,
            exported.error_msg,
        )
        with open(exported.result_path or "", encoding="utf-8-sig", newline="") as handle:
            export_rows = sum(1 for _ in csv.reader(handle)) - 1
        assert [t for t in core.store.list() if not t.status.is_final] == []
        assert list(core.paths.work_dir.glob("*.part")) == []  # no half-written file left
        assert _integrity(core.paths.database_file) == "ok"
        lost, duplicated = expected - distinct, count - distinct
        print(f"\nfault campaign (seed {SEED}): trials {campaign.trials}, faults injected {campaign.kills} "
              f"(kill -9), rows checked {count + export_rows}, lost {lost}, duplicated {duplicated}, "
              f"export rows {export_rows}")  # fmt: skip
        assert (lost, duplicated) == (0, 0)
        assert export_rows == count
    finally:
        core.store.engine.dispose()
