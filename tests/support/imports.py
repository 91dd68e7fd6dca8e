"""Imports of any type in tests: a user type dropped into the data folder, files written, tasks run here."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from desktop_app.app import Core
from desktop_app.domain.modes import BlankPolicy, ImportMode
from desktop_app.domain.task import TaskRecord
from desktop_app.imports.options import ImportOptions
from desktop_app.imports.type_catalog import user_types_dir
from tests.support.running import run_now

# A company's orders: every kind, a composite key and a reference to the seeded departments.
ORDERS = """\
name = "orders"
title_zh = "订单明细"
title_en = "Order lines"
table = "order_lines"
unique_key = ["order_no", "line_no"]

[[columns]]
key = "order_no"
label_zh = "订单号"
label_en = "Order number"
aliases = ["订单号", "order_no"]
required = true
normalize = "nfkc"
pattern = '^SO\\d{4}$'

[[columns]]
key = "line_no"
label_zh = "行号"
label_en = "Line"
aliases = ["明细行", "line_no"]
required = true
kind = "integer"
normalize = "nfkc"
integer_min = 1
integer_max = 999

[[columns]]
key = "item"
label_zh = "品名"
label_en = "Item"
aliases = ["品名", "item"]
required = true
max_length = 40

[[columns]]
key = "qty"
label_zh = "数量"
label_en = "Quantity"
aliases = ["数量", "qty"]
kind = "integer"
normalize = "nfkc"
integer_min = 0
default = "1"

[[columns]]
key = "price"
label_zh = "单价"
label_en = "Price"
aliases = ["单价", "price"]
kind = "decimal"
normalize = "nfkc"
decimal_scale = 2
decimal_min = 0
decimal_max = 100000

[[columns]]
key = "ship_on"
label_zh = "发货日期"
label_en = "Ship date"
aliases = ["发货日期", "ship_on"]
kind = "date"
normalize = "nfkc"

[[columns]]
key = "ordered_at"
label_zh = "下单时间"
label_en = "Ordered at"
aliases = ["下单时间", "ordered_at"]
kind = "datetime"
normalize = "nfkc"

[[columns]]
key = "paid"
label_zh = "已付款"
label_en = "Paid"
aliases = ["已付款", "paid"]
kind = "boolean"
normalize = "nfkc"
default = "否"

[[columns]]
key = "channel"
label_zh = "渠道"
label_en = "Channel"
aliases = ["渠道", "channel"]
kind = "enum"
normalize = "nfkc"
enum = { "门店" = "store", "网店" = "web", "store" = "store", "web" = "web" }

[[columns]]
key = "dept"
label_zh = "部门"
label_en = "Department"
aliases = ["部门", "dept"]
kind = "reference"
reference_table = "departments"
reference_column = "name"
reference_target = "dept_id"
"""
ORDER_HEADER = ["订单号", "明细行", "品名", "数量", "单价", "发货日期", "下单时间", "已付款", "渠道", "部门"]


def order_row(n: int, line: int = 1, **changes: str) -> list[str]:
    values = {
        "订单号": f"SO{n:04d}",
        "明细行": str(line),
        "品名": f"商品{n}-{line}",
        "数量": str(n % 7 + 1),
        "单价": f"{n % 90 + 10}.50",
        "发货日期": f"2024-0{n % 9 + 1}-1{n % 9}",
        "下单时间": f"2024-01-0{n % 9 + 1} 0{n % 10}:30",
        "已付款": "是" if n % 2 else "否",
        "渠道": "门店" if n % 3 else "网店",
        "部门": ["销售部", "市场部", "财务部"][n % 3],
    }
    values.update(changes)
    return [values[h] for h in ORDER_HEADER]


def write_type(core: Core, text: str = ORDERS, file_name: str = "orders.toml") -> Path:
    """Drop a type file into the data folder's import_types/ (the catalog reads it on its next look)."""
    folder = user_types_dir(core.paths.data_dir)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / file_name
    before = path.stat().st_mtime_ns if path.exists() else 0
    path.write_text(text, encoding="utf-8")
    if path.stat().st_mtime_ns <= before:  # a second write within the clock's resolution
        import os

        os.utime(path, ns=(before + 1_000_000, before + 1_000_000))
    return path


def write_rows(path: Path, header: Sequence[str], rows: Sequence[Sequence[str]]) -> Path:
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerows([list(header), *rows])
    path.write_bytes(out.getvalue().encode("utf-8-sig"))
    return path


def run_type_import(core: Core, path: Path, import_type: str, *, mode: str = "insert", blank: str = "keep",
                    user: str = "tester", force: bool = False, **options: Any) -> TaskRecord:  # fmt: skip
    """Submit through the one submission path and run the import here; the ended task."""
    request = ImportOptions(file=path, import_type=import_type, mode=ImportMode(mode), blank=BlankPolicy(blank),
                            **options)  # fmt: skip
    result = core.submitter().submit_import(request, user=user, force=force)
    assert not result.refused, f"refused as a duplicate of {result.duplicate_of}"
    return run_now(core, result.task.id)


def rows_of(core: Core, table: str, columns: Sequence[str], order: Sequence[str]) -> list[tuple[Any, ...]]:
    t = sa.table(table, *(sa.column(c) for c in {*columns, *order}))
    with core.store.reading() as conn:
        query = sa.select(*(t.c[c] for c in columns)).order_by(*(t.c[c] for c in order))
        return [tuple(r) for r in conn.execute(query).all()]


def error_codes(task: TaskRecord) -> dict[int, list[str]]:
    assert task.error_csv, f"{task.task_no} has no error CSV"
    with open(task.error_csv, encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.DictReader(handle))
    # the error CSV's own columns are in the desk's language, either one
    number, codes = ("行号", "错误代码") if not rows or "行号" in rows[0] else ("Row number", "Error codes")
    return {int(r[number]): r[codes].split(";") for r in rows}
