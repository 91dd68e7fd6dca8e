"""A database that stops answering longer than a write's own retries: the task ends right, never stays running."""

from __future__ import annotations

import functools
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import update

from desktop_app.app import Core, build_core
from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import TaskRecord
from desktop_app.store import profiles as store_profiles
from desktop_app.store import task_rows
from desktop_app.store import tasks as store_tasks
from desktop_app.store.schema import tasks
from desktop_app.tasks.runner import run_task
from tests.support.faults import Outage
from tests.support.handlers import ledger_meta, ledger_rows, make_test_handlers

RETRY_PAUSE = 0.1  # retry_db's first pause in this process (the program's 0.5 s): its retries last 1 s
OUTAGE_S = 2.5  # longer than retry_db's own budget here (0.1 + 0.2 + 0.3 + 0.4 s of pauses)
PROCESS_OUTAGE_S = 8.0  # the command line in a process of its own: the program's budget (0.5 + 1 + 1.5 + 2 s)


@pytest.fixture(autouse=True)
def quick_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    """The store's writes retried at a fifth of the program's pace: an outage past them is 2.5 s, not 8 s,
    of real waiting (the checks are the same: the retries spent, the task handed back, then finished)."""
    for module in (store_tasks, store_profiles):
        monkeypatch.setattr(module, "retry_db", functools.partial(task_rows.retry_db, pause=RETRY_PAUSE))


@pytest.fixture
def core(db_url: str, tmp_path: Path) -> Iterator[Core]:
    core = build_core(data_dir=tmp_path / "data", db_url=db_url, handlers=make_test_handlers())
    ledger_meta.create_all(core.store.engine)
    yield core
    core.store.engine.dispose()


def _run_in_thread(core: Core, task_id: int, owner: str) -> tuple[threading.Thread, list[BaseException]]:
    (task,) = core.store.claim(owner, 1, only_ids=[task_id])
    errors: list[BaseException] = []

    def work() -> None:
        try:
            run_task(task, registry=core.registry, store=core.store, paths=core.paths, settings=core.settings,
                     stop_event=threading.Event(), lang="en")  # fmt: skip
        except BaseException as exc:
            errors.append(exc)

    thread = threading.Thread(target=work, daemon=True)
    thread.start()
    return thread, errors


def _steps(core: Core, task_no: str) -> Counter[int]:
    with core.store.engine.connect() as conn:
        return Counter(r.step for r in ledger_rows(conn) if r.task_no == task_no)


def _due_now(core: Core, task_id: int) -> None:
    with core.store.engine.begin() as conn:
        conn.execute(update(tasks).where(tasks.c.id == task_id).values(next_run_at=None))


def _rerun(core: Core, task: TaskRecord) -> TaskRecord:
    _due_now(core, task.id)
    thread, errors = _run_in_thread(core, task.id, "test:2:2:bb")
    thread.join(60)
    assert not errors, errors
    ended = core.store.get_by_id(task.id)
    assert ended is not None
    return ended


def test_outage_mid_batch_hands_the_task_back_then_it_finishes_exactly(core: Core) -> None:
    task = core.store.submit(task_type="test.steps", params={"steps": 6, "sleep": 0.3}, creator="t").task
    outage = Outage(core.store.engine)
    thread, errors = _run_in_thread(core, task.id, "test:1:1:aa")
    deadline = time.monotonic() + 30
    while sum(_steps(core, task.task_no).values()) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    outage.start(OUTAGE_S)
    thread.join(OUTAGE_S + 60)
    assert not thread.is_alive(), "the runner never gave up on its ending write"
    assert not errors, errors  # before: the hand-back's own failure escaped ("runner failed")
    back = core.store.get_by_id(task.id)
    assert back is not None and outage.failed > 0
    assert back.status is TaskStatus.PENDING, back  # before: running, owned by a live worker, forever
    assert back.retries == 1 and back.next_run_at is not None and back.owner is None
    ended = _rerun(core, back)
    assert ended.status is TaskStatus.SUCCEEDED, ended
    assert _steps(core, task.task_no) == Counter(range(6))  # each step once


def test_outage_at_the_final_write_still_ends_the_task(core: Core, monkeypatch: pytest.MonkeyPatch) -> None:
    task = core.store.submit(task_type="test.steps", params={"steps": 3}, creator="t").task
    outage = Outage(core.store.engine)
    finish = core.store.finish

    def finish_in_an_outage(*args: Any, **kwargs: Any) -> bool:
        if not outage.failed:
            outage.start(OUTAGE_S)
        return finish(*args, **kwargs)

    monkeypatch.setattr(core.store, "finish", finish_in_an_outage)
    thread, errors = _run_in_thread(core, task.id, "test:1:1:aa")
    thread.join(OUTAGE_S + 60)
    assert not thread.is_alive() and not errors, errors
    ended = core.store.get_by_id(task.id)
    assert ended is not None and outage.failed > 0
    assert ended.status is TaskStatus.SUCCEEDED, ended
    assert _steps(core, task.task_no) == Counter(range(3))


def test_sqlite_locked_by_another_process_past_every_retry(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import subprocess
    import sys

    import desktop_app.store.dialects.sqlite as sqlite_dialect

    monkeypatch.setattr(sqlite_dialect, "BUSY_TIMEOUT_MS", 1000)  # the 15 s default, scaled down: retries last ~6 s
    url = f"sqlite:///{tmp_path / 'locked.sqlite3'}"
    core = build_core(data_dir=tmp_path / "data", db_url=url, handlers=make_test_handlers())
    ledger_meta.create_all(core.store.engine)
    try:
        task = core.store.submit(task_type="test.steps", params={"steps": 6, "sleep": 0.3}, creator="t").task
        thread, errors = _run_in_thread(core, task.id, "test:1:1:aa")
        while sum(_steps(core, task.task_no).values()) < 2:
            time.sleep(0.05)
        holder = subprocess.Popen([sys.executable, "-c", (
            "import sqlite3, sys, time; c = sqlite3.connect(sys.argv[1], isolation_level=None); "
            "c.execute('BEGIN IMMEDIATE'); print('locked', flush=True); time.sleep(8); c.execute('COMMIT')"
        ), str(tmp_path / "locked.sqlite3")], stdout=subprocess.PIPE, text=True)  # fmt: skip
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        thread.join(60)
        holder.communicate(timeout=30)
        assert not thread.is_alive() and not errors, errors
        back = core.store.get_by_id(task.id)
        assert back is not None and back.status is TaskStatus.PENDING and back.retries == 1, back
        ended = _rerun(core, back)
        assert ended.status is TaskStatus.SUCCEEDED, ended
        assert _steps(core, task.task_no) == Counter(range(6))
    finally:
        core.store.engine.dispose()


def test_postgresql_backends_terminated_for_seconds(tmp_path: Path) -> None:
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    from tests.support.backends import PG_URL, fresh_database

    with fresh_database("postgresql", tmp_path) as url:
        name = "bd_outage_" + tmp_path.name[-8:].replace("-", "_")
        url = make_url(url).update_query_dict({"application_name": name}).render_as_string(hide_password=False)
        core = build_core(data_dir=tmp_path / "data", db_url=url, handlers=make_test_handlers())
        ledger_meta.create_all(core.store.engine)
        killer = create_engine(PG_URL, isolation_level="AUTOCOMMIT")
        try:
            task = core.store.submit(task_type="test.steps", params={"steps": 6, "sleep": 0.3}, creator="t").task
            thread, errors = _run_in_thread(core, task.id, "test:1:1:aa")
            while sum(_steps(core, task.task_no).values()) < 2:
                time.sleep(0.05)
            killed = 0
            with killer.connect() as conn:  # the server ends every session of this desk, again and again
                end = time.monotonic() + OUTAGE_S
                while time.monotonic() < end:
                    killed += sum(1 for _ in conn.execute(text(
                        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = :n"
                    ), {"n": name}))  # fmt: skip
                    time.sleep(0.02)
            thread.join(60)
            assert not thread.is_alive() and not errors, errors
            assert killed > 0
            current = core.store.get_by_id(task.id)
            assert current is not None
            if current.status is TaskStatus.PENDING:  # handed back (a write failed past its retries)
                current = _rerun(core, current)
            assert current.status is TaskStatus.SUCCEEDED, current
            assert _steps(core, task.task_no) == Counter(range(6))
        finally:
            killer.dispose()
            core.store.engine.dispose()


def test_import_wait_returns_after_the_server_drops_the_desk(tmp_path: Path) -> None:
    """The issue's case end to end: `import --wait` on PostgreSQL whose sessions of this desk are ended
    for 8 s mid-import returns, with every row imported once (before: it could hang for ever)."""
    _import_wait_through_dropped_sessions(tmp_path, "postgresql")


def test_import_wait_returns_after_mariadb_kills_the_desks_connections(tmp_path: Path) -> None:
    """The same on MariaDB: every connection of the desk KILLed for 8 s mid-import."""
    _import_wait_through_dropped_sessions(tmp_path, "mariadb")


def _import_wait_through_dropped_sessions(tmp_path: Path, backend: str) -> None:
    import json
    import os
    import subprocess
    import sys

    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    from tests.support.backends import MYSQL_URL, PG_URL, fresh_database
    from tests.support.customers import row, write_csv
    from tests.support.faults import end_sessions, named_url

    root = Path(__file__).resolve().parents[2]
    rows = 30_000
    path = write_csv(tmp_path / "in.csv", [row(i) for i in range(1, rows + 1)])
    with fresh_database(backend, tmp_path) as url:
        url = named_url(url, "bd_wait_" + tmp_path.name[-8:].replace("-", "_"))
        cli = subprocess.Popen(
            [sys.executable, "-m", "desktop_app", "import", str(path), "--type", "customers", "--wait", "--json",
             "--batch-size", "200", "--db", url],
            cwd=root, env={**os.environ, "PYTHONPATH": str(root), "BATCHDESK_HOME": str(tmp_path / "data")},
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        watcher = create_engine(PG_URL if backend == "postgresql" else MYSQL_URL, isolation_level="AUTOCOMMIT")
        try:
            parsed = make_url(url)
            schema = (parsed.query["options"].split("=", 1)[1] if backend == "postgresql"  # type: ignore[union-attr]
                      else parsed.database)  # fmt: skip
            with watcher.connect() as conn:
                started = time.monotonic()
                while time.monotonic() - started < 120:  # until a few batches are in
                    try:
                        done = conn.execute(text(f"SELECT COUNT(*) FROM {schema}.customers")).scalar()
                    except Exception:
                        done = 0
                        conn.rollback()
                    if done and done >= 2000:
                        break
                    time.sleep(0.1)
            ended = 0
            end = time.monotonic() + PROCESS_OUTAGE_S
            while time.monotonic() < end:
                ended += end_sessions(watcher, url)
                time.sleep(0.02)
            assert ended > 0
            out, err = cli.communicate(timeout=180)  # --wait returns
            assert out.strip(), err[-3000:]
            result = json.loads(out)
            assert result["status"] == "succeeded", (result, err[-2000:])
            assert result["success_count"] == rows
            with watcher.connect() as conn:
                count, distinct = conn.execute(
                    text(f"SELECT COUNT(*), COUNT(DISTINCT code) FROM {schema}.customers")
                ).one()
            assert count == distinct == rows
        finally:
            if cli.poll() is None:
                cli.kill()
                cli.communicate()
            watcher.dispose()
