"""A secured PostgreSQL schema for team-mode tests (docs/TEAM.md): its DBA, and a login per person (roles of
random names, dropped after); the command line in-process as any of them. Shared by the integration tests
(tests/integration/test_team_logins_pg.py) and the window's (tests/gui/test_window_team.py)."""

from __future__ import annotations

import contextlib
import io
import json
import secrets
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, create_engine, text
from sqlalchemy.engine import make_url

from desktop_app.app import Core, build_core
from desktop_app.cli.main import main
from tests.support.backends import PG_URL, fresh_database
from tests.support.customers import row, write_csv


@dataclass
class Team:
    """A secured schema: its DBA's URL (the superuser), and a login per person (alice, bob, boss)."""

    url: str
    prefix: str
    tmp: Path
    engines: list[Engine] = field(default_factory=list)
    cores: list[Core] = field(default_factory=list)

    def name(self, who: str) -> str:
        return f"{self.prefix}_{who}"

    def url_of(self, who: str | None) -> str:
        if who is None:
            return self.url
        return make_url(self.url).set(username=self.name(who)).render_as_string(hide_password=False)

    def cli(self, who: str | None, *args: str, stdin: str = "") -> tuple[int, Any, str]:
        """The command line in this process, as `who` (None: the DBA): (exit code, JSON or text, stderr)."""
        return cli_at(self.url_of(who), args, stdin)

    def ok(self, who: str | None, *args: str) -> Any:
        code, data, err = self.cli(who, *args)
        assert code == 0, (args, code, err)
        return data

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
        """A plain engine as `who`: the login's own SQL, no BatchDesk in between."""
        engine = create_engine(self.url_of(who), isolation_level="AUTOCOMMIT")
        self.engines.append(engine)
        return engine


def drop_roles(names: list[str]) -> None:
    admin = create_engine(PG_URL, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            for name in names:
                if conn.execute(text("SELECT 1 FROM pg_roles WHERE rolname = :n"), {"n": name}).first() is None:
                    continue
                quoted = '"' + name.replace('"', '""') + '"'
                conn.execute(text(f"REASSIGN OWNED BY {quoted} TO CURRENT_USER"))
                conn.execute(text(f"DROP OWNED BY {quoted}"))
                conn.execute(text(f"DROP ROLE {quoted}"))
    finally:
        admin.dispose()


@contextlib.contextmanager
def team_schema(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Team]:
    """A migrated schema, not yet secured; the roles of random names it makes are dropped afterwards."""
    monkeypatch.setenv("BATCHDESK_HOME", str(tmp_path / "home"))
    with fresh_database("postgresql", tmp_path) as url:
        made = Team(url, "bd" + secrets.token_hex(4), tmp_path)
        try:
            made.core(None)  # migrates, as the DBA
            yield made
        finally:
            for core in made.cores:
                core.close()
            for engine in made.engines:
                engine.dispose()
            drop_roles([made.name(w) for w in ("alice", "bob", "boss", "carol")])


def secure_with_clerks(made: Team) -> None:
    """Team mode on, two clerks (alice, bob: INSERT on customers) and an administrator (boss: every right)."""
    made.ok(None, "admin", "secure")
    for who in ("alice", "bob"):
        made.ok(None, "admin", "add-user", made.name(who))
        made.ok(None, "admin", "grant", made.name(who), "customers", "--insert")
    made.ok(None, "admin", "add-user", made.name("boss"), "--admin")
    made.ok(None, "admin", "grant", made.name("boss"), "customers", "--insert", "--update", "--delete")


def queue(team: Team, who: str, i: int) -> dict[str, Any]:
    path = write_csv(team.tmp / f"{who}-{i}.csv", [row(i)])
    task = team.ok(who, "submit", str(path), "--type", "customers", "--json")
    assert isinstance(task, dict) and task["status"] == "pending"
    return task


def cli_at(url: str, args: tuple[str, ...], stdin: str = "") -> tuple[int, Any, str]:
    """The command line in this process on the database `url`: (exit code, JSON or text, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    old_stdin, sys.stdin = sys.stdin, io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main([*args, "--db", url])
            except SystemExit as exc:  # argparse
                code = int(exc.code or 0)
    finally:
        sys.stdin = old_stdin
    assert "Traceback" not in err.getvalue(), err.getvalue()
    text_out = out.getvalue()
    try:
        data: Any = json.loads(text_out) if text_out.strip() else text_out
    except json.JSONDecodeError:
        data = text_out
    return code, data, err.getvalue()
