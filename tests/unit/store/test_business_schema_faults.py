"""Planning a type's table when the database fails under it: a lost session is the caller's to retry,
never read as "no registry yet" (then the plan's next statement met a dead transaction and the import
failed for good with SQLAlchemy's "Please rollback() fully", seen in the fault campaign on PostgreSQL)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy.exc import OperationalError

from desktop_app.domain.table_spec import TableSpec
from desktop_app.store import business_schema
from desktop_app.store.db_errors import is_passing


class _DyingConnection:
    """A connection whose session the server ends at the next statement."""

    def execute(self, *_args: Any, **_kwargs: Any) -> Any:
        lost = OperationalError("SELECT business_tables.name", None, Exception("terminating connection"))
        lost.connection_invalidated = True
        raise lost


def _spec() -> TableSpec:
    return TableSpec(name="things", columns=(), key=("code",), create=True, import_type="things", source="things.toml")


def test_a_lost_session_while_asking_whether_a_table_is_ours_is_raised_as_passing() -> None:
    with pytest.raises(OperationalError) as caught:
        business_schema._registered(_DyingConnection(), _spec())  # type: ignore[arg-type]
    assert is_passing(caught.value)


def test_a_database_without_the_registry_has_no_managed_table(tmp_path: Path) -> None:
    engine = sa.create_engine(f"sqlite:///{tmp_path / 'old.sqlite3'}")
    try:
        with engine.connect() as conn:
            assert business_schema._registered(conn, _spec()) == (False, None)
    finally:
        engine.dispose()
