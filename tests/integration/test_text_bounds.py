"""The bounds kept on our tables' stored texts (business_tables.text_bounds, migration 0014): an import's
plans read them instead of scanning the whole table for each text column's longest value, on every
back-end; a type narrowed below what was written is still refused, by the scan."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import sqlalchemy as sa

from desktop_app.app import Core
from desktop_app.domain.errors import ErrorCode, PermanentError
from desktop_app.domain.status import TaskStatus
from desktop_app.domain.table_spec import TableReference
from desktop_app.store import business_schema
from desktop_app.store.business_rows import BusinessTable
from desktop_app.store.schema import business_tables
from tests.support.customers import row, run_import, write_csv
from tests.support.imports import ORDER_HEADER, ORDERS, order_row, run_type_import, write_rows, write_type
from tests.support.running import run_now


@pytest.fixture
def scans(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """The columns of each scan a plan makes of a table for its longest stored texts."""
    made: list[list[str]] = []
    real = business_schema._Longest._scan

    def counted(self: business_schema._Longest, names: list[str]) -> dict[str, int | None]:
        made.append(list(names))
        return real(self, names)

    monkeypatch.setattr(business_schema._Longest, "_scan", counted)
    return made


def _bounds(core: Core, table: str) -> dict[str, int] | None:
    with core.store.reading() as conn:
        text = conn.execute(sa.select(business_tables.c.text_bounds).where(business_tables.c.name == table)).scalar()
    return None if text is None else json.loads(text)


def test_an_import_after_the_first_scans_nothing(core: Core, tmp_path: Path, scans: list[list[str]]) -> None:
    """customers (made by a migration: code VARCHAR(16), level VARCHAR(10)) against its type (7 and 8
    characters): every plan for writing scanned the whole table for the two, at queueing and at the run
    (0.2 s each at a million rows). Once an import has checked the table, the bounds say it instead."""
    first = run_import(core, write_csv(tmp_path / "a.csv", [row(i) for i in range(1, 6)]))
    assert first.status is TaskStatus.SUCCEEDED
    assert scans, "the first plan knows nothing of the stored texts: it scans"
    bounds = _bounds(core, "customers")
    assert bounds is not None and bounds["code"] == 7 and bounds["level"] == 8, bounds
    scans.clear()
    second = run_import(core, write_csv(tmp_path / "b.csv", [row(i) for i in range(6, 11)]))
    assert second.status is TaskStatus.SUCCEEDED and second.success_count == 5
    assert scans == []
    # an export and an undo plan without scanning too (an undo writes nothing new)
    undone = core.submitter().submit_undo(second.task_no, user="tester").task
    assert run_now(core, undone.id).status is TaskStatus.SUCCEEDED
    assert scans == []


def test_a_bound_rises_with_a_wider_type_and_never_falls(core: Core, tmp_path: Path, scans: list[list[str]]) -> None:
    write_type(core)  # item: max_length 40
    run_type_import(core, write_rows(tmp_path / "a.csv", ORDER_HEADER, [order_row(n) for n in (1, 2)]), "orders")
    assert _bounds(core, "order_lines")["item"] == 40
    long_item = "长" * 30
    wide = write_rows(tmp_path / "b.csv", ORDER_HEADER, [order_row(3, 品名=long_item)])
    assert run_type_import(core, wide, "orders").success_count == 1
    # narrowed to 35: within what was written, but below the bound: the table is scanned, and it fits
    write_type(core, ORDERS.replace("max_length = 40", "max_length = 35"))
    scans.clear()
    ok = run_type_import(core, write_rows(tmp_path / "c.csv", ORDER_HEADER, [order_row(4)]), "orders")
    assert ok.status is TaskStatus.SUCCEEDED and any("item" in names for names in scans), scans
    assert _bounds(core, "order_lines")["item"] == 40  # kept: a narrowed type's plans scan, as before
    # narrowed below the 30 characters stored: refused, as before the bounds
    write_type(core, ORDERS.replace("max_length = 40", "max_length = 20"))
    with pytest.raises(PermanentError) as refused:  # at queueing
        run_type_import(core, write_rows(tmp_path / "d.csv", ORDER_HEADER, [order_row(5)]), "orders")
    assert refused.value.code is ErrorCode.IMPORT_TYPE_INVALID
    assert "the stored data holds values of up to 30 characters" in str(refused.value)


def test_names_added_to_a_reference_table_raise_its_bound(core: Core) -> None:
    areas = sa.Table("areas", sa.MetaData(), sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
                     sa.Column("name", sa.String(100)))  # fmt: skip
    with core.store.engine.begin() as conn:
        areas.create(conn)
        conn.execute(business_tables.insert().values(name="areas", import_type="areas",
                                                     text_bounds=json.dumps({"name": 5})))  # fmt: skip
    ref = TableReference("area", "area_id", "areas", "name", True)
    try:
        with core.store.engine.begin() as conn:
            assert BusinessTable.add_reference_names(conn, ref, ["东区", "一个很长的区域名字"]) == 2
        assert _bounds(core, "areas") == {"name": 9}
        with core.store.engine.begin() as conn:
            BusinessTable.add_reference_names(conn, ref, ["西区"])  # within the bound: unchanged
        assert _bounds(core, "areas") == {"name": 9}
    finally:
        with core.store.engine.begin() as conn:
            areas.drop(conn)
            conn.execute(business_tables.delete().where(business_tables.c.name == "areas"))
