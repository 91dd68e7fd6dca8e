"""An apply's decisions held to the plan (imports/plan_apply.py): what passes, and what is changed_since_plan."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest
import sqlalchemy as sa

from desktop_app.domain.errors import ErrorCode
from desktop_app.domain.modes import BlankPolicy, ImportMode
from desktop_app.imports.change_plan import PlannedCell, PlannedRow
from desktop_app.imports.import_type import builtin_import_types_dir, load_import_type
from desktop_app.imports.plan_apply import PlanHold, planned_codes
from desktop_app.imports.readers import SourceRow
from desktop_app.imports.references import ReferenceResolver
from desktop_app.imports.row_plans import Action, RowDecider, RowPlan
from desktop_app.imports.table_spec import table_spec
from desktop_app.store.business_rows import BusinessTable, StoredRow

ITYPE = load_import_type(builtin_import_types_dir() / "price_list.toml")
KEY = ("SKU-1", dt.date(2024, 1, 1))


@pytest.fixture
def hold() -> PlanHold:
    engine = sa.create_engine("sqlite://")
    table = BusinessTable(engine, table_spec(ITYPE), managed=True)
    decider = RowDecider(ITYPE, ImportMode.UPSERT, BlankPolicy.KEEP, table, [0, 1])
    references = ReferenceResolver(ITYPE, table, engine.connect)
    return PlanHold(None, decider, references, table)  # type: ignore[arg-type]  # problem() reads no plan


def decided(action: Action, **fields: Any) -> RowPlan:
    return RowPlan(SourceRow(2, ()), action, KEY, "SKU-1\x1f2024-01-01", **fields)


def stored(price: str) -> dict[tuple[object, ...], StoredRow]:
    values = {"sku": "SKU-1", "valid_from": dt.date(2024, 1, 1), "price": Decimal(price), "currency": "CNY"}
    return {KEY: StoredRow(values)}


def update(before: str, after: str) -> RowPlan:
    return decided(Action.UPDATE, changes={"price": Decimal(after)}, before={"price": before})


def planned(action: Action, *cells: PlannedCell, message: str = "") -> PlannedRow:
    return PlannedRow(2, "SKU-1\x1f2024-01-01", action, cells, message)


def reason(error: object) -> tuple[str, object, object, object]:
    assert error is not None
    params = error.params  # type: ignore[attr-defined]
    return (params["reason"], error.column, params.get("planned"), params.get("found"))  # type: ignore[attr-defined]


def test_as_planned_passes(hold: PlanHold) -> None:
    assert hold.problem(decided(Action.UNCHANGED), None, stored("12.50")) is None
    assert hold.problem(decided(Action.INSERT, values=()), planned(Action.INSERT), {}) is None
    same = planned(Action.UPDATE, PlannedCell("price", "12.50", "13.00"))
    assert hold.problem(update("12.50", "13.00"), same, stored("12.50")) is None
    kept = planned(Action.FAIL, message="Price has the wrong format [invalid_number]")
    assert hold.problem(decided(Action.FAIL), kept, {}) is None


def test_an_edited_column_is_named_with_both_values(hold: PlanHold) -> None:
    plan = planned(Action.UPDATE, PlannedCell("price", "12.50", "13.00"))
    error = hold.problem(update("12.75", "13.00"), plan, stored("12.75"))
    assert error is not None and error.code is ErrorCode.CHANGED_SINCE_PLAN
    assert reason(error) == ("column", "price", "12.50", "12.75")
    assert error.message(ITYPE, "en") == "Column Price was 12.50 in the plan, is now 12.75; the row was not written"
    # someone made the planned change already: the row is unchanged now, not as planned either
    assert reason(hold.problem(decided(Action.UNCHANGED), plan, stored("13.00"))) == (
        "column", "price", "12.50", "13.00")  # fmt: skip


def test_a_row_planned_unchanged_that_would_now_change_is_refused(hold: PlanHold) -> None:
    assert reason(hold.problem(update("12.00", "12.50"), None, stored("12.00"))) == ("column", "price", "12.50",
                                                                                     "12.00")  # fmt: skip


def test_keys_added_or_gone_since(hold: PlanHold) -> None:
    appeared = hold.problem(update("1.00", "2.00"), planned(Action.INSERT), stored("1.00"))
    assert reason(appeared)[0] == "appeared"
    assert appeared is not None and appeared.message(ITYPE, "en").startswith('SKU + Valid from "SKU-1 / 2024-01-01"')
    assert reason(hold.problem(decided(Action.INSERT, values=()), None, {}))[0] == "disappeared"
    # planned not_found (update mode), the key added since: it would be written now
    gone = planned(Action.FAIL, message="… [not_found]")
    assert reason(hold.problem(update("1.00", "2.00"), gone, stored("1.00")))[0] == "appeared"
    # a row planned to fail that would now go through for another reason
    assert reason(hold.problem(decided(Action.INSERT, values=()), planned(Action.FAIL, message="x [y]"), {}))[0] == (
        "was_failed"
    )


def test_a_delete_holds_to_the_whole_planned_row(hold: PlanHold) -> None:
    row = planned(Action.DELETE, PlannedCell("sku", "SKU-1", None), PlannedCell("price", "12.50", None))
    assert hold.problem(decided(Action.DELETE), row, stored("12.50")) is None
    assert reason(hold.problem(decided(Action.DELETE), row, stored("9.99"))) == ("column", "price", "12.50", "9.99")


def test_planned_codes() -> None:
    assert planned_codes(planned(Action.FAIL, message="a; b [not_found, too_long]")) == {"not_found", "too_long"}
    assert planned_codes(planned(Action.FAIL, message="no codes")) == set()
