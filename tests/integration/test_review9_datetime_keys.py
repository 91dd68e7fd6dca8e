"""Review of issue 9: a `datetime` column is a valid key kind and a filterable column on every back-end.

On SQLite the rows an insert writes keep a datetime as 'YYYY-MM-DD HH:MM:SS' while look-ups, deletes and
filters bind it as 'YYYY-MM-DD HH:MM:SS.000000', so a datetime key is never found again there.
"""

from __future__ import annotations

import csv
from collections.abc import Iterator
from pathlib import Path

import pytest

from desktop_app.app import Core, build_core
from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import TaskRecord
from tests.support.exports import run_export
from tests.support.imports import error_codes, rows_of, run_type_import, write_rows, write_type
from tests.support.running import run_now

SHIFTS = """\
name = "shifts"
title_zh = "班次"
title_en = "Shifts"
table = "shifts"
unique_key = ["worker", "starts_at"]

[[columns]]
key = "worker"
label_zh = "员工"
label_en = "Worker"
aliases = ["员工", "worker"]
required = true
max_length = 20

[[columns]]
key = "starts_at"
label_zh = "开始时间"
label_en = "Starts at"
aliases = ["开始时间", "starts_at"]
required = true
kind = "datetime"

[[columns]]
key = "hours"
label_zh = "时长"
label_en = "Hours"
aliases = ["时长", "hours"]
kind = "integer"
"""
HEADER = ["员工", "开始时间", "时长"]


@pytest.fixture
def core(db_url: str, tmp_path: Path) -> Iterator[Core]:
    core = build_core(data_dir=tmp_path / "data", db_url=db_url)
    write_type(core, SHIFTS, "shifts.toml")
    yield core
    core.store.engine.dispose()


def _first(core: Core, tmp_path: Path) -> TaskRecord:
    rows = [["w1", "2024-05-01 08:00", "8"], ["w2", "2024-05-01 9:30", "4"]]
    task = run_type_import(core, write_rows(tmp_path / "first.csv", HEADER, rows), "shifts")
    assert task.status is TaskStatus.SUCCEEDED and task.success_count == 2, task.error_msg
    return task


def test_update_finds_rows_by_a_datetime_key(core: Core, tmp_path: Path) -> None:
    _first(core, tmp_path)
    rows = [["w1", "2024-05-01 08:00", "6"], ["w2", "2024-05-01 09:30:00", "4"]]
    task = run_type_import(core, write_rows(tmp_path / "u.csv", HEADER, rows), "shifts", mode="update")
    j = task.to_json()
    assert task.error_csv is None, error_codes(task)  # not not_found
    assert (j["updated_count"], j["unchanged_count"], j["fail_count"]) == (1, 1, 0)


@pytest.mark.parametrize("mode", ["insert", "insert_new", "upsert"])
def test_a_datetime_key_already_in_the_table_is_recognised(core: Core, tmp_path: Path, mode: str) -> None:
    _first(core, tmp_path)
    rows = [["w1", "2024-05-01 08:00:00", "8"]]
    task = run_type_import(core, write_rows(tmp_path / f"again-{mode}.csv", HEADER, rows), "shifts", mode=mode)
    j = task.to_json()
    if mode == "insert":
        assert error_codes(task) == {2: ["already_exists"]}  # not rejected_by_database
    elif mode == "insert_new":
        assert (j["skipped_count"], j["fail_count"]) == (1, 0), task.error_csv and error_codes(task)
    else:
        assert (j["unchanged_count"], j["fail_count"]) == (1, 0), task.error_csv and error_codes(task)


def test_undo_deletes_rows_with_a_datetime_key(core: Core, tmp_path: Path) -> None:
    first = _first(core, tmp_path)
    result = core.submitter().submit_undo(first.task_no, user="tester")
    done = run_now(core, result.task.id)
    assert done.status is TaskStatus.SUCCEEDED and done.to_json()["deleted_count"] == 2
    # what the undo says it deleted is gone from the table
    assert rows_of(core, "shifts", ["worker"], ["worker"]) == []


def test_an_export_filter_on_a_datetime_column_finds_inserted_rows(core: Core, tmp_path: Path) -> None:
    _first(core, tmp_path)
    exported = run_export(core, "shifts", filters={"starts_at": "2024-05-01 08:00:00"})
    assert exported.status is TaskStatus.SUCCEEDED
    with open(exported.result_path or "", encoding="utf-8-sig", newline="") as handle:
        found = [r["员工"] for r in csv.DictReader(handle)]
    assert found == ["w1"]
