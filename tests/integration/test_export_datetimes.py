"""A datetime column exports every value in one form (midnight too), in CSV by both paths and typed in XLSX,
and the export imports back to the same values, on every database."""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest
import sqlalchemy as sa

from desktop_app.app import Core
from desktop_app.domain.status import TaskStatus
from tests.support.exports import run_export
from tests.support.imports import ORDER_HEADER, order_row, rows_of, run_type_import, write_rows, write_type

FULL = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d")
COLUMNS = ["order_no", "line_no", "ordered_at", "ship_on"]


@pytest.fixture
def imported(core: Core, tmp_path: Path) -> str:
    write_type(core)
    rows = [order_row(n, 1, 下单时间="2024-02-29 00:00" if n % 2 else f"2024-02-2{n} 1{n}:05:07") for n in range(1, 7)]
    task = run_type_import(core, write_rows(tmp_path / "o.csv", ORDER_HEADER, rows), "orders")
    assert task.status is TaskStatus.SUCCEEDED and task.success_count == 6, task.error_msg
    return task.task_no


def _ordered_at(path: str | None) -> list[str]:
    with open(path or "", encoding="utf-8-sig", newline="") as handle:
        return [r["下单时间"] for r in csv.DictReader(handle)]


def _imported_back(core: Core, path: Path) -> list[tuple[object, ...]]:
    """The table emptied and the export imported into it again: the rows as they are then."""
    with core.store.engine.begin() as conn:
        conn.execute(sa.text("DELETE FROM order_lines"))
    task = run_type_import(core, path, "orders")
    assert task.status is TaskStatus.SUCCEEDED and task.success_count == 6, task.error_msg
    return rows_of(core, "order_lines", COLUMNS, ["order_no", "line_no"])


def test_csv_writes_every_datetime_in_one_form_on_both_paths(core: Core, imported: str, tmp_path: Path) -> None:
    before = rows_of(core, "order_lines", COLUMNS, ["order_no", "line_no"])
    fast = run_export(core, "orders")
    slow = run_export(core, "orders", filters={"imported_by": imported})  # row by row
    for task in (fast, slow):
        assert task.status is TaskStatus.SUCCEEDED and task.total_count == 6
        values = _ordered_at(task.result_path)
        assert all(FULL.fullmatch(v) for v in values), values
        assert values[0] == "2024-02-29 00:00:00" and values[1] == "2024-02-22 12:05:07"
    assert Path(fast.result_path or "").read_bytes() == Path(slow.result_path or "").read_bytes()
    copy = tmp_path / "again.csv"
    copy.write_bytes(Path(fast.result_path or "").read_bytes())
    assert _imported_back(core, copy) == before


def test_xlsx_types_every_datetime_and_imports_back(core: Core, imported: str, tmp_path: Path) -> None:
    import datetime as dt

    from openpyxl import load_workbook

    before = rows_of(core, "order_lines", COLUMNS, ["order_no", "line_no"])
    task = run_export(core, "orders", fmt="xlsx")
    assert task.status is TaskStatus.SUCCEEDED
    sheet = load_workbook(Path(task.result_path or "")).worksheets[0]
    column = ORDER_HEADER.index("下单时间") + 1
    cells = [sheet.cell(row=r, column=column) for r in range(2, 8)]
    assert all(c.is_date and isinstance(c.value, dt.datetime) for c in cells)
    assert {c.number_format for c in cells} == {cells[1].number_format}  # one form, midnight too
    assert cells[0].value == dt.datetime(2024, 2, 29)
    copy = tmp_path / "again.xlsx"
    copy.write_bytes(Path(task.result_path or "").read_bytes())
    assert _imported_back(core, copy) == before
