"""The schema comes from Alembic migrations, and the code's table definitions match what they build."""

from __future__ import annotations

from pathlib import Path

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import text

from desktop_app.store import migrate
from desktop_app.store.db import make_engine
from desktop_app.store.schema import SEEDED_DEPARTMENTS, metadata


def test_upgrade_builds_the_declared_schema(db_url: str) -> None:
    engine = make_engine(db_url)
    try:
        migrate.upgrade(engine)
        assert migrate.current_revision(engine) == migrate.head_revision()
        with engine.connect() as conn:
            diffs = compare_metadata(MigrationContext.configure(conn), metadata)
            names = {r[0] for r in conn.execute(text("SELECT name FROM departments")).all()}
        assert diffs == [], f"schema.py and the migrations disagree: {diffs}"
        assert names == set(SEEDED_DEPARTMENTS)
        migrate.upgrade(engine)  # a second start changes nothing
    finally:
        engine.dispose()


def test_sqlite_backup_before_migrating_an_old_schema(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    engine = make_engine(url)
    try:
        migrate.upgrade(engine)
        with engine.begin() as conn:  # pretend the file was made by an older version
            conn.execute(text("UPDATE alembic_version SET version_num = 'older'"))
        migrate._backup_sqlite(engine, "older")
        assert (tmp_path / "db.sqlite3.before-older.bak").exists()
    finally:
        engine.dispose()


def test_upgrade_from_the_first_schema_keeps_the_data_and_backs_up(tmp_path: Path) -> None:
    from alembic import command

    path = tmp_path / "old.sqlite3"
    engine = make_engine(f"sqlite:///{path}")
    try:
        with engine.begin() as conn:  # a database made by the first release
            command.upgrade(migrate._config(conn), "0001")
            conn.execute(
                text(
                    "INSERT INTO tasks (task_no, task_type, lane, params, status, created_at, updated_at) "
                    "VALUES ('T000000-AAAAAA', 'import', 'long', '{}', 'succeeded', '2026-01-01', '2026-01-01')"
                )
            )
        assert migrate.current_revision(engine) == "0001"
        migrate.upgrade(engine)
        assert migrate.current_revision(engine) == migrate.head_revision()
        with engine.connect() as conn:
            assert conn.execute(text("SELECT task_no FROM tasks")).scalar() == "T000000-AAAAAA"
        assert (tmp_path / "old.sqlite3.before-0001.bak").exists()
    finally:
        engine.dispose()


def test_mariadb_database_with_a_latin1_default_still_stores_chinese(tmp_path: Path) -> None:
    from tests.support.backends import fresh_database

    with fresh_database("mariadb", tmp_path, mysql_charset="latin1") as url:
        engine = make_engine(url)
        try:
            migrate.upgrade(engine)
            with engine.connect() as conn:
                names = {r[0] for r in conn.execute(text("SELECT name FROM departments")).all()}
            assert names == set(SEEDED_DEPARTMENTS)
        finally:
            engine.dispose()
