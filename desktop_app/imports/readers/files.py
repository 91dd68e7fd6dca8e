"""Opening source files, with a missing, locked or unreadable file turned into a BatchDesk error."""

from __future__ import annotations

import io
import os
from pathlib import Path
from types import TracebackType
from typing import Self

from desktop_app.domain.errors import BatchDeskError, ErrorCode, PermanentError, TransientError

# Windows: ERROR_SHARING_VIOLATION, ERROR_LOCK_VIOLATION. Another program holds the file, so the
# same import may well work in a minute; every other failure to read is permanent.
_WINDOWS_HELD = frozenset({32, 33})


def file_error(path: Path, exc: OSError) -> BatchDeskError:
    """The BatchDesk error for an OSError met while opening or reading path."""
    if isinstance(exc, FileNotFoundError):
        return PermanentError(ErrorCode.FILE_NOT_FOUND, path=str(path))
    if getattr(exc, "winerror", None) in _WINDOWS_HELD:
        return TransientError(ErrorCode.FILE_UNREADABLE, path=str(path), detail=str(exc))
    return PermanentError(ErrorCode.FILE_UNREADABLE, path=str(path), detail=str(exc))


def open_binary(path: Path) -> io.FileIO:
    """The file opened unbuffered for reading; its tell() is the bytes consumed so far."""
    try:
        return io.FileIO(path, "r")
    except OSError as exc:
        raise file_error(path, exc) from exc


def file_size(raw: io.FileIO, path: Path) -> int:
    """The size in bytes of an open file."""
    try:
        return os.fstat(raw.fileno()).st_size
    except OSError as exc:
        raise file_error(path, exc) from exc


class ReaderBase:
    """Context-manager support and the closed flag every reader shares."""

    _closed: bool = False

    def close(self) -> None:
        self._closed = True

    def _check_open(self) -> None:
        if self._closed:
            raise ValueError("the reader is closed")

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
