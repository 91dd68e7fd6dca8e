"""Missing references in words (issue 11): an import lists the names its references did not find, a clerk
adds them (where the type allows it) and the references complete; on every database."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from desktop_app.app import Core, build_core
from desktop_app.domain.errors import ErrorCode, PermanentError
from desktop_app.domain.status import TaskStatus
from desktop_app.imports.missing_references import describe, missing_of
from tests.support.customers import row, write_csv
from tests.support.imports import ORDER_HEADER, order_row, run_type_import, write_rows, write_type
from tests.support.running import run_now


@pytest.fixture(params=[True, False], ids=["bulk", "by-row"])
def core(request: pytest.FixtureRequest, db_url: str, tmp_path: Path) -> Iterator[Core]:
    core = build_core(data_dir=tmp_path / "data", db_url=db_url, overrides={"bulk_loads": bool(request.param)})
    yield core
    core.store.engine.dispose()


def _departments(core: Core) -> set[str]:
    with core.store.reading() as conn:
        return {str(r[0]) for r in conn.execute(sa.text("SELECT name FROM departments")).all()}


def _unresolved(core: Core) -> int:
    with core.store.reading() as conn:
        query = "SELECT COUNT(*) FROM customers WHERE department IS NOT NULL AND department_id IS NULL"
        return int(conn.execute(sa.text(query)).scalar_one())


def test_missing_references_listed_added_and_completed(core: Core, tmp_path: Path) -> None:
    rows = [row(i, 部门="华东销售部") if i % 5 == 0 else row(i) for i in range(1, 21)]
    rows.append(row(21, 部门="华北分部"))
    path = write_csv(tmp_path / "customers.csv", rows)
    task = run_type_import(core, path, "customers")
    assert task.status is TaskStatus.SUCCEEDED and task.pending_completion_count == 5
    listed = task.to_json()["missing_references"]
    assert listed == [
        {"column": "department", "value": "华东销售部", "rows": 4, "table": "departments", "can_add": True},
        {"column": "department", "value": "华北分部", "rows": 1, "table": "departments", "can_add": True},
    ]
    itype = core.submitter().catalog.get("customers")
    words = [describe(m, itype, "en") for m in missing_of(task.summary)]
    assert words == ["Department not found: 华东销售部 (4 rows)", "Department not found: 华北分部 (1 row)"]
    assert describe(missing_of(task.summary)[0], itype, "zh") == "找不到部门：华东销售部（4 行）"
    assert "华东销售部" not in _departments(core) and _unresolved(core) == 5

    result = core.submitter().submit_completion(task.task_no, user="tester", add=True)
    completion = run_now(core, result.task.id)
    assert completion.status is TaskStatus.SUCCEEDED, completion.error_msg
    assert (completion.total_count, completion.success_count, completion.summary["added_count"]) == (5, 5, 2)
    assert {"华东销售部", "华北分部"} <= _departments(core) and _unresolved(core) == 0
    done = core.store.get(task.task_no)
    assert done is not None and done.pending_completion_count == 0 and done.to_json()["missing_references"] == []


def test_a_completion_without_adding_lists_what_is_still_missing(core: Core, tmp_path: Path) -> None:
    rows = [row(1, 部门="新部门甲"), row(2, 部门="新部门乙"), row(3)]
    task = run_type_import(core, write_csv(tmp_path / "c.csv", rows), "customers")
    assert task.pending_completion_count == 2
    with core.store.engine.begin() as conn:  # one of them created by hand since
        conn.execute(sa.text("INSERT INTO departments (name) VALUES ('新部门甲')"))
    completion = run_now(core, core.submitter().submit_completion(task.task_no, user="tester").task.id)
    assert completion.success_count == 1 and completion.summary["added_count"] == 0
    after = core.store.get(task.task_no)
    assert after is not None and after.pending_completion_count == 1
    assert [(m.value, m.rows) for m in missing_of(after.summary)] == [("新部门乙", 1)]
    assert "新部门乙" not in _departments(core)


def test_adding_is_refused_where_the_type_does_not_allow_it(core: Core, tmp_path: Path) -> None:
    write_type(core)  # orders: its department reference has no allow_add
    path = write_rows(tmp_path / "orders.csv", ORDER_HEADER, [order_row(1, 部门="无此部门"), order_row(2)])
    task = run_type_import(core, path, "orders")
    assert task.pending_completion_count == 1
    (missing,) = missing_of(task.summary)
    assert (missing.column, missing.value, missing.can_add) == ("dept", "无此部门", False)
    with pytest.raises(PermanentError) as refused:
        core.submitter().submit_completion(task.task_no, user="tester", add=True)
    assert refused.value.code is ErrorCode.NOT_ADDABLE
    assert "allow_add = true" in refused.value.text("en") and "Department" in refused.value.text("en")
    assert "无此部门" not in _departments(core)


def test_cli_references(tmp_path: Path) -> None:
    from tests.integration.test_cli import cli

    rows = [row(i, 部门="华东销售部") if i % 5 == 0 else row(i) for i in range(1, 21)]
    path = write_csv(tmp_path / "customers.csv", rows)
    where = ("--data-dir", str(tmp_path / "data"))
    code, task, err = cli("import", str(path), "--type", "customers", "--wait", "--json", *where)
    assert code == 0 and isinstance(task, dict), err
    number = task["task_no"]
    code, listed, _ = cli("references", number, "--json", *where)
    assert code == 0 and isinstance(listed, dict) and listed["pending_completion_count"] == 4
    assert [(m["column"], m["value"], m["rows"]) for m in listed["missing_references"]] == [
        ("department", "华东销售部", 4)
    ]
    code, text, _ = cli("references", number, *where, check_json=False)
    assert code == 0 and str(text).splitlines() == ["Department not found: 华东销售部 (4 rows)"]
    code, added, err = cli("references", number, "--add", "--json", *where)
    assert code == 0, err
    assert isinstance(added, dict) and added["added_count"] == 1 and added["completion"]
    assert added["pending_completion_count"] == 0 and added["missing_references"] == []
    code, _, err = cli("references", "T000000-000000", "--json", *where)
    assert code == 2 and err.strip().splitlines() == ["batchdesk: No task T000000-000000"]


def test_a_dry_run_counts_the_rows_that_would_wait_as_the_real_run_does(core: Core, tmp_path: Path) -> None:
    """A validation says its rows that would wait for names (seen in a tryout: silent where the real import
    then said "2 rows wait for names"): a dry run is the real run minus the commit, its summary's count too."""
    rows = [row(i, 部门="华东销售部") if i % 5 == 0 else row(i) for i in range(1, 21)]
    rows.append(row(21, 手机号="x"))  # a failing row is not waiting
    path = write_csv(tmp_path / "customers.csv", rows)
    check = run_type_import(core, path, "customers", dry_run=True)
    assert check.status is TaskStatus.PARTIALLY_SUCCEEDED and check.checked_only
    assert check.pending_completion_count == 4 and _unresolved(core) == 0  # counted, nothing written
    real = run_type_import(core, path, "customers", force=True)
    assert real.rows_waiting_for_names == check.pending_completion_count == 4
