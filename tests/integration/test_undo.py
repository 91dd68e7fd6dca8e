"""Undo an import on every back-end: inserts deleted, updates put back, rows changed since kept and named."""

from __future__ import annotations

import csv
import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from desktop_app.app import Core, build_core
from desktop_app.cli.main import main
from desktop_app.domain.errors import ErrorCode, PermanentError
from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import TaskRecord
from desktop_app.imports.options import ImportOptions
from tests.integration.test_import_modes import PRODUCT_HEADER, product, stored
from tests.support.imports import ORDER_HEADER, order_row, rows_of, run_type_import, write_rows, write_type
from tests.support.running import run_now


def undo(core: Core, task_no: str, user: str = "tester") -> TaskRecord:
    result = core.submitter().submit_undo(task_no, user=user)
    return run_now(core, result.task.id)


def undo_counts(task: TaskRecord) -> tuple[int, int, int]:
    j = task.to_json()
    return j["deleted_count"], j["restored_count"], j["kept_count"]


def test_undo_of_an_insert_deletes_its_rows_and_the_file_may_come_again(core: Core, tmp_path: Path) -> None:
    keep = run_type_import(core, write_rows(tmp_path / "a.csv", PRODUCT_HEADER, [product(n) for n in range(1, 4)]),
                           "products")  # fmt: skip
    path = write_rows(tmp_path / "b.csv", PRODUCT_HEADER, [product(n) for n in range(10, 30)])
    task = run_type_import(core, path, "products")
    done = undo(core, task.task_no)
    assert done.status is TaskStatus.SUCCEEDED and undo_counts(done) == (20, 0, 0)
    assert done.to_json()["undoes"] == task.task_no and done.error_csv is None
    assert sorted(stored(core)) == ["SKU-0001", "SKU-0002", "SKU-0003"]  # the other import's rows stay
    imported = core.store.get(task.task_no)
    assert imported is not None and imported.to_json()["undone_by"] == done.task_no
    assert core.store.get(keep.task_no).to_json()["undone_by"] is None  # type: ignore[union-attr]
    assert done.summary["annotated"] == [task.task_no]  # what the run changed, named for a view to read again
    again = core.submitter().submit_import(ImportOptions(file=path, import_type="products"), user="tester")
    assert not again.refused  # no longer "already imported"
    assert run_now(core, again.task.id).success_count == 20


def test_undo_of_an_update_puts_the_old_values_back(core: Core, tmp_path: Path) -> None:
    run_type_import(core, write_rows(tmp_path / "a.csv", PRODUCT_HEADER, [product(n) for n in range(1, 6)]), "products")
    before = stored(core)
    header = ["商品编码", "单价", "类别"]
    rows = [["SKU-0001", "99.00", "饮料"], ["SKU-0002", "2.50", ""], ["SKU-0003", "7.77", "文具"]]
    update = run_type_import(core, write_rows(tmp_path / "u.csv", header, rows), "products", mode="update")
    assert update.to_json()["updated_count"] == 2 and update.to_json()["unchanged_count"] == 1
    done = undo(core, update.task_no)
    assert done.status is TaskStatus.SUCCEEDED and undo_counts(done) == (0, 2, 0)
    assert stored(core) == before


def test_undo_of_an_upsert_does_both(core: Core, tmp_path: Path) -> None:
    run_type_import(core, write_rows(tmp_path / "a.csv", PRODUCT_HEADER, [product(n) for n in range(1, 4)]), "products")
    before = stored(core)
    rows = [product(1, 单价="0.01"), product(2), product(40), product(41)]
    upsert = run_type_import(core, write_rows(tmp_path / "u.csv", PRODUCT_HEADER, rows), "products", mode="upsert")
    assert (upsert.to_json()["inserted_count"], upsert.to_json()["updated_count"]) == (2, 1)
    done = undo(core, upsert.task_no)
    assert undo_counts(done) == (2, 1, 0) and stored(core) == before


def test_rows_changed_since_are_kept_and_named(core: Core, tmp_path: Path) -> None:
    first = run_type_import(core, write_rows(tmp_path / "a.csv", PRODUCT_HEADER, [product(n) for n in range(1, 7)]),
                            "products")  # fmt: skip
    # changed by a later task (an update of 2) and by hand (3's stock)
    run_type_import(core, write_rows(tmp_path / "u.csv", ["商品编码", "单价"], [["SKU-0002", "50.00"]]), "products",
                    mode="update")  # fmt: skip
    with core.store.engine.begin() as conn:
        conn.execute(sa.text("UPDATE products SET stock = 1 WHERE sku = 'SKU-0003'"))
    done = undo(core, first.task_no)
    assert done.status is TaskStatus.PARTIALLY_SUCCEEDED and undo_counts(done) == (4, 0, 2)
    assert sorted(stored(core)) == ["SKU-0002", "SKU-0003"]
    raw = Path(done.error_csv or "").read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")
    with open(done.error_csv or "", encoding="utf-8-sig", newline="") as handle:
        lines = list(csv.reader(handle))
    assert lines[0] == ["行号", "商品编码", "错误代码", "错误原因"]
    assert [line[:3] for line in lines[1:]] == [["3", "SKU-0002", "changed_since"], ["4", "SKU-0003", "changed_since"]]
    # an inserted row's signature says that it changed, not where: the columns it may be
    assert all("单价" in line[3] and "中的一列或几列" in line[3] and "（）" not in line[3] for line in lines[1:])


def test_an_updates_undo_names_the_columns_changed_since(core: Core, tmp_path: Path) -> None:
    run_type_import(core, write_rows(tmp_path / "a.csv", PRODUCT_HEADER, [product(1)]), "products")
    update = run_type_import(core, write_rows(tmp_path / "u.csv", ["商品编码", "单价"], [["SKU-0001", "5.00"]]),
                             "products", mode="update")  # fmt: skip
    with core.store.engine.begin() as conn:
        conn.execute(sa.text("UPDATE products SET unit_price = 6 WHERE sku = 'SKU-0001'"))
    done = undo(core, update.task_no)
    with open(done.error_csv or "", encoding="utf-8-sig", newline="") as handle:
        (row,) = list(csv.DictReader(handle))
    assert row["错误原因"] == "这一行在导入后又被修改过（单价），为免覆盖他人的修改已保留原样"


def test_a_change_to_a_column_the_update_did_not_write_does_not_keep_it(core: Core, tmp_path: Path) -> None:
    run_type_import(core, write_rows(tmp_path / "a.csv", PRODUCT_HEADER, [product(1)]), "products")
    update = run_type_import(core, write_rows(tmp_path / "u.csv", ["商品编码", "单价"], [["SKU-0001", "5.00"]]),
                             "products", mode="update")  # fmt: skip
    with core.store.engine.begin() as conn:  # a clerk renames it by hand: the price is still what the update wrote
        conn.execute(sa.text("UPDATE products SET name = '改名' WHERE sku = 'SKU-0001'"))
    done = undo(core, update.task_no)
    assert undo_counts(done) == (0, 1, 0)
    assert stored(core)["SKU-0001"][:2] == ("改名", Decimal("1.50"))


def test_undo_on_a_composite_key_and_references(core: Core, tmp_path: Path) -> None:
    write_type(core)
    base = [order_row(n, line) for n in (1, 2, 3) for line in (1, 2)]
    first = run_type_import(core, write_rows(tmp_path / "o.csv", ORDER_HEADER, base), "orders")
    update = run_type_import(core, write_rows(tmp_path / "p.csv", ORDER_HEADER,
                                              [order_row(1, 1, 部门="财务部"), order_row(9, 1)]),
                             "orders", mode="upsert")  # fmt: skip
    assert undo_counts(undo(core, update.task_no)) == (1, 1, 0)
    depts = rows_of(core, "order_lines", ["order_no", "line_no", "dept", "dept_id"], ["order_no", "line_no"])
    assert len(depts) == 6 and depts[0][2] == "市场部" and depts[0][3] is not None
    assert undo_counts(undo(core, first.task_no)) == (6, 0, 0)
    assert rows_of(core, "order_lines", ["order_no"], ["order_no"]) == []


def test_asking_twice_gives_the_same_undo(core: Core, tmp_path: Path) -> None:
    task = run_type_import(core, write_rows(tmp_path / "a.csv", PRODUCT_HEADER, [product(1)]), "products")
    first = core.submitter().submit_undo(task.task_no, user="tester")
    pending = core.submitter().submit_undo(task.task_no, user="tester")
    assert pending.duplicate_of == first.task.task_no
    run_now(core, first.task.id)
    after = core.submitter().submit_undo(task.task_no, user="tester")
    assert after.duplicate_of == first.task.task_no and after.task.status is TaskStatus.SUCCEEDED


def test_what_cannot_be_undone_exits_2_with_one_line(core: Core, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                    qapp: object) -> None:  # fmt: skip
    # qapp: `--wait` in this process makes a QCoreApplication when no Qt application exists yet, and
    # later tests' qapp would find that one instead of a QApplication
    path = write_rows(tmp_path / "a.csv", PRODUCT_HEADER, [product(1)])
    dry = run_type_import(core, path, "products", dry_run=True)
    real = run_type_import(core, path, "products")
    the_undo = undo(core, real.task_no)
    waiting = core.submitter().submit_import(ImportOptions(file=write_rows(tmp_path / "b.csv", PRODUCT_HEADER,
                                                                           [product(2)]), import_type="products"),
                                             user="tester").task  # fmt: skip
    for task_no, words in ((dry.task_no, "validation-only"), (the_undo.task_no, "an undo itself"),
                           (waiting.task_no, "not finished"), ("T000000-ZZZZZZ", "No task")):  # fmt: skip
        assert main(["undo", task_no, "--wait", "--json", "--db", core.db_url, "--user", "tester"]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and words in err, err
    with pytest.raises(PermanentError) as info:
        core.submitter().submit_undo(dry.task_no, user="tester")
    assert info.value.code is ErrorCode.NOT_UNDOABLE


def test_undo_through_the_command_line(core: Core, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                       monkeypatch: pytest.MonkeyPatch, qapp: object) -> None:  # fmt: skip
    monkeypatch.setenv("BATCHDESK_HOME", str(core.paths.data_dir))
    task = run_type_import(core, write_rows(tmp_path / "a.csv", PRODUCT_HEADER, [product(n) for n in range(1, 4)]),
                           "products")  # fmt: skip
    code = main(["undo", task.task_no, "--wait", "--json", "--db", core.db_url, "--user", "tester"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["type"] == "undo" and out["status"] == "succeeded" and out["import_type"] == "products"
    assert (out["deleted_count"], out["restored_count"], out["kept_count"]) == (3, 0, 0)
    assert out["undoes"] == task.task_no and out["duplicate_of"] is None
    assert main(["undo", task.task_no, "--json", "--db", core.db_url, "--user", "tester"]) == 0
    assert json.loads(capsys.readouterr().out)["duplicate_of"] == out["task_no"]


def test_an_undo_goes_in_pages_of_the_settings_size(db_url: str, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    """settings.undo_page_rows: a page (one transaction, one checkpoint) of that many rows (the kill -9
    tests undo 2,000 rows in 80 pages); 0 is the undo's own 500."""
    from desktop_app.tasks.context import TaskContext

    pages: list[int] = []
    real = TaskContext.commit_batch

    def counted(self: TaskContext, *args: object, **kwargs: object) -> object:
        pages.append(1)
        return real(self, *args, **kwargs)  # type: ignore[arg-type]

    desk = build_core(data_dir=tmp_path / "data", db_url=db_url, overrides={"undo_page_rows": 3})
    try:
        task = run_type_import(desk, write_rows(tmp_path / "a.csv", PRODUCT_HEADER,
                                                [product(n) for n in range(1, 21)]), "products")  # fmt: skip
        monkeypatch.setattr(TaskContext, "commit_batch", counted)
        done = undo(desk, task.task_no)
        assert done.status is TaskStatus.SUCCEEDED and undo_counts(done) == (20, 0, 0)
        assert len(pages) >= 7  # 20 rows in pages of 3 (and the empty page that ends it)
        assert not stored(desk)
    finally:
        desk.store.engine.dispose()


def test_rows_an_undo_took_back_are_no_longer_the_rows_the_import_wrote(
    core: Core, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seen by a clerk: "only the rows imported by" an undone upsert still exported the rows it had updated,
    holding their old values again. After the undo only what it could not take back is the import's (a row
    changed since, kept and named in its error file)."""
    from tests.support.exports import run_export

    run_type_import(core, write_rows(tmp_path / "a.csv", PRODUCT_HEADER, [product(n) for n in range(1, 5)]),
                    "products")  # fmt: skip
    rows = [product(1, 单价="0.01"), product(2, 单价="0.02"), product(3, 单价="0.03"), product(40), product(41)]
    upsert = run_type_import(core, write_rows(tmp_path / "u.csv", PRODUCT_HEADER, rows), "products", mode="upsert")
    assert (upsert.to_json()["inserted_count"], upsert.to_json()["updated_count"]) == (2, 3)
    assert run_export(core, "products", filters={"imported_by": upsert.task_no}).success_count == 5
    with core.store.engine.begin() as conn:  # by hand since: one updated row, one inserted row
        conn.execute(sa.text("UPDATE products SET unit_price = 7 WHERE sku IN ('SKU-0003', 'SKU-0041')"))
    done = undo(core, upsert.task_no)
    assert undo_counts(done) == (1, 2, 2), done.summary
    totals = count_totals(monkeypatch)
    export = run_export(core, "products", filters={"imported_by": upsert.task_no})
    assert export.status is TaskStatus.SUCCEEDED and export.success_count == 2, export.error_msg
    text = Path(export.result_path or "").read_text(encoding="utf-8-sig")
    assert "SKU-0003" in text and "SKU-0041" in text and "SKU-0001" not in text and "SKU-0002" not in text
    # its progress counted the rows it writes ("row 1 of 5" was seen: the import's own count)
    assert totals == [2]


def count_totals(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The progress totals the exports count from now on (what each's _Rows.count gives)."""
    from desktop_app.exports import task as export_task

    totals: list[int] = []
    real = export_task._Rows.count

    def counted(self: Any) -> int:
        totals.append(real(self))
        return totals[-1]

    monkeypatch.setattr(export_task._Rows, "count", counted)
    return totals


def test_an_undo_after_a_cancelled_one_takes_back_only_what_is_left(
    db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An undo cancelled after its first page leaves the import not undone: undone again, the rows the first
    one put back are not "changed since" (they hold what the first undo wrote, not what the import did)."""
    from desktop_app.tasks.context import TaskContext

    desk = build_core(data_dir=tmp_path / "data", db_url=db_url, overrides={"undo_page_rows": 1})
    try:
        run_type_import(desk, write_rows(tmp_path / "a.csv", PRODUCT_HEADER, [product(n) for n in range(1, 5)]),
                        "products")  # fmt: skip
        before = stored(desk)
        rows = [product(n, 单价=f"0.0{n}") for n in range(1, 4)]
        update = run_type_import(desk, write_rows(tmp_path / "u.csv", PRODUCT_HEADER, rows), "products",
                                 mode="update")  # fmt: skip
        assert update.to_json()["updated_count"] == 3
        real = TaskContext.commit_batch

        def cancel_after_one_row(self: TaskContext, *args: object, **kwargs: object) -> object:
            done = real(self, *args, **kwargs)  # type: ignore[arg-type]
            checkpoint = kwargs["checkpoint"]
            if callable(checkpoint) and checkpoint()["restored"]:
                self.cancel_requested = True  # as a cancel read with the page's checkpoint
            return done

        monkeypatch.setattr(TaskContext, "commit_batch", cancel_after_one_row)
        first = undo(desk, update.task_no)
        assert first.status is TaskStatus.CANCELLED and first.checkpoint["restored"] == 1, first  # type: ignore[index]
        monkeypatch.setattr(TaskContext, "commit_batch", real)
        second = undo(desk, update.task_no)
        assert second.status is TaskStatus.SUCCEEDED and second.error_csv is None, second.summary
        assert undo_counts(second) == (0, 2, 0) and stored(desk) == before
    finally:
        desk.store.engine.dispose()


def test_on_a_companys_own_table_an_undone_imports_rows_are_not_exported_as_its_rows(
    core: Core, tmp_path: Path
) -> None:
    """The same on a table that is not ours (servers): its inserts and updates are known from the bookkeeping
    alone, and an undo marks what it took back there."""
    from tests.integration.test_any_table import COMPANY, _company_table
    from tests.support.exports import run_export

    write_type(core, COMPANY.format(table=_company_table(core)), "staff.toml")
    header = ["工号", "姓名", "入职日期", "工资"]
    run_type_import(core, write_rows(tmp_path / "s.csv", header, [[f"E{n:03d}", f"员工{n}", "2020-01-02", "8000.50"]
                                                                  for n in range(1, 4)]), "staff")  # fmt: skip
    rows = [["E001", "员工1", "2020-01-02", "9000.00"], ["E009", "员工9", "2021-05-06", "7000.00"]]
    upsert = run_type_import(core, write_rows(tmp_path / "u.csv", header, rows), "staff", mode="upsert")
    assert (upsert.to_json()["inserted_count"], upsert.to_json()["updated_count"]) == (1, 1)
    assert run_export(core, "staff", filters={"imported_by": upsert.task_no}).success_count == 2
    assert undo_counts(undo(core, upsert.task_no)) == (1, 1, 0)
    export = run_export(core, "staff", filters={"imported_by": upsert.task_no})
    assert export.status is TaskStatus.SUCCEEDED and export.success_count == 0, export.error_msg
