"""Engines per back-end: SQLite in WAL with BEGIN IMMEDIATE, PostgreSQL and MariaDB/MySQL by URL."""

from __future__ import annotations

import logging
import os
import sys
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, NoSuchModuleError
from sqlalchemy.pool import NullPool

from desktop_app.domain.errors import ErrorCode, PermanentError

log = logging.getLogger(__name__)

BUSY_TIMEOUT_MS = 15_000
SQLITE_PAGE_BYTES = 16_384
NETWORK_FS = {
    "nfs", "nfs4", "cifs", "smb", "smbfs", "smb2", "smb3", "afpfs", "afs", "sshfs", "fuse.sshfs",
    "9p", "davfs", "fuse.davfs2", "webdav", "ncpfs", "glusterfs", "ceph", "fuse.rclone",
}  # fmt: skip
READONLY = "batchdesk_readonly"


def sqlite_url(path: Path) -> str:
    return f"sqlite:///{path}"


def is_network_path(path: Path, mounts: list[tuple[str, str]] | None = None) -> bool:
    """True when path lies on a network file system (where SQLite's WAL is unsafe)."""
    text = str(path)
    if text.startswith(("\\\\", "//")):
        return True  # a UNC path: \\server\share
    if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
        import ctypes

        drive = os.path.splitdrive(str(path.resolve()))[0]
        if drive:
            return bool(ctypes.windll.kernel32.GetDriveTypeW(drive + "\\") == 4)  # DRIVE_REMOTE
        return False
    table = mounts if mounts is not None else _mount_table()
    resolved = str(path.resolve()) if mounts is None else text
    best: tuple[int, str] = (-1, "")
    for mount_point, fs_type in table:
        prefix = mount_point.rstrip("/") + "/"
        if (resolved + "/").startswith(prefix) and len(prefix) > best[0]:
            best = (len(prefix), fs_type)
    return best[1].lower() in NETWORK_FS


def _mount_table() -> list[tuple[str, str]]:
    try:
        with open("/proc/self/mounts", encoding="utf-8") as handle:
            return [(p[1].replace("\\040", " "), p[2]) for p in (line.split() for line in handle) if len(p) > 2]
    except OSError:
        pass
    if sys.platform == "darwin":  # pragma: no cover - macOS only
        import subprocess

        out = subprocess.run(["mount"], capture_output=True, text=True, check=False).stdout
        rows = []
        for line in out.splitlines():  # "//u@host/share on /Volumes/share (smbfs, nodev, ...)"
            if " on " in line and "(" in line:
                point = line.split(" on ", 1)[1].rsplit(" (", 1)[0]
                fs_type = line.rsplit("(", 1)[1].split(",")[0].strip(" )")
                rows.append((point, fs_type))
        return rows
    return []


# A live desk's transaction is idle, as the server counts it, between its statements while the desk
# works in Python: in a batch, between the fenced UPDATE that opens it and the rows (the bulk loader's
# CSV made in memory; a refused bulk batch validated again row by row, 20,000 rows by default and more
# when a clerk raises bulk_batch_rows; each failed row written to the error CSV on the data disk), and
# between an export's fetches of 20,000 rows on a PostgreSQL server-side cursor, each written to the
# file in between; all of it slowed by the other task's thread holding the GIL on a busy desk. Measured
# here up to a few seconds (docs/RELIABILITY.md): the limit must never cut such a gap, whatever a small
# stale_after says, or the batch fails at the same point on every retry.
IDLE_FLOOR_S = 30


def session_timeouts(stale_after: float) -> tuple[int, int]:
    """(lock wait, idle in a transaction), in seconds, for BatchDesk's sessions on a server.

    A desk frozen inside a transaction (a laptop lid closed mid-batch, SIGSTOP) holds its row locks
    until the server ends its session (2/3 of stale_after, at least IDLE_FLOOR_S). Claims and rescues
    skip locked rows, so meanwhile no other desk waits behind it: only the frozen desk's own task is
    taken over that much later; and a statement that meets a lock anyway gives up (a passing error,
    retried) instead of stalling its desk's scheduler.
    """
    return max(1, min(30, int(stale_after / 3))), max(IDLE_FLOOR_S, int(stale_after * 2 / 3))


def make_engine(url: str, *, stale_after: float = 90.0, **kwargs: Any) -> Engine:
    """An engine for the URL, set up for this product's transactions; bad URLs fail in plain words."""
    try:
        parsed = make_url(url)
    except ArgumentError as exc:
        raise PermanentError(ErrorCode.DATABASE_UNAVAILABLE, detail=f"not a database URL: {url}") from exc
    backend = parsed.get_backend_name()
    try:
        if backend == "sqlite":
            return _sqlite_engine(url, parsed.database, **kwargs)
        if backend in ("postgresql", "mysql", "mariadb"):
            engine = create_engine(url, pool_pre_ping=True, pool_size=5, max_overflow=20, **kwargs)
            lock_s, idle_s = session_timeouts(stale_after)
            if backend == "postgresql":
                _install_postgresql_listeners(engine, lock_s, idle_s)
            else:
                _install_mysql_listeners(engine, lock_s, idle_s)
            return engine
    except (NoSuchModuleError, ModuleNotFoundError) as exc:
        raise PermanentError(
            ErrorCode.DATABASE_UNAVAILABLE,
            detail=f"the driver for {parsed.drivername} is not installed ({exc})",
        ) from exc
    raise PermanentError(
        ErrorCode.DATABASE_UNAVAILABLE,
        detail=f"unsupported database {backend}: use sqlite, postgresql+psycopg or mysql+pymysql",
    )


def _register_sqlite_adapters() -> None:
    # Business rows go through the driver directly (store.business): teach sqlite3 the value types
    # the validators produce, as SQLAlchemy's Numeric and Date types store them. A datetime (never with
    # microseconds from the validator) is 'YYYY-MM-DD HH:MM:SS', the text business_schema.Stamp binds
    # in look-ups: said here rather than left to sqlite3's default adapter, deprecated since 3.12.
    import datetime
    import sqlite3
    from decimal import Decimal

    sqlite3.register_adapter(Decimal, str)
    sqlite3.register_adapter(datetime.date, datetime.date.isoformat)
    sqlite3.register_adapter(datetime.datetime, lambda value: value.isoformat(" "))


def _sqlite_engine(url: str, database: str | None, **kwargs: Any) -> Engine:
    _register_sqlite_adapters()
    if database and database != ":memory:":
        path = Path(database)
        if is_network_path(path.parent):
            raise PermanentError(ErrorCode.NETWORK_SHARE, path=str(path.parent))
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise PermanentError(ErrorCode.DATA_DIR_UNUSABLE, path=str(path.parent),
                                 detail=exc.strerror or str(exc)) from exc  # fmt: skip
    engine = create_engine(
        url,
        poolclass=NullPool if database in (None, "", ":memory:") else None,
        connect_args={"timeout": BUSY_TIMEOUT_MS / 1000, "check_same_thread": False},
        **kwargs,
    )

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        # Let SQLAlchemy's "begin" event below emit BEGIN itself (the pysqlite recipe).
        dbapi_conn.isolation_level = None
        cursor = dbapi_conn.cursor()
        # A new database file gets 16 KB pages (SQLite's default: 4 KB); on an existing one this does
        # nothing. Measured on a million-row import (both sorted and unsorted keys): a quarter of the
        # write calls, and its INSERT ... SELECT with its commits 20-45 % less CPU, the unsorted file the most.
        cursor.execute(f"PRAGMA page_size={SQLITE_PAGE_BYTES}")
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Any) -> None:
        # A deferred transaction that reads then writes gets SQLITE_BUSY at once, ignoring the busy
        # timeout; taking the write lock up front makes writers queue instead. Reads stay deferred.
        if conn.get_execution_options().get(READONLY):
            conn.exec_driver_sql("BEGIN")
        else:
            conn.exec_driver_sql("BEGIN IMMEDIATE")

    return engine


def _install_postgresql_listeners(engine: Engine, lock_s: int, idle_s: int) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        # Session settings of BatchDesk's own connections only: the server's are never changed.
        autocommit = dbapi_conn.autocommit
        dbapi_conn.autocommit = True
        cursor = dbapi_conn.cursor()
        cursor.execute(f"SET lock_timeout = '{lock_s}s'")
        cursor.execute(f"SET idle_in_transaction_session_timeout = '{idle_s}s'")
        cursor.close()
        dbapi_conn.autocommit = autocommit


def _install_mysql_listeners(engine: Engine, lock_s: int, idle_s: int) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        cursor = dbapi_conn.cursor()
        # READ COMMITTED: the claim's SKIP LOCKED and our fenced updates need no gap locks.
        cursor.execute("SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED")
        cursor.execute("SET time_zone = '+00:00'")
        cursor.execute(f"SET SESSION innodb_lock_wait_timeout = {lock_s}")
        cursor.execute("SELECT @@version")
        if "mariadb" in str(cursor.fetchone()[0]).lower():  # MySQL 8 has no idle transaction timeout
            cursor.execute(f"SET SESSION idle_transaction_timeout = {idle_s}")
        cursor.close()


def describe(url: str) -> str:
    """The URL without its password, for logs and the window."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return "<invalid url>"
