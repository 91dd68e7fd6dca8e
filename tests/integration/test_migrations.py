"""The schema comes from Alembic migrations, and the code's table definitions match what they build."""

from __future__ import annotations

from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import text

from desktop_app.store import migrate
from desktop_app.store.db import make_engine
from desktop_app.store.dialects import dialect_of
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
        dialect_of(engine).before_migration(engine, "older")
        assert (tmp_path / "db.sqlite3.before-older.bak").exists()
    finally:
        engine.dispose()


def _database_at(url: str, revision: str) -> None:
    """A database made by an older release (its schema at `revision`) holding one task of alice's."""
    from alembic import command

    engine = make_engine(url)
    try:
        with engine.begin() as conn:
            command.upgrade(migrate._config(conn), revision)
            conn.execute(
                text(
                    "INSERT INTO tasks (task_no, task_type, lane, params, status, creator, created_at, updated_at) "
                    "VALUES ('T000000-AAAAAA', 'import', 'long', '{}', 'succeeded', 'alice', "
                    "'2026-01-01 00:00:00', '2026-01-01 00:00:00')"
                )
            )
    finally:
        engine.dispose()


def test_upgrade_from_the_first_schema_keeps_the_data_and_backs_up(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    _database_at(f"sqlite:///{path}", "0001")  # a database made by the first release
    engine = make_engine(f"sqlite:///{path}")
    try:
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


def test_a_schema_newer_than_the_program_is_refused_in_plain_words(db_url: str, tmp_path: Path) -> None:
    from desktop_app.domain.errors import ErrorCode, PermanentError
    from tests.integration.test_cli import cli

    engine = make_engine(db_url)
    try:
        migrate.upgrade(engine)
        with engine.begin() as conn:  # a newer BatchDesk on another desk migrated it further
            conn.execute(text("UPDATE alembic_version SET version_num = '0099'"))
        with pytest.raises(PermanentError) as caught:
            migrate.upgrade(engine)
        assert caught.value.code is ErrorCode.SCHEMA_TOO_NEW and "0099" in caught.value.text("en")
        assert migrate.current_revision(engine) == "0099"  # left as it was
    finally:
        engine.dispose()
    assert not list(tmp_path.rglob("*.bak"))  # refused before anything, a backup too
    code, _, err = cli("tasks", "--db", db_url, check_json=False)
    assert code == 1 and len(err.strip().splitlines()) == 1 and "newer BatchDesk" in err, err


def test_upgrade_from_the_previous_schema_keeps_the_tasks(db_url: str) -> None:
    _database_at(db_url, "0004")  # a database made by the previous release
    engine = make_engine(db_url)
    try:
        migrate.upgrade(engine)
        assert migrate.current_revision(engine) == migrate.head_revision()
        with engine.connect() as conn:
            assert conn.execute(text("SELECT creator FROM tasks")).scalar() == "alice"
            assert conn.execute(text("SELECT COUNT(*) FROM tasks_archive")).scalar() == 0
            assert conn.execute(text("SELECT COUNT(*) FROM batchdesk_admins")).scalar() == 0  # none named yet
    finally:
        engine.dispose()


def _old_sqlite(path: Path) -> None:
    _database_at(f"sqlite:///{path}", "0004")


def _revision_and_tasks(path: Path) -> tuple[str, int]:
    import sqlite3

    with sqlite3.connect(path) as conn:
        revision = conn.execute("SELECT version_num FROM alembic_version").fetchone()[0]
        count = conn.execute("SELECT COUNT(*) FROM tasks").fetchone()[0]
    return revision, count


def test_the_sqlite_backup_holds_the_database_as_it_was_before_the_migration(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    _old_sqlite(path)
    engine = make_engine(f"sqlite:///{path}")
    try:
        migrate.upgrade(engine)
    finally:
        engine.dispose()
    backup = tmp_path / "db.sqlite3.before-0004.bak"
    assert _revision_and_tasks(backup) == ("0004", 1)  # a whole, readable database at the old schema
    assert _revision_and_tasks(path) == (migrate.head_revision(), 1)
    assert not list(tmp_path.glob("*.part"))


def test_a_late_starter_does_not_overwrite_the_backup_with_the_migrated_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "db.sqlite3"
    _old_sqlite(path)
    engine = make_engine(f"sqlite:///{path}")
    try:
        migrate.upgrade(engine)  # the first desk to start migrates (and backs up)
        # a second process that read the revision just before the first one migrated
        monkeypatch.setattr(migrate, "current_revision", lambda _engine: "0004")
        migrate.upgrade(engine)
    finally:
        engine.dispose()
    assert _revision_and_tasks(tmp_path / "db.sqlite3.before-0004.bak") == ("0004", 1)


def test_no_migration_without_a_backup(tmp_path: Path) -> None:
    from desktop_app.domain.errors import ErrorCode, PermanentError

    path = tmp_path / "db.sqlite3"
    _old_sqlite(path)
    (tmp_path / "db.sqlite3.before-0004.bak").mkdir()  # the backup cannot be written there
    engine = make_engine(f"sqlite:///{path}")
    try:
        with pytest.raises(PermanentError) as caught:
            migrate.upgrade(engine)
        assert caught.value.code is ErrorCode.BACKUP_FAILED
        assert migrate.current_revision(engine) == "0004"  # nothing changed
    finally:
        engine.dispose()
