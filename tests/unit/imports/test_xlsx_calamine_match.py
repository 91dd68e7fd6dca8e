"""calamine's slices give exactly the rows, row numbers and errors the streaming parser gives, on every workbook."""

from __future__ import annotations

import datetime
import sys
import warnings
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from desktop_app.domain.errors import BatchDeskError
from desktop_app.imports.readers import ReadLimits, open_table, xlsx_plain
from desktop_app.imports.readers.xlsx_reader import XlsxReader
from tests.support import hostile_files as hostile
from tests.unit.imports.test_xlsx_rows_match import BROKEN, CELLS, HOSTILE, MAIN, ROOT, SMALL, sheet, write_book

sys.path.insert(0, str(ROOT / "bench"))
from make_customers_xlsx import write_customers_xlsx

PLAIN_STRINGS = (
    '<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="4" uniqueCount="4">'
    '<si><t>plain</t></si><si><t xml:space="preserve"> spaced </t></si><si><t/></si><si><t>王伟 &amp; co</t></si></sst>'
)

Outcome = tuple[Any, ...]


def _typed(values: Any) -> list[tuple[str, Any]]:
    return [(type(v).__name__, v) for v in values]  # 5 == 5.0 and 1 == True: the types are compared too


def outcome(path: Path, *, calamine: bool, limits: ReadLimits, sheet: str | None, skip: int) -> tuple[Outcome, int]:
    """What the import reads (header, rows from skip on, the count, the error that ended them), and how
    many sheet rows calamine read."""
    got: list[Any] = []
    used = [0]
    try:
        XlsxReader.use_calamine = calamine
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with open_table(path, sheet=sheet, limits=limits) as reader:
                assert isinstance(reader, XlsxReader)
                got.append(("header", reader.header))
                try:
                    for row in reader.rows(skip_through=skip):
                        got.append(("row", row.row_number, _typed(row.cells)))
                finally:
                    used[0] = reader.calamine_rows
                count = reader.count_rows()
                got.append(("count", count))
                bound = reader.row_bound()
                assert bound is None or bound >= count
    except BatchDeskError as exc:
        got.append(("error", type(exc).__name__, exc.code, exc.params))
    finally:
        XlsxReader.use_calamine = True
    return tuple(got), used[0]


def assert_same(
    path: Path, *, limits: ReadLimits | None = None, sheet: str | None = None, skip: int = 1, read: bool | None = None
) -> Outcome:
    """The two readings agree; read=True: calamine read rows, read=False: it read none."""
    limits = limits or ReadLimits()
    new, used = outcome(path, calamine=True, limits=limits, sheet=sheet, skip=skip)
    old, none = outcome(path, calamine=False, limits=limits, sheet=sheet, skip=skip)
    assert none == 0
    assert new == old
    if read is not None:
        assert (used > 0) is read, used
    return new


# --- the hand-written cells of the streaming parser's own test, with a plain string table ----------------


@pytest.mark.parametrize("name", sorted(CELLS))
@pytest.mark.parametrize("date1904", [False, True])
def test_every_kind_of_cell(tmp_path: Path, name: str, date1904: bool) -> None:
    # most of these rows are odd on purpose: calamine reads the header, the streaming parser the rest
    path = write_book(tmp_path / "cells.xlsx", sheet(CELLS[name]), date1904=date1904, strings=PLAIN_STRINGS)
    assert_same(path, read=True)


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_damaged_sheets_fail_alike(tmp_path: Path, name: str) -> None:
    got = assert_same(write_book(tmp_path / "broken.xlsx", sheet(BROKEN[name]), strings=PLAIN_STRINGS))
    assert got[-1][0] == "error"


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_workbooks_alike(tmp_path: Path, name: str) -> None:
    assert_same(HOSTILE[name](tmp_path / f"{name}.xlsx"), limits=SMALL)


def test_far_corners_are_never_given_to_calamine(tmp_path: Path) -> None:
    # calamine would allocate 1,048,576 x 16,384 cells for these two and abort the process
    rows = b'<row r="1"><c r="A1"><v>1</v></c></row><row r="1048576"><c r="XFD1048576"><v>2</v></c></row>'
    for head in (b'<dimension ref="A1:XFD1048576"/>', b'<dimension ref="A1:B2"/>'):
        path = hostile.write_xlsx(tmp_path / "corners.xlsx", hostile.sheet_xml([rows], head=head))
        assert_same(path, read=False)


def test_a_gap_wider_than_a_slice_goes_to_the_streaming_parser(tmp_path: Path) -> None:
    rows = [b'<row r="%d"><c r="A%d"><v>%d</v></c></row>' % (n, n, n) for n in (2, 3, 900_000, 900_001)]
    path = hostile.write_xlsx(tmp_path / "gap.xlsx", hostile.sheet_xml(rows, head=b'<dimension ref="A1:C900001"/>'))
    got = assert_same(path, read=True)
    assert [g[1] for g in got if g[0] == "row"] == [2, 3, 900_000, 900_001]


# --- generated workbooks: many rows, every kind, across slice boundaries ----------------------------------

# The tests below read their sheets in small slices, so a thousand rows cross what 6,000 rows did at the
# shipped sizes, and more of it: a first slice, slices doubling up to SLICE_BYTES, then slices at that cap,
# each matched in several windows, the sheet inflated in small reads. At the shipped sizes (CHUNK 1 MB) a
# 6,000-row sheet was two slices of ~3,400 and ~2,600 rows, each row read four times by the streaming
# parser (the costly part). test_several_sheets and test_the_benchmark_workbook read at the shipped sizes.
MISSING_EVERY = 97  # a row number left out; with BLANK_EVERY, in several slices of a 1,000-row sheet
BLANK_EVERY = 101  # a formatted blank row


def use_small_slices(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(xlsx_plain, "FIRST_SLICE_BYTES", 16 * 1024)
    monkeypatch.setattr(xlsx_plain, "SLICE_BYTES", 64 * 1024)  # ~200 rows a slice
    monkeypatch.setattr(xlsx_plain, "CHUNK", 4096)  # slices cut near their size, not a 1 MB read past it
    monkeypatch.setattr(xlsx_plain, "MATCH_WINDOW", 16 * 1024)  # four windows a slice


@pytest.fixture
def small_slices(monkeypatch: pytest.MonkeyPatch) -> None:
    use_small_slices(monkeypatch)


def _cells(n: int) -> Iterator[str]:
    """Row n's cells: shared and inline strings, numbers, numbers as text, dates, whole decimals, blanks."""
    yield f'<c r="A{n}" t="inlineStr"><is><t>C{n:06d}</t></is></c>'
    yield f'<c r="B{n}" t="s"><v>{n % 4}</v></c>'
    if n % 7:
        yield f'<c r="C{n}"><v>{13800000000 + n}</v></c>'  # a phone as a number
    yield f'<c r="D{n}" t="str"><f>TEXT(A1)</f><v>00{n}</v></c>'  # digits as text keep their zeros
    yield f'<c r="E{n}" s="1"><v>{40000 + n % 5000}</v></c>'  # a date
    yield f'<c r="F{n}"><v>{n % 900}.{n % 100:02d}</v></c>'  # "12.00": floats in this column
    if n % 3 == 0:
        yield f'<c r="G{n}" t="b"><v>{n % 2}</v></c>'
    yield f'<c r="H{n}" s="2"/>'  # a formatted empty cell
    yield f'<c r="I{n}"><v>-{n}.25</v></c>'


def _plain_sheet(count: int, *, odd: dict[int, str] | None = None, dimension: str = "A1:I{last}") -> str:
    odd = odd or {}
    head = '<row r="1">' + "".join(
        f'<c r="{c}1" t="inlineStr"><is><t>col {c}</t></is></c>' for c in "ABCDEFGHI"
    ) + "</row>"  # fmt: skip
    rows = []
    for n in range(2, count + 2):
        if n % MISSING_EVERY == 0:
            continue  # a missing row keeps its number free
        if n % BLANK_EVERY == 0:
            rows.append(f'<row r="{n}" spans="1:9" s="3" customFormat="1"/>')  # a formatted blank row
            continue
        rows.append(odd.get(n) or f'<row r="{n}" spans="1:9">{"".join(_cells(n))}</row>')
    body = "\n".join(rows)  # a line break between rows, as some writers put
    dim = dimension.format(last=count + 1)
    return (
        f'<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="{MAIN}"><dimension ref="{dim}"/>'
        f"<sheetData>{head}{body}</sheetData></worksheet>"
    )


_DATE_STYLES = (
    '<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><fonts count="1"><font/></fonts>'
    '<fills count="1"><fill><patternFill patternType="none"/></fill></fills><borders count="1"><border/></borders>'
    '<cellStyleXfs count="1"><xf/></cellStyleXfs><cellXfs count="4"><xf numFmtId="0"/><xf numFmtId="14"/>'
    '<xf numFmtId="4"/><xf numFmtId="0"/></cellXfs></styleSheet>'
)


def _write(path: Path, text: str, *, date1904: bool = False) -> Path:
    write_book(path, text, date1904=date1904, strings=PLAIN_STRINGS)
    return _replace_part(path, "xl/styles.xml", _DATE_STYLES)


def _replace_part(path: Path, part: str, text: str) -> Path:
    with zipfile.ZipFile(path) as zf:
        parts = {n: zf.read(n) for n in zf.namelist()}
    parts[part] = text.encode()
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in parts.items():
            zf.writestr(name, data)
    return path


@pytest.mark.usefixtures("small_slices")
@pytest.mark.parametrize("date1904", [False, True])
def test_many_rows_across_slices(tmp_path: Path, date1904: bool) -> None:
    path = _write(tmp_path / "many.xlsx", _plain_sheet(1200), date1904=date1904)
    got = assert_same(path, read=True)
    numbers = [g[1] for g in got if g[0] == "row"]
    assert numbers[0] == 2 and numbers[-1] == 1201
    assert MISSING_EVERY * 2 not in numbers and BLANK_EVERY * 2 not in numbers
    assert ("count", len(numbers)) in got
    assert len(zipfile.ZipFile(path).read("xl/worksheets/sheet1.xml")) > 4 * xlsx_plain.FIRST_SLICE_BYTES


@pytest.mark.usefixtures("small_slices")
@pytest.mark.parametrize("skip", [1, 150, 213, 214, 1199, 1400])
def test_resuming_anywhere(tmp_path: Path, skip: int) -> None:
    # every skip_through: inside the first slice, at its end (its last row is 213 in small slices), in a
    # later one, past the end
    assert_same(_write(tmp_path / "resume.xlsx", _plain_sheet(1200)), skip=skip)


ODD_ROWS = {
    "error_cell": '<row r="{n}"><c r="A{n}" t="e"><v>#N/A</v></c></row>',
    "integer_beside_whole_decimals": '<row r="{n}"><c r="F{n}"><v>12</v></c></row>',
    "exponent": '<row r="{n}"><c r="C{n}"><v>1.5E3</v></c></row>',
    "rich_inline": '<row r="{n}"><c r="A{n}" t="inlineStr"><is><r><t>a</t></r></is></c></row>',
    "cell_of_another_row": '<row r="{n}"><c r="A{m}"><v>1</v></c></row>',
    "columns_out_of_order": '<row r="{n}"><c r="C{n}"><v>3</v></c><c r="B{n}"><v>2</v></c></row>',
    "row_going_back": '<row r="5"><c r="A5"><v>5</v></c></row>',
    "beyond_the_dimension": '<row r="{n}"><c r="J{n}"><v>10</v></c></row>',
    "escaped_text": '<row r="{n}"><c r="A{n}" t="inlineStr"><is><t>a_x000D_b</t></is></c></row>',
    "trailing_space": '<row r="{n}"><c r="A{n}" t="inlineStr"><is><t>a </t></is></c></row>',
    "sixteen_digits": '<row r="{n}"><c r="C{n}"><v>1234567890123456</v></c></row>',
    "broken_xml": '<row r="{n}"><c r="A{n}"><v>1</v></c></rw>',
}


@pytest.mark.usefixtures("small_slices")
@pytest.mark.parametrize("name", sorted(ODD_ROWS))
@pytest.mark.parametrize("at", [40, 700])  # in the first slice, in the fourth of the small slices
def test_a_row_that_is_not_plain_hands_on_to_the_streaming_parser(tmp_path: Path, name: str, at: int) -> None:
    odd = {at: ODD_ROWS[name].format(n=at, m=at + 1)}
    # "5" beside "5.00" in one column: the slice that holds both is the streaming parser's
    read = None if name == "integer_beside_whole_decimals" and at < 100 else True
    got = assert_same(_write(tmp_path / "odd.xlsx", _plain_sheet(1000, odd=odd)), read=read)
    if name != "broken_xml":
        assert any(g[0] == "row" and g[1] == at + 1 for g in got)  # the rows after it are read on


def test_several_sheets(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    first = wb.active
    assert first is not None
    first.title = "First"
    first.append(["a", "b"])
    first.append([1, "x"])
    second = wb.create_sheet("Second")
    second.append(["code", "when", "amount", "note"])
    for n in range(1, 3000):
        day = datetime.date(2024, 1, 1) + datetime.timedelta(days=n)
        second.append([f"C{n}", day, n * 1.5, None if n % 5 else "five"])
    second.append([])
    second.append(["last", None, 0, "end"])
    path = tmp_path / "books.xlsx"
    wb.save(path)
    assert_same(path, read=True)
    got = assert_same(path, sheet="Second", read=True)
    assert got[-2][1] == 3002 and got[-1] == ("count", 3000)


def test_the_benchmark_workbook(tmp_path: Path) -> None:
    got = assert_same(write_customers_xlsx(tmp_path / "customers.xlsx", 3000), read=True)
    assert ("count", 3000) in got


def test_the_sample_workbook() -> None:
    assert_same(ROOT / "resources" / "samples" / "customers.xlsx", read=True)


def test_a_huge_cell_is_refused_alike(tmp_path: Path) -> None:
    long = "长" * 600
    odd = {300: f'<row r="300"><c r="A300" t="inlineStr"><is><t>{long}</t></is></c></row>'}
    path = _write(tmp_path / "long.xlsx", _plain_sheet(1000, odd=odd))
    got = assert_same(path, limits=ReadLimits(max_cell_chars=500), read=True)
    assert got[-1][0] == "error"


@pytest.mark.usefixtures("small_slices")
def test_a_row_longer_than_a_match_window(tmp_path: Path) -> None:
    long = "长x" * (xlsx_plain.MATCH_WINDOW // 2)  # 1.5x the window in UTF-8
    odd = {600: f'<row r="600"><c r="A600" t="inlineStr"><is><t>{long}</t></is></c></row>'}
    got = assert_same(_write(tmp_path / "long_row.xlsx", _plain_sheet(800, odd=odd)), read=True)
    assert ("row", 600, [("str", long)] + [("NoneType", None)] * 8) in got


def test_custom_formats_over_builtin_ids(tmp_path: Path) -> None:
    # a numFmt may redefine a builtin id: 14 (a date) as a number, 3 (a number) as a date
    styles = _DATE_STYLES.replace(
        '<fonts count="1">',
        '<numFmts count="2"><numFmt numFmtId="14" formatCode="0.00"/>'
        '<numFmt numFmtId="3" formatCode="yyyy-mm-dd"/></numFmts><fonts count="1">',
    )
    styles = styles.replace('<xf numFmtId="4"/>', '<xf numFmtId="3"/>')  # fmt: skip
    path = write_book(tmp_path / "formats.xlsx", sheet('<row r="2"><c r="A2" s="1"><v>45000</v></c><c r="B2" s="2">'
                                                      '<v>45000</v></c></row>'), strings=PLAIN_STRINGS)  # fmt: skip
    with zipfile.ZipFile(path) as zf:
        parts = {n: zf.read(n) for n in zf.namelist()}
    parts["xl/styles.xml"] = styles.encode()
    with zipfile.ZipFile(path, "w") as zf:
        for name, data in parts.items():
            zf.writestr(name, data)
    got = assert_same(path, read=True)
    assert ("row", 2, [("int", 45000), ("date", datetime.date(2023, 3, 15)), ("NoneType", None)]) in got


def test_date_cells_written_by_openpyxl(tmp_path: Path) -> None:
    # openpyxl (and LibreOffice) write a date as s="N" t="n": calamine reads them, as the streaming parser does
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append(["day", "stamp", "number"])
    for n in range(1, 400):
        sheet.append([datetime.date(2024, n % 12 + 1, n % 28 + 1), datetime.datetime(2024, 1, n % 28 + 1), n + 0.5])
    path = tmp_path / "dates.xlsx"
    book.save(path)
    assert b's="1" t="n"' in zipfile.ZipFile(path).read("xl/worksheets/sheet1.xml")
    got = assert_same(path, read=True)
    assert outcome(path, calamine=True, limits=ReadLimits(), sheet=None, skip=1)[1] == 400  # every row
    assert ("row", 2, [("date", datetime.date(2024, 2, 2)), ("date", datetime.date(2024, 1, 2)), ("float", 1.5)]) in got


RICH_STRINGS = (
    '<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="4" uniqueCount="4">'
    '<si><r><rPr><b/></rPr><t>bold</t></r><r><t xml:space="preserve"> and plain </t></r></si>'
    '<si><t>  two spaces  </t></si><si><t>&lt;tag&gt; &amp; "quotes"</t></si><si><t>中文</t><rPh sb="0" eb="1">'
    "<t>ちゅうぶん</t></rPh></si></sst>"
)


@pytest.mark.usefixtures("small_slices")
@pytest.mark.parametrize("strings", ["plain", "rich"])
def test_a_shared_string_table_calamine_is_not_given_goes_in_the_slices_inline(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, strings: str
) -> None:
    # over MAX_STRINGS_BYTES (here: any), or of rich and phonetic runs: the strings as the streaming parser reads them
    if strings == "plain":
        monkeypatch.setattr(xlsx_plain, "MAX_STRINGS_BYTES", 10)
    path = _write(tmp_path / "inline.xlsx", _plain_sheet(600))
    if strings == "rich":
        _replace_part(path, "xl/sharedStrings.xml", RICH_STRINGS)
    got, used = outcome(path, calamine=True, limits=ReadLimits(), sheet=None, skip=1)
    assert used > 580
    assert_same(path, read=True)
    texts = {cell for g in got if g[0] == "row" for kind, cell in g[2] if kind == "str"}
    if strings == "rich":
        assert {"bold and plain ", "  two spaces  ", '<tag> & "quotes"'} <= texts
    else:
        assert {" spaced ", "王伟 & co", "plain"} <= texts


@pytest.mark.usefixtures("small_slices")
def test_a_shared_string_index_beyond_the_table_fails_alike_when_inline(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(xlsx_plain, "MAX_STRINGS_BYTES", 10)
    # small slices (CHUNK 4096 among them): calamine reads the slices before the bad one
    odd = {500: '<row r="500"><c r="B500" t="s"><v>99</v></c></row>'}
    got = assert_same(_write(tmp_path / "beyond.xlsx", _plain_sheet(600, odd=odd)), read=True)
    assert got[-1][0] == "error"


def test_a_preview_of_twenty_rows_reads_one_small_first_slice(tmp_path: Path) -> None:
    """At the shipped sizes: the first slice is FIRST_SLICE_BYTES of XML (a few hundred rows), not the first
    read's whole megabyte (it was 3,433 rows of this sheet for a preview of 20)."""
    path = write_customers_xlsx(tmp_path / "customers.xlsx", 6000)
    with open_table(path, limits=ReadLimits()) as reader:
        assert isinstance(reader, XlsxReader)
        rows = reader.rows(skip_through=1)
        first = [next(rows) for _ in range(20)]
        assert first[0].row_number == 2 and first[-1].row_number == 21
        assert 20 <= reader.calamine_rows <= 400, reader.calamine_rows
    assert_same(path, read=True)  # and the whole sheet, slice by slice, reads as the streaming parser reads it
