"""Arrow's CSV lines hold the row writer's bytes: labels, neutralised triggers, RFC 4180 quoting."""

from __future__ import annotations

import csv
import io

import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from desktop_app.domain.formula_cells import needs_neutralising
from desktop_app.exports.cell_spec import CellSpec
from desktop_app.exports.csv_lines import csv_bytes
from desktop_app.imports.error_csv import DANGEROUS, neutralise

LABELS = {"gold": "金卡", "minus": "-1", "": "empty"}  # a label that is itself a trigger, one for ''
SPECS = [CellSpec({k: neutralise(v) for k, v in LABELS.items()}, DANGEROUS), CellSpec({}, DANGEROUS), CellSpec()]

# texts a column holds: triggers at the start and inside, plain negative numbers (left as they are),
# quotes, line breaks, CJK (a UTF-8 lead byte is never an ASCII trigger), empty texts, the labelled
# values, numbers after a "-" (plain, fullwidth, broken); NULLs besides
pieces = st.sampled_from(["=", "+", "-", "@", "\t", "\r", "\n", ",", '"', "'", "a", "中", "é", "gold", "minus", " ",
                          "5", "0.25", ".", "E3", "e-2", "５"])  # fmt: skip
texts = st.one_of(st.none(), st.lists(pieces, max_size=5).map("".join))


def expected(rows: list[list[str | None]], specs: list[CellSpec]) -> bytes:
    """What the row writer writes: cell texts (labelled, else neutralised), then the csv module's quoting."""
    out = io.StringIO(newline="")
    writer = csv.writer(out)
    for row in rows:
        cells = []
        for value, spec in zip(row, specs, strict=True):
            if value is None:
                cells.append("")
            elif value in spec.labels:
                cells.append(spec.labels[value])
            else:
                cells.append("'" + value if spec.triggers and needs_neutralising(value) else value)
        writer.writerow(cells)
    return out.getvalue().encode("utf-8")


@settings(max_examples=300, deadline=None)
@given(rows=st.lists(st.lists(texts, min_size=3, max_size=3), min_size=1, max_size=12), cut=st.integers(0, 3))
def test_arrow_lines_are_the_row_writers(rows: list[list[str | None]], cut: int) -> None:
    columns = [pa.array([r[i] for r in rows], pa.string()) for i in range(3)]
    batch = pa.record_batch(columns, names=["a", "b", "c"])
    # a batch sliced out of a larger one: its arrays' offsets start inside the buffers
    sliced = batch.slice(min(cut, len(rows) - 1))
    assert csv_bytes(sliced, "utf-8", SPECS) == expected(rows[min(cut, len(rows) - 1) :], SPECS)


@pytest.mark.parametrize("values", [["", ""], [None, None], ["", None, "=x"], ["=", "中=", "a"]])
def test_empty_null_and_lone_triggers(values: list[str | None]) -> None:
    batch = pa.record_batch([pa.array(values, pa.string())], names=["a"])
    rows = [[v] for v in values]
    assert csv_bytes(batch, "utf-8", [CellSpec({}, DANGEROUS)]) == expected(rows, [CellSpec({}, DANGEROUS)])
