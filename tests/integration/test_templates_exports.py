"""Templates a clerk fills in, and exports of every type that import back: on every back-end."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from openpyxl import load_workbook

from desktop_app.app import Core
from desktop_app.cli.main import main
from desktop_app.config import resources_dir
from desktop_app.domain.errors import PermanentError
from desktop_app.domain.status import TaskStatus
from desktop_app.imports.template import write_template
from tests.integration.test_import_modes import PRODUCT_HEADER, product
from tests.support.exports import run_export
from tests.support.imports import ORDER_HEADER, order_row, run_type_import, write_rows, write_type

# --- templates -----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["customers", "products", "price_list"])
def test_a_csv_template_is_the_header_row(core: Core, tmp_path: Path, name: str) -> None:
    itype = core.catalog.get(name)
    path = write_template(itype, tmp_path / f"{name}.csv", "csv")
    raw = path.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf") and raw.count(b"\n") == 1
    with path.open(encoding="utf-8-sig", newline="") as handle:
        assert list(csv.reader(handle)) == [[c.aliases[0] for c in itype.columns]]
    unfilled = run_type_import(core, path, name)
    assert unfilled.status is TaskStatus.FAILED and unfilled.error_code == "empty_file"


def test_an_xlsx_template_carries_the_rules(core: Core, tmp_path: Path) -> None:
    itype = core.catalog.get("products")
    path = write_template(itype, tmp_path / "p.xlsx", "xlsx", "zh")
    book = load_workbook(path)
    sheet, rules = book.worksheets
    header = [c.value for c in sheet[1]]
    assert header == PRODUCT_HEADER and sheet.freeze_panes == "A2"
    assert all(c.font.bold for c in sheet[1])
    required = {c.value for c in sheet[1] if c.comment is not None}
    assert required == {"商品编码", "商品名称", "单价"} and all(c.fill.fgColor.rgb.endswith("FFF2CC") for c in sheet[1]
                                                              if c.value in required)  # fmt: skip
    lists = {str(v.sqref).split(":")[0]: v.formula1 for v in sheet.data_validations.dataValidation}
    assert lists["E2"] == '"是,否"' and "食品" in lists["F2"]  # active (boolean) and category (enum)
    assert sheet.column_dimensions["A"].number_format == "@"  # SKUs stay text
    described = {r[0].value: r[2].value for r in rules.iter_rows(min_row=2)}
    assert "必填" in described["商品编码"] and "整数" in described["库存数量"] and "食品" in described["类别"]
    unfilled = run_type_import(core, path, "products")
    assert unfilled.error_code == "empty_file"
    for number, row in enumerate([product(1), product(2)], start=2):
        for column, value in enumerate(row, start=1):
            sheet.cell(row=number, column=column, value=value)
    book.save(path)
    filled = run_type_import(core, path, "products")
    assert filled.status is TaskStatus.SUCCEEDED and filled.success_count == 2


def test_a_list_excel_cannot_hold_inline_is_on_a_hidden_sheet(core: Core, tmp_path: Path) -> None:
    crates = (
        'name = "crates"\ntitle_zh = "箱子"\ntitle_en = "Crates"\ntable = "crates"\nunique_key = "code"\n\n'
        '[[columns]]\nkey = "code"\nlabel_zh = "编码"\nlabel_en = "Code"\naliases = ["编码"]\nrequired = true\n'
        'max_length = 10\n\n[[columns]]\nkey = "size"\nlabel_zh = "尺寸"\nlabel_en = "Size"\naliases = ["尺寸"]\n'
        'kind = "enum"\nenum = { "small, light" = "s", "=big" = "b" }\n'
    )  # a comma and a leading "=" in the inputs
    write_type(core, crates, "crates.toml")
    path = write_template(core.submitter().import_type("crates"), tmp_path / "c.xlsx", "xlsx", "en")
    book = load_workbook(path)
    assert [s.sheet_state for s in book.worksheets] == ["visible", "visible", "hidden"]
    (rule,) = book.worksheets[0].data_validations.dataValidation
    assert (str(rule.sqref), rule.formula1) == ("B2:B1048576", "'lists'!$B$1:$B$2")
    assert [c.value for c in book.worksheets[2]["B"]] == ["small, light", "=big"]  # text, not a formula
    book.worksheets[0].append(["K1", "=big"])
    book.worksheets[0]["B2"].data_type = "s"
    book.save(path)
    filled = run_type_import(core, path, "crates")  # the first sheet is read; the hidden one is not
    assert filled.status is TaskStatus.SUCCEEDED and filled.success_count == 1, filled.error_msg


def test_template_command(core: Core, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                          monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    monkeypatch.setenv("BATCHDESK_HOME", str(core.paths.data_dir))
    write_type(core)
    out = tmp_path / "orders.xlsx"
    assert main(["template", "orders", "--out", str(out), "--format", "xlsx", "--json", "--db", core.db_url]) == 0
    said = json.loads(capsys.readouterr().out)
    assert said == {"import_type": "orders", "format": "xlsx", "file": str(out.resolve())}
    assert [c.value for c in load_workbook(out).worksheets[0][1]] == ORDER_HEADER
    assert main(["template", "nope", "--out", str(tmp_path / "x.csv"), "--db", core.db_url]) == 2
    assert capsys.readouterr().err.count("\n") == 1


# --- exports of every type -------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["products", "price_list", "orders"])
def test_an_export_imports_back_as_all_skipped(core: Core, tmp_path: Path, name: str) -> None:
    write_type(core)
    samples = resources_dir() / "samples"
    orders = [order_row(n, line) for n in range(1, 15) for line in (1, 2)]
    sample = {"products": samples / "products.csv", "price_list": samples / "price_list.csv",
              "orders": write_rows(tmp_path / "o.csv", ORDER_HEADER, orders)}[name]  # fmt: skip
    first = run_type_import(core, sample.resolve(), name)
    assert first.status is TaskStatus.SUCCEEDED, first.error_msg
    exported = run_export(core, name)
    assert exported.status is TaskStatus.SUCCEEDED and exported.total_count == first.success_count
    back = run_type_import(core, Path(exported.result_path or ""), name, mode="insert_new")
    j = back.to_json()
    assert (j["skipped_count"], j["inserted_count"], j["fail_count"]) == (first.success_count, 0, 0), back.error_msg
    same = run_type_import(core, Path(exported.result_path or ""), name, mode="upsert")
    assert same.to_json()["unchanged_count"] == first.success_count  # every value came back as it was


def test_generic_filters_and_imported_by(core: Core, tmp_path: Path) -> None:
    base = run_type_import(core, write_rows(tmp_path / "a.csv", PRODUCT_HEADER,
                                            [product(n, 类别="饮料" if n % 2 else "食品") for n in range(1, 11)]),
                           "products")  # fmt: skip
    drinks = run_export(core, "products", filters={"category": "饮料"})
    assert drinks.total_count == 5
    active = run_export(core, "products", filters={"active": "yes", "category": "drinks"})
    assert active.total_count == 5
    update = run_type_import(core, write_rows(tmp_path / "u.csv", ["商品编码", "单价"],
                                              [["SKU-0001", "3.00"], ["SKU-0002", "2.50"]]),
                             "products", mode="upsert")  # fmt: skip
    by_update = run_export(core, "products", filters={"imported_by": update.task_no})
    assert by_update.total_count == 1  # the row it updated (the unchanged one it did not write)
    by_base = run_export(core, "products", filters={"imported_by": base.task_no})
    assert by_base.total_count == 10
    with pytest.raises(PermanentError, match="no filter 'colour'"):
        core.submitter().submit_export("products", filters={"colour": "red"}, user="me")
    with pytest.raises(PermanentError, match="stock"):
        core.submitter().submit_export("products", filters={"stock": "many"}, user="me")


def test_every_type_has_its_export(core: Core) -> None:
    write_type(core)
    handler = core.registry.get("export")
    assert {"customers", "products", "price_list", "orders"} <= set(handler.definitions)  # type: ignore[attr-defined]
