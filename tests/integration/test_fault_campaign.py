"""The fault campaign: kill -9 at random points during a large import, short imports and an export, with
restarts, on every database; on a server, its sessions of the desk also ended for seconds mid-import.
Every task ends with exact counts, each row once, no half-written file, the database whole.

Bounded for the normal suite (SQLite 20,000 rows and 6 kills; a server 10,000 rows, 4 kills and one
drop of its sessions); the soak (scripts/fault_soak.sh, docs/RELIABILITY.md) sets
BATCHDESK_CAMPAIGN_ROWS, _KILLS, _DROPS and a seed.
"""

from __future__ import annotations

import csv
import os
import random
import signal
import sqlite3
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine, create_engine

from desktop_app.app import Core, build_core
from desktop_app.domain.status import TaskStatus
from desktop_app.tasks.submit import submit_file
from tests.support.backends import MYSQL_URL, PG_URL, fresh_database, selected_backends
from tests.support.customers import HEADER, error_rows, row, write_csv
from tests.support.faults import end_sessions, named_url
from tests.support.forked import Forked, cli_main, fork_server  # noqa: F401  (fork_server: pytestmark's)

ROOT = Path(__file__).resolve().parents[2]
SEED = int(os.environ.get("BATCHDESK_CAMPAIGN_SEED", str(int(time.time()))))
BAD_EVERY = 1000
SHORT_FILES, SHORT_ROWS = 8, 50
DROP_S = 4.0  # each drop: the server ends every session of the desk, again and again, this long

pytestmark = [pytest.mark.slow, pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals"),
              pytest.mark.usefixtures("fork_server")]  # fmt: skip


def _bound(name: str, sqlite: int, server: int, backend: str) -> int:
    """A campaign's size: the soak's environment variable, else the suite's bound for the back-end."""
    value = os.environ.get(f"BATCHDESK_CAMPAIGN_{name}")
    return int(value) if value else (sqlite if backend == "sqlite" else server)


class Desk:
    """The campaign's database and how to end its sessions from outside (the server's side of an outage)."""

    def __init__(self, backend: str, url: str | None) -> None:
        self.backend, self.url = backend, url
        self.admin: Engine | None = None
        if backend == "postgresql":
            self.admin = create_engine(PG_URL, isolation_level="AUTOCOMMIT")
        elif backend == "mariadb":
            self.admin = create_engine(MYSQL_URL, isolation_level="AUTOCOMMIT")

    def end_sessions(self) -> int:
        assert self.admin is not None and self.url is not None
        return end_sessions(self.admin, self.url)

    def dispose(self) -> None:
        if self.admin is not None:
            self.admin.dispose()


@pytest.fixture(params=selected_backends())
def desk(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Core, Desk]]:
    backend: str = request.param
    data_dir = tmp_path / "data"
    if backend == "sqlite":
        core, place = build_core(data_dir=data_dir), Desk(backend, None)
        yield core, place
        core.store.engine.dispose()
        return
    with fresh_database(backend, tmp_path) as url:
        url = named_url(url, "bd_campaign_" + tmp_path.name[-8:].replace("-", "_"))  # its sessions, by name
        core, place = build_core(data_dir=data_dir, db_url=url), Desk(backend, url)
        try:
            yield core, place
        finally:
            core.store.engine.dispose()
            place.dispose()


def _worker(core: Core, desk: Desk) -> Forked:
    """`python -m desktop_app worker --workers 2`, forked (tests/support/forked.py)."""
    db = ["--db", desk.url] if desk.url else []
    stderr_file = core.paths.data_dir.parent / f"worker-{time.monotonic_ns()}.err"
    return Forked(cli_main, ["worker", "--workers", "2", *db], stderr_file,
                  {"BATCHDESK_HOME": str(core.paths.data_dir)})  # fmt: skip


def _done_rows(core: Core) -> int:
    return sum(t.success_count + t.fail_count for t in core.store.list())


def _wait(predicate: Callable[[], bool], timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return False


def _integrity(core: Core) -> str:
    if core.store.engine.dialect.name != "sqlite":
        return "ok"  # a server checks its own pages; the counts below check the rows
    conn = sqlite3.connect(core.paths.database_file)
    try:
        return str(conn.execute("PRAGMA integrity_check").fetchone()[0])
    finally:
        conn.close()


class Campaign:
    def __init__(self, core: Core, desk: Desk, rng: random.Random) -> None:
        self.core, self.desk, self.rng = core, desk, rng
        self.kills = 0
        self.drops = 0  # times the server ended the desk's sessions for DROP_S
        self.sessions_ended = 0
        self.trials = 0

    def _all_final(self) -> bool:
        return all(t.status.is_final for t in self.core.store.list())

    def run(self, kills: int, drops: int = 0, settle: float = 600) -> None:
        """Start a worker, kill -9 it at a random point once work is under way, `kills` times, each after
        the work moved on (a crash without progress is the crash loop the cap is there for); `drops` of
        those trials first end the desk's sessions from the server for DROP_S while the worker lives on
        (it must reconnect, resume from its checkpoint and write each row once). Then a last worker runs
        everything to its end."""
        for trial in range(kills):
            before = _done_rows(self.core)
            worker = _worker(self.core, self.desk)
            try:
                # work moved on, or there was none left (waited out for 120 s before: twice a campaign,
                # when a kill came after the last task had ended)
                moved = _wait(lambda before=before: _done_rows(self.core) > before or self._all_final(), 120)
                if not moved or self._all_final():
                    break  # nothing left to interrupt
                if trial < drops:
                    self._drop()
                    moved_again = _done_rows(self.core)
                    _wait(lambda m=moved_again: _done_rows(self.core) > m or self._all_final(), 120)
                    if self._all_final():
                        break
                time.sleep(self.rng.uniform(0.0, 1.5))
            finally:
                worker.send_signal(signal.SIGKILL)
                worker.wait(30)
            self.kills += 1
            self.trials += 1
            assert _integrity(self.core) == "ok"
        worker = _worker(self.core, self.desk)
        try:
            assert _wait(self._all_final, settle), [
                (t.task_no, t.status.value, t.stage) for t in self.core.store.list() if not t.status.is_final
            ]
        finally:
            worker.terminate()
            worker.wait(60)
        self.trials += 1

    def _drop(self) -> None:
        end = time.monotonic() + DROP_S
        while time.monotonic() < end:
            self.sessions_ended += self.desk.end_sessions()
            time.sleep(0.02)
        self.drops += 1


def _big_file(path: Path, rows: int) -> Path:
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(HEADER)
        for i in range(1, rows + 1):
            writer.writerow(row(i, 手机号="bad") if i % BAD_EVERY == 0 else row(i))
    return path


def test_kill_9_campaign(desk: tuple[Core, Desk], tmp_path: Path) -> None:
    core, place = desk
    backend = place.backend
    rows = _bound("ROWS", 20_000, 10_000, backend)
    kills = _bound("KILLS", 6, 4, backend)
    drops = 0 if backend == "sqlite" else _bound("DROPS", 0, 1, backend)
    rng = random.Random(SEED)
    params = {"import_type": "customers", "dry_run": False, "batch_size": 500}
    big = submit_file(core.store, core.registry, task_type="import", path=_big_file(tmp_path / "big.csv", rows),
                      user="tester", params=params).task  # fmt: skip
    shorts = []
    for n in range(SHORT_FILES):
        first = rows + 1 + n * SHORT_ROWS
        path = write_csv(tmp_path / f"short{n}.csv", [row(i) for i in range(first, first + SHORT_ROWS)])
        shorts.append(submit_file(core.store, core.registry, task_type="import", path=path, user="tester",
                                  params=params).task)  # fmt: skip
    campaign = Campaign(core, place, rng)
    campaign.run(max(kills, drops), drops)
    export = core.submitter().submit_export("customers", filters={}, user="tester").task
    # An export starts again from its first row after a crash (it has no checkpoint), so each kill
    # during it is a recovery without progress: more than max_recoveries of them end it worker_lost.
    campaign.run(min(core.settings.max_recoveries, max(1, kills // 3)))

    bad = rows // BAD_EVERY
    expected = rows - bad + SHORT_FILES * SHORT_ROWS
    ended = core.store.get_by_id(big.id)
    assert ended is not None and ended.status is TaskStatus.PARTIALLY_SUCCEEDED, (ended.error_code, ended.error_msg)
    assert (ended.total_count, ended.success_count, ended.fail_count) == (rows, rows - bad, bad)
    named = [int(next(iter(r.values()))) for r in error_rows(ended)]  # the row number, in either language
    assert sorted(named) == [i + 1 for i in range(BAD_EVERY, rows + 1, BAD_EVERY)]  # each bad row once
    for task in shorts:
        done = core.store.get_by_id(task.id)
        assert done is not None and done.status is TaskStatus.SUCCEEDED and done.success_count == SHORT_ROWS
    with core.store.reading() as conn:
        count, distinct = conn.exec_driver_sql("SELECT COUNT(*), COUNT(DISTINCT code) FROM customers").one()
    exported = core.store.get_by_id(export.id)
    assert exported is not None and exported.status is TaskStatus.SUCCEEDED, (exported.error_code, exported.error_msg)
    with open(exported.result_path or "", encoding="utf-8-sig", newline="") as handle:
        export_rows = sum(1 for _ in csv.reader(handle)) - 1
    assert [t for t in core.store.list() if not t.status.is_final] == []
    assert list(core.paths.work_dir.glob("*.part")) == []  # no half-written file left
    assert _integrity(core) == "ok"
    lost, duplicated = expected - distinct, count - distinct
    faults = campaign.kills + campaign.drops
    print(f"\nfault campaign ({backend}, seed {SEED}, {rows} rows): trials {campaign.trials}, faults injected "
          f"{faults} ({campaign.kills} kill -9, {campaign.drops} session drops of {DROP_S:.0f} s ending "
          f"{campaign.sessions_ended} sessions), rows checked {count + export_rows}, lost {lost}, "
          f"duplicated {duplicated}, export rows {export_rows}")  # fmt: skip
    assert (lost, duplicated) == (0, 0)
    assert export_rows == count
    if drops:
        assert campaign.drops == drops and campaign.sessions_ended > 0  # the outage really happened
