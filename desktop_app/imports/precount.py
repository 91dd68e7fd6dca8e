"""Before importing: the row limit checked on a byte count of line breaks, the encoding on every byte."""

from __future__ import annotations

import codecs
import re
import struct
from collections.abc import Iterator
from dataclasses import dataclass
from io import BufferedReader
from pathlib import Path
from typing import Protocol

import pyarrow as pa

from desktop_app.domain.errors import ErrorCode, PermanentError
from desktop_app.imports.readers import FORMATS
from desktop_app.imports.readers.csv_lines import NUL_RUN
from desktop_app.tasks.file_ahead import FileAhead
from desktop_app.tasks.file_pieces import PIECE, pieces

# The passes' pieces (file_pieces.PIECE: large, as a pass beside a busy thread needs); a test sets less.
CHUNK = PIECE

_NUL_RUN = NUL_RUN.encode("ascii")


def line_bound(path: Path, encoding: str | None) -> int | None:
    """Line breaks after the header: at least the number of data records (None: not countable by bytes).

    A line break is what the CSV reader splits on: CR LF, LF, or a lone CR (old Mac files, and some
    exports, end lines with CR only). The same pass decodes the whole file strictly (incrementally, so a
    character split between two chunks is fine) and refuses a run of NUL bytes (CSV_NUL_BYTES): a bad
    byte 50 MB in fails the file before any row is written, not halfway.

    A UTF-8 file's count begun ahead (count_ahead) is taken when the file is unchanged since: the same
    pass, its result or its error.
    """
    if encoding and _is_utf8(encoding):
        begun = _COUNT_AHEAD.take(path)
        if begun is not None:
            return begun.result().lines
    return _line_bound(path, encoding)


@dataclass(frozen=True)
class _Pass:
    """What the pass begun ahead found besides the line bound: whether the file holds a NUL, and a cell
    neutralised against CSV injection (holds_nul and holds_neutralised_cells take these, as a scan of
    their own would have said)."""

    lines: int | None
    nul: bool
    neutralised: bool


def count_ahead(path: Path) -> None:
    """Begin a CSV's line_bound as UTF-8 (most files are) on a thread of its own while the command line
    loads: the pass over a 90.8 MB file takes 0.11 s on the import's path otherwise, measured; Arrow's
    UTF-8 check lets go of the GIL, so the pass runs beside the loading on the other core. A
    file the reader finds in another encoding is counted then, as before. The same pass notes a NUL and
    a neutralised cell: their own scans cost the import's start 0.04 s, measured."""
    if FORMATS.get(path.suffix.lower()) == "csv":
        _COUNT_AHEAD.begin(path)


def _begun_pass(path: Path, encoding: str | None) -> _Pass | None:
    """The pass begun ahead, once it is done, when it read this file (unchanged since) as the reader reads
    it and found no fault; it stays to be taken by line_bound (a fault is line_bound's to raise)."""
    if not (encoding and _is_utf8(encoding)):
        return None
    begun = _COUNT_AHEAD.peek(path)
    if begun is None or begun.exception() is not None:
        return None
    return begun.result()


def _is_utf8(encoding: str) -> bool:
    try:
        return codecs.lookup(encoding).name in ("utf-8", "utf-8-sig")
    except LookupError:
        return False


def _bytes_tell(encoding: str) -> bool:
    """Whether the file's raw bytes say where its lines, NULs and quotes are: not in UTF-16/32, where such
    bytes are parts of ordinary characters."""
    return not encoding.replace("_", "-").lower().startswith(("utf-16", "utf-32", "utf16", "utf32"))


def _line_bound(path: Path, encoding: str | None) -> int | None:
    return _whole_pass(path, encoding).lines


def _whole_pass(path: Path, encoding: str | None) -> _Pass:
    if not (encoding and _bytes_tell(encoding)):
        return _Pass(None, nul=True, neutralised=True)  # bytes tell nothing: as holds_nul would say
    decoder = _strict_decoder(encoding)
    lines = 0
    nul = neutralised = False
    last = b""  # the end of the piece before
    with path.open("rb") as handle:
        for chunk in _pieces(handle):
            nul = _refuse_nul_run(last, chunk, lines) or nul
            neutralised = neutralised or _neutralised_in(last[-1:], chunk)
            lines += _breaks(chunk)
            if last.endswith(b"\r") and chunk.startswith(b"\n"):
                lines -= 1  # a CR LF split between two chunks is one line break, counted twice
            last = bytes(chunk[-len(_NUL_RUN) :])
            try:
                decoder.decode(chunk)
            except UnicodeDecodeError:
                raise PermanentError(ErrorCode.ENCODING_UNDETECTABLE) from None
    try:
        decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        raise PermanentError(ErrorCode.ENCODING_UNDETECTABLE) from None
    if last and not last.endswith((b"\n", b"\r")):
        lines += 1  # a last line without a line break
    return _Pass(max(0, lines - 1), nul=nul, neutralised=neutralised)


def _pieces(handle: BufferedReader) -> Iterator[bytearray]:
    return pieces(handle, CHUNK)


_COUNT_AHEAD: FileAhead[_Pass] = FileAhead("batchdesk-count", lambda path: _whole_pass(path, "utf-8"))


class _Decoder(Protocol):
    def decode(self, data: bytes | bytearray, final: bool = False) -> object: ...


def _strict_decoder(encoding: str) -> _Decoder:
    """A strict incremental check of the bytes' encoding: Arrow's UTF-8 validation for UTF-8 (measured on
    a 90.8 MB file: 0.03 s against Python's decoder's 0.12 s, which builds every text only to drop it),
    Python's decoder for any other encoding."""
    if _is_utf8(encoding):
        return Utf8Check()
    return codecs.getincrementaldecoder(encoding)(errors="strict")


class Utf8Check:
    """Whether bytes fed a piece at a time are UTF-8 (what Python's strict decoder accepts: no overlong
    form, no surrogate, nothing past U+10FFFF), with Python's decoder's interface. A character split
    between two pieces is held back, and checked with the next."""

    def __init__(self) -> None:
        self._carry: bytes | bytearray = b""

    def decode(self, data: bytes | bytearray, final: bool = False) -> str:
        if self._carry:
            data = self._carry + data
        cut = len(data) if final else _whole_characters(data)
        self._carry = data[cut:]
        # the piece's bytes as one binary value without a copy (Arrow's cast checks them, the GIL let go)
        offsets = pa.py_buffer(struct.pack("<ii", 0, cut))
        try:
            pa.Array.from_buffers(pa.binary(), 1, [None, offsets, pa.py_buffer(data)]).cast(pa.string())
        except pa.ArrowInvalid:
            raise UnicodeDecodeError("utf-8", data, 0, len(data), "invalid UTF-8") from None
        return ""


def _whole_characters(data: bytes | bytearray) -> int:
    """Where the last character that may still go on in the next piece starts (len(data): none does)."""
    end = len(data)
    for back in range(1, min(4, end) + 1):
        byte = data[end - back]
        if byte < 0x80:
            return end  # ASCII: the piece ends between characters
        if byte >= 0xC0:
            return end - back  # a lead byte: its character, whole or not, waits for the next piece
    return end  # four continuation bytes in a row: invalid, found by the check of this piece


def _breaks(data: bytes | bytearray) -> int:
    """Line breaks in data: CR LF, LF and lone CR each count once."""
    if b"\r" not in data:  # a file of LF line ends: a byte search (memchr) is 4x faster than a count
        return data.count(b"\n")
    return data.count(b"\n") + data.count(b"\r") - data.count(b"\r\n")


def _refuse_nul_run(tail: bytes, chunk: bytes | bytearray, lines_before: int) -> bool:
    """CSV_NUL_BYTES when a run of NULs lies in tail + chunk (tail: the end of the chunk before); else
    whether the chunk holds a NUL at all."""
    if b"\x00" not in chunk:  # a byte search (memchr) is ~6x faster than a search for the run
        return False
    if _NUL_RUN not in chunk and not (tail and _NUL_RUN in tail + chunk[: len(_NUL_RUN)]):
        return True
    at = max((tail + chunk).find(_NUL_RUN) - len(tail), 0)
    raise PermanentError(ErrorCode.CSV_NUL_BYTES, row=lines_before + _breaks(chunk[:at]) + 1)


# A cell neutralised against CSV injection: a quote before = + - @ tab or CR. In UTF-8 and GB18030 the
# quote and these characters are never part of a multi-byte character, so the raw bytes tell.
_NEUTRALISED = re.compile(rb"'[=+\-@\t\r]")


def holds_neutralised_cells(path: Path, encoding: str | None) -> bool:
    """Whether a CSV may contain neutralised cells (a fast byte scan; True when bytes cannot tell)."""
    if not (encoding and _bytes_tell(encoding)):
        return True
    begun = _begun_pass(path, encoding)
    if begun is not None:
        return begun.neutralised
    tail = b""
    with path.open("rb") as handle:
        for chunk in _pieces(handle):
            if _neutralised_in(tail, chunk):
                return True
            tail = bytes(chunk[-1:])
    return False


def _neutralised_in(tail: bytes, chunk: bytes | bytearray) -> bool:
    """Whether a neutralised cell's start lies in tail + chunk (tail: the last byte of the piece before)."""
    if tail == b"'" and _NEUTRALISED.match(tail + chunk[:1]):
        return True  # the quote ended the piece before
    # the quote first, by a byte search (memchr): most files hold none, and the pattern's search cost
    # ten times as much (the scan over 90.8 MB: 0.038 -> 0.014 s, measured)
    return b"'" in chunk and _NEUTRALISED.search(chunk) is not None


def holds_nul(path: Path, encoding: str | None) -> bool:
    """Whether a CSV's bytes hold a NUL (then the validator looks for one in each row; True when the
    encoding is one where a NUL byte is part of ordinary characters)."""
    if not (encoding and _bytes_tell(encoding)):
        return True
    begun = _begun_pass(path, encoding)
    if begun is not None:
        return begun.nul
    with path.open("rb") as handle:
        return any(b"\x00" in chunk for chunk in _pieces(handle))
