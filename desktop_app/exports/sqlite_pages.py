"""An SQLite export's rows in keyset pages, each page one text that SQLite joins itself (group_concat).

The process's own SQLite (the stdlib's, the store's connection) reads the export in this process: the
ADBC driver's copy of SQLite needed a child process of its own (~120 MB more resident, see
sqlite_reader). A row at a time through the sqlite3 module costs ~2.7 µs of Python per row; a page of
20,000 rows joined by SQLite costs one Python object, and the query's steps run with the GIL released,
so Arrow renders one page while SQLite reads the next.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Connection

PAGE_ROWS = 20_000


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


def pages(conn: Connection, table: sa.Table, key: Sequence[str], line_sql: str, where: Sequence[Any], *,
          separator: str, end: str = "") -> Iterator[Page]:  # fmt: skip
    """Each page's rows (in key order, passing ``where``) as one text, rows joined by `separator` and
    the last followed by `end`, with its row count. Run in one read transaction: every page is read
    from the same snapshot."""
    page_rows = PAGE_ROWS
    # the key's stored values as they are (no type's processing): each page starts after the last one's
    # exact value (a DATETIME read back and bound again through its type could gain ".000000")
    columns = [sa.type_coerce(table.c[k], sa.types.NullType()) for k in key]
    last: Sequence[Any] | None = None
    while True:
        # the page's last key: a walk of the key's index, no row read
        ends = sa.select(*columns).where(*where, *_after(columns, last)).order_by(*columns)
        bound = conn.execute(ends.offset(page_rows - 1).limit(1)).first()
        # The LIMIT makes the inner ORDER BY part of the result (SQLite may drop a subquery's ORDER BY that
        # is not), and group_concat joins the rows in the order they come.
        inner = (
            sa.select(sa.literal_column(line_sql).label("line"))
            .select_from(table)
            .where(*where, *_after(columns, last), *_through(columns, bound))
            .order_by(*columns)
            .limit(page_rows)
            .subquery()
        )
        joined = sa.func.group_concat(inner.c.line, separator, type_=sa.Text()).concat(end)
        # as a BLOB: the text's UTF-8 bytes as SQLite holds them, never decoded into a Python str (and
        # encoded again): ~15 MB of copies a page of CJK text, with the GIL the next page's read needs
        data, count = conn.execute(sa.select(sa.cast(joined, sa.LargeBinary()), sa.func.count())).one()
        if count:
            yield Page(bytes(data), int(count))
        if bound is None:
            return
        last = tuple(bound)
