"""How an import treats keys already in the table (its mode: insert, update, delete, sync) and blank cells."""

from __future__ import annotations

from enum import StrEnum


class ImportMode(StrEnum):
    """What an import does with each row's key: the command line's --mode and the preview's choice."""

    INSERT = "insert"  # add new rows only: a key already in the table is already_exists
    INSERT_NEW = "insert_new"  # add new, skip existing: a key in the table is skipped quietly
    UPDATE = "update"  # update existing: a key not in the table is not_found
    UPSERT = "upsert"  # add new and update existing
    DELETE = "delete"  # delete the rows with the file's keys: a key not in the table is not_found
    # the table (or its rows in the --scope) ends equal to the file: upsert, and the rows whose keys the
    # file lacks deleted (after a confirmation naming their number: imports/sync.py)
    SYNC = "sync"

    @property
    def updates(self) -> bool:
        """Whether rows already in the table may change (blank cells then keep what is stored)."""
        return self in (ImportMode.UPDATE, ImportMode.UPSERT, ImportMode.SYNC)

    @property
    def removes_rows(self) -> bool:
        """Whether the import may delete rows of the table (delete, sync): never a feed's, always confirmed."""
        return self in (ImportMode.DELETE, ImportMode.SYNC)

    @property
    def row_mode(self) -> ImportMode:
        """The mode the file's own rows are written in: a sync's are upserted."""
        return ImportMode.UPSERT if self is ImportMode.SYNC else self

    @property
    def inserts(self) -> bool:
        return self not in (ImportMode.UPDATE, ImportMode.DELETE)

    @property
    def deletes(self) -> bool:
        """Whether the file's rows delete rows (only the key columns are read, the others ignored)."""
        return self is ImportMode.DELETE

    @property
    def keys_only(self) -> bool:
        """Whether the file needs only the key's columns (a row with no other cell is complete)."""
        return self in (ImportMode.UPDATE, ImportMode.UPSERT, ImportMode.DELETE, ImportMode.SYNC)


class BlankPolicy(StrEnum):
    """In update and upsert: whether a blank cell keeps the stored value or empties it (--blank)."""

    KEEP = "keep"
    CLEAR = "clear"
