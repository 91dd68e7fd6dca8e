"""A template's rules sheet: each column's rules in plain words."""

from __future__ import annotations

from decimal import Decimal

from desktop_app.imports.import_type import ColumnSpec
from desktop_app.imports.template import describe_column
from desktop_app.imports.type_parser import decimal_bounds


def _price(low: Decimal | None, high: Decimal | None) -> ColumnSpec:
    low, high = decimal_bounds(2, low, high)  # as the parser fills them
    return ColumnSpec("price", "价格", "Price", ("价格",), False, "trim", "decimal", decimal_scale=2,
                      decimal_min=low, decimal_max=high)  # fmt: skip


def test_a_decimal_without_bounds_tells_no_range() -> None:
    assert describe_column(_price(None, None), "en") == "optional; a number, at most 2 decimals"


def test_a_decimal_with_one_bound_tells_what_the_column_holds_on_the_other_side() -> None:
    assert describe_column(_price(Decimal(0), None), "en").endswith("; from 0 to 9999999999999.99")
