"""--mode sync on every back-end: the table (or its scope) ends equal to the file, deletes only with their
number confirmed (exit 2 otherwise, nothing written), the count checked again when the task runs, the undo
putting back every column, and a company table's foreign key named."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import pytest
import sqlalchemy as sa

from desktop_app.app import Core
from desktop_app.cli.main import main
from desktop_app.domain.errors import ErrorCode, PermanentError
from desktop_app.domain.modes import ImportMode
from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import TaskRecord
from desktop_app.imports.options import ImportOptions
from tests.integration.test_delete_mode import STOCK, company_tables, whole_rows
from tests.support.imports import error_codes, write_rows, write_type
from tests.support.running import run_now

CUSTOMERS = """\
name = "clients"
title_zh = "客户"
title_en = "Clients"
table = "clients"
unique_key = "code"

[[columns]]
key = "code"
label_zh = "编号"
label_en = "Code"
aliases = ["编号", "code"]
required = true
max_length = 10

[[columns]]
key = "name"
label_zh = "名称"
label_en = "Name"
aliases = ["名称", "name"]
required = true
max_length = 40

[[columns]]
key = "department"
label_zh = "部门"
label_en = "Department"
aliases = ["部门", "department"]
max_length = 20

[[columns]]
key = "credit"
label_zh = "额度"
label_en = "Credit"
aliases = ["额度", "credit"]
kind = "decimal"
decimal_scale = 2
decimal_min = 0
decimal_max = 100000
"""
HEADER = ["编号", "名称", "部门", "额度"]
EAST, NORTH = "华东销售部", "华北销售部"
BASE = [
    ["C1", "甲公司", EAST, "100.50"],
    ["C2", "乙公司", EAST, ""],
    ["C3", "丙公司", EAST, "300"],
    ["C4", "丁公司", NORTH, "400"],
    ["C5", "戊公司", NORTH, "500"],
]


def submit(core: Core, path: Path, import_type: str, mode: ImportMode, **options: object) -> TaskRecord:
    request = ImportOptions(file=path, import_type=import_type, mode=mode, **options)  # type: ignore[arg-type]
    result = core.submitter().submit_import(request, user="tester")
    assert not result.refused
    return run_now(core, result.task.id)


def clients(core: Core, tmp_path: Path) -> list[tuple[object, ...]]:
    """The clients table with BASE in it (an insert); every column of it as it is now."""
    write_type(core, CUSTOMERS, "clients.toml")
    base = submit(core, write_rows(tmp_path / "base.csv", HEADER, BASE), "clients", ImportMode.INSERT)
    assert base.status is TaskStatus.SUCCEEDED, base.error_msg
    return whole_rows(core, "clients", "code")


def cells(core: Core) -> list[tuple[object, ...]]:
    """The type's columns of every row, as the file writes them (a number compared as a number)."""
    with core.store.reading() as conn:
        rows = conn.execute(sa.text("SELECT code, name, department, credit FROM clients ORDER BY code")).all()
    return [(*("" if v is None else str(v) for v in r[:3]), None if r[3] is None else Decimal(str(r[3]))) for r in rows]


def as_file(rows: list[list[str]]) -> list[tuple[object, ...]]:
    return [(*r[:3], Decimal(r[3]) if r[3] else None) for r in sorted(rows)]


def sync_by_cli(core: Core, path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                *more: str) -> tuple[int, str, str]:  # fmt: skip
    monkeypatch.setenv("BATCHDESK_HOME", str(core.paths.data_dir))
    capsys.readouterr()
    code = main(["import", str(path), "--type", "clients", "--mode", "sync", *more, "--wait", "--json",
                 "--db", core.db_url, "--user", "tester"])  # fmt: skip
    out, err = capsys.readouterr()
    return code, out, err


def tasks_count(core: Core) -> int:
    with core.store.reading() as conn:
        return int(conn.execute(sa.text("SELECT COUNT(*) FROM tasks")).scalar() or 0)


def test_sync_by_the_command_line_ends_equal_to_the_file_and_its_undo_restores_every_column(
    core: Core, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    before = clients(core, tmp_path)
    file = [
        ["C1", "甲公司", EAST, "100.50"],  # unchanged
        ["C2", "乙公司（新）", EAST, "250"],  # updated
        ["C4", "丁公司", NORTH, "400"],  # unchanged
        ["C6", "己公司", NORTH, "600"],  # inserted
    ]  # C3 and C5 absent: deleted
    path = write_rows(tmp_path / "sync.csv", HEADER, file)
    queued = tasks_count(core)
    # without the confirmation, and with a wrong number: exit 2, one plain line, nothing queued nor written
    for more in ((), ("--confirm-deletes", "3"), ("--confirm-deletes", "0")):
        code, out, err = sync_by_cli(core, path, capsys, monkeypatch, *more)
        assert code == 2, (out, err)
        assert err.strip().splitlines() == [
            "batchdesk: This would delete 2 rows of clients; add --confirm-deletes 2 to go ahead"
        ], err
        assert whole_rows(core, "clients", "code") == before and tasks_count(core) == queued
    code, out, err = sync_by_cli(core, path, capsys, monkeypatch, "--confirm-deletes", "2")
    task = json.loads(out)
    assert code == 0 and task["status"] == "succeeded" and task["mode"] == "sync", (task, err)
    counts = [task[f"{k}_count"] for k in ("inserted", "updated", "unchanged", "deleted", "fail")]
    assert counts == [1, 1, 2, 2, 0], task
    assert cells(core) == as_file(file)
    ended = core.store.get(str(task["task_no"]))
    assert ended is not None
    done = run_now(core, core.submitter().submit_undo(ended.task_no, user="tester").task.id)
    assert done.status is TaskStatus.SUCCEEDED, done.error_msg
    assert done.to_json()["kept_count"] == 0
    # the insert deleted, the update's old values back, the deleted rows put back: every column as it was
    assert whole_rows(core, "clients", "code") == before


def test_a_scope_limits_the_deletes_and_a_row_outside_it_is_a_row_error(core: Core, tmp_path: Path) -> None:
    clients(core, tmp_path)
    file = [["C1", "甲公司", EAST, "100.50"], ["C7", "庚公司", EAST, "70"], ["C9", "辛公司", NORTH, "9"]]
    path = write_rows(tmp_path / "east.csv", HEADER, file)
    with pytest.raises(PermanentError) as refused:
        submit(core, path, "clients", ImportMode.SYNC, scope={"department": EAST})
    assert refused.value.code is ErrorCode.SYNC_CONFIRM_DELETES
    assert refused.value.text("en") == (
        f"This would delete 2 rows of clients (scope: department={EAST}); add --confirm-deletes 2 to go ahead"
    )
    assert "范围：department=" in refused.value.text("zh")
    task = submit(core, path, "clients", ImportMode.SYNC, scope={"department": EAST}, confirm_deletes=2)
    assert task.to_json()["deleted_count"] == 2 and task.to_json()["inserted_count"] == 1, task.error_msg
    assert error_codes(task) == {4: ["out_of_scope"]}
    # C2 and C3 of the east gone, the north's rows untouched (C9 outside the scope not written)
    assert [r[0] for r in cells(core)] == ["C1", "C4", "C5", "C7"]


def test_a_scope_column_the_type_lacks_is_refused(core: Core, tmp_path: Path) -> None:
    clients(core, tmp_path)
    path = write_rows(tmp_path / "s.csv", HEADER, BASE)
    with pytest.raises(PermanentError) as refused:
        submit(core, path, "clients", ImportMode.SYNC, scope={"region": EAST})
    assert refused.value.code is ErrorCode.SYNC_SCOPE_INVALID and "department" in refused.value.text("en")


def test_a_sync_that_deletes_nothing_needs_no_confirmation(core: Core, tmp_path: Path) -> None:
    clients(core, tmp_path)
    path = write_rows(tmp_path / "s.csv", HEADER, [*BASE, ["C8", "壬公司", NORTH, "8"]])
    task = submit(core, path, "clients", ImportMode.SYNC)
    assert task.status is TaskStatus.SUCCEEDED and task.to_json()["inserted_count"] == 1, task.error_msg
    assert task.to_json()["deleted_count"] == 0


def test_the_table_changed_between_submit_and_run_fails_the_task_before_writing(core: Core, tmp_path: Path) -> None:
    before = clients(core, tmp_path)
    path = write_rows(tmp_path / "s.csv", HEADER, [BASE[0], ["C2", "新名字", EAST, "1"]])
    request = ImportOptions(file=path, import_type="clients", mode=ImportMode.SYNC, confirm_deletes=3)
    result = core.submitter().submit_import(request, user="tester")
    with core.store.engine.begin() as conn:  # another desk adds a row after the count was confirmed
        conn.execute(sa.text("INSERT INTO clients (code, name, department) VALUES ('C0', '另一家', :d)"), {"d": EAST})
    after_change = whole_rows(core, "clients", "code")
    task = run_now(core, result.task.id)
    assert task.status is TaskStatus.FAILED and task.error_code == ErrorCode.SYNC_COUNT_CHANGED.value, task.error_msg
    assert task.retries == 0
    assert "4" in (task.error_msg or "") and "3" in (task.error_msg or "")
    assert whole_rows(core, "clients", "code") == after_change != before


def test_sync_on_a_company_table_names_the_table_that_still_refers(core: Core, tmp_path: Path) -> None:
    company_tables(core)
    write_type(core, STOCK, "stock.toml")
    before = whole_rows(core, "stock_items", "code")
    # S2 is referred to by stock_moves: its delete fails alone; S3 and S5 go; S1 changes; S6 comes in
    file = write_rows(tmp_path / "s.csv", ["编码", "名称", "单价"],
                      [["S1", "物品1改", "1.25"], ["S4", "", ""], ["S6", "新物品", "6"]])  # fmt: skip
    with pytest.raises(PermanentError) as refused:
        submit(core, file, "stock", ImportMode.SYNC)
    assert "3 rows of stock_items" in refused.value.text("en")
    task = submit(core, file, "stock", ImportMode.SYNC, confirm_deletes=3)
    assert task.error_code is None, task.error_msg
    data = task.to_json()
    assert (data["deleted_count"], data["updated_count"], data["inserted_count"], task.fail_count) == (2, 1, 1, 1)
    assert error_codes(task) == {0: ["still_referenced"]}
    with open(str(task.error_csv), encoding="utf-8-sig") as handle:
        text = handle.read()
    assert "stock_moves" in text and "\n0,S2," in text  # the row as stored (a MariaDB key folds to compare)
    assert [r[1] for r in whole_rows(core, "stock_items", "code")] == ["S1", "S2", "S4", "S6"]
    done = run_now(core, core.submitter().submit_undo(task.task_no, user="tester").task.id)
    assert done.status is TaskStatus.SUCCEEDED, done.error_msg
    assert whole_rows(core, "stock_items", "code") == before


def test_undo_keeps_and_lists_rows_changed_since_and_puts_back_the_rest(core: Core, tmp_path: Path) -> None:
    clients(core, tmp_path)
    file = [["C1", "甲公司", EAST, "1"], ["C2", "乙公司", EAST, ""], ["C9", "癸公司", NORTH, "9"]]
    task = submit(core, write_rows(tmp_path / "s.csv", HEADER, file), "clients", ImportMode.SYNC, confirm_deletes=3)
    assert task.status is TaskStatus.SUCCEEDED, task.error_msg
    with core.store.engine.begin() as conn:
        # changed since: the updated C1 edited by hand, the inserted C9 edited, the deleted C4's key taken again
        conn.execute(sa.text("UPDATE clients SET name = '别人改的' WHERE code IN ('C1', 'C9')"))
        conn.execute(sa.text("INSERT INTO clients (code, name, department) VALUES ('C4', '新丁', :d)"), {"d": NORTH})
    done = run_now(core, core.submitter().submit_undo(task.task_no, user="tester").task.id)
    data = done.to_json()
    assert done.status is TaskStatus.PARTIALLY_SUCCEEDED and data["kept_count"] == 3, done.error_msg
    kept = sorted(code for codes in error_codes(done).values() for code in codes)
    assert kept == ["changed_since", "changed_since", "taken_since"]
    # C3 and C5 back as they were; C1, C9 and the new C4 as the clerk left them
    assert cells(core) == [
        ("C1", "别人改的", EAST, Decimal("1")), ("C2", "乙公司", EAST, None), ("C3", "丙公司", EAST, Decimal("300")),
        ("C4", "新丁", NORTH, None), ("C5", "戊公司", NORTH, Decimal("500")), ("C9", "别人改的", NORTH, Decimal("9")),
    ]  # fmt: skip


def test_a_dry_run_of_a_sync_counts_its_deletes_and_writes_nothing(core: Core, tmp_path: Path) -> None:
    before = clients(core, tmp_path)
    path = write_rows(tmp_path / "s.csv", HEADER, [BASE[0], ["C2", "改名", EAST, "2"], ["C8", "新", EAST, "8"]])
    task = submit(core, path, "clients", ImportMode.SYNC, dry_run=True)  # no confirmation: it writes nothing
    data = task.to_json()
    assert [data[f"{k}_count"] for k in ("inserted", "updated", "unchanged", "deleted")] == [1, 1, 1, 3], data
    assert whole_rows(core, "clients", "code") == before
