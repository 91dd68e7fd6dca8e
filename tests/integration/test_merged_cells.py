"""An .xlsx with merged cells imports as Excel shows it, the same on the bulk path as row by row (issue 28).

A block merged down one column fills each of its rows and the task's summary names it; a merge across
columns inside the data fails each row it covers with `merged_cells`, naming the cells, in the error CSV; a
merged header is its first cell's text. A sheet whose merges reach its data is read row by row on both paths
(the bulk path steps aside before it starts); one whose only merge is in the header keeps the bulk path. Every
database.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import openpyxl
from openpyxl.worksheet.merge import MergedCellRange

from desktop_app.app import Core
from desktop_app.domain.status import TaskStatus
from tests.integration.test_bulk_path import LOADED, both, clear, facts, paths, snapshot  # noqa: F401
from tests.integration.test_bulk_xlsx_path import customer
from tests.support.customers import HEADER, codes_by_row, error_rows, run_import

ROWS = 40


def sheet_with_merges(path: Path) -> Path:
    """40 customers (rows 2-41) with: 部门 merged down H5:H8 and 备注 down I20:I22 (filled), the code merged
    down A30:A31 (the fill repeats the key: duplicate_in_file), 姓名..邮箱 merged across B10:D10 and a block
    E12:F13 across 等级 and 开户日期 (each covered row fails)."""
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append(HEADER)
    for n in range(1, ROWS + 1):
        sheet.append(customer(n))
    sheet["H5"], sheet["I20"] = "财务部", "大客户"
    for ref in ("H5:H8", "I20:I22", "A30:A31", "B10:D10", "E12:F13"):
        sheet.merge_cells(ref)  # as Excel merges: the cells covered are emptied
    book.save(path)
    return path


def sheet_with_a_merged_header(path: Path) -> Path:
    """备注 merged across I1:J1, the covered J1 keeping the text "姓名" (LibreOffice can keep what it merged):
    one header, 备注; the notes some rows have under J are ignored, as under any blank header."""
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append([*HEADER, "姓名"])
    for n in range(1, ROWS + 1):
        cells: list[Any] = customer(n)
        cells[8] = f"备注{n}"
        sheet.append([*cells, f"more {n}"] if n % 3 == 0 else cells)
    sheet.merged_cells.add(MergedCellRange(sheet, "I1:J1"))  # without emptying J1
    book.save(path)
    return path


def _both_row_by_row(cores: tuple[Core, Core], path: Path) -> tuple[Any, ...]:
    """Each desk's import of the file: the same facts and rows, and the bulk path loaded nothing."""
    ended = []
    for core in cores:
        clear(core, "customers")
        task = run_import(core, path, force=True)
        ended.append((task, facts(task), snapshot(core, "customers", ["code"])))
        assert LOADED == [], "a sheet merging cells in its data is read row by row"
    (task, bulk_facts, bulk_rows), (_, row_facts, row_rows) = ended
    assert bulk_facts == row_facts
    assert bulk_rows == row_rows
    return task, bulk_rows


def test_merged_cells_fill_down_fail_across_and_both_paths_agree(paths: tuple[Core, Core],  # noqa: F811
                                                                 tmp_path: Path) -> None:  # fmt: skip
    path = sheet_with_merges(tmp_path / "merged.xlsx")
    task, _stored = _both_row_by_row(paths, path)
    assert task.status is TaskStatus.PARTIALLY_SUCCEEDED
    assert (task.total_count, task.success_count, task.fail_count) == (ROWS, ROWS - 4, 4)
    assert codes_by_row(task) == {10: ["merged_cells"], 12: ["merged_cells"], 13: ["merged_cells"],
                                  31: ["duplicate_in_file"]}  # fmt: skip
    number, reason = ("行号", "错误原因") if "行号" in error_rows(task)[0] else ("Row number", "Reasons")
    reasons = {int(r[number]): r[reason] for r in error_rows(task)}
    assert "B10:D10" in reasons[10] and "E12:F13" in reasons[12] and "E12:F13" in reasons[13], reasons
    # the rows of each block filled down hold its value
    with paths[1].store.reading() as conn:
        stored = {code: (department, note) for code, department, note
                  in conn.exec_driver_sql("SELECT code, department, note FROM customers").all()}  # fmt: skip
    assert [stored[f"C{n:06d}"][0] for n in range(3, 8)] == ["市场部", "财务部", "财务部", "财务部", "财务部"]
    assert [stored[f"C{n:06d}"][1] or "" for n in range(18, 22)] == ["", "大客户", "大客户", "大客户"]
    assert "C000029" in stored and "C000030" not in stored  # row 31 repeated row 30's code
    # the summary names the blocks filled down, in the desk's language; its notes keep the code
    warned = " ".join(task.summary["warnings"])
    assert all(ref in warned for ref in ("H5:H8", "I20:I22", "A30:A31")), warned
    assert [n["code"] for n in task.summary["notes"]] == ["merged_cells_filled"]
    assert task.summary["notes"][0]["params"]["count"] == 3


def test_a_merged_header_is_one_header_and_keeps_the_bulk_path(paths: tuple[Core, Core],  # noqa: F811
                                                               tmp_path: Path) -> None:  # fmt: skip
    path = sheet_with_a_merged_header(tmp_path / "header.xlsx")
    bulk_facts, _stored = both(paths, path, seed=False)  # the bulk path ran (both() checks it) and agrees
    assert (bulk_facts["success_count"], bulk_facts["fail_count"]) == (ROWS, 0)
    clear(paths[1], "customers")
    task = run_import(paths[1], path, force=True)
    assert task.summary["warnings"] == []  # no "unknown column 姓名": J1 is a blank header, its cells ignored
    with paths[1].store.reading() as conn:
        notes = dict(conn.exec_driver_sql("SELECT code, note FROM customers").all())
    assert len(notes) == ROWS and notes["C000003"] == "备注3" and notes["C000004"] == "备注4"
