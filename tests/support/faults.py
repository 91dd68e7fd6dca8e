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
