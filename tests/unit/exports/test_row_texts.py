"""A batch of joined row texts: written as it came only when the csv module would write the same bytes."""

from __future__ import annotations

import csv
import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from desktop_app.exports.row_texts import ROW_END, UNIT, RowTexts, SeparatorInData
from desktop_app.imports.error_csv import DANGEROUS

SPECIAL = ["=", "+", "-", "@", "\t", "\r", "\n", ",", '"', "'", UNIT, ROW_END, "\x1e"]
pieces = st.sampled_from([*SPECIAL, "a", "1", "中", " "])
values = st.lists(pieces, max_size=4).map("".join)


def joined(rows: list[list[str]]) -> bytes:
    return "".join(UNIT.join(row) + ROW_END for row in rows).encode()


def csv_module(rows: list[list[str]], triggers: tuple[str, ...]) -> bytes:
    out = io.StringIO(newline="")
    csv.writer(out).writerows(["'" + v if triggers and v.startswith(triggers) else v for v in row] for row in rows)
    return out.getvalue().encode()


@settings(max_examples=400, deadline=None)
@given(width=st.integers(1, 4), data=st.data())
def test_a_batch_written_as_it_came_is_the_csv_modules_bytes(width: int, data: st.DataObject) -> None:
    rows = data.draw(st.lists(st.lists(values, min_size=width, max_size=width), min_size=1, max_size=6))
    batch = RowTexts(joined(rows), len(rows), width)
    lines = batch.clean_csv(DANGEROUS, "utf-8")
    if lines is not None:
        assert lines == csv_module(rows, DANGEROUS)
        assert not any(UNIT in v or ROW_END in v for row in rows for v in row)
    if any(UNIT in v or ROW_END in v for row in rows for v in row):
        with pytest.raises(SeparatorInData):
            batch.columns()
    else:
        columns = batch.columns()
        assert [list(r) for r in zip(*(c.to_pylist() for c in columns.columns), strict=True)] == rows


@pytest.mark.parametrize(
    "rows",
    [
        [["C1", "gold", "2024-01-05", "12.50"], ["C2", "", "", "0.00"]],  # empties, dates with their hyphens
        [["a@b.c", "x=1", "中文", "1+1"]],  # triggers inside a value, not at its start
    ],
)
def test_plain_batches_are_written_as_they_came(rows: list[list[str]]) -> None:
    batch = RowTexts(joined(rows), len(rows), 4)
    assert batch.clean_csv(DANGEROUS, "utf-8") == csv_module(rows, DANGEROUS)
    assert batch.clean_csv(DANGEROUS, "gb18030") == csv_module(rows, DANGEROUS).decode().encode("gb18030")


@pytest.mark.parametrize(
    "rows",
    [
        [["C1", "-5"]],  # a trigger starting a row's second value
        [["C1", "x"], ["=C2", "y"]],  # a trigger starting a later row
        [["a,b", "x"]],  # a comma: quoted
        [["x", 'say "hi"']],
        [["two\nlines", "x"]],
        [["x\ry", "z"]],
    ],
)
def test_a_batch_needing_more_goes_cell_by_cell(rows: list[list[str]]) -> None:
    assert RowTexts(joined(rows), len(rows), 2).clean_csv(DANGEROUS, "utf-8") is None


def test_one_column_rows_go_cell_by_cell() -> None:
    # the csv module writes a row of one empty value as "": the cell path does too
    assert RowTexts(joined([["x"], [""]]), 2, 1).clean_csv(DANGEROUS, "utf-8") is None


def test_without_triggers_a_leading_sign_is_written_as_it_is() -> None:
    rows = [["=1", "-2"], ["+3", "@4"]]
    assert RowTexts(joined(rows), 2, 2).clean_csv((), "utf-8") == csv_module(rows, ())
