"""A whole stored row as JSON and back, exactly: what a delete records so that its undo puts the row back.

The values are the driver's own (read untyped, written untyped), so a row goes back with the bytes it
had on every back-end: SQLite's datetime text stays that text, a NUMERIC stays its number. JSON has no
decimals, dates or bytes: those are tagged objects ({"d": "12.50"}); a plain JSON value is itself.
"""

from __future__ import annotations

import base64
import datetime as dt
import json
import uuid
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

Image = dict[str, Any]  # column name -> encoded value


def encode(value: object) -> Any:
    """One stored value as JSON (a tagged object for what JSON cannot say itself)."""
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        return {"f": repr(value)}  # NaN and infinities too, which JSON has no number for
    if isinstance(value, Decimal):
        return {"d": str(value)}
    if isinstance(value, dt.datetime):
        return {"dt": value.isoformat()}
    if isinstance(value, dt.date):
        return {"da": value.isoformat()}
    if isinstance(value, dt.time):
        return {"t": value.isoformat()}
    if isinstance(value, dt.timedelta):
        return {"td": [value.days, value.seconds, value.microseconds]}
    if isinstance(value, bytes | bytearray | memoryview):
        return {"b": base64.b64encode(bytes(value)).decode("ascii")}
    if isinstance(value, uuid.UUID):
        return {"u": str(value)}
    if isinstance(value, list | tuple):
        return {"a": [encode(v) for v in value]}
    if isinstance(value, dict):
        return {"j": value}  # a JSON column's document (written back as its text, which the server casts)
    return {"s": str(value)}  # anything else the driver hands back: its text, which the server casts


def decode(value: Any) -> object:
    """A value as encode() wrote it, back as the driver's value."""
    if not isinstance(value, dict):
        return value
    ((tag, inner),) = value.items()
    if tag == "f":
        return float(inner)
    if tag == "d":
        return Decimal(inner)
    if tag == "dt":
        return dt.datetime.fromisoformat(inner)
    if tag == "da":
        return dt.date.fromisoformat(inner)
    if tag == "t":
        return dt.time.fromisoformat(inner)
    if tag == "td":
        return dt.timedelta(days=inner[0], seconds=inner[1], microseconds=inner[2])
    if tag == "b":
        return base64.b64decode(inner)
    if tag == "u":
        return uuid.UUID(inner)
    if tag == "a":
        return [decode(v) for v in inner]
    if tag == "j":
        return json.dumps(inner, ensure_ascii=False)
    return inner  # "s": a text


def image(values: Mapping[str, object]) -> Image:
    return {name: encode(value) for name, value in values.items()}


def restored(data: Image) -> dict[str, object]:
    return {name: decode(value) for name, value in data.items()}
