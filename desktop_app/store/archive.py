"""Retention of task rows (seed 000 §6): final tasks older than N days move to the archive, never deleted."""

from __future__ import annotations

import logging
from typing import Any

from sqlalchemy import delete, select

from desktop_app.domain.status import FINAL
from desktop_app.store.schema import tasks, tasks_archive
from desktop_app.store.task_files import delete_in
from desktop_app.store.tasks import TaskStore

log = logging.getLogger(__name__)
BATCH = 500


def archive_ended_before(store: TaskStore, cutoff: Any, *, batch: int = BATCH) -> int:
    """Move final tasks that ended before `cutoff` (UTC) to the archive, a batch per transaction.

    Each batch is copied and deleted in one transaction, so a row is in exactly one of the two tables
    whatever happens; rows another desk's clean-up holds are skipped (it moves them). Returns how many."""
    columns = [c.name for c in tasks_archive.columns]
    moved = 0
    while True:
        query = (
            select(tasks.c.id)
            .where(tasks.c.status.in_([s.value for s in FINAL]), tasks.c.ended_at < cutoff)
            .order_by(tasks.c.id)
            .limit(batch)
        )
        if store.dialect.row_locks:  # SQLite's BEGIN IMMEDIATE already serialises the writers
            query = query.with_for_update(skip_locked=True)
        with store.engine.begin() as conn:
            ids = list(conn.execute(query).scalars().all())
            if ids:
                source = select(*(tasks.c[name] for name in columns)).where(tasks.c.id.in_(ids))
                numbers = list(conn.execute(select(tasks.c.task_no).where(tasks.c.id.in_(ids))).scalars())
                conn.execute(tasks_archive.insert().from_select(columns, source))
                conn.execute(delete(tasks).where(tasks.c.id.in_(ids)))
                # an archived task is history: its stored files go with the move (the clean-up expired
                # them long before, on the desk that ran it), so no file outlives its task's row
                delete_in(conn, numbers)
        moved += len(ids)
        if len(ids) < batch:
            break
    if moved:
        log.info("archived %d tasks that ended before %s", moved, cutoff)
    return moved
