"""Exports on every back-end: streamed files that re-import cleanly, filters, one file per export."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from desktop_app.app import Core, build_core
from desktop_app.domain.errors import PermanentError
from desktop_app.domain.status import TaskStatus
from tests.support.customers import HEADER, codes_by_row, row, run_import, write_csv
from tests.support.exports import run_export


@pytest.fixture
def imported(core: Core, tmp_path: Path) -> str:
    rows = [row(i) for i in range(1, 121)]
    rows[4] = row(5, 备注="=SUM(A1:A9)", 信用额度="0")
    task = run_import(core, write_csv(tmp_path / "src.csv", rows))
    assert task.status is TaskStatus.SUCCEEDED
    return task.task_no


def _read(path: str, encoding: str = "utf-8-sig") -> list[list[str]]:
    with open(path, encoding=encoding, newline="") as handle:
        return list(csv.reader(handle))


def test_export_csv_has_the_import_headers_and_every_row(core: Core, imported: str) -> None:
    task = run_export(core)
    assert task.status is TaskStatus.SUCCEEDED and task.total_count == 120
    assert task.result_path and Path(task.result_path).parent.name == "exports"
    lines = _read(task.result_path)
    assert lines[0] == HEADER and len(lines) == 121
    first = dict(zip(HEADER, lines[1], strict=True))
    assert first["客户编号"] == "C000001" and first["等级"] == "银卡" and first["开户日期"] == "2024-02-02"
    assert float(first["信用额度"]) == 1.5
    assert dict(zip(HEADER, lines[5], strict=True))["备注"] == "'=SUM(A1:A9)"  # neutralised in the file
    assert Path(task.result_path).read_bytes().startswith(b"\xef\xbb\xbf")  # BOM: Excel opens it right
    assert list(core.paths.work_dir.glob("*.part")) == []  # the temp file was moved, not left behind


def test_export_reimports_with_every_row_already_existing(core: Core, imported: str) -> None:
    exported = run_export(core)
    again = run_import(core, Path(exported.result_path or ""))
    assert again.total_count == 120 and again.success_count == 0 and again.fail_count == 120
    assert set(code for codes in codes_by_row(again).values() for code in codes) == {"already_exists"}
    assert again.summary["warnings"] == []


def test_export_round_trip_into_an_empty_database(core: Core, imported: str, tmp_path: Path, db_url: str) -> None:
    exported = run_export(core, fmt="xlsx")
    fresh = build_core(data_dir=tmp_path / "other", db_url=f"sqlite:///{tmp_path / 'other.sqlite3'}")
    try:
        task = run_import(fresh, Path(exported.result_path or ""))
        assert task.status is TaskStatus.SUCCEEDED and task.success_count == 120
        with fresh.store.reading() as conn:
            note = conn.exec_driver_sql("SELECT note FROM customers WHERE code = 'C000005'").scalar()
        assert note == "=SUM(A1:A9)"  # restored on the way back in
    finally:
        fresh.store.engine.dispose()


def test_gb18030_option(core: Core, imported: str) -> None:
    task = run_export(core, encoding="gb18030")
    lines = _read(task.result_path or "", encoding="gb18030")
    assert lines[0] == HEADER and lines[1][1] == "客户1"


def test_filters(core: Core, imported: str, tmp_path: Path) -> None:
    gold = run_export(core, filters={"level": "金卡"})
    assert gold.total_count == 40
    assert {line[4] for line in _read(gold.result_path or "")[1:]} == {"金卡"}
    dept = run_export(core, filters={"department": "财务部", "level": "gold"})
    assert dept.total_count == 5  # i % 8 == 2 and i % 3 == 2 -> i % 24 == 2
    dated = run_export(core, filters={"opened_from": "2024-03-01", "opened_to": "2024-03-31"})
    assert dated.total_count == 10 and dated.params["filters"] == {
        "opened_from": "2024-03-01",
        "opened_to": "2024-03-31",
    }
    second = run_import(core, write_csv(tmp_path / "more.csv", [row(i) for i in range(500, 503)]))
    by_task = run_export(core, filters={"imported_by": second.task_no})
    assert by_task.total_count == 3


def test_bad_filters_are_plain_errors(core: Core) -> None:
    for filters in ({"level": "钻石"}, {"opened_from": "yesterday"}, {"colour": "blue"}):
        with pytest.raises(PermanentError):
            core.submitter().submit_export("customers", filters=filters, user="me")


def test_one_file_per_export(core: Core, imported: str) -> None:
    first = run_export(core, filters={"level": "gold"})
    other = run_export(core, filters={"level": "silver"})
    second = run_export(core, filters={"level": "金卡"})  # the same export, said another way
    assert not Path(first.result_path or "").exists() and Path(second.result_path or "").exists()
    assert Path(other.result_path or "").exists()  # other filters, another export
    older = core.store.get(first.task_no)
    assert older is not None and older.summary["expired"] is True and older.replaced_by == second.task_no
    assert second.summary["annotated"] == [first.task_no]  # the engine names the task it marked
    assert second.summary["replaces"] == [first.task_no]
    files = sorted(p.name for p in (core.paths.results_dir / "exports").iterdir())
    assert len(files) == 2


def test_accepting_the_same_export_twice_gives_one_task(core: Core) -> None:
    a = core.submitter().submit_export("customers", filters={"level": "gold"}, user="me")
    b = core.submitter().submit_export("customers", filters={"level": "金卡"}, user="you")
    assert b.task.task_no == a.task.task_no and b.duplicate_of == a.task.task_no
    assert a.task.status is TaskStatus.PENDING  # accepted at once; the file comes in the background
