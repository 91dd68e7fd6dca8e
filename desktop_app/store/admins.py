"""The administrators of a shared database: who sees and manages every clerk's tasks.

How the first one comes to be: a database has none until someone names one with
`batchdesk admin add NAME`, which anyone may run while there is none (the person who sets the database
up runs it once, right after the first start); from then on only an administrator adds or removes one,
and the last one cannot be removed. Until then every clerk sees only their own tasks. On the embedded
SQLite database the desk's user is its administrator and this table is not consulted; nor is it in team
mode (store/team.py), where an administrator is a member of the server's role batchdesk_admin.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, delete, select
from sqlalchemy.exc import IntegrityError

from desktop_app.domain.errors import ErrorCode, PermanentError
from desktop_app.domain.viewer import Viewer
from desktop_app.store import team
from desktop_app.store.db import READONLY
from desktop_app.store.dialects import dialect_of
from desktop_app.store.schema import admins

log = logging.getLogger(__name__)
FIRST = "first"


@dataclass(frozen=True)
class Admin:
    """One administrator, who named them and when."""

    name: str
    added_by: str
    added_at: Any


def embedded(engine: Engine) -> bool:
    return dialect_of(engine).embedded


def viewer(engine: Engine, user: str) -> Viewer:
    """The viewer for a user: an administrator on the embedded database; in team mode the login, as the
    server says (whoever `user` names); else as the table says."""
    if embedded(engine):
        return Viewer(user, is_admin=True)
    login = team.login_of(engine)
    if login is not None:
        return login.viewer
    with engine.connect().execution_options(**{READONLY: True}) as conn, conn.begin():
        found = conn.execute(select(admins.c.name).where(admins.c.name == user)).first()
    return Viewer(user, is_admin=found is not None)


def names(engine: Engine) -> list[Admin]:
    with engine.connect().execution_options(**{READONLY: True}) as conn, conn.begin():
        rows = conn.execute(select(admins).order_by(admins.c.added_at, admins.c.name)).all()
    return [Admin(r.name, r.added_by, r.added_at) for r in rows]


def add(engine: Engine, name: str, *, by: str) -> Admin:
    """Name an administrator. `by` must be one, except for the first of all (`by` may then be anyone)."""
    name = name.strip()
    if not name:
        raise PermanentError(ErrorCode.INVALID_PARAMS, detail="an administrator needs a name")
    existing = {a.name: a for a in names(engine)}
    first = not existing
    if not first and by not in existing and not embedded(engine):
        raise PermanentError(ErrorCode.NOT_ADMIN, user=by)
    if name in existing:
        return existing[name]
    try:
        with engine.begin() as conn:
            conn.execute(admins.insert().values(name=name, added_by=by, added_at=dialect_of(engine).now(),
                                                first_key=FIRST if first else None))  # fmt: skip
    except IntegrityError:
        # Another desk named the first administrator (or this one) at the same moment: ask again.
        return _added_meanwhile(engine, name, by)
    if first:
        log.warning("%s named %s the first administrator of this database", by, name)
    else:
        log.info("%s made %s an administrator", by, name)
    return next(a for a in names(engine) if a.name == name)


def _added_meanwhile(engine: Engine, name: str, by: str) -> Admin:
    current = names(engine)
    for admin in current:
        if admin.name == name:
            return admin
    raise PermanentError(ErrorCode.NOT_ADMIN, user=by)


def remove(engine: Engine, name: str, *, by: str) -> bool:
    """Remove an administrator (`by` must be one); never the last one. False when `name` was none."""
    viewer(engine, by).require_admin()
    with engine.begin() as conn:
        # Locked and counted in the delete's transaction: two removals at once cannot empty the table.
        current = set(conn.execute(select(admins.c.name).with_for_update()).scalars().all())
        if name not in current:
            return False
        if len(current) <= 1:
            raise PermanentError(ErrorCode.LAST_ADMIN, user=name)
        conn.execute(delete(admins).where(admins.c.name == name))
    log.info("%s removed %s from the administrators", by, name)
    return True
