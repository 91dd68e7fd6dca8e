"""The rows an import task wrote, found again: for the completion of its references, exports of
"what task T imported" and its undo. Our tables know their inserter (task_no); the rest is in the
bookkeeping (import_rows)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from sqlalchemy import Connection

from desktop_app.domain.table_spec import TableReference
from desktop_app.domain.values import SEPARATOR, parse_canonical
from desktop_app.store import import_log
from desktop_app.store.business_rows import BusinessTable, Key
from desktop_app.store.import_log import LogAction, LogEntry

PAGE = 500


def parse_key_text(table: BusinessTable, text: str) -> Key:
    """A bookkeeping key text back as the key's values."""
    parts = text.split(SEPARATOR)
    return tuple(parse_canonical(table.storage_of(name)[0], part) for name, part in zip(table.key, parts, strict=True))


def logged_actions(table: BusinessTable) -> tuple[LogAction, ...]:
    """The bookkeeping actions that name rows a task wrote (our tables keep inserts in the row)."""
    return (LogAction.UPDATED,) if table.managed else (LogAction.INSERTED, LogAction.UPDATED)


def log_pages(conn: Connection, task_no: str, actions: Sequence[LogAction]) -> Iterator[list[LogEntry]]:
    after = 0
    while True:
        page = import_log.entries(conn, task_no, actions=actions, after_id=after, limit=PAGE)
        if not page:
            return
        yield page
        after = page[-1].id


def complete_references(conn: Connection, table: BusinessTable, refs: Sequence[TableReference], task_no: str) -> int:
    """Resolve what the task left unresolved; returns how many references are still unknown."""
    left = 0
    for ref in refs:
        if table.managed:
            left += table.complete_references(conn, ref, task_no=task_no)
        for page in log_pages(conn, task_no, logged_actions(table)):
            left += table.complete_references(conn, ref, keys=[parse_key_text(table, e.key_text) for e in page])
    return left
