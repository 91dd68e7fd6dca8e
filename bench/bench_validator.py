"""Micro-benchmark of the row validator (no Qt, no database).

Generates 1,000,000 valid customer rows of 9 ``str`` cells (as the CSV reader yields them) and times
``RowValidator.check`` over them (best of 3); then the same with 0.1% bad rows (one broken field
each), and the valid rows as typed Excel cells (float phone/amount, datetime, None for empty).

    .venv/bin/python bench/bench_validator.py [rows]
"""

from __future__ import annotations

import datetime
import gc
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from desktop_app.imports.header import map_header
from desktop_app.imports.import_type import builtin_import_types_dir, load_import_type
from desktop_app.imports.validator import Cell, compile_validator

HEADER = ["客户编号", "姓名", "手机号", "邮箱", "等级", "开户日期", "信用额度", "部门", "备注"]
SURNAMES = "王李张刘陈杨赵黄周吴"
GIVEN = ["伟", "芳", "娜", "敏", "静", "丽", "强", "磊", "洋", "艳"]
LEVELS = ["普通", "银卡", "金卡", "standard", "silver", "gold", ""]
DEPARTMENTS = ["销售部", "市场部", "客服部", "华东区", ""]
NOTES = ["", "", "", "老客户", "需要回访"]
BAD = [
    (2, "1380013800"),  # phone too short
    (0, "X123"),  # code pattern
    (5, "2023-02-29"),  # invalid date
    (6, "12.345"),  # invalid number
    (4, "钻石卡"),  # not in enum
]


def make_rows(n: int, bad_every: int = 0) -> list[tuple[str, ...]]:
    rnd = random.Random(42)
    rows = []
    for i in range(n):
        row = [
            f"C{i:06d}",
            rnd.choice(SURNAMES) + rnd.choice(GIVEN) + rnd.choice(GIVEN),
            f"1{rnd.randrange(3, 10)}{rnd.randrange(10**9):09d}",
            f"user{i}@example.com" if i % 3 else "",
            rnd.choice(LEVELS),
            f"20{rnd.randrange(10, 25)}-{rnd.randrange(1, 13):02d}-{rnd.randrange(1, 29):02d}" if i % 4 else "",
            f"{rnd.randrange(0, 100000)}.{rnd.randrange(100):02d}" if i % 2 else str(rnd.randrange(50000)),
            rnd.choice(DEPARTMENTS),
            rnd.choice(NOTES),
        ]
        if bad_every and i % bad_every == bad_every // 2:
            col, text = BAD[(i // bad_every) % len(BAD)]
            row[col] = text
        rows.append(tuple(row))
    return rows


def as_excel(rows: list[tuple[str, ...]]) -> list[tuple[Cell, ...]]:
    """The same rows as an Excel reader yields them: numbers, dates, None for empty cells."""
    out: list[tuple[Cell, ...]] = []
    for r in rows:
        opened = datetime.datetime.strptime(r[5], "%Y-%m-%d") if r[5] else None
        out.append(
            (
                r[0],
                r[1],
                float(r[2]),
                r[3] or None,
                r[4] or None,
                opened,
                float(r[6]),
                r[7] or None,
                r[8] or None,
            )
        )
    return out


def run(label: str, rows: Sequence[Sequence[Cell]]) -> None:
    it = load_import_type(builtin_import_types_dir() / "customers.toml")
    validator = compile_validator(it, map_header(it, HEADER))
    check = validator.check
    best = float("inf")
    bad = 0
    for _ in range(3):
        gc.collect()
        gc.disable()
        start = time.perf_counter()
        for row in rows:
            check(row)
        best = min(best, time.perf_counter() - start)
        gc.enable()
    bad = sum(1 for row in rows if not check(row).ok)
    n = len(rows)
    per_row = best / n * 1e6
    print(
        f"{label:<26} {n:>9,} rows  {bad:>5} bad  total {best:6.2f} s  "
        f"{per_row:5.2f} µs/row  {per_row / len(HEADER):5.3f} µs/field"
    )


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
    from machine import machine_line

    print(machine_line())
    run("valid rows", make_rows(n))
    run("0.1% bad rows", make_rows(n, bad_every=1000))
    run("typed (Excel) cells", as_excel(make_rows(n)))


if __name__ == "__main__":
    main()
