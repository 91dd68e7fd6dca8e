"""Team mode (docs/TEAM.md): each clerk is a login of the database server, which keeps their rows to them.

A shared database is in team mode once its DBA ran `batchdesk admin secure`; the server says so, read
once per engine (its connection pool: the Core's start). A database never secured, and the embedded one,
keep the shared login's behaviour (a clerk is whom --user names; store/admins.py). Each database's SQL
is its dialect's (store/dialects: `team`; store/team_sql).
"""

from __future__ import annotations

import logging
import weakref
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager

from sqlalchemy import Engine
from sqlalchemy.exc import SQLAlchemyError

from desktop_app.domain.errors import ErrorCode, PermanentError
from desktop_app.domain.viewer import Right, TeamLogin, TeamUser
from desktop_app.store.db import READONLY
from desktop_app.store.db_errors import classify
from desktop_app.store.dialects import dialect_of
from desktop_app.store.dialects.base import TeamSecurity

log = logging.getLogger(__name__)

# The answer per engine: asked once (a login's membership is the server's, read again at the next start)
_LOGINS: weakref.WeakKeyDictionary[Engine, TeamLogin | None] = weakref.WeakKeyDictionary()


@contextmanager
def _in_words() -> Iterator[None]:
    """The server's refusal (a clerk securing, an administrator touching a role not BatchDesk's) in words."""
    try:
        yield
    except SQLAlchemyError as exc:
        raise classify(exc) from exc


def detect(engine: Engine) -> TeamLogin | None:
    """Ask the server whether its database is in team mode, and who the engine's login is (kept)."""
    team = dialect_of(engine).team
    found = None
    if team is not None:
        with engine.connect().execution_options(**{READONLY: True}) as conn, conn.begin():
            found = team.login(conn)
    _LOGINS[engine] = found
    if found is not None:
        log.info("team mode: the login %s%s", found.name, " (an administrator)" if found.is_admin else "")
    return found


def login_of(engine: Engine) -> TeamLogin | None:
    """The engine's login in team mode, None outside it (asked of the server the first time only)."""
    if engine in _LOGINS:
        return _LOGINS[engine]
    return detect(engine)


def security(engine: Engine) -> TeamSecurity:
    """The database's team SQL, or a refusal in words where there is none (the embedded database)."""
    team = dialect_of(engine).team
    if team is None:
        detail = "team mode (a database login for each clerk) needs a shared PostgreSQL or MariaDB database"
        raise PermanentError(ErrorCode.INVALID_PARAMS, detail=detail)
    return team


def required(engine: Engine) -> TeamLogin:
    """The login, where the database is in team mode; TEAM_NOT_SECURED otherwise."""
    security(engine)
    login = login_of(engine)
    if login is None:
        raise PermanentError(ErrorCode.TEAM_NOT_SECURED)
    return login


def script(engine: Engine) -> str:
    """The SQL `admin secure` runs on this database (`admin secure --print-sql`)."""
    team = security(engine)
    with _in_words(), engine.connect() as conn:
        return team.script(conn)


def secure(engine: Engine) -> list[str]:
    """Put the database in team mode, in one transaction (again: nothing changes); the owner names of
    existing tasks and feeds that got a role to claim."""
    team = security(engine)
    with _in_words(), engine.begin() as conn:
        before = team.owners_without_role(conn)
        team.secure(conn)
        after = set(team.owners_without_role(conn))
    detect(engine)
    created = [name for name in before if name not in after]
    log.warning("team mode set up; roles to claim made for %s", ", ".join(created) or "no owner")
    return created


def add_user(engine: Engine, name: str, password: str, *, admin: bool) -> bool:
    """A clerk's login (an administrator's with `admin`); an owner's role made a login. True: new."""
    team = security(engine)
    required(engine).viewer.require_admin()
    if not name.strip():
        raise PermanentError(ErrorCode.INVALID_PARAMS, detail="a login needs a name")
    with _in_words(), engine.begin() as conn:
        created = team.add_user(conn, name, password, admin=admin)
    log.warning("login %s %s%s", name, "added" if created else "may log in now", " (administrator)" if admin else "")
    return created


def grant(engine: Engine, name: str, table: str, rights: Sequence[Right], *, give: bool) -> None:
    """GRANT (give) or REVOKE rights on an import type's table to a clerk's login (an administrator's act)."""
    team = security(engine)
    required(engine).viewer.require_admin()
    with _in_words(), engine.begin() as conn:
        team.grant(conn, name, table, tuple(rights), give=give)
    log.warning("%s %s on %s %s %s", "granted" if give else "revoked", ", ".join(rights), table,
                "to" if give else "from", name)  # fmt: skip


def users(engine: Engine, tables: Mapping[str, str]) -> list[TeamUser]:
    """The clerks' roles and their rights on each import type's table (import type -> table)."""
    team = security(engine)
    required(engine).viewer.require_admin()
    with _in_words(), engine.connect().execution_options(**{READONLY: True}) as conn, conn.begin():
        return team.users(conn, tables)


def missing(engine: Engine, table: str, rights: Sequence[Right]) -> list[Right]:
    """The rights the login lacks on a table (none outside team mode, or before the table exists)."""
    team = dialect_of(engine).team
    if team is None or login_of(engine) is None:
        return []
    with engine.connect().execution_options(**{READONLY: True}) as conn, conn.begin():
        return [r for r in rights if team.may(conn, table, r) is False]
