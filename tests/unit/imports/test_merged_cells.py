"""Merged cells in an Excel sheet read as Excel shows them: a merged header is its first cell's text, a block
merged down one column fills each of its rows (and the reader warns), a merge across columns blanks the cells
it covers and fails the rows it covers (merged_cells), in the preview as in the import."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path
from typing import Any

import openpyxl
import pytest
import xlwt
from openpyxl.worksheet.merge import MergedCellRange

from desktop_app.domain.errors import ErrorCode, PermanentError, WarningCode
from desktop_app.domain.messages import text
from desktop_app.imports import file_preview
from desktop_app.imports.import_type import builtin_import_types_dir, load_import_type
from desktop_app.imports.options import ImportOptions
from desktop_app.imports.readers import ReadLimits, open_table, xlsx_merges
from desktop_app.imports.readers.merged_cells import MergedRange, SheetMerges, merged_range
from desktop_app.imports.readers.xlsx_plain import count_row_tags
from desktop_app.imports.readers.xlsx_reader import XlsxReader
from tests.support.customers import HEADER
from tests.unit.imports.test_xlsx_calamine_match import _replace_part

SHEET = "xl/worksheets/sheet1.xml"


def workbook(path: Path, rows: dict[int, list[Any]], merges: list[str], *, keep_hidden: bool = False) -> Path:
    """rows: {sheet row: values from column A}. merges as Excel makes them (the cells covered emptied), or with
    keep_hidden as LibreOffice can keep them (the covered cells' text stays in the file, unseen)."""
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    for number, values in rows.items():
        for column, value in enumerate(values, 1):
            if value is not None:
                sheet.cell(row=number, column=column, value=value)
    for ref in merges:
        if keep_hidden:
            sheet.merged_cells.add(MergedCellRange(sheet, ref))
        else:
            sheet.merge_cells(ref)
    book.save(path)
    return path


def read(path: Path, *, calamine: bool = True, skip_through: int = 1) -> tuple[Any, ...]:
    """The header, the rows as the import gets them, and the warnings' codes and params."""
    XlsxReader.use_calamine = calamine
    try:
        with open_table(path) as reader:
            rows = {r.row_number: r.cells for r in reader.rows(skip_through=skip_through)}
            return reader.header, rows, [(w.code, w.params) for w in reader.warnings]
    finally:
        XlsxReader.use_calamine = True


DATA = {
    1: ["code", "name", "city", "note"],
    2: ["C1", "a", "北京", "x"],
    3: ["C2", "b", "上海", "y"],
    4: ["C3", "c", None, "z"],
    5: ["C4", "d", None, None],
    6: ["C5", "e", "广州", "w"],
}


@pytest.mark.parametrize("calamine", [True, False])
def test_a_block_merged_down_one_column_fills_each_of_its_rows(tmp_path: Path, calamine: bool) -> None:
    path = workbook(tmp_path / "down.xlsx", DATA, ["C3:C5"])
    header, rows, warnings = read(path, calamine=calamine)
    assert header == ("code", "name", "city", "note")
    assert rows == {2: ("C1", "a", "北京", "x"), 3: ("C2", "b", "上海", "y"), 4: ("C3", "c", "上海", "z"),
                    5: ("C4", "d", "上海", None), 6: ("C5", "e", "广州", "w")}  # fmt: skip
    assert warnings == [(WarningCode.MERGED_CELLS_FILLED, {"ranges": "C3:C5", "count": 1})]
    assert "C3:C5" in text(WarningCode.MERGED_CELLS_FILLED, "zh", **warnings[0][1])
    assert "C3:C5" in text(WarningCode.MERGED_CELLS_FILLED, "en", **warnings[0][1])


@pytest.mark.parametrize("calamine", [True, False])
def test_a_resume_inside_a_block_still_fills_it(tmp_path: Path, calamine: bool) -> None:
    path = workbook(tmp_path / "down.xlsx", DATA, ["C3:C5"])
    _header, rows, _warnings = read(path, calamine=calamine, skip_through=4)
    assert rows == {5: ("C4", "d", "上海", None), 6: ("C5", "e", "广州", "w")}


def test_what_a_merge_covers_reads_blank_whatever_the_file_keeps_there(tmp_path: Path) -> None:
    rows = {1: ["code", "name", "hidden header", "city"], 2: ["C1", "a", None, "北京"],
            3: ["C2", "b", "hidden", "上海"], 4: [None, None, None, "hidden too"],
            5: ["C3", "across", "hidden", "x"]}  # fmt: skip
    path = workbook(tmp_path / "hidden.xlsx", rows, ["B1:C1", "D2:D4", "B5:C5"], keep_hidden=True)
    header, got, warnings = read(path)
    assert header == ("code", "name", "", "city")  # the merged header is one header: its first cell's
    # row 4 holds nothing but what the merges give it: a blank row, as Excel shows it
    assert got == {2: ("C1", "a", None, "北京"), 3: ("C2", "b", "hidden", "北京"), 5: ("C3", "across", None, "x")}
    assert [w[1]["ranges"] for w in warnings] == ["D2:D4"]


def test_a_merged_header_at_the_end_spans_its_cells(tmp_path: Path) -> None:
    rows = {1: ["code", "name", "note"], 2: ["C1", "a", "n", "under the merged header"]}
    path = workbook(tmp_path / "wide.xlsx", rows, ["C1:D1", "F1:G1"])  # F1:G1: blank, beyond the header's text
    header, got, _warnings = read(path)
    assert header == ("code", "name", "note", "")  # D is a blank header: its cells are ignored, never "beyond"
    assert got == {2: ("C1", "a", "n", "under the merged header")}


def test_a_merge_from_the_header_into_the_data_blanks_the_data_it_covers(tmp_path: Path) -> None:
    rows = {1: ["code", "title", None], 2: ["C1", "hidden", "x"], 3: ["C2", None, "y"]}
    path = workbook(tmp_path / "tall.xlsx", rows, ["B1:B2"], keep_hidden=True)
    header, got, warnings = read(path)
    assert header == ("code", "title") and warnings == []
    assert got == {2: ("C1", None, "x"), 3: ("C2", None, "y")}


def test_merges_named_otherwise_are_found_alike(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = workbook(tmp_path / "down.xlsx", DATA, ["C3:C5", "A6:B6"])
    sheet = zipfile.ZipFile(path).read(SHEET).decode()
    expected = read(path)
    assert expected[1][4][2] == "上海"
    variants = {
        # the main namespace under a prefix
        "prefix": re.sub(r"<(/?)(?=[A-Za-z])", r"<\1x:", sheet.replace("<worksheet xmlns=", "<worksheet xmlns:x=")),
        # a comment and a CDATA section: expat reads the sheet (the CDATA's merge is text, the comment's nothing)
        "comment": sheet.replace("<sheetData>", '<!-- <mergeCell ref="A2:D2"/> --><sheetData>').replace(
            "<t>a</t>", '<t><![CDATA[<mergeCell ref="A2:D2"/>]]></t>'),
        "spaces": sheet.replace('<mergeCell ref="C3:C5" />', "<mergeCell\n  ref = 'C3:C5'\n/>"),
    }  # fmt: skip
    for name, xml in variants.items():
        _replace_part(path, SHEET, xml)
        got = read(path)
        if name == "comment":
            assert got[1][2][1] == '<mergeCell ref="A2:D2"/>'
            got = (got[0], {**got[1], 2: expected[1][2]}, got[2])
        assert got == expected, name
    # every tag cut in two by the pieces the sheet is read in
    _replace_part(path, SHEET, variants["spaces"])
    for size in (1, 2, 5, 13):
        monkeypatch.setattr(xlsx_merges, "CHUNK", size)
        assert read(path) == expected, size


def test_the_import_counts_the_rows_in_the_same_pass(tmp_path: Path) -> None:
    path = workbook(tmp_path / "down.xlsx", {**DATA, 7: ["C6"]}, ["C3:C5"])
    with open_table(path, precount=True) as reader:
        assert isinstance(reader, XlsxReader) and reader._archive is not None
        assert reader._row_tags == count_row_tags(reader._archive, reader._sheet.part) == (7, True)
        assert reader.row_bound() == 6 and reader.rows_in_order


def test_a_sheet_of_too_many_merges_is_refused(tmp_path: Path) -> None:
    rows = {1: ["code", "name", "city"], **{n: [f"C{n}", "x", None] for n in range(2, 40)}}
    path = workbook(tmp_path / "many.xlsx", rows, [f"B{n}:C{n}" for n in range(2, 40)])
    with pytest.raises(PermanentError) as info:
        open_table(path, limits=ReadLimits(max_merged_ranges=20))
    assert info.value.code is ErrorCode.FILE_TOO_LARGE and info.value.params["reason"] == "merged_cells"
    assert "20" in info.value.text("en")
    with open_table(path, limits=ReadLimits(max_merged_ranges=38)) as reader:
        assert reader.merges is not None and len(reader.merges.refused) == 38


def test_an_xls_sheet_reads_its_merges_alike(tmp_path: Path) -> None:
    book = xlwt.Workbook()
    sheet = book.add_sheet("Data")
    for r, values in DATA.items():
        for c, value in enumerate(values):
            if value is not None and (r, c) not in ((3, 2), (6, 0), (6, 1)):  # the merges' cells: written below
                sheet.write(r - 1, c, value)
    sheet.write_merge(2, 4, 2, 2, "上海")  # C3:C5
    sheet.write_merge(5, 5, 0, 1, "C5")  # A6:B6
    path = tmp_path / "down.xls"
    book.save(str(path))
    with open_table(path) as reader:
        rows = {r.row_number: r.cells for r in reader.rows()}
        assert rows[4] == ("C3", "c", "上海", "z") and rows[5] == ("C4", "d", "上海", None)
        assert rows[6] == ("C5", None, "广州", "w")
        assert reader.merges is not None and [m.ref for m in reader.merges.refused] == ["A6:B6"]
        assert [w.params["ranges"] for w in reader.warnings] == ["C3:C5"]


def test_refs_and_the_rows_each_merge_covers() -> None:
    limits = ReadLimits()
    assert merged_range("b6:d6", limits) == MergedRange(6, 2, 6, 4)
    assert merged_range("$D$8:$B$6", limits) == MergedRange(6, 2, 8, 4)
    assert [merged_range(r, limits) for r in ("A1", "A:A", "1:2", "nonsense", "A1:A1")] == [None] * 5
    assert merged_range("A1:A9999999", limits) == MergedRange(1, 1, limits.max_rows, 1)
    merges = SheetMerges([MergedRange(6, 2, 6, 4), MergedRange(5, 6, 8, 7), MergedRange(9, 1, 12, 1)])
    assert [m.ref for m in merges.filled] == ["A9:A12"]
    assert merges.refusals({0}) is None  # only A is read: no merge across columns touches it
    refusals = merges.refusals({2, 5})
    assert refusals is not None
    assert [refusals.at(n) for n in range(4, 10)] == [None, "F5:G8", "B6:D6, F5:G8", "F5:G8", "F5:G8", None]
    assert refusals.at(6) == "B6:D6, F5:G8"  # asked again, or back: the same answer


def test_the_preview_names_the_rows_the_import_fails(tmp_path: Path) -> None:
    rows = {1: list(HEADER)}
    for n in range(2, 8):
        rows[n] = [f"C{n:06d}", f"客户{n}", f"138{n:08d}", f"c{n}@example.com", "普通", "2024-01-05", "10", "销售部"]
    path = workbook(tmp_path / "preview.xlsx", rows, ["B4:C4", "H5:H7"])
    sample = file_preview.read_sample(path)
    assert sample.rows[4].cells[7] == "销售部"  # row 6: filled down
    itype = load_import_type(builtin_import_types_dir() / "customers.toml")
    options = ImportOptions(file=path, import_type="customers", max_rows=1000, max_file_mb=50)
    checked = file_preview.check_sample(sample, itype, options, "en")
    assert [(p.row_number, [e.code for e in p.whole_row], p.cells) for p in checked.rows] == [
        (4, [ErrorCode.MERGED_CELLS], {})
    ]
    assert "B4:C4" in checked.rows[0].whole_row[0].message(itype, "en")
