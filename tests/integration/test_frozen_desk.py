"""A desk frozen inside a transaction (SIGSTOP mid-batch) stalls no other desk on a server database."""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path

import pytest

from desktop_app.app import Core
from desktop_app.domain.status import TaskStatus
from tests.integration.test_workers import Workers, core, status, steps_of, submit, wait_for, workers

__all__ = ["core", "workers"]  # the fixtures, shared with the worker tests
pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
STALE = 3.0  # the server ends a session idle in a transaction after 2 s, a lock wait after 1 s


def test_desk_frozen_mid_batch_stalls_no_one(core: Core, workers: Workers, db_url: str) -> None:
    if db_url.startswith("sqlite"):
        pytest.skip("SQLite: a stopped process's write lock cannot be broken from outside (one desk)")
    task = submit(core, steps=6, sleep=0.2, hold_at=2, hold=30.0)
    frozen = workers.start(stale_after=STALE)
    wait_for(lambda: len(steps_of(core, task.task_no)) >= 2, 60, "two committed steps")
    time.sleep(0.5)  # now inside step 2's transaction, holding the task row
    os.kill(frozen.pid, signal.SIGSTOP)
    try:
        workers.start(stale_after=STALE)
        started = time.monotonic()
        short = core.store.submit(task_type="test.short", params={"steps": 1}, creator="test").task
        wait_for(lambda: status(core, short.task_no).is_final, 20, "an unrelated short task")
        short_s = time.monotonic() - started
        # before: the rescue waited on the frozen desk's row lock as long as it was stopped
        wait_for(lambda: status(core, task.task_no).is_final, 60, "the other desk to take over and finish")
        finished = core.store.get(task.task_no)
        assert finished is not None and finished.status is TaskStatus.SUCCEEDED, finished
        assert short_s < 15, f"the short task waited {short_s:.1f} s"
    finally:
        os.kill(frozen.pid, signal.SIGCONT)
    time.sleep(3.0)  # the woken desk finds its session ended and itself fenced: it writes nothing
    after = core.store.get(task.task_no)
    assert after is not None and (after.status, after.owner, after.ended_at) == (
        TaskStatus.SUCCEEDED, finished.owner, finished.ended_at,
    )  # fmt: skip
    assert steps_of(core, task.task_no) == list(range(6)), "a step was lost or committed twice"


def test_sqlite_held_by_another_process_is_a_plain_busy_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    import logging
    import subprocess

    import desktop_app.store.dialects.sqlite as sqlite_dialect
    from desktop_app.app import build_core
    from desktop_app.executor.executor import Executor

    monkeypatch.setattr(sqlite_dialect, "BUSY_TIMEOUT_MS", 200)
    core = build_core(data_dir=tmp_path / "data", overrides={"poll_interval": 0.2, "daily_cleanup": False})
    core.store.submit(task_type="cleanup", params={}, creator="t")  # something to claim once it is free
    holder = subprocess.Popen([sys.executable, "-c", (
        "import sqlite3, sys, time; c = sqlite3.connect(sys.argv[1], isolation_level=None); "
        "c.execute('BEGIN IMMEDIATE'); print('locked', flush=True); time.sleep(3); c.execute('COMMIT')"
    ), str(core.paths.database_file)], stdout=subprocess.PIPE, text=True)  # fmt: skip
    assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
    caplog.set_level(logging.WARNING, logger="desktop_app.executor.executor")
    executor = Executor(store=core.store, registry=core.registry, paths=core.paths, settings=core.settings)
    executor.start()
    try:
        holder.communicate(timeout=30)
        time.sleep(1.0)
    finally:
        executor.shutdown(10)
        core.store.engine.dispose()
    mine = [r for r in caplog.records if r.name == "desktop_app.executor.executor"]
    assert any("database busy or unreachable" in r.getMessage() for r in mine), [r.getMessage() for r in mine]
    assert not [r for r in mine if r.exc_info], "a traceback for a busy database"  # before: one per round


def test_a_small_stale_after_does_not_cut_a_live_batch(db_url: str, tmp_path: Path) -> None:
    """A batch that works in Python between two statements for longer than 2/3 of a small stale_after
    commits in its first run: the server ends only a session idle past IDLE_FLOOR_S (before: 2 s here,
    the session was ended mid-batch and the task handed back for a retry)."""
    import threading

    from sqlalchemy import text

    from desktop_app.app import build_core
    from desktop_app.store.db import IDLE_FLOOR_S
    from desktop_app.tasks.runner import run_task
    from tests.support.handlers import ledger_meta, make_test_handlers

    if db_url.startswith("sqlite"):
        pytest.skip("SQLite has no server to end a session")
    core = build_core(data_dir=tmp_path / "data", db_url=db_url, handlers=make_test_handlers(),
                      overrides={"stale_after": STALE})  # fmt: skip
    ledger_meta.create_all(core.store.engine)
    try:
        with core.store.engine.connect() as conn:
            setting = ("SHOW idle_in_transaction_session_timeout" if db_url.startswith("postgresql")
                       else "SELECT @@SESSION.idle_transaction_timeout")  # fmt: skip
            assert str(conn.execute(text(setting)).scalar()) in (f"{IDLE_FLOOR_S}s", str(IDLE_FLOOR_S))
        # step 1 idles 3.5 s inside its transaction, past the old limit of 2 s for stale_after 3
        task = core.store.submit(task_type="test.steps", params={"steps": 3, "hold_at": 1, "hold": 3.5},
                                 creator="t").task  # fmt: skip
        (claimed,) = core.store.claim("test:1:1:aa", 1, only_ids=[task.id])
        run_task(claimed, registry=core.registry, store=core.store, paths=core.paths, settings=core.settings,
                 stop_event=threading.Event(), lang="en")  # fmt: skip
        ended = core.store.get(task.task_no)
        assert ended is not None and ended.status is TaskStatus.SUCCEEDED, ended
        assert (ended.retries, ended.attempt) == (0, 1)
        assert steps_of(core, task.task_no) == [0, 1, 2]
    finally:
        core.store.engine.dispose()


def test_a_failing_heartbeat_waits_the_poll_interval(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A heartbeat that fails with a passing error (a full disk under SQLite) is tried again after
    poll_interval, as the warning says (before: every 50 ms, about twenty lines a second)."""
    import logging
    import sqlite3

    from sqlalchemy.exc import OperationalError

    from desktop_app.app import build_core
    from desktop_app.executor.executor import Executor

    core = build_core(data_dir=tmp_path / "data", overrides={"poll_interval": 0.5, "heartbeat_interval": 0.2,
                                                                      "daily_cleanup": False})  # fmt: skip
    executor = Executor(store=core.store, registry=core.registry, paths=core.paths, settings=core.settings)

    def full_disk(*_: object) -> None:
        orig = sqlite3.OperationalError("database or disk is full")
        orig.sqlite_errorcode = 13  # type: ignore[attr-defined]  # SQLITE_FULL
        raise OperationalError("UPDATE tasks", {}, orig)

    monkeypatch.setattr(executor, "_heartbeat", full_disk)
    caplog.set_level(logging.WARNING, logger="desktop_app.executor.executor")
    executor.start()
    try:
        time.sleep(2.0)
    finally:
        executor.shutdown(10)
        core.store.engine.dispose()
    lines = [r for r in caplog.records if "database busy or unreachable" in r.getMessage()]
    assert 1 <= len(lines) <= 6, len(lines)  # 2 s at 0.5 s: about four, not forty
