"""Before anything is written (seed 000 §3.1): the file is there and unchanged, its header names the
columns the mode needs, its first rows parse, and its data rows fit the limit."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from desktop_app.domain.errors import ErrorCode, Lang, PermanentError
from desktop_app.domain.profiles import Profile
from desktop_app.imports import error_csv
from desktop_app.imports.header import HeaderMapping, map_header
from desktop_app.imports.import_type import ImportType
from desktop_app.imports.options import ImportOptions
from desktop_app.imports.precount import holds_neutralised_cells, holds_nul, line_bound
from desktop_app.imports.profiles import fills_of, header_overrides
from desktop_app.imports.readers import ReadLimits, TableReader, open_table
from desktop_app.imports.validator import RowValidator, compile_validator
from desktop_app.tasks.file_hash import file_sha256

MIB = 1024 * 1024
PRECHECK_ROWS = 20


@dataclass(frozen=True)
class CheckedFile:
    """A file that passed the pre-check: how its header maps, its compiled validator, and whether its
    cells come back neutralised (our own error CSVs and exports)."""

    mapping: HeaderMapping
    validator: RowValidator
    restore_neutralised: bool


def open_source(options: ImportOptions, params: dict[str, Any], *, resuming: bool) -> TableReader:
    """The file's reader; fails when it is gone, changed since it was queued, or too large."""
    path = options.file
    if not path.exists():
        raise PermanentError(ErrorCode.FILE_NOT_FOUND, path=str(path))
    if file_changed(path, params, full=resuming):
        # Edited in Excel while queued, or between a stop and the resume: the checkpoint's row
        # numbers and the idempotency key speak of other bytes.
        raise PermanentError(ErrorCode.FILE_CHANGED, path=str(path))
    problem = size_problem(path, options.max_file_mb)
    if problem is not None:
        raise problem
    # The readers bound what they unpack by the same limit (a zip bomb fails before it fills memory).
    limits = ReadLimits(max_file_mb=options.max_file_mb)
    # an .xlsx sheet's rows are counted (count_rows) in the pass that finds its merged cells, as it opens
    return open_table(path, encoding=options.encoding, sheet=options.sheet, limits=limits,
                      delimiter=options.delimiter, precount=not resuming)  # fmt: skip


def size_problem(path: Path, max_file_mb: int) -> PermanentError | None:
    """FILE_TOO_LARGE when the file is over the limit (the preview asks the same before queueing)."""
    size = path.stat().st_size
    if size > max_file_mb * MIB:
        return PermanentError(ErrorCode.FILE_TOO_LARGE, size_mb=f"{size / MIB:.1f}", limit_mb=max_file_mb)
    return None


def file_changed(path: Path, params: dict[str, Any], *, full: bool) -> bool:
    """Size and modification time say whether the file was saved again since it was queued (a full
    hash again would cost a core for a second on a big file); ``full`` checks every byte."""
    stat = path.stat()
    if params.get("file_size") is not None and stat.st_size != params["file_size"]:
        return True
    if params.get("file_mtime_ns") is not None and stat.st_mtime_ns != params["file_mtime_ns"]:
        return True
    expected = params.get("file_sha256")
    return bool(expected and full and file_sha256(path) != expected)


def check_mapping(
    header: tuple[str, ...], itype: ImportType, options: ImportOptions, lang: Lang, profile: Profile | None = None
) -> HeaderMapping:
    """The header mapped onto the type (a mapping profile's header mapping, then the clerk's overrides):
    EMPTY_FILE for a blank header, MISSING_REQUIRED_COLUMN for a column the mode needs that no header names
    and no constant of the profile fills (the preview asks the same as the clerk maps)."""
    if not any(h.strip() for h in header):
        raise PermanentError(ErrorCode.EMPTY_FILE)
    mapping = map_header(itype, header, header_overrides(profile, options.header_overrides) or None)
    constants = profile.constants if profile is not None else {}
    # An update (or a delete) may leave out any column but the key; an insert needs every required column.
    needed = itype.unique_keys if options.mode.keys_only else mapping.missing_required
    missing = [k for k in needed if k not in mapping.index_by_key and k not in constants]
    if missing:
        # the labels in both languages: the task keeps them and is shown in either (domain/rendering.py)
        labels = {words: joiner.join(itype.column(k).label(words) for k in missing)
                  for words, joiner in (("zh", "、"), ("en", ", "))}  # fmt: skip
        raise PermanentError(ErrorCode.MISSING_REQUIRED_COLUMN, column_zh=labels["zh"], column_en=labels["en"])
    if options.mode.deletes:
        return mapping.keys_only(itype.unique_keys, header)
    return mapping


def may_hold_neutralised(header: tuple[str, ...], itype: ImportType, fmt: str) -> bool:
    """Cells neutralised against CSV injection come back as typed: in our error CSVs and in our
    exports (which use exactly the type's first header names); only CSV cells are neutralised (XLSX
    cells are typed as text)."""
    canonical = tuple(h.strip().lstrip(error_csv.BOM) for h in header) == itype.headers
    return (canonical or error_csv.is_error_csv_header(header)) and fmt == "csv"


def check_header(
    reader: TableReader, itype: ImportType, options: ImportOptions, lang: Lang, profile: Profile | None = None
) -> CheckedFile:
    """Header and the first rows before anything is written (`profile`: the import's mapping profile,
    its version as the task names it)."""
    header = tuple(reader.header)
    mapping = check_mapping(header, itype, options, lang, profile)
    for _ in zip(range(PRECHECK_ROWS), reader.rows(), strict=False):
        pass  # decoding and parsing problems of the first rows surface here, before any write
    is_csv = reader.format == "csv"
    restore = may_hold_neutralised(header, itype, reader.format) and holds_neutralised_cells(
        options.file, reader.encoding
    )  # else restoring costs for nothing
    # XML cannot hold a NUL; a CSV says by a byte scan; an .xls may.
    nul_free = reader.format == "xlsx" or (is_csv and not holds_nul(options.file, reader.encoding))
    validator = compile_validator(itype, mapping, blanks_keep=options.mode.keys_only, nul_free=nul_free,
                                  conventions=options.conventions, number_cells=not is_csv,
                                  fills=fills_of(profile))  # fmt: skip
    return CheckedFile(mapping, validator, restore)


def count_rows(reader: TableReader, options: ImportOptions) -> int:
    """Data rows, checked against the limit before anything is imported.

    For a CSV in an ASCII-compatible encoding, counting line breaks in the raw bytes (~0.1 s for
    100 MB) gives an upper bound: blank lines and quoted line breaks only make records fewer. Only
    when that bound passes the limit is the exact (parsing) count needed.
    """
    bound = line_bound(options.file, reader.encoding) if reader.format == "csv" else _row_bound(reader)
    if bound is not None and bound <= options.max_rows:
        return bound
    rows = reader.count_rows(limit=options.max_rows)
    check_row_count(rows, options.max_rows)
    return rows


def _row_bound(reader: TableReader) -> int | None:
    """An .xlsx sheet's row elements less the header's (a byte count, no parse: XlsxReader.row_bound); a
    bound of 0 is counted exactly, so that a sheet of only blank rows fails here as before."""
    row_bound = getattr(reader, "row_bound", None)  # only the .xlsx reader has one
    bound = row_bound() if row_bound is not None else None
    return bound or None


def check_row_count(rows: int, max_rows: int) -> None:
    """TOO_MANY_ROWS over the limit, EMPTY_FILE without a data row (the preview asks the same of its count)."""
    if rows > max_rows:
        raise PermanentError(ErrorCode.TOO_MANY_ROWS, limit=max_rows)
    if rows == 0:
        raise PermanentError(ErrorCode.EMPTY_FILE)
