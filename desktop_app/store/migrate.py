"""Bring a database to the newest schema with Alembic, one process at a time, backing up SQLite first."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, text

log = logging.getLogger(__name__)

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
MYSQL_LOCK = "batchdesk_migrate"


def _config(connection: Connection) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.attributes["connection"] = connection
    return cfg


def head_revision() -> str | None:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    return ScriptDirectory.from_config(cfg).get_current_head()


def current_revision(engine: Engine) -> str | None:
    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def upgrade(engine: Engine) -> None:
    """Migrate to head. Several processes starting at once on a fresh database are serialised."""
    head = head_revision()
    current = current_revision(engine)
    if current == head:
        return
    dialect = engine.dialect.name
    if dialect == "sqlite" and current is not None:
        _backup_sqlite(engine, current)
    if dialect == "mysql" or dialect == "mariadb":
        # MySQL DDL commits implicitly, so a transaction cannot serialise it: a named lock does.
        with engine.connect() as conn:
            got = conn.execute(text("SELECT GET_LOCK(:n, 60)"), {"n": MYSQL_LOCK}).scalar()
            try:
                if got != 1:
                    raise RuntimeError("could not take the migration lock within 60 s")
                command.upgrade(_config(conn), "head")
                conn.commit()
            finally:
                conn.execute(text("SELECT RELEASE_LOCK(:n)"), {"n": MYSQL_LOCK})
        return
    with engine.begin() as conn:
        if dialect == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(728419)"))
        # On SQLite this transaction began with BEGIN IMMEDIATE, which serialises the same way.
        command.upgrade(_config(conn), "head")
    log.info("database schema migrated from %s to %s", current, head)


def _backup_sqlite(engine: Engine, revision: str) -> None:
    database = engine.url.database
    if not database or database == ":memory:":
        return
    source = Path(database)
    if source.exists():
        target = source.with_name(f"{source.name}.before-{revision}.bak")
        # sqlite3's online backup copies a consistent database, WAL content included.
        raw = engine.raw_connection()
        try:
            with sqlite3.connect(target) as copy:
                raw.driver_connection.backup(copy)  # type: ignore[union-attr]
            copy.close()
        finally:
            raw.close()
        log.info("backed up %s to %s before migrating", source, target)
