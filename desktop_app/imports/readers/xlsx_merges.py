"""An .xlsx sheet's merged cells, found before its rows are read (what they make of the rows: merged_cells.py).

The sheet keeps its merges in <mergeCells>, after <sheetData>: a streaming reader would learn them only at
its end. scan_sheet finds them first, in one pass over the sheet's inflated XML that parses nothing (the
bytes searched for "mergeCell" at C speed: about the cost of inflating the part; the import counts the row
elements in the same pass, as xlsx_plain.count_row_tags does), or with expat when the XML holds what the
bytes cannot be sure of (a comment, CDATA, a DTD, a processing instruction, another encoding, an unusual
root). calamine could name them too, but only for a sheet it holds whole, which the readers never let it do.

The same pass checks the sheet's row numbers against Excel's last row (_RowLimit): a <dimension> or a row
beyond it is refused as soon as its bytes are inflated, not after the pass or a parse of every row before it.
"""

from __future__ import annotations

import logging
import pyexpat
import re
import zipfile
import zlib
from dataclasses import dataclass

from openpyxl.utils.cell import range_boundaries
from openpyxl.xml.constants import SHEET_MAIN_NS

from desktop_app.domain.errors import ErrorCode, PermanentError

from .limits import ReadLimits
from .merged_cells import SheetMerges, merges_of, too_many_merges
from .xlsx_plain import CHUNK, _RowTags
from .xlsx_rows import too_many_rows
from .xlsx_zip import BoundedZip

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class SheetScan:
    """What one pass over a sheet's XML found: its merges, and (when asked for) its row elements as
    xlsx_plain.count_row_tags counts them (None: not counted, or not countable)."""

    merges: SheetMerges
    row_tags: tuple[int, bool] | None = None


_HEAD_BYTES = 64 * 1024  # the XML declaration and the root element come first
_ROW = f"{SHEET_MAIN_NS}}}row"
_DIMENSION = f"{SHEET_MAIN_NS}}}dimension"
_SHEET_DATA = f"{SHEET_MAIN_NS}}}sheetData"
_MAX_TAG = 64 * 1024  # a <mergeCell> longer than this is no merge Excel wrote: expat reads the sheet
_ATTRIBUTES = rb"""((?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*/?>"""
_ROOT = re.compile(rb"<(?:([A-Za-z_][\w.-]*):)?worksheet" + _ATTRIBUTES)
_ATTRIBUTE = re.compile(rb"""([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')""")
_DECLARATION = re.compile(rb"""(?:\xef\xbb\xbf)?\s*(?:<\?xml\s[^?]*\?>)?\s*""")
_ENCODING = re.compile(rb"""encoding\s*=\s*["']([^"']*)["']""")


class _MergeTags:
    """Finds the <mergeCell> elements of a sheet's XML fed piece by piece, without parsing it: every "<" of XML
    without comments, CDATA, a DTD or processing instructions starts a tag, and no attribute value holds one,
    so each tag before the last "<" fed is whole. needs_parse: the bytes hold what they cannot be sure of
    (then expat reads the sheet)."""

    def __init__(self) -> None:
        self.refs: list[str] = []
        self.needs_parse = False
        self._tag: bytes | None = None  # b"<mergeCell" or b"<x:mergeCell": the main namespace's, from the root
        self._pattern: re.Pattern[bytes] | None = None
        self._rest = b""

    @property
    def prefix(self) -> bytes | None:
        """The main namespace's prefix of the sheet's tags (b"" or b"x:"), once the root is read."""
        return self._tag[1 : -len(b"mergeCell")] if self._tag is not None else None

    def feed(self, piece: bytes) -> None:
        if self.needs_parse:
            return
        data = self._rest + piece if self._rest else piece
        start = 0
        if self._tag is None:
            start = self._root(data)
            if start < 0:
                self._rest = data if start == -1 else b""
                return
        tag, pattern = self._tag, self._pattern
        assert tag is not None and pattern is not None
        if (b"!" in data and data.find(b"<!", start) >= 0) or (b"?" in data and data.find(b"<?", start) >= 0):
            self.needs_parse = True  # a comment, CDATA, a DTD or a processing instruction
            return
        cut = data.rfind(b"<")
        if cut < 0:
            self._rest = b""
            return
        if data.find(tag, start, cut) >= 0:
            for found in pattern.finditer(data, start, cut):
                ref = _attribute(found.group(1), b"ref")
                if ref is None:
                    self.needs_parse = True  # written otherwise than by every writer
                    return
                self.refs.append(ref)
        rest = data[cut:]
        if rest.startswith(tag):  # maybe a mergeCell cut in two
            if len(rest) > _MAX_TAG:
                self.needs_parse = True
            self._rest = rest
        else:  # the start of the tag's name, or "<" alone: "<!" and "<?" cut in two are seen next time
            self._rest = rest if tag.startswith(rest[: len(tag)]) and len(rest) < len(tag) else b""

    def _root(self, data: bytes) -> int:
        """Reads the head: where the body starts once the root is read; -1 to wait for more, -2 when the head
        is one the bytes cannot be sure of (needs_parse)."""
        head = _DECLARATION.match(data)
        assert head is not None  # the pattern matches "" too
        declared = _ENCODING.search(head.group(0))
        if b"\x00" in data[:4] or (declared is not None and declared.group(1).lower() not in (b"utf-8", b"utf8")):
            self.needs_parse = True
            return -2
        if data.startswith(b"<", head.end()) and not data.startswith((b"<!", b"<?"), head.end()):
            root = _ROOT.match(data, head.end())
            if root is not None:
                prefix = root.group(1)
                declares = b"xmlns:" + prefix if prefix else b"xmlns"
                if _attribute(root.group(2), declares) == SHEET_MAIN_NS:
                    self._tag = b"<" + (prefix + b":" if prefix else b"") + b"mergeCell"
                    self._pattern = re.compile(re.escape(self._tag) + _ATTRIBUTES)
                    return root.end()
        if len(data) < _HEAD_BYTES and b">" not in data[head.end() :]:
            return -1
        self.needs_parse = True
        return -2


def _attribute(attributes: bytes, name: bytes) -> str | None:
    for found in _ATTRIBUTE.finditer(attributes):
        if found.group(1) == name:
            value = found.group(2) if found.group(2) is not None else found.group(3)
            return None if b"&" in value else value.decode("utf-8", "replace")
    return None


class _RowLimit:
    """The row numbers of a sheet's XML fed piece by piece, as the row parser numbers its rows (a row's r, else
    the number after the row before), checked against limits.max_rows without parsing: too_many_rows at a
    <dimension> beyond it, or when the last row of a piece is beyond it. Where rows go up, as writers write them,
    that is the piece of the first row beyond the limit; a row beyond it that a lower one follows in its piece is
    left to the row parser, which checks every row.

    Only the last row written <row r="N" (digits) and the rows after it are read (a search from the piece's end,
    no pass over it when its rows are numbered); rows without an r are counted (a pass), each the one after the
    row before. At anything else among those (an r elsewhere in the tag or in other quotes, an element named
    row-something, a tag longer than any writer writes) the check stops and the row parser numbers the rest.
    Fed only while the bytes can be sure (no comment, CDATA, DTD or processing instruction: _MergeTags)."""

    def __init__(self, limits: ReadLimits) -> None:
        self.limits = limits
        self.done = False  # unsure of a row: nothing more is checked
        self._counter = 0  # the last row's number
        self._in_data = False  # past <sheetData>: no more <dimension>
        self._rest = b""
        self._tags: _RowTagsOf | None = None

    def feed(self, piece: bytes, prefix: bytes | None) -> None:
        if self.done:
            return
        data = self._rest + piece if self._rest else piece
        if prefix is None:  # the root is not read yet
            self._rest = data
            return
        tags = self._tags = self._tags or _RowTagsOf(prefix)
        cut = data.rfind(b"<")  # every tag before the last "<" is whole (no attribute value holds a "<")
        if cut < 0:
            self._rest = b""
            return
        rest = data[cut:]
        if len(rest) > _MAX_TAG:  # a tag and a long run of text after it
            if rest.startswith(tags.interesting):
                self.done = True  # a row tag longer than any writer writes
            rest = b""
        self._rest = rest
        start = 0
        if not self._in_data:
            start = data.find(tags.data_start, 0, cut)
            self._dimension(data, start if start >= 0 else cut)
            if start < 0:
                return
            self._in_data = True
        self._rows(data, start, cut)

    def _dimension(self, data: bytes, end: int) -> None:
        assert self._tags is not None
        found = self._tags.dimension.search(data, 0, end)
        if found is not None:
            self.declared(_attribute(found.group(1), b"ref"))

    def declared(self, ref: str | None) -> None:
        """too_many_rows when the sheet's <dimension ref> reaches beyond the last row."""
        try:
            last = range_boundaries(ref or "")[3]
        except (ValueError, TypeError):
            return
        if last is not None and last > self.limits.max_rows:
            raise too_many_rows(self.limits)

    def _rows(self, data: bytes, start: int, end: int) -> None:
        tags = self._tags
        assert tags is not None
        tail = start
        at = data.rfind(tags.numbered, start, end)
        if at >= 0:
            tail = at + len(tags.numbered)
            close = data.find(b'"', tail, end)
            if not self._number(data[tail:close] if close >= 0 else b""):
                return
        after = data.count(tags.row, tail, end)  # rows without r after it: each the one after the row before
        if after:
            if not self._unnumbered(data, tail, end, after):
                self.done = True
                return
            self._counter += after
            if self._counter > self.limits.max_rows:
                raise too_many_rows(self.limits)

    def _unnumbered(self, data: bytes, start: int, end: int, rows: int) -> bool:
        """Whether the `rows` "<row" of data[start:end] are row elements without an r: no other element's name
        starts so, and every r attribute there is a cell's own, as writers write it (<c r="A2"). A few passes
        at C speed: a regular expression that reads each tag's attributes costs ~50 ms a MB."""
        tags = self._tags
        assert tags is not None
        starts = data.count(tags.row_spaced, start, end)
        if starts != rows:
            starts += sum(data.count(tags.row + after, start, end) for after in (b"/", b">", b"\t", b"\n", b"\r"))
            if starts != rows:
                return False
        if tags.r_attribute.search(data, start, end) is None:
            return True
        return len(tags.r_attribute.findall(data, start, end)) == data.count(tags.numbered_cell, start, end)

    def _number(self, number: bytes | str) -> bool:
        """The row numbered so: too_many_rows beyond the limit; False (done) for what the parser reads otherwise
        (r="5.0", r="", a number longer than int() reads)."""
        if not number.isdigit() or not number.isascii() or len(number) > _MAX_DIGITS:
            self.done = True
            return False
        self._counter = int(number)
        if self._counter > self.limits.max_rows:
            raise too_many_rows(self.limits)
        return True

    def parsed(self, r: str | None) -> None:
        """A row element as expat read it (the scan's parse, when the bytes cannot be sure): every row checked."""
        if self.done:
            return
        if r is not None:
            self._number(r)
            return
        self._counter += 1
        if self._counter > self.limits.max_rows:
            raise too_many_rows(self.limits)


_MAX_DIGITS = 4000  # int() reads no longer a number (sys.int_info.default_max_str_digits): the parser fails otherwise


class _RowTagsOf:
    """The tags _RowLimit looks for, in the main namespace's prefix."""

    def __init__(self, prefix: bytes) -> None:
        row = b"<" + prefix + b"row"
        self.row = row
        self.row_spaced = row + b" "
        self.numbered = row + b' r="'
        self.numbered_cell = b"<" + prefix + b'c r="'
        self.r_attribute = re.compile(rb"r[ \t\n\r]*=")  # and any attribute whose name ends in r
        self.dimension = re.compile(b"<" + re.escape(prefix) + b"dimension" + _ATTRIBUTES)
        self.data_start = b"<" + prefix + b"sheetData"
        self.interesting = (row, self.data_start)


def scan_sheet(archive: BoundedZip, part: str, limits: ReadLimits, *, count: bool = False) -> SheetScan:
    """The sheet's merges, read before its rows; with count, its row elements too, as count_row_tags counts
    them, in the same pass (None when not countable). A part that cannot be read to its end (damaged, or a run
    of text past the readers' bound) gives what was found: the row reader says what it says of it."""
    tags = _RowTags() if count else None
    finder = _MergeTags()
    rows = _RowLimit(limits)
    stop = PermanentError(ErrorCode.CORRUPT_FILE, reason="cell_too_long", row=0, limit=limits.max_cell_chars)
    try:
        with archive.open_streamed(part, limits.part_bytes, lambda: stop) as source:
            while chunk := source.read(CHUNK):
                if tags is not None and not tags.feed(chunk):
                    tags = None  # a "<!": count_row_tags counts nothing either
                finder.feed(chunk)
                if finder.needs_parse:
                    rows.done = True  # the parse below numbers the rows
                rows.feed(chunk, finder.prefix)
                if len(finder.refs) > limits.max_merged_ranges:
                    raise too_many_merges(limits)
                if tags is None and finder.needs_parse:
                    break
        if tags is not None and not tags.feed(b"<"):
            tags = None
    except PermanentError as exc:
        if exc is not stop:
            raise
        log.debug("the merged cells of %s are not looked for past a long run of text", part)
        return SheetScan(merges_of(finder.refs, limits))
    except (OSError, EOFError, zlib.error, zipfile.BadZipFile) as exc:
        log.debug("the merged cells of %s are not looked for past damage: %s", part, exc)
        return SheetScan(merges_of(finder.refs, limits))
    refs = _parsed_refs(archive, part, limits) if finder.needs_parse else finder.refs
    row_tags = (tags.total, tags.ordered) if tags is not None else None
    return SheetScan(merges_of(refs, limits), row_tags)


def _parsed_refs(archive: BoundedZip, part: str, limits: ReadLimits) -> list[str]:
    """The refs of the sheet's <mergeCell> elements as expat reads them (what it read before any damage); its
    rows numbered and checked as the row parser does (a child of a row is a cell to it, whatever its name)."""
    refs: list[str] = []
    rows = _RowLimit(limits)
    name = f"{SHEET_MAIN_NS}}}mergeCell"
    depth = row_depth = 0

    def start(element: str, attrs: dict[str, str]) -> None:
        nonlocal depth, row_depth
        depth += 1
        if row_depth:
            return
        if element == _ROW:
            row_depth = depth
            rows.parsed(attrs.get("r"))
        elif element == name and attrs.get("ref"):
            refs.append(attrs["ref"])
            if len(refs) > limits.max_merged_ranges:
                raise too_many_merges(limits)
        elif element == _DIMENSION and not rows.done:
            rows.declared(attrs.get("ref"))

    def end(element: str) -> None:
        nonlocal depth, row_depth
        if depth == row_depth:
            row_depth = 0
        elif element == _SHEET_DATA:
            rows.done = True  # the row parser reads no further
        depth -= 1

    parser = pyexpat.ParserCreate(namespace_separator="}")
    parser.StartElementHandler = start
    parser.EndElementHandler = end
    try:
        with zipfile.ZipFile.open(archive, archive.getinfo(part)) as source:
            while chunk := source.read(CHUNK):
                parser.Parse(chunk, False)
            parser.Parse(b"", True)
    except (pyexpat.ExpatError, OSError, EOFError, zlib.error, zipfile.BadZipFile) as exc:
        log.debug("the merged cells of %s are read up to damage: %s", part, exc)
    return refs
