"""An SQLite export's pages, read by two connections side by side on one snapshot (exports/sqlite_pages.py,
fast_csv.read_sqlite), with SQLite's memory statistics off (store/sqlite_config.py)."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import sqlalchemy as sa

from desktop_app.app import Core, build_core
from desktop_app.domain.status import TaskStatus
from desktop_app.exports import fast_csv, sqlite_pages
from desktop_app.store import sqlite_config
from tests.support.customers import row, run_import, write_csv
from tests.support.exports import run_export

ROWS = 30


@pytest.fixture
def core(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Core]:
    core = build_core(data_dir=tmp_path / "data")
    monkeypatch.setattr(sqlite_pages, "PAGE_ROWS", 4)  # eight pages, taken in turns
    task = run_import(core, write_csv(tmp_path / "c.csv", [row(i) for i in range(1, ROWS + 1)]))
    assert task.status is TaskStatus.SUCCEEDED and task.success_count == ROWS, task.error_msg
    yield core
    core.store.engine.dispose()


def exported(core: Core) -> bytes:
    task = run_export(core, "customers")
    assert task.status is TaskStatus.SUCCEEDED and task.total_count == ROWS, task.error_msg
    return Path(task.result_path or "").read_bytes()


def row_by_row(core: Core, monkeypatch: pytest.MonkeyPatch) -> bytes:
    from desktop_app.exports import task

    with monkeypatch.context() as patched:
        patched.setattr(task, "write_fast", lambda *_args, **_kwargs: False)  # the row writer's file
        return exported(core)


def test_the_suite_runs_with_the_programs_sqlite_settings() -> None:
    assert sqlite_config.statistics_off()  # tests/conftest.py, as cli/main.py at the program's entry


def test_pages_are_read_in_turns_by_two_connections_and_written_in_order(
    core: Core, monkeypatch: pytest.MonkeyPatch
) -> None:
    reads: list[tuple[int, int]] = []
    read_page = sqlite_pages.read_page

    def spied(conn: sa.Connection, *args: object, **kwargs: object) -> sqlite_pages.Page:
        time.sleep(0.01 if len(reads) % 3 == 0 else 0)  # pages end out of turn: the file keeps their order
        page = read_page(conn, *args, **kwargs)  # type: ignore[arg-type]
        reads.append((threading.get_ident(), id(conn.connection.dbapi_connection)))
        return page

    monkeypatch.setattr(sqlite_pages, "read_page", spied)
    fast = exported(core)
    assert fast == row_by_row(core, monkeypatch)
    assert len(reads) == ROWS // 4 + 1  # seven full pages, the last one of two rows
    threads, connections = {t for t, _ in reads}, {c for _, c in reads}
    assert len(threads) == len(connections) == fast_csv.SQLITE_READERS == 2, reads


def test_no_commit_falls_between_the_readers_beginnings(core: Core, monkeypatch: pytest.MonkeyPatch) -> None:
    """Another program's delete, tried right after the first reader has taken its snapshot: it waits for the
    fence, so the second reader sees what the first sees (without the fence it landed in between)."""
    database = core.store.engine.url.database or ""
    begun: list[str] = []
    writer_done = threading.Event()

    def delete_one() -> None:
        with sqlite3.connect(database, timeout=10, isolation_level=None) as other:
            other.execute("BEGIN IMMEDIATE")
            other.execute("DELETE FROM customers WHERE code = 'C000001'")
            other.execute("COMMIT")
        writer_done.set()

    execute = sa.Connection.exec_driver_sql

    def spied(conn: sa.Connection, statement: str, *args: object, **kwargs: object) -> object:
        done = execute(conn, statement, *args, **kwargs)  # type: ignore[arg-type]
        if statement.startswith("SELECT 1 FROM sqlite_master"):
            begun.append(statement)
            if len(begun) == 1:  # the first reader's snapshot is taken: another program commits now
                threading.Thread(target=delete_one, daemon=True).start()
                writer_done.wait(0.5)  # at once without the fence; held back by it
        return done

    monkeypatch.setattr(sa.Connection, "exec_driver_sql", spied)
    with sqlite_pages.one_snapshot(core.store.engine, 2) as readers:
        assert readers is not None and len(begun) == 2
        counts = [r.execute(sa.text("SELECT count(*) FROM customers")).scalar_one() for r in readers]
    assert counts == [ROWS, ROWS], counts
    assert writer_done.wait(10), "the delete went in once the fence let go"
    with core.store.engine.connect() as conn:
        assert conn.execute(sa.text("SELECT count(*) FROM customers")).scalar_one() == ROWS - 1
        # the fence's connection went back to the pool with the engine's own busy timeout
        raw = conn.connection.dbapi_connection
        assert raw is not None and raw.execute("PRAGMA busy_timeout").fetchone()[0] == 15_000


def test_a_writer_holding_the_write_lock_is_not_waited_for_long(core: Core, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sqlite_pages, "FENCE_WAIT_MS", 50)
    writer = sqlite3.connect(core.store.engine.url.database or "", isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")  # another program's write, in progress
    try:
        started = time.monotonic()
        with sqlite_pages.one_snapshot(core.store.engine, 3) as readers:
            assert readers is None
        assert time.monotonic() - started < 5
    finally:
        writer.execute("ROLLBACK")
        writer.close()
    with sqlite_pages.one_snapshot(core.store.engine, 3) as readers:  # free again: had at once
        assert readers is not None and len(readers) == 3


def test_without_one_snapshot_the_pages_are_read_on_one_connection(core: Core, monkeypatch: pytest.MonkeyPatch) -> None:
    expected = row_by_row(core, monkeypatch)

    @contextmanager
    def busy(_engine: sa.Engine, _count: int) -> Iterator[None]:
        yield None  # a writer kept the write lock

    monkeypatch.setattr(sqlite_pages, "one_snapshot", busy)
    connections = spy_connections(monkeypatch)
    assert exported(core) == expected
    assert len(connections) == 1


def test_without_the_settings_the_pages_are_read_on_one_connection(
    core: Core, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SQLite's one mutex for its memory statistics made two readers slower than one: with them on (a
    build whose library could not be set), one connection reads."""
    expected = row_by_row(core, monkeypatch)
    monkeypatch.setattr(sqlite_config, "statistics_off", lambda: False)
    connections = spy_connections(monkeypatch)
    assert exported(core) == expected
    assert len(connections) == 1


def spy_connections(monkeypatch: pytest.MonkeyPatch) -> set[int]:
    """The driver connections the pages are read on."""
    connections: set[int] = set()
    read_page = sqlite_pages.read_page

    def spied(conn: sa.Connection, *args: object, **kwargs: object) -> sqlite_pages.Page:
        connections.add(id(conn.connection.dbapi_connection))
        return read_page(conn, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(sqlite_pages, "read_page", spied)
    return connections
