"""An .xlsx sheet's rows parsed by expat as its XML streams in, by openpyxl's cell rules, each dropped once read."""

from __future__ import annotations

import pyexpat
from collections.abc import Iterator
from typing import IO, Any
from warnings import warn
from xml.etree.ElementTree import ParseError, TreeBuilder

from openpyxl.cell.text import Text
from openpyxl.utils.cell import column_index_from_string, coordinate_to_tuple, range_boundaries
from openpyxl.utils.datetime import from_excel, from_ISO8601
from openpyxl.worksheet._reader import _cast_number
from openpyxl.xml.constants import SHEET_MAIN_NS

from desktop_app.domain.errors import ErrorCode, PermanentError

from .limits import ReadLimits

# expat names a namespaced element "namespace}local" (namespace_separator "}"): "{" before it is ElementTree's name
_ROW = f"{SHEET_MAIN_NS}}}row"
_SHEET_DATA = f"{SHEET_MAIN_NS}}}sheetData"
_DIMENSION = f"{SHEET_MAIN_NS}}}dimension"
_V = f"{SHEET_MAIN_NS}}}v"
_IS = f"{SHEET_MAIN_NS}}}is"
_T = f"{SHEET_MAIN_NS}}}t"

READ_BYTES = 16 * 1024
"""What ElementTree's iterparse reads at a time: the rows read before a bound fails are the same."""

ELEMENTS_PER_CELL = 8
"""A cell is a <c> with a value, a formula, an inline string and its runs: a row may hold this many
elements per allowed column before it counts as too wide (a row is held whole until it ends)."""

_DIGITS = "0123456789"


class _SheetDataEnd(Exception):
    """Raised from expat's handler at </sheetData>: what follows (merges, formatting) is not parsed."""


class SheetRows:
    """Iterating gives (row number, values from column A) for each row present in a sheet's XML.

    The values are what openpyxl's read-only parser gives (data_only: a formula's cached value), read
    with expat's callbacks instead of a tree per row and a dict per cell: about twice as fast, and
    nothing but the row being read is held. Missing rows are skipped; CORRUPT_FILE on a row beyond
    limits.max_rows, a cell beyond column limits.max_columns or a text longer than limits.max_cell_chars.
    declared_rows is the sheet's own <dimension> (0: none), known once iteration passes it.
    """

    def __init__(self, source: IO[bytes] | Any, book: Any, shared_strings: list[str], limits: ReadLimits) -> None:
        self._source = source
        self._limits = limits
        self._shared = shared_strings
        self._epoch = book.epoch
        self._date_formats: set[int] = book._date_formats
        self._timedelta_formats: set[int] = book._timedelta_formats
        self._columns: dict[str, int] = {}  # column letters -> number, as openpyxl reads them
        self._styles: dict[str, tuple[bool, bool]] = {}  # s attribute -> (a date style, a duration style)
        self._counter = 0  # openpyxl's row_counter
        self.declared_rows = 0
        self.row = 0  # the last row read: where a text too long was met (for the message)

    def __iter__(self) -> Iterator[tuple[int, list[Any]]]:
        parser = pyexpat.ParserCreate(namespace_separator="}")
        parser.buffer_text = True
        ready: list[tuple[int, list[Any]]] = []
        _Events(self, parser, ready)
        read, parse = self._source.read, parser.Parse
        while True:
            failure: BaseException | None = None
            try:
                data = read(READ_BYTES)
                if not data:
                    parse(b"", True)
            except _SheetDataEnd:
                data = b""
            except BaseException as exc:
                failure = _as_parse_error(exc)
            else:
                if data:
                    try:
                        parse(data, False)
                    except _SheetDataEnd:
                        data = b""
                    except BaseException as exc:
                        failure = _as_parse_error(exc)
            # the rows before a failure come first, as iterparse gives them
            yield from ready
            ready.clear()
            if failure is not None:
                raise failure
            if not data:
                return

    def column(self, coordinate: str) -> int:
        letters = coordinate.rstrip(_DIGITS)
        if letters and len(letters) < len(coordinate):
            known = self._columns.get(letters)
            if known is not None:
                return known
            if letters.isalpha() and letters.isascii():
                known = self._columns[letters] = column_index_from_string(letters)
                return known
        return coordinate_to_tuple(coordinate)[1]  # anything odd: openpyxl's own answer, or its error

    def style(self, style: str) -> tuple[bool, bool]:
        known = self._styles.get(style)
        if known is None:
            number = int(style)  # raises as openpyxl's parse_cell does on a style that is no number
            known = self._styles[style] = (number in self._date_formats, number in self._timedelta_formats)
        return known

    def value(self, kind: str, text: str, style: str | None, coordinate: str | None) -> Any:
        """A <v>'s text as openpyxl's parse_cell makes it a value."""
        if kind == "n":
            number = _cast_number(text)
            if style and self.style(style)[0]:
                try:
                    return from_excel(number, self._epoch, timedelta=self.style(style)[1])
                except (OverflowError, ValueError):
                    warn(f"Cell {coordinate} is marked as a date but the serial value {number} is outside the "
                         "limits for dates. The cell will be treated as an error.", stacklevel=2)  # fmt: skip
                    return "#VALUE!"
            return number
        if kind == "s":
            return self._shared[int(text)]
        if kind == "b":
            return bool(int(text))
        if kind == "d":
            return from_ISO8601(text)
        return text  # "str" (a formula's text), "e" (#N/A ...) and any other kind: the text itself

    def finish_row(
        self, number: str | None, cells: list[tuple[int, Any]], failure: Exception | None
    ) -> tuple[int, list[Any]]:
        """openpyxl's parse_row, without the dict per formatted row, with the bounds checked; failure is
        the first of its cells', raised after its number is checked, as openpyxl parses the cells then."""
        limits = self._limits
        if number is not None:
            try:
                row = int(number)
            except ValueError:
                value = float(number)
                if not value.is_integer():
                    raise ValueError(f"{number} is not a valid row number") from None
                row = int(value)
        else:
            row = self._counter + 1
        self._counter = row
        if not 0 < row <= limits.max_rows:
            raise too_many_rows(limits)
        if failure is not None:
            raise failure
        self.row = row
        if not cells:
            return row, []
        # As openpyxl: the row is as wide as its last cell's column, cells beyond that are dropped.
        width = cells[-1][0]
        if width > limits.max_columns:
            raise too_wide(row, limits)
        values: list[Any] = [None] * width
        longest = limits.max_cell_chars
        for column, value in cells:
            if 0 < column <= width:
                if type(value) is str and len(value) > longest:
                    raise PermanentError(ErrorCode.CORRUPT_FILE, reason="cell_too_long", row=row, limit=longest)
                values[column - 1] = value
        return row, values


class _Inline:
    """An <is> being read: its depth, the text of its one plain <t> so far, or the tree it is built as."""

    __slots__ = ("depth", "plain", "t_open", "tree")

    def __init__(self, depth: int) -> None:
        self.depth = depth
        self.plain: list[str] | None = None
        self.t_open = False
        self.tree: TreeBuilder | None = None


class _Events:
    """expat's handlers for one pass over a sheet: the row being read, its cells, the text being taken.

    Only what openpyxl's parse_cell looks at is kept: a cell's t, r and s attributes, the text of its
    first <v> (up to the v's first child, as ElementTree's .text) and its first <is>; anything else in
    a cell is passed over. An <is> of one plain <t> is read here; any other (rich text runs, phonetic
    runs) is built as a small tree and read by openpyxl's Text, so its content is exactly openpyxl's.
    A row's own failures (its number, a cell's style or value) are raised when it ends, after what
    ends inside it, in openpyxl's order.
    """

    def __init__(self, rows: SheetRows, parser: Any, ready: list[tuple[int, list[Any]]]) -> None:
        self.rows, self.ready = rows, ready
        self.most_elements = ELEMENTS_PER_CELL * rows._limits.max_columns
        self.depth = 0
        self.in_data = False
        self.row_depth = 0  # depth of the open <row>; 0: none
        self.row_number: str | None = None
        self.row_failure: Exception | None = None
        self.cells: list[tuple[int, Any]] = []
        self.elements = 0  # ends inside sheetData since the last row ended
        self.column = 0  # openpyxl's col_counter
        self.cell_depth = 0  # depth of the open cell; 0: none
        self.kind = "n"
        self.style: str | None = None
        self.coordinate: str | None = None
        self.has_value = False  # the cell's first <v> has been met
        self.has_inline = False  # the cell's first <is> has been met
        self.text: list[str] | None = None  # the text being taken, if any
        self.value_text: str | None = None
        self.inline: _Inline | None = None
        parser.StartElementHandler = self.start
        parser.EndElementHandler = self.end
        parser.CharacterDataHandler = self.characters

    def characters(self, data: str) -> None:
        if self.text is not None:
            self.text.append(data)
        elif self.inline is not None and self.inline.tree is not None:
            self.inline.tree.data(data)

    def _stop_text(self) -> None:
        """ElementTree's .text ends at the first child or the end: a <v>'s text is its value's."""
        text = self.text
        self.text = None
        if text is not None and self.inline is None:
            self.value_text = "".join(text)

    def start(self, name: str, attrs: dict[str, str]) -> None:
        self.depth = depth = self.depth + 1
        if self.text is not None:
            self._stop_text()
        if self.inline is not None:
            self._inline_start(self.inline, name, attrs, depth)
        elif self.cell_depth:
            if depth == self.cell_depth + 1:
                if name == _V and not self.has_value:
                    self.has_value = True
                    if self.kind != "inlineStr":  # openpyxl reads no <v> of an inline string
                        self.text = []
                elif name == _IS and not self.has_inline:
                    self.has_inline = True
                    if self.kind == "inlineStr":
                        self.inline = inline = _Inline(depth)
                        if attrs:
                            self._inline_tree(inline, attrs)
        elif self.row_depth:
            if depth == self.row_depth + 1:  # every child of a row is a cell to openpyxl
                self._cell_start(attrs, depth)
        elif name == _ROW:
            self.row_depth = depth
            self.row_number = attrs.get("r")
            self.row_failure = None
            self.cells = []
            self.column = 0
        elif name == _SHEET_DATA:
            self.in_data = True
        elif name == _DIMENSION and not self.in_data:
            self.rows.declared_rows = declared_rows(attrs.get("ref"))

    def _cell_start(self, attrs: dict[str, str], depth: int) -> None:
        self.cell_depth = depth
        self.kind = attrs.get("t", "n")
        coordinate = self.coordinate = attrs.get("r")
        style = self.style = attrs.get("s")
        self.has_value = self.has_inline = False
        self.value_text = None
        if self.row_failure is not None:
            return
        rows = self.rows
        try:
            if style and style not in rows._styles:
                rows.style(style)  # an s that is no number fails as in openpyxl, whatever the cell's kind
            if not coordinate:
                self.column += 1
                return
            letters = coordinate.rstrip(_DIGITS)
            known = rows._columns.get(letters) if len(letters) < len(coordinate) else None
            self.column = known if known is not None else rows.column(coordinate)
        except Exception as exc:
            self.row_failure = exc

    def _inline_start(self, inline: _Inline, name: str, attrs: dict[str, str], depth: int) -> None:
        tree = inline.tree
        if tree is None:
            if depth == inline.depth + 1 and name == _T and inline.plain is None:
                inline.plain = self.text = []  # the one plain <t> of the common inline string
                inline.t_open = True
                return
            tree = self._inline_tree(inline, {})
        tree.start(_tree_name(name), {_tree_name(k): v for k, v in attrs.items()})

    def _inline_tree(self, inline: _Inline, attrs: dict[str, str]) -> TreeBuilder:
        """From here on the <is> is built as a tree: what was read of it so far is replayed first."""
        tree = inline.tree = TreeBuilder()
        tree.start("{" + _IS, {_tree_name(k): v for k, v in attrs.items()})
        if inline.plain is not None:
            tree.start("{" + _T, {})
            tree.data("".join(inline.plain))
            if not inline.t_open:
                tree.end("{" + _T)
        self.text = None
        return tree

    def end(self, name: str) -> None:
        depth = self.depth
        self.depth = depth - 1
        text = self.text
        if text is not None:
            self.text = None
            if self.inline is None:
                self.value_text = text[0] if len(text) == 1 else "".join(text)
        inline = self.inline
        if inline is not None:
            if depth == inline.depth:
                self._inline_end(inline)
            elif inline.tree is not None:
                inline.tree.end(_tree_name(name))
            else:
                inline.t_open = False  # the plain <t> ends
            return
        if depth == self.row_depth:
            self.row_depth = 0
            self.elements = 0
            self.ready.append(self.rows.finish_row(self.row_number, self.cells, self.row_failure))
            return
        if depth == self.cell_depth:
            self._cell_end()
        if self.in_data:
            self.elements += 1
            if self.elements > self.most_elements:
                raise too_wide(self.rows.row + 1, self.rows._limits)
            if name == _SHEET_DATA:
                raise _SheetDataEnd

    def _inline_end(self, inline: _Inline) -> None:
        self.inline = None
        if inline.tree is None:
            self.value_text = "".join(inline.plain) if inline.plain is not None else ""
        else:
            inline.tree.end("{" + _IS)
            self.value_text = Text.from_tree(inline.tree.close()).content

    def _cell_end(self) -> None:
        self.cell_depth = 0
        text = self.value_text
        value: Any = None
        if self.kind == "inlineStr":
            value = text  # None without an <is>
        elif text and self.row_failure is None:
            try:
                value = self.rows.value(self.kind, text, self.style, self.coordinate)
            except Exception as exc:
                self.row_failure = exc
        self.cells.append((self.column, value))


def _as_parse_error(exc: BaseException) -> BaseException:
    """expat's error as ElementTree raises it (the file's error message names ParseError, as before)."""
    if not isinstance(exc, pyexpat.ExpatError):
        return exc
    error = ParseError(str(exc))
    error.code, error.position = exc.code, (exc.lineno, exc.offset)
    return error


def _tree_name(name: str) -> str:
    return "{" + name if "}" in name else name


def too_wide(row: int, limits: ReadLimits) -> PermanentError:
    return PermanentError(ErrorCode.CORRUPT_FILE, reason="too_many_columns", row=row, limit=limits.max_columns)


def declared_rows(ref: str | None) -> int:
    try:
        return int(range_boundaries(ref or "")[3] or 0)
    except (ValueError, TypeError):
        return 0


def too_many_rows(limits: ReadLimits) -> PermanentError:
    """A row beyond limits.max_rows (Excel's last): the row parser's refusal, and the first pass's (xlsx_merges)."""
    return PermanentError(ErrorCode.CORRUPT_FILE, reason="too_many_rows", limit=limits.max_rows)
