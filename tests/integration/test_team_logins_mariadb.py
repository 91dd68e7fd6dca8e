"""Team mode on MariaDB (issue 27, docs/TEAM.md): each clerk a database account, DEFINER views keeping each
clerk's rows to them. Two clerks and an administrator (accounts of random names, dropped after) attack one
another through the command line (in-process) and with plain SQL under their own account; every attack
here is a row of docs/SECURITY.md's "Attacks tried" (MariaDB)."""

from __future__ import annotations

import contextlib
import secrets
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError

from desktop_app.app import Core, build_core
from desktop_app.domain.status import TaskStatus
from desktop_app.store import team as team_mode
from desktop_app.store.schema import tasks
from desktop_app.store.team_sql.mysql import own_database, render
from tests.support.backends import MYSQL_URL, fresh_database
from tests.support.customers import row, write_csv
from tests.support.running import run_now
from tests.support.team_pg import cli_at

STALE = (
    "UPDATE tasks SET status = 'running', owner = 'gone:1:1:aa', heartbeat_at = UTC_TIMESTAMP() - INTERVAL 1 HOUR "
    "WHERE task_no = :n"
)
# as the DBA: a feed of :n's, a file of that feed, a row image of :n's task
PLANTED = (
    "INSERT INTO feeds (name, name_key, folder, pattern, import_type, owner, created_at, updated_at) "
    "VALUES (:n, :n, '/in', '*.csv', 'customers', :n, UTC_TIMESTAMP(), UTC_TIMESTAMP())",
    "INSERT INTO feed_files (feed_id, name, size, mtime_ns, first_seen_at, state, created_at, updated_at) "
    "SELECT id, 'f.csv', 1, 1, UTC_TIMESTAMP(), 'seen', UTC_TIMESTAMP(), UTC_TIMESTAMP() FROM feeds WHERE owner = :n",
    "INSERT INTO import_rows (task_no, key_text, `row_number`, action) "
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
CHECKED_VIEWS = (
    "SELECT TABLE_NAME FROM information_schema.VIEWS WHERE TABLE_SCHEMA = :d AND SECURITY_TYPE = 'DEFINER' "
    "AND CHECK_OPTION = 'CASCADED' ORDER BY TABLE_NAME"
)
CHECK_FAILED = "CHECK OPTION failed"


@dataclass
class Team:
    """A secured database: its DBA's URL (root), and an account per person (alice, bob, boss)."""

    url: str
    prefix: str
    tmp: Path
    engines: list[Engine] = field(default_factory=list)
    cores: list[Core] = field(default_factory=list)

    @property
    def database(self) -> str:
        return str(make_url(self.url).database)

    def name(self, who: str) -> str:
        return f"{self.prefix}_{who}"

    def password(self, who: str) -> str:
        return f"pw-{self.prefix}-{who}"

    def url_of(self, who: str | None) -> str:
        if who is None:
            return self.url
        url = make_url(self.url).set(username=self.name(who), password=self.password(who))
        return url.render_as_string(hide_password=False)

    def cli(self, who: str | None, *args: str, stdin: str = "") -> tuple[int, Any, str]:
        """The command line in this process, as `who` (None: the DBA): (exit code, JSON or text, stderr)."""
        return cli_at(self.url_of(who), args, stdin)

    def ok(self, who: str | None, *args: str, stdin: str = "") -> Any:
        code, data, err = self.cli(who, *args, stdin=stdin)
        assert code == 0, (args, code, err)
        return data

    def add(self, who: str, *flags: str) -> None:
        """An account for `who`, with its known password (MariaDB always asks for one)."""
        self.ok(None, "admin", "add-user", self.name(who), "--password-stdin", *flags, stdin=self.password(who) + "\n")

    def refused(self, who: str | None, *args: str, says: str) -> str:
        """Refused in one plain line, exit 2, naming `says`."""
        code, data, err = self.cli(who, *args)
        assert code == 2, (args, code, data, err)
        assert len(err.strip().splitlines()) == 1 and err.startswith("batchdesk: "), err
        assert says in err, err
        return err

    def core(self, who: str | None) -> Core:
        core = build_core(data_dir=self.tmp / f"desk-{who}", db_url=self.url_of(who),
                          overrides={"daily_cleanup": False})  # fmt: skip
        self.cores.append(core)
        return core

    def sql(self, who: str | None) -> Engine:
        """A plain engine as `who`: the account's own SQL, no BatchDesk in between."""
        engine = create_engine(self.url_of(who), isolation_level="AUTOCOMMIT")
        self.engines.append(engine)
        return engine


def _drop_accounts(names: list[str], own: str) -> None:
    admin = create_engine(MYSQL_URL, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            for name in names:
                hosts = conn.execute(text("SELECT Host FROM mysql.global_priv WHERE User = :n"), {"n": name}).scalars()
                for host in list(hosts):
                    conn.execute(text("DROP USER :n@:h"), {"n": name, "h": host})
            conn.execute(text(f"DROP DATABASE IF EXISTS `{own}`"))
    finally:
        admin.dispose()


@contextlib.contextmanager
def team_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Team]:
    """A migrated database, not yet secured; the accounts of random names it makes (and the database the
    tables move to) are dropped afterwards."""
    monkeypatch.setenv("BATCHDESK_HOME", str(tmp_path / "home"))
    with fresh_database("mariadb", tmp_path) as url:
        made = Team(url, "bd" + secrets.token_hex(4), tmp_path)
        try:
            made.core(None)  # migrates, as the DBA
            yield made
        finally:
            for core in made.cores:
                core.close()
            for engine in made.engines:
                engine.dispose()
            _drop_accounts([made.name(w) for w in ("alice", "bob", "boss", "carol")], own_database(made.database))


@pytest.fixture
def team(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Team]:
    """Secured, with two clerks (alice, bob: INSERT on customers) and an administrator (boss)."""
    with team_database(tmp_path, monkeypatch) as made:
        made.ok(None, "admin", "secure")
        for who in ("alice", "bob"):
            made.add(who)
            made.ok(None, "admin", "grant", made.name(who), "customers", "--insert")
        made.add("boss", "--admin")
        made.ok(None, "admin", "grant", made.name("boss"), "customers", "--insert", "--update", "--delete")
        yield made


def dba_value(team: Team, sql: str, **params: Any) -> Any:
    with team.sql(None).connect() as conn:
        return conn.execute(text(sql), params).scalar_one()


def queue(team: Team, who: str, i: int) -> dict[str, Any]:
    path = write_csv(team.tmp / f"{who}-{i}.csv", [row(i)])
    task = team.ok(who, "submit", str(path), "--type", "customers", "--json")
    assert isinstance(task, dict) and task["status"] == "pending"
    return task


def _denied(engine: Engine, sql: str, **params: Any) -> str:
    with engine.connect() as conn:
        try:
            conn.execute(text(sql), params)
        except DBAPIError as exc:
            return str(exc.orig)
    raise AssertionError(f"the server let this through: {sql}")


# --- identity ------------------------------------------------------------------------------------


def test_a_task_is_its_accounts_and_user_forging_is_refused(team: Team) -> None:
    hers = queue(team, "alice", 1)
    assert dba_value(team, "SELECT creator FROM tasks WHERE task_no = :n", n=hers["task_no"]) == team.name("alice")
    path = write_csv(team.tmp / "forged.csv", [row(2)])
    says = f"In team mode you are the database login '{team.name('alice')}'; --user is not used"
    team.refused("alice", "submit", str(path), "--type", "customers", "--user", team.name("bob"), says=says)
    team.refused("alice", "tasks", "--user", team.name("bob"), says=says)
    team.refused("alice", "status", hers["task_no"], "--user", team.name("bob"), says=says)
    team.refused("alice", "export", "customers", "--user", team.name("bob"), says=says)
    assert team.ok("alice", "tasks", "--json", "--user", team.name("alice"))[0]["task_no"] == hers["task_no"]
    core = team.core("alice")
    assert core.login is not None and core.login.name == team.name("alice") and not core.login.is_admin
    from desktop_app.domain.errors import ErrorCode, PermanentError
    from desktop_app.imports.options import ImportOptions

    with pytest.raises(PermanentError) as refused:
        core.submitter().submit_import(ImportOptions(file=path, import_type="customers"), user=team.name("bob"))
    assert refused.value.code is ErrorCode.TEAM_USER_REFUSED
    # below BatchDesk: the view's CHECK OPTION refuses a row in another's name
    with pytest.raises(DBAPIError, match=CHECK_FAILED):
        core.store.submit(task_type="import", params={"file": str(path)}, creator=team.name("bob"))


# --- what a clerk can reach of another's, through the command line ------------------------------------


def test_a_clerk_reaches_none_of_the_others_tasks_on_the_command_line(team: Team) -> None:
    hers, his = queue(team, "alice", 1), queue(team, "bob", 2)
    assert [t["task_no"] for t in team.ok("alice", "tasks", "--json")] == [hers["task_no"]]
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
    listed = {u["name"]: u for u in team.ok("boss", "admin", "users", "--json")}
    assert listed[team.name("boss")]["admin"] is True and listed[team.name("alice")]["admin"] is False
    assert listed[team.name("alice")]["rights"] == {"customers": ["select", "insert"]}


# --- the worker: a desk runs its own account's tasks only ----------------------------------------------


def test_a_desk_claims_and_recovers_only_its_own_accounts_tasks(team: Team) -> None:
    hers, his = queue(team, "alice", 1), queue(team, "bob", 2)
    boss = team.core("boss")
    assert {t.task_no for t in boss.store.list()} >= {hers["task_no"], his["task_no"]}  # sees all ...
    assert boss.store.claim("boss-desk:1:1:aa", 10) == []  # ... and runs none of them
    alice = team.core("alice")
    # the claim (SELECT ... FOR UPDATE SKIP LOCKED, then UPDATE) through the view: a row another of her
    # connections holds is skipped, not waited for
    second = queue(team, "alice", 3)
    started = time.monotonic()
    holding = create_engine(team.url_of("alice"))  # not AUTOCOMMIT: the lock is held to the end of the block
    team.engines.append(holding)
    with holding.connect() as holder, holder.begin():
        holder.execute(text("SELECT id FROM tasks WHERE task_no = :n FOR UPDATE"), {"n": hers["task_no"]}).all()
        assert [t.task_no for t in alice.store.claim("alice-desk:1:1:aa", 10)] == [second["task_no"]]
    assert time.monotonic() - started < 5
    assert [t.task_no for t in alice.store.claim("alice-desk:1:1:aa", 10)] == [hers["task_no"]]
    with team.sql(None).connect() as conn:
        conn.execute(text(STALE), {"n": his["task_no"]})
    assert alice.store.recover_stale(60, 5) == []
    assert boss.store.recover_stale(60, 5) == []
    assert team.core("bob").store.recover_stale(60, 5) == [his["task_no"]]


def test_an_import_runs_with_its_owners_rights_by_the_bulk_path(team: Team, monkeypatch: pytest.MonkeyPatch) -> None:
    from desktop_app.imports.bulk import choice

    loaded: list[str] = []

    class Spy(choice.BulkLoader):  # type: ignore[misc,valid-type]
        def _load_data(self, conn: Any, rows: Any, csv: Any) -> int:
            done = int(super()._load_data(conn, rows, csv))
            loaded.append(f"{self.table}:{done}")
            return done

    monkeypatch.setattr(choice, "BulkLoader", Spy)
    path = write_csv(team.tmp / "many.csv", [row(i) for i in range(1, 51)])
    hers = team.ok("alice", "submit", str(path), "--type", "customers", "--json")
    alice = team.core("alice")
    ended = run_now(alice, alice.store.get(hers["task_no"]).id)  # type: ignore[union-attr]
    assert ended.status is TaskStatus.SUCCEEDED, (ended.error_code, ended.error_msg)
    assert loaded and sum(int(x.split(":")[1]) for x in loaded) == 50, loaded  # LOAD DATA LOCAL INFILE
    assert dba_value(team, "SELECT COUNT(*) FROM customers WHERE task_no = :n", n=hers["task_no"]) == 50
    _denied(team.sql("alice"), "DELETE FROM customers")  # her INSERT holds no DELETE
    assert team.core("bob").store.claim("bob-desk:1:1:aa", 1, only_ids=[ended.id]) == []
    # her undo deletes the rows she inserted: refused before it is queued while she holds no DELETE
    team.refused("alice", "undo", hers["task_no"],
                 says="You may not change customers: ask an administrator for the right to delete")  # fmt: skip
    team.ok(None, "admin", "grant", team.name("alice"), "customers", "--insert", "--delete")
    # her undo: the row images (import_rows) through the view, the rows deleted with her own rights
    undo = team.ok("alice", "undo", hers["task_no"], "--json")
    assert undo["creator"] == team.name("alice")
    ended = run_now(alice, alice.store.get(undo["task_no"]).id)  # type: ignore[union-attr]
    assert ended.status is TaskStatus.SUCCEEDED, (ended.error_code, ended.error_msg)
    assert dba_value(team, "SELECT COUNT(*) FROM customers WHERE task_no = :n", n=hers["task_no"]) == 0


def test_a_view_made_before_the_text_bounds_leaves_imports_scanning(team: Team) -> None:
    """Migration 0014 adds business_tables.text_bounds; a team's views are made again by `admin secure`
    (docs/TEAM.md). Until then a clerk's import reads no bounds through the old view, scans as before, and
    succeeds; after it, the bounds are kept through the view."""
    own = own_database(team.database)
    with team.sql(None).begin() as conn:
        conn.execute(text(f"CREATE OR REPLACE ALGORITHM = MERGE DEFINER = CURRENT_USER SQL SECURITY DEFINER VIEW "
                          f"`{team.database}`.business_tables AS SELECT name, import_type, created_at "
                          f"FROM `{own}`.business_tables"))  # fmt: skip
    bounds = f"SELECT text_bounds FROM `{own}`.business_tables WHERE name = 'customers'"
    alice = team.core("alice")
    for i, secured in ((1, False), (2, True)):
        if secured:
            team.ok(None, "admin", "secure")
        hers = queue(team, "alice", 100 + i)
        ended = run_now(alice, alice.store.get(hers["task_no"]).id)  # type: ignore[union-attr]
        assert ended.status is TaskStatus.SUCCEEDED, (ended.error_code, ended.error_msg)
        kept = dba_value(team, bounds)
        assert (kept is not None) is secured, kept


def test_an_upserts_undo_needs_update_and_delete(team: Team) -> None:
    alice = team.name("alice")
    team.ok(None, "admin", "grant", alice, "customers", "--insert", "--update")
    path = write_csv(team.tmp / "upsert.csv", [row(1), row(2)])
    upsert = team.ok("alice", "submit", str(path), "--type", "customers", "--mode", "upsert", "--json")
    core = team.core("alice")
    assert run_now(core, core.store.get(upsert["task_no"]).id).status is TaskStatus.SUCCEEDED  # type: ignore[union-attr]
    team.refused("alice", "undo", upsert["task_no"], says="the right to delete")
    team.ok(None, "admin", "grant", alice, "customers", "--delete")
    team.ok(None, "admin", "revoke", alice, "customers", "--update")
    team.refused("alice", "undo", upsert["task_no"], says="the right to update")
    assert team.ok("boss", "undo", upsert["task_no"], "--json")["creator"] == team.name("boss")


def test_upserts_and_updates_through_the_views(team: Team, monkeypatch: pytest.MonkeyPatch) -> None:
    """The task store's idempotent writes (an INSERT, the unique index's duplicate key caught, the row
    read back) and plain UPDATEs through the views, by a clerk: the same file queued twice is one task;
    a profile saved twice; a cancel."""
    hers = queue(team, "alice", 1)
    again = team.ok("alice", "submit", str(team.tmp / "alice-1.csv"), "--type", "customers", "--json")
    assert again["task_no"] == hers["task_no"]
    from desktop_app.domain.task import Lane

    store = team.core("alice").store
    first = store.submit(task_type="import", params={}, creator=team.name("alice"), lane=Lane.SHORT, biz_key="k1")
    assert isinstance(first.task.id, int) and first.task.id > 0  # AUTO_INCREMENT through the view
    looked: list[str] = []
    find_active = store._find_active

    def misses_once(key: str) -> Any:  # the quick look-up misses once: the unique index decides
        looked.append(key)
        return None if len(looked) == 1 else find_active(key)

    monkeypatch.setattr(store, "_find_active", misses_once)
    second = store.submit(task_type="import", params={}, creator=team.name("alice"), lane=Lane.SHORT, biz_key="k1")
    assert second.duplicate_of == first.task.task_no and len(looked) == 2  # the duplicate key, through the view
    for _ in range(2):
        team.ok("alice", "profile", "save", "mine", "--type", "customers", "--from-task", hers["task_no"])
    assert team.ok("alice", "cancel", hers["task_no"], "--json")["status"] == "cancelled"


# --- plain SQL under each account ----------------------------------------------------------------------


def test_plain_sql_under_a_clerks_account_reaches_only_their_own_rows(team: Team) -> None:
    hers, his = queue(team, "alice", 1), queue(team, "bob", 2)
    a, b = team.name("alice"), team.name("bob")
    own = own_database(team.database)
    alice = team.sql("alice")
    with team.sql(None).connect() as dba:  # a feed each, a file of each, an archived task of bob's
        for who in (a, b):
            for sql in PLANTED:
                dba.execute(text(sql), {"n": who})
        columns = ", ".join(c.name for c in tasks.columns)
        dba.execute(text(f"INSERT INTO tasks_archive ({columns}) SELECT {columns} FROM tasks WHERE task_no = :n"),
                    {"n": his["task_no"]})  # fmt: skip
        dba.execute(text("UPDATE tasks_archive SET task_no = 'TARCHIVED' WHERE task_no = :n"), {"n": his["task_no"]})
        # a task of an account whose name differs from hers only in case (the tables compare case-blind)
        copied = [c.name for c in tasks.columns if c.name != "id"]
        values = {"task_no": "'TCASE'", "creator": ":c", "active_key": "NULL"}
        picked = ", ".join(values.get(c, c) for c in copied)
        dba.execute(text(f"INSERT INTO tasks ({', '.join(copied)}) SELECT {picked} FROM tasks WHERE task_no = :n"),
                    {"c": a.upper(), "n": hers["task_no"]})  # fmt: skip
    with alice.connect() as conn:
        for table, owner in (("tasks", "creator"), ("tasks_archive", "creator"), ("feeds", "owner")):
            owners = set(conn.execute(text(f"SELECT {owner} FROM {table}")).scalars())
            assert owners <= {a} and (table != "tasks" or owners == {a}), (table, owners)
        assert conn.execute(text("SELECT COUNT(*) FROM tasks WHERE task_no = 'TCASE'")).scalar_one() == 0
        assert conn.execute(text("SELECT count(*) FROM feed_files")).scalar_one() == 1
        assert conn.execute(text("SELECT task_no FROM import_rows")).scalars().all() == [hers["task_no"]]
        for change in OTHERS_ROWS:
            assert conn.execute(text(change), {"n": his["task_no"]}).rowcount == 0, change
        assert conn.execute(text(f"DELETE FROM feeds WHERE owner = '{b}'")).rowcount == 0
        assert conn.execute(text("DELETE FROM tasks_archive")).rowcount == 0
    # giving her own row away, or writing one in another's name: the views' CHECK OPTION refuses
    assert CHECK_FAILED in _denied(alice, "UPDATE tasks SET creator = :b WHERE task_no = :n", b=b, n=hers["task_no"])
    assert CHECK_FAILED in _denied(alice, "INSERT INTO import_rows (task_no, key_text, `row_number`, action) "
                                   "VALUES (:n, 'x', 9, 'insert')", n=his["task_no"])  # fmt: skip
    # the tables themselves, the locks, the other tables, the administrators' powers: refused by the server
    for sql in (f"SELECT * FROM {own}.tasks", f"DELETE FROM {own}.tasks", f"UPDATE {own}.feeds SET owner = 'x'",
                f"INSERT INTO {own}.batchdesk_team_admins VALUES ('{a}', 'x', UTC_TIMESTAMP())",
                "DROP VIEW tasks", f"CREATE OR REPLACE VIEW tasks AS SELECT * FROM {own}.tasks",
                "ALTER TABLE tasks ADD COLUMN x INT", "SET ROLE batchdesk_admin",
                "GRANT batchdesk_admin TO CURRENT_USER", "DELETE FROM customers",
                "INSERT INTO batchdesk_admins (name, added_by, added_at) VALUES ('x', 'x', UTC_TIMESTAMP())",
                "SELECT * FROM batchdesk_team_users", "SELECT * FROM batchdesk_team_rights",
                f"CALL batchdesk_add_user('{b}', 'stolen', false)",
                f"CALL batchdesk_grant('{a}', 'customers', 'DELETE', true)"):  # fmt: skip
        _denied(alice, sql)
    with team.sql("bob").connect() as conn:  # bob's password still works: alice could not change it
        assert conn.execute(text("SELECT SUBSTRING_INDEX(USER(), '@', 1)")).scalar_one() == b


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


def test_only_an_administrator_adds_accounts_and_grants_rights(team: Team) -> None:
    carol = team.name("carol")
    team.refused("alice", "admin", "add-user", carol, says="administrator")
    team.refused("alice", "admin", "grant", team.name("alice"), "customers", "--delete", says="administrator")
    team.refused("alice", "admin", "users", says="administrator")
    # the administrator has no global right: the server's SQL SECURITY DEFINER procedures do it for them
    code, made, err = team.cli("boss", "admin", "add-user", carol, "--password-stdin", "--json", stdin="s3cret\n")
    assert code == 0, err
    assert made == {"name": carol, "created": True, "admin": False, "password": None}
    code, _, err = team.cli("boss", "admin", "add-user", "root")
    assert code == 1 and "does not allow this account" in err and "not a name for a BatchDesk login" in err, err
    code, _, err = team.cli("alice", "admin", "secure")
    assert code == 1 and "does not allow this account" in err, err
    code, _, err = team.cli("boss", "admin", "grant", carol, "tasks", "--delete")
    assert code == 2 and "tasks" in err, err
    boss = team.sql("boss")
    assert "BatchDesk's own table" in _denied(boss, f"CALL batchdesk_grant('{carol}', 'tasks', 'DELETE', true)")
    assert "not a right" in _denied(boss, f"CALL batchdesk_grant('{carol}', 'customers', 'DROP', true)")
    assert "not a right" in _denied(boss, f"CALL batchdesk_grant('{carol}', 'customers', 'SELECT, DROP', true)")
    # a DBA's own account (global rights) is no clerk's: its password is not the administrator's to set
    with team.sql(None).connect() as conn:
        conn.execute(text(f"CREATE USER '{team.name('bob')}x'@'%'"))
        conn.execute(text(f"GRANT ALL ON *.* TO '{team.name('bob')}x'@'%'"))
        conn.execute(text(f"GRANT batchdesk_clerk TO '{team.name('bob')}x'@'%'"))
    try:
        assert "not a BatchDesk clerk" in _denied(boss, f"CALL batchdesk_add_user('{team.name('bob')}x', 'x', false)")
    finally:
        with team.sql(None).connect() as conn:
            conn.execute(text(f"DROP USER '{team.name('bob')}x'@'%'"))


# --- securing: an existing database, the printed script -------------------------------------------------


def test_securing_an_existing_team_database_keeps_every_task_and_makes_accounts_to_claim(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with team_database(tmp_path, monkeypatch) as made:
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
        # the tables' own database is not the one to secure (it would move them once more)
        own_url = make_url(made.url).set(database=own_database(made.database)).render_as_string(hide_password=False)
        code, _, err = Team(own_url, made.prefix, tmp_path).cli(None, "admin", "secure")
        assert code == 2 and "secure the database the desks use" in err, err
        users = {u["name"]: u for u in made.ok(None, "admin", "users", "--json")}
        assert users[a]["login"] is False and users[b]["login"] is False
        made.add("alice")  # alice claims her name
        assert [t["task_no"] for t in made.ok("alice", "tasks", "--json")] == [before[a]["task_no"]]
        with made.sql(None).connect() as conn:
            assert conn.execute(text("SELECT count(*) FROM tasks")).scalar_one() == 2
        code, _, err = made.cli("bob", "tasks")  # not claimed yet: the account is locked
        assert code != 0 and "does not allow this account" in err, err
        with made.sql(None).connect() as conn:  # locked: even with the right password the server says no
            conn.execute(text(f"ALTER USER '{b}'@'%' IDENTIFIED BY '{made.password('bob')}'"))
        code, _, err = made.cli("bob", "tasks")
        assert code != 0 and "this account is locked" in err, err


def test_the_printed_script_secures_a_database_as_admin_secure_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with team_database(tmp_path, monkeypatch) as by_hand:
        script = by_hand.ok(None, "admin", "secure", "--print-sql")
        assert script.startswith("BEGIN;") and script.rstrip().endswith("COMMIT;")
        assert script == "BEGIN;\n" + render(by_hand.database) + "COMMIT;\n"  # the same SQL admin secure runs
        url = make_url(MYSQL_URL)
        client = ["mysql", "-h", str(url.host), "-P", str(url.port or 3306), "-u", str(url.username), by_hand.database]
        if url.password:
            client.insert(1, f"-p{url.password}")
        for _ in range(2):  # as a DBA runs it in the mysql client; and again: nothing changes, nothing fails
            done = subprocess.run(client, input=script, text=True, capture_output=True, timeout=120, check=False)
            assert done.returncode == 0, done.stderr
        with by_hand.sql(None).connect() as conn:
            checked = conn.execute(text(CHECKED_VIEWS), {"d": by_hand.database}).scalars().all()
        assert sorted(checked) == OWNED
        assert team_mode.detect(by_hand.core(None).store.engine) is not None  # team mode, as the server says


def test_a_clerks_daily_clean_up_archives_their_own_ended_tasks_only(team: Team) -> None:
    """The archive's INSERT ... SELECT and DELETE through the views, as a clerk's desk runs them."""
    from desktop_app.domain.task import Lane

    hers, his = queue(team, "alice", 1), queue(team, "bob", 2)
    with team.sql(None).connect() as conn:  # both ended long ago
        conn.execute(text("UPDATE tasks SET status = 'cancelled', active_key = NULL, "
                          "ended_at = UTC_TIMESTAMP() - INTERVAL 400 DAY"))  # fmt: skip
    alice = team.core("alice")
    cleanup = alice.store.submit(task_type="cleanup", params={"archive_days": 30}, creator=team.name("alice"),
                                 lane=Lane.SHORT)  # fmt: skip
    ended = run_now(alice, cleanup.task.id)
    assert ended.status is TaskStatus.SUCCEEDED, (ended.error_code, ended.error_msg)
    assert ended.summary["archived"] == 1
    with team.sql(None).connect() as conn:
        archived = set(conn.execute(text("SELECT task_no FROM tasks_archive")).scalars())
        left = set(conn.execute(text("SELECT task_no FROM tasks")).scalars())
    assert hers["task_no"] in archived and his["task_no"] not in archived and his["task_no"] in left
