"""Faults for reliability tests: a database that stops answering for a while, a disk that fills up."""

from __future__ import annotations

import errno
import threading
import time
from typing import Any

from sqlalchemy import Engine, event
from sqlalchemy.exc import OperationalError


class _Gone(Exception):
    """The driver's error behind the injected one (only its words are read)."""


class Outage:
    """Every statement on an engine fails as a lost connection while the outage lasts: the server
    stopped, seen from the desk (a fresh connection per retry fails the same until it ends)."""

    def __init__(self, engine: Engine) -> None:
        self._until = 0.0
        self.failed = 0  # statements refused
        self._lock = threading.Lock()
        event.listen(engine, "before_cursor_execute", self._check)

    def start(self, seconds: float) -> None:
        with self._lock:
            self._until = time.monotonic() + seconds

    @property
    def active(self) -> bool:
        return time.monotonic() < self._until

    def _check(self, _conn: Any, _cursor: Any, statement: str, parameters: Any, _context: Any, _many: bool) -> None:
        if self.active:
            self.failed += 1
            raise OperationalError(statement, parameters, _Gone("server closed the connection unexpectedly"),
                                   connection_invalidated=True)  # fmt: skip


def disk_full() -> OSError:
    return OSError(errno.ENOSPC, "No space left on device")


def end_sessions(admin: Engine, url: str) -> int:
    """The server ends every session of the desk at `url` once (its side of an outage; the shared
    servers themselves are never stopped): PostgreSQL pg_terminate_backend of the sessions with the
    URL's application_name, MariaDB KILL of each connection on the URL's database. The count ended."""
    from sqlalchemy import text
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    with admin.connect() as conn:
        if parsed.get_backend_name() == "postgresql":
            return sum(1 for _ in conn.execute(text(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = :n"
            ), {"n": parsed.query["application_name"]}))  # fmt: skip
        ids = [r[0] for r in conn.execute(text(
            "SELECT id FROM information_schema.processlist WHERE db = :d AND id <> CONNECTION_ID()"
        ), {"d": parsed.database})]  # fmt: skip
        ended = 0
        for conn_id in ids:
            try:
                conn.execute(text(f"KILL CONNECTION {int(conn_id)}"))
                ended += 1
            except Exception:  # gone already (its desk closed it)
                pass
        return ended


def named_url(url: str, name: str) -> str:
    """The URL with an application_name (PostgreSQL: how end_sessions finds the desk's sessions)."""
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    if parsed.get_backend_name() != "postgresql":
        return url
    return parsed.update_query_dict({"application_name": name}).render_as_string(hide_password=False)
