"""Team mode on PostgreSQL (issue 27, docs/TEAM.md): each clerk a database login, the server keeping each
clerk's rows to them. Two clerks and an administrator (roles of random names, dropped after) attack one
another through the command line (in-process) and with plain SQL under their own login; every attack
here is a row of docs/SECURITY.md's "Attacks tried"."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, text
from sqlalchemy.exc import DBAPIError

from desktop_app.domain.status import TaskStatus
from desktop_app.store import team as team_mode
from desktop_app.store.schema import tasks
from desktop_app.store.team_sql.postgresql import render
from tests.support.customers import row, write_csv
from tests.support.running import run_now
from tests.support.team_pg import Team, queue, secure_with_clerks, team_schema

STALE = (
    "UPDATE tasks SET status = 'running', owner = 'gone:1:1:aa', heartbeat_at = now() - interval '1 hour' "
    "WHERE task_no = :n"
)
# as the DBA: a feed of :n's, a file of that feed, a row image of :n's task
PLANTED = (
    "INSERT INTO feeds (name, name_key, folder, pattern, import_type, owner, created_at, updated_at) "
    "VALUES (:n, :n, '/in', '*.csv', 'customers', :n, now(), now())",
    "INSERT INTO feed_files (feed_id, name, size, mtime_ns, first_seen_at, state, created_at, updated_at) "
    "SELECT id, 'f.csv', 1, 1, now(), 'seen', now(), now() FROM feeds WHERE owner = :n",
    "INSERT INTO import_rows (task_no, key_text, row_number, action) "
    "SELECT task_no, 'k', 1, 'insert' FROM tasks WHERE creator = :n",
)
# another clerk's rows, changed with plain SQL: nothing matches
OTHERS_ROWS = (
    "UPDATE tasks SET status = 'cancelled' WHERE task_no = :n",
    "DELETE FROM tasks WHERE task_no = :n",
    "UPDATE import_rows SET key_text = 'x' WHERE task_no = :n",
    "DELETE FROM import_rows WHERE task_no = :n",
)
OWNED = ["feed_files", "feeds", "import_rows", "task_file_chunks", "task_files", "tasks", "tasks_archive"]
POLICIES = "SELECT tablename FROM pg_policies WHERE schemaname = :s ORDER BY tablename"
FORCED = (
    "SELECT relname FROM pg_class WHERE relnamespace = CAST(:s AS regnamespace) AND relrowsecurity "
    "AND relforcerowsecurity ORDER BY relname"
)


@pytest.fixture
def team(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Team]:
    """Secured, with two clerks (alice, bob: INSERT on customers) and an administrator (boss)."""
    with team_schema(tmp_path, monkeypatch) as made:
        secure_with_clerks(made)
        yield made


def dba_value(team: Team, sql: str, **params: Any) -> Any:
    with team.sql(None).connect() as conn:
        return conn.execute(text(sql), params).scalar_one()


# --- identity ------------------------------------------------------------------------------------


def test_a_task_is_its_logins_and_user_forging_is_refused(team: Team) -> None:
    hers = queue(team, "alice", 1)
    assert dba_value(team, "SELECT creator FROM tasks WHERE task_no = :n", n=hers["task_no"]) == team.name("alice")
    path = write_csv(team.tmp / "forged.csv", [row(2)])
    says = f"In team mode you are the database login '{team.name('alice')}'; --user is not used"
    team.refused("alice", "submit", str(path), "--type", "customers", "--user", team.name("bob"), says=says)
    team.refused("alice", "tasks", "--user", team.name("bob"), says=says)
    team.refused("alice", "status", hers["task_no"], "--user", team.name("bob"), says=says)
    team.refused("alice", "export", "customers", "--user", team.name("bob"), says=says)
    # her own name is no forgery
    assert team.ok("alice", "tasks", "--json", "--user", team.name("alice"))[0]["task_no"] == hers["task_no"]
    # below the command line: the submission path, then the server itself
    core = team.core("alice")
    assert core.login is not None and core.login.name == team.name("alice") and not core.login.is_admin
    from desktop_app.domain.errors import ErrorCode, PermanentError
    from desktop_app.imports.options import ImportOptions

    with pytest.raises(PermanentError) as refused:
        core.submitter().submit_import(ImportOptions(file=path, import_type="customers"), user=team.name("bob"))
    assert refused.value.code is ErrorCode.TEAM_USER_REFUSED
    with pytest.raises(DBAPIError, match="row-level security"):
        core.store.submit(task_type="import", params={"file": str(path)}, creator=team.name("bob"))


# --- what a clerk can reach of another's, through the command line ------------------------------------


def test_a_clerk_reaches_none_of_the_others_tasks_on_the_command_line(team: Team) -> None:
    hers, his = queue(team, "alice", 1), queue(team, "bob", 2)
    listed = team.ok("alice", "tasks", "--json")
    assert [t["task_no"] for t in listed] == [hers["task_no"]]
    assert [t["task_no"] for t in team.ok("bob", "tasks", "--json")] == [his["task_no"]]
    no_task = f"No task {his['task_no']}"
    for command in ("status", "cancel", "undo", "resume", "values", "references", "apply", "errors"):
        team.refused("alice", command, his["task_no"], says=no_task)
    team.refused("alice", "profile", "save", "p1", "--type", "customers", "--from-task", his["task_no"], says=no_task)
    team.refused("alice", "export", "customers", "--imported-by", his["task_no"], says=no_task)
    for ask in (("--all",), ("--creator", team.name("bob")), ("--archived", "--all")):
        team.refused("alice", "tasks", *ask, says="administrator")
    assert dba_value(team, "SELECT status FROM tasks WHERE task_no = :n", n=his["task_no"]) == "pending"


def test_the_administrator_sees_and_acts_on_every_clerks_tasks(team: Team) -> None:
    hers, his = queue(team, "alice", 1), queue(team, "bob", 2)
    everyone = {t["task_no"] for t in team.ok("boss", "tasks", "--json", "--all")}
    assert everyone == {hers["task_no"], his["task_no"]}
    assert [t["task_no"] for t in team.ok("boss", "tasks", "--json", "--user", team.name("bob"))] == [his["task_no"]]
    assert [t["task_no"] for t in team.ok("boss", "tasks", "--json", "--creator", team.name("alice"))] == [
        hers["task_no"]
    ]
    assert team.ok("boss", "status", hers["task_no"], "--json")["task_no"] == hers["task_no"]
    assert team.ok("boss", "cancel", his["task_no"], "--json")["status"] == "cancelled"
    assert team.ok("boss", "admin", "users", "--json")  # an administrator lists the logins


# --- the worker: a desk runs its own login's tasks only ----------------------------------------------


def test_a_desk_claims_and_recovers_only_its_own_logins_tasks(team: Team) -> None:
    hers, his = queue(team, "alice", 1), queue(team, "bob", 2)
    boss = team.core("boss")
    assert {t.task_no for t in boss.store.list()} >= {hers["task_no"], his["task_no"]}  # sees all ...
    assert boss.store.claim("boss-desk:1:1:aa", 10) == []  # ... and runs none of them
    alice = team.core("alice")
    assert [t.task_no for t in alice.store.claim("alice-desk:1:1:aa", 10)] == [hers["task_no"]]
    # bob's desk died mid-task: neither alice's desk nor the administrator's takes it over, bob's does
    with team.sql(None).connect() as conn:
        conn.execute(text(STALE), {"n": his["task_no"]})
    assert alice.store.recover_stale(60, 5) == []
    assert boss.store.recover_stale(60, 5) == []
    assert team.core("bob").store.recover_stale(60, 5) == [his["task_no"]]


def test_an_import_runs_with_its_owners_rights_and_keeps_its_rows_to_them(team: Team) -> None:
    hers = queue(team, "alice", 1)
    alice = team.core("alice")
    bounds = "SELECT text_bounds FROM business_tables WHERE name = 'customers'"
    assert dba_value(team, bounds) is None  # nothing imported yet
    ended = run_now(alice, alice.store.get(hers["task_no"]).id)  # type: ignore[union-attr]
    assert ended.status is TaskStatus.SUCCEEDED, (ended.error_code, ended.error_msg)
    # the row is in the table, written with alice's rights (INSERT), which hold no DELETE
    assert dba_value(team, "SELECT task_no FROM customers") == hers["task_no"]
    # the bounds on the table's stored texts kept by her desk (migration 0014: the table's grants cover them)
    assert dba_value(team, bounds) is not None
    _denied(team.sql("alice"), "DELETE FROM customers")
    # bob's desk cannot run it, even when asked for it by id
    assert team.core("bob").store.claim("bob-desk:1:1:aa", 1, only_ids=[ended.id]) == []


# --- plain SQL under each login ----------------------------------------------------------------------


def _denied(engine: Engine, sql: str, **params: Any) -> str:
    with engine.connect() as conn:
        try:
            conn.execute(text(sql), params)
        except DBAPIError as exc:
            return str(exc.orig)
    raise AssertionError(f"the server let this through: {sql}")


def test_plain_sql_under_a_clerks_login_reaches_only_their_own_rows(team: Team) -> None:
    hers, his = queue(team, "alice", 1), queue(team, "bob", 2)
    a, b = team.name("alice"), team.name("bob")
    alice = team.sql("alice")
    with team.sql(None).connect() as dba:  # a feed each, a file of each, an archived task of bob's
        for who in (a, b):
            for sql in PLANTED:
                dba.execute(text(sql), {"n": who})
        columns = ", ".join(c.name for c in tasks.columns)
        dba.execute(text(f"INSERT INTO tasks_archive ({columns}) SELECT {columns} FROM tasks WHERE task_no = :n"),
                    {"n": his["task_no"]})  # fmt: skip
        dba.execute(text("UPDATE tasks_archive SET task_no = 'TARCHIVED' WHERE task_no = :n"), {"n": his["task_no"]})
    with alice.connect() as conn:
        for table, owner in (("tasks", "creator"), ("tasks_archive", "creator"), ("feeds", "owner")):
            owners = set(conn.execute(text(f"SELECT {owner} FROM {table}")).scalars())
            assert owners <= {a}, (table, owners)
        assert conn.execute(text("SELECT count(*) FROM feed_files")).scalar_one() == 1
        assert conn.execute(text("SELECT task_no FROM import_rows")).scalars().all() == [hers["task_no"]]
        for change in OTHERS_ROWS:
            assert conn.execute(text(change), {"n": his["task_no"]}).rowcount == 0, change
        assert conn.execute(text(f"DELETE FROM feeds WHERE owner = '{b}'")).rowcount == 0
        assert conn.execute(text("DELETE FROM tasks_archive")).rowcount == 0
    # giving her own row away, or writing one in another's name: the policy's check refuses
    assert "row-level security" in _denied(alice, "UPDATE tasks SET creator = :b WHERE task_no = :n", b=b,
                                           n=hers["task_no"])  # fmt: skip
    assert "row-level security" in _denied(alice, "INSERT INTO import_rows (task_no, key_text, row_number, action) "
                                           "VALUES (:n, 'x', 9, 'insert')", n=his["task_no"])  # fmt: skip
    # the locks themselves, the other tables, the administrators' powers: refused by the server
    for sql in ("ALTER TABLE tasks DISABLE ROW LEVEL SECURITY", "DROP POLICY batchdesk_owner ON tasks",
                f'SET ROLE "{b}"', 'GRANT batchdesk_admin TO CURRENT_USER', "DELETE FROM customers",
                "INSERT INTO batchdesk_admins (name, added_by, added_at) VALUES ('x', 'x', now())",
                f"SELECT batchdesk_add_user('{b}', 'stolen', false)",
                f"SELECT batchdesk_grant('{a}', 'customers', ARRAY['DELETE'], true)"):  # fmt: skip
        _denied(alice, sql)
    with team.sql("bob").connect() as conn:  # bob's secret password is still unknown to alice: trust auth
        assert conn.execute(text("SELECT current_user")).scalar_one() == b


# --- rights per import type ---------------------------------------------------------------------------


def test_without_the_right_an_import_is_refused_before_it_is_queued(team: Team) -> None:
    bob = team.name("bob")
    path = write_csv(team.tmp / "b.csv", [row(5)])
    team.ok(None, "admin", "revoke", bob, "customers")
    assert "customers" not in [t["name"] for t in team.ok("bob", "types", "--json")]  # hidden
    team.refused("bob", "submit", str(path), "--type", "customers",
                 says="You may not change customers: ask an administrator for the right to read/insert")  # fmt: skip
    team.ok(None, "admin", "grant", bob, "customers")  # reading only
    assert "customers" in [t["name"] for t in team.ok("bob", "types", "--json")]
    team.refused("bob", "submit", str(path), "--type", "customers",
                 says="You may not change customers: ask an administrator for the right to insert")  # fmt: skip
    assert team.ok("bob", "tasks", "--json") == []  # nothing was queued
    granted = team.ok("boss", "admin", "grant", bob, "customers", "--insert", "--json")
    assert granted == [{"name": bob, "login": True, "admin": False, "rights": {"customers": ["select", "insert"]}}]
    team.refused("bob", "submit", str(path), "--type", "customers", "--mode", "upsert",
                 says="the right to update")  # fmt: skip
    assert team.ok("bob", "submit", str(path), "--type", "customers", "--json")["status"] == "pending"


def test_an_undo_needs_the_rights_it_uses_and_is_refused_before_it_is_queued(team: Team) -> None:
    """Undoing an insert deletes its rows (DELETE); an upsert's puts updated rows back too (UPDATE)."""
    alice = team.name("alice")
    hers = queue(team, "alice", 1)
    core = team.core("alice")
    assert run_now(core, core.store.get(hers["task_no"]).id).status is TaskStatus.SUCCEEDED  # type: ignore[union-attr]
    team.refused("alice", "undo", hers["task_no"],
                 says="You may not change customers: ask an administrator for the right to delete")  # fmt: skip
    assert [t["task_no"] for t in team.ok("alice", "tasks", "--json")] == [hers["task_no"]]  # nothing queued
    team.ok("boss", "admin", "grant", alice, "customers", "--update")
    path = write_csv(team.tmp / "upsert.csv", [row(1), row(2)])
    upsert = team.ok("alice", "submit", str(path), "--type", "customers", "--mode", "upsert", "--json")
    assert run_now(core, core.store.get(upsert["task_no"]).id).status is TaskStatus.SUCCEEDED  # type: ignore[union-attr]
    team.refused("alice", "undo", upsert["task_no"], says="the right to delete")
    team.ok("boss", "admin", "grant", alice, "customers", "--delete")
    team.ok("boss", "admin", "revoke", alice, "customers", "--update")
    team.refused("alice", "undo", upsert["task_no"], says="the right to update")
    assert team.ok("alice", "undo", hers["task_no"], "--json")["status"] == "pending"  # an insert's: DELETE
    # the administrator's undo of her import is the administrator's, with the administrator's rights
    assert team.ok("boss", "undo", upsert["task_no"], "--json")["creator"] == team.name("boss")


def test_only_an_administrator_adds_logins_and_grants_rights(team: Team) -> None:
    carol = team.name("carol")
    team.refused("alice", "admin", "add-user", carol, says="administrator")
    team.refused("alice", "admin", "grant", team.name("alice"), "customers", "--delete", says="administrator")
    team.refused("alice", "admin", "users", says="administrator")
    # the administrator is no superuser: the server's SECURITY DEFINER functions do it for them
    code, made, err = team.cli("boss", "admin", "add-user", carol, "--password-stdin", "--json", stdin="s3cret\n")
    assert code == 0, err
    assert made == {"name": carol, "created": True, "admin": False, "password": None}
    # ... but only over BatchDesk's clerks and import types' tables
    code, _, err = team.cli("boss", "admin", "add-user", "postgres")
    assert code == 1 and "does not allow this account" in err and "not a BatchDesk clerk" in err, err
    assert "internal error" not in err
    # securing (again) is the DBA's: a clerk is refused by the server, in words
    code, _, err = team.cli("alice", "admin", "secure")
    assert code == 1 and "does not allow this account" in err, err
    code, _, err = team.cli("boss", "admin", "grant", carol, "tasks", "--delete")
    assert code == 2 and "tasks" in err, err  # not an import type; and the server's function says no too:
    assert "BatchDesk's own table" in _denied(team.sql("boss"), f"SELECT batchdesk_grant('{carol}', 'tasks', "
                                              "ARRAY['DELETE'], true)")  # fmt: skip
    assert "not a right" in _denied(team.sql("boss"), f"SELECT batchdesk_grant('{carol}', 'customers', "
                                    "ARRAY['TRUNCATE'], true)")  # fmt: skip


# --- securing: an existing database, the printed script -------------------------------------------------


def test_securing_an_existing_team_database_keeps_every_task_and_makes_roles_to_claim(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with team_schema(tmp_path, monkeypatch) as made:
        a, b = made.name("alice"), made.name("bob")
        before = {}
        for who, i in ((a, 1), (b, 2)):  # the shared login's era: --user names the clerk
            path = write_csv(tmp_path / f"{i}.csv", [row(i)])
            before[who] = made.ok(None, "submit", str(path), "--type", "customers", "--json", "--user", who)
        assert made.core(None).login is None  # not secured: as before
        made.refused(None, "admin", "add-user", a, says="not in team mode")
        out = made.ok(None, "admin", "secure")
        assert f"{a}: a role to claim" in out and f"{b}: a role to claim" in out
        assert made.ok(None, "admin", "secure").count("a role to claim") == 0  # again: nothing changes
        users = {u["name"]: u for u in made.ok(None, "admin", "users", "--json")}
        assert users[a]["login"] is False and users[b]["login"] is False
        made.ok(None, "admin", "add-user", a)  # alice claims her name
        listed = made.ok("alice", "tasks", "--json")
        assert [t["task_no"] for t in listed] == [before[a]["task_no"]]
        with made.sql(None).connect() as conn:
            assert conn.execute(text("SELECT count(*) FROM tasks")).scalar_one() == 2
        code, _, err = made.cli("bob", "tasks")  # not claimed yet: the server refuses the login
        assert code != 0 and "not permitted to log in" in err, err


def test_the_printed_script_secures_a_schema_as_admin_secure_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with team_schema(tmp_path, monkeypatch) as by_hand:
        script = by_hand.ok(None, "admin", "secure", "--print-sql")
        assert script.startswith("BEGIN;") and script.rstrip().endswith("COMMIT;")
        engine = by_hand.sql(None)
        with engine.connect() as conn:
            raw = conn.connection.cursor()
            raw.execute(script)  # as a DBA runs it in psql
            raw.execute(script)  # and again: nothing changes, nothing fails
            raw.close()
            schema = conn.execute(text("SELECT current_schema()")).scalar_one()
            policies = conn.execute(text(POLICIES), {"s": schema}).all()
            forced = conn.execute(text(FORCED), {"s": schema}).all()
        assert [p.tablename for p in policies] == OWNED
        assert [f.relname for f in forced] == OWNED
        assert script == "BEGIN;\n" + render(schema) + "COMMIT;\n"  # the same SQL admin secure runs
        assert team_mode.detect(by_hand.core(None).store.engine) is not None  # team mode, as the server says


def test_a_workbook_and_its_sheets_are_the_logins_and_need_its_rights(team: Team) -> None:
    from tests.support.customers import HEADER
    from tests.support.workbooks import write_book

    book = write_book(team.tmp / "book.xlsx", [("客户", HEADER, [row(7)])])
    parent = team.ok("alice", "import", str(book), "--all-sheets", "--json")
    with team.sql(None).connect() as conn:
        queued = conn.execute(text("SELECT task_type, creator FROM tasks ORDER BY id")).all()
    assert parent["status"] == "pending" and len(queued) == 2, queued  # the workbook and its one sheet
    assert {creator for _, creator in queued} == {team.name("alice")}
    team.refused("alice", "import", str(book), "--all-sheets", "--user", team.name("bob"), says="--user is not used")
    team.ok(None, "admin", "revoke", team.name("bob"), "customers", "--insert")
    team.refused("bob", "import", str(book), "--all-sheets", says="You may not change customers")
