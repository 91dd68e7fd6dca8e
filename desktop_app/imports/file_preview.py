"""What the preview shows before a file is queued, found by the engine's own checks (Qt-free).

:func:`read_sample` reads the first rows as the import will (encoding, delimiter, sheet, the size limit);
:func:`count_rows` counts them, or estimates a large file's; :func:`check_sample` runs the import's
pre-check on the sample and the real validator on its rows, so that an empty file, a missing column or
a file over the size limit reads in the preview exactly as the task would fail, and every bad cell is
named with the reason its row would have in the error CSV. Given the table's rows for the sample's keys
(:func:`look_up_keys`: one query, off the window's thread), it also says what the import's mode does with
each shown row, by the import's own decisions (imports/row_plans.py): already in the table (an error in
insert mode), not in it (an error in update mode), skipped, updated, unchanged or added; and, the same look-up
having read the reference tables for the sample's distinct names, which rows that pass name a reference the
table lacks (they will wait for the name after the import: imports/missing_references.py).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path

from sqlalchemy import Engine

from desktop_app.domain.errors import BatchDeskError, ErrorCode, Lang, PermanentError
from desktop_app.domain.modes import ImportMode
from desktop_app.domain.profiles import Profile
from desktop_app.imports import error_csv, readers
from desktop_app.imports.header import HeaderMapping, map_header
from desktop_app.imports.import_type import ImportType, normalize_text
from desktop_app.imports.merged_cells import merged_cell_errors
from desktop_app.imports.options import ImportOptions
from desktop_app.imports.precheck import MIB, check_mapping, check_row_count, may_hold_neutralised, size_problem
from desktop_app.imports.precount import line_bound
from desktop_app.imports.profiles import fills_of, header_overrides
from desktop_app.imports.readers import CsvDialect, ReadLimits, SheetMerges, SourceRow
from desktop_app.imports.regional import DateForm, DayMonthEvidence, day_month_evidence
from desktop_app.imports.row_plans import KEYED_FAILURES, Action, Candidate, FailedRow, RowDecider, RowPlan
from desktop_app.imports.table_spec import references_of
from desktop_app.imports.type_schema import table_to_look_in
from desktop_app.imports.validator import CheckedRow, RowError, compile_validator
from desktop_app.store.business_rows import BusinessTable, Key, StoredRow

SHOWN_ROWS = 20
"""Rows the preview shows and checks."""
SAMPLE_ROWS = 500
"""Rows read for what the file says of itself (its day/month order)."""
EXACT_COUNT_MB = {"csv": 20, "xlsx": 2, "xls": 4}
"""Up to this size a file's rows are counted; above it, estimated (an .xlsx is parsed to be counted)."""
ESTIMATE_MARGIN = 1.1
"""An estimated count is over the row limit only when it is over by more than this (a tenth): the task counts
exactly when it is near, and blank lines or quoted line breaks make a CSV's line count more than its rows."""


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
    merges: SheetMerges | None = None  # an Excel sheet's merged cells (a merge across columns fails its rows)

    @property
    def size_mb(self) -> int:
        """The file's size in whole MiB, rounded up: the limit that lets it through."""
        return max(1, math.ceil(self.size / MIB))


@dataclass(frozen=True)
class RowCount:
    """How many data rows a file has; ``estimated``: about that many (a large file is not counted)."""

    rows: int
    estimated: bool = False
    at_most: bool = False  # an estimate that is an upper bound (a CSV's line breaks): the file has no more rows

    def limit_to_allow(self) -> int:
        """The row limit that lets this many rows through: the count, or an estimate with its margin."""
        if not self.estimated or self.at_most:
            return self.rows
        return math.ceil(self.rows * ESTIMATE_MARGIN / 1000) * 1000


@dataclass(frozen=True)
class RowProblems:
    """The problems of one shown row: by the file's column position, and of the whole row."""

    row_number: int
    cells: Mapping[int, tuple[RowError, ...]] = field(default_factory=dict)
    whole_row: tuple[RowError, ...] = ()


Name = tuple[str, str]  # a reference column's key and a name in it


@dataclass(frozen=True)
class StoredKeys:
    """The table's rows for the sample's keys, as one look-up found them (made off the window's thread)."""

    import_type: str
    table: BusinessTable
    asked: frozenset[Key]  # the keys looked up, as the validator reads them
    found: Mapping[Key, StoredRow]  # those in the table, by the key as the table compares it
    asked_names: frozenset[Name] = frozenset()  # the reference names looked up: (column key, name)
    known_names: frozenset[Name] = frozenset()  # those the reference tables hold

    def covers(self, import_type: str, keys: Sequence[Key], names: Sequence[Name] = ()) -> bool:
        """Whether this look-up answers for these keys and reference names of this type."""
        return import_type == self.import_type and self.asked.issuperset(keys) and self.asked_names.issuperset(names)


# what an import does with a shown row, as the preview says it: the rows that fail for their key alone
# apart from the ones that fail a check
ALREADY_IN_TABLE = "already_in_table"  # insert: already_exists
NOT_IN_TABLE = "not_in_table"  # update: not_found
FAILS = "fails"  # any other failure (a cell, the row's width, a key repeated in the file...)
TABLE_ONLY_CODES = {ErrorCode.ALREADY_EXISTS: ALREADY_IN_TABLE, ErrorCode.NOT_FOUND: NOT_IN_TABLE}


@dataclass(frozen=True)
class TableVerdict:
    """What the import's mode does with each shown row, the table's rows for their keys known: by row
    number, one of ``Action`` (insert, update, unchanged, skip) or, for a row that fails, ALREADY_IN_TABLE,
    NOT_IN_TABLE or FAILS."""

    mode: ImportMode
    outcomes: Mapping[int, str]

    def count(self, outcome: str) -> int:
        return sum(1 for o in self.outcomes.values() if o == outcome)

    def rows_with(self, outcome: str) -> tuple[int, ...]:
        return tuple(n for n, o in self.outcomes.items() if o == outcome)


@dataclass(frozen=True)
class SampleCheck:
    """The import's pre-check and validator on the sample: what stops the import, and each bad row;
    with the table's rows for the shown rows' keys, what the mode does with each row."""

    mapping: HeaderMapping | None
    blocking: BatchDeskError | None = None  # the task would fail with this, before any row
    rows: tuple[RowProblems, ...] = ()  # the shown rows that fail, in order
    checked: int = 0  # shown rows checked
    day_month: DayMonthEvidence | None = None  # the file has day/month dates: what they say
    keys: tuple[Key, ...] = ()  # the shown rows' valid keys: what to look up in the table
    table: TableVerdict | None = None  # None: the table's rows for ``keys`` are not known (yet)
    names: tuple[Name, ...] = ()  # the shown rows' distinct reference names: what to look up in their tables
    # the rows that pass but name a reference the table lacks (its cell's REFERENCE_NOT_FOUND): they are
    # written and wait for the name (known with ``table``)
    waiting: tuple[RowProblems, ...] = ()


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
                      complete=len(shown.rows) <= SAMPLE_ROWS, size=size, sheets=sheets,
                      merges=shown.merges)  # fmt: skip


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


def count_rows(sample: FileSample, *, encoding: str | None, sheet: str | None,
               max_rows: int | None = None) -> RowCount:  # fmt: skip
    """The file's data rows: counted as the import counts them up to EXACT_COUNT_MB (all of them, past
    the row limit too: the limit that lets the file through is offered); beyond, a CSV's line breaks (an
    upper bound: blank lines and quoted line breaks make fewer), else an estimate from the sample's share
    of the file's bytes. An estimate over ``max_rows`` (count_problem) is checked as the import checks a
    bound over its limit: counted up to the limit, and within it the count is the file's (seen: a CSV
    whose notes hold line breaks, "about 3,000 rows" for the 1,000 the import took at a limit of 1,500)."""
    if sample.complete:
        return RowCount(len(sample.rows))
    if sample.size <= EXACT_COUNT_MB.get(sample.format, 2) * MIB:
        return RowCount(_counted(sample, encoding, sheet))
    bound = line_bound(sample.path, sample.encoding) if sample.format == "csv" else None
    estimate = (RowCount(bound, estimated=True, at_most=True) if bound is not None
                else RowCount(_estimate(sample, sheet), estimated=True))  # fmt: skip
    if max_rows is not None and count_problem(estimate, max_rows) is not None:
        rows = _counted(sample, encoding, sheet, limit=max_rows)
        if rows <= max_rows:
            return RowCount(rows)
    return estimate


def _counted(sample: FileSample, encoding: str | None, sheet: str | None, limit: int | None = None) -> int:
    """The file's data rows as the import counts them (past ``limit``: limit + 1)."""
    with readers.open_table(sample.path, encoding=encoding, sheet=sheet,
                            delimiter=sample.dialect.delimiter if sample.dialect else None,
                            limits=ReadLimits(max_file_mb=sample.size_mb)) as reader:  # fmt: skip
        return reader.count_rows(limit=limit)


def _estimate(sample: FileSample, sheet: str | None) -> int:
    """Rows in the file (a workbook: the sheet's, not the first one's), from the rows read and how far into the
    file they reach."""
    with readers.open_table(sample.path, encoding=sample.encoding, sheet=sheet,
                            delimiter=sample.dialect.delimiter if sample.dialect else None,
                            limits=ReadLimits(max_file_mb=sample.size_mb)) as reader:  # fmt: skip
        rows = reader.rows()
        read = sum(1 for _ in islice(rows, SAMPLE_ROWS * 4))
        fraction = reader.fraction_done()
        getattr(rows, "close", lambda: None)()  # stop the generator now, with its file
    return round(read / fraction) if fraction > 0 else read


def count_problem(count: RowCount, max_rows: int) -> PermanentError | None:
    """What the import would say of this many rows; of an estimate, only TOO_MANY_ROWS when it is clearly
    over (ESTIMATE_MARGIN: nearer, the task counts)."""
    if count.estimated and count.rows <= max_rows * ESTIMATE_MARGIN:
        return None
    try:
        check_row_count(count.rows, max_rows)
    except PermanentError as exc:
        return exc
    return None


def look_up_keys(engine: Engine, itype: ImportType, keys: Sequence[Key], names: Sequence[Name]) -> StoredKeys:
    """The table's rows with these keys (a sample's: SHOWN_ROWS at most), in one query through the business
    table's own look-up, as the import finds them; none when the table does not exist yet. And of ``names``
    (a check's distinct reference names: without them the check gives no verdict), those their reference
    tables hold: one query per reference column, never one per row. Not for the window's thread: it asks the
    database."""
    table, columns = table_to_look_in(engine, itype)
    wanted = list(dict.fromkeys(keys))
    found: dict[Key, StoredRow] = {}
    known: set[Name] = set()
    with engine.connect() as conn:
        if columns is not None and wanted:
            found = table.find(conn, wanted, columns)
        for ref in references_of(itype):
            asked = [name for column, name in names if column == ref.column]
            if asked:
                known.update((ref.column, n) for n in table.known_reference_names(conn, ref, asked))
    return StoredKeys(itype.name, table, frozenset(wanted), found, frozenset(names), frozenset(known))


def check_sample(
    sample: FileSample, itype: ImportType, options: ImportOptions, lang: Lang, stored: StoredKeys | None = None,
    profile: Profile | None = None,
) -> SampleCheck:
    """The pre-check of the import (size, header, empty file) and the validator on the shown rows; quick
    enough for the window's thread (no scan of the file: a stat, the header, twenty rows).

    ``options`` are the task's parameters as the clerk has chosen them so far (type, mode, mapping,
    conventions, the limits); ``profile``: the mapping profile's version they name (its header mapping,
    constants and value mappings, as the task will apply them). With ``stored`` (look_up_keys of the
    check's ``keys``), the rows are decided as the import decides them in its mode, and ``table`` says
    what becomes of each."""
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
    validator = compile_validator(itype, mapping, blanks_keep=options.mode.keys_only, conventions=options.conventions,
                                  fills=fills_of(profile))  # fmt: skip
    # the import restores only where a byte scan finds a neutralised cell: restoring others changes nothing
    restore = error_csv.restore if may_hold_neutralised(sample.header, itype, sample.format) else None
    index_of = mapping.index_by_key
    shown = sample.rows[:SHOWN_ROWS]
    # each row as the import's row path makes it (pipeline._import_by_row): its values, or its errors with
    # the key when the mode needs a failing row's key; a row covered by a merge across columns fails with
    # merged_cells alone, as the import fails it
    mode = options.mode.row_mode  # a sync's rows are upserted (its deletes are counted when it is queued)
    keyed = mode in KEYED_FAILURES
    candidates: list[Candidate] = []
    keys: list[Key] = []
    merged = merged_cell_errors(sample.merges, mapping)
    for row in shown:
        cells = tuple(restore(c) if restore is not None and isinstance(c, str) else c for c in row.cells)
        result = validator.check(cells)
        if merged is not None and (merge_error := merged(row.row_number)) is not None:
            result = CheckedRow(None, (merge_error,))
        if result.values is not None:
            candidates.append((row, result.values))
            keys.append(tuple(result.values[i] for i in validator.key_indexes))
            continue
        key = validator.key_of(cells)
        if key is not None:
            keys.append(key)  # looked up in every mode: another mode needs no new look-up
        lacking = validator.blank_required(cells) if mode is ImportMode.UPSERT and key is not None else ()
        candidates.append(FailedRow(row, result.errors, key if keyed else None, lacking))
    wanted = tuple(dict.fromkeys(keys))
    names = tuple(dict.fromkeys(name for c in candidates if not isinstance(c, FailedRow)
                                for name in _names_of(itype, dict(zip(itype.keys, c[1], strict=True)))))  # fmt: skip
    table: TableVerdict | None = None
    failing: list[tuple[int, tuple[RowError, ...]]]
    waiting: list[RowProblems] = []
    if stored is not None and stored.covers(itype.name, wanted, names):
        decider = RowDecider(itype, mode, options.blank, stored.table, validator.key_indexes)
        plans = decider.decide(candidates, dict(stored.found), lambda _key_text, _stored: False)
        failing = [(p.source.row_number, p.errors) for p in plans if p.action is Action.FAIL]
        table = TableVerdict(mode, {p.source.row_number: _outcome(p.action, p.errors) for p in plans})
        waiting = [w for p in plans if (w := _waiting(itype, p, stored.known_names, index_of)) is not None]
    else:
        failing = [(c.source.row_number, c.errors) for c in candidates if isinstance(c, FailedRow)]
    problems = [_problems(number, errors, index_of) for number, errors in failing]
    return SampleCheck(mapping, rows=tuple(problems), checked=len(shown), day_month=_day_month(sample, itype, mapping),
                       keys=wanted, table=table, names=names, waiting=tuple(waiting))  # fmt: skip


def _names_of(itype: ImportType, values: Mapping[str, object]) -> list[Name]:
    """The reference names a row writes (``values``: its type columns' values, or an update's changes)."""
    return [(ref.column, value) for ref in references_of(itype)
            if isinstance(value := values.get(ref.column), str) and value]  # fmt: skip


def _waiting(itype: ImportType, plan: RowPlan, known: frozenset[Name],
             index_of: Mapping[str, int]) -> RowProblems | None:  # fmt: skip
    """A row that writes a reference name its table lacks: that cell's REFERENCE_NOT_FOUND (None: no such name,
    or the row writes nothing)."""
    if plan.action is Action.INSERT and plan.values is not None:
        written: Mapping[str, object] = dict(zip(itype.keys, plan.values, strict=True))
    elif plan.action is Action.UPDATE and plan.changes is not None:
        written = plan.changes
    else:
        return None
    errors = [RowError(ErrorCode.REFERENCE_NOT_FOUND, column, name, {"value": name})
              for column, name in _names_of(itype, written) if (column, name) not in known]  # fmt: skip
    return _problems(plan.source.row_number, errors, index_of) if errors else None


def _outcome(action: Action, errors: tuple[RowError, ...]) -> str:
    if action is not Action.FAIL:
        return action.value
    codes = {e.code for e in errors}
    if len(codes) == 1 and (code := next(iter(codes))) in TABLE_ONLY_CODES:
        return TABLE_ONLY_CODES[code]
    return FAILS


def _problems(row_number: int, errors: Sequence[RowError], index_of: Mapping[str, int]) -> RowProblems:
    """A failing row's errors by the file's column position (the cell to mark), the others the row's."""
    by_cell: dict[int, tuple[RowError, ...]] = {}
    whole: list[RowError] = []
    for error in errors:
        position = index_of.get(error.column) if error.column is not None else None
        if position is None:
            whole.append(error)
        else:
            by_cell[position] = (*by_cell.get(position, ()), error)
    return RowProblems(row_number, by_cell, tuple(whole))


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
