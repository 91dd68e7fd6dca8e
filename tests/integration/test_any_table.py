"""Import types as data on every back-end: a user type imports with no code, grows, refuses unsafe changes,
uses a company's existing table (servers), and `types --json` lists them all with their problems."""

from __future__ import annotations

import datetime as dt
import json
import re
from decimal import Decimal
from pathlib import Path

import pytest
import sqlalchemy as sa

from desktop_app.app import Core, build_core
from desktop_app.cli.main import main
from desktop_app.domain.errors import ErrorCode, PermanentError
from desktop_app.domain.status import TaskStatus
from tests.support.imports import (
    ORDER_HEADER,
    ORDERS,
    error_codes,
    order_row,
    rows_of,
    run_type_import,
    write_rows,
    write_type,
)
from tests.support.running import run_now


def test_a_user_type_imports_with_no_code(core: Core, tmp_path: Path) -> None:
    write_type(core)
    rows = [order_row(n, line) for n in range(1, 21) for line in (1, 2)]
    task = run_type_import(core, write_rows(tmp_path / "orders.csv", ORDER_HEADER, rows), "orders")
    assert task.status is TaskStatus.SUCCEEDED, task.error_msg
    assert (task.total_count, task.success_count, task.to_json()["inserted_count"]) == (40, 40, 40)
    names = ["order_no", "line_no", "qty", "price", "ship_on", "ordered_at", "paid", "channel", "dept", "dept_id",
             "task_no"]  # fmt: skip
    stored = rows_of(core, "order_lines", names, ["order_no", "line_no"])
    first = stored[0]
    assert first[:2] == ("SO0001", 1) and len(stored) == 40
    assert int(first[2]) == 2 and Decimal(str(first[3])) == Decimal("11.50")
    assert str(first[4])[:10] == "2024-02-11" and str(first[5])[:16] in ("2024-01-02 01:30", "2024-01-02T01:30")
    assert bool(first[6]) is True and first[7] == "store" and first[8] == "市场部"
    assert first[9] is not None and first[10] == task.task_no  # the reference resolved, the task recorded


def test_every_kind_has_its_row_errors(core: Core, tmp_path: Path) -> None:
    write_type(core)
    cases = [
        ({"订单号": "X1"}, ["pattern_mismatch"]),
        ({"明细行": "1.0"}, ["invalid_integer"]),
        ({"明细行": "1000"}, ["out_of_range"]),
        ({"数量": "1,000"}, ["invalid_integer"]),
        ({"单价": "1.234"}, ["invalid_number"]),
        ({"发货日期": "2024-02-30"}, ["invalid_date"]),
        ({"下单时间": "2024-01-01 25:00"}, ["invalid_date"]),
        ({"已付款": "maybe"}, ["invalid_boolean"]),
        ({"渠道": "电话"}, ["not_in_enum"]),
        ({"品名": ""}, ["required_missing"]),
        ({"品名": "a\x00b"}, ["invalid_character"]),
    ]
    rows = [order_row(n) for n in range(1, 31)]
    expected = {}
    for i, (changes, codes) in enumerate(cases):
        rows[2 * i + 1] = order_row(2 * i + 2, **changes)
        expected[2 * i + 3] = codes  # row 1 is the header
    task = run_type_import(core, write_rows(tmp_path / "bad.csv", ORDER_HEADER, rows), "orders")
    assert error_codes(task) == expected
    assert task.success_count == 30 - len(cases)


def test_adding_a_column_later_works(core: Core, tmp_path: Path) -> None:
    write_type(core)
    run_type_import(core, write_rows(tmp_path / "a.csv", ORDER_HEADER, [order_row(n) for n in range(1, 6)]), "orders")
    grown = ORDERS + '\n[[columns]]\nkey = "region"\nlabel_zh = "区域"\nlabel_en = "Region"\naliases = ["区域", ' \
                     '"region"]\ndefault = "华东"\nmax_length = 10\n'  # fmt: skip
    write_type(core, grown)
    header = [*ORDER_HEADER, "区域"]
    later = [[*order_row(n), "华北"] for n in range(6, 9)]
    task = run_type_import(core, write_rows(tmp_path / "b.csv", header, later), "orders")
    assert task.status is TaskStatus.SUCCEEDED, task.error_msg
    regions = rows_of(core, "order_lines", ["order_no", "region"], ["order_no"])
    assert regions == [*((f"SO{n:04d}", "华东") for n in range(1, 6)), *((f"SO{n:04d}", "华北") for n in range(6, 9))]


def test_a_required_column_made_optional_later_works(core: Core, tmp_path: Path) -> None:
    write_type(core)
    first = run_type_import(core, write_rows(tmp_path / "a.csv", ORDER_HEADER, [order_row(n) for n in (1, 2)]),
                            "orders")  # fmt: skip
    write_type(core, ORDERS.replace("required = true\nmax_length = 40", "max_length = 40"))  # item: optional
    later = [order_row(3, 品名=""), order_row(1, 品名="")]
    task = run_type_import(core, write_rows(tmp_path / "b.csv", ORDER_HEADER, later), "orders")
    # the table lost the column's NOT NULL and kept its key (SQLite copied the table to drop it)
    assert error_codes(task) == {3: ["already_exists"]} and task.success_count == 1, task.error_msg
    assert rows_of(core, "order_lines", ["order_no", "item"], ["order_no"])[2] == ("SO0003", None)
    done = run_now(core, core.submitter().submit_undo(first.task_no, user="tester").task.id)
    assert done.to_json()["deleted_count"] == 2  # what the first import wrote is still recognised


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (('kind = "integer"\nnormalize = "nfkc"\ninteger_min = 0', 'kind = "text"\nnormalize = "nfkc"'),
         "column 'qty': the table stores it as"),
        (('unique_key = ["order_no", "line_no"]', 'unique_key = "order_no"'), "unique_key ['order_no']"),
        (("max_length = 40", "max_length = 3"), "column 'item': the stored data holds values of up to"),
    ],
)  # fmt: skip
def test_an_unsafe_change_is_refused_with_its_problem(
    core: Core, tmp_path: Path, change: tuple[str, str], problem: str, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    write_type(core)
    source = write_rows(tmp_path / "a.csv", ORDER_HEADER, [order_row(n) for n in range(1, 4)])
    run_type_import(core, source, "orders")
    pending = core.submitter().submit_import(_request(source, "orders"), user="later", force=True).task
    broken = write_type(core, ORDERS.replace(*change))
    # queueing with it: exit 2, one line naming the file and the column
    monkeypatch.setenv("BATCHDESK_HOME", str(core.paths.data_dir))  # the data folder with the user's types
    code = main(["import", str(source), "--type", "orders", "--json", "--db", core.db_url, "--user", "x"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and str(broken) in err and problem in err, err
    # a task queued before the type broke fails at once, never retried
    ended = run_now(core, pending.id)
    assert ended.status is TaskStatus.FAILED and ended.error_code == ErrorCode.IMPORT_TYPE_INVALID.value
    assert ended.retries == 0 and problem in (ended.error_msg or "")


def test_an_export_reads_a_table_whose_type_was_narrowed_below_its_rows(core: Core, tmp_path: Path) -> None:
    # Only a write must fit the type: the stored values longer than the new max_length are exported as
    # stored, without the scan for them that a write's plan runs (an import still refuses, above).
    write_type(core)
    source = write_rows(tmp_path / "a.csv", ORDER_HEADER, [order_row(n) for n in range(1, 4)])
    run_type_import(core, source, "orders")
    write_type(core, ORDERS.replace("max_length = 40", "max_length = 3"))
    statements: list[str] = []

    def seen(_conn: object, _cursor: object, statement: str, *_args: object) -> None:
        statements.append(statement)

    sa.event.listen(core.store.engine, "before_cursor_execute", seen)
    try:
        export = run_now(core, core.submitter().submit_export("orders", filters={}, user="tester").task.id)
    finally:
        sa.event.remove(core.store.engine, "before_cursor_execute", seen)
    assert export.status is TaskStatus.SUCCEEDED and export.success_count == 3, export.error_msg
    assert export.result_path and "商品1-1" in Path(export.result_path).read_text(encoding="utf-8-sig")
    # the write plan's scan is max(length(col)) (char_length on the servers); an export's own cell SQL may
    # ask a value's length (SQLite's datetime text), which reads no other row
    scans = [s for s in statements if re.search(r"max\((char_)?length\(", s.lower())]
    assert not scans, "a reading plan scanned the stored values"


def _request(path: Path, import_type: str) -> object:
    from desktop_app.imports.options import ImportOptions

    return ImportOptions(file=path, import_type=import_type)


def test_types_json_lists_builtin_user_and_broken(core: Core, capsys: pytest.CaptureFixture[str]) -> None:
    write_type(core)
    write_type(core, ORDERS.replace('name = "orders"', 'name = "broken"').replace("required = true", "required = 1"),
               "broken.toml")  # fmt: skip
    write_type(core, ORDERS.replace('name = "orders"', 'name = "company"').replace('table = "order_lines"',
               'table = "company_lines"\ncreate = false'), "company.toml")  # fmt: skip
    assert main(["types", "--json", "--data-dir", str(core.paths.data_dir)] if core.db_url.startswith("sqlite")
                else ["types", "--json", "--db", core.db_url]) == 0  # fmt: skip
    listed = {t["name"]: t for t in json.loads(capsys.readouterr().out)}
    if not core.db_url.startswith("sqlite"):
        return _check_listed(listed, user_types=False)
    _check_listed(listed, user_types=True)


def _check_listed(listed: dict[str, dict[str, object]], *, user_types: bool) -> None:
    assert {"customers", "products", "price_list"} <= set(listed)
    customers = listed["customers"]
    assert customers["source"] == "builtin" and customers["unique_key"] == ["code"] and customers["problem"] is None
    assert {"key": "code", "label": customers["columns"][0]["label"], "kind": "text", "required": True} == \
        customers["columns"][0]  # type: ignore[index]  # fmt: skip
    assert listed["price_list"]["unique_key"] == ["sku", "valid_from"]
    if not user_types:
        return
    assert listed["orders"]["source"] == "user" and listed["orders"]["problem"] is None
    assert listed["orders"]["table"] == "order_lines"
    assert "'required' must be true or false" in str(listed["broken"]["problem"])
    assert "does not exist (the type says create = false)" in str(listed["company"]["problem"])


def test_types_json_with_a_data_dir_lists_its_user_types(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    core = build_core(data_dir=tmp_path / "d")
    write_type(core)
    assert main(["types", "--json", "--data-dir", str(tmp_path / "d")]) == 0
    names = {t["name"]: t["source"] for t in json.loads(capsys.readouterr().out)}
    assert names["orders"] == "user" and names["customers"] == "builtin"


# --- a company's own table (PostgreSQL and MariaDB) -----------------------------------------------------

COMPANY = """\
name = "staff"
title_zh = "员工"
title_en = "Staff"
table = "{table}"
unique_key = "emp_no"
create = false

[[columns]]
key = "emp_no"
label_zh = "工号"
label_en = "Employee number"
aliases = ["工号", "emp_no"]
required = true
max_length = 10

[[columns]]
key = "name"
label_zh = "姓名"
label_en = "Name"
aliases = ["姓名", "name"]
required = true
max_length = 30

[[columns]]
key = "hired_on"
label_zh = "入职日期"
label_en = "Hired on"
aliases = ["入职日期", "hired_on"]
kind = "date"

[[columns]]
key = "salary"
label_zh = "工资"
label_en = "Salary"
aliases = ["工资", "salary"]
kind = "decimal"
decimal_scale = 2
decimal_min = 0
decimal_max = 999999
"""


def _company_table(core: Core) -> str:
    dialect = core.store.engine.dialect.name
    if dialect == "sqlite":
        pytest.skip("a company's own database is PostgreSQL or MySQL/MariaDB")
    with core.store.engine.begin() as conn:
        schema = conn.execute(sa.text("SELECT current_schema()" if dialect == "postgresql" else "SELECT DATABASE()"))
        name = schema.scalar()
        auto = "GENERATED ALWAYS AS IDENTITY" if dialect == "postgresql" else "AUTO_INCREMENT"
        conn.execute(sa.text(
            f"CREATE TABLE hr_staff (id INTEGER PRIMARY KEY {auto}, emp_no VARCHAR(12) NOT NULL UNIQUE, "
            "name VARCHAR(40) NOT NULL, hired_on DATE, salary NUMERIC(10,2), note VARCHAR(100), "
            "created_by VARCHAR(20) DEFAULT 'hr')"
        ))  # fmt: skip
    return f"{name}.hr_staff"


def test_an_existing_table_is_used_as_it_is(core: Core, tmp_path: Path) -> None:
    table = _company_table(core)
    write_type(core, COMPANY.format(table=table), "staff.toml")
    rows = [[f"E{n:03d}", f"员工{n}", "2020-01-02", "8000.50"] for n in range(1, 11)]
    task = run_type_import(core, write_rows(tmp_path / "s.csv", ["工号", "姓名", "入职日期", "工资"], rows), "staff")
    assert task.status is TaskStatus.SUCCEEDED, task.error_msg
    with core.store.reading() as conn:
        stored = conn.execute(sa.text("SELECT emp_no, salary, created_by FROM hr_staff ORDER BY emp_no")).all()
    assert len(stored) == 10 and Decimal(str(stored[0][1])) == Decimal("8000.50") and stored[0][2] == "hr"
    # the bookkeeping is BatchDesk's own: the company's table got no column
    with core.store.reading() as conn:
        columns = {c["name"] for c in sa.inspect(conn).get_columns("hr_staff")}
    assert columns == {"id", "emp_no", "name", "hired_on", "salary", "note", "created_by"}
    again = run_type_import(core, tmp_path / "s.csv", "staff", force=True)
    assert set(c for codes in error_codes(again).values() for c in codes) == {"already_exists"}
    # and an update of it, then an undo, work the same on a table that is not ours
    changed = [[f"E{n:03d}", f"员工{n}", "2020-01-02", "9000.00"] for n in range(1, 4)]
    update = run_type_import(core, write_rows(tmp_path / "u.csv", ["工号", "姓名", "入职日期", "工资"], changed),
                             "staff", mode="update")  # fmt: skip
    assert update.to_json()["updated_count"] == 3


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (("max_length = 10", "max_length = 20"), "holds at most 12 characters; the type allows 20 characters"),
        (('key = "hired_on"', 'key = "started_on"'), "column 'started_on': the table"),
        (("decimal_max = 999999", "decimal_max = 99999999999"), "digits before the decimal point"),
        (('unique_key = "emp_no"', 'unique_key = "name"'), "it is not unique"),
        (('[[columns]]\nkey = "name"', '[[columns]]\nkey = "note"'), "the table's column 'name' requires a value"),
    ],
)
def test_an_existing_tables_mismatches_are_reported(core: Core, change: tuple[str, str], problem: str) -> None:
    table = _company_table(core)
    write_type(core, COMPANY.format(table=table).replace(*change), "staff.toml")
    with pytest.raises(PermanentError) as info:
        core.submitter().import_type("staff")
    assert info.value.code is ErrorCode.IMPORT_TYPE_INVALID
    assert problem in info.value.text("en"), info.value.text("en")


def test_a_missing_table_with_create_false(core: Core) -> None:
    write_type(core, COMPANY.format(table="nowhere"), "staff.toml")
    with pytest.raises(PermanentError, match="does not exist"):
        core.submitter().import_type("staff")


def test_batchdesks_own_tables_are_not_a_target(core: Core) -> None:
    write_type(core, ORDERS.replace('table = "order_lines"', 'table = "tasks"'))
    with pytest.raises(PermanentError, match="one of BatchDesk's own tables"):
        core.submitter().import_type("orders")


def test_dates_and_times_come_back_as_written(core: Core, tmp_path: Path) -> None:
    write_type(core)
    rows = [order_row(1, 1, 下单时间="2024-03-05 9:05", 发货日期="2024/3/5")]
    run_type_import(core, write_rows(tmp_path / "t.csv", ORDER_HEADER, rows), "orders")
    (stored,) = rows_of(core, "order_lines", ["ship_on", "ordered_at"], ["order_no"])
    ship, at = stored
    assert (ship if isinstance(ship, dt.date) else dt.date.fromisoformat(str(ship)[:10])) == dt.date(2024, 3, 5)
    assert str(at).replace("T", " ")[:19] == "2024-03-05 09:05:00"
