"""Writing business rows fast: driver-level executemany of tuples, unique-key look-ups, reference completion."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, Engine
from sqlalchemy.exc import IntegrityError

LOOKUP_CHUNK = 500  # stays under every driver's parameter limit
TASK_NO = re.compile(r"[A-Z0-9-]{1,32}")


@dataclass(frozen=True)
class Reference:
    """A column resolved after commit: target.<id_column> = ref_table.id where ref_table.<ref_column> = value."""

    column: str
    id_column: str
    ref_table: str
    ref_column: str


def references_of(columns: Iterable[Any]) -> list[Reference]:
    """The reference columns of an import type's columns (kind "reference"), as the writer needs them."""
    return [
        Reference(c.key, c.reference_target or f"{c.key}_id", c.reference_table or "", c.reference_column or "")
        for c in columns
        if c.kind == "reference"
    ]


class TableWriter:
    """Inserts rows of one import type into its target table, on any of the three back-ends.

    The fast path is one executemany of plain tuples per batch through the driver (SQLAlchemy Core
    with dicts costs about twice as much); everything stays behind this class, so the pipeline
    never speaks a dialect.
    """

    def __init__(self, engine: Engine, table: str, columns: Sequence[str], key_column: str) -> None:
        self.dialect = engine.dialect.name
        quote = engine.dialect.identifier_preparer.quote
        self._q = quote
        self.table = table
        self.columns = tuple(columns)
        self.key_column = key_column
        mark = "?" if engine.dialect.paramstyle == "qmark" else "%s"
        self._mark = mark
        cols = ", ".join(quote(c) for c in (*self.columns, "task_no"))
        marks = ", ".join([mark] * len(self.columns))
        self._insert_prefix = f"INSERT INTO {quote(table)} ({cols}) VALUES ({marks}, "
        self._insert_sql: dict[str, str] = {}

    def _insert(self, task_no: str) -> str:
        # The task number goes into the statement as a literal: copying a million row tuples just to
        # append it costs more than the validation of a column. It is our own format, checked here.
        sql = self._insert_sql.get(task_no)
        if sql is None:
            if not TASK_NO.fullmatch(task_no):
                raise ValueError(f"not a task number: {task_no!r}")
            sql = self._insert_sql[task_no] = f"{self._insert_prefix}'{task_no}')"
        return sql

    def insert_many(self, conn: Connection, rows: Sequence[tuple[Any, ...]], task_no: str) -> None:
        """All rows or none (raises IntegrityError on a unique conflict; the caller's savepoint decides)."""
        if rows:
            conn.exec_driver_sql(self._insert(task_no), list(rows))

    def insert_each(self, conn: Connection, rows: Sequence[tuple[Any, ...]], task_no: str) -> list[bool]:
        """Row by row, each in its own savepoint: which rows went in (for a batch that conflicted)."""
        done = []
        for row in rows:
            try:
                with conn.begin_nested():
                    conn.exec_driver_sql(self._insert(task_no), [row])
                done.append(True)
            except IntegrityError:
                done.append(False)
        return done

    def owners_of(self, conn: Connection, keys: Iterable[str]) -> dict[str, str | None]:
        """For the keys already in the table: key -> the task_no that imported it (None if unknown)."""
        found: dict[str, str | None] = {}
        unique = list(dict.fromkeys(keys))
        q = self._q
        for start in range(0, len(unique), LOOKUP_CHUNK):
            chunk = unique[start : start + LOOKUP_CHUNK]
            marks = ", ".join([self._mark] * len(chunk))
            sql = (
                f"SELECT {q(self.key_column)}, {q('task_no')} FROM {q(self.table)} "
                f"WHERE {q(self.key_column)} IN ({marks})"
            )
            for key, task_no in conn.exec_driver_sql(sql, tuple(chunk)).all():
                found[key] = task_no
        return found

    def reference_ids(self, conn: Connection, ref: Reference) -> dict[object, int]:
        """The referenced table as name -> id (a small look-up table: departments, regions...)."""
        q = self._q
        rows = conn.exec_driver_sql(f"SELECT {q(ref.ref_column)}, {q('id')} FROM {q(ref.ref_table)}").all()
        return {r[0]: int(r[1]) for r in rows}

    def complete_references(self, conn: Connection, ref: Reference, task_no: str) -> int:
        """Resolve the task's unresolved references; returns how many are still unresolved."""
        q = self._q
        t, r = q(self.table), q(ref.ref_table)
        conn.exec_driver_sql(
            f"UPDATE {t} SET {q(ref.id_column)} = (SELECT {r}.{q('id')} FROM {r} "
            f"WHERE {r}.{q(ref.ref_column)} = {t}.{q(ref.column)}) "
            f"WHERE {q('task_no')} = {self._mark} AND {q(ref.column)} IS NOT NULL AND {q(ref.id_column)} IS NULL",
            (task_no,),
        )
        left = conn.exec_driver_sql(
            f"SELECT COUNT(*) FROM {t} WHERE {q('task_no')} = {self._mark} "
            f"AND {q(ref.column)} IS NOT NULL AND {q(ref.id_column)} IS NULL",
            (task_no,),
        ).scalar()
        return int(left or 0)

    def count_for_task(self, conn: Connection, task_no: str) -> int:
        q = self._q
        sql = f"SELECT COUNT(*) FROM {q(self.table)} WHERE {q('task_no')} = {self._mark}"
        return int(conn.exec_driver_sql(sql, (task_no,)).scalar() or 0)
