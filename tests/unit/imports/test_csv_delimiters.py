"""CSV delimiters: comma, semicolon, tab and pipe sniffed on a sample, Excel's sep= line honoured (and not
a row), the clerk's choice winning, and Excel's "Unicode text" (UTF-16 with BOM, tabs) read as it is."""

from __future__ import annotations

import codecs
from pathlib import Path

import pytest

from desktop_app.imports.readers import open_table, preview
from desktop_app.imports.readers.csv_sniff import CsvDialect, sep_line_delimiter, sniff_delimiter

ROWS = [["客户编号", "姓名", "信用额度"], ["C000001", "张三", "1,5"], ["C000002", "李四", "2"]]


def text_of(delimiter: str, rows: list[list[str]] = ROWS) -> str:
    return "".join(delimiter.join(r) + "\r\n" for r in rows)


@pytest.mark.parametrize("delimiter", [",", ";", "\t", "|"])
def test_each_delimiter_is_sniffed(delimiter: str) -> None:
    rows = [["code", "name", "note"], ["C1", "a", "x"], ["C2", "b", "y"]]
    assert sniff_delimiter(text_of(delimiter, rows), complete=True) == delimiter


def test_a_semicolon_file_with_decimal_commas() -> None:
    # the comma splits the amounts but not the header: the semicolon is the one that fits every record
    assert sniff_delimiter(text_of(";"), complete=True) == ";"


def test_commas_inside_quotes_do_not_count() -> None:
    sample = 'code;name;note\r\nC1;"a, b, c";x\r\nC2;b;"1,2,3"\r\n'
    assert sniff_delimiter(sample, complete=True) == ";"


def test_a_one_column_file_and_an_empty_one_are_comma() -> None:
    assert sniff_delimiter("code\r\nC1\r\nC2\r\n", complete=True) == ","
    assert sniff_delimiter("", complete=True) == ","


def test_the_last_record_of_a_cut_sample_is_not_counted() -> None:
    sample = "a\tb\tc\r\n1\t2\t3\r\n4\t5"  # cut mid-record
    assert sniff_delimiter(sample, complete=False) == "\t"


@pytest.mark.parametrize(("line", "expected"), [("sep=;\r\n", ";"), ("sep=|\n", "|"), ("SEP=,", ","),
                                                ("\ufeffsep=\t\r\n", "\t"), ("sep=\r\n", None), ("sep=;;\n", None),
                                                ("a;b\r\n", None)])  # fmt: skip
def test_the_sep_line(line: str, expected: str | None) -> None:
    assert sep_line_delimiter(line) == expected


def test_a_sep_line_is_honoured_and_is_no_row(tmp_path: Path) -> None:
    path = tmp_path / "excel.csv"
    path.write_bytes(("sep=;\r\n" + text_of(";")).encode("utf-8-sig"))
    with open_table(path) as reader:
        assert reader.dialect == CsvDialect(";", sep_line=True)  # type: ignore[attr-defined]
        assert reader.header == ("客户编号", "姓名", "信用额度")
        rows = list(reader.rows())
        assert [(r.row_number, r.cells) for r in rows] == [
            (2, ("C000001", "张三", "1,5")),
            (3, ("C000002", "李四", "2")),
        ]
        assert reader.count_rows() == 2
        # a resume skips by row number, as Excel numbers them
        assert [r.row_number for r in reader.rows(skip_through=2)] == [3]


def test_the_clerks_delimiter_wins(tmp_path: Path) -> None:
    path = tmp_path / "a.csv"
    path.write_text(text_of(";"), encoding="utf-8")
    with open_table(path, delimiter=",") as reader:
        assert reader.header == ("客户编号;姓名;信用额度",)
    with open_table(path) as reader:
        assert reader.dialect == CsvDialect(";", sniffed=True)  # type: ignore[attr-defined]
    path.write_text("sep=;\r\n" + text_of(","), encoding="utf-8")
    with open_table(path, delimiter=",") as reader:  # over the file's own line, which is still no row
        assert reader.header == ("客户编号", "姓名", "信用额度")
        assert reader.dialect == CsvDialect(",", sep_line=True)  # type: ignore[attr-defined]


def test_excel_unicode_text_imports_as_is(tmp_path: Path) -> None:
    """Excel's "Save as: Unicode Text": UTF-16 LE with a BOM, tab-separated, CR LF, named .txt."""
    path = tmp_path / "客户.txt"
    path.write_bytes(codecs.BOM_UTF16_LE + text_of("\t").encode("utf-16-le"))
    shown = preview(path)
    assert (shown.format, shown.encoding, shown.header) == ("csv", "utf-16", ("客户编号", "姓名", "信用额度"))
    assert shown.dialect == CsvDialect("\t", sniffed=True)
    assert [(r.row_number, r.cells[2]) for r in shown.rows] == [(2, "1,5"), (3, "2")]


@pytest.mark.parametrize("suffix", [".txt", ".TSV", ".csv"])
def test_text_suffixes_read_as_csv(tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"a{suffix}"
    path.write_text(text_of("|"), encoding="utf-8")
    with open_table(path) as reader:
        assert reader.format == "csv" and len(reader.header) == 3
