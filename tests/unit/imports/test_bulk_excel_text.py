"""A typed Excel cell the bulk path takes as its text is read by the row validator exactly as that text is."""

from __future__ import annotations

import dataclasses
import datetime
import itertools
import random
import struct
from typing import Any

import pyarrow as pa
import pytest

from desktop_app.imports.bulk.excel_text import column_texts, takes, text_of
from desktop_app.imports.header import map_header
from desktop_app.imports.import_type import ColumnSpec, builtin_import_types_dir, load_import_type
from desktop_app.imports.readers.cells import cell_to_text
from desktop_app.imports.readers.excel_reader import normalize_cell
from desktop_app.imports.validator import column_checker, compile_validator

CELLS: list[Any] = [
    13800138000, 13800138000.0, 5, 5.0, 0, -3, -3.0, -0.0, 10**20, 1e16, 1e15, 999999999999999.0, 12345678901234567,
    1500.5, 1500.505, 67391.3, 62518.0, -41.25, 0.1 + 0.2, 1e-7, 99999999999.99, float("nan"), float("inf"),
    45000, 45000.0, 1, 0.0, True, False, None, "", " ", "1500.50", "¥1,234.50", "45000", "2024-01-05", "text",
    datetime.date(2024, 1, 5), datetime.date(1, 1, 1), datetime.date(999, 12, 31), datetime.datetime(2024, 1, 5),
    datetime.datetime(2024, 1, 5, 10, 30), datetime.datetime(2024, 1, 5, 0, 0, 0, 500),
    datetime.datetime(2024, 1, 5, 23, 59, 59, 999999), datetime.time(9, 30), datetime.timedelta(hours=30),
]  # fmt: skip

TYPES = [load_import_type(p) for p in sorted(builtin_import_types_dir().glob("*.toml"))]


def _variants(spec: ColumnSpec) -> list[ColumnSpec]:
    """The column as it is, and with every regional option turned on and off, and as the other date kind."""
    out = [spec]
    if spec.kind == "decimal":
        out += [
            dataclasses.replace(spec, thousands=False, currency=(), percent=False),
            dataclasses.replace(spec, thousands=True, currency=("¥", "元"), percent=True),
            dataclasses.replace(spec, currency=("-",)),
        ]  # fmt: skip  (a sign of digits fails its own default)
    if spec.kind == "integer":
        out += [dataclasses.replace(spec, thousands=not spec.thousands, integer_min=None, integer_max=None)]
    if spec.kind in ("date", "datetime"):
        formats = ("chinese", "dots", "compact", "midnight", "excel_serial", "day_month")
        for kind, dated in itertools.product(("date", "datetime"), ((), formats)):
            out.append(dataclasses.replace(spec, kind=kind, date_formats=dated))
    return out


SPECS = [v for t in TYPES for c in t.columns for v in _variants(c)]


def test_every_kind_is_covered() -> None:
    assert {s.kind for s in SPECS} >= {"text", "reference", "enum", "date", "datetime", "decimal", "integer",
                                       "boolean"}  # fmt: skip


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: f"{s.key}-{s.kind}-{bool(s.date_formats or s.thousands)}")
def test_a_cell_taken_is_checked_as_its_text(spec: ColumnSpec) -> None:
    full = column_checker(spec)
    take = takes(spec)
    taken = 0
    for raw in CELLS:
        cell = normalize_cell(raw)  # what the row reader gives the validator
        if not take(cell):
            continue
        taken += 1
        text = text_of(raw)
        assert text == cell_to_text(cell)
        a, b = full(cell), full(text)
        assert (repr(a[0]), a[1]) == (repr(b[0]), b[1]), (spec.key, raw)
    assert taken >= 3


def test_regional_decimals_take_numbers_unless_a_sign_is_made_of_digits() -> None:
    (customers,) = [t for t in TYPES if t.name == "customers"]
    credit = next(c for c in customers.columns if c.key == "credit_limit")
    assert credit.thousands and credit.currency
    assert takes(credit)(67391.3) and takes(credit)(5) and not takes(credit)(float("nan"))
    assert not takes(credit)(True) and not takes(credit)(datetime.date(2024, 1, 5))
    assert not takes(dataclasses.replace(credit, currency=("０",)))(5)


def test_whole_rows_check_alike_on_the_excel_validator() -> None:
    # the validator an .xlsx import compiles (number_cells): each cell taken, in every column of a valid row
    (customers,) = [t for t in TYPES if t.name == "customers"]
    mapping = map_header(customers, [spec.key for spec in customers.columns])
    validator = compile_validator(customers, mapping, nul_free=True, number_cells=True)
    valid: tuple[Any, ...] = ("C000001", "张三", 13800138000.0, "zhang@example.com", "金卡",
                              datetime.date(2024, 1, 5), 1500.5, "销售部", "老客户")  # fmt: skip
    for column, raw in itertools.product(range(len(valid)), CELLS):
        row = tuple(normalize_cell(raw) if k == column else c for k, c in enumerate(valid))
        if not all(takes(spec)(c) for spec, c in zip(customers.columns, row, strict=True)):
            continue
        a = validator.check(row)
        b = validator.check(tuple(text_of(c) for c in row))
        assert (repr(a.values), a.errors) == (repr(b.values), b.errors), (column, raw)


def test_column_texts_fast_paths_give_cell_to_text() -> None:
    whole = [13800138000.0, "x", 5.0, -0.0, 999999999999999.0, ""]
    texts, refused = column_texts(whole, takes(None))
    assert texts.to_pylist() == [cell_to_text(normalize_cell(v)) for v in whole] and refused == []
    mixed = [1e15, 12.5, "a", datetime.date(2024, 1, 5), None, True]
    texts, refused = column_texts(mixed, takes(None))
    assert texts.to_pylist() == [cell_to_text(normalize_cell(v)) for v in mixed]
    assert column_texts(["a", ""], takes(None))[0].equals(pa.array(["a", ""]))
    (customers,) = [t for t in TYPES if t.name == "customers"]
    opened = next(c for c in customers.columns if c.key == "opened_on")
    assert column_texts([45000.0, "2024-01-05", 45001.0], takes(opened))[1] == [0, 2]  # serials: the row path's


COLUMNS: list[list[Any]] = [
    [13800138000.0, 5.0, -0.0], [67391.3, 1500.505, 0.1 + 0.2, "x", float("nan")], [1e15, 5.0, "a"],
    [datetime.date(2024, 1, 5), "", datetime.date(999, 1, 1)], [datetime.datetime(2024, 1, 5, 10, 30), "b"],
    [5, 5.0, True, None, datetime.time(9, 30)], ["", "a"], [],
]  # fmt: skip


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: f"{s.key}-{s.kind}-{bool(s.date_formats or s.thousands)}")
def test_each_way_through_column_texts_gives_the_cells_text_and_what_is_taken(spec: ColumnSpec) -> None:
    take = takes(spec)
    for values in COLUMNS:
        texts, refused = column_texts(values, take)
        assert texts.to_pylist() == [text_of(v) for v in values], values
        assert refused == [k for k, v in enumerate(values) if not take(normalize_cell(v))], values


def test_the_quick_float_text_is_float_to_text() -> None:
    from desktop_app.imports.bulk.excel_text import _float_text
    from desktop_app.imports.readers.cells import float_to_text

    rng = random.Random(7)
    values = [rng.randint(0, 10**9) / 100 for _ in range(3000)]
    values += [struct.unpack("d", struct.pack("Q", rng.getrandbits(64)))[0] for _ in range(3000)]  # any bits
    values += [float(f"{rng.random() * 10 ** rng.randint(-9, 18):.{rng.randint(1, 17)}g}") for _ in range(3000)]
    values += [0.0, -0.0, 1e15, 1e16, -1e-5, 0.1 + 0.2, 123456789012345.6, 1234567890123456.0, 5e-324]
    values += [float("nan"), float("inf"), -float("inf")]
    assert [_float_text(v) for v in values] == [float_to_text(v) for v in values]
