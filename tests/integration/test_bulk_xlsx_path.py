"""An .xlsx import gives the same on the bulk path as row by row: rows stored, counts, error CSV bytes (every database).

The workbooks hold what a clerk's sheet holds (phones and limits as numbers, dates as date cells, codes as
text) and what it rarely does (numbers in the date column, a date with a time of day, booleans, text where
numbers go, blank rows, content beyond the header, a row calamine does not read, keys twice or already in
the table). The bulk run reads them in small slices and writes batches of 7 rows, so slice and batch
boundaries fall everywhere; the row run writes batches of 5. Then a bulk import stopped mid-slice (a cancel,
a failure, a lost worker) and resumed: each row once, each bad row in the error CSV once.
"""

from __future__ import annotations

import datetime
import random
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from desktop_app.app import Core
from desktop_app.domain.task import TaskRecord
from desktop_app.imports.readers import open_table, xlsx_plain
from desktop_app.imports.readers.xlsx_reader import XlsxReader
from tests.integration.test_bulk_path import LOADED, PALETTE, SEEDED, _pick, both, clear, facts, paths, snapshot  # noqa: F401
from tests.integration.test_import_crash import ROOT
from tests.integration.test_resume_import import (
    BAD_EVERY,
    ROWS,
    _after,
    _Halt,
    _resume_and_check,
    _run,
    _submit,
)
from tests.support.customers import HEADER, run_import
from tests.unit.imports.test_xlsx_calamine_match import _replace_part

sys.path.insert(0, str(ROOT / "bench"))
from make_customers_xlsx import write_customers_xlsx


@pytest.fixture
def small_slices(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(xlsx_plain, "FIRST_SLICE_BYTES", 4096)
    # ~20 rows a slice: the first slice is at least the 64 KB read for the sheet's head (~160 rows), so a
    # 300-row messy workbook still crosses six slices (at 16 KB it took 400 rows to cross seven)
    monkeypatch.setattr(xlsx_plain, "SLICE_BYTES", 8192)
    monkeypatch.setattr(xlsx_plain, "CHUNK", 4096)  # read in small pieces: each slice ends near its size


def customer(n: int) -> list[Any]:
    """Row n as a clerk's sheet holds it: the phone and the limit as numbers, the date as a date cell."""
    return [f"C{n:06d}", f"客户{n}", 13800000000 + n, f"c{n}@example.com", ["普通", "银卡", "金卡"][n % 3],
            datetime.date(2024, n % 12 + 1, n % 28 + 1), n % 1000 + 0.5, ["销售部", "市场部"][n % 2], None]  # fmt: skip


# per column: cells now and then instead of the usual one (some valid, some not), all of them plain (calamine's)
ODD_CELLS: dict[int, list[Any]] = {
    0: ["Ｃ{n:06d}", 123456, "c{n:06d}", None],
    1: ["'=HYPERLINK(1)", 42, True, None, "x" * 51],
    2: ["138{n:08d}", 1380013800.0, 12345678901.5, "139 1234 {n:04d}", True, None],
    3: [None, "u{n}@ex", 7],
    4: ["gold", 1, None, "vip"],
    5: ["2024-02-29", "2024/1/5", 45000, 45000.5, datetime.datetime(2024, 1, 5), "2023-02-29", "20240105", None,
        True],
    6: [12, "1,234.50", "¥12.5", 1000000.01, -1, 12.505, "12.5", None, True, datetime.date(2024, 1, 5)],
    7: ["不存在部", 3, None],
    8: ["多行\n备注", "'+1", "x" * 201, 0],
}  # fmt: skip
# and cells calamine does not read alike (the streaming parser reads on from the first): late in the sheet
LATE_CELLS: dict[int, list[Any]] = {
    0: ["C{n:06d} "],
    1: [" 名{n} "],
    4: [" 金卡"],
    5: [datetime.datetime(2024, 1, 5, 10, 30)],
    6: [1e-7, 0.1 + 0.2],
    8: ["#N/A", 1234567890123456, datetime.time(9, 30)],
}


def messy_workbook(path: Path, seed: int, rows: int = 300) -> Path:
    rng = random.Random(seed)
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append(HEADER)
    used: list[int] = []
    for i in range(1, rows + 1):
        n = i if rng.random() > 0.01 or not used else rng.choice(used)  # a key again: duplicate_in_file
        used.append(n)
        cells = customer(n)
        for column, others in ODD_CELLS.items():
            if rng.random() < 0.03:
                pick = rng.choice(others + LATE_CELLS.get(column, []) if i > rows - 60 else others)
                cells[column] = pick.format(n=n) if isinstance(pick, str) else pick
        if rng.random() < 0.005:
            cells[0] = rng.choice(SEEDED)  # already in the table
        draw = rng.random()
        if draw < 0.01:
            cells = [None] * 9  # a blank row
        elif draw < 0.015:
            cells = [*cells, "beyond the header"]
        elif draw < 0.02 and i > rows - 60:
            cells = [" ", None, "  "]  # blank to the row reader (and not plain: calamine trims the spaces)
        sheet.append(cells)
    sheet.cell(row=rows - 50, column=9).value = "#N/A"  # an error cell: the streaming parser reads the rest
    book.save(path)
    return path


def _calamine_read(path: Path) -> int:
    with open_table(path) as reader:
        assert isinstance(reader, XlsxReader)
        for _ in reader.rows():
            pass
        return reader.calamine_rows


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_messy_workbook_imports_the_same_on_both_paths(paths: tuple[Core, Core], tmp_path: Path,  # noqa: F811
                                                         seed: int, small_slices: None) -> None:  # fmt: skip
    path = messy_workbook(tmp_path / "messy.xlsx", seed)
    assert _calamine_read(path) > 200  # most rows are read by calamine, in several slices
    assert len(_slice_ends(path)) > 5
    facts, _stored = both(paths, path)
    assert facts["fail_count"] > 20 and facts["success_count"] > 200


def test_bad_rows_first_and_last_in_each_batch(paths: tuple[Core, Core], tmp_path: Path,  # noqa: F811
                                               small_slices: None) -> None:  # fmt: skip
    # batches of 7 rows: rows 2, 8, 9, 15, 16, ... are the first or the last of one
    bad = {n for n in range(2, 300) if (n - 2) % 7 in (0, 6)}
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append(HEADER)
    for n in range(1, 299):
        cells = customer(n)
        if n + 1 in bad:
            cells[2] = 1380013  # a phone too short, as a number
        sheet.append(cells)
    path = tmp_path / "edges.xlsx"
    book.save(path)
    facts, _ = both(paths, path, seed=False)
    assert facts["fail_count"] == len(bad)


def _workbook(tmp_path: Path) -> Path:
    """test_resume_import's file as a sheet: every BAD_EVERY-th phone bad (text), the rest numbers."""
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append(HEADER)
    for i in range(1, ROWS + 1):
        cells = customer(i)
        if i % BAD_EVERY == 0:
            cells[2] = "bad"
        sheet.append(cells)
    path = tmp_path / "customers.xlsx"
    book.save(path)
    return path


def _slice_ends(path: Path) -> set[int]:
    """The sheet rows each of calamine's slices ends with (the header is row 1)."""
    with open_table(path) as reader:
        assert isinstance(reader, XlsxReader) and reader._archive is not None
        plain = xlsx_plain.PlainRows.open(reader._archive, reader._sheet.part, reader._book, reader._limits)
        assert plain is not None
        ends, rows = set(), 0
        for piece in plain.slices():
            rows += piece.rows
            ends.add(rows)
        return ends


@pytest.fixture
def workbook(tmp_path: Path) -> Iterator[Path]:
    path = _workbook(tmp_path)
    assert _calamine_read(path) == ROWS + 1  # all of it in calamine's slices
    yield path


def _stopped_mid_slice(stopped: TaskRecord, path: Path) -> None:
    row = (stopped.checkpoint or {}).get("row")
    assert isinstance(row, int) and 1 < row < ROWS + 1
    assert row not in _slice_ends(path), (row, sorted(_slice_ends(path)))  # the checkpoint is inside a slice


def test_resume_after_a_cancel_mid_slice(core: Core, workbook: Path) -> None:
    task = _submit(core, workbook)

    def cancel() -> None:
        core.store.cancel(task.task_no)

    stopped = _run(core, task, True, _after(300, cancel))
    assert 300 <= stopped.success_count < ROWS
    _stopped_mid_slice(stopped, workbook)
    _resume_and_check(core, stopped, workbook, True)


def test_resume_after_a_lost_worker_mid_slice(core: Core, workbook: Path) -> None:
    task = _submit(core, workbook)

    def halt() -> None:
        raise _Halt

    with pytest.raises(_Halt):
        _run(core, task, True, _after(500, halt))
    assert core.store.recover_stale(-5, 0) == [task.task_no]
    stopped = core.store.get(task.task_no)
    assert stopped is not None
    _stopped_mid_slice(stopped, workbook)
    _resume_and_check(core, stopped, workbook, True)


def test_shared_strings_written_into_the_slices_import_the_same(paths: tuple[Core, Core], tmp_path: Path,  # noqa: F811
                                                                 small_slices: None, monkeypatch: pytest.MonkeyPatch,
                                                                 ) -> None:  # fmt: skip
    # a shared string table calamine is not given (here: any): its strings go into each slice, inline
    monkeypatch.setattr(xlsx_plain, "MAX_STRINGS_BYTES", 10)
    rng = random.Random(5)
    records: list[list[str]] = [list(HEADER)]
    for n in range(1, 401):
        cells = [_pick(rng, *PALETTE[h]).format(n=n) for h in HEADER]
        # no CR, NUL or other control characters: an .xlsx holds none (calamine would read "_x000D_" otherwise)
        records.append([c.replace("\r\n", "\n").replace("\x00", "").replace("\x1c", "") for c in cells])
    path = write_customers_xlsx(tmp_path / "shared.xlsx", len(records) - 1, records)
    assert _calamine_read(path) == len(records)  # every row by calamine, the names and notes from the table
    facts, _stored = both(paths, path)
    assert facts["fail_count"] > 5 and facts["success_count"] > 300


def test_a_row_numbered_back_imports_the_same_row_by_row(paths: tuple[Core, Core], tmp_path: Path) -> None:  # noqa: F811
    # row 150 written as row 5 again (a hand-made sheet): the bulk path hands the import to the row reader
    # before anything is committed, so the row numbered back is imported as the row path imports it
    records = [list(HEADER), *(list(map(str, customer_text(n))) for n in range(1, 300))]
    path = write_customers_xlsx(tmp_path / "back.xlsx", len(records) - 1, records)
    sheet = zipfile.ZipFile(path).read("xl/worksheets/sheet1.xml").decode()
    _replace_part(path, "xl/worksheets/sheet1.xml", sheet.replace('<row r="150">', '<row r="5">'))
    ended = []
    for desk in paths:
        clear(desk, "customers")
        task = run_import(desk, path, force=True)
        ended.append((facts(task), snapshot(desk, "customers", ["code"])))
        with desk.store.reading() as conn:
            again = conn.exec_driver_sql("SELECT import_row FROM customers WHERE code = 'C000149'").scalar()
        assert again == 5  # the row numbered back, stored with the number it has
    assert ended[0] == ended[1]
    assert ended[0][0]["success_count"] == 299 and not LOADED  # nothing went in bulk


def customer_text(n: int) -> list[str]:
    """customer(n) as the CSV cells make_customers_xlsx takes."""
    return [c.isoformat() if isinstance(c, datetime.date) else "" if c is None else str(c) for c in customer(n)]
