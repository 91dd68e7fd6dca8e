"""The four import modes on every back-end: counts, row errors, blank cells, duplicates, identity, dry run."""

from __future__ import annotations

import csv
from decimal import Decimal
from pathlib import Path

import pytest

from desktop_app.app import Core
from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import TaskRecord
from desktop_app.imports.options import ImportOptions
from tests.support.imports import ORDER_HEADER, error_codes, order_row, rows_of, run_type_import, write_rows, write_type

PRODUCT_HEADER = ["商品编码", "商品名称", "单价", "库存数量", "是否在售", "类别", "上市日期"]


def product(n: int, **changes: str) -> list[str]:
    values = {"商品编码": f"SKU-{n:04d}", "商品名称": f"商品{n}", "单价": f"{n}.50", "库存数量": str(n * 10),
              "是否在售": "是", "类别": "食品", "上市日期": "2024-01-01"}  # fmt: skip
    values.update(changes)
    return [values[h] for h in PRODUCT_HEADER]


@pytest.fixture
def stocked(core: Core, tmp_path: Path) -> TaskRecord:
    """Products 1..10 in the table."""
    task = run_type_import(core, write_rows(tmp_path / "base.csv", PRODUCT_HEADER, [product(n) for n in range(1, 11)]),
                           "products")  # fmt: skip
    assert task.status is TaskStatus.SUCCEEDED and task.success_count == 10
    return task


def counts(task: TaskRecord) -> tuple[int, int, int, int, int, int]:
    j = task.to_json()
    return (j["inserted_count"], j["updated_count"], j["unchanged_count"], j["skipped_count"], j["fail_count"],
            j["success_count"])  # fmt: skip


def stored(core: Core) -> dict[str, tuple[object, ...]]:
    rows = rows_of(core, "products", ["sku", "name", "unit_price", "stock", "active", "category"], ["sku"])
    return {r[0]: (r[1], Decimal(str(r[2])), None if r[3] is None else int(r[3]), bool(r[4]), r[5]) for r in rows}


def test_insert_reports_existing_keys(core: Core, tmp_path: Path, stocked: TaskRecord) -> None:
    rows = [product(n) for n in range(8, 14)]
    task = run_type_import(core, write_rows(tmp_path / "f.csv", PRODUCT_HEADER, rows), "products")
    assert counts(task) == (3, 0, 0, 0, 3, 3) and task.to_json()["mode"] == "insert"
    assert error_codes(task) == {2: ["already_exists"], 3: ["already_exists"], 4: ["already_exists"]}


def test_insert_new_skips_existing_keys_quietly(core: Core, tmp_path: Path, stocked: TaskRecord) -> None:
    rows = [product(8, 单价="not a number"), product(9), product(11), product(12, 库存数量="x")]
    task = run_type_import(core, write_rows(tmp_path / "f.csv", PRODUCT_HEADER, rows), "products", mode="insert_new")
    # 8 is in the table: skipped without looking at its other cells; 12 is new and its stock is bad
    assert counts(task) == (1, 0, 0, 2, 1, 3) and task.status is TaskStatus.PARTIALLY_SUCCEEDED
    assert error_codes(task) == {5: ["invalid_integer"]}
    assert stored(core)["SKU-0008"][1] == Decimal("8.50")


def test_update_changes_only_the_mapped_columns(core: Core, tmp_path: Path, stocked: TaskRecord) -> None:
    header = ["商品编码", "单价", "库存数量"]  # name, active, category are not in the file: never touched
    rows = [["SKU-0001", "99.00", "5"], ["SKU-0002", "", "7"], ["SKU-0003", "3.50", "30"], ["SKU-0099", "1", "1"]]
    task = run_type_import(core, write_rows(tmp_path / "u.csv", header, rows), "products", mode="update")
    assert counts(task) == (0, 2, 1, 0, 1, 3)
    assert error_codes(task) == {5: ["not_found"]}
    now = stored(core)
    assert now["SKU-0001"] == ("商品1", Decimal("99.00"), 5, True, "food")
    assert now["SKU-0002"] == ("商品2", Decimal("2.50"), 7, True, "food")  # a blank cell keeps the stored value
    assert now["SKU-0003"] == ("商品3", Decimal("3.50"), 30, True, "food")  # equal: unchanged
    assert "SKU-0099" not in now


def test_blank_clear_empties_or_takes_the_default(core: Core, tmp_path: Path, stocked: TaskRecord) -> None:
    header = ["商品编码", "库存数量", "类别", "上市日期", "商品名称"]
    rows = [["SKU-0001", "", "", "", "新名字"], ["SKU-0002", "1", "饮料", "", ""]]
    task = run_type_import(core, write_rows(tmp_path / "c.csv", header, rows), "products", mode="update",
                           blank="clear")  # fmt: skip
    # stock and category have defaults (0, other); the launch date becomes empty; a required column
    # is never emptied: the second row's blank name is required_missing
    assert counts(task) == (0, 1, 0, 0, 1, 1)
    assert error_codes(task) == {3: ["required_missing"]}
    now = stored(core)
    assert now["SKU-0001"] == ("新名字", Decimal("1.50"), 0, True, "other")
    dates = dict(rows_of(core, "products", ["sku", "launched_on"], ["sku"]))
    assert dates["SKU-0001"] is None and dates["SKU-0002"] is not None


def test_upsert_inserts_and_updates(core: Core, tmp_path: Path, stocked: TaskRecord) -> None:
    header = ["商品编码", "单价"]  # a required column (name) is not in the file
    rows = [["SKU-0001", "10.00"], ["SKU-0002", "2.50"], ["SKU-0050", "5.00"]]
    task = run_type_import(core, write_rows(tmp_path / "u.csv", header, rows), "products", mode="upsert")
    # 1 updated, 2 unchanged, 50 would be inserted without its name: required_missing
    assert counts(task) == (0, 1, 1, 0, 1, 2)
    assert error_codes(task) == {4: ["required_missing"]}
    rows = [product(1, 单价="11.00"), product(60), product(61, 库存数量="-1")]
    task = run_type_import(core, write_rows(tmp_path / "v.csv", PRODUCT_HEADER, rows), "products", mode="upsert")
    assert counts(task) == (1, 1, 0, 0, 1, 2) and error_codes(task) == {4: ["out_of_range"]}
    assert stored(core)["SKU-0060"] == ("商品60", Decimal("60.50"), 600, True, "food")


def test_upsert_names_the_required_cells_a_failing_new_row_lacks(
    core: Core, tmp_path: Path, stocked: TaskRecord
) -> None:
    rows = [product(70, 商品名称="", 库存数量="x"), product(1, 商品名称="", 库存数量="x")]
    task = run_type_import(core, write_rows(tmp_path / "u.csv", PRODUCT_HEADER, rows), "products", mode="upsert")
    # a new row: its missing name is named too, in column order; an existing row keeps its name
    assert error_codes(task) == {2: ["required_missing", "invalid_integer"], 3: ["invalid_integer"]}


@pytest.mark.parametrize("mode", ["insert", "insert_new", "update", "upsert"])
def test_a_key_seen_earlier_in_the_file_is_duplicate_in_file(core: Core, tmp_path: Path, stocked: TaskRecord,
                                                            mode: str) -> None:  # fmt: skip
    # across batches (batch size 2) and inside one; a key that repeats an earlier failed row is judged alone
    rows = [product(3), product(20), product(3), product(21, 单价="x"), product(21), product(20), product(3)]
    task = run_type_import(core, write_rows(tmp_path / "d.csv", PRODUCT_HEADER, rows), "products", mode=mode,
                           batch_size=2)  # fmt: skip
    expected = {
        # row 2: key 3 (in the table), 3: key 20 (new), 4: 3 again, 5: 21 (bad), 6: 21, 7: 20, 8: 3
        "insert": {2: ["already_exists"], 4: ["already_exists"], 7: ["duplicate_in_file"], 8: ["already_exists"]},
        "insert_new": {4: ["duplicate_in_file"], 7: ["duplicate_in_file"], 8: ["duplicate_in_file"]},
        "update": {3: ["not_found"], 4: ["duplicate_in_file"], 6: ["not_found"], 7: ["not_found"],
                   8: ["duplicate_in_file"]},
        "upsert": {4: ["duplicate_in_file"], 7: ["duplicate_in_file"], 8: ["duplicate_in_file"]},
    }[mode]  # fmt: skip
    assert error_codes(task) == {5: ["invalid_number"], **expected}


def test_the_mode_is_part_of_the_identity(core: Core, tmp_path: Path, stocked: TaskRecord) -> None:
    path = tmp_path / "base.csv"
    submitter = core.submitter()
    again = submitter.submit_import(ImportOptions(file=path, import_type="products"), user="tester")
    assert again.refused and again.duplicate_of == stocked.task_no
    other = submitter.submit_import(ImportOptions(file=path, import_type="products", mode="upsert"),  # type: ignore[arg-type]
                                    user="tester")  # fmt: skip
    assert not other.refused and other.duplicate_of is None and other.task.params["mode"] == "upsert"


@pytest.mark.parametrize("mode", ["insert", "insert_new", "update", "upsert"])
def test_a_dry_run_says_what_the_real_run_does(core: Core, tmp_path: Path, stocked: TaskRecord, mode: str) -> None:
    rows = [product(1, 单价="9.99"), product(2), product(30), product(30), product(31, 类别="?"), product(4, 单价="")]
    path = write_rows(tmp_path / "m.csv", PRODUCT_HEADER, rows)
    dry = run_type_import(core, path, "products", mode=mode, dry_run=True, batch_size=2)
    real = run_type_import(core, path, "products", mode=mode, batch_size=2)
    assert counts(dry) == counts(real)
    assert _error_lines(dry) == _error_lines(real)


def _error_lines(task: TaskRecord) -> list[list[str]]:
    if not task.error_csv:
        return []
    with open(task.error_csv, encoding="utf-8-sig", newline="") as handle:
        return list(csv.reader(handle))


def test_composite_keys_in_every_mode(core: Core, tmp_path: Path) -> None:
    write_type(core)
    base = [order_row(n, line) for n in (1, 2) for line in (1, 2)]
    run_type_import(core, write_rows(tmp_path / "o.csv", ORDER_HEADER, base), "orders")
    rows = [order_row(1, 2, 数量="9"), order_row(1, 3), order_row(1, 3)]
    task = run_type_import(core, write_rows(tmp_path / "p.csv", ORDER_HEADER, rows), "orders", mode="upsert")
    assert counts(task) == (1, 1, 0, 0, 1, 2)
    assert error_codes(task) == {4: ["duplicate_in_file"]}
    qty = dict(((o, line), int(q)) for o, line, q in rows_of(core, "order_lines", ["order_no", "line_no", "qty"],
                                                               ["order_no", "line_no"]))  # fmt: skip
    assert qty[("SO0001", 2)] == 9 and qty[("SO0001", 3)] == 2 and len(qty) == 5
    with open(task.error_csv or "", encoding="utf-8-sig") as handle:
        assert "订单号+行号“SO0001 / 3”在本文件前面的行中已经出现过" in handle.read()


def test_a_run_that_wrote_nothing_leaves_the_file_not_imported(core: Core, tmp_path: Path, stocked: TaskRecord) -> None:
    path = tmp_path / "base.csv"
    skipped = run_type_import(core, path, "products", mode="insert_new")
    assert skipped.to_json()["skipped_count"] == 10 and skipped.success_count == 10
    again = core.submitter().submit_import(ImportOptions(file=path, import_type="products", mode="insert_new"),  # type: ignore[arg-type]
                                           user="tester")  # fmt: skip
    assert not again.refused  # the first run inserted and updated nothing: nothing would land twice
    refused = core.submitter().submit_import(ImportOptions(file=path, import_type="products"), user="tester")
    assert refused.refused and refused.duplicate_of == stocked.task_no
