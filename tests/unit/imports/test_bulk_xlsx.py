"""An .xlsx sheet's bulk batches hold exactly the rows the row reader gives: each once, numbered alike, as text
where the row validator reads a cell's text as the cell, else as the reader's typed cells (an odd record)."""

from __future__ import annotations

import datetime
import warnings
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from desktop_app.imports.bulk.csv_batches import BulkReadError
from desktop_app.imports.bulk.excel_text import takes
from desktop_app.imports.bulk.xlsx_batches import XlsxBatches
from desktop_app.imports.import_type import builtin_import_types_dir, load_import_type
from desktop_app.imports.readers import open_table, xlsx_reader
from desktop_app.imports.readers.cells import cell_to_text
from desktop_app.imports.readers.xlsx_reader import XlsxReader
from tests.unit.imports.test_xlsx_calamine_match import (
    BLANK_EVERY,
    MISSING_EVERY,
    ODD_ROWS,
    _plain_sheet,
    _typed,
    _write,
    use_small_slices,
)

CUSTOMERS = load_import_type(builtin_import_types_dir() / "customers.toml")
SPECS = {c.key: c for c in CUSTOMERS.columns}

# the generated sheet's columns (test_xlsx_calamine_match._cells) read as customers columns:
# A inline codes, B shared strings, C phones as numbers, D digits as text, E dates, F decimals, G booleans,
# H formatted empty cells, I negative decimals
MOSTLY_TEXT = {"code": 0, "level": 1, "phone": 2, "email": 3, "opened_on": 4, "credit_limit": 5,
               "department": 6, "name": 7, "note": 8}  # fmt: skip
# numbers in a date column that reads regional spellings (a serial as text is a date there, as a cell not):
# every row with a phone is an odd record
NUMBERS_AS_DATES = {**MOSTLY_TEXT, "phone": 4, "opened_on": 2}
IN_ORDER = {spec.key: j for j, spec in enumerate(CUSTOMERS.columns)}  # a customers sheet's own columns


@pytest.fixture
def small_slices(monkeypatch: pytest.MonkeyPatch) -> None:
    """test_xlsx_calamine_match's small slices (~200 rows each, 1,000-row sheets cross what 6,000 rows did at
    the shipped sizes), and the streaming parser's rows in blocks of 300, not 2,000, for the same reason."""
    use_small_slices(monkeypatch)
    monkeypatch.setattr(xlsx_reader, "STREAMED_ROWS", 300)


def read_both(path: Path, index_by_key: dict[str, int], skip: int = 1) -> tuple[dict[int, Any], dict[int, Any], int]:
    """The bulk batches' rows checked against the row reader's: (text rows, odd rows, rows calamine read)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with open_table(path) as reader:
            assert isinstance(reader, XlsxReader)
            expected = {r.row_number: r.cells for r in reader.rows(skip_through=skip)}
            source = XlsxBatches(reader, CUSTOMERS, index_by_key)
            batches = list(source.batches(skip))
            used = reader.calamine_rows
            width = len(reader.header)
    by_column = {j: SPECS[k] for k, j in index_by_key.items()}
    regular: dict[int, tuple[str, ...]] = {}
    odd: dict[int, Any] = {}
    last = skip
    for batch in batches:
        numbers = batch.row_numbers.to_pylist()
        assert numbers == sorted(numbers) and (not numbers or numbers[0] > last)
        assert all(len(c) == len(numbers) for c in batch.columns) and len(batch.columns) == width
        columns = [c.to_pylist() for c in batch.columns]
        for k, n in enumerate(numbers):
            regular[n] = tuple(col[k] for col in columns)
        for record in batch.odd:
            assert record.row_number > last
            odd[record.row_number] = record.cells
        last = batch.last_row
    assert not set(regular) & set(odd)
    for n, texts in regular.items():
        if n not in expected:  # blank to the row reader: the splitter drops it
            assert all(not t.strip() for t in texts), n
            continue
        cells = expected[n]
        assert len(cells) == width
        assert texts == tuple(cell_to_text(c) for c in cells), n
        assert all(takes(by_column.get(j))(c) for j, c in enumerate(cells)), n
    for n, cells in odd.items():
        assert _typed(cells) == _typed(expected[n]), n
    assert set(expected) == set(odd) | {n for n in regular if n in expected}
    return regular, odd, used


@pytest.mark.usefixtures("small_slices")
@pytest.mark.parametrize("mapping", [MOSTLY_TEXT, NUMBERS_AS_DATES], ids=["text", "numbers_as_dates"])
def test_many_rows_across_slices(tmp_path: Path, mapping: dict[str, int]) -> None:
    path = _write(tmp_path / "many.xlsx", _plain_sheet(1200))
    regular, odd, used = read_both(path, mapping)
    assert used > 1000  # (5,000 of 6,000 before the sheet was made smaller)
    assert min([*regular, *odd]) == 2 and max([*regular, *odd]) == 1201  # a missing row: blank if given
    assert BLANK_EVERY * 2 in regular  # a formatted blank row: a blank row for the splitter to drop
    if mapping is MOSTLY_TEXT:
        assert not odd
    else:
        assert len(odd) > 800 and all(n % 7 for n in odd)  # the rows without a phone are text (4,000 of 6,000)


@pytest.mark.usefixtures("small_slices")
@pytest.mark.parametrize("skip", [1, 150, 213, 214, 1199, 1400])  # the first small slice's last row is 213
def test_resuming_mid_slice(tmp_path: Path, skip: int) -> None:
    regular, odd, _ = read_both(_write(tmp_path / "resume.xlsx", _plain_sheet(1200)), NUMBERS_AS_DATES, skip)
    rows = sorted([*regular, *odd])
    assert not rows or rows[0] == skip + 1 or (skip + 1) % MISSING_EVERY == 0


@pytest.mark.usefixtures("small_slices")
@pytest.mark.parametrize("name", sorted(set(ODD_ROWS) - {"broken_xml", "row_going_back"}))
@pytest.mark.parametrize("at", [40, 700])  # in the first slice, in the fourth of the small slices
def test_a_row_that_is_not_plain_hands_on_to_the_streaming_parser(tmp_path: Path, name: str, at: int) -> None:
    path = _write(tmp_path / "odd.xlsx", _plain_sheet(1000, odd={at: ODD_ROWS[name].format(n=at, m=at + 1)}))
    regular, odd, used = read_both(path, MOSTLY_TEXT)
    assert at + 1 in regular and max(regular) == 1001  # the rows after it are read on
    if name != "integer_beside_whole_decimals":
        assert used > 0
    if name == "beyond_the_dimension":
        assert at in odd  # content beyond the header's width: the row validator's


@pytest.mark.usefixtures("small_slices")
@pytest.mark.parametrize("name", ["broken_xml", "row_going_back"])
def test_a_broken_sheet_or_a_row_going_back_steps_aside(tmp_path: Path, name: str) -> None:
    # the row reader takes over from the last committed row and says (or does) what it always does
    path = _write(tmp_path / "broken.xlsx", _plain_sheet(1000, odd={700: ODD_ROWS[name].format(n=700)}))
    with open_table(path) as reader:
        assert isinstance(reader, XlsxReader)
        batches = XlsxBatches(reader, CUSTOMERS, MOSTLY_TEXT).batches()
        with pytest.raises(BulkReadError):
            for _ in batches:
                pass


TYPED_CELLS: list[Any] = [
    13800138000, 5, -3, 0, 1500.5, 67391.3, 0.1 + 0.2, 1e-7, 1e16, 12345678901234567, True, False,
    datetime.date(2024, 2, 29), datetime.datetime(2024, 1, 5, 10, 30), datetime.datetime(2024, 1, 5),
    datetime.time(9, 30), datetime.timedelta(hours=30), " ", "", "text", "'=1+2", "  padded  ",
]  # fmt: skip


def test_number_date_and_other_typed_cells(tmp_path: Path) -> None:
    # every kind of cell in every column, written by openpyxl (the streaming parser reads what calamine cannot)
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append([f"col {c}" for c in "ABCDEFGHI"])
    for n, cell in enumerate(TYPED_CELLS * 9):
        row: list[Any] = [f"C{n:06d}", "name", 13800000000 + n, "a@b.cn", "金卡", datetime.date(2024, 1, 5), 12.5,
                          "销售部", ""]  # fmt: skip
        row[n % 9] = cell
        sheet.append(row)
    sheet.append([])  # a blank row, and one with only spaces
    sheet.append([" ", None, "  "])
    sheet.append([None] * 9 + ["beyond the header"])
    sheet.append([None] * 9 + ["   "])  # only spaces beyond the header: blank to the row reader
    path = tmp_path / "typed.xlsx"
    book.save(path)
    regular, odd, _ = read_both(path, IN_ORDER)
    assert len(regular) > 100 and len(odd) > 10
    last = len(TYPED_CELLS) * 9 + 1  # then a blank row, one of spaces, one beyond the header, one of spaces beyond
    assert last + 1 not in regular and last + 1 not in odd
    assert last + 2 in regular and not "".join(regular[last + 2]).strip()
    assert last + 3 in odd and odd[last + 3][9] == "beyond the header"
    assert last + 4 not in regular and last + 4 not in odd
    # a number in the date column, a datetime with a time of day there, a bool or a fraction among integers ...
    assert {n for n in odd if n <= last} == {n + 2 for n, c in enumerate(TYPED_CELLS * 9) if not _taken(n % 9, c)}


def _taken(column: int, cell: Any) -> bool:
    from desktop_app.imports.readers.excel_reader import normalize_cell

    key = next(k for k, j in IN_ORDER.items() if j == column)
    return takes(SPECS[key])(normalize_cell(cell))


ROW_TAGS = {
    b'<sheetData><row r="1"><c r="A1"/></row><row r="2"/><row r="10" spans="1:2"></row></sheetData><rowBreaks/>': (
        4, True),
    b'<row r="1"/><row r="2"/>': (2, True),
    b'<row r="1"/><row r="1"/>': (2, False),  # a number twice
    b'<row r="5"/><row r="3"/>': (2, False),  # going back
    b'<row r="1"/><row/>': (2, False),  # numbered by its place: not seen
    b'<row r="1"/><row spans="1:2" r="2"/>': (2, False),  # r not first: not seen
    b'<x:row r="1"/>': (1, False),  # a prefix
    b'<row\nr="1"/>': (1, False),
    b'<row r="1"/><!DOCTYPE x><row r="2"/>': None,
}  # fmt: skip


@pytest.mark.parametrize("xml", sorted(ROW_TAGS))
def test_the_count_of_row_tags_sees_whether_the_numbers_increase(xml: bytes) -> None:
    from desktop_app.imports.readers.xlsx_plain import _RowTags

    for size in (1, 3, 7, 1000):  # whatever the pieces, the same answer
        tags, whole = _RowTags(), True
        for start in range(0, len(xml), size):
            whole = tags.feed(xml[start : start + size]) and whole
        whole = tags.feed(b"<") and whole
        assert ((tags.total, tags.ordered) if whole else None) == ROW_TAGS[xml], size


@pytest.mark.usefixtures("small_slices")
def test_a_sheet_numbered_back_steps_aside_from_the_top_and_where_a_resume_meets_it(tmp_path: Path) -> None:
    path = _write(tmp_path / "back.xlsx", _plain_sheet(1000, odd={800: ODD_ROWS["row_going_back"].format(n=800)}))
    with open_table(path) as reader:
        assert isinstance(reader, XlsxReader)
        assert reader.row_bound() is not None and reader.rows_in_order is False
        with pytest.raises(BulkReadError):  # from the top: before any batch
            next(iter(XlsxBatches(reader, CUSTOMERS, MOSTLY_TEXT).batches(1)))
        # resumed after row 200: the row numbered 5 again is below it, skipped as the row reader's resume does
        rows = [n for b in XlsxBatches(reader, CUSTOMERS, MOSTLY_TEXT).batches(200) for n in b.row_numbers.to_pylist()]
        assert rows[0] == 201 and 5 not in rows and max(rows) == 1001
        assert set(rows) >= {r.row_number for r in reader.rows(skip_through=200)}  # blank rows besides
        # resumed after row 3: row 5 comes again after row 799, which no batch of numbers can hold
        got = []
        with pytest.raises(BulkReadError):
            for batch in XlsxBatches(reader, CUSTOMERS, MOSTLY_TEXT).batches(3):
                got.append(batch.last_row)
        assert got and max(got) < 800
