"""Review of issue 9: the undo's error CSV reason, the XLSX template's drop-downs, integers after NFKC."""

from __future__ import annotations

import csv
from pathlib import Path

import sqlalchemy as sa

from desktop_app.app import Core
from desktop_app.domain.status import TaskStatus
from desktop_app.imports.template import write_template
from tests.support.imports import rows_of, run_type_import, write_rows, write_type
from tests.support.running import run_now

TYPE = """\
name = "crates"
title_zh = "箱子"
title_en = "Crates"
table = "crates"
unique_key = "code"

[[columns]]
key = "code"
label_zh = "编码"
label_en = "Code"
aliases = ["编码", "code"]
required = true
max_length = 10

[[columns]]
key = "qty"
label_zh = "数量"
label_en = "Quantity"
aliases = ["数量", "qty"]
kind = "integer"
"""


def test_the_undo_error_csv_gives_a_complete_reason(core: Core, tmp_path: Path) -> None:
    write_type(core, TYPE, "crates.toml")
    task = run_type_import(core, write_rows(tmp_path / "c.csv", ["编码", "数量"], [["A1", "1"], ["A2", "2"]]), "crates")
    with core.store.engine.begin() as conn:
        conn.execute(sa.text("UPDATE crates SET qty = 5 WHERE code = 'A1'"))  # changed by hand
    done = run_now(core, core.submitter().submit_undo(task.task_no, user="tester").task.id)
    assert done.status is TaskStatus.PARTIALLY_SUCCEEDED and done.error_csv
    with open(done.error_csv, encoding="utf-8-sig", newline="") as handle:
        (row,) = list(csv.DictReader(handle))
    assert row["行号"] == "2" and row["编码"] == "A1" and row["错误代码"] == "changed_since"
    # the catalog's {changed} placeholder is left empty: "这一行在导入后又被修改过（），..."
    assert "（）" not in row["错误原因"] and "()" not in row["错误原因"], row["错误原因"]


def test_integer_digits_are_read_after_nfkc(core: Core, tmp_path: Path) -> None:
    # "integer (new: an optional sign and digits after NFKC, ...)": full-width digits are digits
    write_type(core, TYPE, "crates.toml")
    task = run_type_import(core, write_rows(tmp_path / "c.csv", ["编码", "数量"], [["A1", "１２"], ["A2", "－５"]]),
                           "crates")  # fmt: skip
    assert task.status is TaskStatus.SUCCEEDED, task.error_msg
    assert [int(r[0]) for r in rows_of(core, "crates", ["qty"], ["code"])] == [12, -5]


def test_an_enum_with_many_inputs_still_gets_its_drop_down(core: Core, tmp_path: Path) -> None:
    from openpyxl import load_workbook

    cities = {f"City number {n:02d}": f"C{n:02d}" for n in range(1, 41)}  # 40 inputs, about 560 characters
    enum = ", ".join(f'"{k}" = "{v}"' for k, v in cities.items())
    write_type(core, TYPE + f'\n[[columns]]\nkey = "city"\nlabel_zh = "城市"\nlabel_en = "City"\naliases = ["城市"]\n'
               f'kind = "enum"\nenum = {{ {enum} }}\n', "crates.toml")  # fmt: skip
    itype = core.submitter().import_type("crates")
    out = write_template(itype, tmp_path / "t.xlsx", "xlsx", "en")
    sheet = load_workbook(out).worksheets[0]
    covered = [str(dv.sqref) for dv in sheet.data_validations.dataValidation if dv.type == "list"]
    assert any(ref.startswith("C2") for ref in covered), covered  # column C, the enum
