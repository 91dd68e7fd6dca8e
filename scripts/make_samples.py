"""Build the bundled sample files in resources/samples/ deterministically (same bytes every run).

Usage: python scripts/make_samples.py [OUT_DIR]
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import random
import sys
import zipfile
from pathlib import Path

HEADER = ["客户编号", "姓名", "手机号", "邮箱", "等级", "开户日期", "信用额度", "部门", "备注"]
DEPARTMENTS = ["销售部", "市场部", "财务部", "人事部", "技术部", "客服部", "采购部", "物流部"]
LEVELS = ["普通", "银卡", "金卡"]
SURNAMES = "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈"
GIVEN = "伟芳娜秀英敏静丽强磊军洋勇艳杰娟涛明超秀兰霞平刚桂英华建国志红文辉玉兰晨宇浩然子涵欣怡梓轩思雨"
NOTES = ["", "", "", "老客户", "需要发票", "周末联系", "VIP 推荐", "电话优先"]
FIXED_TIME = (2024, 1, 1, 0, 0, 0)


def person(rng: random.Random, code: int) -> list[str]:
    name = rng.choice(SURNAMES) + "".join(rng.choice(GIVEN) for _ in range(rng.choice((1, 2))))
    opened = dt.date(2018, 1, 1) + dt.timedelta(days=rng.randrange(2200))
    return [
        f"C{code:06d}",
        name,
        "1" + rng.choice("3456789") + "".join(rng.choice("0123456789") for _ in range(9)),
        f"user{code}@example.com" if rng.random() < 0.85 else "",
        rng.choice(LEVELS),
        opened.isoformat(),
        f"{rng.randrange(0, 200_000, 500)}.00" if rng.random() < 0.9 else "",
        rng.choice(DEPARTMENTS),
        rng.choice(NOTES),
    ]


def clean_rows(seed: int, first_code: int, count: int) -> list[list[str]]:
    rng = random.Random(seed)
    return [person(rng, first_code + i) for i in range(count)]


def error_rows() -> list[list[str]]:
    """50 rows: good ones mixed with one of each kind of mistake a clerk makes."""
    rows = clean_rows(2, 200_001, 50)
    bad: dict[int, tuple[int, str]] = {
        2: (0, "C12345"),  # code too short
        5: (1, ""),  # name missing
        8: (2, "1380013800"),  # 10-digit phone
        11: (3, "zhang.example.com"),  # email without @
        14: (4, "钻石"),  # not a level
        17: (5, "2023-02-30"),  # no such date
        20: (6, "abc"),  # not a number
        23: (6, "-100"),  # below the minimum
        26: (0, ""),  # code missing
        32: (8, "很长的备注" * 50),  # note longer than 200 characters
        38: (5, "2023/13/01"),  # month 13
    }
    for index, (column, value) in bad.items():
        rows[index][column] = value
    rows[41][0] = rows[40][0]  # the same code twice in the file
    rows[44] = [*rows[44], "多出来的一列"]  # a comma too many
    return rows


PRODUCT_HEADER = ["商品编码", "商品名称", "单价", "库存数量", "是否在售", "类别", "上市日期"]
PRODUCT_WORDS = [
    "绿茶",
    "咖啡豆",
    "纯牛奶",
    "苏打饼干",
    "全麦面包",
    "橙汁",
    "矿泉水",
    "抽纸",
    "洗衣液",
    "笔记本",
    "圆珠笔",
    "橡皮",
    "透明胶带",
    "酸奶",
    "燕麦片",
]
CATEGORIES = ["食品", "饮料", "日用品", "文具", "其他"]
PRICE_HEADER = ["商品编码", "生效日期", "价格", "币种"]
CURRENCIES = ["人民币", "美元", "欧元", "人民币", "人民币"]


def product_rows(count: int) -> list[list[str]]:
    rng = random.Random(5)
    rows = []
    for i in range(1, count + 1):
        launched = dt.date(2020, 1, 1) + dt.timedelta(days=rng.randrange(1500))
        rows.append([
            f"SKU-{1000 + i}",
            f"{rng.choice(PRODUCT_WORDS)} {rng.choice((250, 500, 1000))}{rng.choice(('ml', 'g', '件'))}",
            f"{rng.randrange(100, 99_900) / 100:.2f}",
            str(rng.randrange(0, 5000)),
            rng.choice(["是", "是", "是", "否"]),
            rng.choice(CATEGORIES),
            launched.isoformat() if rng.random() < 0.9 else "",
        ])  # fmt: skip
    return rows


def price_rows(count: int) -> list[list[str]]:
    rng = random.Random(6)
    rows = []
    for i in range(1, count + 1):
        sku = f"SKU-{1000 + (i + 1) // 2}"
        start = dt.date(2024, 1, 1) if i % 2 else dt.date(2024, 7, 1)  # two prices per product
        rows.append([sku, start.isoformat(), f"{rng.randrange(100, 99_900) / 100:.2f}", rng.choice(CURRENCIES)])
    return rows


def write_csv(path: Path, rows: list[list[str]], encoding: str, header: list[str] = HEADER) -> None:
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(header)
    writer.writerows(rows)
    path.write_bytes(buffer.getvalue().encode(encoding))


def write_xlsx(path: Path, rows: list[list[str]]) -> None:
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    sheet.title = "客户"
    sheet.append(HEADER)
    for row in rows:
        typed: list[object] = list(row)
        typed[5] = dt.date.fromisoformat(row[5])  # a real date cell, as Excel users type them
        typed[6] = float(row[6]) if row[6] else None
        sheet.append(typed)
    stamp = dt.datetime(*FIXED_TIME)
    book.properties.created = stamp
    book.properties.modified = stamp
    raw = io.BytesIO()
    book.save(raw)
    # openpyxl stamps every zip member with the current time: rewrite them with a fixed one.
    out = io.BytesIO()
    with zipfile.ZipFile(raw) as source, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            fixed = zipfile.ZipInfo(info.filename, date_time=FIXED_TIME)
            fixed.compress_type = zipfile.ZIP_DEFLATED
            target.writestr(fixed, source.read(info.filename))
    path.write_bytes(out.getvalue())


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else Path(__file__).resolve().parents[1] / "resources" / "samples"
    out.mkdir(parents=True, exist_ok=True)
    write_csv(out / "customers_clean.csv", clean_rows(1, 100_001, 200), "utf-8-sig")
    write_csv(out / "customers_errors.csv", error_rows(), "utf-8-sig")
    write_csv(out / "customers_gbk.csv", clean_rows(3, 300_001, 120), "gbk")
    write_xlsx(out / "customers.xlsx", clean_rows(4, 400_001, 150))
    write_csv(out / "products.csv", product_rows(60), "utf-8-sig", PRODUCT_HEADER)
    write_csv(out / "price_list.csv", price_rows(80), "utf-8-sig", PRICE_HEADER)
    for path in sorted(out.glob("*.*")):
        sys.stdout.write(f"{path} ({path.stat().st_size} bytes)\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
