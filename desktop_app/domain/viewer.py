"""Who is looking at the tasks (seed 000 §5.4): a clerk sees their own, an administrator every clerk's."""

from __future__ import annotations

from dataclasses import dataclass

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
