"""A task's stage and error, rendered from their stored code and params in the language of the moment."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from desktop_app.domain.errors import ErrorCode, Lang, message
from desktop_app.domain.feeds import FeedCode, feed_text
from desktop_app.domain.messages import MissingParameter
from desktop_app.domain.notes import Note, NoteCode
from desktop_app.domain.phrase import is_stored_phrase
from desktop_app.domain.stages import Stage, stage_text

log = logging.getLogger(__name__)


def render(stored: Mapping[str, Any] | None, text: str | None, lang: Lang) -> str | None:
    """The one rendering both edges use (the window, the command line): a stored phrase in `lang`.
    Without one (a row an older version wrote, a caller's own words), or with a code or a param this
    version does not know (a newer desk's, on a shared database), the text as it was stored."""
    if not is_stored_phrase(stored):
        return text
    assert stored is not None
    try:
        return _rendered(stored, lang)
    except MissingParameter as exc:
        # a row another version stored without a param this one's text needs: its words as stored
        log.warning("stored phrase shown as stored: %s", exc)
        return text
    except (KeyError, ValueError, IndexError, TypeError):
        return text


def _rendered(stored: Mapping[str, Any], lang: Lang) -> str:
    # A nested phrase (the last reason of a RETRIES_EXHAUSTED) is rendered first, in the same language.
    params = {k: _rendered(v, lang) if is_stored_phrase(v) else v for k, v in stored.get("params", {}).items()}
    if stored["kind"] == "stage":
        return stage_text(Stage(stored["code"]), lang, **params)
    if stored["kind"] == "note":
        return Note(NoteCode(stored["code"]), params).text(lang)
    if stored["kind"] == "feed":
        return feed_text(FeedCode(stored["code"]), lang, **params)
    return message(ErrorCode(stored["code"]), lang, **params)
