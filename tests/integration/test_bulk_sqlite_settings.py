"""A SQLite bulk batch runs with a larger write-ahead log and page cache than the desk's other work,
sized in bytes whatever the database's page size, and its connection goes back to the pool as it was."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from desktop_app.app import Core, build_core
from desktop_app.domain.status import TaskStatus
from desktop_app.store import bulk_load
from desktop_app.store.bulk_load import BulkLoader
from tests.support.customers import row, run_import, write_csv


@pytest.fixture(params=[4096, 16384], ids=["old-desk-4k", "new-desk-16k"])
def core(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Core]:
    data = tmp_path / "data"
    data.mkdir()
    if request.param == 4096:  # a desk whose database was made before the larger pages
        old = sqlite3.connect(data / "batchdesk.sqlite3")
        old.execute("PRAGMA page_size=4096")
        old.execute("CREATE TABLE made_before (x)")
        old.close()
    desk = build_core(data_dir=data, overrides={"bulk_batch_rows": 40})
    try:
        yield desk
    finally:
        desk.store.engine.dispose()


def test_bulk_batches_size_the_log_and_cache_in_bytes_and_give_the_connection_back_as_it_was(
    core: Core, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[tuple[int, int, int]] = []
    load = BulkLoader._load

    def watched(self: BulkLoader, conn: Any, rows: Any) -> None:
        load(self, conn, rows)
        seen.append(tuple(conn.exec_driver_sql(f"PRAGMA {p}").scalar()  # type: ignore[arg-type]
                          for p in ("page_size", "wal_autocheckpoint", "cache_size")))  # fmt: skip

    monkeypatch.setattr(BulkLoader, "_load", watched)
    path = write_csv(tmp_path / "c.csv", [row(i) for i in range(1, 201)])
    task = run_import(core, path)
    assert task.status is TaskStatus.SUCCEEDED and task.success_count == 200
    assert len(seen) == 5 and len(set(seen)) == 1
    page, wal_pages, cache = seen[0]
    assert wal_pages * page == bulk_load.BULK_WAL_BYTES
    assert cache == -bulk_load.BULK_CACHE_KIB
    engine = core.store.engine
    idle = engine.pool.checkedin()  # type: ignore[attr-defined]
    assert idle >= 1
    with ExitStack() as stack:  # every connection the pool holds, the batches' among them
        conns = [stack.enter_context(engine.connect()) for _ in range(idle)]
        for conn in conns:
            assert conn.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar() == 1000  # SQLite's defaults
            assert conn.exec_driver_sql("PRAGMA cache_size").scalar() == -2000
            attached = [name for _, name, _ in conn.exec_driver_sql("PRAGMA database_list")]
            assert bulk_load.STAGE_SCHEMA not in attached
        assert conns[0].exec_driver_sql("SELECT count(*) FROM customers").scalar() == 200
