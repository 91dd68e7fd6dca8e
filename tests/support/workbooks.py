"""A workbook of two tables for the workbook tests: goods (a company's own table, with an id a reference
looks up) and prices naming their goods by code; the types dropped into a desk's data folder."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import openpyxl
import sqlalchemy as sa

from desktop_app.app import Core
from tests.support.imports import write_type

# The goods are a company's own table (a reference looks up an id, which BatchDesk never adds to a table
# it makes); the prices are BatchDesk's, each price naming its goods by code.
GOODS = """\
name = "goods"
title_zh = "商品清单"
title_en = "Goods list"
table = "wb_goods"
unique_key = "goods_code"
create = false

[[columns]]
key = "goods_code"
label_zh = "商品代码"
label_en = "Goods code"
aliases = ["商品代码", "goods_code"]
required = true
max_length = 10

[[columns]]
key = "goods_name"
label_zh = "商品名"
label_en = "Goods name"
aliases = ["商品名", "goods_name"]
required = true
max_length = 40
"""

PRICES = """\
name = "prices"
title_zh = "价格表"
title_en = "Price sheet"
table = "wb_prices"
unique_key = "price_code"

[[columns]]
key = "price_code"
label_zh = "价格代码"
label_en = "Price code"
aliases = ["价格代码", "price_code"]
required = true
max_length = 10

[[columns]]
key = "goods"
label_zh = "商品"
label_en = "Goods"
aliases = ["商品", "goods"]
required = true
kind = "reference"
reference_table = "wb_goods"
reference_column = "goods_code"
reference_target = "goods_id"

[[columns]]
key = "amount"
label_zh = "金额"
label_en = "Amount"
aliases = ["金额", "amount"]
required = true
kind = "decimal"
decimal_scale = 2
decimal_min = 0
decimal_max = 100000
"""

GOODS_HEADER = ["goods_code", "goods_name"]
PRICES_HEADER = ["price_code", "goods", "amount"]
NOTES_HEADER = ["note", "author"]


def set_up_goods_and_prices(core: Core) -> None:
    """The two types in the desk's data folder, and wb_goods (id, goods_code, goods_name) holding G0."""
    write_type(core, GOODS, "goods.toml")
    write_type(core, PRICES, "prices.toml")
    dialect = core.store.engine.dialect.name
    ident = {"sqlite": "INTEGER PRIMARY KEY", "postgresql": "SERIAL PRIMARY KEY",
             "mysql": "INTEGER AUTO_INCREMENT PRIMARY KEY"}[dialect]  # fmt: skip
    with core.store.engine.begin() as conn:
        conn.execute(sa.text(f"CREATE TABLE wb_goods (id {ident}, goods_code VARCHAR(10) NOT NULL, "
                             "goods_name VARCHAR(40))"))  # fmt: skip
        conn.execute(sa.text("CREATE UNIQUE INDEX uq_wb_goods_code ON wb_goods (goods_code)"))
        conn.execute(sa.text("INSERT INTO wb_goods (goods_code, goods_name) VALUES ('G0', '旧货')"))


def write_book(path: Path, sheets: Sequence[tuple[str, Sequence[str], Sequence[Sequence[object]]]]) -> Path:
    book = openpyxl.Workbook()
    book.remove(book.active)
    for name, header, rows in sheets:
        sheet = book.create_sheet(name)
        sheet.append(list(header))
        for row in rows:
            sheet.append(list(row))
    book.save(path)
    return path
