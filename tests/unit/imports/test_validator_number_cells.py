"""An Excel file's number cells: the fast path that reads them as text gives what the full checker gives."""

from __future__ import annotations

import datetime
import itertools

import pytest

from desktop_app.imports.header import map_header
from desktop_app.imports.import_type import builtin_import_types_dir, load_import_type
from desktop_app.imports.regional import FileConventions
from desktop_app.imports.validator import Cell, compile_validator

NUMBERS: list[Cell] = [
    13800138000, 13800138000.0, 5, 0, -3, 10**20, 1500.5, 1500.505, 67391.3, 62518.0, -41.25, 0.1 + 0.2, -0.0,
    1e16, 1e-7, 99999999999.99, float("nan"), float("inf"), True, False, None, "", "1500.50", "¥1,234.50",
    datetime.date(2024, 1, 5), datetime.datetime(2024, 1, 5, 10, 30),
]  # fmt: skip


CUSTOMERS = load_import_type(builtin_import_types_dir() / "customers.toml")
VALID: tuple[Cell, ...] = ("C000001", "张三", "13800138000", "zhang@example.com", "金卡", "2024-01-05", "1500.50",
                           "销售部", "老客户")  # fmt: skip


@pytest.mark.parametrize("decimal_comma", [False, True])
def test_number_cells_check_alike(decimal_comma: bool) -> None:
    # every column of an otherwise valid row (which the fast path takes) holds each number in turn
    conventions = FileConventions(decimal_comma=decimal_comma)
    mapping = map_header(CUSTOMERS, [spec.key for spec in CUSTOMERS.columns])
    text = compile_validator(CUSTOMERS, mapping, nul_free=True, conventions=conventions)
    numbers = compile_validator(CUSTOMERS, mapping, nul_free=True, conventions=conventions, number_cells=True)
    assert "_number_text" in numbers.source and "_number_text" not in text.source
    for column, cell in itertools.product(range(len(VALID)), NUMBERS):
        row = tuple(cell if k == column else c for k, c in enumerate(VALID))
        a, b = text.check(row), numbers.check(row)
        assert (repr(a.values), a.errors) == (repr(b.values), b.errors), (column, cell)


def test_a_phone_number_cell_is_read_by_the_fast_path() -> None:
    mapping = map_header(CUSTOMERS, [spec.key for spec in CUSTOMERS.columns])
    numbers = compile_validator(CUSTOMERS, mapping, nul_free=True, number_cells=True)
    row = ("C000001", "张三", 13800138000, "zhang@example.com", "金卡", "2024-01-05", 1500.5, "销售部", "老客户")
    checked = numbers.check(row)
    assert checked.errors == () and checked.values is not None
    assert checked.values[2] == "13800138000" and str(checked.values[6]) == "1500.5"
