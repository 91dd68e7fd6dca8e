"""The one lookup of every Qt-free text a clerk reads: ``text(code, lang, **params)`` over the topic tables."""

from __future__ import annotations

import logging
import os
import string
from collections.abc import Iterator, Mapping
from enum import StrEnum
from typing import Any, Literal

log = logging.getLogger(__name__)

Lang = Literal["zh", "en"]
LANGS: tuple[Lang, ...] = ("zh", "en")

# A topic's texts: code -> (Chinese, English); a (code, reason) key is the variant a `reason` param picks.
Table = Mapping[Any, tuple[str, str]]

# What a clerk sees in place of a value a caller forgot (outside the tests, which raise instead).
FALLBACK = "…"

# The tests turn this on (tests/conftest.py sets the variable, so their subprocesses inherit it): a missing
# parameter is then a MissingParameter, a failing test; in front of a clerk the text is shown with
# FALLBACK in its place, and the log names the code.
STRICT_VARIABLE = "BATCHDESK_STRICT_MESSAGES"
strict = os.environ.get(STRICT_VARIABLE) == "1"

_TABLES: dict[type[StrEnum], Table] = {}


class MissingParameter(KeyError):
    """A catalog text names a parameter its caller did not give (a defect: raised only in strict mode)."""

    def __init__(self, code: str, name: str) -> None:
        super().__init__(f"{code}: no value for {{{name}}}")
        self.code = code
        self.name = name


def register(codes: type[StrEnum], table: Table) -> None:
    """Adds a topic's table (errors, notes, stages, warnings...) to the catalog, keyed by its code enum."""
    _TABLES[codes] = table


def tables() -> Iterator[tuple[type[StrEnum], Table]]:
    """Every registered table (the catalog test renders each entry in both languages)."""
    yield from _TABLES.items()


def table_of(codes: type[StrEnum]) -> Table:
    """The table registered for a code enum."""
    return _TABLES[codes]


def template(code: StrEnum, lang: Lang, reason: object = None) -> str:
    """The raw text of a code (its `reason` variant when there is one), in `lang`."""
    table = _TABLES[type(code)]
    zh, en = table.get((code, str(reason))) or table[code]
    return zh if lang == "zh" else en


def text(code: StrEnum, lang: Lang = "zh", **params: object) -> str:
    """The one lookup: the text of `code` in `lang` with `params` filled in. ``{n:,}`` writes a count with
    thousands separators, ``{n:plural:row|rows}`` the word for one or for many. A parameter the text
    needs and the caller did not give raises MissingParameter in strict mode (the tests), else is shown
    as FALLBACK and logged, so a defect never stops a clerk's report."""
    return _Formatter(str(code)).vformat(template(code, lang, params.get("reason")), (), params)


def placeholders(text_: str) -> dict[str, str]:
    """The parameters a template names, each with its format spec (the catalog test fills them)."""
    return {name: spec or "" for _, name, spec, _ in string.Formatter().parse(text_) if name}


class _Formatter(string.Formatter):
    def __init__(self, code: str) -> None:
        self.code = code

    def get_value(self, key: int | str, args: Any, kwargs: Mapping[str, Any]) -> Any:
        if isinstance(key, str) and key not in kwargs:
            if strict:
                raise MissingParameter(self.code, key)
            log.error("message %s rendered without its parameter %s", self.code, key)
            return FALLBACK
        return super().get_value(key, args, kwargs)

    def format_field(self, value: Any, format_spec: str) -> Any:
        if format_spec.startswith("plural:"):
            one, _, many = format_spec.removeprefix("plural:").partition("|")
            return one if _count(value) == 1 else many
        if format_spec == ",":
            # a count read back from a stored phrase may be its text: separators only on a number
            number = _count(value)
            return f"{number:,}" if number is not None else str(value)
        return super().format_field(value, format_spec)


def _count(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.isdecimal():
        return int(value)
    return None
