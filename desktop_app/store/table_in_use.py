"""A company table another connection holds locked, said in one line (which table, by whom) and retried."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import Engine

from desktop_app.domain.errors import ErrorCode, TransientError
from desktop_app.domain.table_spec import TableSpec
from desktop_app.store.dialects import dialect_of

log = logging.getLogger(__name__)

LOOK_MS = 50  # how long a look at the table's locks, or the acceptance's look at the table, may wait


def in_use(engine: Engine, spec: TableSpec, exc: BaseException) -> TransientError | None:
    """The passing error to end a task with when `exc` is a lock wait given up (or a deadlock) on the
    type's table: one line naming the table and, where the server tells, who holds it; never the SQL."""
    dialect = dialect_of(engine)
    if not dialect.lock_wait(exc):
        return None
    holder = None
    try:
        with engine.connect() as conn, dialect.short_lock_wait(conn, LOOK_MS):
            holder = dialect.lock_holder(conn, spec.schema, spec.table)
    except Exception:  # the look is a courtesy: the table is in use whoever holds it
        log.debug("could not tell who holds %s", spec.name, exc_info=True)
    by = f" by {holder}" if holder else " by another connection"
    return TransientError(ErrorCode.DATABASE_UNAVAILABLE, detail=f"the table {spec.name} is in use{by}")


@contextmanager
def said_in_use(engine: Engine, spec: TableSpec) -> Iterator[None]:
    """Within it, a lock wait on the type's table ends as in_use's one line (a passing error)."""
    try:
        yield
    except Exception as exc:
        typed = in_use(engine, spec, exc)
        if typed is None:
            raise
        raise typed from exc
