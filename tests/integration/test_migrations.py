"""The schema comes from Alembic migrations, and the code's table definitions match what they build."""

from __future__ import annotations

from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect as sa_inspect
from sqlalchemy import text

from desktop_app.store import migrate
from desktop_app.store.db import make_engine
from desktop_app.store.dialects import dialect_of
from desktop_app.store.schema import SEEDED_DEPARTMENTS, metadata


def test_upgrade_builds_the_declared_schema(empty_db_url: str) -> None:
    engine = make_engine(empty_db_url)
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


def test_a_schema_newer_than_the_program_is_refused_in_plain_words(empty_db_url: str, tmp_path: Path) -> None:
    from desktop_app.domain.errors import ErrorCode, PermanentError
    from tests.integration.test_cli import cli

    engine = make_engine(empty_db_url)
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
    # in a process of its own: the refused start leaves build_core's engine open (its process ends with it;
    # in this one, the connection it holds would be found unclosed when it is collected)
    code, _, err = cli("tasks", "--db", empty_db_url, check_json=False, process=True)
    assert code == 1 and len(err.strip().splitlines()) == 1 and "newer BatchDesk" in err, err


def test_upgrade_from_the_previous_schema_keeps_the_tasks(empty_db_url: str) -> None:
    _database_at(empty_db_url, "0004")  # a database made by the previous release
    engine = make_engine(empty_db_url)
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


def test_links_kept_in_the_summary_move_into_their_columns(empty_db_url: str) -> None:
    """0008: an undone import's, a resumed import's and a replaced export's links were summary keys; after
    the upgrade they read as the record's typed links, and the summary keeps only its other facts."""
    import json

    from sqlalchemy import select

    from desktop_app.store.schema import tasks, tasks_archive
    from desktop_app.store.task_rows import record_from_row

    engine = make_engine(empty_db_url)
    try:
        with engine.begin() as conn:
            from alembic import command

            command.upgrade(migrate._config(conn), "0007")
            rows = {"T000000-UNDONE": {"inserted_count": 3, "undone_by": "T000000-UNDO01"},
                    "T000000-RESUMD": {"resumed_by": "T000000-NEXT01"},
                    "T000000-EXPORT": {"expired": True, "replaced_by": "T000000-NEWER1"},
                    "T000000-PLAIN1": {"inserted_count": 5}}  # fmt: skip
            for table in ("tasks", "tasks_archive"):
                for n, (task_no, summary) in enumerate(rows.items(), start=1):
                    conn.execute(text(
                        f"INSERT INTO {table} (id, task_no, task_type, lane, params, status, progress, stage, "
                        "total_count, success_count, fail_count, creator, attempt, recoveries, retries, "
                        "cancel_requested, summary, created_at, updated_at) VALUES (:id, :no, 'import', 'long', "
                        "'{}', 'succeeded', 100, '', 0, 0, 0, 'alice', 1, 0, 0, false, :summary, "
                        "'2026-01-01 00:00:00', '2026-01-01 00:00:00')"),
                        {"id": n, "no": task_no, "summary": json.dumps(summary)})  # fmt: skip
        migrate.upgrade(engine)
        for table in (tasks, tasks_archive):
            with engine.connect() as conn:
                read = {r.task_no: record_from_row(r) for r in conn.execute(select(table)).all()}
            assert read["T000000-UNDONE"].undone_by == "T000000-UNDO01"
            assert read["T000000-UNDONE"].summary == {"inserted_count": 3}
            assert read["T000000-RESUMD"].resumed_by == "T000000-NEXT01" and read["T000000-RESUMD"].summary == {}
            assert read["T000000-EXPORT"].replaced_by == "T000000-NEWER1"
            assert read["T000000-EXPORT"].summary == {"expired": True}
            plain = read["T000000-PLAIN1"]
            assert (plain.undone_by, plain.resumed_by, plain.replaced_by) == (None, None, None)
            assert plain.summary == {"inserted_count": 5}
    finally:
        engine.dispose()


def test_upgrade_from_0008_adds_the_profile_tables_and_keeps_the_tasks(empty_db_url: str) -> None:
    """0009: a database at 0008 (the task links) gains the two empty profile tables; its tasks stay; a
    profile saves and reads back on it."""
    from desktop_app.domain.profiles import Profile
    from desktop_app.store.profiles import ProfileStore

    _database_at(empty_db_url, "0008")
    engine = make_engine(empty_db_url)
    try:
        with engine.connect() as conn:
            assert "batchdesk_profiles" not in sa_inspect(conn).get_table_names()
        migrate.upgrade(engine)
        assert migrate.current_revision(engine) == migrate.head_revision()
        with engine.connect() as conn:
            assert conn.execute(text("SELECT creator FROM tasks")).scalar() == "alice"
            for table in ("batchdesk_profiles", "batchdesk_profile_versions"):
                assert conn.execute(text(f"SELECT COUNT(*) FROM {table}")).scalar() == 0
        store = ProfileStore(engine)
        big = {f"旧名称{i:04d}": "金卡" for i in range(3000)}  # past MySQL's 64 KB TEXT: a MEDIUMTEXT holds it
        saved = store.save("east", Profile.from_dict({"type": "customers", "values": {"level": big}}), by="alice")
        assert saved.version == 1 and dict(store.get("east").profile.values["level"]) == big
        assert [v.name for v in store.list()] == ["east"]
    finally:
        engine.dispose()
