"""What the preview shows before a file is queued, found by the engine's own checks (Qt-free).

:func:`read_sample` reads the first rows as the import will (encoding, delimiter, sheet, the size limit);
:func:`count_rows` counts them, or estimates a large file's; :func:`check_sample` runs the import's
pre-check on the sample and the real validator on its rows, so that an empty file, a missing column or
a file over the size limit reads in the preview exactly as the task would fail, and every bad cell is
named with the reason its row would have in the error CSV.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path

from desktop_app.domain.errors import BatchDeskError, Lang, PermanentError
from desktop_app.domain.profiles import Profile
from desktop_app.imports import error_csv, readers
from desktop_app.imports.header import HeaderMapping, map_header
from desktop_app.imports.import_type import ImportType, normalize_text
from desktop_app.imports.options import ImportOptions
from desktop_app.imports.precheck import MIB, check_mapping, check_row_count, may_hold_neutralised, size_problem
from desktop_app.imports.precount import line_bound
from desktop_app.imports.profiles import fills_of, header_overrides
from desktop_app.imports.readers import CsvDialect, ReadLimits, SourceRow
from desktop_app.imports.regional import DateForm, DayMonthEvidence, day_month_evidence
from desktop_app.imports.validator import RowError, compile_validator

SHOWN_ROWS = 20
"""Rows the preview shows and checks."""
SAMPLE_ROWS = 500
"""Rows read for what the file says of itself (its day/month order)."""
EXACT_COUNT_MB = {"csv": 20, "xlsx": 2, "xls": 4}
"""Up to this size a file's rows are counted; above it, estimated (an .xlsx is parsed to be counted)."""


@dataclass(frozen=True)
class FileSample:
    """The first rows of a file as the import will read them."""

    path: Path
    format: str
    encoding: str | None
    dialect: CsvDialect | None
    header: tuple[str, ...]
    rows: tuple[SourceRow, ...]  # up to SAMPLE_ROWS
    complete: bool  # rows are all the file's data rows
    size: int  # bytes
    sheets: tuple[str, ...] = ()  # a workbook's worksheets, in order

    @property
    def size_mb(self) -> int:
        """The file's size in whole MiB, rounded up: the limit that lets it through."""
        return max(1, math.ceil(self.size / MIB))


@dataclass(frozen=True)
class RowCount:
    """How many data rows a file has; ``estimated``: about that many (a large file is not counted)."""

    rows: int
    estimated: bool = False


@dataclass(frozen=True)
class RowProblems:
    """The problems of one shown row: by the file's column position, and of the whole row."""

    row_number: int
    cells: Mapping[int, tuple[RowError, ...]] = field(default_factory=dict)
    whole_row: tuple[RowError, ...] = ()


@dataclass(frozen=True)
class SampleCheck:
    """The import's pre-check and validator on the sample: what stops the import, and each bad row."""

    mapping: HeaderMapping | None
    blocking: BatchDeskError | None = None  # the task would fail with this, before any row
    rows: tuple[RowProblems, ...] = ()  # the shown rows that fail, in order
    checked: int = 0  # shown rows checked
    day_month: DayMonthEvidence | None = None  # the file has day/month dates: what they say


def read_sample(
    path: Path,
    *,
    encoding: str | None = None,
    sheet: str | None = None,
    delimiter: str | None = None,
    max_file_mb: int = 50,
) -> FileSample:
    """The header and the first SAMPLE_ROWS rows; a file over ``max_file_mb`` is read all the same (the
    preview shows what it is; check_sample says it is too large)."""
    size = path.stat().st_size
    # read within the limit the file would need (a zip bomb still fails on its parts' own bounds)
    limits = ReadLimits(max_file_mb=max(max_file_mb, math.ceil(size / MIB)))
    shown = readers.preview(path, encoding=encoding, sheet=sheet, delimiter=delimiter, limits=limits,
                            max_rows=SAMPLE_ROWS + 1)  # fmt: skip
    rows = tuple(shown.rows[:SAMPLE_ROWS])
    sheets = sheet_names(path) if shown.format != "csv" and size else ()
    return FileSample(path, shown.format, shown.encoding, shown.dialect, tuple(shown.header), rows,
                      complete=len(shown.rows) <= SAMPLE_ROWS, size=size, sheets=sheets)  # fmt: skip


def sheet_names(path: Path) -> tuple[str, ...]:
    """A workbook's worksheets (no chart sheets, no hidden ones such as a template's drop-down lists),
    as Excel lists them; () when it cannot tell. Called once the bounded reader has opened the file,
    so a hostile one never gets here."""
    from python_calamine import CalamineWorkbook

    try:
        book = CalamineWorkbook.from_path(str(path))
        try:
            return tuple(m.name for m in book.sheets_metadata
                         if str(m.typ).endswith("WorkSheet") and str(m.visible).endswith(".Visible"))  # fmt: skip
        finally:
            book.close()
    except Exception:  # the reader already said what it could of the file; the list is a convenience
        return ()


def count_rows(sample: FileSample, *, encoding: str | None, sheet: str | None, max_rows: int) -> RowCount:
    """The file's data rows: counted as the import counts them up to EXACT_COUNT_MB; beyond, a CSV's
    line breaks (an upper bound: blank lines and quoted line breaks make fewer), else an estimate from
    the sample's share of the file's bytes."""
    if sample.complete:
        return RowCount(len(sample.rows))
    if sample.size <= EXACT_COUNT_MB.get(sample.format, 2) * MIB:
        with readers.open_table(sample.path, encoding=encoding, sheet=sheet,
                                delimiter=sample.dialect.delimiter if sample.dialect else None,
                                limits=ReadLimits(max_file_mb=sample.size_mb)) as reader:  # fmt: skip
            return RowCount(reader.count_rows(limit=max_rows))
    bound = line_bound(sample.path, sample.encoding) if sample.format == "csv" else None
    if bound is not None:
        return RowCount(bound, estimated=True)
    return RowCount(_estimate(sample), estimated=True)


def _estimate(sample: FileSample) -> int:
    """Rows in the file, from the rows read and how far into the file they reach."""
    with readers.open_table(sample.path, encoding=sample.encoding,
                            delimiter=sample.dialect.delimiter if sample.dialect else None,
                            limits=ReadLimits(max_file_mb=sample.size_mb)) as reader:  # fmt: skip
        rows = reader.rows()
        read = sum(1 for _ in islice(rows, SAMPLE_ROWS * 4))
        fraction = reader.fraction_done()
        getattr(rows, "close", lambda: None)()  # stop the generator now, with its file
    return round(read / fraction) if fraction > 0 else read


def count_problem(count: RowCount, max_rows: int) -> PermanentError | None:
    """What the import would say of this many rows (an estimate says nothing: the task counts)."""
    if count.estimated:
        return None
    try:
        check_row_count(count.rows, max_rows)
    except PermanentError as exc:
        return exc
    return None


def check_sample(
    sample: FileSample, itype: ImportType, options: ImportOptions, lang: Lang, profile: Profile | None = None
) -> SampleCheck:
    """The pre-check of the import (size, header, empty file) and the validator on the shown rows; quick
    enough for the window's thread (no scan of the file: a stat, the header, twenty rows).

    ``options`` are the task's parameters as the clerk has chosen them so far (type, mode, mapping,
    conventions, the limits); ``profile``: the mapping profile's version they name (its header mapping,
    constants and value mappings, as the task will apply them)."""
    too_large = size_problem(sample.path, options.max_file_mb)
    if too_large is not None:
        return SampleCheck(_mapping(itype, sample, options, profile), blocking=too_large)
    try:
        mapping = check_mapping(sample.header, itype, options, lang, profile)
    except BatchDeskError as exc:
        return SampleCheck(_mapping(itype, sample, options, profile), blocking=exc)
    if sample.complete:
        problem = count_problem(RowCount(len(sample.rows)), options.max_rows or SAMPLE_ROWS)
        if problem is not None:
            return SampleCheck(mapping, blocking=problem)
    validator = compile_validator(itype, mapping, blanks_keep=options.mode.updates, conventions=options.conventions,
                                  fills=fills_of(profile))  # fmt: skip
    # the import restores only where a byte scan finds a neutralised cell: restoring others changes nothing
    restore = error_csv.restore if may_hold_neutralised(sample.header, itype, sample.format) else None
    problems: list[RowProblems] = []
    index_of = mapping.index_by_key
    shown = sample.rows[:SHOWN_ROWS]
    for row in shown:
        cells = tuple(restore(c) if restore is not None and isinstance(c, str) else c for c in row.cells)
        result = validator.check(cells)
        if result.ok:
            continue
        by_cell: dict[int, tuple[RowError, ...]] = {}
        whole: list[RowError] = []
        for error in result.errors:
            position = index_of.get(error.column) if error.column is not None else None
            if position is None:
                whole.append(error)
            else:
                by_cell[position] = (*by_cell.get(position, ()), error)
        problems.append(RowProblems(row.row_number, by_cell, tuple(whole)))
    return SampleCheck(mapping, rows=tuple(problems), checked=len(shown),
                       day_month=_day_month(sample, itype, mapping))  # fmt: skip


def _mapping(
    itype: ImportType, sample: FileSample, options: ImportOptions, profile: Profile | None = None
) -> HeaderMapping | None:
    try:
        return map_header(itype, sample.header, header_overrides(profile, options.header_overrides) or None)
    except ValueError:
        return None


def _day_month(sample: FileSample, itype: ImportType, mapping: HeaderMapping) -> DayMonthEvidence | None:
    """What the sample's day/month dates say of their order, in the columns that read such dates."""
    values: list[tuple[int, str]] = []
    for spec in itype.columns:
        position = mapping.index_by_key.get(spec.key)
        if position is None or DateForm.DAY_MONTH not in spec.date_formats:
            continue
        for row in sample.rows:
            cell = row.cells[position] if position < len(row.cells) else None
            if isinstance(cell, str) and cell.strip():
                values.append((row.row_number, normalize_text(cell, spec.normalize)))
    if not values:
        return None
    evidence = day_month_evidence(values)
    return evidence if evidence != DayMonthEvidence() else None
