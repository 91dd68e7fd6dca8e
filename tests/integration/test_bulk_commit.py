"""A bulk batch's commit on PostgreSQL does not wait for the server's disk, and only that transaction's:
the setting is the transaction's own (SET LOCAL), so the pool's connections and the task's other writes
(its end above all, whose ordinary commit flushes every batch before it) keep the server's default."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from desktop_app.app import Core, build_core
from desktop_app.domain.status import TaskStatus
from desktop_app.store.bulk_load import BulkLoader
from tests.support.backends import fresh_database, selected_backends
from tests.support.customers import row, run_import, write_csv

pytestmark = pytest.mark.skipif("postgresql" not in selected_backends(), reason="PostgreSQL not selected")


@pytest.fixture
def core(tmp_path: Path) -> Iterator[Core]:
    with fresh_database("postgresql", tmp_path) as url:
        desk = build_core(data_dir=tmp_path / "data", db_url=url, overrides={"bulk_batch_rows": 40})
        try:
            yield desk
        finally:
            desk.store.engine.dispose()


def test_each_bulk_batch_commits_without_waiting_and_nothing_else_does(
    core: Core, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[str] = []
    load = BulkLoader._load  # what a batch's load in line (load) and a load ahead (preload) both run

    def watched(self: BulkLoader, conn: Any, rows: Any) -> None:
        load(self, conn, rows)
        seen.append(conn.exec_driver_sql("SHOW synchronous_commit").scalar())

    monkeypatch.setattr(BulkLoader, "_load", watched)
    path = write_csv(tmp_path / "c.csv", [row(i) for i in range(1, 201)])
    task = run_import(core, path)
    assert task.status is TaskStatus.SUCCEEDED and task.success_count == 200
    assert seen == ["off"] * 5  # every batch of 40 went through the loader, each commit not waiting
    engine = core.store.engine
    idle = engine.pool.checkedin()  # type: ignore[attr-defined]
    assert idle >= 1
    with ExitStack() as stack:  # every connection the pool holds, the batches' among them
        conns = [stack.enter_context(engine.connect()) for _ in range(idle)]
        assert [c.exec_driver_sql("SHOW synchronous_commit").scalar() for c in conns] == ["on"] * idle
        assert conns[0].execute(sa.text("SELECT count(*) FROM customers")).scalar() == 200


TRICKY = ["", None, "plain", 'a "quote"', "a,b", "two\nlines", "cr\rhere", "\\N", "NULL", " spaced ", "\\.", "tab\tin",
          "😀", '"']  # fmt: skip


PLAIN = ["plain", "C000001", None, "名字"]


@pytest.mark.parametrize("texts", [PLAIN, ["plain", "", None], TRICKY], ids=["plain", "empty", "tricky"])
def test_copy_reads_every_value_back_as_sent(core: Core, tmp_path: Path, texts: list[str | None]) -> None:
    import pyarrow as pa

    from desktop_app.store import bulk_load

    rows = pa.table({"a": pa.array(texts, pa.string()), "n": pa.array(range(len(texts)), pa.int64())})
    sent = bulk_load._copy_csv(rows).to_pybytes()
    assert (b'"' in sent) == (texts != PLAIN)  # plain texts go unquoted (the server reads them faster)
    engine = core.store.engine
    with engine.begin() as conn:
        conn.exec_driver_sql("CREATE TABLE copy_probe (a TEXT, n BIGINT, task_no VARCHAR(32))")
    loader = BulkLoader(engine, "copy_probe", "T261202-ABCDEF", tmp_path)
    with engine.begin() as conn:
        assert loader.load(conn, rows)
        back = conn.exec_driver_sql("SELECT a, n, task_no FROM copy_probe ORDER BY n").all()
    assert [tuple(r) for r in back] == [(t, n, "T261202-ABCDEF") for n, t in enumerate(texts)]
