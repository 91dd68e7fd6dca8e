"""What the two server dialects share: their engines' pool, their error tables' look-up, a lock holder's words."""

from __future__ import annotations

from typing import Any

from desktop_app.domain.errors import ErrorCode


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
