"""An .xlsx sheet's merged cells, found before its rows are read (what they make of the rows: merged_cells.py).

The sheet keeps its merges in <mergeCells>, after <sheetData>: a streaming reader would learn them only at
its end. scan_sheet finds them first, in one pass over the sheet's inflated XML that parses nothing (the
bytes searched for "mergeCell" at C speed: about the cost of inflating the part; the import counts the row
elements in the same pass, as xlsx_plain.count_row_tags does), or with expat when the XML holds what the
bytes cannot be sure of (a comment, CDATA, a DTD, a processing instruction, another encoding, an unusual
root). calamine could name them too, but only for a sheet it holds whole, which the readers never let it do.
"""

from __future__ import annotations

import logging
import pyexpat
import re
import zipfile
import zlib
from dataclasses import dataclass

from openpyxl.xml.constants import SHEET_MAIN_NS

from desktop_app.domain.errors import ErrorCode, PermanentError

from .limits import ReadLimits
from .merged_cells import SheetMerges, merges_of, too_many_merges
from .xlsx_plain import CHUNK, _RowTags
from .xlsx_zip import BoundedZip

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class SheetScan:
    """What one pass over a sheet's XML found: its merges, and (when asked for) its row elements as
    xlsx_plain.count_row_tags counts them (None: not counted, or not countable)."""

    merges: SheetMerges
    row_tags: tuple[int, bool] | None = None


_HEAD_BYTES = 64 * 1024  # the XML declaration and the root element come first
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


def scan_sheet(archive: BoundedZip, part: str, limits: ReadLimits, *, count: bool = False) -> SheetScan:
    """The sheet's merges, read before its rows; with count, its row elements too, as count_row_tags counts
    them, in the same pass (None when not countable). A part that cannot be read to its end (damaged, or a run
    of text past the readers' bound) gives what was found: the row reader says what it says of it."""
    tags = _RowTags() if count else None
    finder = _MergeTags()
    stop = PermanentError(ErrorCode.CORRUPT_FILE, reason="cell_too_long", row=0, limit=limits.max_cell_chars)
    try:
        with archive.open_streamed(part, limits.part_bytes, lambda: stop) as source:
            while chunk := source.read(CHUNK):
                if tags is not None and not tags.feed(chunk):
                    tags = None  # a "<!": count_row_tags counts nothing either
                finder.feed(chunk)
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
    """The refs of the sheet's <mergeCell> elements as expat reads them (what it read before any damage)."""
    refs: list[str] = []
    name = f"{SHEET_MAIN_NS}}}mergeCell"

    def start(element: str, attrs: dict[str, str]) -> None:
        if element == name and attrs.get("ref"):
            refs.append(attrs["ref"])
            if len(refs) > limits.max_merged_ranges:
                raise too_many_merges(limits)

    parser = pyexpat.ParserCreate(namespace_separator="}")
    parser.StartElementHandler = start
    try:
        with zipfile.ZipFile.open(archive, archive.getinfo(part)) as source:
            while chunk := source.read(CHUNK):
                parser.Parse(chunk, False)
            parser.Parse(b"", True)
    except (pyexpat.ExpatError, OSError, EOFError, zlib.error, zipfile.BadZipFile) as exc:
        log.debug("the merged cells of %s are read up to damage: %s", part, exc)
    return refs
