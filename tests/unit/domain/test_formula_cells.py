"""A cell a spreadsheet would run as a formula gets an apostrophe; a plain negative number does not."""

from __future__ import annotations

import pyarrow as pa
import pytest

from desktop_app.domain.formula_cells import needs_neutralising
from desktop_app.exports.cell_spec import CellSpec
from desktop_app.exports.csv_lines import cell_texts
from desktop_app.imports.error_csv import DANGEROUS, neutralise, restore

NUMBERS = ["-5", "-0", "-0.25", "-.5", "-5.", "-1E3", "-1e-3", "-2.5E+10", "-123456789012345678901234567890"]
FORMULAS = [
    "-2+3", "-A1", "-SUM(A1:A2)", "-", "--5", "-5 ", " -5", "-5\n", "-5\r", "-1E", "-1e+", "-.", "-5.5.5",
    "-5%", "-５", "-٣", "=1+1", "+5", "@SUM(A1)", "\t-5", "\r5", "-1E3+cmd|' /C calc'!A0",
]  # fmt: skip


@pytest.mark.parametrize("text", NUMBERS)
def test_a_plain_negative_number_is_left_as_it_is(text: str) -> None:
    assert not needs_neutralising(text) and neutralise(text) == text


@pytest.mark.parametrize("text", FORMULAS)
def test_anything_else_starting_with_a_trigger_is_neutralised_and_restored(text: str) -> None:
    assert text.startswith(DANGEROUS) == needs_neutralising(text)
    if needs_neutralising(text):
        assert neutralise(text) == "'" + text and restore(neutralise(text)) == text


def test_the_exports_arrow_kernels_decide_every_text_alike() -> None:
    texts = [*NUMBERS, *FORMULAS, "plain", "", None]
    got = cell_texts(pa.array(texts, pa.string()), CellSpec({}, DANGEROUS)).to_pylist()
    assert got == [None if t is None else neutralise(t) for t in texts]
