"""Engines by URL, each set up by its dialect module (store/dialects); the session timeouts; network shares."""

from __future__ import annotations

import logging
import os
import sys
from pathlib import Path
from typing import Any

from sqlalchemy import Engine
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, NoSuchModuleError

from desktop_app.domain.errors import ErrorCode, PermanentError
from desktop_app.store.dialects import READONLY as READONLY  # where callers have always found them
from desktop_app.store.dialects import UnknownDatabase, dialect_of
from desktop_app.store.dialects.sqlite import BUSY_TIMEOUT_MS as BUSY_TIMEOUT_MS
from desktop_app.store.dialects.sqlite import SQLITE_PAGE_BYTES as SQLITE_PAGE_BYTES

log = logging.getLogger(__name__)

NETWORK_FS = {
    "nfs", "nfs4", "cifs", "smb", "smbfs", "smb2", "smb3", "afpfs", "afs", "sshfs", "fuse.sshfs",
    "9p", "davfs", "fuse.davfs2", "webdav", "ncpfs", "glusterfs", "ceph", "fuse.rclone",
}  # fmt: skip


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
    try:
        dialect = dialect_of(parsed)
    except UnknownDatabase as exc:
        raise PermanentError(
            ErrorCode.DATABASE_UNAVAILABLE,
            detail=f"unsupported database {exc.name}: use sqlite, postgresql+psycopg or mysql+pymysql",
        ) from exc
    lock_s, idle_s = session_timeouts(stale_after)
    try:
        return dialect.make_engine(url, parsed, lock_s, idle_s, **kwargs)
    except (NoSuchModuleError, ModuleNotFoundError) as exc:
        raise PermanentError(
            ErrorCode.DATABASE_UNAVAILABLE,
            detail=f"the driver for {parsed.drivername} is not installed ({exc})",
        ) from exc


def describe(url: str) -> str:
    """The URL without its password, for logs and the window."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return "<invalid url>"
