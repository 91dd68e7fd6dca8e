"""The import task's parameters, typed and checked."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from desktop_app.domain.errors import ErrorCode, PermanentError


@dataclass(frozen=True)
class ImportOptions:
    """The import task's parameters, typed."""

    file: Path
    import_type: str
    dry_run: bool = False
    encoding: str | None = None
    max_rows: int = 1_000_000
    max_file_mb: int = 50
    batch_size: int = 1000
    repairs: str | None = None
    header_overrides: dict[str, str] = field(default_factory=dict)
    sheet: str | None = None

    @classmethod
    def from_params(
        cls, params: dict[str, Any], *, batch_default: int, rows_default: int, mb_default: int
    ) -> ImportOptions:
        try:
            return cls(
                file=Path(params["file"]),
                import_type=str(params["import_type"]),
                dry_run=bool(params.get("dry_run", False)),
                encoding=params.get("encoding") or None,
                max_rows=int(params.get("max_rows") or rows_default),
                max_file_mb=int(params.get("max_file_mb") or mb_default),
                batch_size=max(1, int(params.get("batch_size") or batch_default)),
                repairs=params.get("repairs") or None,
                header_overrides=dict(params.get("header_overrides") or {}),
                sheet=params.get("sheet") or None,
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise PermanentError(ErrorCode.INVALID_PARAMS, detail=str(exc)) from exc
