"""A column's value as the export's text, rendered by the database itself in SQL (per dialect).

Each expression gives exactly the text writer.cell_text makes of the same value read through
SQLAlchemy, NULL staying NULL: the database does the work of millions of Python calls in its own C.
Labels, neutralised formula triggers and CSV quoting follow in Arrow (csv_lines).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from desktop_app.domain.table_spec import Storage

# SQLAlchemy returns an unscaled NUMERIC on SQLite (a float there) at this many decimals
DEFAULT_DECIMAL_SCALE = 10


def literal(text: str, dialect: str) -> str:
    """A string literal every dialect reads the same (MySQL's backslash escapes included)."""
    body = text.replace("'", "''")
    if dialect in ("mysql", "mariadb"):
        body = body.replace("\\", "\\\\")
    return f"'{body}'"


def value_text(dialect: str, column: str, storage: Storage, scale: int | None) -> str:
    """SQL for cell_text(value) of a quoted column (NULL stays NULL)."""
    return _RENDER[dialect](column, storage, scale)


def _sqlite(c: str, storage: Storage, scale: int | None) -> str:
    if storage is Storage.TEXT:
        return c
    if storage in (Storage.INTEGER, Storage.ID):
        return f"CAST({c} AS TEXT)"
    if storage is Storage.DECIMAL:
        # SQLAlchemy reads SQLite's NUMERIC as Decimal('%.{scale}f' % value)
        digits = DEFAULT_DECIMAL_SCALE if scale is None else scale
        return f"CASE WHEN {c} IS NULL THEN NULL ELSE printf('%.{digits}f', {c}) END"
    if storage is Storage.DATE:
        return f"substr({c}, 1, 10)"
    if storage is Storage.DATETIME:
        # a text of a date alone (an older row) reads as its midnight, as SQLAlchemy reads it
        return f"CASE WHEN length({c}) = 10 THEN {c} || ' 00:00:00' ELSE substr({c}, 1, 19) END"
    return f"CASE WHEN {c} IS NULL THEN NULL WHEN {c} THEN 'TRUE' ELSE 'FALSE' END"


def _postgresql(c: str, storage: Storage, scale: int | None) -> str:
    if storage in (Storage.TEXT, Storage.INTEGER, Storage.ID, Storage.DECIMAL):
        return f"({c})::text"
    if storage is Storage.DATE:
        # the date's own output, YYYY-MM-DD in the ISO DateStyle the export's session sets (POSTGRESQL_SESSION):
        # to_char parses its pattern again for every row (the server's CPU for a million-row export:
        # 2.00 -> 1.82 s, measured); a date's years 1000-9999 read the same either way
        return f"({c})::text"
    if storage is Storage.DATETIME:
        return f"to_char({c}, 'YYYY-MM-DD HH24:MI:SS')"
    return f"CASE WHEN {c} IS NULL THEN NULL WHEN ({c})::int <> 0 THEN 'TRUE' ELSE 'FALSE' END"


def labelled(dialect: str, text: str, shown: Mapping[str, str]) -> str:
    """SQL for a value text shown as its label where it has one, the text compared byte for byte
    (whatever the column's collation: Arrow's look-up of the row path is exact); NULL stays NULL."""
    if not shown:
        return text
    exact = _BYTEWISE[dialect]
    whens = " ".join(f"WHEN {literal(k, dialect)} THEN {literal(v, dialect)}" for k, v in shown.items())
    return f"CASE ({text}) COLLATE {exact} {whens} ELSE {text} END"


_BYTEWISE = {"postgresql": '"C"'}  # the labels in SQL: PostgreSQL's rows (fast_csv.write_fast)


POSTGRESQL_SESSION = ("SET standard_conforming_strings = on", "SET DateStyle = 'ISO, YMD'")
"""What _postgresql's texts assume of the session that runs them: a backslash in a literal is a
backslash (the filters' values are rendered as literals), and a date's text is YYYY-MM-DD whatever the
server's or the database's own DateStyle says."""


def _mysql(c: str, storage: Storage, scale: int | None) -> str:
    if storage is Storage.TEXT:
        return c
    if storage in (Storage.INTEGER, Storage.ID, Storage.DECIMAL):
        return f"CAST({c} AS CHAR)"
    if storage is Storage.DATE:
        return f"DATE_FORMAT({c}, '%Y-%m-%d')"
    if storage is Storage.DATETIME:
        return f"DATE_FORMAT({c}, '%Y-%m-%d %H:%i:%s')"
    return f"CASE WHEN {c} IS NULL THEN NULL WHEN {c} <> 0 THEN 'TRUE' ELSE 'FALSE' END"


_RENDER: dict[str, Callable[[str, Storage, int | None], str]] = {
    "sqlite": _sqlite,
    "postgresql": _postgresql,
    "mysql": _mysql,
    "mariadb": _mysql,
}
