"""An .xlsx sheet's row tags counted ahead (readers.xlsx_ahead) give what the reader's own count gives,
and are taken only by a reader of the same sheet of the file as it was when the count began."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from desktop_app.domain.errors import PermanentError
from desktop_app.imports import precount
from desktop_app.imports.readers import open_table, xlsx_ahead, xlsx_plain
from desktop_app.imports.readers.xlsx_reader import XlsxReader
from desktop_app.tasks.file_ahead import FileAhead


def _book(path: Path, first: int, second: int) -> Path:
    book = openpyxl.Workbook()
    one = book.active
    assert one is not None
    one.title = "first"
    two = book.create_sheet("second")
    for sheet, rows in ((one, first), (two, second)):
        sheet.append(["code", "name"])
        for n in range(rows):
            sheet.append([f"C{n:05d}", f"名字{n}"])
    book.save(path)
    return path


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The parts the reader counts itself (the count ahead runs its own, unpatched)."""
    parts: list[str] = []
    real = xlsx_plain.count_row_tags

    def counting(archive: Any, part: str) -> Any:
        parts.append(part)
        return real(archive, part)

    monkeypatch.setattr(xlsx_plain, "count_row_tags", counting)
    return parts


def _bound(path: Path, sheet: str | None = None) -> tuple[int | None, bool | None]:
    with open_table(path, sheet=sheet) as reader:
        assert isinstance(reader, XlsxReader)
        return reader.row_bound(), reader.rows_in_order


def test_the_count_begun_ahead_is_the_readers_own_and_is_taken_once(tmp_path: Path, counted: list[str]) -> None:
    path = _book(tmp_path / "a.xlsx", 300, 7)
    now = _bound(path)
    assert now == (300, True) and len(counted) == 1
    precount.count_ahead(path)
    assert _bound(path) == now and len(counted) == 1  # the one begun ahead
    assert _bound(path) == now and len(counted) == 2  # taken once: counted again


def test_a_named_sheet_is_not_counted_ahead_and_another_sheet_counts_itself(tmp_path: Path,
                                                                            counted: list[str]) -> None:  # fmt: skip
    path = _book(tmp_path / "a.xlsx", 300, 7)
    precount.count_ahead(path, sheet="second")
    assert xlsx_ahead._AHEAD.take(path) is None
    xlsx_ahead.count_ahead(path)  # the first sheet counted ahead, the second one read
    assert _bound(path, sheet="second") == (7, True)
    assert counted == ["xl/worksheets/sheet2.xml"]


def test_a_file_saved_again_after_the_count_began_is_counted_again(tmp_path: Path, counted: list[str]) -> None:
    path = _book(tmp_path / "a.xlsx", 300, 7)
    precount.count_ahead(path)
    stat = path.stat()
    _book(path, 40, 7)
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    assert _bound(path) == (40, True) and len(counted) == 1


def test_a_count_ahead_that_failed_leaves_the_count_to_the_reader(tmp_path: Path, counted: list[str],
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    def broken(path: Path) -> Any:
        raise OSError("gone")

    monkeypatch.setattr(xlsx_ahead, "_AHEAD", FileAhead("test-count", broken))
    path = _book(tmp_path / "a.xlsx", 30, 7)
    precount.count_ahead(path)
    assert _bound(path) == (30, True) and len(counted) == 1


def test_a_workbook_the_count_ahead_cannot_open_fails_as_before(tmp_path: Path) -> None:
    path = tmp_path / "a.xlsx"
    path.write_bytes(b"PK\x03\x04 not a zip")
    with pytest.raises(PermanentError) as before:
        open_table(path)
    precount.count_ahead(path)
    with pytest.raises(PermanentError) as after:
        open_table(path)
    assert after.value.code is before.value.code and after.value.params == before.value.params
