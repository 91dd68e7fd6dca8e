"""Team mode's error CSVs and change files (issue 27, docs/TEAM.md): kept in the shared database under the
same rules as the task's row. Clerk alice's import ends on her desk; on another desk of hers (another data
folder, the local file gone) she gets it byte for byte, through `batchdesk errors` and through the Qt-free
function; clerk bob gets nothing of it (the command's words, plain SQL under his login); the administrator
gets it. On PostgreSQL and MariaDB, with the team fixtures of test_team_logins_*."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from desktop_app.app import build_core
from desktop_app.domain.task import TaskRecord
from desktop_app.store import task_files as stored_files
from desktop_app.store.task_files import FileKind
from desktop_app.tasks.task_files import FETCHED, local_path
from tests.integration import test_team_logins_mariadb as mariadb_team
from tests.integration import test_team_logins_pg as pg_team
from tests.support.customers import row, write_csv
from tests.support.running import run_now


@pytest.fixture(params=["postgresql", "mariadb"])
def team(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """Secured, with two clerks (alice, bob: INSERT on customers) and an administrator (boss)."""
    monkeypatch.setattr(stored_files, "CHUNK_BYTES", 256)  # a few error rows span several chunks
    if request.param == "postgresql":
        with pg_team.team_schema(tmp_path, monkeypatch) as made:
            made.ok(None, "admin", "secure")
            for who in ("alice", "bob"):
                made.ok(None, "admin", "add-user", made.name(who))
                made.ok(None, "admin", "grant", made.name(who), "customers", "--insert")
            made.ok(None, "admin", "add-user", made.name("boss"), "--admin")
            yield made
    else:
        with mariadb_team.team_database(tmp_path, monkeypatch) as made:
            made.ok(None, "admin", "secure")
            for who in ("alice", "bob"):
                made.add(who)
                made.ok(None, "admin", "grant", made.name(who), "customers", "--insert")
            made.add("boss", "--admin")
            yield made


def _ended(team: Any, *flags: str) -> tuple[TaskRecord, Path, bytes]:
    """Alice's import of 2 good rows and 6 bad ones, run to its end on her desk: (task, file, its bytes)."""
    rows = [row(1), row(2)] + [row(10 + i, 手机号=f"bad-{i}") for i in range(6)]
    path = write_csv(team.tmp / f"alice{'-'.join(flags)}.csv", rows)
    queued = team.ok("alice", "submit", str(path), "--type", "customers", "--json", *flags)
    desk = team.core("alice")
    ended = run_now(desk, desk.store.get(queued["task_no"]).id)
    assert ended.status.is_final and ended.fail_count == 6, (ended.status, ended.error_msg)
    recorded = ended.error_csv if not flags else ended.summary.get("changes_csv")
    assert recorded and Path(recorded).is_file(), ended.summary
    return ended, Path(recorded), Path(recorded).read_bytes()


def _rows(team: Any, who: str | None, sql: str) -> list[Any]:
    with team.sql(who).connect() as conn:
        return list(conn.execute(text(sql)).all())


def _changed(team: Any, who: str, sql: str) -> int:
    with team.sql(who).connect() as conn:
        return int(conn.execute(text(sql)).rowcount)


def _check(team: Any, kind: FileKind, *flags: str) -> None:
    task, local, content = _ended(team, *flags)
    task_no = task.task_no
    mine_sql = f"SELECT id, chunks FROM task_files WHERE task_no = '{task_no}' AND kind = '{kind.value}'"
    file_ids = _rows(team, None, mine_sql)
    assert len(file_ids) == 1 and file_ids[0].chunks > 2, file_ids  # stored at the end, in several chunks
    # the desk that ran it opens its own file, a clerk's edits kept; a desk elsewhere opens the stored one
    ran = team.core("alice")
    record = ran.store.get(task_no)
    assert record is not None
    local.write_bytes(content + b"edited by the clerk\r\n")
    assert local_path(ran.store, ran.paths.data_dir, record, kind) == local
    elsewhere = dataclasses.replace(record, host="another-desk")
    fetched_elsewhere = local_path(ran.store, ran.paths.data_dir, elsewhere, kind)
    assert fetched_elsewhere is not None and fetched_elsewhere.read_bytes() == content
    local.unlink()  # the desk that ran it is out of reach
    changes = ["--changes"] if kind is FileKind.CHANGES else []

    # alice, another desk: the command writes it where she asks, and the Qt-free function fetches it
    saved = team.tmp / f"alice-saved-{kind.value}.csv"
    team.ok("alice", "errors", task_no, *changes, "--save", str(saved))
    assert saved.read_bytes() == content
    other = build_core(data_dir=team.tmp / "alice-desk-2", db_url=team.url_of("alice"),
                       overrides={"daily_cleanup": False})  # fmt: skip
    team.cores.append(other)
    mine = other.store.get(task_no)
    assert mine is not None
    fetched = local_path(other.store, other.paths.data_dir, mine, kind)
    assert fetched is not None and fetched.read_bytes() == content
    assert fetched.is_relative_to(other.paths.data_dir / FETCHED)
    assert (fetched.stat().st_mode & 0o077) == 0 and (fetched.parent.stat().st_mode & 0o077) == 0

    # bob: no such task of his, in words; and plain SQL shows him none of it, nor lets him add to it
    team.refused("bob", "errors", task_no, *changes, "--save", str(team.tmp / "bob.csv"), says=f"No task {task_no}")
    assert not (team.tmp / "bob.csv").exists()
    assert _rows(team, "bob", "SELECT * FROM task_files") == []
    assert _rows(team, "bob", "SELECT file_id, chunk_no FROM task_file_chunks") == []
    with pytest.raises(DBAPIError):
        _rows(team, "bob", f"INSERT INTO task_file_chunks (file_id, chunk_no, data) VALUES ({file_ids[0].id}, 99, 'x')")
    for sql in (f"UPDATE task_files SET creator = 'x', size = 0 WHERE task_no = '{task_no}'",
                f"DELETE FROM task_files WHERE task_no = '{task_no}'",
                f"UPDATE task_file_chunks SET data = 'x' WHERE file_id = {file_ids[0].id}",
                f"DELETE FROM task_file_chunks WHERE file_id = {file_ids[0].id}"):  # fmt: skip
        assert _changed(team, "bob", sql) == 0, sql
    assert _rows(team, None, f"SELECT creator FROM task_files WHERE id = {file_ids[0].id}")[0].creator == team.name(
        "alice"
    )
    bob = team.core("bob")
    assert local_path(bob.store, bob.paths.data_dir, mine, kind) is None  # even given alice's row

    # the administrator gets it
    boss_saved = team.tmp / f"boss-{kind.value}.csv"
    team.ok("boss", "errors", task_no, *changes, "--save", str(boss_saved))
    assert boss_saved.read_bytes() == content


def test_an_error_csv_is_its_owners_and_the_administrators_from_any_desk(team: Any) -> None:
    _check(team, FileKind.ERRORS)
    # an import that is no dry run has no change file: said in words
    (task_no,) = _rows(team, None, "SELECT task_no FROM tasks")[0]
    team.refused("alice", "errors", task_no, "--changes", says=f"Task {task_no} has no change file")


def test_a_dry_runs_change_file_is_its_owners_and_the_administrators_from_any_desk(team: Any) -> None:
    _check(team, FileKind.CHANGES, "--dry-run")


def test_a_schema_secured_before_0013_gets_the_new_tables_rules_from_the_migration(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """PostgreSQL: a team schema secured by the previous version (no task_files yet) and then migrated by
    its DBA has the new tables guarded at once (row-level security, forced, the owner's policy; the
    clerks' grants), before anyone runs `admin secure` again."""
    from alembic import command

    from desktop_app.store import migrate
    from desktop_app.store import team as team_mode
    from desktop_app.store.db import make_engine
    from desktop_app.store.schema import own_tables, task_file_chunks, task_files
    from desktop_app.store.team_sql import postgresql as pg
    from tests.support.backends import fresh_database

    new = (task_files, task_file_chunks)
    with fresh_database("postgresql", tmp_path) as url:
        engine = make_engine(url)
        try:
            with engine.begin() as conn:
                command.upgrade(migrate._config(conn), "0012")
            with monkeypatch.context() as old:  # the previous version's script: no task_files in it
                old.setattr(pg, "OWNED_ROWS", tuple(t for t in pg.OWNED_ROWS if t not in new))
                old.setattr(pg, "own_tables", lambda: [t for t in own_tables() if t not in new])
                team_mode.secure(engine)
            migrate.upgrade(engine)
            with engine.connect() as conn:
                schema = conn.execute(text("SELECT current_schema()")).scalar_one()
                policies = conn.execute(text(pg_team.POLICIES), {"s": schema}).scalars().all()
                forced = conn.execute(text(pg_team.FORCED), {"s": schema}).scalars().all()
                granted = conn.execute(text("SELECT has_table_privilege('batchdesk_clerk', 'task_files', 'SELECT') "
                                            "AND has_table_privilege('batchdesk_clerk', 'task_file_chunks', "
                                            "'INSERT')")).scalar_one()  # fmt: skip
            assert {"task_files", "task_file_chunks"} <= set(policies) and {"task_files", "task_file_chunks"} <= set(
                forced
            )
            assert granted
            team_mode.secure(engine)  # and securing again changes nothing, fails nothing
        finally:
            engine.dispose()
