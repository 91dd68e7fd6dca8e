"""--mode delete on every back-end: found keys deleted, not_found, other columns ignored with a notice, a
foreign key that blocks a delete named, a dry run's counts, and the undo putting every row back whole."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import sqlalchemy as sa

from desktop_app.app import Core
from desktop_app.cli.main import main
from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import TaskRecord
from desktop_app.imports.type_schema import open_business_table
from desktop_app.store import import_log
from desktop_app.store.import_log import LogAction
from tests.support.imports import ORDER_HEADER, error_codes, order_row, run_type_import, write_rows, write_type
from tests.support.running import run_now

# A company's own table (BatchDesk only reads its shape): an id the type does not know, columns the type
# does not name (a note, a stamp), and another table whose rows refer to it by that id.
STOCK = """\
name = "stock"
title_zh = "库存品"
title_en = "Stock items"
table = "stock_items"
unique_key = "code"
create = false

[[columns]]
key = "code"
label_zh = "编码"
label_en = "Code"
aliases = ["编码", "code"]
required = true
max_length = 10

[[columns]]
key = "name"
label_zh = "名称"
label_en = "Name"
aliases = ["名称", "name"]
max_length = 40

[[columns]]
key = "price"
label_zh = "单价"
label_en = "Price"
aliases = ["单价", "price"]
kind = "decimal"
decimal_scale = 2
decimal_min = 0
decimal_max = 100000
"""


def whole_rows(core: Core, table: str, order: str) -> list[tuple[object, ...]]:
    """Every column of every row as the driver reads it, untyped: a restored row must match to the byte."""
    with core.store.reading() as conn:
        return [tuple(r) for r in conn.execute(sa.text(f"SELECT * FROM {table} ORDER BY {order}")).all()]


def company_tables(core: Core) -> None:
    """stock_items (id, code, name, price, added_on, stamp, note) and stock_moves referring to it by id."""
    dialect = core.store.engine.dialect.name
    ident = {"sqlite": "INTEGER PRIMARY KEY", "postgresql": "SERIAL PRIMARY KEY",
             "mysql": "INTEGER AUTO_INCREMENT PRIMARY KEY"}[dialect]  # fmt: skip
    stamp = "TIMESTAMP" if dialect == "postgresql" else "DATETIME"
    with core.store.engine.begin() as conn:
        conn.execute(sa.text(
            f"CREATE TABLE stock_items (id {ident}, code VARCHAR(10) NOT NULL, name VARCHAR(40), "
            f"price DECIMAL(10, 2), added_on DATE, stamp {stamp}, note VARCHAR(40))"
        ))  # fmt: skip
        conn.execute(sa.text("CREATE UNIQUE INDEX uq_stock_code ON stock_items (code)"))
        conn.execute(sa.text(
            f"CREATE TABLE stock_moves (id {ident}, item_id INTEGER NOT NULL, qty INTEGER, "
            "FOREIGN KEY (item_id) REFERENCES stock_items (id))"
        ))  # fmt: skip
        rows = [
            {"code": f"S{n}", "name": f"物品{n}" if n != 3 else None, "price": f"{n}.25" if n != 2 else None,
             "added_on": f"2024-03-0{n}" if n != 4 else None, "stamp": f"2024-03-0{n} 08:1{n}:05",
             "note": "旧货" if n % 2 else None}
            for n in range(1, 6)
        ]  # fmt: skip
        conn.execute(sa.text("INSERT INTO stock_items (code, name, price, added_on, stamp, note) VALUES "
                             "(:code, :name, :price, :added_on, :stamp, :note)"), rows)  # fmt: skip
        first = conn.execute(sa.text("SELECT id FROM stock_items WHERE code = 'S2'")).scalar()
        conn.execute(sa.text("INSERT INTO stock_moves (item_id, qty) VALUES (:i, 3)"), {"i": first})


def undo(core: Core, task: TaskRecord) -> TaskRecord:
    return run_now(core, core.submitter().submit_undo(task.task_no, user="tester").task.id)


def delete_by_cli(core: Core, path: Path, import_type: str, capsys: pytest.CaptureFixture[str],
                  monkeypatch: pytest.MonkeyPatch, *more: str) -> dict[str, object]:  # fmt: skip
    monkeypatch.setenv("BATCHDESK_HOME", str(core.paths.data_dir))  # the data folder with the user's types
    capsys.readouterr()
    code = main(["import", str(path), "--type", import_type, "--mode", "delete", *more, "--wait", "--json",
                 "--db", core.db_url, "--user", "tester"])  # fmt: skip
    out = capsys.readouterr().out
    assert code in (0, 1), out
    data = json.loads(out)
    assert isinstance(data, dict)
    return data


def test_delete_on_an_import_types_table_and_its_undo_by_the_command_line(
    core: Core, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    write_type(core)
    rows = [order_row(n) for n in range(1, 13)]
    rows[2] = order_row(3, 发货日期="", 单价="", 部门="")  # NULLs that must come back as NULLs
    base = run_type_import(core, write_rows(tmp_path / "a.csv", ORDER_HEADER, rows), "orders")
    assert base.status is TaskStatus.SUCCEEDED, base.error_msg
    before = whole_rows(core, "order_lines", "order_no, line_no")
    # keys and two columns delete mode ignores (their cells not even checked: "x" is no quantity)
    header = ["订单号", "明细行", "品名", "数量"]
    file = [
        ["SO0001", "1", "a", "x"],
        ["SO0003", "1", "", ""],
        ["SO0099", "1", "", ""],
        ["SO0002", "one", "", ""],
        ["SO0005", "1", "", ""],
        ["SO0001", "1", "", ""],
        *([f"SO{n:04d}", "1", "", ""] for n in range(7, 12)),
    ]
    task = delete_by_cli(core, write_rows(tmp_path / "d.csv", header, file), "orders", capsys, monkeypatch)
    assert task["status"] == "partially_succeeded" and task["mode"] == "delete", task
    assert (task["deleted_count"], task["inserted_count"], task["fail_count"], task["success_count"]) == (8, 0, 3, 8)
    ended = core.store.get(str(task["task_no"]))
    assert ended is not None
    assert error_codes(ended) == {4: ["not_found"], 5: ["invalid_integer"], 7: ["duplicate_in_file"]}
    notes = ended.summary["notes"]
    assert {"code": "ignored_in_delete", "params": {"headers": "品名, 数量"}} in notes
    assert any("品名, 数量" in w for w in ended.summary["warnings"])
    left = whole_rows(core, "order_lines", "order_no, line_no")
    assert [r[0] for r in left] == ["SO0002", "SO0004", "SO0006", "SO0012"]
    # the undo puts every deleted row back, every column as it was (the bookkeeping columns too)
    done = undo(core, ended)
    assert done.status is TaskStatus.SUCCEEDED, done.error_msg
    assert (done.to_json()["restored_count"], done.to_json()["kept_count"]) == (8, 0)
    assert whole_rows(core, "order_lines", "order_no, line_no") == before
    # and the first import, whose rows these are again, can still be undone as if nothing happened
    first = undo(core, base)
    assert first.to_json()["deleted_count"] == 12 and first.to_json()["kept_count"] == 0


def test_delete_on_a_company_table_names_the_table_that_still_refers(core: Core, tmp_path: Path) -> None:
    company_tables(core)
    write_type(core, STOCK, "stock.toml")
    before = whole_rows(core, "stock_items", "code")
    file = write_rows(tmp_path / "d.csv", ["编码", "单价"], [["S1", "9"], ["S2", ""], ["S3", ""], ["S9", ""]])
    task = run_type_import(core, file, "stock", mode="delete")
    assert task.error_code is None and task.retries == 0, task.error_msg
    assert (task.to_json()["deleted_count"], task.fail_count) == (2, 2)
    assert error_codes(task) == {3: ["still_referenced"], 5: ["not_found"]}
    with open(str(task.error_csv), encoding="utf-8-sig") as handle:
        text = handle.read()
    assert "stock_moves" in text and "item_id" in text
    assert [r[1] for r in whole_rows(core, "stock_items", "code")] == ["S2", "S4", "S5"]
    with core.store.reading() as conn:
        assert import_log.count(conn, task.task_no, [LogAction.DELETED]) == 2
    done = undo(core, task)
    assert done.status is TaskStatus.SUCCEEDED and done.to_json()["restored_count"] == 2, done.error_msg
    # the id, the columns the type does not name, NULLs, dates, stamps and decimals: all as they were
    assert whole_rows(core, "stock_items", "code") == before


def test_a_dry_run_counts_what_would_be_deleted_and_deletes_nothing(core: Core, tmp_path: Path) -> None:
    company_tables(core)
    write_type(core, STOCK, "stock.toml")
    before = whole_rows(core, "stock_items", "code")
    file = write_rows(tmp_path / "d.csv", ["编码"], [["S1"], ["S2"], ["S4"], ["S8"]])
    task = run_type_import(core, file, "stock", mode="delete", dry_run=True)
    assert task.to_json()["deleted_count"] == 2 and task.fail_count == 2, task.error_msg
    assert error_codes(task) == {3: ["still_referenced"], 5: ["not_found"]}
    assert whole_rows(core, "stock_items", "code") == before


def test_undo_keeps_a_key_taken_again_and_a_row_the_table_refuses_now(core: Core, tmp_path: Path) -> None:
    company_tables(core)
    with core.store.engine.begin() as conn:  # names unique from now on: a name taken since refuses S5
        conn.execute(sa.text("CREATE UNIQUE INDEX uq_stock_name ON stock_items (name)"))
    write_type(core, STOCK, "stock.toml")
    before = whole_rows(core, "stock_items", "code")
    file = write_rows(tmp_path / "d.csv", ["编码"], [["S1"], ["S4"], ["S5"]])
    task = run_type_import(core, file, "stock", mode="delete")
    assert task.status is TaskStatus.SUCCEEDED and task.to_json()["deleted_count"] == 3, task.error_msg
    rows = [["S4", "新的"], ["S7", "物品5"]]
    again = run_type_import(core, write_rows(tmp_path / "a.csv", ["编码", "名称"], rows), "stock")
    assert again.status is TaskStatus.SUCCEEDED, again.error_msg
    done = undo(core, task)
    assert done.status is TaskStatus.PARTIALLY_SUCCEEDED
    assert (done.to_json()["restored_count"], done.to_json()["kept_count"]) == (1, 2)
    assert error_codes(done) == {3: ["taken_since"], 4: ["rejected_by_database"]}
    now = {r[1]: r for r in whole_rows(core, "stock_items", "code")}
    assert now["S1"] == next(r for r in before if r[1] == "S1")  # put back whole
    assert now["S4"][2] == "新的" and "S5" not in now  # the row added since is kept; S5 stays out


def test_a_row_whose_delete_would_cascade_to_another_table_stays(core: Core, tmp_path: Path) -> None:
    # ON DELETE CASCADE would take the tags of S3 with it, which the undo could not put back
    company_tables(core)
    with core.store.engine.begin() as conn:
        conn.execute(sa.text("CREATE TABLE stock_tags (item_code VARCHAR(10) NOT NULL, tag VARCHAR(10), "
                             "FOREIGN KEY (item_code) REFERENCES stock_items (code) ON DELETE CASCADE)"))  # fmt: skip
        conn.execute(sa.text("INSERT INTO stock_tags (item_code, tag) VALUES ('S3', 'sale')"))
    write_type(core, STOCK, "stock.toml")
    file = write_rows(tmp_path / "d.csv", ["编码"], [["S1"], ["S3"], ["S4"], ["S5"]])
    check = run_type_import(core, file, "stock", mode="delete", dry_run=True)
    assert error_codes(check) == {3: ["still_referenced"]} and check.to_json()["deleted_count"] == 3
    task = run_type_import(core, file, "stock", mode="delete")
    assert error_codes(task) == {3: ["still_referenced"]} and task.to_json()["deleted_count"] == 3
    with open(str(task.error_csv), encoding="utf-8-sig") as handle:
        assert "stock_tags" in handle.read()
    assert [r[1] for r in whole_rows(core, "stock_items", "code")] == ["S2", "S3"]
    assert whole_rows(core, "stock_tags", "item_code") == [("S3", "sale")]


def test_the_rows_a_delete_reads_are_locked_for_its_transaction(core: Core, tmp_path: Path) -> None:
    # read before their delete, the rows must not change under it: the undo would put back stale values
    if core.store.engine.dialect.name == "sqlite":
        pytest.skip("SQLite has no row locks: its one writer holds the whole database")
    company_tables(core)
    write_type(core, STOCK, "stock.toml")
    seen: list[str] = []

    def capture(_conn: object, _cursor: object, statement: str, *_rest: object) -> None:
        seen.append(" ".join(statement.split()))

    sa.event.listen(sa.engine.Engine, "before_cursor_execute", capture)
    try:
        task = run_type_import(core, write_rows(tmp_path / "d.csv", ["编码"], [["S1"], ["S4"]]), "stock",
                               mode="delete")  # fmt: skip
    finally:
        sa.event.remove(sa.engine.Engine, "before_cursor_execute", capture)
    assert task.status is TaskStatus.SUCCEEDED and task.to_json()["deleted_count"] == 2, task.error_msg
    reads = [s for s in seen if s.startswith("SELECT") and "note" in s and "stock_items" in s]
    assert reads and all(s.endswith("FOR UPDATE") for s in reads), reads

    # and another session's update of such a row waits until the delete's transaction ends
    table = open_business_table(core.store.engine, core.catalog.get("stock"), prepare=False)
    other = sa.create_engine(core.db_url)
    wait = ("SET lock_timeout = '300ms'" if core.store.engine.dialect.name == "postgresql"
            else "SET SESSION innodb_lock_wait_timeout = 1")  # fmt: skip
    change = sa.text("UPDATE stock_items SET note = 'changed' WHERE code = 'S2'")
    try:
        with core.store.engine.connect() as deleting, other.connect() as updating:
            updating.execute(sa.text(wait))
            updating.commit()
            with deleting.begin():
                assert len(table.images(deleting, [("S2",), ("S3",)])) == 2
                with pytest.raises(sa.exc.OperationalError), updating.begin():
                    updating.execute(change)
            with updating.begin():  # the transaction ended: the row is free again
                assert updating.execute(change).rowcount == 1
    finally:
        other.dispose()


GENERATED = """\
name = "gadget"
title_zh = "部件"
title_en = "Gadgets"
table = "gen_items"
unique_key = "code"
create = false

[[columns]]
key = "code"
label_zh = "编码"
label_en = "Code"
aliases = ["编码", "code"]
required = true
max_length = 10

[[columns]]
key = "a"
label_zh = "数量"
label_en = "Amount"
aliases = ["数量", "a"]
kind = "integer"
integer_min = 0
integer_max = 1000
"""


def generated_table(core: Core) -> None:
    """gen_items (code, a, and columns the database computes or refuses values for), four rows."""
    dialect = core.store.engine.dialect.name
    columns = {
        # an identity GENERATED ALWAYS, a stored generated column, json and jsonb holding lists and scalars
        "postgresql": "id INTEGER GENERATED ALWAYS AS IDENTITY PRIMARY KEY, code VARCHAR(10) NOT NULL UNIQUE, "
                      "a INTEGER, c INTEGER GENERATED ALWAYS AS (a + 1) STORED, doc JSONB, raw JSON",
        "mysql": "code VARCHAR(10) PRIMARY KEY, a INT, c INT AS (a + 1) STORED, v INT AS (a * 2) VIRTUAL",
        "sqlite": "code VARCHAR(10) PRIMARY KEY, a INTEGER, c INTEGER GENERATED ALWAYS AS (a + 1) STORED, "
                  "v INTEGER GENERATED ALWAYS AS (a * 2) VIRTUAL",
    }[dialect]  # fmt: skip
    with core.store.engine.begin() as conn:
        conn.execute(sa.text(f"CREATE TABLE gen_items ({columns})"))
        if dialect == "postgresql":
            docs = ['[1, "二", {"k": [3]}]', '"只是文字"', "7", None]
            rows = [{"code": f"G{n}", "a": n, "doc": docs[n - 1], "raw": docs[n - 1]} for n in range(1, 5)]
            conn.execute(sa.text("INSERT INTO gen_items (code, a, doc, raw) VALUES "
                                 "(:code, :a, CAST(:doc AS JSONB), CAST(:raw AS JSON))"), rows)  # fmt: skip
        else:
            conn.execute(sa.text("INSERT INTO gen_items (code, a) VALUES (:code, :a)"),
                         [{"code": f"G{n}", "a": n if n != 4 else None} for n in range(1, 5)])  # fmt: skip


def comparable(rows: list[tuple[object, ...]]) -> list[tuple[object, ...]]:
    """Rows with their JSON documents as text (psycopg reads json as lists and dicts)."""
    return [tuple(str(v) if isinstance(v, list | dict) else v for v in r) for r in rows]


def test_an_undo_puts_back_rows_with_generated_identity_and_json_columns(core: Core, tmp_path: Path) -> None:
    generated_table(core)
    write_type(core, GENERATED, "gadget.toml")
    order = "code"
    before = comparable(whole_rows(core, "gen_items", order))
    file = write_rows(tmp_path / "d.csv", ["编码"], [["G1"], ["G2"], ["G3"], ["G4"]])
    task = run_type_import(core, file, "gadget", mode="delete")
    assert task.status is TaskStatus.SUCCEEDED and task.to_json()["deleted_count"] == 4, task.error_msg
    assert whole_rows(core, "gen_items", order) == []
    done = undo(core, task)
    assert done.status is TaskStatus.SUCCEEDED, done.error_msg
    assert (done.to_json()["restored_count"], done.to_json()["kept_count"]) == (4, 0)
    assert comparable(whole_rows(core, "gen_items", order)) == before
    if core.store.engine.dialect.name == "postgresql":
        with core.store.reading() as conn:  # the json values came back as json, a list as a list
            kinds = conn.execute(sa.text("SELECT jsonb_typeof(doc), json_typeof(raw) FROM gen_items ORDER BY code"))
            assert [tuple(r) for r in kinds] == [("array", "array"), ("string", "string"), ("number", "number"),
                                                 (None, None)]  # fmt: skip
