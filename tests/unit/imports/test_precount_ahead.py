"""A CSV's line count begun ahead (count_ahead) gives what the pre-count would give now, its errors
included, and is taken only for a UTF-8 reading of the file as it was when the count began."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from desktop_app.domain.errors import ErrorCode, PermanentError
from desktop_app.imports import precount
from desktop_app.imports.precount import count_ahead, line_bound


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
