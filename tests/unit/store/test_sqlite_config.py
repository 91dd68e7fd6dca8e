"""SQLite's memory statistics are turned off at the program's entry, and never under an open connection."""

from __future__ import annotations

import subprocess
import sys

SCRIPT = """
import contextlib, sqlite3, sys
from desktop_app.store import sqlite_config
{before}
print(sqlite_config.statistics_off(), sqlite_config.quiet_memory_statistics(), sqlite_config.statistics_off())
conn = sqlite3.connect(":memory:")
print(conn.execute("SELECT 40 + 2").fetchone()[0])
library = sqlite_config._library()
library.sqlite3_memory_used.restype = __import__("ctypes").c_int64
print("counted" if library.sqlite3_memory_used() > 0 else "uncounted")  # the statistics, seen from SQLite
"""


def run(before: str = "") -> list[str]:
    done = subprocess.run([sys.executable, "-c", SCRIPT.format(before=before)], capture_output=True, text=True,
                          timeout=60, check=True)  # fmt: skip
    return done.stdout.split()


def test_a_process_with_no_connection_turns_them_off_and_sqlite_works_on() -> None:
    assert run() == ["False", "True", "True", "42", "uncounted"]


def test_an_open_connection_leaves_them_on() -> None:
    """SQLite cannot be shut down under a connection: nothing is changed."""
    held = "held = sqlite3.connect(':memory:'); held.execute('SELECT 1')"
    assert run(held) == ["False", "False", "False", "42", "counted"]


def test_the_programs_entry_turns_them_off_before_anything_else() -> None:
    before = "\n".join([
        "from desktop_app.cli.main import main",
        "with contextlib.suppress(SystemExit), contextlib.redirect_stdout(sys.stderr): main(['--help'])",
    ])  # fmt: skip
    assert run(before) == ["True", "True", "True", "42", "uncounted"]  # off before it is asked here: main() did it
