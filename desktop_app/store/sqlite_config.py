"""SQLite's process-wide settings, made once as the program starts: its memory statistics turned off.

SQLite counts every allocation under one process-wide mutex unless it is built otherwise (Python's
and Debian's builds are not). Measured on this machine kind (2 cores), an export's million rows in
keyset pages joined by SQLite: one connection 1.21 s with the statistics, 0.77 s without; two
connections reading pages side by side 1.93 s with them (the mutex passed between the cores on every
allocation), 0.41 s without. Nothing here reads the statistics (nor sets a soft heap limit, which
needs them).

The setting can only change while SQLite is shut down, so it is made where no connection can be open
yet: at the program's entry (cli/main.py) and before the test suite opens one (tests/conftest.py).
Where it cannot be made (no SQLite library ctypes can find: a build that links SQLite statically; a
connection already open), SQLite keeps its statistics, and what would share its mutex does not run
side by side (exports/fast_csv.py read_sqlite).
"""

from __future__ import annotations

import ctypes
import logging
import sys
from typing import Any

log = logging.getLogger(__name__)

SQLITE_OK = 0
SQLITE_CONFIG_MEMSTATUS = 9

_statistics_off = False
_tried = False


def statistics_off() -> bool:
    """Whether this process's SQLite keeps no memory statistics (quiet_memory_statistics made it so)."""
    return _statistics_off


def quiet_memory_statistics() -> bool:
    """Turn off SQLite's memory statistics for this process; True when they are off. It does nothing
    (False) when SQLite holds memory already: a connection is open, and SQLite cannot be shut down
    under it."""
    global _statistics_off, _tried
    if _statistics_off or _tried:
        return _statistics_off
    library = _library()
    if library is None:
        return False
    try:
        library.sqlite3_memory_used.restype = ctypes.c_int64
        # its one fixed argument declared: the option's value then goes as a variadic one, where the
        # platform passes those apart (arm64 macOS: on the stack)
        library.sqlite3_config.argtypes = [ctypes.c_int]
        library.sqlite3_config.restype = ctypes.c_int
        if library.sqlite3_memory_used() != 0:
            log.debug("SQLite keeps its memory statistics: a connection is open")
            return False
        if not _is_the_modules(library):
            log.debug("SQLite keeps its memory statistics: the sqlite3 module's library was not found")
            return False
        _tried = True
        library.sqlite3_shutdown()
        done = library.sqlite3_config(SQLITE_CONFIG_MEMSTATUS, ctypes.c_int(0)) == SQLITE_OK
        library.sqlite3_initialize()
        # and its effect seen: a connection no longer shows in the count
        done = done and not _is_the_modules(library)
    except (AttributeError, OSError) as exc:  # a library without these entry points
        log.debug("SQLite keeps its memory statistics: %s", exc)
        return False
    _statistics_off = done
    return done


def _library() -> Any | None:
    """The SQLite library the sqlite3 module uses (loaded by it already: dlopen returns that copy)."""
    import _sqlite3  # the module's own library loaded first, so that it is the one found

    # the module itself first (where it links SQLite in, or as a dependency dlsym follows), then by name
    names = {"win32": ("sqlite3",), "darwin": (_sqlite3.__file__, "libsqlite3.0.dylib", "libsqlite3.dylib")}.get(
        sys.platform, (_sqlite3.__file__, "libsqlite3.so.0")
    )
    for name in names:
        try:
            return ctypes.CDLL(name)
        except OSError:
            continue
    return None


def _is_the_modules(library: Any) -> bool:
    """Whether ``library`` is the copy of SQLite the sqlite3 module uses: a connection the module opens
    shows in its memory count (another copy counts nothing; a build without statistics neither, and
    then there is nothing to turn off)."""
    import sqlite3

    probe = sqlite3.connect(":memory:")
    try:
        return bool(library.sqlite3_memory_used() > 0)
    finally:
        probe.close()
