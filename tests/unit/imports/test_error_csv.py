"""The error CSV writer: resume by truncation, and a resume that finds the earlier rows gone."""

from __future__ import annotations

import csv
from pathlib import Path

from desktop_app.imports.error_csv import ErrorCsvWriter, neutralise, restore


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
    assert _rows(path)[0] == ["行号", "a", "错误代码", "错误原因"] and "\x00" not in path.read_text("utf-8")
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
    rows = _rows(path)
    assert rows[1] == ["2", "1", "", "", "column_count_mismatch", "列数不对"]
    assert rows[2] == ["3", "1", "2", "3", "column_count_mismatch", "列数不对", "4", "5"]


def test_neutralise_and_restore_round_trip() -> None:
    for text in ["=SUM(A1)", "+1", "-5", "@x", "\tx", "\rx", "plain", "'quoted", ""]:
        assert restore(neutralise(text)) == text
    assert neutralise("=1+1") == "'=1+1" and neutralise("1-2") == "1-2"
