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
