"""Value fixes of an ended import (issue 25, "value fixes once, not in Excel"), Qt-free.

The rows an import failed for a value its enum column does not allow (``not_in_enum``) are listed by
distinct bad value (:func:`bad_values`), and mapped (COLUMN:BAD=GOOD) and written afterwards
(:func:`fix_values`, run by the completion task): counted as imported in the import's counts, written
under its task number (its undo covers them), its error CSV rewritten without them.

The failed rows' original cells come from the task's error CSV: it is the task's own file, in its
results folder, holding exactly the rows that failed with their row numbers and cells (neutralised
against formula injection: :func:`error_csv.restore` undoes that). The imported file may have been
moved or changed since (a feed's inbox); it is never read again.

Rows whose reference was not found are not failed rows (they went in, their reference pending): the
``references`` command lists and completes those.
"""

from __future__ import annotations

import csv
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from desktop_app.domain.errors import ErrorCode, Lang, PermanentError, message
from desktop_app.domain.profiles import Profile
from desktop_app.domain.task import TaskRecord
from desktop_app.imports import error_csv
from desktop_app.imports.fills import ColumnFills, fold_input
from desktop_app.imports.import_type import ColumnSpec, ImportType, Kind, fold_value
from desktop_app.imports.options import ImportOptions
from desktop_app.imports.precheck import check_mapping
from desktop_app.imports.readers import SourceRow
from desktop_app.imports.validator import RowValidator, column_checker, compile_validator
from desktop_app.store.business_rows import BusinessTable
from desktop_app.tasks import builtin_kinds, task_files
from desktop_app.tasks.context import TaskContext

NOT_IN_ENUM = ErrorCode.NOT_IN_ENUM.value
Mappings = Mapping[str, Mapping[str, str]]  # column key -> {bad value: good value}


@dataclass(frozen=True)
class BadValue:
    """One distinct value a column did not allow, and how many failed rows hold it."""

    column: str  # the type's column key
    value: str
    rows: int
    allowed: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"column": self.column, "value": self.value, "rows": self.rows, "allowed": list(self.allowed)}


@dataclass
class ErrorRow:
    """One row of an error CSV: its row number, the original cells (restored), its codes, the line as written."""

    number: str
    cells: tuple[str, ...]
    codes: tuple[str, ...]
    line: list[str]


@dataclass
class ErrorFile:
    path: Path
    header_line: list[str]
    header: tuple[str, ...]  # the original columns (restored)
    rows: list[ErrorRow] = field(default_factory=list)


def fix_problem(record: TaskRecord, error_file: Path | None = None) -> str | None:
    """Why an import's values cannot be fixed (the reason of VALUES_NOT_FIXABLE), or None. `error_file`:
    its error CSV on this desk where the caller found it (tasks/task_files.py local_path), else the row's."""
    if not record.status.is_final:
        return "not_finished"
    if record.params.get("dry_run"):
        return "dry_run"
    if record.undone_by:
        return "undone"
    if error_file is None and record.error_csv:
        error_file = Path(record.error_csv)
    if not record.error_csv or error_file is None or not error_file.is_file():
        return "no_error_rows"
    return None


def check_fixable(record: TaskRecord | None, task_no: str, error_file: Path | None = None) -> TaskRecord:
    """The import, or TASK_NOT_FOUND (none, or not an import) / VALUES_NOT_FIXABLE."""
    if record is None or not builtin_kinds.IMPORT.owns(record):
        raise PermanentError(ErrorCode.TASK_NOT_FOUND, task_no=task_no)
    problem = fix_problem(record, error_file)
    if problem is not None:
        raise PermanentError(ErrorCode.VALUES_NOT_FIXABLE, task_no=record.task_no, reason=problem)
    return record


def read_error_file(path: Path) -> ErrorFile:
    """An error CSV as BatchDesk wrote it: the row-number column first, then the original columns, then the
    codes and reasons (and a long row's extra cells)."""
    with path.open(encoding="utf-8-sig", newline="") as handle:
        reader = csv.reader(handle)
        header_line = next(reader, [])
        bare = [h.strip() for h in header_line]
        codes_at = next((i for i, h in enumerate(bare) if h in error_csv.CODES_COLUMNS), len(bare))
        header = tuple(error_csv.restore(h) for h in header_line[1:codes_at])
        found = ErrorFile(path, header_line, header)
        width = len(header)
        for line in reader:
            if not line:
                continue
            cells = tuple(error_csv.restore(c) for c in line[1 : 1 + width])
            codes_text = line[codes_at] if codes_at < len(line) else ""
            codes = tuple(c for c in codes_text.split(";") if c)
            found.rows.append(ErrorRow(line[0], cells, codes, line))
    return found


def enum_columns(itype: ImportType) -> tuple[ColumnSpec, ...]:
    return tuple(c for c in itype.columns if c.kind == Kind.ENUM)


def allowed_values(spec: ColumnSpec) -> tuple[str, ...]:
    return tuple(spec.enum_inputs)


def fix_choices(spec: ColumnSpec, lang: str) -> list[tuple[str, str]]:
    """What a refused value of an enum column may be mapped to, each stored value once with its label in
    ``lang`` (ColumnSpec.enum_choices): the stored code where the column takes it as written, else the first
    input that stands for it (a mapping's value is read as a cell is: a code that is no input would fail)."""
    found = []
    for stored, label in spec.enum_choices(lang):
        taken = spec.enum_map.get(fold_value(stored, spec.normalize)) == stored
        found.append((stored if taken else spec.input_for(stored), label))
    return found


def find_column(itype: ImportType, name: str) -> ColumnSpec:
    """An enum column by its key or either label (VALUE_COLUMN_UNKNOWN else)."""
    wanted = name.strip()
    for spec in enum_columns(itype):
        if wanted.casefold() in (spec.key.casefold(), spec.label_zh.casefold(), spec.label_en.casefold()):
            return spec
    raise PermanentError(ErrorCode.VALUE_COLUMN_UNKNOWN, import_type=itype.name, column=wanted,
                         columns=", ".join(c.key for c in enum_columns(itype)) or "-")  # fmt: skip


def parse_mappings(itype: ImportType, texts: Iterable[str]) -> dict[str, dict[str, str]]:
    """``COLUMN:BAD=GOOD`` texts, each held to the type: an unknown column (VALUE_COLUMN_UNKNOWN), a GOOD the
    column does not allow (VALUE_NOT_ALLOWED naming the allowed values), a malformed text (INVALID_PARAMS)."""
    found: dict[str, dict[str, str]] = {}
    for text in texts:
        column, colon, rest = text.partition(":")
        bad, equals, good = rest.partition("=")
        if not (colon and equals and column.strip() and bad.strip()):
            raise PermanentError(ErrorCode.INVALID_PARAMS, detail=f"--map {text!r}: use COLUMN:BAD=GOOD")
        spec = find_column(itype, column)
        check_target(spec, good.strip())
        found.setdefault(spec.key, {})[bad.strip()] = good.strip()
    return found


def check_target(spec: ColumnSpec, good: str) -> None:
    """VALUE_NOT_ALLOWED unless the column takes ``good``."""
    value, error = column_checker(spec)(good)
    if error is not None or value is None:
        raise PermanentError(ErrorCode.VALUE_NOT_ALLOWED, column_zh=spec.label_zh, column_en=spec.label_en,
                             value=good, allowed="/".join(allowed_values(spec)))  # fmt: skip


def _validator(itype: ImportType, header: tuple[str, ...], options: ImportOptions, profile: Profile | None,
               extra: Mappings | None = None) -> RowValidator:  # fmt: skip
    """The import's validator for the error CSV's columns (its profile's fills, plus ``extra`` mappings)."""
    mapping = check_mapping(header, itype, options, "en", profile)
    values: dict[str, Mapping[str, str]] = dict(profile.values) if profile is not None else {}
    for key, more in (extra or {}).items():
        values[key] = MappingProxyType({**dict(values.get(key, {})), **more})
    constants = profile.constants if profile is not None else MappingProxyType({})
    fills = ColumnFills(constants=constants, values=MappingProxyType(values))
    return compile_validator(itype, mapping, blanks_keep=options.mode.keys_only, conventions=options.conventions,
                             fills=fills if fills else None)  # fmt: skip


def _enum_only(row: ErrorRow) -> bool:
    return bool(row.codes) and all(code == NOT_IN_ENUM for code in row.codes)


def bad_values(itype: ImportType, errors: ErrorFile, options: ImportOptions,
               profile: Profile | None = None) -> list[BadValue]:  # fmt: skip
    """The distinct values the import's enum columns refused, most rows first, with their columns' allowed
    values (rows that failed ``not_in_enum``, whatever else they failed for)."""
    validator = _validator(itype, errors.header, options, profile)
    specs = {c.key: c for c in itype.columns}
    # one entry per value as a mapping matches it (normalised, case-folded), shown as first written
    counts: dict[tuple[str, str], int] = {}
    shown: dict[tuple[str, str], str] = {}
    for row in errors.rows:
        if NOT_IN_ENUM not in row.codes:
            continue
        for error in validator.check(row.cells).errors:
            if error.code is ErrorCode.NOT_IN_ENUM and error.column is not None:
                key = (error.column, fold_input(error.value, specs[error.column]))
                counts[key] = counts.get(key, 0) + 1
                shown.setdefault(key, error.value.strip())
    found = [BadValue(key[0], shown[key], rows, allowed_values(specs[key[0]])) for key, rows in counts.items()]
    found.sort(key=lambda b: (itype.keys.index(b.column), -b.rows, b.value))
    return found


def describe(bad: BadValue, itype: ImportType, lang: Lang) -> str:
    """ "Level: 钻石 (3 rows), allowed: 普通/银卡/金卡/..." in the clerk's language."""
    spec = itype.column(bad.column)
    label = spec.label_zh if lang == "zh" else spec.label_en
    return message(ErrorCode.BAD_VALUE, lang, column=label, value=bad.value, rows=bad.rows,
                   allowed="/".join(bad.allowed))  # fmt: skip


@dataclass(frozen=True)
class Fixable:
    """The rows a mapping fixes (their candidates for the writer) and the error CSV's rows that stay."""

    rows: list[tuple[ErrorRow, tuple[object, ...]]]
    validator: RowValidator


def fixable_rows(itype: ImportType, errors: ErrorFile, options: ImportOptions, profile: Profile | None,
                 mappings: Mappings) -> Fixable:  # fmt: skip
    """The error rows that failed only for values the mappings map: each with its values checked again with
    the mappings applied. A row that failed for anything else, or still fails, is not among them."""
    before = _validator(itype, errors.header, options, profile)
    after = _validator(itype, errors.header, options, profile, mappings)
    specs = {c.key: c for c in itype.columns}
    folded = {key: {fold_input(bad, specs[key]) for bad in bads} for key, bads in mappings.items()}
    found: list[tuple[ErrorRow, tuple[object, ...]]] = []
    for row in errors.rows:
        if not _enum_only(row):
            continue
        first = before.check(row.cells)
        if first.values is not None or not all(
            e.code is ErrorCode.NOT_IN_ENUM and e.column in folded and fold_input(e.value, specs[e.column])
            in folded[e.column] for e in first.errors
        ):
            continue
        again = after.check(row.cells)
        if again.values is not None:
            found.append((row, again.values))
    return Fixable(found, after)


def source_row(row: ErrorRow) -> SourceRow:
    try:
        number = int(row.number)
    except ValueError:
        number = 0
    return SourceRow(number, row.cells)


def rewrite_error_file(errors: ErrorFile, fixed: set[int], refailed: Mapping[int, list[str]]) -> Path | None:
    """The error CSV without the fixed rows (identified by ``id``), a row the database refused again with its
    new codes and reasons (``refailed``: id -> [codes, reasons]); None (the file removed) when no row stays."""
    return settle_error_file(errors.path, prepare_error_file(errors, fixed, refailed))


def prepare_error_file(errors: ErrorFile, fixed: set[int], refailed: Mapping[int, list[str]]) -> Path | None:
    """The rewritten error CSV beside the file (its temporary name), or None when no row stays."""
    path = errors.path
    bare = [h.strip() for h in errors.header_line]
    codes_at = next((i for i, h in enumerate(bare) if h in error_csv.CODES_COLUMNS), len(bare))
    kept = 0
    temp = path.with_name(path.name + ".fix")
    with temp.open("w", encoding="utf-8", newline="") as out:
        out.write(error_csv.BOM)
        writer = csv.writer(out)
        writer.writerow(errors.header_line)
        for row in errors.rows:
            if id(row) in fixed:
                continue
            line = list(row.line)
            if id(row) in refailed and codes_at + 1 < len(line):
                line[codes_at], line[codes_at + 1] = refailed[id(row)]
            writer.writerow(line)
            kept += 1
    if not kept:
        temp.unlink()
        return None
    return temp


def settle_error_file(path: Path, temp: Path | None) -> Path | None:
    """The rewritten file moved into place (or the file removed: no row stays)."""
    if temp is None:
        path.unlink(missing_ok=True)
        return None
    os.replace(temp, path)
    return path


def merged_profile(existing: Profile | None, import_type: str, mappings: Mappings) -> Profile:
    """A profile with these value mappings added (a new one of the type when there is none)."""
    base = existing or Profile(import_type)
    values = {key: dict(v) for key, v in base.values.items()}
    for key, more in mappings.items():
        values.setdefault(key, {}).update(more)
    frozen = MappingProxyType({k: MappingProxyType(v) for k, v in values.items()})
    return Profile(base.import_type, columns=base.columns, constants=base.constants, values=frozen,
                   options=base.options)  # fmt: skip


def parse_stored(values: Any) -> dict[str, dict[str, str]]:
    """The mappings as the completion task's params keep them."""
    if not isinstance(values, dict):
        raise PermanentError(ErrorCode.INVALID_PARAMS, detail="values must map columns to {bad: good}")
    return {str(k): {str(b): str(g) for b, g in dict(v).items()} for k, v in values.items()}


def task_options(record: TaskRecord, *, batch_size: int, max_rows: int, max_file_mb: int) -> ImportOptions:
    """The import's options as its task asked them (mode, blank policy, reading conventions, profile)."""
    return ImportOptions.from_params(record.params, batch_default=batch_size, rows_default=max_rows,
                                     mb_default=max_file_mb)  # fmt: skip


def task_profile_of(engine: Any, options: ImportOptions) -> Profile | None:
    """The profile version the import used (read whatever became of its name since), or None."""
    if options.profile is None or options.profile_version is None:
        return None
    from desktop_app.store.profiles import ProfileStore

    return ProfileStore(engine).get(options.profile, options.profile_version, removed_ok=True).profile


def fix_values(ctx: TaskContext, source: TaskRecord, itype: ImportType, table: BusinessTable) -> dict[str, int]:
    """Write the rows of ``source`` that failed only for values the task's ``values`` map, in the import's
    mode and under its task number (its undo covers them); add them to its counts and take them out of its
    error CSV. A row the database still refuses stays in the error CSV with its new reason. Returns the
    counts of this fix (candidates, fixed, refused)."""
    from desktop_app.imports.pipeline import signed_columns
    from desktop_app.imports.references import ReferenceResolver
    from desktop_app.imports.row_plans import RowDecider
    from desktop_app.imports.row_writer import BatchWriter
    from desktop_app.imports.signature import signature_function

    check_fixable(source, source.task_no)
    mappings = parse_stored(ctx.params.get("values"))
    for key, pairs in mappings.items():  # the type as it is now: held again when the task runs
        spec = find_column(itype, key)
        for good in pairs.values():
            check_target(spec, good)
    settings = ctx.settings
    options = task_options(source, batch_size=settings.batch_size, max_rows=settings.max_rows,
                           max_file_mb=settings.max_file_mb)  # fmt: skip
    profile = task_profile_of(ctx.store.engine, options)
    counts = {"candidates": 0, "fixed": 0, "refused": 0}
    ctx.check_stop()
    # One transaction, the import's task row locked first: two fixes of one import take their turns, each
    # reading the error CSV the other left; the rows, the counts and the new error CSV go together (the
    # file is moved into place once the transaction committed).
    with ctx.store.engine.begin() as conn:
        summary = ctx.store.lock_summary(conn, source.id)
        if summary is None or summary.get("undone_by"):
            raise PermanentError(ErrorCode.VALUES_NOT_FIXABLE, task_no=source.task_no, reason="undone")
        path = Path(str(summary.get("error_csv") or ""))
        if not summary.get("error_csv") or not path.is_file():
            return counts
        errors = read_error_file(path)
        fixable = fixable_rows(itype, errors, options, profile, mappings)
        counts["candidates"] = len(fixable.rows)
        if not fixable.rows:
            return counts
        decider = RowDecider(itype, options.mode, options.blank, table, fixable.validator.key_indexes)
        references = ReferenceResolver(itype, table, ctx.store.reading)
        writer = BatchWriter(itype, options.mode, table, decider, references, source.task_no,
                             signature_function(signed_columns(itype, table)))  # fmt: skip
        by_source: dict[int, ErrorRow] = {}
        candidates = []
        for row, values in fixable.rows:
            src = source_row(row)
            by_source[id(src)] = row
            candidates.append((src, values))
        result = writer.write(conn, candidates)
        refailed = {id(by_source[id(src)]): [";".join(e.code.value for e in errs),
                                              error_csv.neutralise(";".join(e.message(itype, ctx.lang) for e in errs))]
                    for src, errs in result.failed}  # fmt: skip
        fixed = {id(row) for row, _ in fixable.rows} - set(refailed)
        temp = prepare_error_file(errors, fixed, refailed)
        done = result.inserted + result.updated + result.unchanged + result.skipped + result.deleted
        added = {"inserted_count": result.inserted, "updated_count": result.updated,
                 "unchanged_count": result.unchanged, "skipped_count": result.skipped,
                 "deleted_count": result.deleted,
                 "success_count": done, "fail_count": -done,
                 "fixed_rows": done}  # fmt: skip  # the rows fixes put in, summed: outcomes.fixed_since
        try:
            fields: dict[str, Any] = {"error_csv": str(path) if temp else None,
                                      error_csv.WRITTEN: error_csv.fingerprint(temp) if temp else None}  # fmt: skip
            ctx.store.add_counts(source.id, added, conn=conn, **fields)
            conn.commit()  # here, so that a refused commit leaves no rewritten file behind
        except BaseException:
            if temp is not None:
                temp.unlink(missing_ok=True)
            raise
    settle_error_file(path, temp)  # os.replace keeps the size and time the fingerprint took
    task_files.refresh(ctx.store, source.task_no)  # a shared database's copy follows the rewritten file
    if source.task_no not in ctx.annotated:
        ctx.annotated.append(source.task_no)
    ctx.log.info("value fix of %s: %d rows written, %d refused again", source.task_no, done, len(refailed))
    counts.update(fixed=done, refused=len(refailed))
    return counts
