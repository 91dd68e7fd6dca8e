"""The migration head the program checks without Alembic is Alembic's own head."""

from __future__ import annotations

import subprocess
import sys

from desktop_app.store import migrate


def test_head_constant_is_alembic_head() -> None:
    assert migrate.head_revision() == migrate.HEAD


def test_a_database_at_head_opens_without_alembic(tmp_path) -> None:  # type: ignore[no-untyped-def]
    code = (
        "import sys; from desktop_app.store.db import make_engine; from desktop_app.store import migrate; "
        f"e = make_engine('sqlite:///{tmp_path / 'x.sqlite3'}'); migrate.upgrade(e); "
        "sys.modules.pop('alembic', None); [sys.modules.pop(m) for m in list(sys.modules) if m.startswith('alembic')]; "
        "migrate.upgrade(e); print('alembic' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_a_database_at_head_opens_while_another_process_writes(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Seen through the bundle: `tasks` took 4.9 s while an undo ran on the desk's SQLite file: the check
    that the schema is at head began a writing transaction (BEGIN IMMEDIATE) and waited for the undo's page
    to commit. A reader never waits in WAL mode; the check only reads."""
    import sqlite3
    import time

    from desktop_app.store.db import make_engine

    path = tmp_path / "x.sqlite3"
    engine = make_engine(f"sqlite:///{path}")
    migrate.upgrade(engine)
    writer = sqlite3.connect(path, isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")  # another process's write in progress
    writer.execute("UPDATE tasks SET progress = progress WHERE 0")
    try:
        began = time.monotonic()
        migrate.upgrade(engine)
        assert time.monotonic() - began < 1.0, "the head check waited for the writer"
    finally:
        writer.execute("ROLLBACK")
        writer.close()
        engine.dispose()
