"""A plain .xlsx sheet read by calamine, one checked slice of rows at a time, as the streaming parser reads it."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from openpyxl.xml.constants import SHEET_MAIN_NS

from .excel_reader import is_failure
from .xlsx_plain import PlainRows, Slice, inline_shared

_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_PKG = "http://schemas.openxmlformats.org/package/2006/relationships"
_HEAD = f'<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="{SHEET_MAIN_NS}"><sheetData>'.encode()
_TAIL = b"</sheetData></worksheet>"


class NotPlain(Exception):
    """The streaming parser reads on after the sheet's first `elements` row elements (calamine gave those)."""

    def __init__(self, elements: int) -> None:
        super().__init__(elements)
        self.elements = elements


@dataclass(frozen=True, slots=True)
class Block:
    """Consecutive sheet rows from row `top` as calamine gives them: each a list of the area's width, from
    column `pad` (0-based); an empty cell is "", a number a float."""

    top: int
    rows: list[list[Any]]
    pad: int
    float_columns: frozenset[int]  # Slice.float_columns

    def numbers(self) -> range:
        return range(self.top, self.top + len(self.rows))

    def values(self, row: list[Any]) -> list[Any]:
        """One row's values from column A as the streaming parser gives them: an integer as an int, as
        openpyxl reads "5" (the check lets no whole number through as a decimal but in float_columns)."""
        floats, pad = self.float_columns, self.pad
        if floats:
            cells = [int(v) if type(v) is float and v.is_integer() and k + pad not in floats else v
                     for k, v in enumerate(row)]  # fmt: skip
        else:
            cells = [int(v) if type(v) is float and v.is_integer() else v for v in row]
        return [None] * pad + cells if pad else cells


class CalamineSlices:
    """Each checked slice as a small workbook of its own (stored, not compressed: nothing to inflate again)
    with the file's styles, shared strings and date system, read by calamine."""

    def __init__(self, plain: PlainRows, styles: bytes | None, strings: bytes | None, date1904: bool,
                 shared: list[str] | None = None) -> None:  # fmt: skip
        """shared: the strings the streaming parser read, written into each slice (no table is given)."""
        self._plain = plain
        self._parts = _book_parts(styles, strings, date1904)
        self._shared = shared
        self.rows_read = 0  # rows calamine has given, for the tests (and the log)

    def rows(self, first_row: int) -> Iterator[tuple[int, list[Any]]]:
        """(row number, values from column A) of the rows from first_row on; NotPlain where the streaming
        parser must go on (nothing after those row elements has been given)."""
        for block in self.blocks(first_row):
            for num, values in zip(block.numbers(), block.rows, strict=True):
                yield num, block.values(values)

    def blocks(self, first_row: int) -> Iterator[Block]:
        """The rows from first_row on, a slice at a time as calamine gave them (one dense area); NotPlain
        where the streaming parser must go on, as rows()."""
        elements = 0
        for piece in self._plain.slices():
            if piece.xml:
                block = self._slice_block(piece, first_row, elements)
                if block is not None:
                    yield block
            elements += piece.rows
            if piece.last:
                raise NotPlain(elements)

    def _slice_block(self, piece: Slice, first_row: int, elements: int) -> Block | None:
        from python_calamine import CalamineWorkbook

        try:
            xml = piece.xml if self._shared is None else inline_shared(piece.xml, self._shared)
            book = CalamineWorkbook.from_filelike(self._workbook(xml))
            try:
                sheet = book.get_sheet_by_index(0)
                start = sheet.start
                rows = sheet.to_python(skip_empty_area=True)
            finally:
                book.close()
        except BaseException as exc:
            if not is_failure(exc):
                raise
            raise NotPlain(elements) from exc
        if start is None:
            return None
        self.rows_read += len(rows)
        top = start[0] + 1
        # rows above first_row are read and dropped: a resumed import's first slices only
        skip = max(first_row - top, 0)
        if skip >= len(rows):
            return None
        return Block(top + skip, rows[skip:] if skip else rows, start[1], piece.float_columns)

    def _workbook(self, rows: bytes) -> io.BytesIO:
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as book:
            for name, data in self._parts:
                book.writestr(name, data)
            book.writestr("xl/worksheets/sheet1.xml", _HEAD + rows + _TAIL)
        buffer.seek(0)
        return buffer


def _book_parts(styles: bytes | None, strings: bytes | None, date1904: bool) -> list[tuple[str, bytes]]:
    rels = [f'<Relationship Id="rId1" Type="{_REL}/worksheet" Target="worksheets/sheet1.xml"/>']
    if styles is not None:
        rels.append(f'<Relationship Id="rId2" Type="{_REL}/styles" Target="styles.xml"/>')
    if strings is not None:
        rels.append(f'<Relationship Id="rId3" Type="{_REL}/sharedStrings" Target="sharedStrings.xml"/>')
    pr = '<workbookPr date1904="1"/>' if date1904 else ""
    parts = [
        ("_rels/.rels", f'<Relationships xmlns="{_PKG}"><Relationship Id="rId1" Type="{_REL}/officeDocument" '
                        'Target="xl/workbook.xml"/></Relationships>'),
        ("xl/workbook.xml", f'<workbook xmlns="{SHEET_MAIN_NS}" xmlns:r="{_REL}">{pr}<sheets>'
                            '<sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>'),
        ("xl/_rels/workbook.xml.rels", f'<Relationships xmlns="{_PKG}">{"".join(rels)}</Relationships>'),
    ]  # fmt: skip
    out = [(name, text.encode()) for name, text in parts]
    if styles is not None:
        out.append(("xl/styles.xml", styles))
    if strings is not None:
        out.append(("xl/sharedStrings.xml", strings))
    return out
