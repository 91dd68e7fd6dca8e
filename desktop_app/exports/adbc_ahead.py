"""The PostgreSQL export's ADBC database, opened on a thread of its own while the command line submits.

Opening it reads the server's type catalogue and builds the driver's table of types: 60-90 ms, most
of it the driver's C++ with the GIL let go (measured: a Python loop beside it ran at 94 % of its
speed). Begun before the submission, the worker's start and the table's opening (~0.15 s of the
main thread's work), it is ready when the export reads. It holds no connection once open (the type
read's connection is closed), so one taken later is as good as a new one.
"""

from __future__ import annotations

import threading
from concurrent.futures import Future
from typing import Any

from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError

from desktop_app.store.dialects import ExportRead, UnknownDatabase, dialect_of

_lock = threading.Lock()
_begun: dict[str, Future[Any]] = {}


def adbc_uri(url: str | URL) -> str:
    """The libpq URI of a SQLAlchemy PostgreSQL URL (its password kept: the driver logs in with it)."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def begin(url: str) -> None:
    """Open the ADBC database for a PostgreSQL URL on a daemon thread; any other URL (or no driver):
    nothing begins."""
    try:
        parsed = make_url(url)
    except ArgumentError:
        return
    try:
        if dialect_of(parsed).export_read is not ExportRead.ADBC_COPY:
            return
    except UnknownDatabase:
        return
    try:
        # imported here: an import on the thread would take the import lock the main thread needs
        import adbc_driver_postgresql
    except ImportError:
        return
    uri = adbc_uri(parsed)
    future: Future[Any] = Future()

    def run() -> None:
        try:
            future.set_result(adbc_driver_postgresql.connect(uri))
        except BaseException as exc:  # the reader opens its own then and meets the error itself
            future.set_exception(exc)

    with _lock:
        earlier = _begun.pop(uri, None)
        _begun[uri] = future
    if earlier is not None:
        earlier.add_done_callback(_close)
    threading.Thread(target=run, name="batchdesk-adbc-ahead", daemon=True).start()


def take(uri: str) -> Any | None:
    """The database begun for this URI (waited for if still opening), once; None when none was begun
    or opening it failed."""
    with _lock:
        future = _begun.pop(uri, None)
    if future is None:
        return None
    try:
        return future.result()
    except Exception:
        return None


def _close(future: Future[Any]) -> None:
    """An earlier database for the same URI, never taken: closed when it has opened."""
    if future.exception() is None:
        future.result().close()
