"""An .xlsx workbook's sheet list, styles and shared strings, read by openpyxl's parts, within bounds."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import IO, Any

from openpyxl.cell.text import Text
from openpyxl.reader.excel import ExcelReader
from openpyxl.styles.stylesheet import apply_stylesheet
from openpyxl.xml.constants import SHARED_STRINGS, SHEET_MAIN_NS
from openpyxl.xml.functions import iterparse

from desktop_app.domain.errors import ErrorCode, PermanentError

from .limits import ReadLimits
from .xlsx_zip import BoundedZip

_SST = f"{{{SHEET_MAIN_NS}}}sst"
_SI = f"{{{SHEET_MAIN_NS}}}si"
_T = f"{{{SHEET_MAIN_NS}}}t"


@dataclass(frozen=True, slots=True)
class SheetRef:
    """A sheet as the workbook lists it: its name, its part in the zip, and whether it is a chart."""

    name: str
    part: str
    chart: bool


class BookReader(ExcelReader):
    """openpyxl's workbook reader, handed a checked zip, reading only what values need.

    What openpyxl's own read-only load holds whole is replaced: the shared strings are read with a
    count and a length bound, keeping no XML tree behind; sheets are listed, not opened (openpyxl
    would parse each one's head at once, and keep a dict per formatted row later).
    """

    def __init__(self, archive: BoundedZip, limits: ReadLimits) -> None:
        # ExcelReader.__init__ would open the zip again, unchecked; these are the attributes it sets.
        self.archive = archive
        self.valid_files = archive.namelist()
        self.read_only = True
        self.keep_vba = False
        self.data_only = True
        self.keep_links = False  # external links are parts of their own, and values never need them
        self.rich_text = False
        self.shared_strings: list[str] = []
        self.limits = limits
        self.sheets: list[SheetRef] = []
        self.strings_part: str | None = None  # the shared string table's part, once read

    def read(self) -> None:
        self.read_manifest()
        self.read_strings()
        self.read_workbook()
        apply_stylesheet(self.archive, self.wb)  # which styles are dates, as openpyxl decides
        self.read_worksheets()

    def read_strings(self) -> None:
        part = self.package.find(SHARED_STRINGS)
        if part is None:
            return
        limits = self.limits

        def overrun() -> PermanentError:
            return PermanentError(ErrorCode.CORRUPT_FILE, reason="shared_string_too_long", limit=limits.max_cell_chars)

        self.strings_part = part.PartName[1:]
        with self.archive.open_streamed(self.strings_part, limits.shared_strings_bytes, overrun) as src:
            self.shared_strings = read_shared_strings(src, limits, overrun)

    def read_worksheets(self) -> None:
        for sheet, rel in self.parser.find_sheets():
            if rel.target in self.valid_files:
                self.sheets.append(SheetRef(sheet.name, rel.target, "chartsheet" in rel.Type))


def read_shared_strings(
    source: IO[bytes] | Any, limits: ReadLimits, overrun: Callable[[], PermanentError]
) -> list[str]:
    """The table's strings as openpyxl reads them (runs joined, phonetic runs left out), each parsed
    node dropped at once; CORRUPT_FILE past limits.max_shared_strings strings or a string too long."""
    strings: list[str] = []
    append, most, longest = strings.append, limits.max_shared_strings, limits.max_cell_chars
    root = None
    for event, node in iterparse(source, events=("start", "end")):
        if event == "start":
            if root is None:
                root = node
                declared = node.get("uniqueCount") if node.tag == _SST else None
                if declared is not None and declared.isdigit() and int(declared) > most:
                    raise _too_many(most)  # an honest header fails the file before its strings are read
            continue
        if node.tag != _SI:
            continue
        # the common case first, without openpyxl's slower object tree
        text = (node[0].text or "") if len(node) == 1 and node[0].tag == _T else Text.from_tree(node).content
        text = text.replace("x005F_", "")  # as openpyxl does
        if len(text) > longest:
            raise overrun()
        append(text)
        if len(strings) > most:
            raise _too_many(most)
        root.clear()  # type: ignore[union-attr]  # root is the first start, before any end
    return strings


def _too_many(limit: int) -> PermanentError:
    return PermanentError(ErrorCode.CORRUPT_FILE, reason="too_many_strings", limit=limit)
