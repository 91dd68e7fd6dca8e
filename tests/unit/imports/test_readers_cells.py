"""cell_to_text and the row type."""

from __future__ import annotations

import dataclasses
import datetime

import pytest

from desktop_app.imports.readers import Cell, SourceRow, cell_to_text
from desktop_app.imports.readers.cells import is_blank, make_row
from desktop_app.imports.readers.excel_reader import normalize_cell, shape_row


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (None, ""),
        ("", ""),
        (" 张三 ", " 张三 "),
        (True, "TRUE"),
        (False, "FALSE"),
        (0, "0"),
        (13800138000, "13800138000"),
        (-42, "-42"),
        (13800138000.0, "13800138000"),
        (1.38e10, "13800000000"),
        (123456789012345678.0, "123456789012346000"),  # Excel shows 15 digits
        (-0.0, "0"),
        (2.0, "2"),
        (0.5, "0.5"),
        (12.25, "12.25"),
        (0.1 + 0.2, "0.3"),
        (1 / 3, "0.333333333333333"),
        (1e-7, "0.0000001"),
        (-1.5e-10, "-0.00000000015"),
        (13800138000.000002, "13800138000"),
        (float("nan"), "nan"),
        (datetime.date(2024, 3, 5), "2024-03-05"),
        (datetime.date(999, 1, 2), "0999-01-02"),
        (datetime.datetime(2024, 3, 5), "2024-03-05"),
        (datetime.datetime(2024, 3, 5, 0, 0, 1), "2024-03-05 00:00:01"),
        (datetime.datetime(2024, 3, 5, 10, 31, 7, 250), "2024-03-05 10:31:07"),
    ],
)
def test_cell_to_text(value: Cell, text: str) -> None:
    assert cell_to_text(value) == text


def test_source_row_is_frozen_and_make_row_builds_the_same() -> None:
    row = SourceRow(2, ("a", 1))
    fast = make_row(2, ("a", 1))
    assert type(fast) is SourceRow
    assert fast == row and hash(fast) == hash(row) and repr(fast) == "SourceRow(row_number=2, cells=('a', 1))"
    with pytest.raises(dataclasses.FrozenInstanceError):
        fast.row_number = 3  # type: ignore[misc]
    assert not hasattr(row, "__dict__")


def test_is_blank() -> None:
    assert is_blank(())
    assert is_blank(("", " ", "\t", "\u3000", None))
    assert not is_blank(("", "x"))
    assert not is_blank((None, 0))
    assert not is_blank((False,))


def test_normalize_cell() -> None:
    assert normalize_cell("") is None
    assert normalize_cell(" ") == " "
    assert normalize_cell(datetime.datetime(2024, 1, 2)) == datetime.date(2024, 1, 2)
    assert type(normalize_cell(datetime.datetime(2024, 1, 2))) is datetime.date
    assert normalize_cell(datetime.datetime(2024, 1, 2, 3)) == datetime.datetime(2024, 1, 2, 3)
    assert normalize_cell(datetime.time(7, 8, 9)) == "07:08:09"
    assert normalize_cell(datetime.timedelta(minutes=-90)) == "-1:30:00"
    assert normalize_cell(1.5) == 1.5
    assert normalize_cell(True) is True


def test_shape_row() -> None:
    assert shape_row(["a"], 3) == ("a", None, None)
    assert shape_row(["a", None, None, None], 2) == ("a", None)
    assert shape_row(["a", "", None, "z", None], 2) == ("a", None, None, "z")
    assert shape_row([None, "", "  "], 3) is None
    assert shape_row([], 3) is None
