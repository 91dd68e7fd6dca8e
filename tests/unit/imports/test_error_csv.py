"""The error CSV writer: resume by truncation, a resume that finds the earlier rows gone, a long row's extra
cells in their own column."""

from __future__ import annotations

import csv
from pathlib import Path

from desktop_app.imports.error_csv import ErrorCsvWriter, neutralise, restore, settle_extra_column


def _rows(path: Path) -> list[list[str]]:
    with path.open(encoding="utf-8-sig", newline="") as handle:
        return list(csv.reader(handle))


def test_resume_truncates_to_the_checkpoint(tmp_path: Path) -> None:
    path = tmp_path / "e.csv.part"
    writer = ErrorCsvWriter(path, ["a", "b"])
    writer.write(2, ["x", "y"], ["too_long"], ["太长"])
    checkpoint = writer.size()
    writer.write(3, ["uncommitted", "y"], ["too_long"], ["太长"])  # written, but its batch never committed
    writer.size()
    writer.close()
    again = ErrorCsvWriter(path, ["a", "b"], resume_at=checkpoint)
    assert not again.lost_earlier_rows
    again.write(3, ["p", "q"], ["pattern_mismatch"], ["格式不正确"])
    again.close()
    assert [r[0] for r in _rows(path)] == ["行号", "2", "3"]
    assert _rows(path)[2][1] == "p"


def test_resume_with_the_file_gone_or_cut_short(tmp_path: Path) -> None:
    path = tmp_path / "e.csv.part"
    writer = ErrorCsvWriter(path, ["a"], resume_at=500)  # nothing there: a fresh file, and it says so
    assert writer.lost_earlier_rows
    writer.write(9, ["x"], ["too_long"], ["太长"])
    writer.close()
    assert _rows(path)[0] == ["行号", "a", "错误代码", "错误原因"]
    assert "\x00" not in path.read_text("utf-8")
    short = ErrorCsvWriter(path, ["a"], resume_at=path.stat().st_size + 100)  # shorter than the checkpoint
    assert short.lost_earlier_rows
    short.close()
    assert "\x00" not in path.read_text("utf-8")  # never padded with NUL bytes


def test_short_and_long_rows_keep_codes_under_their_headings(tmp_path: Path) -> None:
    path = tmp_path / "e.csv"
    writer = ErrorCsvWriter(path, ["a", "b", "c"])
    writer.write(2, ["1"], ["column_count_mismatch"], ["列数不对"])
    writer.write(3, ["1", "2", "3", "4", "5"], ["column_count_mismatch"], ["列数不对"])
    writer.close()
    assert writer.saw_extra and settle_extra_column(path)
    rows = _rows(path)
    assert rows[0] == ["行号", "a", "b", "c", "错误代码", "错误原因", "多余单元格"]
    assert rows[1] == ["2", "1", "", "", "column_count_mismatch", "列数不对", ""]
    assert rows[2] == ["3", "1", "2", "3", "column_count_mismatch", "列数不对", "4 | 5"]


def test_a_long_rows_extra_cells_are_one_named_neutralised_cell(tmp_path: Path) -> None:
    path = tmp_path / "e.csv"
    writer = ErrorCsvWriter(path, ["a", "b"], lang="en")
    writer.write(2, ["1", "2", "=cmd|' /C calc'!A0", "", "x", "", ""], ["column_count_mismatch"], ["bad"])
    writer.write(3, ["1", "2", "-5"], ["column_count_mismatch"], ["bad"])  # a plain negative number stays one
    writer.close()
    settle_extra_column(path)
    assert _rows(path) == [
        ["Row number", "a", "b", "Error codes", "Error reasons", "Extra cells"],
        # inner blank cells keep their place; trailing blank ones carry nothing
        ["2", "1", "2", "column_count_mismatch", "bad", "'=cmd|' /C calc'!A0 |  | x"],
        ["3", "1", "2", "column_count_mismatch", "bad", "-5"],
    ]


def test_without_a_long_row_the_error_csv_keeps_its_columns(tmp_path: Path) -> None:
    """The extra-cells column is named only in a file that has a long row: the others (an undo's, whose
    rows are the table's; an import's whose rows all fit) keep the columns they always had."""
    path = tmp_path / "e.csv"
    writer = ErrorCsvWriter(path, ["编码"])
    writer.write(2, ["A1"], ["changed_since"], ["改过了"])
    writer.write(3, ["A2", ""], ["changed_since"], ["改过了"])  # a trailing blank cell is no extra cell
    writer.close()
    before = path.read_bytes()
    assert not writer.saw_extra and not settle_extra_column(path)
    assert path.read_bytes() == before
    assert _rows(path) == [["行号", "编码", "错误代码", "错误原因"], ["2", "A1", "changed_since", "改过了"],
                           ["3", "A2", "changed_since", "改过了"]]  # fmt: skip


def test_neutralise_and_restore_round_trip() -> None:
    for text in ["=SUM(A1)", "+1", "-5", "@x", "\tx", "\rx", "plain", "'quoted", ""]:
        assert restore(neutralise(text)) == text
    assert neutralise("=1+1") == "'=1+1" and neutralise("1-2") == "1-2"


# --- a repair's error CSV, the desk's language, the header neutralised (issues 11 and 12) -----------


def test_a_repairs_error_csv_keeps_one_row_column_and_only_the_new_codes(tmp_path: Path) -> None:
    first = tmp_path / "first.csv"
    writer = ErrorCsvWriter(first, ["编号", "手机号"])
    writer.write(7, ["C1", "123"], ["pattern_mismatch"], ["手机号格式不正确"])
    writer.write(9, ["C2", "x", "extra"], ["column_count_mismatch"], ["列数不对"])
    writer.close()
    settle_extra_column(first)
    header, *rows = _rows(first)
    assert header == ["行号", "编号", "手机号", "错误代码", "错误原因", "多余单元格"]
    assert rows[1] == ["9", "C2", "x", "column_count_mismatch", "列数不对", "extra"]
    # the clerk's fix still fails; the second round's file reads the first one back as its source
    second = tmp_path / "second.csv"
    writer = ErrorCsvWriter(second, header)
    writer.write(2, rows[0], ["too_long"], ["太长"])  # row 2 of the fixed file is row 7 of the original
    writer.write(3, rows[1], ["pattern_mismatch"], ["格式不正确"])
    writer.close()
    settle_extra_column(second)
    assert _rows(second) == [
        ["行号", "编号", "手机号", "错误代码", "错误原因", "多余单元格"],
        ["7", "C1", "123", "too_long", "太长", ""],
        ["9", "C2", "x", "pattern_mismatch", "格式不正确", "extra"],  # the long row's extra cell kept, once
    ]
    third = tmp_path / "third.csv"  # and a third round is the same shape again
    writer = ErrorCsvWriter(third, _rows(second)[0], lang="en")
    writer.write(2, _rows(second)[1], ["too_long"], ["Too long"])
    writer.close()
    assert not settle_extra_column(third)  # its one row has no extra cell: no such column
    assert _rows(third) == [["Row number", "编号", "手机号", "Error codes", "Error reasons"],
                            ["7", "C1", "123", "too_long", "Too long"]]  # fmt: skip


def test_a_repair_keeps_the_extra_cells_the_clerk_left_and_adds_new_ones(tmp_path: Path) -> None:
    path = tmp_path / "e.csv"
    writer = ErrorCsvWriter(path, ["Row number", "code", "Error codes", "Error reasons", "Extra cells"])
    writer.write(2, ["4", "C1", "", "", "a | b"], ["column_count_mismatch"], ["bad"])
    writer.write(3, ["5", "C2", "", "", "", "typed beyond"], ["column_count_mismatch"], ["bad"])
    writer.write(4, ["6", "C3", "", "", "=a", "=b"], ["column_count_mismatch"], ["bad"])
    writer.close()
    settle_extra_column(path)
    assert _rows(path) == [["行号", "code", "错误代码", "错误原因", "多余单元格"],
                           ["4", "C1", "column_count_mismatch", "bad", "a | b"],
                           ["5", "C2", "column_count_mismatch", "bad", "typed beyond"],
                           ["6", "C3", "column_count_mismatch", "bad", "'=a | =b"]]  # fmt: skip


def test_a_row_the_clerk_added_to_the_error_csv_has_no_original_row(tmp_path: Path) -> None:
    path = tmp_path / "e.csv"
    writer = ErrorCsvWriter(path, ["Row number", "code", "Error codes", "Error reasons"])
    writer.write(5, ["", "C9", "", ""], ["pattern_mismatch"], ["bad"])
    writer.close()
    assert _rows(path)[1] == ["", "C9", "pattern_mismatch", "bad"]


def test_the_headers_follow_the_desks_language_and_are_neutralised(tmp_path: Path) -> None:
    path = tmp_path / "e.csv"
    writer = ErrorCsvWriter(path, ['=HYPERLINK("http://x","y")', "@a", "plain"], lang="en")
    writer.write(2, ["=1+1", "-2+3", "ok"], ["pattern_mismatch"], ["=bad"])
    writer.close()
    assert _rows(path) == [
        ["Row number", '\'=HYPERLINK("http://x","y")', "'@a", "plain", "Error codes", "Error reasons"],
        ["2", "'=1+1", "'-2+3", "ok", "pattern_mismatch", "'=bad"],
    ]


def test_either_languages_headers_mark_an_error_csv() -> None:
    from desktop_app.imports.error_csv import MARKER_COLUMNS, is_error_csv_header

    assert is_error_csv_header(["\ufeff行号", "a", "错误代码", "错误原因"])
    assert is_error_csv_header(["Row number", "a", "Error codes", "Error reasons"])
    assert is_error_csv_header([" Row number ", "a", "错误代码"])  # a mixed file, fixed by hand
    assert not is_error_csv_header(["行号", "a"]) and not is_error_csv_header(["a", "Error codes"])
    assert {"行号", "错误代码", "错误原因", "多余单元格", "Row number", "Error codes", "Error reasons",
            "Extra cells"} == MARKER_COLUMNS  # fmt: skip


def test_looks_unedited(tmp_path: Path) -> None:
    import os

    from desktop_app.domain.status import TaskStatus
    from desktop_app.domain.task import Lane, TaskRecord
    from desktop_app.imports.error_csv import WRITTEN, fingerprint, looks_unedited

    folder = tmp_path / "T000001-AAAAAA"
    folder.mkdir()
    errors = folder / "T000001-AAAAAA-errors.csv"
    errors.write_text("行号,a,错误代码,错误原因\r\n2,x,too_long,太长\r\n", encoding="utf-8-sig")
    summary = folder / "summary.json"
    summary.write_text("{}", encoding="utf-8")
    os.utime(errors, ns=(1_000_000_000, 1_000_000_000))
    os.utime(summary, ns=(2_000_000_000, 2_000_000_000))

    def record(**summary_fields: object) -> TaskRecord:
        return TaskRecord(id=1, task_no="T000001-AAAAAA", task_type="import", lane=Lane.LONG,
                          status=TaskStatus.PARTIALLY_SUCCEEDED, params={},
                          summary={"error_csv": str(errors), **summary_fields},
                          result_path=str(summary))  # fmt: skip

    assert looks_unedited(record())  # written before the summary that follows it
    os.utime(errors, ns=(3_000_000_000, 3_000_000_000))  # saved again in Excel
    assert not looks_unedited(record())
    kept = fingerprint(errors)  # an early end keeps the error rows with their size and time
    assert looks_unedited(record(**{WRITTEN: kept}))
    errors.write_text("行号,a,错误代码,错误原因\r\n2,fixed,too_long,太长\r\n", encoding="utf-8-sig")
    assert not looks_unedited(record(**{WRITTEN: kept}))
    errors.unlink()
    assert not looks_unedited(record())
