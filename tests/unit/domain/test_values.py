"""Canonical texts and row signatures: the validator's values and every database's values agree."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from desktop_app.domain.table_spec import Storage
from desktop_app.domain.values import canonical, parse_canonical, signature
from desktop_app.imports.signature import signature_function

COLUMNS = [
    ("t", Storage.TEXT, None),
    ("i", Storage.INTEGER, None),
    ("d", Storage.DECIMAL, 2),
    ("day", Storage.DATE, None),
    ("at", Storage.DATETIME, None),
    ("b", Storage.BOOLEAN, None),
]


@pytest.mark.parametrize(
    ("storage", "scale", "written", "read_back"),
    [
        (Storage.DECIMAL, 2, Decimal("12.3"), 12.3),  # SQLite hands back a float
        (Storage.DECIMAL, 2, Decimal("12.3"), Decimal("12.30")),  # PostgreSQL and MySQL: the column's scale
        (Storage.DECIMAL, 2, Decimal("0"), Decimal("0.00")),
        (Storage.DECIMAL, 0, Decimal("7"), 7),
        (Storage.DATE, None, dt.date(2024, 3, 5), "2024-03-05"),  # SQLite's text
        (Storage.DATETIME, None, dt.datetime(2024, 3, 5, 9, 5), "2024-03-05 09:05:00.000000"),
        (Storage.BOOLEAN, None, True, 1),  # MySQL's TINYINT, SQLite's INTEGER
        (Storage.BOOLEAN, None, False, 0),
        (Storage.INTEGER, None, 12, Decimal("12")),
        (Storage.TEXT, None, "张三", "张三"),
    ],
)
def test_written_and_read_back_give_one_text(storage: Storage, scale: int | None, written: object,
                                              read_back: object) -> None:  # fmt: skip
    assert canonical(storage, written, scale) == canonical(storage, read_back, scale)


def test_parse_canonical_round_trips() -> None:
    for name, storage, scale in COLUMNS:
        value = {"t": "x", "i": -3, "d": Decimal("1.50"), "day": dt.date(2024, 1, 2),
                 "at": dt.datetime(2024, 1, 2, 3, 4, 5), "b": True}[name]  # fmt: skip
        text = canonical(storage, value, scale)
        assert canonical(storage, parse_canonical(storage, text), scale) == text
    assert parse_canonical(Storage.TEXT, None) is None


ROWS = [
    ("a", 1, Decimal("1.5"), dt.date(2024, 1, 1), dt.datetime(2024, 1, 1, 1, 2, 3), True),
    ("a", 1, Decimal("1.50"), dt.date(2024, 1, 1), dt.datetime(2024, 1, 1, 1, 2, 3), True),
    (None, None, None, None, None, None),
    ("", 0, Decimal("0"), dt.date(1, 1, 1), dt.datetime(9999, 12, 31, 23, 59, 59), False),
]


@pytest.mark.parametrize("values", ROWS)
def test_the_fast_signature_is_the_canonical_one(values: tuple[object, ...]) -> None:
    fast = signature_function(COLUMNS)
    slow = signature([canonical(s, v, sc) for (_, s, sc), v in zip(COLUMNS, values, strict=True)])
    assert fast(values) == slow and len(slow) == 16


def test_a_change_changes_the_signature() -> None:
    fast = signature_function(COLUMNS)
    base = fast(ROWS[0])
    assert fast(ROWS[1]) == base  # 1.5 and 1.50 are the same value
    for position in range(len(COLUMNS)):
        changed = list(ROWS[0])
        changed[position] = None
        assert fast(changed) != base
    assert fast(("", *ROWS[2][1:])) != fast(ROWS[2])  # an empty text is not NULL
