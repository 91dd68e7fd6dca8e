"""Building customers files for tests: valid rows by number, written as CSV/XLSX/XLS in any encoding."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from desktop_app.app import Core
from desktop_app.domain.task import TaskRecord
from desktop_app.store.tasks import TaskStore
from desktop_app.tasks.submit import submit_file
from tests.support.running import run_now

HEADER = ["客户编号", "姓名", "手机号", "邮箱", "等级", "开户日期", "信用额度", "部门", "备注"]
DEPARTMENTS = ["销售部", "市场部", "财务部", "人事部", "技术部", "客服部", "采购部", "物流部"]


def row(i: int, **changes: str) -> list[str]:
    values = {
        "客户编号": f"C{i:06d}",
        "姓名": f"客户{i}",
        "手机号": f"138{i:08d}",
        "邮箱": f"c{i}@example.com",
        "等级": ["普通", "银卡", "金卡"][i % 3],
        "开户日期": f"2024-{i % 12 + 1:02d}-{i % 28 + 1:02d}",
        "信用额度": f"{i % 1000}.50",
        "部门": DEPARTMENTS[i % 8],
        "备注": "",
    }
    values.update(changes)
    return [values[h] for h in HEADER]


def csv_text(rows: Sequence[Sequence[str]], header: Sequence[str] = HEADER) -> str:
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerows([list(header), *rows])
    return out.getvalue()


def write_csv(path: Path, rows: Sequence[Sequence[str]], encoding: str = "utf-8-sig",
              header: Sequence[str] = HEADER) -> Path:  # fmt: skip
    path.write_bytes(csv_text(rows, header).encode(encoding))
    return path


def run_import(core: Core, path: Path, *, user: str = "tester", force: bool = False, **params: Any) -> TaskRecord:
    """Submit and run one import in this thread, return the ended task."""
    full = {"import_type": "customers", "dry_run": False, **params}
    result = submit_file(core.store, core.registry, task_type="import", path=path, user=user, params=full, force=force)
    assert not result.refused, f"refused as a duplicate of {result.duplicate_of}"
    return run_now(core, result.task.id)


def error_rows(task: TaskRecord) -> list[dict[str, str]]:
    assert task.error_csv, "the task has no error CSV"
    with open(task.error_csv, encoding="utf-8-sig", newline="") as handle:
        return list(csv.DictReader(handle))


def codes_by_row(task: TaskRecord) -> dict[int, list[str]]:
    """Row number -> codes; the error CSV's own columns are in the desk's language, either one."""
    rows = error_rows(task)
    number, codes = ("行号", "错误代码") if not rows or "行号" in rows[0] else ("Row number", "Error codes")
    return {int(r[number]): r[codes].split(";") for r in rows}


def customer_codes(store: TaskStore) -> list[str]:
    with store.reading() as conn:
        return sorted(r[0] for r in conn.exec_driver_sql("SELECT code FROM customers").all())
