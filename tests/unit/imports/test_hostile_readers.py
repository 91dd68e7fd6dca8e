"""Hostile and broken files: every bound a reader keeps fails the file at once, in the file's own words."""

from __future__ import annotations

import csv
import random
from pathlib import Path

import pytest
import xlwt

from desktop_app.domain.errors import REASONS, WARNING_MESSAGES, ErrorCode, PermanentError, WarningCode
from desktop_app.domain.messages import template
from desktop_app.imports.precount import line_bound
from desktop_app.imports.readers import ReaderWarning, ReadLimits, open_table
from tests.support import hostile_files as hostile

SMALL = ReadLimits(max_file_mb=1)  # parts may unpack to 20 MB: bombs stay small and fast
DEFAULT = ReadLimits()


def failure(path: Path, limits: ReadLimits = DEFAULT) -> PermanentError:
    with pytest.raises(PermanentError) as info, open_table(path, limits=limits) as reader:
        reader.count_rows()
        list(reader.rows())
    return info.value


# --- xlsx --------------------------------------------------------------------------------------


def test_part_over_the_unpack_limit_fails_from_the_directory(tmp_path: Path) -> None:
    path = hostile.xlsx_blank_rows(tmp_path / "bomb.xlsx", 30 * hostile.MIB)
    assert path.stat().st_size < 1 * hostile.MIB
    error = failure(path, SMALL)
    assert error.code is ErrorCode.FILE_TOO_LARGE
    assert error.params == {
        "reason": "xlsx_part", "part": "xl/worksheets/sheet1.xml", "size_mb": "30", "limit_mb": "20",
    }  # fmt: skip
    assert "xl/worksheets/sheet1.xml unpacks to 30 MB, the limit is 20 MB" in error.text("en")
    assert "解压后有 30 MB" in error.text("zh")
    # the clerk's window has no command line: the limit is named as its setting, in the window's words
    assert "--" not in error.text("zh") and "--" not in error.text("en")
    assert "文件大小上限" in error.text("zh") and "largest file" in error.text("en")


def test_blank_rows_within_the_limit_end_at_excels_last_row(tmp_path: Path) -> None:
    path = hostile.xlsx_blank_rows(tmp_path / "blank.xlsx", 45 * hostile.MIB)  # 1.2 million rows
    error = failure(path)
    assert (error.code, error.params["reason"]) == (ErrorCode.CORRUPT_FILE, "too_many_rows")


def test_huge_cell(tmp_path: Path) -> None:
    error = failure(hostile.xlsx_huge_cell(tmp_path / "cell.xlsx", 12 * hostile.MIB))
    assert error.code is ErrorCode.CORRUPT_FILE
    assert error.params == {"reason": "cell_too_long", "row": 2, "limit": 1_000_000}
    assert "a cell in row 2 holds more than 1000000 characters" in error.text("en")


def test_long_cell_under_the_text_run_guard_is_still_too_long(tmp_path: Path) -> None:
    error = failure(hostile.xlsx_huge_cell(tmp_path / "cell.xlsx", 2_000), ReadLimits(max_cell_chars=1_000))
    assert error.params == {"reason": "cell_too_long", "row": 2, "limit": 1_000}


def test_huge_shared_string(tmp_path: Path) -> None:
    error = failure(hostile.xlsx_huge_shared_string(tmp_path / "ss.xlsx", 12 * hostile.MIB))
    assert (error.code, error.params["reason"]) == (ErrorCode.CORRUPT_FILE, "shared_string_too_long")
    path = hostile.xlsx_huge_shared_string(tmp_path / "ss2.xlsx", 30 * hostile.MIB)
    assert failure(path, SMALL).params["part"] == "xl/sharedStrings.xml"


@pytest.mark.parametrize("declared", [True, False])
def test_millions_of_shared_strings(tmp_path: Path, declared: bool) -> None:
    path = hostile.xlsx_many_shared_strings(tmp_path / "many.xlsx", 30_001, declared=declared)
    error = failure(path, ReadLimits(max_shared_strings=30_000))
    assert error.code is ErrorCode.CORRUPT_FILE
    assert error.params == {"reason": "too_many_strings", "limit": 30_000}


def test_far_row_and_wide_row(tmp_path: Path) -> None:
    error = failure(hostile.xlsx_far_row(tmp_path / "far.xlsx"))
    assert error.params == {"reason": "too_many_rows", "limit": 1_048_576}
    error = failure(hostile.xlsx_wide_row(tmp_path / "wide.xlsx", 20_000))
    assert error.params == {"reason": "too_many_columns", "row": 2, "limit": 16_384}
    assert "row 2 has cells beyond column 16,384" in error.text("en")


def test_a_zip_of_many_parts(tmp_path: Path) -> None:
    error = failure(hostile.xlsx_many_parts(tmp_path / "parts.xlsx", 20_000))
    assert error.params == {"reason": "too_many_parts", "limit": 1024}


def test_a_sound_streamed_workbook_still_reads(tmp_path: Path) -> None:
    rows = (b'<row r="%d"><c t="inlineStr"><is><t>C%d</t></is></c><c><v>%d</v></c></row>' % (n, n, n)
            for n in range(2, 502))  # fmt: skip
    path = hostile.write_xlsx(tmp_path / "ok.xlsx", hostile.sheet_xml(rows))
    with open_table(path, limits=SMALL) as reader:
        assert reader.header == ("customer_code", "name", "phone")
        assert reader.count_rows() == 500
        assert [r.cells for r in reader.rows()][-1] == ("C501", 501, None)
        assert reader.warnings == ()


# --- xls ---------------------------------------------------------------------------------------


def test_xls_whose_area_calamine_could_not_hold(tmp_path: Path) -> None:
    error = failure(hostile.xls_far_cell(tmp_path / "far.xls"))
    assert error.code is ErrorCode.FILE_TOO_LARGE
    assert error.params == {"reason": "xls_area", "sheet": "Data", "rows": 65536, "columns": 256,
                            "limit": 2_500_000}  # fmt: skip


def _xls(path: Path, rows: int) -> bytes:
    book = xlwt.Workbook()
    sheet = book.add_sheet("Data")
    for c, name in enumerate(("customer_code", "name", "phone")):
        sheet.write(0, c, name)
    for r in range(1, rows + 1):
        sheet.write(r, 0, f"C{r}")
        sheet.write(r, 1, f"name {r}")
        sheet.write(r, 2, 13800000000 + r)
    book.save(str(path))
    return path.read_bytes()


def test_damaged_xls_never_loses_rows_silently(tmp_path: Path) -> None:
    """The probe's campaign: 200 copies of a 2,000-row .xls with bytes zeroed or chunks cut out."""
    good = _xls(tmp_path / "good.xls", 2000)
    rng = random.Random(12)
    outcomes: dict[str, int] = {}
    for n in range(200):
        data = bytearray(good)
        start, size = rng.randrange(len(data)), rng.randrange(1, 4000)
        if n % 2:
            data[start : start + size] = bytes(len(data[start : start + size]))
        else:
            del data[start : start + size]
        path = tmp_path / f"m{n}.xls"
        path.write_bytes(bytes(data))
        try:
            with open_table(path) as reader:
                count = reader.count_rows()
            outcome = "read"
            assert count == 2000, (n, start, size, count)
        except PermanentError as exc:
            assert exc.code in (ErrorCode.CORRUPT_FILE, ErrorCode.FILE_TOO_LARGE), exc
            outcome = exc.code.value
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
    assert outcomes.get("corrupt_file", 0) > 150


def _without_row(stream: bytes, row: int) -> bytes:
    """The Workbook stream with every cell record of a row (0-based) turned into a CONTINUE record of
    the same length: the record chain stays intact, the row is gone."""
    import struct

    out, pos = bytearray(stream), 0
    while pos + 4 <= len(stream):
        kind, size = struct.unpack_from("<HH", stream, pos)
        if kind in (0x00FD, 0x0203, 0x027E, 0x0204) and struct.unpack_from("<H", stream, pos + 4)[0] == row:
            out[pos : pos + 2] = b"\x3c\x00"
        if kind == 0 and size == 0:
            break  # the zero padding after the last sheet
        pos += 4 + size
    return bytes(out)


@pytest.mark.parametrize("row", [300, 150])
def test_xls_rows_lost_with_the_chain_intact_fail(tmp_path: Path, row: int) -> None:
    import olefile

    good = _xls(tmp_path / "good.xls", 300)
    with olefile.OleFileIO(good) as ole:
        stream = ole.openstream("Workbook").read()
    path = tmp_path / "lost.xls"
    path.write_bytes(good.replace(stream, _without_row(stream, row)))
    error = failure(path)
    assert error.code is ErrorCode.CORRUPT_FILE
    assert error.params["reason"] == "xls_rows_mismatch"
    assert 'sheet "Data"' in error.text("en")


def test_xls_warnings_are_typed_and_worded() -> None:
    warning = ReaderWarning(WarningCode.XLS_NOT_CHECKED, {"detail": "Excel 5/95 format"})
    assert "could not be checked (Excel 5/95 format)" in warning.text("en")
    assert "Excel 5/95 format" in warning.text("zh")


# --- CSV ---------------------------------------------------------------------------------------


def test_csv_long_field_gets_csv_words(tmp_path: Path) -> None:
    error = failure(hostile.csv_long_field(tmp_path / "long.csv", 3_000_000))
    assert error.code is ErrorCode.CSV_FIELD_TOO_LONG
    assert error.params == {"row": 2, "limit": 1_000_000}
    assert "Excel" not in error.text("en") and "longer than 1000000 characters" in error.text("en")


def test_csv_nul_bytes(tmp_path: Path) -> None:
    path = hostile.csv_nul_bytes(tmp_path / "nul.csv", 3 * hostile.MIB)
    error = failure(path)
    assert (error.code, error.params) == (ErrorCode.CSV_NUL_BYTES, {"row": 3})
    assert "is it really a CSV?" in error.text("en")
    with pytest.raises(PermanentError) as info:
        line_bound(path, "utf-8")
    assert info.value.code is ErrorCode.CSV_NUL_BYTES


@pytest.mark.parametrize("shift", [-20, -16, -9, -1, 0, 1])
def test_a_run_of_nuls_across_two_reads_is_found(tmp_path: Path, shift: int) -> None:
    from desktop_app.imports import precount

    start = precount.CHUNK + shift  # the run begins this far into the file: before, at or after a read's end
    head = b"a,b\n" + b"1,x\n" * ((start - 4) // 4)
    head += b"y" * (start - len(head))
    path = tmp_path / "run.csv"
    path.write_bytes(head + b"\x00" * 16 + b"\n2,z\n")
    with pytest.raises(PermanentError) as info:
        line_bound(path, "utf-8")
    assert info.value.code is ErrorCode.CSV_NUL_BYTES
    path.write_bytes(head + b"\x00" * 15 + b"\n2,z\n")  # one short of a run: the row checks judge it
    assert line_bound(path, "utf-8") == head.count(b"\n") + 1  # the header out, the two lines after in


def test_a_stray_nul_in_a_cell_is_left_to_the_row_checks(tmp_path: Path) -> None:
    path = tmp_path / "one.csv"
    path.write_bytes(b"a,b\n1,x\x00y\n")
    assert line_bound(path, "utf-8") == 1
    with open_table(path) as reader:
        assert [r.cells for r in reader.rows()] == [("1", "x\x00y")]


@pytest.mark.parametrize("rows", [50, 100_000])
def test_unclosed_quote_at_row_2(tmp_path: Path, rows: int) -> None:
    error = failure(hostile.csv_unclosed_quote(tmp_path / "q.csv", rows))
    assert error.code is ErrorCode.CORRUPT_FILE
    assert error.params["reason"] == "csv_unclosed_quote" and error.params["row"] == 2
    assert "An unclosed quote starting at row 2" in error.text("en")
    assert "第 2 行开始的引号没有闭合" in error.text("zh")


def test_unclosed_quote_in_the_header_and_late_in_the_file(tmp_path: Path) -> None:
    path = tmp_path / "h.csv"
    path.write_bytes(b'"a,b\n1,2\n')
    with pytest.raises(PermanentError) as info:
        open_table(path)
    assert info.value.params["row"] == 1
    path.write_bytes(b'a,b\n1,2\n3,4\n5,"6\n7,8\n')
    assert failure(path).params["row"] == 4


def test_quoted_line_breaks_and_a_last_line_without_one_still_read(tmp_path: Path) -> None:
    path = tmp_path / "ok.csv"
    path.write_bytes(b'a,b\n1,"two\nlines"\n3,"x""y"')
    with open_table(path) as reader:
        assert [(r.row_number, r.cells) for r in reader.rows()] == [(2, ("1", "two\nlines")), (3, ("3", 'x"y'))]
        assert reader.count_rows() == 2
    path.write_bytes(b'a,b\n1,"last"\n')
    with open_table(path) as reader:
        assert [r.cells for r in reader.rows()] == [("1", "last")]


def test_cr_only_line_endings(tmp_path: Path) -> None:
    path = hostile.csv_cr_only(tmp_path / "cr.csv", 5000)
    assert line_bound(path, "utf-8") == 5000
    with open_table(path) as reader:
        rows = list(reader.rows())
        assert reader.count_rows() == 5000
    assert [r.row_number for r in rows[:2]] == [2, 3] and rows[-1].row_number == 5001
    assert rows[0].cells == ("C000000", "Name 0", "13800000000")


@pytest.mark.parametrize("ending", [b"\r\n", b"\n", b"\r"])
def test_line_bound_counts_what_csv_reads(tmp_path: Path, ending: bytes) -> None:
    body = b"".join(b"%d,%s%s" % (n, b"x" * (n % 97), ending) for n in range(3000))
    path = tmp_path / "b.csv"
    path.write_bytes(b"a,b" + ending + body)
    with path.open(newline="") as handle:
        records = sum(1 for _ in csv.reader(handle)) - 1
    assert line_bound(path, "utf-8") == records == 3000


def test_a_cr_lf_split_between_two_reads_is_one_line_break(tmp_path: Path) -> None:
    from desktop_app.imports.precount import CHUNK

    path = tmp_path / "split.csv"
    path.write_bytes(b"a\r\n" + b"x" * (CHUNK - 4) + b"\r\n1\r\n")  # the second CR is a read's last byte
    assert line_bound(path, "utf-8") == 2


def test_every_reason_and_warning_has_both_languages() -> None:
    for code, reason in REASONS:
        for lang in ("zh", "en"):
            assert template(code, lang, reason) != template(code, lang)  # type: ignore[arg-type]
    assert template(ErrorCode.CORRUPT_FILE, "en", "no such reason") == template(ErrorCode.CORRUPT_FILE, "en")
    assert set(WARNING_MESSAGES) == set(WarningCode)
