"""A CSV's line count begun ahead (count_ahead) gives what the pre-count would give now, its errors
included, and is taken only for a UTF-8 reading of the file as it was when the count began."""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from desktop_app.domain.errors import ErrorCode, PermanentError
from desktop_app.imports import precount
from desktop_app.imports.precount import count_ahead, holds_neutralised_cells, holds_nul, line_bound


def _files(tmp_path: Path) -> list[Path]:
    rng = random.Random(7)
    made = []
    for i, ending in enumerate((b"\n", b"\r\n", b"\r")):
        lines = [f"{n},名字{n},{rng.random()}".encode() for n in range(rng.randint(1, 3000))]
        path = tmp_path / f"f{i}.csv"
        path.write_bytes(b"code,name,amount" + ending + ending.join(lines) + (ending if i else b""))
        made.append(path)
    return made


def test_the_count_begun_ahead_is_the_count_now(tmp_path: Path) -> None:
    for path in _files(tmp_path):
        now = line_bound(path, "utf-8")
        count_ahead(path)
        assert line_bound(path, "utf-8-sig") == now


def test_a_count_ahead_is_taken_once_and_only_for_utf8(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "a.csv"
    path.write_bytes(b"h\n1\n2\n")
    count_ahead(path)
    fresh: list[str | None] = []
    monkeypatch.setattr(precount, "_line_bound", lambda p, enc: fresh.append(enc) or 99)
    assert line_bound(path, "gb18030") == 99  # another encoding: counted now, as it reads it
    assert line_bound(path, "utf-8") == 2  # the one begun ahead
    assert line_bound(path, "utf-8") == 99  # taken once: counted now
    assert fresh == ["gb18030", "utf-8"]


def test_a_file_saved_again_after_the_count_began_is_counted_again(tmp_path: Path) -> None:
    path = tmp_path / "a.csv"
    path.write_bytes(b"h\n1\n2\n")
    count_ahead(path)
    stat = path.stat()
    path.write_bytes(b"h\n1\n2\n3\n4\n")
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    assert line_bound(path, "utf-8") == 4


def test_the_count_ahead_raises_what_the_count_now_raises(tmp_path: Path) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_bytes(b"h\n" + b"ok\n" * 100_000 + b"\xff\n")
    nul = tmp_path / "nul.csv"
    nul.write_bytes(b"h\n1\n2\n" + b"\x00" * 64 + b"\n")
    for path in (bad, nul):
        with pytest.raises(PermanentError) as now:
            line_bound(path, "utf-8")
        count_ahead(path)
        with pytest.raises(PermanentError) as ahead:
            line_bound(path, "utf-8")
        assert ahead.value.code == now.value.code and ahead.value.params == now.value.params
    assert now.value.code is ErrorCode.CSV_NUL_BYTES


def test_only_a_csv_is_counted_ahead(tmp_path: Path) -> None:
    path = tmp_path / "a.xlsx"
    path.write_bytes(b"PK\x03\x04")
    count_ahead(path)
    assert precount._COUNT_AHEAD.take(path) is None


def _facts_files(tmp_path: Path) -> list[Path]:
    """Files with and without a NUL and a neutralised cell, the two anywhere against a read's end."""
    rng = random.Random(11)
    made = []
    for i in range(40):
        rows = [f"C{n:06d},名字{n},{rng.random():.4f}".encode() for n in range(rng.randint(1, 40))]
        if rng.random() < 0.4:
            rows.insert(rng.randrange(len(rows) + 1), b"C9,'=SUM(A1),1")
        if rng.random() < 0.4:
            rows.insert(rng.randrange(len(rows) + 1), b"C8,a\x00b,1")
        if rng.random() < 0.3:
            rows.insert(rng.randrange(len(rows) + 1), b"C7,O'Brien,1")  # a quote, not before a trigger
        path = tmp_path / f"facts{i}.csv"
        path.write_bytes(b"code,name,amount\n" + b"\n".join(rows) + b"\n")
        made.append(path)
    return made


def test_the_pass_begun_ahead_says_what_the_scans_say_without_reading_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(precount, "CHUNK", 16)  # a neutralised cell or a NUL across many reads' ends
    for path in _facts_files(tmp_path):
        scanned = (holds_nul(path, "utf-8"), holds_neutralised_cells(path, "utf-8"), line_bound(path, "utf-8"))
        count_ahead(path)
        begun = precount._COUNT_AHEAD.peek(path)
        assert begun is not None
        begun.result()
        with monkeypatch.context() as no_reads:
            no_reads.setattr(precount, "_pieces", _no_second_read)
            ahead = (holds_nul(path, "utf-8-sig"), holds_neutralised_cells(path, "utf-8"), line_bound(path, "utf-8"))
        assert ahead == scanned, path.read_bytes()
        assert precount._COUNT_AHEAD.take(path) is None  # line_bound took it; the scans left it


def test_a_pass_begun_ahead_that_failed_leaves_the_scans_to_read_for_themselves(tmp_path: Path) -> None:
    path = tmp_path / "bad.csv"
    path.write_bytes(b"h\n'=1\n" + b"ok\n" * 1000 + b"a\x00b\n" + b"\xff\n")
    count_ahead(path)
    assert holds_nul(path, "utf-8") and holds_neutralised_cells(path, "utf-8")
    with pytest.raises(PermanentError) as refused:
        line_bound(path, "utf-8")  # the pass's fault, raised by the count as the count now raises it
    assert refused.value.code is ErrorCode.ENCODING_UNDETECTABLE


def test_another_encoding_is_scanned_as_it_reads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "gbk.csv"
    path.write_bytes("code,name\nC1,'=1\n".encode("gb18030"))
    count_ahead(path)
    begun = precount._COUNT_AHEAD.peek(path)
    assert begun is not None
    begun.result()  # its own read done before _pieces is counted (else, read late, it counted as a third)
    read: list[int] = []
    real = precount._pieces
    monkeypatch.setattr(precount, "_pieces", lambda handle: read.append(1) or real(handle))
    assert holds_neutralised_cells(path, "gb18030") and not holds_nul(path, "gb18030")
    assert len(read) == 2  # a pass begun as UTF-8 does not answer for a GB18030 reading


def _no_second_read(handle: object) -> Iterator[bytearray]:
    raise AssertionError("the file was read again")
