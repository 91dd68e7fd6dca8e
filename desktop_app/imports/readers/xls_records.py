"""Checking that an .xls sheet's BIFF records add up, before calamine reads it (it stops silently on damage).

A damaged .xls (bytes zeroed, a chunk cut out) mostly still parses: zeroed records read as empty ones
until the chain lands somewhere, a cut shifts the rest. calamine then returns whatever rows it met, with
no word. Walking the records again tells: the sheet's records must chain cleanly from its BOF to its EOF
and end where the next sheet (or the stream) begins, its cells must lie inside its DIMENSIONS record, no
cell may appear twice, and its last cell must be on the last row DIMENSIONS declares. olefile reads the
OLE2 container: a well-kept pure-Python library (oletools and Pillow build on it) that checks the sector
chains and reports the container's defects, which calamine's reader does not.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

import olefile

from desktop_app.domain.errors import ErrorCode, PermanentError, WarningCode

from .limits import ReaderWarning, ReadLimits

BOF, EOF, BOUNDSHEET, DIMENSIONS, ROW, SST = 0x0809, 0x000A, 0x0085, 0x0200, 0x0208, 0x00FC
MULRK, MULBLANK = 0x00BD, 0x00BE
# Records holding one cell, its row and column first: FORMULA, RSTRING, LABELSST, BLANK, NUMBER, LABEL,
# BOOLERR, RK.
SINGLE_CELLS = frozenset({0x0006, 0x00D6, 0x00FD, 0x0201, 0x0203, 0x0204, 0x0205, 0x027E})
MAX_RECORD = 8224  # BIFF8's largest record body
BIFF8 = 0x0600


def _known_type(kind: int) -> bool:
    """Whether a record type is one BIFF8 uses: zeroed bytes read as type 0, and a chain gone astray
    into cell data mostly lands on types no record has. (A wrong guess here fails a file, never
    passes a damaged one.)"""
    return 0 < kind < 0x0300 or 0x0400 <= kind < 0x0500 or 0x0800 <= kind < 0x0900 or 0x1000 <= kind < 0x1100


@dataclass(frozen=True, slots=True)
class XlsCheck:
    """What the walk found for one sheet: the cells' bounding box (0-based) and its warnings."""

    name: str
    last_row: int  # -1: no cells
    last_column: int
    warnings: tuple[ReaderWarning, ...] = field(default=())


def check_xls(data: bytes, sheet: str | None, limits: ReadLimits) -> XlsCheck | None:
    """The check of the named sheet (default: the first), or None with nothing to check (no sheets).

    Raises CORRUPT_FILE (a broken container, records that do not add up) and FILE_TOO_LARGE (a sheet
    area calamine could not hold, checked before it tries).
    """
    try:
        with olefile.OleFileIO(data, raise_defects=olefile.DEFECT_INCORRECT) as ole:
            issues = [message for _, message in ole.parsing_issues]
            name = "Workbook" if ole.exists("Workbook") else "Book" if ole.exists("Book") else None
            if name is None:
                raise PermanentError(ErrorCode.CORRUPT_FILE, detail="no workbook stream")
            stream = ole.openstream(name).read()
    except PermanentError:
        raise
    except Exception as exc:  # olefile raises OSError, OleFileError, struct.error... on damage
        raise PermanentError(ErrorCode.CORRUPT_FILE, detail=f"{type(exc).__name__}: {exc}") from exc
    warnings: list[ReaderWarning] = []
    if issues:
        warnings.append(ReaderWarning(WarningCode.XLS_CONTAINER_DEFECTS, {"detail": "; ".join(issues)[:200]}))
    sheets, version = _globals(stream)
    if version != BIFF8:
        warnings.append(ReaderWarning(WarningCode.XLS_NOT_CHECKED, {"detail": "Excel 5/95 format"}))
        return XlsCheck(sheet or "", -1, -1, tuple(warnings))
    if not sheets:
        return None
    if sheet is None:
        chosen = 0
    else:
        chosen = next((i for i, (n, _) in enumerate(sheets) if n == sheet), -1)
        if chosen < 0:  # named as calamine names it, but not found here: nothing to compare against
            warnings.append(ReaderWarning(WarningCode.XLS_NOT_CHECKED, {"detail": f"sheet {sheet}"}))
            return XlsCheck(sheet, -1, -1, tuple(warnings))
    # calamine parses every sheet when it opens the file, so every sheet must be sound, not only this one
    offsets = sorted({o for _, o in sheets} | {len(stream)})
    checks = [
        _walk_sheet(stream, title, offset, next(o for o in offsets if o > offset), limits) for title, offset in sheets
    ]
    found = checks[chosen]
    return XlsCheck(found.name, found.last_row, found.last_column, tuple(warnings) + found.warnings)


def _records(stream: bytes, pos: int, sheet: str) -> tuple[int, int, int]:
    """(type, body start, body end) of the record at pos; CORRUPT_FILE when it runs past the stream."""
    if pos + 4 > len(stream):
        raise _broken(sheet, pos)
    kind, size = struct.unpack_from("<HH", stream, pos)
    if size > MAX_RECORD or pos + 4 + size > len(stream) or not _known_type(kind):
        raise _broken(sheet, pos)
    return kind, pos + 4, pos + 4 + size


def _globals(stream: bytes) -> tuple[list[tuple[str, int]], int]:
    """The workbook globals' sheets (name, stream offset of their BOF) and the BIFF version."""
    kind, start, end = _records(stream, 0, "")
    if kind != BOF or end - start < 2:
        raise _broken("", 0)
    version = struct.unpack_from("<H", stream, start)[0]
    sheets: list[tuple[str, int]] = []
    pos = end
    while True:
        kind, start, end = _records(stream, pos, "")
        if kind == EOF:
            return sheets, version
        if kind == SST and end - start >= 8 and struct.unpack_from("<L", stream, start + 4)[0] * 3 > len(stream):
            raise _broken("", pos)  # more strings declared than the stream could hold: calamine would
            # reserve room for them all and abort the process
        if kind == BOUNDSHEET and version == BIFF8 and end - start >= 8:
            offset, count, flags = struct.unpack_from("<L2xBB", stream, start)
            raw = stream[start + 8 : end]
            title = raw[: 2 * count].decode("utf-16-le", "replace") if flags & 1 else raw[:count].decode("latin-1")
            sheets.append((title, offset))
        pos = end


def _walk_sheet(stream: bytes, sheet: str, offset: int, end: int, limits: ReadLimits) -> XlsCheck:
    if offset >= len(stream):
        raise _broken(sheet, offset)
    kind, _, pos = _records(stream, offset, sheet)
    if kind != BOF:
        raise _broken(sheet, offset)
    warnings: list[ReaderWarning] = []
    spans: list[tuple[int, int, int]] = []  # ROW records: (row, first column, column after the last)
    declared: tuple[int, int, int, int] | None = None  # first row, row after last, first col, col after last
    seen = bytearray()
    width = 1
    last_row = last_col = -1
    first_row = first_col = 1 << 20
    depth = 1  # a chart inside a worksheet brings its own BOF .. EOF
    while depth:
        kind, start, pos = _records(stream, pos, sheet)
        if kind == BOF:
            depth += 1
            continue
        if kind == EOF:
            depth -= 1
            continue
        if depth > 1:
            continue
        if kind == ROW and pos - start >= 6:
            spans.append(struct.unpack_from("<HHH", stream, start))
            continue
        if kind == DIMENSIONS and pos - start >= 12:
            declared = struct.unpack_from("<LLHH", stream, start)
            rows, width = declared[1] - declared[0], max(declared[3] - declared[2], 1)
            _check_area(sheet, rows, width, limits)
            seen = bytearray((rows * width + 7) // 8)
            continue
        if kind in SINGLE_CELLS and pos - start >= 4:
            row, col = struct.unpack_from("<HH", stream, start)
            columns = range(col, col + 1)
        elif kind in (MULRK, MULBLANK) and pos - start >= 6:
            row, col = struct.unpack_from("<HH", stream, start)
            columns = range(col, struct.unpack_from("<H", stream, pos - 2)[0] + 1)
        else:
            continue
        for c in columns:
            if declared is not None:
                _mark(seen, sheet, row, c, declared, width)
        last_row, first_row = max(last_row, row), min(first_row, row)
        last_col, first_col = max(last_col, columns[-1] if columns else col), min(first_col, col)
    if pos != end and any(stream[pos:end]):  # the stream may be padded with zeros after the last sheet
        raise _broken(sheet, pos)
    if declared is None:
        warnings.append(ReaderWarning(WarningCode.XLS_NOT_CHECKED, {"detail": "no DIMENSIONS record"}))
        if last_row >= 0:
            _check_area(sheet, last_row - first_row + 1, last_col - first_col + 1, limits)
    else:
        if declared[1] > declared[0] and last_row + 1 != declared[1]:
            raise _mismatch(sheet, declared[1], last_row + 1)
        _check_spans(seen, sheet, spans, declared, width)
    return XlsCheck(sheet, last_row, last_col, tuple(warnings))


def _check_spans(
    seen: bytearray, sheet: str, spans: list[tuple[int, int, int]], declared: tuple[int, int, int, int], width: int
) -> None:
    """Each ROW record names the column after its row's last cell: that cell must have been met (a
    block of cells zeroed or cut out of the middle of a sheet leaves its ROW records behind). The
    first column is not checked: xlwt writes 0 there whatever the row holds."""
    for row, first, after in spans:
        if after <= first:
            continue  # a formatted row without cells
        r, c = row - declared[0], after - 1 - declared[2]
        bit = r * width + c
        inside = 0 <= r < declared[1] - declared[0] and 0 <= c < width
        if not inside or not seen[bit >> 3] & (1 << (bit & 7)):
            raise _mismatch(sheet, row + 1, row)


def _mismatch(sheet: str, declared: int, found: int) -> PermanentError:
    return PermanentError(
        ErrorCode.CORRUPT_FILE, reason="xls_rows_mismatch", sheet=sheet, declared=declared, found=found
    )


def _mark(seen: bytearray, sheet: str, row: int, col: int, declared: tuple[int, int, int, int], width: int) -> None:
    """Note the cell in the bitmap of the declared area; CORRUPT_FILE outside it, or a second time."""
    r, c = row - declared[0], col - declared[2]
    if not (0 <= r < declared[1] - declared[0] and 0 <= c < width):
        raise _outside(sheet, row, col)
    bit = r * width + c
    if seen[bit >> 3] & (1 << (bit & 7)):
        raise _outside(sheet, row, col)
    seen[bit >> 3] |= 1 << (bit & 7)


def _check_area(sheet: str, rows: int, columns: int, limits: ReadLimits) -> None:
    if rows * columns > limits.max_xls_cells:
        raise PermanentError(
            ErrorCode.FILE_TOO_LARGE, reason="xls_area", sheet=sheet, rows=rows, columns=columns,
            limit=limits.max_xls_cells,
        )  # fmt: skip


def _broken(sheet: str, offset: int) -> PermanentError:
    return PermanentError(ErrorCode.CORRUPT_FILE, reason="xls_records_broken", sheet=sheet, offset=offset)


def _outside(sheet: str, row: int, col: int) -> PermanentError:
    from openpyxl.utils.cell import get_column_letter  # only on a damaged file

    cell = f"{get_column_letter(col + 1)}{row + 1}" if col < 18_278 else f"R{row + 1}C{col + 1}"
    return PermanentError(ErrorCode.CORRUPT_FILE, reason="xls_cell_outside", sheet=sheet, cell=cell)
