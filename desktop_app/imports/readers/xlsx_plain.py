"""Which rows of an .xlsx sheet are plain: calamine reads them with the streaming parser's values, in bounded slices.

calamine (Rust) reads a sheet ~4x faster than the expat parser, but it holds a sheet whole as a dense
rows x columns area (one far cell makes it allocate terabytes and abort the process, which no `except`
catches), and it reads some cells otherwise than openpyxl does (error cells as empty, integers as floats,
text trimmed, "_x000D_" unescaped, cells placed by their own reference rather than their row's). So the
sheet's XML is checked as it is inflated, row by row, by regular expressions (C speed, no object per
cell), and handed on in slices of whole rows that hold nothing but what both read alike: every row
numbered, in increasing order, every cell named by column and its row's number, columns in increasing
order within the dimension's width, values of the kinds and forms below. Each slice is small (at most
SLICE_BYTES of XML, SLICE_CELLS cells of area), so calamine's memory stays flat on any size of sheet.
The first row that is not plain ends the slices: the streaming parser reads on from it.
"""

from __future__ import annotations

import re
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import escape

from openpyxl.styles.numbers import BUILTIN_FORMATS, is_date_format
from openpyxl.utils.cell import column_index_from_string, get_column_letter, range_boundaries
from openpyxl.xml.constants import SHEET_MAIN_NS

from .limits import MIB, ReadLimits
from .xlsx_zip import BoundedZip


@dataclass(frozen=True, slots=True)
class Slice:
    """Whole checked rows of a sheet's XML: `rows` row elements, in the sheet's order.

    float_columns (0-based) are the columns whose whole numbers were written as decimals ("5.00", a float
    to openpyxl; calamine gives 5.0 for "5" and "5.00" alike): no integer is written in them in the slice.
    last: the slices end with this one because what follows is not plain (the streaming parser reads on
    after the row elements given so far)."""

    xml: bytes
    rows: int
    float_columns: frozenset[int] = frozenset()
    last: bool = False


class PlainRows:
    """A sheet's rows as checked slices (see the module's docstring); open() says whether to try at all."""

    def __init__(self, archive: BoundedZip, part: str, width: int, styles: tuple[set[int], set[int]],
                 limits: ReadLimits) -> None:  # fmt: skip
        self._archive = archive
        self._part = part
        self.width = width
        self._limits = limits
        cells = b"".join(rb"(?:" + _cell(get_column_letter(c), *styles) + rb")?+" + _GAP for c in range(1, width + 1))
        row = _GAP + rb'<row r="(?P<n>[1-9]\d{0,6})"' + _ATTRS + rb"(?:/>|>" + _GAP + cells + rb"</row>)"
        # possessive: a plain row never needs the engine to go back, and one that is not plain ends the match
        self._rows = re.compile(rb"(?:" + row + rb")*+" + _GAP)
        self._long = re.compile(rb">[^<]{%d}" % (limits.max_cell_chars + 1))
        self._most = limits.max_rows
        self._span = max(SLICE_CELLS // width, 1)
        self.inline_strings = False
        """Whether each slice's shared strings go to calamine as inline strings (inline_shared), not the table."""

    @classmethod
    def open(cls, archive: BoundedZip, part: str, book: Any, limits: ReadLimits) -> PlainRows | None:
        """The sheet's checker, or None when its workbook is not plain: parts of one name twice, shared strings
        or styles that calamine could read otherwise, a head without a dimension, or too wide."""
        names = archive.namelist()
        if len(names) != len(set(names)) or not _plain_strings(book.shared_strings):
            return None
        styles = _date_styles(book)
        if styles is None:
            return None
        with zipfile.ZipFile.open(archive, archive.getinfo(part)) as source:
            width = _head_width(source.read(_HEAD_BYTES))
        if width is None or width > limits.max_columns:
            return None
        plain = cls(archive, part, width, styles, limits)
        # a large table (or one of rich or phonetic runs) is not given to calamine with every slice: the
        # strings the streaming parser reads from it go in the slice, inline
        plain.inline_strings = not _plain_string_table(archive, book.strings_part)
        return plain

    def slices(self) -> Iterator[Slice]:
        """The sheet's checked rows, slice by slice, from its first row."""
        with zipfile.ZipFile.open(self._archive, self._archive.getinfo(self._part)) as source:
            yield from self._slices(source.read)

    def _slices(self, read: Any) -> Iterator[Slice]:
        data = read(_HEAD_BYTES)
        start = data.find(b"<sheetData>")
        if start < 0 or b"<row" in data[:start]:
            yield Slice(b"", 0, last=True)
            return
        data = data[start + len(b"<sheetData>") :]
        size, last = FIRST_SLICE_BYTES, 0
        while True:
            ended = False
            searched = 0  # where "</sheetData>" may start in data, as far as it has been looked for
            while True:
                end = data.find(b"</sheetData>", searched)
                if 0 <= end <= size:
                    cut, ended = end, True
                    break
                if end >= 0 or len(data) >= size:
                    # every row before a row start is whole (a plain text holds no "<"): the slice ends at the
                    # last one within its size, or after a row longer than that. (It ended at the last one
                    # read: the reads come a CHUNK at a time, so the first slice was a whole megabyte, ~3,500
                    # rows for a preview of 20.)
                    cut = data.rfind(b"<row ", 0, size)
                    if cut <= 0:
                        cut = data.find(b"<row ", size, end if end >= 0 else len(data))
                    if cut > 0:
                        break
                    if end >= 0:
                        cut, ended = end, True
                        break
                searched = max(len(data) - len(b"</sheetData>"), 0)
                more = read(CHUNK)
                if not more or len(data) > MAX_ROW_BYTES:
                    yield Slice(b"", 0, last=True)  # the sheet ends inside a row, or a row is huge
                    return
                data += more
            piece, last, whole = self._check(data, cut, last)
            yield piece
            if not whole or ended:
                return
            data = data[cut:]
            size = min(size * 2, SLICE_BYTES)

    def _check(self, data: bytes, cut: int, last: int) -> tuple[Slice, int, bool]:
        """The plain rows of data[:cut] as a slice, the last row number in it, and whether all were plain."""
        end = self._plain_end(data, cut)
        numbers = _ROW_NUMBER.findall(data, 0, end)
        values = list(map(int, numbers))
        # row numbers that go back, pass the sheet's last row or leave a gap wider than a slice may span
        bad = next((k for k, n in enumerate(values) if n <= (values[k - 1] if k else last) or n > self._most), None)
        if values and bad is None and values[-1] - values[0] >= self._span:
            bad = next(k for k, n in enumerate(values) if n - values[0] >= self._span)
        long = self._long.search(data, 0, end)
        if long is not None:
            at = len(_ROW_NUMBER.findall(data, 0, long.start())) - 1  # the row the text is in
            bad = at if bad is None else min(bad, at)
        if bad is not None:
            end = _row_starts(data, end)[bad]
            values = values[:bad]
        columns = _whole_decimal_columns(data, end)
        if columns and _integers_in(data, end, columns):
            end, values = 0, []  # "5" and "5.00" in one column: the row of each is read by the streaming parser
        whole = end == cut
        floats = frozenset(column_index_from_string(c.decode()) - 1 for c in columns)
        return Slice(data[:end], len(values), floats, not whole), values[-1] if values else last, whole

    def _plain_end(self, data: bytes, cut: int) -> int:
        """Where the plain rows at the start of data[:cut] end, matched a window at a time: one regular
        expression call holds the GIL throughout, and the window's thread waits meanwhile."""
        match, pos = self._rows.match, 0
        while pos < cut:
            stop = min(pos + MATCH_WINDOW, cut)
            end = match(data, pos, stop).end()  # type: ignore[union-attr]  # the pattern matches "" too
            if end == pos and stop < cut:
                end = match(data, pos, cut).end()  # type: ignore[union-attr]  # a row longer than a window
            if end == pos:
                break
            pos = end
        return pos


def _row_starts(data: bytes, end: int) -> list[int]:
    return [m.start() for m in _ROW_START.finditer(data, 0, end)] + [end]


def _whole_decimal_columns(data: bytes, end: int) -> frozenset[bytes]:
    """The columns of the whole decimals in data[:end] ("5.00"), as _WHOLE_DECIMALS.findall finds them, ~8x
    faster: each such cell ends in a match of _WHOLE_END and starts at the last '<c r="' before it (no cell
    holds another's start), where the whole pattern is matched."""
    found = set()
    for tail in _WHOLE_END.finditer(data, 0, end):
        start = data.rfind(b'<c r="', 0, tail.start())
        cell = _WHOLE_DECIMALS.match(data, start, end) if start >= 0 else None
        if cell is not None and cell.end() == tail.end():
            found.add(cell.group(1))
    return frozenset(found)


def _integers_in(data: bytes, end: int, columns: frozenset[bytes]) -> bool:
    """Whether a cell of these columns holds an integer in data[:end]."""
    letters = b"|".join(sorted(columns))
    integer = re.compile(rb'<c r="(?:' + letters + rb')\d+"(?: s="\d+")?(?: t="n")?>' + _FORMULA + rb"<v>-?\d+</v>")
    return integer.search(data, 0, end) is not None


def count_row_tags(archive: BoundedZip, part: str) -> tuple[int, bool] | None:
    """At least the sheet's row elements, by counting "<row" and ":row" in its inflated XML (no parse), and
    whether each is written <row r="N" with N above the one before (the bulk path batches and commits rows
    by number; False: not seen so). None when the XML holds a "<!" (a DTD's entities could make rows that
    no count of bytes sees)."""
    tags = _RowTags()
    with zipfile.ZipFile.open(archive, archive.getinfo(part)) as source:
        while chunk := source.read(CHUNK):
            if not tags.feed(chunk):
                return None
    if not tags.feed(b"<"):  # what is left is whole now
        return None
    return tags.total, tags.ordered


class _RowTags:
    """count_row_tags's count, fed piece by piece and read up to the last "<" of what was fed (no tag, no
    "<!" and no "<row" is ever cut in two)."""

    def __init__(self) -> None:
        self._rest = b""
        self.total = 0
        self._last = 0
        self.ordered = True

    def feed(self, piece: bytes) -> bool:
        """False at a "<!"."""
        data = self._rest + piece
        cut = max(data.rfind(b"<"), 0)  # data[:cut] is read now (searched in place: no copy of it)
        self._rest = data[cut:]
        if data.find(b"<!", 0, cut) >= 0:
            return False
        rows, prefixed = data.count(b"<row", 0, cut), data.count(b":row", 0, cut)
        self.total += rows + prefixed
        if self.ordered:
            self._order(data, cut, rows if prefixed == 0 else -1)
        return True

    def _order(self, data: bytes, cut: int, rows: int) -> None:
        numbers = _ROW_NUMBER.findall(data, 0, cut)
        if len(numbers) != rows and len(numbers) != rows - data.count(b"<rowBreaks", 0, cut):
            self.ordered = False  # a row written otherwise or with a prefix: not known
            return
        last = self._last
        for number in map(int, numbers):
            if number <= last:
                self.ordered = False
                return
            last = number
        self._last = last


SLICE_BYTES = 2 * MIB
"""The most sheet XML calamine reads at a time (~5,500 rows of 9 columns). Measured on 200,000 rows: 2 MB
slices read as fast as 8 MB ones and peak at 57 MB against 122 MB (calamine holds a slice as ~3x its XML,
and its values as Python objects besides)."""
FIRST_SLICE_BYTES = 64 * 1024
"""The first slice, doubled slice by slice up to SLICE_BYTES: a preview of 20 rows reads a few hundred."""
SLICE_CELLS = 1_000_000
"""The dense area (rows x columns, 32 bytes a cell) one slice may span: a gap in the row numbers that
would make it larger ends the slices there."""
MAX_COLUMNS = 64
"""The widest sheet read by calamine: the row pattern names each column in order (A, B, ...)."""
MAX_STRINGS_BYTES = 4 * MIB
"""calamine reads the shared string table with each slice: a larger table is not given to it, the slices'
shared strings are written into them as inline strings instead (inline_shared)."""
CHUNK = 1 << 20
MATCH_WINDOW = 256 * 1024
"""The sheet XML one match of the row pattern covers (~5 ms): a row cut by a window's end is matched in the next."""
MAX_ROW_BYTES = 16 * MIB
"""A row longer than this is not plain (it is held whole while it is checked)."""

_HEAD_BYTES = 64 * 1024  # the XML declaration, the root element and the <dimension> come first
_ENTITY = rb"&(?:amp|lt|gt|quot|apos);"
# Text both read alike: no CR (XML turns CR LF into LF), no entities but the five, no "_xHHHH_" (calamine
# unescapes it, openpyxl does not), no markup (CDATA, child elements).
_CHAR = rb"(?:[^<&_\r]++|" + _ENTITY + rb"|_(?!x[0-9A-Fa-f]{4}_))"  # runs of plain characters at once
# Without xml:space="preserve", calamine trims what openpyxl keeps: no space at either end then.
_TEXT = rb"(?:(?![ \t\n])" + _CHAR + rb"*(?<![ \t\n])|" + rb"(?<=preserve\">)" + _CHAR + rb"*)"
_T = rb'<t(?: xml:space="preserve")?>' + _TEXT + rb"</t>"
# numbers that are the same value to both: integers of at most 15 digits (openpyxl an int, calamine a float,
# exact below 2**53) and decimals of at most 15 digits (a float in both, parsed alike: correctly rounded);
# no exponent, no spaces, no leading zeros. A whole decimal ("5.00") is a float to openpyxl where calamine
# gives the same float as for "5": the scan names the columns that hold one (PlainSheet.float_columns).
_NUMBER = rb"-?(?:(?:0|[1-9]\d{0,14})|(?=[\d.]{3,16}<)(?:0|[1-9]\d*)\.\d+)"
_SERIAL = rb"(?:6[1-9]|[7-9]\d|[1-9]\d{2,5})"  # whole days after Excel's 1900 leap-day bug, to year 4637
_FORMULA = rb'(?:<f(?: [a-zA-Z]+="[^"<]*")*(?:/>|>[^<]*</f>))?'
_ATTRS = rb'(?: (?!r=)[A-Za-z][\w:.-]*="[^"<]*")*'
_GAP = rb"[ \t\n]*"
_NUMERIC_CELL = rb'<c r="([A-Z]{1,3})\d+"(?: s="\d+")?(?: t="n")?>' + _FORMULA + rb"<v>-?\d+"
_WHOLE_DECIMALS = re.compile(_NUMERIC_CELL + rb"\.0+</v>")
_WHOLE_END = re.compile(rb"\.0+</v>")  # every match of _WHOLE_DECIMALS ends with one
_ROW_NUMBER = re.compile(rb'<row r="(\d+)"')
_ROW_START = re.compile(rb'[ \t\n]*<row r="')


_ESCAPE = re.compile(r"_x[0-9A-Fa-f]{4}_|x005F_")


def _plain_strings(shared: list[str]) -> bool:
    """The shared strings as openpyxl read them hold nothing the two read otherwise: no "_xHHHH_" (calamine
    unescapes it) or "x005F_" (openpyxl drops it), no CR."""
    return not any("\r" in s or (("_x" in s or "x005F_" in s) and _ESCAPE.search(s)) for s in shared)


_SHARED_VALUE = re.compile(rb' t="s"><v>(\d{1,7})</v>')  # a plain shared string cell's kind and value
_INLINE = b' t="inlineStr"><is><t xml:space="preserve">'


def inline_shared(xml: bytes, shared: list[str]) -> bytes:
    """A checked slice with each shared string cell written as an inline string of the text the streaming
    parser reads for it (shared[index], escaped; kept whole by xml:space="preserve"). The strings hold no
    CR and no "_xHHHH_" (_plain_strings), which calamine would read otherwise in any string. IndexError for
    an index beyond the table (the streaming parser then says what it says)."""
    parts = _SHARED_VALUE.split(xml)  # text, index, text, index, ..., text: no text of a plain slice holds "<"
    if len(parts) == 1:
        return xml
    indices = parts[1::2]
    inline = {k: _INLINE + escape(shared[int(k)]).encode() + b"</t></is>" for k in set(indices)}
    parts[1::2] = [inline[k] for k in indices]
    return b"".join(parts)


_SST_ITEMS = re.compile(rb"(?:<si>(?:" + _T + rb"|<t/>)</si>)*")


def _plain_string_table(archive: BoundedZip, part: str | None) -> bool:
    """The shared string table openpyxl read, if any, is small and holds only <si><t>text</t></si> items (no
    rich or phonetic runs, which calamine joins otherwise)."""
    if part is None:
        return True
    info = archive.getinfo(part)
    if info.file_size > MAX_STRINGS_BYTES:
        return False
    with zipfile.ZipFile.open(archive, info) as source:
        data = source.read(MAX_STRINGS_BYTES + 1)
    start, end = data.find(b"<si"), data.rfind(b"</sst>")
    if start < 0:
        return True
    return end > start and _SST_ITEMS.fullmatch(data, start, end) is not None


_DATE_LETTERS = re.compile(r"[dmyhs]", re.I)


def _date_styles(book: Any) -> tuple[set[int], set[int]] | None:
    """(date styles, other styles), cell style indexes whose number format calamine and openpyxl judge
    alike: a date (with a day or a year: a time of day or a duration is left out) or no date at all.
    Formats with brackets, quotes or escapes, and unknown ones, are in neither: their cells are not plain."""
    wb = book.wb
    formats = getattr(wb, "_number_formats", None)
    styles = getattr(wb, "_cell_styles", None)
    if formats is None or styles is None:
        return None
    dates: set[int] = set()
    others: set[int] = set()
    for index, style in enumerate(styles):
        number = style.numFmtId
        code = BUILTIN_FORMATS.get(number)
        if code is None and number >= 164 and number - 164 < len(formats):
            code = formats[number - 164]
        if code is None or index in wb._timedelta_formats or any(c in code for c in '[]"\\'):
            continue
        dated = index in wb._date_formats
        letters = code != "General" and _DATE_LETTERS.search(code) is not None
        if dated and letters and is_date_format(code) and re.search(r"[dy]", code, re.I):
            dates.add(index)
        elif not dated and not letters:
            others.add(index)
    return dates, others


def _cell(column: str, date_styles: set[int], other_styles: set[int]) -> bytes:
    """One cell of `column` in the row whose number is group "n", of any plain kind."""
    kinds = b"|".join([
        rb"(?:/>|>" + _FORMULA + rb"<v>" + _NUMBER + rb"</v></c>|>" + _FORMULA + rb"</c>)",
        rb' t="n"(?:/>|>' + _FORMULA + rb"<v>" + _NUMBER + rb"</v></c>)",
        rb' t="s"(?:/>|><v>\d{1,7}</v></c>)',
        rb' t="b"(?:/>|>' + _FORMULA + rb"<v>[01]</v></c>)",
        rb' t="str"(?:/>|>' + _FORMULA + rb"<v>" + _TEXT + rb"</v></c>)",
        rb' t="inlineStr"(?:/>|><is>' + _T + rb"</is></c>)",
    ])  # fmt: skip
    body = _alternatives(other_styles, optional=True) + rb"(?:" + kinds + rb")"
    if date_styles:
        dated = rb'(?: t="n")?(?:/>|>' + _FORMULA + rb"<v>" + _SERIAL + rb"</v></c>)"  # t="n": openpyxl, LibreOffice
        body = rb"(?:" + body + rb"|" + _alternatives(date_styles, optional=False) + dated + rb")"
    return rb'<c r="' + column.encode() + rb'(?P=n)"' + body


def _alternatives(styles: set[int], *, optional: bool) -> bytes:
    """A s="N" attribute for N among styles (absent too when optional)."""
    if not styles:
        return rb"" if optional else rb"(?!)"
    numbers = b"|".join(str(n).encode() for n in sorted(styles))
    return rb'(?: s="(?:' + numbers + rb')")' + (b"?" if optional else b"")


def _head_width(head: bytes) -> int | None:
    """The dimension's last column, when the sheet starts as plain sheets do: UTF-8 XML, the main
    namespace as the default one, a <dimension> from column A, no more than MAX_COLUMNS wide."""
    text = head.decode("utf-8", "replace")
    declaration = re.match(r"<\?xml[^>]*\?>\s*", text)
    if declaration is not None and re.search(r'encoding="(?!utf-8")', declaration.group(0), re.I):
        return None
    root = re.search(r"<worksheet\b[^>]*>", text)
    if root is None or f'xmlns="{SHEET_MAIN_NS}"' not in root.group(0):
        return None
    found = re.search(r'<dimension ref="([A-Z]{1,3}\d{1,7}(?::[A-Z]{1,3}\d{1,7})?)"\s*/>', text)
    if found is None or text.count("<sheetData") != 1 or "<sheetData/>" in text:
        return None
    try:
        first, _, last, _ = range_boundaries(found.group(1))
    except (ValueError, TypeError):
        return None
    if first is None or last is None or last > MAX_COLUMNS:
        return None
    return int(last)
