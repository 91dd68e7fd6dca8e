"""An import's counts and checkpoint: what its committed batches add up to, saved with each batch."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any


@dataclass(frozen=True)
class ImportCounts:
    """Rows so far: every data row is one of inserted, updated, unchanged, skipped, deleted or failed."""

    total: int = 0  # data rows consumed (blank rows excluded)
    inserted: int = 0
    updated: int = 0
    unchanged: int = 0
    skipped: int = 0
    fail: int = 0
    deleted: int = 0
    pending: int = 0  # rows written with a reference name not found (yet)

    @property
    def success(self) -> int:
        return self.inserted + self.updated + self.unchanged + self.skipped + self.deleted

    def plus(self, other: ImportCounts) -> ImportCounts:
        return ImportCounts(*(getattr(self, f.name) + getattr(other, f.name) for f in fields(self)))

    def as_tuple(self) -> tuple[int, int, int]:
        """(total, success, fail): what the task table's columns hold."""
        return (self.total, self.success, self.fail)

    def mode_counts(self) -> dict[str, int]:
        """The task JSON's counts of each kind."""
        return {
            "inserted_count": self.inserted,
            "updated_count": self.updated,
            "unchanged_count": self.unchanged,
            "skipped_count": self.skipped,
            "deleted_count": self.deleted,
        }


@dataclass(frozen=True)
class ImportCheckpoint:
    """Saved in each batch's transaction: a resume continues after ``row`` with these counts."""

    row: int  # the last row number (as Excel shows it) of the committed batch
    rows_in_file: int
    counts: ImportCounts
    error_bytes: int  # the error CSV's length when the batch committed

    def to_dict(self) -> dict[str, Any]:
        counts = asdict(self.counts)
        # total/success/fail as the first checkpoints spelled them, then the kinds
        return {"row": self.row, "rows_in_file": self.rows_in_file, "error_bytes": self.error_bytes,
                "success": self.counts.success, **counts}  # fmt: skip

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ImportCheckpoint:
        def number(name: str) -> int:
            return int(data.get(name) or 0)

        counts = ImportCounts(total=number("total"), inserted=number("inserted"), updated=number("updated"),
                              unchanged=number("unchanged"), skipped=number("skipped"), fail=number("fail"),
                              deleted=number("deleted"), pending=number("pending"))  # fmt: skip
        if "inserted" not in data:  # written before import modes: every success was an insert
            counts = replace(counts, inserted=number("success"))
        return cls(row=number("row"), rows_in_file=number("rows_in_file"), counts=counts,
                   error_bytes=number("error_bytes"))  # fmt: skip
