"""The import bookkeeping (table import_rows): what each import task did to each key it touched.

One row per key per task: ``inserted`` (a company's own table only: ours keep that in the row
itself), ``updated`` (with the values it replaced and those it wrote), ``deleted`` (with the whole row
it deleted, as store/row_images keeps it), ``unchanged`` and ``skipped``
(so a key repeated later in the same file is a duplicate, after a crash too). Written in the batch's
own transaction; read by duplicate checks, undo and exports of "the rows task T imported".

An undo marks each entry whose change it took back (``un_insert``, ``un_update``, ``un_delete``) in the
transaction that takes it back: the row is no longer one the import wrote (an export of its rows, the
completion of its references, a second undo after a cancelled one pass it by), and the entry stays as
the record of what the import did.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Connection

from desktop_app.store.schema import import_rows

LOOKUP_CHUNK = 500


class LogAction(StrEnum):
    INSERTED = "inserted"
    UPDATED = "updated"
    UNCHANGED = "unchanged"
    SKIPPED = "skipped"
    DELETED = "deleted"
    # an entry whose change an undo took back (the row deleted, its old values or the whole row put back)
    UN_INSERT = "un_insert"
    UN_UPDATE = "un_update"
    UN_DELETE = "un_delete"


TAKEN_BACK = {LogAction.INSERTED: LogAction.UN_INSERT, LogAction.UPDATED: LogAction.UN_UPDATE,
              LogAction.DELETED: LogAction.UN_DELETE}  # fmt: skip


@dataclass(frozen=True)
class LogEntry:
    """One key a task touched."""

    id: int
    task_no: str
    key_text: str
    row_number: int
    action: LogAction
    data: dict[str, Any]


def record(
    conn: Connection, task_no: str, entries: Sequence[tuple[str, int, LogAction, dict[str, Any] | None]]
) -> None:
    """Add (key_text, row_number, action, data) entries of one task (raises IntegrityError for a key
    this task recorded already: the caller's savepoint decides)."""
    if not entries:
        return
    conn.execute(
        import_rows.insert(),
        [
            {
                "task_no": task_no,
                "key_text": key,
                "row_number": row,
                "action": action.value,
                "data": None if data is None else json.dumps(data, ensure_ascii=False, separators=(",", ":")),
            }
            for key, row, action, data in entries
        ],
    )


def mark_taken_back(conn: Connection, taken: Sequence[LogEntry]) -> None:
    """Mark entries whose change an undo took back (in the undo's own transaction), each by what it was."""
    t = import_rows
    by_action: dict[LogAction, list[int]] = {}
    for entry in taken:
        by_action.setdefault(entry.action, []).append(entry.id)
    for action, ids in by_action.items():
        for start in range(0, len(ids), LOOKUP_CHUNK):
            chunk = ids[start : start + LOOKUP_CHUNK]
            conn.execute(sa.update(t).where(t.c.id.in_(chunk), t.c.action == action.value)
                         .values(action=TAKEN_BACK[action].value))  # fmt: skip


def seen(conn: Connection, task_no: str, key_texts: Iterable[str]) -> set[str]:
    """The keys among these that the task recorded already."""
    wanted = list(dict.fromkeys(key_texts))
    found: set[str] = set()
    t = import_rows
    for start in range(0, len(wanted), LOOKUP_CHUNK):
        chunk = wanted[start : start + LOOKUP_CHUNK]
        query = sa.select(t.c.key_text).where(t.c.task_no == task_no, t.c.key_text.in_(chunk))
        found.update(conn.execute(query).scalars().all())
    return found


def entries(
    conn: Connection, task_no: str, *, actions: Sequence[LogAction], after_id: int = 0, limit: int = 500
) -> list[LogEntry]:
    """The task's entries with these actions, in id order after after_id."""
    t = import_rows
    query = (
        sa.select(t)
        .where(t.c.task_no == task_no, t.c.id > after_id, t.c.action.in_([a.value for a in actions]))
        .order_by(t.c.id)
        .limit(limit)
    )
    return [
        LogEntry(r.id, r.task_no, r.key_text, r.row_number, LogAction(r.action), json.loads(r.data) if r.data else {})
        for r in conn.execute(query).all()
    ]


def count(conn: Connection, task_no: str, actions: Sequence[LogAction]) -> int:
    t = import_rows
    query = sa.select(sa.func.count()).where(t.c.task_no == task_no, t.c.action.in_([a.value for a in actions]))
    return int(conn.execute(query).scalar() or 0)
