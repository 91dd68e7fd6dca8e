"""What the two server dialects share: schema quirks, the pool, the error look-up, a lock holder's words."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func

from desktop_app.domain.errors import ErrorCode
from desktop_app.domain.table_spec import TableSpec


class ServerSchema:
    """The schema quirks PostgreSQL and MySQL/MariaDB share: a VARCHAR's length and a NUMERIC's digits
    enforced, an integer column's range as its type says, a length counted in characters."""

    def text_bound(self, stored: Any) -> int | None:
        return getattr(stored, "length", None)

    def char_length(self, column: Any) -> Any:
        return func.char_length(column)

    def integer_range(self, stored: Any) -> tuple[int, int] | None:
        return None  # as its type says

    def bounds_decimal_digits(self) -> bool:
        return True

    def spec_problems(self, spec: TableSpec) -> list[str]:
        return []


def pool_options() -> dict[str, Any]:
    """A server engine's pool: checked before use (a server restarted), a few connections kept."""
    return {"pool_pre_ping": True, "pool_size": 5, "max_overflow": 20}


def lookup(code: object, kinds: tuple[tuple[set[Any], ErrorCode], ...]) -> ErrorCode | None:
    return next((kind for codes, kind in kinds if code in codes), None)


def who(application: object, user: object) -> str | None:
    """'application (user)' as the server names a session, or None when it names neither."""
    app, name = str(application or "").strip(), str(user or "").strip()
    if app and name:
        return f"{app} ({name})"
    return app or name or None
