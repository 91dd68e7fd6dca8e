"""The desk's own files, readable by its OS user alone: the data folder 0700, the task database and logs 0600.

A desk's SQLite file holds every task's file names, parameters and row records; its logs name files and
people. Other logins on the same machine must not read them (issue 27). On Windows the data folder is
in the user's profile, which only they (and administrators) can open; there these calls change nothing.
"""

from __future__ import annotations

import logging
import os
import stat
import sys
from pathlib import Path

log = logging.getLogger(__name__)

FOLDER_MODE = 0o700
FILE_MODE = 0o600
POSIX = sys.platform != "win32"


def private_folder(path: Path) -> None:
    """Make the folder (and its missing parents, as usual) and let only its owner in. A folder that exists
    with rights for others (made by an earlier version, or by hand) is tightened, and the log says so."""
    path.mkdir(parents=True, exist_ok=True)
    if POSIX:
        _tighten(path, FOLDER_MODE)


def private_file(path: Path) -> None:
    """Create the file empty if it is not there, readable and writable by its owner alone; tighten one
    that exists. SQLite gives its journal and WAL files the database file's own rights."""
    if not POSIX:
        return
    # A file that exists is never opened here: closing any descriptor of a file drops every POSIX lock
    # this process holds on it, a live SQLite connection's too (a second engine on the desk's file). The
    # next desk to close its last connection then took the file for unused and deleted its WAL under
    # that connection, whose later commits no other desk saw. A file made now has no lock to lose.
    try:
        made = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY | getattr(os, "O_CLOEXEC", 0), FILE_MODE)
    except FileExistsError:
        pass
    else:
        os.close(made)
    _tighten(path, FILE_MODE)


def _tighten(path: Path, mode: int) -> None:
    try:
        info = path.stat()
        if info.st_uid != os.getuid():  # not ours to change (a folder someone else made for us)
            return
        if stat.S_IMODE(info.st_mode) & 0o077:
            path.chmod(mode)
            log.info("%s was readable by other users; now only by its owner", path)
    except OSError as exc:  # a file system without Unix rights (a FAT stick): nothing to tighten
        log.debug("could not make %s private: %s", path, exc)
