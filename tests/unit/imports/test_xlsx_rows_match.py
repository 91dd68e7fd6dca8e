"""The expat sheet parser gives exactly the rows openpyxl's own cell parsing gave, on every kind of cell and file."""

from __future__ import annotations

import datetime
import warnings
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from openpyxl.utils.datetime import CALENDAR_MAC_1904

from desktop_app.domain.errors import BatchDeskError
from desktop_app.imports.readers import ReadLimits, open_table
from desktop_app.imports.readers.xlsx_reader import XlsxReader
from tests.support import hostile_files as hostile
from tests.support.openpyxl_sheet_rows import SheetRows as OpenpyxlRows

ROOT = Path(__file__).resolve().parents[3]
MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PKG = "http://schemas.openxmlformats.org/package/2006"

Outcome = tuple[Any, ...]


def _typed(values: Any) -> list[tuple[str, Any]]:
    # 5 == 5.0 and 1 == True: the types are compared too
    return [(type(v).__name__, v) for v in values]


def outcome(path: Path, parser: type | None, limits: ReadLimits, sheet: str | None) -> Outcome:
    """The header, the raw sheet rows, the rows as the import gets them, and the error that ended them."""
    got: list[Any] = []
    try:
        XlsxReader.sheet_rows = parser
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a date out of range is "#VALUE!" with a warning, in both
            with open_table(path, sheet=sheet, limits=limits) as reader:
                got.append(("header", reader.header))
                assert isinstance(reader, XlsxReader)
                for num, values in reader._guarded(reader._sheet_rows(1)):
                    got.append(("raw", num, _typed(values)))
                got.extend(("row", row.row_number, _typed(row.cells)) for row in reader.rows())
    except BatchDeskError as exc:
        got.append(("error", type(exc).__name__, exc.code, exc.params))
    finally:
        XlsxReader.sheet_rows = None
    return tuple(got)


def assert_same(
    path: Path, *, limits: ReadLimits | None = None, sheet: str | None = None, opens: bool = True
) -> Outcome:
    limits = limits or ReadLimits()
    new = outcome(path, None, limits, sheet)
    old = outcome(path, OpenpyxlRows, limits, sheet)
    assert new == old
    if opens:
        assert new[0][0] == "header", new  # the sheet is what is compared: the workbook must open
    return new


# --- workbooks openpyxl writes -------------------------------------------------------------------


def _openpyxl_book(path: Path, *, epoch_1904: bool = False) -> Path:
    wb = openpyxl.Workbook()
    if epoch_1904:
        wb.epoch = CALENDAR_MAC_1904
    ws = wb.active
    assert ws is not None
    ws.title = "Data"
    ws.append(["code", "name", "phone", "when", "amount", "flag", "note", "time", "span"])
    ws.append(["C1", "王伟", 13800138000, datetime.date(2024, 3, 1), 12.5, True, "  ", datetime.time(8, 30),
               datetime.timedelta(hours=30, minutes=5)])  # fmt: skip
    ws.append(["C2", "", 5.0, datetime.datetime(2024, 3, 1, 10, 20, 30, 400000), -0.1, False, 12345678901234567890])
    ws.append([])  # a blank row keeps its number
    ws.append([None, None, None, None, None, None, None, None, None, "beyond the header"])
    ws.append(["C3", "=A2&B2", 1e-20, datetime.datetime(1900, 1, 15), 1e16, None, "é\u4e2d\U0001f600"])
    ws.merge_cells("A8:C8")
    ws["A8"] = "merged"
    ws.cell(row=12, column=2, value="far below")
    ws.cell(row=13, column=1).number_format = "yyyy-mm-dd"  # a styled empty cell
    other = wb.create_sheet("Other")
    other.append(["other", "header"])
    other.append(["x", 1])
    wb.create_chartsheet("Chart")
    wb.save(path)
    return path


@pytest.mark.parametrize("epoch_1904", [False, True])
def test_openpyxl_workbooks(tmp_path: Path, epoch_1904: bool) -> None:
    path = _openpyxl_book(tmp_path / "book.xlsx", epoch_1904=epoch_1904)
    got = assert_same(path)
    assert ("row", 5, _typed([None] * 9 + ["beyond the header"])) in got
    assert_same(path, sheet="Other")
    assert assert_same(path, sheet="Chart", opens=False)[0][0] == "error"


def test_the_sample_workbook() -> None:
    got = assert_same(ROOT / "resources" / "samples" / "customers.xlsx")
    assert len([g for g in got if g[0] == "row"]) == 150


# --- workbooks written by hand: every kind of cell -----------------------------------------------

_STYLES = (
    f'<styleSheet xmlns="{MAIN}"><numFmts count="1"><numFmt numFmtId="164" formatCode="yyyy-mm-dd hh:mm"/></numFmts>'
    '<fonts count="1"><font/></fonts><fills count="1"><fill><patternFill patternType="none"/></fill></fills>'
    '<borders count="1"><border/></borders>'
    '<cellStyleXfs count="1"><xf/></cellStyleXfs><cellXfs count="4"><xf numFmtId="0"/><xf numFmtId="14"/>'
    '<xf numFmtId="46"/><xf numFmtId="164"/></cellXfs></styleSheet>'
)
_STRINGS = (
    f'<sst xmlns="{MAIN}"><si><t>plain</t></si><si><r><t>rich </t></r><r><rPr><b/></rPr><t>runs</t></r></si>'
    '<si><t xml:space="preserve"> spaced </t><rPh sb="0" eb="1"><t>phonetic</t></rPh></si><si><t/></si>'
    "<si><t>a_x005F_x000D_b</t></si></sst>"
)


def write_book(path: Path, sheet: str, *, date1904: bool = False, strings: str = _STRINGS) -> Path:
    pr = '<workbookPr date1904="1"/>' if date1904 else ""
    parts = {
        "[Content_Types].xml": f'<Types xmlns="{PKG}/content-types"><Default Extension="rels" '
        'ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" '
        'ContentType="application/xml"/><Override PartName="/xl/workbook.xml" '
        'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
        '<Override PartName="/xl/sharedStrings.xml" '
        'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>'
        '<Override PartName="/xl/styles.xml" '
        'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>',
        "_rels/.rels": f'<Relationships xmlns="{PKG}/relationships"><Relationship Id="rId1" '
        f'Type="{REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>',
        "xl/workbook.xml": f'<workbook xmlns="{MAIN}" xmlns:r="{REL}">{pr}<sheets>'
        '<sheet name="Data" sheetId="1" r:id="rId1"/></sheets></workbook>',
        "xl/_rels/workbook.xml.rels": f'<Relationships xmlns="{PKG}/relationships">'
        f'<Relationship Id="rId1" Type="{REL}/worksheet" Target="worksheets/sheet1.xml"/>'
        f'<Relationship Id="rId2" Type="{REL}/styles" Target="styles.xml"/>'
        f'<Relationship Id="rId3" Type="{REL}/sharedStrings" Target="sharedStrings.xml"/></Relationships>',
        "xl/styles.xml": _STYLES,
        "xl/sharedStrings.xml": strings,
        "xl/worksheets/sheet1.xml": sheet,
    }
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, text in parts.items():
            zf.writestr(name, text)
    return path


def sheet(rows: str, *, head: str = '<dimension ref="A1:J9"/>', tail: str = "") -> str:
    return (
        f'<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="{MAIN}">{head}<sheetData>'
        '<row r="1"><c r="A1" t="inlineStr"><is><t>a</t></is></c><c r="B1" t="s"><v>0</v></c>'
        '<c r="C1" t="str"><v>c</v></c></row>'
        f"{rows}</sheetData>{tail}</worksheet>"
    )


CELLS = {
    "numbers": '<row r="2"><c r="A2"><v>42</v></c><c r="B2"><v>1.5E3</v></c><c r="C2"><v> 12</v></c>'
    '<c r="D2"><v>-0.25</v></c><c r="E2"><v>13800138000</v></c><c r="F2"><v>5.0</v></c>'
    '<c r="G2" t="n"><v>1e-3</v></c></row>',
    "dates": '<row r="2"><c r="A2" s="1"><v>45352</v></c><c r="B2" s="3"><v>45352.5</v></c>'
    '<c r="C2" s="2"><v>1.25</v></c><c r="D2" s="1"><v>59</v></c><c r="E2" s="1"><v>0.75</v></c>'
    '<c r="F2" s="1"><v>61</v></c><c r="G2" s="3"><v>45352.999999</v></c></row>',
    "out_of_range_date": '<row r="2"><c r="A2" s="1"><v>99999999</v></c><c r="B2" s="1"><v>-5</v></c></row>',
    "strings": '<row r="2"><c r="A2" t="s"><v>1</v></c><c r="B2" t="s"><v>2</v></c><c r="C2" t="s"><v>3</v></c>'
    '<c r="D2" t="s"><v>4</v></c><c r="E2" t="s"><v></v></c><c r="F2" t="s"/></row>',
    "inline": '<row r="2"><c r="A2" t="inlineStr"><is><t xml:space="preserve"> x </t></is></c>'
    '<c r="B2" t="inlineStr"><is><r><t>rich</t></r><r><rPr><i/></rPr><t> run</t></r></is></c>'
    '<c r="C2" t="inlineStr"><is><t>base</t><rPh sb="0" eb="1"><t>ph</t></rPh></is></c>'
    '<c r="D2" t="inlineStr"><is/></c><c r="E2" t="inlineStr"><v>ignored</v></c>'
    '<c r="F2" t="inlineStr"><is><t>one</t><t>two</t></is></c><c r="G2" t="inlineStr"><is><t/></is></c>'
    '<c r="H2" t="inlineStr"><is><t>&amp;&lt;&#x4E2D;<![CDATA[<x>]]></t></is></c>'
    '<c r="I2" t="inlineStr"><is><t>head<b>child</b>tail</t></is></c>'
    '<c r="J2" t="inlineStr"><is><t>a</t><r><t>b</t></r><t>c</t></is></c></row>',
    "formulas_errors_booleans": '<row r="2"><c r="A2" t="str"><f>B2&amp;C2</f><v>ab</v></c>'
    '<c r="B2" t="e"><f>NA()</f><v>#N/A</v></c><c r="C2" t="b"><v>1</v></c><c r="D2" t="b"><v>0</v></c>'
    '<c r="E2"><f>1+1</f><v>2</v></c><c r="F2"><f>1+1</f></c><c r="G2" t="e"><v>#DIV/0!</v></c>'
    '<c r="H2" t="d"><v>2024-03-01T10:20:30</v></c><c r="I2" t="weird"><v>as is</v></c></row>',
    "coordinates": '<row r="2"><c><v>1</v></c><c><v>2</v></c><c r="E2"><v>5</v></c><c><v>6</v></c>'
    '<c r="b2"><v>7</v></c></row><row><c r="C3"><v>3</v></c></row><row r="5.0"><c r="A5" t="str"><v>x</v></c></row>'
    '<row r="6"><c r="D6"><v>4</v></c><c r="B6"><v>2</v></c></row>',
    "blank_and_styled": '<row r="2" s="1" customFormat="1"/><row r="3"><c r="A3" s="1"/><c r="C3" s="2"/></row>'
    '<row r="4"><c r="A4" t="inlineStr"><is><t>   </t></is></c></row><row r="7"><c r="B7"><v>1</v></c>'
    '<c r="L7" s="1"/></row>',
    "odd_values": '<row r="2"><c r="A2"><v>1<x/>2</v></c><c r="B2"><v></v><v>9</v></c>'
    '<c r="C2"><extLst/><v>3</v></c><c r="D2" s=""><v>4</v></c><c r="E2" cm="1" vm="1"><v>5</v></c></row>'
    '<row r="3"><foo r="B3"><v>8</v></foo></row>',
}


@pytest.mark.parametrize("name", sorted(CELLS))
@pytest.mark.parametrize("date1904", [False, True])
def test_every_kind_of_cell(tmp_path: Path, name: str, date1904: bool) -> None:
    assert_same(write_book(tmp_path / "cells.xlsx", sheet(CELLS[name]), date1904=date1904))


def test_prefixed_namespace_and_what_follows_the_rows(tmp_path: Path) -> None:
    body = (
        f'<x:worksheet xmlns:x="{MAIN}"><x:dimension ref="A1:B3"/><x:sheetData><x:row r="1"><x:c r="A1" '
        't="inlineStr"><x:is><x:t>h</x:t></x:is></x:c></x:row><x:row r="2"><x:c r="A2"><x:v>1</x:v></x:c>'
        "</x:row></x:sheetData><x:mergeCells/><broken"  # after the rows: never parsed
    )
    got = assert_same(write_book(tmp_path / "prefixed.xlsx", body))
    assert ("row", 2, _typed([1])) in got


def test_no_namespace_reads_no_rows(tmp_path: Path) -> None:
    body = '<worksheet><sheetData><row r="1"><c r="A1"><v>1</v></c></row></sheetData></worksheet>'
    assert_same(write_book(tmp_path / "bare.xlsx", body))


BROKEN = {
    "bad_style": '<row r="2"><c r="A2" s="x"><v>1</v></c></row>',
    "bad_style_on_text": '<row r="2"><c r="A2" t="inlineStr" s="x"><is><t>a</t></is></c></row>',
    "bad_coordinate": '<row r="2"><c r="A2B"><v>1</v></c></row>',
    "bad_number": '<row r="2"><c r="A2"><v>12abc</v></c></row>',
    "bad_shared_index": '<row r="2"><c r="A2" t="s"><v>99</v></c></row>',
    "bad_boolean": '<row r="2"><c r="A2" t="b"><v>yes</v></c></row>',
    "bad_iso_date": '<row r="2"><c r="A2" t="d"><v>someday</v></c></row>',
    "bad_row_number": '<row r="2.5"><c r="A2"><v>1</v></c></row>',
    "bad_row_and_cell": '<row r="x"><c r="A2" s="x"><v>1</v></c></row>',
    "row_zero": '<row r="0"><c r="A1"><v>1</v></c></row>',
    "far_row": '<row r="3"><c r="A3"><v>1</v></c></row><row r="1048577"><c r="A1"><v>1</v></c></row>',
    # an r the scan of the sheet's bytes leaves to the parser (not the row's first attribute)
    "far_row_late_r": '<row r="3"><c r="A3"><v>1</v></c></row><row spans="1:1" r="1048577"><c><v>1</v></c></row>',
    "far_column": '<row r="2"><c r="XFE2"><v>1</v></c></row>',
    "bad_inline_attribute": '<row r="2"><c r="A2" t="inlineStr"><is foo="1"><t>a</t></is></c></row>',
    "rows_then_malformed": '<row r="2"><c r="A2"><v>1</v></c></row><row r="3"><c r="A3"><v>2</v></c></row>'
    "<row r='4'><c><v>3</v></c></rw>",
    "undefined_entity": '<row r="2"><c r="A2" t="inlineStr"><is><t>&nope;</t></is></c></row>',
}


REFUSED_AT_OPEN = {"far_row", "blank_rows"}
"""Rows beyond the last one, refused by the scan of the sheet's bytes as the reader opens, before either parser
reads a row (test_xlsx_row_limit)."""


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_damaged_sheets_fail_alike(tmp_path: Path, name: str) -> None:
    got = assert_same(write_book(tmp_path / "broken.xlsx", sheet(BROKEN[name])), opens=name not in REFUSED_AT_OPEN)
    assert got[-1][0] == "error"
    if name in REFUSED_AT_OPEN:
        assert len(got) == 1 and got[0][3]["reason"] == "too_many_rows", got


def test_truncated_sheet_fails_alike(tmp_path: Path) -> None:
    rows = "".join(f'<row r="{n}"><c r="A{n}"><v>{n}</v></c></row>' for n in range(2, 3000))
    text = sheet(rows)
    assert assert_same(write_book(tmp_path / "cut.xlsx", text[: len(text) // 2]))[-1][0] == "error"


def test_many_rows_across_reads(tmp_path: Path) -> None:
    rows = "".join(
        f'<row r="{n}"><c r="A{n}" t="inlineStr"><is><t>{"长" * (n % 50)}x</t></is></c><c r="B{n}" s="1">'
        f'<v>{40000 + n}</v></c><c r="C{n}" t="s"><v>{n % 4}</v></c></row>'
        for n in range(2, 5000)
    )
    got = assert_same(write_book(tmp_path / "many.xlsx", sheet(rows)))
    assert len([g for g in got if g[0] == "row"]) == 4998


# --- the hostile workbooks: the same rows and the same error -------------------------------------

SMALL = ReadLimits(max_file_mb=1, max_cell_chars=1000, max_columns=50, max_rows=5000, max_shared_strings=100)
HOSTILE: dict[str, Callable[[Path], Path]] = {
    "blank_rows": lambda p: hostile.xlsx_blank_rows(p, 2 * hostile.MIB),
    "huge_cell": lambda p: hostile.xlsx_huge_cell(p, 5000),
    "huge_cell_allowed": lambda p: hostile.xlsx_huge_cell(p, 900),
    "huge_shared_string": lambda p: hostile.xlsx_huge_shared_string(p, 5000),
    "many_shared_strings": lambda p: hostile.xlsx_many_shared_strings(p, 500, declared=False),
    "far_row": hostile.xlsx_far_row,
    "wide_row": lambda p: hostile.xlsx_wide_row(p, 60),
    "wide_row_allowed": lambda p: hostile.xlsx_wide_row(p, 3),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_workbooks_alike(tmp_path: Path, name: str) -> None:
    got = assert_same(HOSTILE[name](tmp_path / f"{name}.xlsx"), limits=SMALL,
                      opens="shared" not in name and name not in REFUSED_AT_OPEN)  # fmt: skip
    if name in REFUSED_AT_OPEN:
        assert len(got) == 1 and got[0][3]["reason"] == "too_many_rows", got


def _rows_of(count: int, quote: bytes) -> Iterator[bytes]:
    for n in range(2, count + 2):
        yield b'<row r=%s%d%s><c r="A%d" t="inlineStr"><is><t>c%d</t></is></c><c r="B%d"><v>%d</v></c></row>' % (
            quote, n, quote, n, n, n, n
        )  # fmt: skip


@pytest.mark.parametrize("quote", [b'"', b"'"])
def test_too_many_rows_alike(tmp_path: Path, quote: bytes) -> None:
    """r="N": refused by the scan as the reader opens; r='N' (left to the parsers): the rows up to the limit first."""
    path = hostile.write_xlsx(tmp_path / "rows.xlsx", hostile.sheet_xml(_rows_of(6000, quote)))
    got = assert_same(path, limits=SMALL, opens=quote == b"'")
    assert got[-1][0] == "error" and got[-1][3]["reason"] == "too_many_rows"
    assert len([g for g in got if g[0] == "raw"]) == (0 if quote == b'"' else 5000)
