"""An .xlsx opened as a zip whose parts are measured from its directory before any of them is inflated."""

from __future__ import annotations

import io
import struct
import zipfile
from collections.abc import Callable
from typing import IO, Any

from desktop_app.domain.errors import ErrorCode, PermanentError

from .limits import MIB, ReadLimits

MAX_DIRECTORY_KB = 1024
"""The zip's central directory: ~13,000 parts. Workbooks have tens, with many charts a few thousand; a
directory of a million tiny entries is a memory bomb of its own (a ZipInfo each)."""

MAX_TEXT_RUN = 8
"""A streamed part may hold at most max_cell_chars x this bytes without a '<': XML text and tags never
hold one, so this bounds every cell's text (UTF-8 and entities included) before expat holds it whole."""

_EOCD = b"PK\x05\x06"
_EOCD_SIZE = 22
_EOCD_SEARCH = 65_535 + _EOCD_SIZE  # the record, after a comment of at most 64 KB


def open_zip(raw: io.FileIO, limits: ReadLimits) -> BoundedZip:
    """The file as a BoundedZip: its directory no larger than MAX_DIRECTORY_KB, every part declared to
    unpack to at most limits.part_bytes (zipfile never inflates a part beyond its declared size)."""
    _check_directory(raw)
    try:
        archive = BoundedZip(raw, limits)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, ValueError, struct.error) as exc:
        raise PermanentError(ErrorCode.CORRUPT_FILE, detail=f"{type(exc).__name__}: {exc}") from exc
    for info in archive.infolist():
        archive.check_part(info, limits.part_bytes)
    return archive


def _check_directory(raw: io.FileIO) -> None:
    """CORRUPT_FILE (too_many_parts) when the end-of-directory record declares a huge directory. Without
    that record zipfile itself refuses the file."""
    size = raw.seek(0, io.SEEK_END)
    raw.seek(max(0, size - _EOCD_SEARCH))
    tail = raw.read(_EOCD_SEARCH) or b""
    raw.seek(0)
    at = tail.rfind(_EOCD)
    if at < 0 or len(tail) - at < _EOCD_SIZE:
        return
    entries, directory = struct.unpack_from("<HL", tail, at + 10)
    # zip64 markers: more than 65,535 parts or a 4 GB directory, neither of which a workbook has
    if entries == 0xFFFF or directory == 0xFFFFFFFF or directory > MAX_DIRECTORY_KB * 1024:
        raise PermanentError(ErrorCode.CORRUPT_FILE, reason="too_many_parts", limit=MAX_DIRECTORY_KB)


class BoundedZip(zipfile.ZipFile):
    """A zip whose open() refuses a part declared larger than limits.whole_part_bytes: every part that
    openpyxl reads, it reads whole. open_streamed() is for parts read piecewise, with their own limit."""

    def __init__(self, raw: IO[bytes], limits: ReadLimits) -> None:
        super().__init__(raw)
        self.limits = limits

    @staticmethod
    def check_part(info: zipfile.ZipInfo, limit: int) -> None:
        if info.file_size > limit:
            raise PermanentError(
                ErrorCode.FILE_TOO_LARGE,
                reason="xlsx_part",
                part=info.filename,
                size_mb=f"{info.file_size / MIB:.0f}",
                limit_mb=f"{limit / MIB:.0f}",
            )

    def open(self, name: Any, mode: Any = "r", pwd: bytes | None = None, *, force_zip64: bool = False) -> IO[bytes]:
        if mode == "r":
            self.check_part(
                name if isinstance(name, zipfile.ZipInfo) else self.getinfo(name), self.limits.whole_part_bytes
            )
        return super().open(name, mode, pwd, force_zip64=force_zip64)

    def open_streamed(self, name: str, limit: int, overrun: Callable[[], PermanentError]) -> TextRunGuard:
        """A part to read piecewise: at most limit bytes, no run of text longer than the cell limit
        allows (overrun() is the error then)."""
        info = self.getinfo(name)
        self.check_part(info, limit)
        stream = zipfile.ZipFile.open(self, info)
        return TextRunGuard(stream, self.limits.max_cell_chars * MAX_TEXT_RUN, overrun)


class TextRunGuard:
    """A read-only byte stream that raises once more than max_run bytes pass without a '<'."""

    def __init__(self, stream: IO[bytes], max_run: int, overrun: Callable[[], PermanentError]) -> None:
        self._stream = stream
        self._max_run = max_run
        self._overrun = overrun
        self._run = 0  # bytes since the last '<'

    def read(self, size: int = -1) -> bytes:
        data = self._stream.read(size)
        last = data.rfind(b"<")
        if last < 0:
            self._run += len(data)
        else:
            # Only a run that started in an earlier read can be long: a read is far below max_run.
            if self._run + data.find(b"<") > self._max_run:
                raise self._overrun()
            self._run = len(data) - last - 1
        if self._run > self._max_run:
            raise self._overrun()
        return data

    def close(self) -> None:
        self._stream.close()

    def __enter__(self) -> TextRunGuard:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
