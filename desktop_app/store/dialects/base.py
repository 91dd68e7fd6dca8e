"""What BatchDesk asks of a database, in one protocol: each module of store/dialects answers for one."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from contextlib import AbstractContextManager
from typing import Any, Protocol, runtime_checkable

from sqlalchemy import Connection, Engine
from sqlalchemy.engine import URL
from sqlalchemy.sql.elements import ColumnElement

from desktop_app.domain.errors import ErrorCode
from desktop_app.domain.table_spec import Storage, TableSpec
from desktop_app.domain.viewer import Right, TeamLogin, TeamUser

READONLY = "batchdesk_readonly"  # the execution option of a connection that only reads (SQLite: a deferred BEGIN)


class BulkPath(enum.Enum):
    """How a checked batch goes in by the database's own loader (store/bulk_load.py)."""

    ADBC_STAGE = "adbc_stage"  # SQLite: staged by the ADBC driver in a file of its own, INSERT ... SELECT
    COPY = "copy"  # PostgreSQL: COPY ... FROM STDIN on the batch's connection
    LOAD_DATA = "load_data"  # MySQL/MariaDB: LOAD DATA LOCAL INFILE from a CSV file of the batch


class ExportRead(enum.Enum):
    """How an export reads its rows' texts fast (exports/fast_csv.py)."""

    KEYSET_PAGES = "keyset_pages"  # SQLite: keyset pages joined into one text each (exports/sqlite_pages.py)
    ADBC_COPY = "adbc_copy"  # PostgreSQL: the ADBC driver's COPY, Arrow batches
    SERVER_CURSOR = "server_cursor"  # MySQL/MariaDB: an unbuffered cursor (exports/mysql_rows.py)


class TeamSecurity(Protocol):
    """Team mode on one database (docs/TEAM.md): each clerk a login of the server, the server keeping each
    clerk's tasks to them. Its SQL lives in one module per database (store/team_sql)."""

    def login(self, conn: Connection) -> TeamLogin | None:
        """The connection's login when the database is secured (team mode), else None (as before)."""
        ...

    def script(self, conn: Connection) -> str:
        """The SQL that secures the database the connection is in (its schema), for a DBA to read or run."""
        ...

    def owners_without_role(self, conn: Connection) -> list[str]:
        """The owner names of existing tasks and feeds that no role of the server has yet."""
        ...

    def secure(self, conn: Connection) -> None:
        """Run script() on the connection, in its transaction (running it again changes nothing)."""
        ...

    def add_user(self, conn: Connection, name: str, password: str, *, admin: bool) -> bool:
        """A login for a clerk (or an existing owner's role made one); True when the role is new."""
        ...

    def grant(self, conn: Connection, name: str, table: str, rights: tuple[Right, ...], *, give: bool) -> None:
        """GRANT (give) or REVOKE rights on an import type's table to a clerk's login."""
        ...

    def users(self, conn: Connection, tables: Mapping[str, str]) -> list[TeamUser]:
        """The clerks' roles, each with its rights on the tables (import type -> table) that exist."""
        ...

    def may(self, conn: Connection, table: str, right: Right) -> bool | None:
        """Whether the connection's login holds a right on a table; None when there is no such table."""
        ...


@runtime_checkable
class Dialect(Protocol):
    """One database's knowledge; every caller asks it rather than the database's name."""

    name: str  # the module's own name: "sqlite", "postgresql", "mysql" (MariaDB included)
    embedded: bool  # a file on this desk, no server, no users: everyone is an administrator
    row_locks: bool  # SELECT ... FOR UPDATE SKIP LOCKED exists (else the writers are serialised)
    row_security: bool  # policies on a table keep a login to its rows (team mode's rules; else views do)
    bulk_path: BulkPath
    bulk_preloads: bool  # a batch may be loaded ahead on a connection of its own while the one before commits
    export_read: ExportRead
    # its driver reads a JSON column as lists and dicts, which it would write back as other types (a list as
    # an array): a deleted row's image reads such a column as its JSON text, which the server casts back
    json_as_text: bool

    @property
    def team(self) -> TeamSecurity | None:
        """Team mode's SQL on this database (store/team_sql), None where there is none (no logins: SQLite)."""
        ...

    # --- engine and connection set-up ---------------------------------------------------------

    def make_engine(self, url: str, parsed: URL, lock_s: int, idle_s: int, **kwargs: Any) -> Engine:
        """An engine set up for this product's transactions (pragmas, session settings)."""
        ...

    def short_lock_wait(self, conn: Connection, milliseconds: int) -> AbstractContextManager[None]:
        """Within it, the connection's statements wait at most about `milliseconds` for a lock
        (the session's own wait again after it)."""
        ...

    def lock_holder(self, conn: Connection, schema: str | None, table: str) -> str | None:
        """Who holds a lock on the table, where the server tells (an application, a user), else None."""
        ...

    # --- the clock and small SQL ----------------------------------------------------------------

    def now(self, offset_seconds: float = 0.0) -> ColumnElement[Any]:
        """UTC 'now' (+ offset) evaluated by the database, as a naive timestamp."""
        ...

    def greatest(self, column: Any, value: int) -> Any:
        """The larger of a column and a value, in SQL."""
        ...

    # --- bulk load --------------------------------------------------------------------------------

    def bulk_available(self, engine: Engine) -> bool:
        """Whether the bulk loader may run against this server at all."""
        ...

    def no_wait_for_disk(self, conn: Connection) -> None:
        """Let a bulk batch's commit not wait for the server's disk, where the database allows it."""
        ...

    # --- exports: cell texts in SQL and the reading session ------------------------------------------

    def literal(self, text: str) -> str:
        """A string literal this database reads as `text`."""
        ...

    def value_text(self, column: str, storage: Storage, scale: int | None) -> str:
        """SQL for writer.cell_text(value) of a quoted column (NULL stays NULL)."""
        ...

    def labelled(self, text: str, shown: Mapping[str, str]) -> str:
        """SQL for a value text shown as its label where it has one, compared byte for byte."""
        ...

    def if_null(self, text: str, empty: str) -> str:
        """SQL for `text`, or `empty` where it is NULL."""
        ...

    def export_session(self) -> tuple[str, ...]:
        """The settings an export's own reading session runs before its query."""
        ...

    def count_quietly(self, conn: Connection) -> None:
        """Set the transaction up for a count beside an export's own read."""
        ...

    # --- schema and migration quirks -------------------------------------------------------------------

    def text_bound(self, stored: Any) -> int | None:
        """The length the database enforces on a reflected text column (None: unbounded)."""
        ...

    def char_length(self, column: Any) -> Any:
        """The length in characters of a text, in SQL."""
        ...

    def integer_range(self, stored: Any) -> tuple[int, int] | None:
        """The range a reflected integer column holds; None: as its type says."""
        ...

    def bounds_decimal_digits(self) -> bool:
        """Whether the database enforces a decimal column's digits before the point."""
        ...

    def spec_problems(self, spec: TableSpec) -> list[str]:
        """What this database cannot store of a type's table as the type declares it."""
        ...

    def key_folds_case(self, conn: Connection, spec: TableSpec) -> bool:
        """Whether the table compares a text key column case-insensitively."""
        ...

    def ddl_lock(self, engine: Engine, name: str, key: int) -> AbstractContextManager[Connection]:
        """A connection that alone may change a schema, between desks (`name`, `key`: the lock's)."""
        ...

    def before_migration(self, engine: Engine, revision: str) -> None:
        """What must happen before a schema migration of an existing database (a backup)."""
        ...

    # --- errors --------------------------------------------------------------------------------------

    def lock_wait(self, exc: BaseException) -> bool:
        """Whether an error (SQLAlchemy's, or the driver's own from a loader's cursor) is a lock wait
        given up or a deadlock: another connection holds what the statement needed."""
        ...

    def owns_error(self, exc: BaseException) -> bool:
        """Whether a SQLAlchemy error (its driver's error in .orig) is this database's to read."""
        ...

    def error_kind(self, exc: BaseException) -> ErrorCode | None:
        """What an error owns_error() took means: DATABASE_UNAVAILABLE or DISK_FULL (it may pass),
        another code (it does not), None if nothing specific is known."""
        ...
