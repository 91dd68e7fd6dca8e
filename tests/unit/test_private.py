"""A desk's data folder, task database and logs are readable by its OS user alone (issue 27)."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

import pytest

from desktop_app.app import build_core
from desktop_app.private import private_file, private_folder

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="Unix rights; on Windows the user's profile")


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_new_desk_is_its_users_alone(tmp_path: Path) -> None:
    old = os.umask(0o022)  # as on most desks: new files readable by every login
    try:
        core = build_core(data_dir=tmp_path / "desk")
        try:
            database = Path(str(core.store.engine.url.database))
            with core.store.reading() as conn:
                conn.exec_driver_sql("SELECT 1")
            import logging

            logging.getLogger("desktop_app").warning("a line, so that the log file exists")
            logs = list(core.paths.log_dir.glob("batchdesk.log*"))
        finally:
            core.close()
    finally:
        os.umask(old)
    assert mode(tmp_path / "desk") == 0o700
    assert mode(core.paths.log_dir) == 0o700
    assert database.parent == tmp_path / "desk" and mode(database) == 0o600
    assert logs and all(mode(p) == 0o600 for p in logs), [(p, oct(mode(p))) for p in logs]
    wal = database.with_name(database.name + "-wal")
    assert not wal.exists() or mode(wal) == 0o600  # SQLite gives it the database file's rights


def test_a_folder_or_file_others_could_read_is_tightened(tmp_path: Path) -> None:
    folder, file = tmp_path / "old", tmp_path / "old" / "tasks.sqlite3"
    folder.mkdir(mode=0o755)
    folder.chmod(0o755)
    file.write_text("")
    file.chmod(0o644)
    private_folder(folder)
    private_file(file)
    assert (mode(folder), mode(file)) == (0o700, 0o600)
    assert file.read_text() == ""  # made private, not emptied
