"""A catalogue text that keeps its code and params, so it is stored as such and shown in any language."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

# a note: a finished import's failure summary (domain/notes.py); a feed: a feed's reason (domain/feeds.py)
Kind = Literal["stage", "error", "note", "feed"]
KINDS: tuple[Kind, ...] = ("stage", "error", "note", "feed")


class Phrase(str):
    """The text of a stage or an error message as rendered now, carrying the catalogue code and the
    params it was rendered from. A str, so every reader of a stage or a message (the log, a test, a
    plain-text column) keeps working; the store keeps `stored()` beside the text, and a view renders
    that again in the language in use when it shows the task (domain/rendering.py)."""

    kind: Kind
    code: str
    params: dict[str, Any]

    def __new__(cls, text: str, kind: Kind, code: str, params: Mapping[str, Any]) -> Phrase:
        self = super().__new__(cls, text)
        self.kind = kind
        self.code = str(code)
        self.params = dict(params)
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (Phrase, (str(self), self.kind, self.code, self.params))

    def stored(self) -> dict[str, Any]:
        """The JSON the task table keeps: kind, code and params, a nested phrase (the reason of a
        RETRIES_EXHAUSTED) as its own code and params."""
        return {"kind": self.kind, "code": self.code, "params": {k: _plain(v) for k, v in self.params.items()}}


def _plain(value: Any) -> Any:
    if isinstance(value, Phrase):
        return value.stored()
    if value is None or isinstance(value, bool | int | float):
        return value
    return str(value)  # a path, an enum member, a plain str: as the text it was rendered with


def stored_phrase(text: str | None) -> dict[str, Any] | None:
    """What the task table keeps beside a stage or a message: its phrase, or None for plain text (a
    caller's own words, or a text cut short), which is then shown as it is."""
    return text.stored() if isinstance(text, Phrase) else None


def is_stored_phrase(value: Any) -> bool:
    """Whether a value read back (a column, a nested param) is a stored phrase."""
    return (
        isinstance(value, Mapping)
        and value.get("kind") in KINDS
        and isinstance(value.get("code"), str)
        and isinstance(value.get("params", {}), Mapping)
    )
