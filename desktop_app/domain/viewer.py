"""Who is looking at the tasks (seed 000 §5.4): a clerk sees their own, an administrator every clerk's."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from desktop_app.domain.errors import ErrorCode, PermanentError
from desktop_app.domain.task import TaskRecord


@dataclass(frozen=True)
class Viewer:
    """A user and whether they administer the database (on the embedded database the desk's user does)."""

    user: str
    is_admin: bool = False

    @property
    def creator_filter(self) -> str | None:
        """Whose tasks this viewer may read and manage: None for everyone's (an administrator)."""
        return None if self.is_admin else self.user

    def can_see(self, record: TaskRecord) -> bool:
        return self.is_admin or record.creator == self.user

    def listing(self, *, everyone: bool = False, creator: str | None = None) -> str | None:
        """The creator a task list is filtered by: the viewer's own tasks unless an administrator asks
        for everyone's (None) or one clerk's; a clerk asking for others' is refused in plain words."""
        wanted = creator if creator is not None else None if everyone else self.user
        if wanted != self.user:
            self.require_admin()
        return wanted

    def require_admin(self) -> None:
        if not self.is_admin:
            raise PermanentError(ErrorCode.NOT_ADMIN, user=self.user)


@dataclass(frozen=True)
class TeamLogin:
    """Team mode (docs/TEAM.md): the database login a desk connects as is the clerk, as the server says.

    `name` owns every task the desk queues; `is_admin`: a member of the administrators' role."""

    name: str
    is_admin: bool

    @property
    def viewer(self) -> Viewer:
        return Viewer(self.name, is_admin=self.is_admin)

    def user(self, asked: str | None) -> str:
        """The user a request runs as: the login; another name asked for (--user) is refused in words."""
        if asked and asked != self.name:
            raise PermanentError(ErrorCode.TEAM_USER_REFUSED, login=self.name)
        return self.name


class Right(StrEnum):
    """A right a login holds on a table (team mode): what `admin grant` gives and an import needs."""

    SELECT = "SELECT"
    INSERT = "INSERT"
    UPDATE = "UPDATE"
    DELETE = "DELETE"


@dataclass(frozen=True)
class TeamUser:
    """A clerk's role of a team database: whether it may log in yet (an owner name not claimed may not),
    whether it administers, and its rights on each import type's table (the type's name -> its rights)."""

    name: str
    can_login: bool
    is_admin: bool
    rights: dict[str, tuple[Right, ...]] = field(default_factory=dict)
