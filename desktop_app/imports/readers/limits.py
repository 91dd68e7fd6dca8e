"""How much of a file a reader may unpack and hold, and the warnings it can hand back."""

from __future__ import annotations

from dataclasses import dataclass, field

from desktop_app.domain.errors import Lang, WarningCode, warning_message

MIB = 1024 * 1024

XLSX_UNPACK_FACTOR = 20
"""A workbook part may unpack to at most this many times --max-file-mb.

Real sheets deflate 4-12:1 (openpyxl and Excel output, text or numbers; formatted blank rows up to
~30:1), so twenty times the file limit lets the most compressible real workbook near the limit through,
while a zip bomb (100-1000:1) fails from the zip directory before one byte of it is inflated. Parts that
are streamed (sheets) then cost time, not memory: the other bounds below keep what is held small."""

WHOLE_PART_MB = 16
"""Parts openpyxl parses whole into memory (styles, workbook, relationships, properties, theme): Excel's
own cap of 64,000 cell styles needs well under this; a tree of 16 MB of XML is ~150 MB."""

SHARED_STRINGS_MB = 96
"""The shared string table is held in memory for the whole read: this caps its XML (the text held is
never more than its XML in bytes)."""


@dataclass(frozen=True, slots=True)
class ReadLimits:
    """Bounds a reader checks before and while reading, so that no file can make it grow without end.

    max_file_mb is the import's --max-file-mb (the pipeline checks the file itself); the rest are fixed by
    what Excel can hold and what fits in memory, and only tests should need to lower them.
    """

    max_file_mb: int = 50
    max_cell_chars: int = 1_000_000
    """Excel holds at most 32,767 characters in a cell; other writers more: a million is thirty times
    that and still only a few MB to hold."""
    max_columns: int = 16_384
    """Excel's last column, XFD."""
    max_rows: int = 1_048_576
    """Excel's last row: a sheet row numbered beyond it is damage, not data."""
    max_shared_strings: int = 1_000_000
    """~60 bytes each held beyond their text: with SHARED_STRINGS_MB, the table stays under ~160 MB."""
    max_merged_ranges: int = 100_000
    """Blocks of merged cells in a sheet, held while it is read (~150 bytes each): a sheet that merges cells
    inside its data has a few, a report a few thousand."""
    max_xls_cells: int = 2_500_000
    """calamine holds every .xls sheet whole, as a dense rows x columns area of ~64 bytes a cell
    (measured: 1,074 MB for A1..IV65536, two cells in a 6 KB file): 2.5 million cells is ~160 MB, a
    full-height .xls of 38 columns."""

    @property
    def part_bytes(self) -> int:
        """The most any one part of an .xlsx may unpack to."""
        return XLSX_UNPACK_FACTOR * self.max_file_mb * MIB

    @property
    def whole_part_bytes(self) -> int:
        return min(self.part_bytes, WHOLE_PART_MB * MIB)

    @property
    def shared_strings_bytes(self) -> int:
        return min(self.part_bytes, SHARED_STRINGS_MB * MIB)


DEFAULT_LIMITS = ReadLimits()


@dataclass(frozen=True, slots=True)
class ReaderWarning:
    """Something a reader noticed that did not stop it: the file may be damaged in a way it cannot tell."""

    code: WarningCode
    params: dict[str, object] = field(default_factory=dict)

    def text(self, lang: Lang = "zh") -> str:
        return warning_message(self.code, lang, **self.params)
