"""How an import treats keys already in the table (its mode) and blank cells in updates."""

from __future__ import annotations

from enum import StrEnum


class ImportMode(StrEnum):
    """What an import does with each row's key: the command line's --mode and the preview's choice."""

    INSERT = "insert"  # add new rows only: a key already in the table is already_exists
    INSERT_NEW = "insert_new"  # add new, skip existing: a key in the table is skipped quietly
    UPDATE = "update"  # update existing: a key not in the table is not_found
    UPSERT = "upsert"  # add new and update existing

    @property
    def updates(self) -> bool:
        """Whether rows already in the table may change (blank cells then keep what is stored)."""
        return self in (ImportMode.UPDATE, ImportMode.UPSERT)

    @property
    def inserts(self) -> bool:
        return self is not ImportMode.UPDATE


class BlankPolicy(StrEnum):
    """In update and upsert: whether a blank cell keeps the stored value or empties it (--blank)."""

    KEEP = "keep"
    CLEAR = "clear"
