"""Bring a database to the newest schema with Alembic, one process at a time, backing up SQLite first."""

from __future__ import annotations

import logging
from contextlib import AbstractContextManager
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import Connection, Engine, text
from sqlalchemy.exc import DBAPIError

from desktop_app.domain.errors import ErrorCode, PermanentError
from desktop_app.store.dialects import dialect_of
from desktop_app.store.dialects.base import READONLY

log = logging.getLogger(__name__)

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
MYSQL_LOCK = "batchdesk_migrate"  # the ddl_lock's name (MySQL/MariaDB) and key (PostgreSQL)
MIGRATION_KEY = 728419
HEAD = "0014"
"""The newest migration's revision (a unit test holds it to Alembic's head). A database already there
is opened without loading Alembic at all: half a second and ~25 MB off every start of the program."""

if TYPE_CHECKING:
    from alembic.config import Config


def _config(connection: Connection) -> Config:
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.attributes["connection"] = connection
    return cfg


def head_revision() -> str | None:
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    return ScriptDirectory.from_config(cfg).get_current_head()


def current_revision(engine: Engine) -> str | None:
    with engine.connect() as conn:
        return _revision_of(conn)


def _revision_of(conn: Connection) -> str | None:
    from alembic.runtime.migration import MigrationContext

    return MigrationContext.configure(conn).get_current_revision()


def _at_head(engine: Engine) -> bool:
    """Whether the database is at HEAD, read without Alembic (False when unsure: Alembic looks)."""
    try:
        # a read: on SQLite a deferred BEGIN, not the writers' queue (every start waited for another
        # process's batch or undo page to commit, up to the busy timeout)
        with engine.connect().execution_options(**{READONLY: True}) as conn:
            rows = conn.execute(text("SELECT version_num FROM alembic_version")).scalars().all()
    except DBAPIError:
        return False  # no version table yet: a new database
    return rows == [HEAD]


def known_revisions() -> set[str]:
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    return {script.revision for script in ScriptDirectory.from_config(cfg).walk_revisions()}


def upgrade(engine: Engine) -> None:
    """Migrate to head. Several processes starting at once on a fresh database are serialised; the
    revision is read again under the lock, so only the one that migrates backs the SQLite file up (a
    late starter must not overwrite the backup with the migrated file). A schema newer than this
    program is refused before anything is touched."""
    if _at_head(engine):
        return
    from alembic import command

    head = head_revision()
    current = current_revision(engine)
    _refuse_newer(current, head)
    if current == head:
        return
    with _migration_lock(engine) as conn:
        current = _revision_of(conn)
        _refuse_newer(current, head)
        if current == head:
            return
        if current is not None:
            dialect_of(engine).before_migration(engine, current)  # SQLite: the file backed up
        command.upgrade(_config(conn), "head")
    log.info("database schema migrated from %s to %s", current, head)


def _refuse_newer(current: str | None, head: str | None) -> None:
    if current is not None and current not in known_revisions():
        raise PermanentError(ErrorCode.SCHEMA_TOO_NEW, found=current, known=head)


def _migration_lock(engine: Engine) -> AbstractContextManager[Connection]:
    """A connection that alone may migrate: a named lock on MySQL/MariaDB (whose DDL commits on its
    own, so a transaction cannot serialise it), a transaction-scoped advisory lock on PostgreSQL, the
    write lock of BEGIN IMMEDIATE on SQLite (the dialect's ddl_lock)."""
    return dialect_of(engine).ddl_lock(engine, MYSQL_LOCK, MIGRATION_KEY)
