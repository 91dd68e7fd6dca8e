"""PostgreSQL and MariaDB: the next batch loaded ahead on a connection of its own (imports/bulk/ahead.py).

Batches still commit in file order, each with its checkpoint; a stop or an error with batches in flight
keeps none of their rows and leaves no transaction open; a batch that repeats a key of the batch before
it is loaded only once that one has committed (else each would wait for the other)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from desktop_app.app import Core, build_core
from desktop_app.domain.status import TaskStatus
from desktop_app.imports.bulk import ahead
from desktop_app.imports.pipeline import ImportRun
from desktop_app.store.bulk_load import BulkLoader
from desktop_app.tasks.context import Stopped, StopReason, TaskContext
from tests.support.backends import fresh_database, selected_backends
from tests.support.customers import codes_by_row, customer_codes, row, run_import, write_csv

SERVERS = [b for b in ("postgresql", "mariadb") if b in selected_backends()]
pytestmark = pytest.mark.skipif(not SERVERS, reason="neither PostgreSQL nor MariaDB selected")

BATCH = 40
HELD: list[int] = []  # connections a loader's own engine still held when it closed (MariaDB's local files)


@pytest.fixture(params=SERVERS)
def core(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Core]:
    close = BulkLoader.close

    def closing(self: BulkLoader) -> None:
        if self._mysql_engine is not None:
            HELD.append(int(self._mysql_engine.pool.checkedout()))  # type: ignore[attr-defined]
        close(self)

    monkeypatch.setattr(BulkLoader, "close", closing)
    HELD.clear()
    with fresh_database(request.param, tmp_path) as url:
        desk = build_core(data_dir=tmp_path / "data", db_url=url, overrides={"bulk_batch_rows": BATCH})
        try:
            yield desk
        finally:
            desk.store.engine.dispose()


def _open_transactions(core: Core) -> int:
    """Connections the import still holds (a batch loaded ahead and never ended would: its transaction
    open, its rows locked); a connection given back to the pool is rolled back. MariaDB's batches run on
    the loader's own engine (connections that may send a local file): what it held when it closed counts."""
    return int(core.store.engine.pool.checkedout()) + sum(HELD)  # type: ignore[attr-defined]


def _no_batch_files(core: Core) -> bool:
    """No batch's CSV file is left behind (MariaDB writes one per batch in flight)."""
    return not list(core.paths.work_dir.glob("*-bulk-*.csv"))


@pytest.fixture
def events(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What happened, in order: "load N" as a batch starting at row N is loaded ahead, "commit N" as the
    batch ending at row N has committed."""
    seen: list[str] = []
    preload, flush = BulkLoader.preload, ImportRun._flush

    def loading(self: BulkLoader, rows: Any) -> Any:
        seen.append(f"load {rows.column('import_row')[0].as_py()}")
        return preload(self, rows)

    def committing(self: ImportRun, size: int, last_row: int, *args: Any, **kwargs: Any) -> None:
        flush(self, size, last_row, *args, **kwargs)
        seen.append(f"commit {last_row}")

    monkeypatch.setattr(BulkLoader, "preload", loading)
    monkeypatch.setattr(ImportRun, "_flush", committing)
    return seen


def test_batches_load_ahead_and_commit_in_file_order(
    core: Core, tmp_path: Path, events: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A batch's commit waits (at most 30 s) until the next batch's load has begun: loaded ahead, the load runs
    # beside the commit and it starts at once; loaded in line, it could only start after the commit, so the
    # wait runs out and the order below fails. Waiting for it keeps a busy machine's thread scheduling (the
    # loading thread not yet run when the batch before had already loaded) from deciding the test.
    flush = ImportRun._flush

    def after_next_load(self: ImportRun, size: int, last_row: int, *args: Any, **kwargs: Any) -> None:
        deadline = time.monotonic() + 30
        while last_row < 201 and f"load {last_row + 1}" not in events and time.monotonic() < deadline:
            time.sleep(0.005)
        flush(self, size, last_row, *args, **kwargs)

    monkeypatch.setattr(ImportRun, "_flush", after_next_load)
    path = write_csv(tmp_path / "c.csv", [row(i) for i in range(1, 201)])  # rows 2..201: five batches of 40
    task = run_import(core, path)
    assert task.status is TaskStatus.SUCCEEDED and task.success_count == 200
    assert customer_codes(core.store) == [f"C{i:06d}" for i in range(1, 201)]
    assert [e for e in events if e.startswith("commit")] == [f"commit {n}" for n in (41, 81, 121, 161, 201)]
    # each batch after the first was loading before the one ahead of it committed
    for first, previous_last in ((42, 41), (82, 81), (122, 121), (162, 161)):
        assert events.index(f"load {first}") < events.index(f"commit {previous_last}")
    assert _open_transactions(core) == 0 and _no_batch_files(core)


def test_a_batch_sharing_a_key_with_a_batch_in_flight_waits_for_its_commit(
    core: Core, tmp_path: Path, events: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # three batches in flight: the third (rows 82-121) repeats a key of the first (rows 2-41)
    monkeypatch.setattr(ahead, "IN_FLIGHT", 3)
    rows = [row(i) for i in range(1, 161)]
    rows[85] = row(3)  # row 87 repeats the code of row 4
    task = run_import(core, write_csv(tmp_path / "c.csv", rows))
    assert task.status is TaskStatus.PARTIALLY_SUCCEEDED and codes_by_row(task) == {87: ["duplicate_in_file"]}
    assert events.index("commit 41") < events.index("load 82")  # not loaded beside the batch it repeats
    assert events.index("load 42") < events.index("commit 41")  # the second batch did load beside the first
    assert _open_transactions(core) == 0


def test_a_batch_sharing_a_key_with_the_one_before_waits_for_its_commit(
    core: Core, tmp_path: Path, events: list[str]
) -> None:
    rows = [row(i) for i in range(1, 121)]
    rows[45] = row(3)  # row 47 (the second batch) repeats the code of row 4 (the first)
    task = run_import(core, write_csv(tmp_path / "c.csv", rows))
    assert task.status is TaskStatus.PARTIALLY_SUCCEEDED and task.fail_count == 1
    assert codes_by_row(task) == {47: ["duplicate_in_file"]}
    assert events.index("commit 41") < events.index("load 42")  # not loaded beside the batch it repeats
    assert events.index("load 82") < events.index("commit 81")  # the next pair overlaps again
    assert _open_transactions(core) == 0


@pytest.mark.parametrize("stop_at", [2, 4])
def test_a_stop_with_batches_in_flight_keeps_only_what_was_committed(
    core: Core, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, stop_at: int
) -> None:
    calls = {"n": 0}
    check_stop = TaskContext.check_stop

    def stopping(self: TaskContext) -> None:
        calls["n"] += 1
        if calls["n"] == stop_at:  # the stop_at-th batch boundary: the batches after it are loading
            raise Stopped(StopReason.CANCEL)
        check_stop(self)

    monkeypatch.setattr(TaskContext, "check_stop", stopping)
    path = write_csv(tmp_path / "c.csv", [row(i) for i in range(1, 241)])
    task = run_import(core, path)
    assert task.status is TaskStatus.CANCELLED
    committed = BATCH * (stop_at - 1)
    assert task.success_count == committed
    assert customer_codes(core.store) == [f"C{i:06d}" for i in range(1, committed + 1)]
    assert _open_transactions(core) == 0 and _no_batch_files(core)


def test_an_error_with_batches_in_flight_rolls_them_back_and_the_retry_imports_each_row_once(
    core: Core, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from desktop_app.imports.bulk.insert import BulkInsert
    from desktop_app.store.schema import tasks
    from tests.support.running import run_now

    write = BulkInsert.write
    calls = {"n": 0}

    def failing(self: BulkInsert, conn: Any, batch: Any, *args: Any, **kwargs: Any) -> Any:
        calls["n"] += 1
        if calls["n"] == 3:  # the third batch, with the two after it loaded ahead
            gone = ConnectionError("server closed the connection unexpectedly")
            raise sa.exc.OperationalError("COPY", {}, gone, connection_invalidated=True)
        return write(self, conn, batch, *args, **kwargs)

    monkeypatch.setattr(BulkInsert, "write", failing)
    monkeypatch.setattr(ahead, "IN_FLIGHT", 3)
    path = write_csv(tmp_path / "c.csv", [row(i) for i in range(1, 241)])
    back = run_import(core, path)
    assert back.status is TaskStatus.PENDING and back.next_run_at is not None  # a passing error: retried later
    assert back.success_count == 2 * BATCH
    assert customer_codes(core.store) == [f"C{i:06d}" for i in range(1, 2 * BATCH + 1)]
    assert _open_transactions(core) == 0
    with core.store.engine.begin() as conn:
        conn.execute(sa.update(tasks).where(tasks.c.id == back.id).values(next_run_at=None))
    ended = run_now(core, back.id, owner="test:2:2:bb")
    assert ended.status is TaskStatus.SUCCEEDED and ended.success_count == 240
    assert customer_codes(core.store) == [f"C{i:06d}" for i in range(1, 241)]
    assert _open_transactions(core) == 0


@pytest.mark.parametrize("server", SERVERS)
def test_an_import_asked_to_be_polite_loads_no_batch_ahead(tmp_path: Path, events: list[str], server: str) -> None:
    # the window sets a pause between batches: its imports load one batch at a time (its event loop's lag)
    with fresh_database(server, tmp_path) as url:
        desk = build_core(data_dir=tmp_path / "data", db_url=url,
                          overrides={"bulk_batch_rows": BATCH, "batch_pause": 0.001})  # fmt: skip
        try:
            task = run_import(desk, write_csv(tmp_path / "c.csv", [row(i) for i in range(1, 121)]))
        finally:
            desk.store.engine.dispose()
    assert task.status is TaskStatus.SUCCEEDED and task.success_count == 120
    assert events == ["commit 41", "commit 81", "commit 121"]  # nothing loaded ahead


def test_a_batch_the_database_holds_keeps_only_its_count_and_a_refused_one_its_rows(
    core: Core, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # memory: a batch loaded ahead waits for its turn to commit holding its count and keys, not its rows; one
    # the database refused (a key already in the table) keeps its rows and cells, for the row writer
    from desktop_app.imports.bulk.insert import BulkInsert

    seen: list[tuple[bool | None, int, int, bool]] = []
    write = BulkInsert.write

    def looking(self: BulkInsert, conn: Any, batch: Any, *args: Any, **kwargs: Any) -> Any:
        rows = batch.rows
        seen.append((kwargs.get("loaded_ahead"), rows.num_rows, rows.num_columns, batch.bulk_sources is not None))
        return write(self, conn, batch, *args, **kwargs)

    monkeypatch.setattr(BulkInsert, "write", looking)
    first = run_import(core, write_csv(tmp_path / "a.csv", [row(100)]))  # C000100 is in the table
    assert first.status is TaskStatus.SUCCEEDED
    seen.clear()
    task = run_import(core, write_csv(tmp_path / "c.csv", [row(i) for i in range(1, 121)]))
    assert task.status is TaskStatus.PARTIALLY_SUCCEEDED and codes_by_row(task) == {101: ["already_exists"]}
    assert task.success_count == 119
    assert seen == [(True, 40, 0, False), (True, 40, 0, False), (False, 40, 12, True)]
