"""An SQLite export's rows in keyset pages, each page one text that SQLite joins itself (group_concat).

The process's own SQLite (the stdlib's, the store's connection) reads the export in this process: the
ADBC driver's copy of SQLite needed a child process of its own (~120 MB more resident, see
sqlite_reader). A row at a time through the sqlite3 module costs ~2.7 µs of Python per row; a page of
20,000 rows joined by SQLite costs one Python object, and the query's steps run with the GIL released,
so Arrow renders one page while SQLite reads the next.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Connection, Engine
from sqlalchemy.exc import OperationalError

from desktop_app.store.dialects import READONLY
from desktop_app.store.dialects.sqlite import BUSY_TIMEOUT_MS

log = logging.getLogger(__name__)

PAGE_ROWS = 20_000
FENCE_WAIT_MS = 500  # how long the readers wait for the write lock to begin on one snapshot (else: one reader)


@dataclass(frozen=True)
class Range:
    """A page's keys: after ``after`` (None: from the first), through ``through`` (None: to the last)."""

    after: tuple[Any, ...] | None
    through: tuple[Any, ...] | None


@dataclass(frozen=True)
class Page:
    """One page: its rows' texts joined into one, as UTF-8 bytes, and how many rows."""

    data: bytes
    rows: int


def _after(key: Sequence[Any], last: Sequence[Any] | None) -> list[Any]:
    if last is None:
        return []
    return [key[0] > last[0]] if len(key) == 1 else [sa.tuple_(*key) > sa.tuple_(*last)]


def _through(key: Sequence[Any], bound: Sequence[Any] | None) -> list[Any]:
    if bound is None:
        return []
    return [key[0] <= bound[0]] if len(key) == 1 else [sa.tuple_(*key) <= sa.tuple_(*bound)]


def has_null_key(conn: Connection, table: sa.Table, key: Sequence[str]) -> bool:
    """A row whose key holds a NULL (a keyset cannot step over it: the pages would skip it)."""
    found = conn.execute(
        sa.select(sa.literal(1)).select_from(table).where(sa.or_(*(table.c[k].is_(None) for k in key))).limit(1)
    )
    return found.first() is not None


def ranges(conn: Connection, table: sa.Table, key: Sequence[str], where: Sequence[Any]) -> Iterator[Range]:
    """The pages' key ranges in key order: each (after the last key of the page before, through its own
    last key; None: open), found by a walk of the key's index, no row read (~0.5 ms a page)."""
    columns = _raw_key(table, key)
    last: tuple[Any, ...] | None = None
    while True:
        ends = sa.select(*columns).where(*where, *_after(columns, last)).order_by(*columns)
        found = conn.execute(ends.offset(PAGE_ROWS - 1).limit(1)).first()
        bound = None if found is None else tuple(found)
        yield Range(last, bound)
        if bound is None:
            return
        last = bound


def read_page(conn: Connection, table: sa.Table, key: Sequence[str], line_sql: str, where: Sequence[Any],
              keys: Range, *, separator: str, end: str = "") -> Page:  # fmt: skip
    """One page's rows (in key order, passing ``where``, within ``keys``) as one text, rows joined by
    `separator` and the last followed by `end`, with its row count."""
    columns = _raw_key(table, key)
    # The LIMIT makes the inner ORDER BY part of the result (SQLite may drop a subquery's ORDER BY that
    # is not), and group_concat joins the rows in the order they come.
    inner = (
        sa.select(sa.literal_column(line_sql).label("line"))
        .select_from(table)
        .where(*where, *_after(columns, keys.after), *_through(columns, keys.through))
        .order_by(*columns)
        .limit(PAGE_ROWS)
        .subquery()
    )
    joined = sa.func.group_concat(inner.c.line, separator, type_=sa.Text()).concat(end)
    # as a BLOB: the text's UTF-8 bytes as SQLite holds them, never decoded into a Python str (and
    # encoded again): ~15 MB of copies a page of CJK text, with the GIL the next page's read needs
    data, count = conn.execute(sa.select(sa.cast(joined, sa.LargeBinary()), sa.func.count())).one()
    return Page(bytes(data) if count else b"", int(count))


def _raw_key(table: sa.Table, key: Sequence[str]) -> list[Any]:
    # the key's stored values as they are (no type's processing): each page starts after the last one's
    # exact value (a DATETIME read back and bound again through its type could gain ".000000")
    return [sa.type_coerce(table.c[k], sa.types.NullType()) for k in key]


@contextmanager
def one_snapshot(engine: Engine, count: int) -> Iterator[list[Connection] | None]:
    """``count`` connections in read transactions that all see the same snapshot of the database, or None
    when that could not be had at once (a writer holding the write lock past FENCE_WAIT_MS: the caller
    reads on one connection then)."""
    with ExitStack() as stack:
        readers = [stack.enter_context(engine.connect().execution_options(**{READONLY: True})) for _ in range(count)]
        yield readers if _begin_together(engine, readers, stack) else None


def _begin_together(engine: Engine, readers: list[Connection], stack: ExitStack) -> bool:
    """Begin the readers' transactions while another connection holds the write lock, so no commit falls
    between their beginnings (WAL: a reader's snapshot is taken at its first read); the lock is let go
    as soon as they have begun. False: the lock was not had within FENCE_WAIT_MS."""
    with engine.connect() as fence:
        # on the driver's connection: an execute through SQLAlchemy would begin a transaction of its own
        raw: Any = fence.connection.dbapi_connection
        raw.execute(f"PRAGMA busy_timeout = {FENCE_WAIT_MS}")
        try:
            with fence.begin():  # BEGIN IMMEDIATE: the write lock; nothing written, nothing to commit
                for reader in readers:
                    stack.enter_context(reader.begin())
                    reader.exec_driver_sql("SELECT 1 FROM sqlite_master LIMIT 1").all()  # its snapshot, taken
        except OperationalError as exc:
            if any(reader.in_transaction() for reader in readers):
                raise  # not the fence's lock: a reader failed
            log.info("the export reads on one connection: the write lock stayed busy (%s)", exc.orig)
            return False
        finally:
            with suppress(sqlite3.Error):  # a broken connection: its own error is the one to tell
                raw.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    return True
