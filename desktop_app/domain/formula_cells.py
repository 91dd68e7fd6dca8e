"""Which cell texts a spreadsheet would run as a formula (OWASP's CSV injection), decided in one place."""

from __future__ import annotations

import re

# A spreadsheet runs a cell that starts with one of these as a formula.
TRIGGERS = ("=", "+", "-", "@", "\t", "\r")
# A plain negative number ("-5", "-0.25", "-.5", "-1E3") is read as that number, never run: it is left
# as it is, where an apostrophe before it made it text that a clerk's sum in Excel skips. ASCII digits
# only ([0-9], not \d): Arrow's RE2 and Python must agree on every text.
PLAIN_NEGATIVE_NUMBER = r"-(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"
_PLAIN_NEGATIVE = re.compile(PLAIN_NEGATIVE_NUMBER)


def needs_neutralising(text: str) -> bool:
    """Whether a spreadsheet would run the text as a formula (so it gets a leading apostrophe)."""
    return text.startswith(TRIGGERS) and _PLAIN_NEGATIVE.fullmatch(text) is None
