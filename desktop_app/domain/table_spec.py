"""A business table as an import type declares it: columns with how they are stored, and the key.

The store creates and checks tables from this (no import type in sight); the imports layer makes it
from an import type (desktop_app/imports/table_spec.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

# SQLite keeps a NUMERIC as an integer or a double: 15 significant digits come back as written, more
# may not. A decimal column that can hold more is for PostgreSQL and MySQL/MariaDB only.
SQLITE_DECIMAL_DIGITS = 15


class Storage(StrEnum):
    """How a column is stored, whatever the back-end."""

    TEXT = "text"  # VARCHAR(length), TEXT without one
    INTEGER = "integer"  # BIGINT
    DECIMAL = "decimal"  # NUMERIC(precision, scale)
    DATE = "date"
    DATETIME = "datetime"
    BOOLEAN = "boolean"
    ID = "id"  # a referenced row's id (BIGINT), filled by the import, never from a cell


@dataclass(frozen=True)
class StoredColumn:
    """One column of a business table."""

    name: str
    storage: Storage
    length: int | None = None  # TEXT: the most characters (None: unbounded)
    precision: int | None = None  # DECIMAL
    scale: int | None = None  # DECIMAL
    required: bool = False  # every row the import writes has a value (NOT NULL when created)
    default: str | None = None  # the type's default as text (a new column gets it in existing rows)
    integer_min: int | None = None
    integer_max: int | None = None


@dataclass(frozen=True)
class TableReference:
    """A column resolved by name in another table: ``id_column`` gets ``ref_table.id`` where
    ``ref_table.ref_column`` equals the cell."""

    column: str
    id_column: str
    ref_table: str
    ref_column: str
    allow_add: bool = False  # the type lets a clerk add a name not found to ref_table


@dataclass(frozen=True)
class TableSpec:
    """The table an import type writes: its name (``table`` or ``schema.table``), columns and key."""

    name: str
    columns: tuple[StoredColumn, ...]
    key: tuple[str, ...]
    create: bool
    import_type: str
    source: str  # the type file, for problems that name it
    references: tuple[TableReference, ...] = ()

    @property
    def schema(self) -> str | None:
        return self.name.split(".", 1)[0] if "." in self.name else None

    @property
    def table(self) -> str:
        return self.name.split(".", 1)[-1]

    def column(self, name: str) -> StoredColumn:
        for col in self.columns:
            if col.name == name:
                return col
        raise KeyError(name)
