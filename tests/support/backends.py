"""Fresh-schema database URLs for SQLite, PostgreSQL and MariaDB (huey's one-suite-every-back-end).

A test's database is empty, or already at the schema's head (`migrated=True`, the `db_url` fixture's):
the head is then copied from one migration made once per test process (a template), not migrated again
for every test (Alembic's dozen migrations are a second of MariaDB's DDL and most of a test's set-up).
The migration tests themselves take an empty database (`empty_db_url`)."""

from __future__ import annotations

import atexit
import os
import secrets
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.engine import make_url

PG_URL = os.environ.get("BATCHDESK_TEST_PG_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
MYSQL_URL = os.environ.get("BATCHDESK_TEST_MYSQL_URL", "mysql+pymysql://root@127.0.0.1:3306/test")
BACKENDS = ("sqlite", "postgresql", "mariadb")


def selected_backends() -> tuple[str, ...]:
    chosen = os.environ.get("BATCHDESK_TEST_BACKENDS")
    if not chosen:
        return BACKENDS
    return tuple(b.strip() for b in chosen.split(",") if b.strip())


def _unreachable(name: str, exc: Exception) -> None:
    reason = f"{name} is not reachable: {exc}"
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(reason + " (CI=true: a database test must not be skipped)")
    pytest.skip(reason)


DEFAULT_CHARSET = "utf8mb4 COLLATE utf8mb4_unicode_ci"


@dataclass
class _Head:
    """The schema at head, as made once in this process: what a fresh database replays to be at head."""

    sqlite_file: Path | None = None
    pg_statements: list[tuple[str, Any, bool]] | None = None  # (SQL, parameters, executemany), in order
    mysql_tables: list[tuple[str, str, list[str], list[tuple[Any, ...]]]] | None = None  # name, DDL, columns, rows


_HEAD = _Head()


def _server_engine(url: str, **kwargs: Any) -> Engine:
    """An engine for the fixtures' own work on a server. MariaDB's connections share the desk's one TLS
    context (store/dialects/mysql_connect.py): PyMySQL built a new one for each, ~45 ms of CPU, and a
    fresh database took two connections for every test."""
    engine = create_engine(url, **kwargs)
    if make_url(url).get_backend_name() == "mysql":

        @event.listens_for(engine, "do_connect")
        def _connect(_dialect: Any, _record: Any, cargs: Any, cparams: Any) -> Any:
            from desktop_app.store.dialects.mysql_connect import SharedTlsConnection

            return SharedTlsConnection(*cargs, **cparams)

    return engine


def _migrate(url: str) -> Engine:
    from desktop_app.store import migrate
    from desktop_app.store.db import make_engine

    engine = make_engine(url)
    migrate.upgrade(engine)
    return engine


def _sqlite_head() -> Path:
    if _HEAD.sqlite_file is None:
        folder = Path(tempfile.mkdtemp(prefix="bd-head-"))
        atexit.register(shutil.rmtree, folder, True)
        _migrate(f"sqlite:///{folder / 'head.sqlite3'}").dispose()  # the WAL is folded in at the last close
        _HEAD.sqlite_file = folder / "head.sqlite3"
    return _HEAD.sqlite_file


def seed_desk_database(data_dir: Path) -> None:
    """A desk's data folder whose SQLite file is already at head (a copy), unless it has one."""
    from desktop_app.config import resolve_paths

    target = resolve_paths(data_dir).database_file
    if not target.exists():
        data_dir.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(_sqlite_head(), target)


def _pg_head(url: str) -> list[tuple[str, Any, bool]]:
    """The statements a migration to head sent (reads left out), recorded on a first fresh schema."""
    if _HEAD.pg_statements is None:
        sent: list[tuple[str, Any, bool]] = []

        def record(_c: Any, _cur: Any, statement: str, parameters: Any, _ctx: Any, many: bool) -> None:
            if not statement.lstrip().upper().startswith("SELECT"):
                sent.append((statement, list(parameters) if many else parameters, many))

        from desktop_app.store.db import make_engine

        engine = make_engine(url)
        event.listen(engine, "before_cursor_execute", record)
        from desktop_app.store import migrate

        migrate.upgrade(engine)
        engine.dispose()
        _HEAD.pg_statements = sent
        return []  # this schema is the one migrated
    return _HEAD.pg_statements


def _replay_pg(url: str, statements: list[tuple[str, Any, bool]]) -> None:
    engine = create_engine(url)
    try:
        with engine.begin() as conn:
            plain: list[str] = []  # statements without parameters, sent together: one round trip, not 60
            for statement, parameters, many in [*statements, ("", None, True)]:
                if not (many or parameters) and "%" not in statement:  # with a %: alone, as the driver reads %% as %
                    plain.append(statement)
                    continue
                if plain:
                    conn.connection.driver_connection.execute(";\n".join(plain))  # type: ignore[union-attr]
                    plain = []
                if statement:
                    conn.exec_driver_sql(statement, parameters if many or parameters else ())
    finally:
        engine.dispose()


def _mysql_head(url: str, name: str) -> list[tuple[str, str, list[str], list[tuple[Any, ...]]]]:
    """Each table of a database migrated to head: its CREATE TABLE as the server shows it, its rows."""
    if _HEAD.mysql_tables is None:
        engine = _migrate(url)
        tables = []
        try:
            with engine.connect() as conn:
                listed = conn.execute(text("SELECT table_name FROM information_schema.tables WHERE table_schema = :s"
                                           " AND table_type = 'BASE TABLE' ORDER BY table_name"),
                                      {"s": name})  # fmt: skip
                for (table,) in listed.all():
                    ddl = conn.execute(text(f"SHOW CREATE TABLE `{table}`")).one()[1]
                    result = conn.execute(text(f"SELECT * FROM `{table}`"))
                    tables.append((table, ddl, list(result.keys()), [tuple(r) for r in result.all()]))
        finally:
            engine.dispose()
        _HEAD.mysql_tables = tables
        return []
    return _HEAD.mysql_tables


def _replay_mysql(url: str, tables: list[tuple[str, str, list[str], list[tuple[Any, ...]]]]) -> None:
    engine = _server_engine(url)
    try:
        with engine.begin() as conn:
            conn.exec_driver_sql("SET FOREIGN_KEY_CHECKS = 0")  # tables in name order, not dependency order
            for table, ddl, columns, rows in tables:
                conn.exec_driver_sql(ddl)
                if rows:
                    names = ", ".join(f"`{c}`" for c in columns)
                    marks = ", ".join(["%s"] * len(columns))
                    conn.exec_driver_sql(f"INSERT INTO `{table}` ({names}) VALUES ({marks})", rows)
            conn.exec_driver_sql("SET FOREIGN_KEY_CHECKS = 1")
    finally:
        engine.dispose()


@contextmanager
def fresh_database(
    backend: str, tmp_path: Path, *, mysql_charset: str = DEFAULT_CHARSET, migrated: bool = False
) -> Iterator[str]:
    """A URL to a schema of its own, dropped afterwards (MariaDB: with this default charset): empty, or at
    the head of BatchDesk's migrations (`migrated`)."""
    name = "bd_" + secrets.token_hex(5)
    if backend == "sqlite":
        path = tmp_path / "test.sqlite3"
        if migrated:
            shutil.copyfile(_sqlite_head(), path)
        yield f"sqlite:///{path}"
        return
    if backend == "postgresql":
        admin = create_engine(PG_URL, isolation_level="AUTOCOMMIT")
        try:
            with admin.connect() as conn:
                conn.execute(text(f"CREATE SCHEMA {name}"))
        except Exception as exc:
            admin.dispose()
            _unreachable("PostgreSQL", exc)
        url = make_url(PG_URL).update_query_dict({"options": f"-csearch_path={name}"})
        try:
            rendered = url.render_as_string(hide_password=False)
            if migrated:
                _replay_pg(rendered, _pg_head(rendered))
            yield rendered
        finally:
            with admin.connect() as conn:
                conn.execute(text(f"DROP SCHEMA IF EXISTS {name} CASCADE"))
            admin.dispose()
        return
    if backend == "mariadb":
        admin = _server_engine(MYSQL_URL, isolation_level="AUTOCOMMIT")
        try:
            with admin.connect() as conn:
                conn.execute(text(f"CREATE DATABASE {name} CHARACTER SET {mysql_charset}"))
        except Exception as exc:
            admin.dispose()
            _unreachable("MariaDB", exc)
        url = make_url(MYSQL_URL).set(database=name).update_query_dict({"charset": "utf8mb4"})
        try:
            rendered = url.render_as_string(hide_password=False)
            if migrated and mysql_charset == DEFAULT_CHARSET:
                _replay_mysql(rendered, _mysql_head(rendered, name))
            elif migrated:
                _migrate(rendered).dispose()
            yield rendered
        finally:
            with admin.connect() as conn:
                conn.execute(text(f"DROP DATABASE IF EXISTS {name}"))
            admin.dispose()
        return
    raise ValueError(backend)
