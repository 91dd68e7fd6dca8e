"""Engines: SQLite set up for concurrent writers, network shares refused, bad URLs in plain words."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import text

from desktop_app.domain.errors import ErrorCode, PermanentError
from desktop_app.store import db

MOUNTS = [("/", "ext4"), ("/mnt/share", "cifs"), ("/mnt/nfs", "nfs4"), ("/home", "xfs")]


@pytest.mark.parametrize(
    ("path", "remote"),
    [
        ("/mnt/share/desk", True),
        ("/mnt/nfs/a/b", True),
        ("/home/clerk/data", False),
        ("/mnt/shared-local", False),  # a prefix of a name is not the mount point
        ("/", False),
    ],
)
def test_network_paths_from_the_mount_table(path: str, remote: bool) -> None:
    assert db.is_network_path(Path(path), MOUNTS) is remote


def test_unc_path_is_a_network_path() -> None:
    assert db.is_network_path(Path("//server/share/batchdesk"), [])


def test_sqlite_on_a_share_is_refused(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(db, "_mount_table", lambda: [(str(tmp_path), "smbfs")])
    with pytest.raises(PermanentError) as info:
        db.make_engine(f"sqlite:///{tmp_path / 'desk.sqlite3'}")
    assert info.value.code is ErrorCode.NETWORK_SHARE
    assert "网络" in info.value.text("zh") and str(tmp_path) in info.value.text("en")


def test_sqlite_pragmas_and_immediate_transactions(tmp_path: Path) -> None:
    engine = db.make_engine(f"sqlite:///{tmp_path / 'x.sqlite3'}")
    try:
        with engine.connect() as conn:
            assert conn.execute(text("PRAGMA journal_mode")).scalar() == "wal"
            assert conn.execute(text("PRAGMA busy_timeout")).scalar() == db.BUSY_TIMEOUT_MS
        with engine.begin() as conn:  # the write lock is taken at BEGIN: a second writer waits
            conn.execute(text("CREATE TABLE t (x)"))
            other = sqlite3.connect(tmp_path / "x.sqlite3", timeout=0.05, isolation_level=None)
            with pytest.raises(sqlite3.OperationalError, match="locked"):
                other.execute("BEGIN IMMEDIATE")
            other.close()
        with engine.connect().execution_options(**{db.READONLY: True}) as conn, conn.begin():
            assert conn.execute(text("SELECT COUNT(*) FROM t")).scalar() == 0
    finally:
        engine.dispose()


def test_a_new_sqlite_database_gets_large_pages_and_an_old_one_keeps_its_own(tmp_path: Path) -> None:
    old = sqlite3.connect(tmp_path / "old.sqlite3")  # a desk made before: SQLite's 4 KB pages, with a table
    old.execute("CREATE TABLE t (x)")
    old.close()
    for name, pages in (("new.sqlite3", db.SQLITE_PAGE_BYTES), ("old.sqlite3", 4096)):
        engine = db.make_engine(f"sqlite:///{tmp_path / name}")
        try:
            with engine.begin() as conn:
                conn.execute(text("CREATE TABLE IF NOT EXISTS t (x)"))
                conn.execute(text("INSERT INTO t VALUES (1)"))
            with engine.connect() as conn:
                assert conn.execute(text("PRAGMA page_size")).scalar() == pages
                assert conn.execute(text("PRAGMA journal_mode")).scalar() == "wal"
                assert conn.execute(text("SELECT COUNT(*) FROM t")).scalar() == 1
        finally:
            engine.dispose()


@pytest.mark.parametrize("url", ["not a url", "oracle://x/y", "postgresql+nosuchdriver://h/d"])
def test_bad_database_urls_are_plain_errors(url: str) -> None:
    with pytest.raises(PermanentError) as info:
        db.make_engine(url)
    assert info.value.code is ErrorCode.DATABASE_UNAVAILABLE


def test_describe_hides_the_password() -> None:
    assert "secret" not in db.describe("postgresql+psycopg://clerk:secret@host/db")


@pytest.mark.parametrize(
    ("stale_after", "expected"),
    [(90.0, (30, 60)), (3.0, (1, db.IDLE_FLOOR_S)), (1.5, (1, db.IDLE_FLOOR_S)), (30.0, (10, db.IDLE_FLOOR_S)),
     (600.0, (30, 400))],
)  # fmt: skip
def test_session_timeouts_never_cut_a_live_batch(stale_after: float, expected: tuple[int, int]) -> None:
    # 2/3 of stale_after, but never under the floor: a small stale_after must not let the server end a
    # live desk's batch while it works between two statements (before: 2 s for stale_after 3)
    assert db.session_timeouts(stale_after) == expected
    assert db.IDLE_FLOOR_S >= 20  # well above the gaps measured (bench/bench_idle_gaps.py: about 1 s)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX advisory locks")
def test_a_second_engine_on_a_live_file_keeps_the_first_ones_locks(tmp_path: Path) -> None:
    """A second engine on a SQLite file this process has open (a second core: the command line run in a
    test's process) must not drop the first one's locks. Before: make_engine opened and closed the file to
    make it private, and closing any descriptor of a file drops every POSIX lock the process holds on it;
    the next desk to close its last connection took the file for unused, folded the WAL in and deleted it
    under the first engine, whose later commits went to the deleted WAL, seen by no other desk."""
    path = tmp_path / "desk.sqlite3"
    other_desk = ("import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); "
                  "print(c.execute('SELECT COUNT(*) FROM t').fetchone()[0]); c.close()")  # fmt: skip

    def seen_by_another_desk() -> int:
        done = subprocess.run([sys.executable, "-c", other_desk, str(path)], capture_output=True, text=True,
                              check=True, timeout=60)  # fmt: skip
        return int(done.stdout)

    first = db.make_engine(f"sqlite:///{path}")
    second = None
    try:
        with first.begin() as conn:  # its connection stays open in the pool: a SHARED lock on the file
            conn.execute(text("CREATE TABLE t (x)"))
            conn.execute(text("INSERT INTO t VALUES (1)"))
        second = db.make_engine(f"sqlite:///{path}")
        assert seen_by_another_desk() == 1  # that desk's last connection closes
        with first.begin() as conn:
            conn.execute(text("INSERT INTO t VALUES (2)"))
        assert seen_by_another_desk() == 2  # before: 1, the row committed to a deleted WAL
    finally:
        first.dispose()
        if second is not None:
            second.dispose()
