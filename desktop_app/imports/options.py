"""The import task's parameters, typed: built once by the submission, read back by the running task."""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from desktop_app.domain.errors import ErrorCode, PermanentError
from desktop_app.domain.modes import BlankPolicy, ImportMode
from desktop_app.imports.readers.csv_sniff import DELIMITERS
from desktop_app.imports.regional import DateOrder, FileConventions

# Parameters the submission adds from the file itself; a resubmission must not carry the old values.
FILE_FACTS = ("file_sha256", "file_size", "file_mtime_ns")


@dataclass(frozen=True)
class ImportOptions:
    """What to import and how: an import request and the import task's parameters. A limit left None
    in a request takes the settings' default when it is submitted; a task's limits are always set."""

    file: Path
    import_type: str
    mode: ImportMode = ImportMode.INSERT
    blank: BlankPolicy = BlankPolicy.KEEP
    dry_run: bool = False
    encoding: str | None = None
    max_rows: int = 0  # 0: the settings' default
    max_file_mb: int = 0
    batch_size: int = 0
    repairs: str | None = None
    header_overrides: dict[str, str] = field(default_factory=dict)
    sheet: str | None = None
    # how the file writes what its columns leave open (the preview asks; --date-order, --delimiter,
    # --decimal-comma): None / False is "not declared" (a day/month date that reads both ways fails
    # as ambiguous_date; the delimiter is sniffed; the decimal mark is the point)
    date_order: DateOrder | None = None
    delimiter: str | None = None
    decimal_comma: bool = False
    # the mapping profile the import uses, by name and version (docs/PROFILES.md): its header mapping,
    # constants and value mappings are read by name and version when the task runs, so a newer save
    # never changes a queued, retried or resumed task; its reading options are in the fields above
    profile: str | None = None
    profile_version: int | None = None
    # sync mode (imports/sync.py): the rows of the table a sync may delete, by column key and value (none:
    # every row), and the number of deletes the clerk confirmed (the submission refuses another number)
    scope: dict[str, str] = field(default_factory=dict)
    confirm_deletes: int | None = None
    # the apply of a dry run's change plan (imports/change_plan.py): the dry run's task number; each row is
    # written only as that plan has it
    plan_of: str | None = None

    def __post_init__(self) -> None:
        if self.delimiter is not None and self.delimiter not in DELIMITERS:
            raise ValueError(f"delimiter must be one of {', '.join(map(repr, DELIMITERS))}, not {self.delimiter!r}")
        if self.date_order is not None:
            object.__setattr__(self, "date_order", DateOrder(self.date_order))
        if self.profile_version is not None and self.profile is None:
            raise ValueError("a profile version without a profile name")

    @property
    def conventions(self) -> FileConventions:
        """The file's declared day/month order and decimal mark, for the validator."""
        return FileConventions(date_order=self.date_order, decimal_comma=self.decimal_comma)

    @classmethod
    def from_params(
        cls, params: dict[str, Any], *, batch_default: int, rows_default: int, mb_default: int
    ) -> ImportOptions:
        try:
            return cls(
                file=Path(params["file"]),
                import_type=str(params["import_type"]),
                mode=ImportMode(params.get("mode") or ImportMode.INSERT),
                blank=BlankPolicy(params.get("blank") or BlankPolicy.KEEP),
                dry_run=bool(params.get("dry_run", False)),
                encoding=params.get("encoding") or None,
                max_rows=int(params.get("max_rows") or rows_default),
                max_file_mb=int(params.get("max_file_mb") or mb_default),
                batch_size=max(1, int(params.get("batch_size") or batch_default)),
                repairs=params.get("repairs") or None,
                header_overrides=dict(params.get("header_overrides") or {}),
                sheet=params.get("sheet") or None,
                date_order=DateOrder(params["date_order"]) if params.get("date_order") else None,
                delimiter=params.get("delimiter") or None,
                decimal_comma=bool(params.get("decimal_comma", False)),
                profile=params.get("profile") or None,
                profile_version=int(params["profile_version"]) if params.get("profile_version") else None,
                scope={str(k): str(v) for k, v in (params.get("scope") or {}).items()},
                confirm_deletes=int(params["confirm_deletes"]) if params.get("confirm_deletes") is not None else None,
                plan_of=str(params["plan_of"]) if params.get("plan_of") else None,
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise PermanentError(ErrorCode.INVALID_PARAMS, detail=str(exc)) from exc

    def to_params(self) -> dict[str, Any]:
        """The task's params (JSON-ready); the submission adds the file's facts (hash, size, time)."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            out[f.name] = str(value) if isinstance(value, Path) else value
        out["mode"] = self.mode.value
        out["blank"] = self.blank.value
        out["header_overrides"] = dict(self.header_overrides)
        out["date_order"] = self.date_order.value if self.date_order is not None else None
        if self.profile is None:
            # a task without one stores what it always stored (a task queued before profiles reads the same)
            del out["profile"], out["profile_version"]
        out["scope"] = dict(self.scope)
        if self.plan_of is None:
            del out["plan_of"]  # only an apply has one
        if self.mode is not ImportMode.SYNC:
            # only a sync has them (the other modes' tasks store what they always stored)
            del out["scope"], out["confirm_deletes"]
        return out

    def but(self, **changes: Any) -> ImportOptions:
        return replace(self, **changes)
