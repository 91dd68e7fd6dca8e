"""Team administration for the window (docs/TEAM.md): the logins, adding one, its rights per import type.

Qt-free, over store/team.py as the command line's `admin add-user/grant/revoke/users` are; every call asks
the database server, so the window calls it off the GUI thread. The server's refusal comes back as a
PermanentError in words (store/team.py classifies it), never a traceback.
"""

from __future__ import annotations

import secrets
from collections.abc import Collection
from dataclasses import dataclass

from sqlalchemy import Engine

from desktop_app.domain.errors import ErrorCode, PermanentError
from desktop_app.domain.viewer import Right, TeamUser
from desktop_app.imports.type_catalog import TypeCatalog
from desktop_app.store import team

# what the rights dialog offers per type; reading (SELECT) is implied by any of them
WRITE_RIGHTS = (Right.INSERT, Right.UPDATE, Right.DELETE)


def new_password() -> str:
    """A generated password: shown once to the administrator who asked for it, never logged or kept."""
    return secrets.token_urlsafe(18)


@dataclass(frozen=True)
class NewLogin:
    """A login added (or an owner's role claimed: `created` False); `password`: the generated one, to show
    once, or None when the administrator typed it."""

    name: str
    created: bool
    admin: bool
    password: str | None


class TeamAdmin:
    """What an administrator of a team database does from the window: the same acts as `admin …`."""

    def __init__(self, engine: Engine, catalog: TypeCatalog) -> None:
        self.engine = engine
        self.catalog = catalog

    def tables(self) -> dict[str, str]:
        """Each valid import type's table, by the type's name (the rights' columns)."""
        return {e.name: e.import_type.table for e in self.catalog.entries() if e.import_type is not None}

    def users(self) -> list[TeamUser]:
        """The logins (and owner names not claimed yet) with their rights per import type."""
        return team.users(self.engine, self.tables())

    def add_user(self, name: str, password: str | None, *, admin: bool) -> NewLogin:
        """Add a clerk's login (an administrator's with `admin`); no password given: one generated."""
        name = name.strip()
        if password is not None and not password:
            raise PermanentError(ErrorCode.INVALID_PARAMS, detail="the password is empty")
        secret = password if password is not None else new_password()
        created = team.add_user(self.engine, name, secret, admin=admin)
        return NewLogin(name, created, admin, None if password is not None else secret)

    def set_rights(self, name: str, import_type: str, wanted: Collection[Right]) -> TeamUser | None:
        """Give the login exactly `wanted` on the type's table (reading added when it may write), by GRANT
        of what it lacks and REVOKE of what it holds beyond; the login as it is then."""
        table = self.catalog.get(import_type).table
        wanted_set = set(wanted)
        if wanted_set & set(WRITE_RIGHTS):
            wanted_set.add(Right.SELECT)
        held = set(self._held(name, import_type, table))
        give = [r for r in Right if r in wanted_set - held]
        take = [r for r in Right if r in held - wanted_set]
        if give:
            team.grant(self.engine, name, table, give, give=True)
        if take:
            team.grant(self.engine, name, table, take, give=False)
        return next((u for u in team.users(self.engine, {import_type: table}) if u.name == name), None)

    def _held(self, name: str, import_type: str, table: str) -> tuple[Right, ...]:
        for user in team.users(self.engine, {import_type: table}):
            if user.name == name:
                return user.rights.get(import_type, ())
        raise PermanentError(ErrorCode.INVALID_PARAMS, detail=f"no login named {name}")
