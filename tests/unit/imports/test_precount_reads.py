"""The passes over a CSV before its import read it in a few large pieces, whatever else runs."""

from __future__ import annotations

import io
from pathlib import Path, PosixPath, WindowsPath
from typing import Any

import pytest

from desktop_app.imports import precount
from desktop_app.imports.precount import CHUNK, holds_neutralised_cells, holds_nul, line_bound

_Base: Any = WindowsPath if isinstance(Path(), WindowsPath) else PosixPath


class _CountedPath(_Base):
    """A path whose file, opened for reading, counts the reads made of it."""

    reads = 0

    def open(self, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        handle = super().open(mode, *args, **kwargs)
        return _Counted(handle, type(self)) if mode == "rb" else handle


class _Counted:
    def __init__(self, handle: io.BufferedReader, counter: type[_CountedPath]) -> None:
        self._handle, self._counter = handle, counter

    def __enter__(self) -> _Counted:
        return self

    def __exit__(self, *exc: object) -> None:
        self._handle.close()

    def readinto(self, buffer: Any) -> int:
        self._counter.reads += 1
        return self._handle.readinto(buffer)

    def read(self, size: int = -1) -> bytes:
        self._counter.reads += 1
        return self._handle.read(size)


@pytest.mark.parametrize("scan", ["line_bound", "holds_nul", "holds_neutralised_cells"])
def test_each_pass_reads_the_file_in_pieces_of_megabytes(tmp_path: Path, scan: str) -> None:
    """A read lets go of the GIL, and taking it back beside a thread busy in Python (the command line
    loading, the window) waits up to the 5 ms switch interval: the pass over 90.8 MB took 5.7 s in 256 KB
    reads against 0.23 s in 8 MB ones. So a pass makes a read per CHUNK of at least a megabyte."""
    assert CHUNK >= 1 << 20
    path = _CountedPath(tmp_path / "big.csv")
    line = "C000001,张三,13800000000,a@example.com,金卡,2024-01-02,12.50,销售部,备注\n".encode()
    path.write_bytes(b"h\n" + line * (2 * CHUNK // len(line) + 1))
    _CountedPath.reads = 0
    result = {"line_bound": lambda: line_bound(path, "utf-8"), "holds_nul": lambda: holds_nul(path, "utf-8"),
              "holds_neutralised_cells": lambda: holds_neutralised_cells(path, "utf-8")}[scan]()  # fmt: skip
    assert result in (2 * CHUNK // len(line) + 1, False)
    assert _CountedPath.reads <= 4  # three pieces and the read that finds the end


def test_a_short_last_piece_is_read_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(precount, "CHUNK", 64)
    path = tmp_path / "f.csv"
    body = b"h\n" + b"".join(b"row %d\n" % n for n in range(100)) + b"'=1"
    path.write_bytes(body)
    assert line_bound(path, "utf-8") == 101  # the last line has no line break
    assert holds_neutralised_cells(path, "utf-8")  # in the last, shorter piece
    path.write_bytes(body + b"\x00")
    assert holds_nul(path, "utf-8")
