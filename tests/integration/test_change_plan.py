"""The change plan on every back-end: a dry run writes its plan and change file; `apply` writes only what the
plan shows (a row edited, a key added or gone since is changed_since_plan, the rest written), refuses a file
edited since, a second apply, a discarded plan; delete and sync plans applied; an applied plan undone."""

from __future__ import annotations

import csv
import json
import os
import sqlite3
from pathlib import Path

import pytest
import sqlalchemy as sa

from desktop_app.app import Core
from desktop_app.cli.main import main
from desktop_app.domain.errors import ErrorCode, PermanentError
from desktop_app.domain.modes import ImportMode
from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import TaskLink, TaskRecord
from desktop_app.imports.change_plan import ChangePlan, PlanCounts
from desktop_app.imports.options import ImportOptions
from desktop_app.imports.row_plans import Action
from desktop_app.store.tasks import LinkTaken
from tests.integration.test_delete_mode import STOCK, company_tables, whole_rows
from tests.integration.test_sync_mode import BASE, CUSTOMERS, EAST, HEADER, NORTH, cells
from tests.support.imports import error_codes, write_rows, write_type
from tests.support.running import run_now


def submit(core: Core, path: Path, mode: ImportMode, import_type: str = "clients", **options: object) -> TaskRecord:
    request = ImportOptions(file=path, import_type=import_type, mode=mode, **options)  # type: ignore[arg-type]
    result = core.submitter().submit_import(request, user="tester")
    assert not result.refused
    return run_now(core, result.task.id)


def clients(core: Core, tmp_path: Path) -> list[tuple[object, ...]]:
    write_type(core, CUSTOMERS, "clients.toml")
    base = submit(core, write_rows(tmp_path / "base.csv", HEADER, BASE), ImportMode.INSERT)
    assert base.status is TaskStatus.SUCCEEDED, base.error_msg
    return whole_rows(core, "clients", "code")


def apply(core: Core, task: TaskRecord) -> TaskRecord:
    return run_now(core, core.submitter().submit_apply(task.task_no, user="tester").task.id)


def execute(core: Core, sql: str, **params: object) -> None:
    with core.store.engine.begin() as conn:
        conn.execute(sa.text(sql), params)


def read_csv(path: str | Path) -> list[dict[str, str]]:
    with open(path, encoding="utf-8-sig", newline="") as handle:
        return list(csv.DictReader(handle))


def error_reasons(task: TaskRecord) -> dict[int, str]:
    rows = read_csv(str(task.error_csv))
    number, reasons = ("行号", "错误原因") if "行号" in rows[0] else ("Row number", "Error reasons")
    return {int(r[number]): r[reasons] for r in rows}


def tasks_count(core: Core) -> int:
    with core.store.reading() as conn:
        return int(conn.execute(sa.text("SELECT COUNT(*) FROM tasks")).scalar() or 0)


UPSERT = [
    ["C1", "甲公司", EAST, "100.50"],  # row 2: unchanged
    ["C2", "乙公司（新）", EAST, "250"],  # row 3: name and credit updated
    ["C3", "丙公司", EAST, "300"],  # row 4: unchanged
    ["C4", "丁公司", NORTH, "444"],  # row 5: credit updated
    ["C6", "己公司", NORTH, "600"],  # row 6: inserted
    ["C7", "庚公司", NORTH, "abc"],  # row 7: fails (not a number)
    ["C5", "戊公司", NORTH, "500"],  # row 8: unchanged
]


def dry_upsert(core: Core, tmp_path: Path) -> tuple[TaskRecord, Path]:
    clients(core, tmp_path)
    path = write_rows(tmp_path / "upsert.csv", HEADER, UPSERT)
    dry = submit(core, path, ImportMode.UPSERT, dry_run=True)
    assert dry.status is TaskStatus.PARTIALLY_SUCCEEDED, dry.error_msg
    return dry, path


def test_a_dry_run_writes_its_plan_and_change_file(core: Core, tmp_path: Path) -> None:
    before = clients(core, tmp_path)
    path = write_rows(tmp_path / "upsert.csv", HEADER, UPSERT)
    dry = submit(core, path, ImportMode.UPSERT, dry_run=True)
    assert whole_rows(core, "clients", "code") == before  # nothing written
    data = dry.to_json()
    assert data["plan_counts"] == {"inserted": 1, "updated": 2, "unchanged": 3, "skipped": 0, "deleted": 0,
                                   "failed": 1}  # fmt: skip
    # one set of numbers: the plan's counts are the dry run's own
    assert [data[f"{k}_count"] for k in ("inserted", "updated", "unchanged")] == [1, 2, 3]
    changes = Path(str(data["changes_csv"]))
    assert changes.name == f"{dry.task_no}-changes.csv" and changes.parent == Path(str(dry.error_csv)).parent
    rows = read_csv(changes)
    # row order, unchanged rows counted but not listed, an update's unchanged columns left empty
    assert [(r["行号"], r["动作"]) for r in rows] == [("3", "更新"), ("5", "更新"), ("6", "新增"), ("7", "失败")]
    assert rows[0]["名称（原值）"] == "乙公司" and rows[0]["名称（新值）"] == "乙公司（新）"
    assert rows[0]["额度（原值）"] == "" and rows[0]["额度（新值）"] == "250.00"
    assert rows[0]["部门（原值）"] == rows[0]["部门（新值）"] == ""
    assert rows[1]["额度（原值）"] == "400.00" and rows[1]["额度（新值）"] == "444.00"
    assert rows[1]["名称（原值）"] == rows[1]["名称（新值）"] == ""
    assert [rows[2][f"{c}（新值）"] for c in ("编号", "名称", "部门", "额度")] == ["C6", "己公司", NORTH, "600.00"]
    assert "invalid_number" in rows[3]["原因"] and rows[3]["键"] == "C7"
    with ChangePlan.open(changes.parent / "plan.sqlite3") as plan:
        assert plan.counts == PlanCounts(inserted=1, updated=2, unchanged=3, failed=1)
        assert plan.meta.mode is ImportMode.UPSERT and plan.meta.file_sha256 == dry.params["file_sha256"]
        assert sorted(plan.between(2, 8)) == [3, 5, 6, 7]
    # the status line says the plan's counts
    line = _status_line(core, dry)
    assert "plan inserted 1 updated 2 unchanged 3 skipped 0 deleted 0 failed 1" in line, line
    assert f"changes: {changes}" in line


def test_an_update_plans_failing_row_names_its_key(core: Core, tmp_path: Path) -> None:
    """Seen through the frozen app: in update mode the plan's failing row had an empty key (upsert showed it), so
    the clerk could not tell which client's row to fix."""
    clients(core, tmp_path)
    rows = [["C2", "乙公司（新）", EAST, "250"], ["C1", "甲公司", EAST, "100.50"], ["C3", "丙公司", EAST, "300"],
            ["C4", "丁公司", NORTH, "abc"]]  # row 5 fails: not a number (one of four: under the 30 % limit)
    dry = submit(core, write_rows(tmp_path / "update.csv", HEADER, rows), ImportMode.UPDATE, dry_run=True)
    assert dry.status is TaskStatus.PARTIALLY_SUCCEEDED, dry.error_msg
    changes = read_csv(str(dry.to_json()["changes_csv"]))
    assert [(r["行号"], r["动作"], r["键"]) for r in changes] == [("2", "更新", "C2"), ("5", "失败", "C4")]


def _status_line(core: Core, task: TaskRecord) -> str:
    from desktop_app.cli.output import task_line

    found = core.store.get(task.task_no)
    assert found is not None
    return task_line(found, "en")


def test_apply_writes_the_plan_and_refuses_each_row_changed_since(
    core: Core, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    dry, _path = dry_upsert(core, tmp_path)
    # between the dry run and the apply, other desks edit the table
    execute(core, "UPDATE clients SET credit = 275 WHERE code = 'C2'")  # a planned update's before changed
    execute(core, "UPDATE clients SET name = '甲公司（改）' WHERE code = 'C1'")  # planned unchanged: now an update
    execute(core, "INSERT INTO clients (code, name, department) VALUES ('C6', '别家', :d)", d=NORTH)  # key appeared
    execute(core, "DELETE FROM clients WHERE code = 'C3'")  # planned unchanged: the key is gone
    monkeypatch.setenv("BATCHDESK_HOME", str(core.paths.data_dir))
    capsys.readouterr()
    code = main(["apply", dry.task_no, "--wait", "--json", "--db", core.db_url, "--user", "tester"])
    out, err = capsys.readouterr()
    data = json.loads(out)
    # 5 of 7 rows failed: over the fail threshold the import counts as failed, the rows it wrote stay
    assert code == 1 and data["status"] == "failed", (out, err)
    assert data["plan_of"] == dry.task_no and data["dry_run"] is False
    # only C4's update (row 5) and C5 unchanged (row 8) went as planned
    assert [data[f"{k}_count"] for k in ("inserted", "updated", "unchanged")] == [0, 1, 1], data
    assert data["fail_count"] == 5
    applied = core.store.get(str(data["task_no"]))
    assert applied is not None
    assert error_codes(applied) == {2: ["changed_since_plan"], 3: ["changed_since_plan"], 4: ["changed_since_plan"],
                                    6: ["changed_since_plan"], 7: ["invalid_number"]}  # fmt: skip
    reasons = error_reasons(applied)  # the command line's desk speaks English here
    assert reasons[3] == "Column Credit was — in the plan, is now 275.00; the row was not written", reasons
    assert reasons[2] == "Column Name was 甲公司 in the plan, is now 甲公司（改）; the row was not written", reasons
    assert reasons[6] == 'Code "C6" was added to the table since the plan; the row was not written'
    assert reasons[4] == 'Code "C3" is no longer in the table since the plan; the row was not written'
    rows = {r[0]: r for r in cells(core)}
    assert rows["C4"][3] == 444 and rows["C2"][1] == "乙公司" and rows["C6"][1] == "别家"
    assert "C3" not in rows
    marked = core.store.get(dry.task_no)
    assert marked is not None and marked.applied_by == applied.task_no
    assert marked.to_json()["applied_by"] == applied.task_no


def test_a_file_edited_since_its_dry_run_is_refused_before_anything_is_written(
    core: Core, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    dry, path = dry_upsert(core, tmp_path)
    before, queued = whole_rows(core, "clients", "code"), tasks_count(core)
    write_rows(path, HEADER, [*UPSERT, ["C9", "辛公司", EAST, "9"]])
    monkeypatch.setenv("BATCHDESK_HOME", str(core.paths.data_dir))
    capsys.readouterr()
    code = main(["apply", dry.task_no, "--db", core.db_url, "--user", "tester"])
    out, err = capsys.readouterr()
    assert code == 2, (out, err)
    assert f"The file {path} changed since its dry run {dry.task_no}: run a new dry run" in err, err
    assert "Traceback" not in err
    assert whole_rows(core, "clients", "code") == before and tasks_count(core) == queued
    path.unlink()
    with pytest.raises(PermanentError) as gone:
        core.submitter().submit_apply(dry.task_no, user="tester")
    assert gone.value.text("en") == f"The file of the dry run {dry.task_no} is gone: {path}"


def test_apply_twice_is_refused_naming_the_apply_and_a_discarded_plan_is_refused(core: Core, tmp_path: Path) -> None:
    dry, path = dry_upsert(core, tmp_path)
    applied = apply(core, dry)
    assert applied.status is TaskStatus.PARTIALLY_SUCCEEDED, applied.error_msg
    assert [r[0] for r in cells(core)] == ["C1", "C2", "C3", "C4", "C5", "C6"]
    with pytest.raises(PermanentError) as twice:
        core.submitter().submit_apply(dry.task_no, user="tester")
    assert twice.value.code is ErrorCode.PLAN_NOT_APPLICABLE
    assert twice.value.text("en") == f"{dry.task_no} was already applied by {applied.task_no}"
    # two applies at once: the one whose transaction finds applied_by set creates nothing
    queued = tasks_count(core)
    with pytest.raises(LinkTaken):
        core.store.submit(task_type="import", params={}, creator="tester", biz_key="another",
                          marks=(dry.id, TaskLink.APPLIED_BY))  # fmt: skip
    assert tasks_count(core) == queued
    # another dry run of the same file, discarded: its plan file goes, its change file stays
    again = submit(core, path, ImportMode.UPSERT, dry_run=True)
    assert again.task_no != dry.task_no and again.to_json()["plan_counts"]["unchanged"] == 6
    changes = Path(str(again.summary["changes_csv"]))
    discarded = core.submitter().discard_plan(again.task_no, "tester")
    assert discarded.summary["plan_discarded"] is True and discarded.to_json()["plan_discarded"] is True
    assert not (changes.parent / "plan.sqlite3").exists() and changes.exists()
    with pytest.raises(PermanentError) as refused:
        core.submitter().submit_apply(again.task_no, user="tester")
    assert "was discarded" in refused.value.text("en")
    # not a dry run
    with pytest.raises(PermanentError) as real:
        core.submitter().submit_apply(applied.task_no, user="tester")
    assert real.value.text("en").startswith(f"Task {applied.task_no} is not a dry run")


def test_a_plan_whose_file_is_gone_is_refused(core: Core, tmp_path: Path) -> None:
    dry, _path = dry_upsert(core, tmp_path)
    plan = Path(str(dry.summary["changes_csv"])).parent / "plan.sqlite3"
    plan.unlink()
    with pytest.raises(PermanentError) as gone:
        core.submitter().submit_apply(dry.task_no, user="tester")
    assert gone.value.text("en") == f"The change plan of the dry run {dry.task_no} is gone ({plan}): run a new dry run"


def test_undo_of_an_applied_plan_restores_the_table(core: Core, tmp_path: Path) -> None:
    dry, _path = dry_upsert(core, tmp_path)
    before = whole_rows(core, "clients", "code")
    applied = apply(core, dry)
    assert applied.to_json()["inserted_count"] == 1 and applied.to_json()["updated_count"] == 2
    assert whole_rows(core, "clients", "code") != before
    undone = run_now(core, core.submitter().submit_undo(applied.task_no, user="tester").task.id)
    assert undone.status is TaskStatus.SUCCEEDED, undone.error_msg
    assert whole_rows(core, "clients", "code") == before


def test_a_delete_plan_applied_and_a_row_changed_since_kept(core: Core, tmp_path: Path) -> None:
    clients(core, tmp_path)
    path = write_rows(tmp_path / "delete.csv", HEADER, [BASE[1], BASE[2], BASE[3], ["C9", "", "", ""]])
    dry = submit(core, path, ImportMode.DELETE, dry_run=True)
    assert dry.to_json()["plan_counts"]["deleted"] == 3 and dry.to_json()["plan_counts"]["failed"] == 1
    rows = read_csv(str(dry.summary["changes_csv"]))
    assert [(r["行号"], r["动作"]) for r in rows] == [("2", "删除"), ("3", "删除"), ("4", "删除"), ("5", "失败")]
    assert rows[0]["名称（原值）"] == "乙公司" and rows[0]["名称（新值）"] == ""
    execute(core, "UPDATE clients SET department = '新部门' WHERE code = 'C3'")
    applied = apply(core, dry)
    assert applied.to_json()["deleted_count"] == 2, applied.error_msg
    assert error_codes(applied) == {3: ["changed_since_plan"], 5: ["not_found"]}
    assert "部门在变更计划中是 华东销售部，现在是 新部门" in error_reasons(applied)[3]
    assert [r[0] for r in cells(core)] == ["C1", "C3", "C5"]


def test_a_sync_plan_deletes_only_its_planned_rows(core: Core, tmp_path: Path) -> None:
    clients(core, tmp_path)
    file = [["C1", "甲公司", EAST, "100.50"], ["C2", "乙公司（新）", EAST, "250"], ["C6", "己公司", NORTH, "600"]]
    path = write_rows(tmp_path / "sync.csv", HEADER, file)  # C3, C4, C5 absent: deleted
    dry = submit(core, path, ImportMode.SYNC, dry_run=True)
    assert dry.to_json()["plan_counts"] == {"inserted": 1, "updated": 1, "unchanged": 1, "skipped": 0,
                                            "deleted": 3, "failed": 0}  # fmt: skip
    rows = read_csv(str(dry.summary["changes_csv"]))
    # the table's rows the file lacks at the end, with no row number
    assert [(r["行号"], r["动作"], r["键"]) for r in rows][-3:] == [("", "删除", "C3"), ("", "删除", "C4"),
                                                                 ("", "删除", "C5")]  # fmt: skip
    assert rows[-1]["额度（原值）"] == "500.00"
    with ChangePlan.open(Path(str(dry.summary["changes_csv"])).parent / "plan.sqlite3") as plan:
        assert [r.key for r in plan.absent_deletes()] == ["C3", "C4", "C5"]
        assert plan.count({Action.DELETE}) == 3
    # since the plan: a row the sync would delete is added (kept), a planned one edited (kept), one gone
    execute(core, "INSERT INTO clients (code, name, department) VALUES ('C8', '新客户', :d)", d=NORTH)
    execute(core, "UPDATE clients SET credit = 401 WHERE code = 'C4'")
    execute(core, "DELETE FROM clients WHERE code = 'C5'")
    applied = apply(core, dry)
    data = applied.to_json()
    assert [data[f"{k}_count"] for k in ("inserted", "updated", "unchanged", "deleted")] == [1, 1, 1, 1], data
    assert data["fail_count"] == 3 and applied.params["confirm_deletes"] == 3
    reasons = [r["错误原因"] for r in read_csv(str(applied.error_csv))]
    assert len(reasons) == 3
    assert any("C8" in r and "不在变更计划要删除的行里" in r for r in reasons), reasons
    assert any("额度在变更计划中是 400.00，现在是 401.00" in r for r in reasons), reasons
    assert any("C5" in r and "已不在表中" in r for r in reasons), reasons
    assert [r[0] for r in cells(core)] == ["C1", "C2", "C4", "C6", "C8"]


def test_a_sync_plan_keeps_a_row_still_referenced(core: Core, tmp_path: Path) -> None:
    company_tables(core)
    write_type(core, STOCK, "stock.toml")
    path = write_rows(tmp_path / "stock.csv", ["编码", "名称", "单价"], [["S1", "物品1", "1.25"]])
    dry = submit(core, path, ImportMode.SYNC, import_type="stock", dry_run=True)
    counts = dry.to_json()["plan_counts"]
    assert counts["deleted"] == 3 and counts["failed"] == 1, counts  # S2: stock_moves refers to it
    applied = apply(core, dry)
    assert applied.to_json()["deleted_count"] == 3, applied.error_msg
    assert error_codes(applied) == {0: ["still_referenced"]}
    with core.store.reading() as conn:
        left = [r[0] for r in conn.execute(sa.text("SELECT code FROM stock_items ORDER BY code"))]
    assert left == ["S1", "S2"]


LOCALES = {"zh": "zh_CN.UTF-8", "en": "en_US.UTF-8"}


def changes_on_the_command_line(core: Core, task: TaskRecord, lang: str, capsys: pytest.CaptureFixture[str],
                                monkeypatch: pytest.MonkeyPatch) -> Path:  # fmt: skip
    monkeypatch.setenv("LC_ALL", LOCALES[lang])  # the command line's language, as a clerk's shell sets it
    monkeypatch.setenv("BATCHDESK_HOME", str(core.paths.data_dir))  # its settings name no language
    capsys.readouterr()
    assert main(["errors", task.task_no, "--changes", "--json", "--db", core.db_url, "--user", "tester"]) == 0
    return Path(json.loads(capsys.readouterr().out)["path"])


def test_the_command_lines_change_file_says_a_failed_rows_reasons_in_its_language(
    core: Core, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A dry run made in Chinese (issue 28): its plan keeps the failed row's codes, so the command line in English
    gives its change file in English, the reason included; in Chinese, the dry run's own file."""
    dry, _path = dry_upsert(core, tmp_path)  # run in Chinese (tests/support/running.py)
    own = Path(str(dry.summary["changes_csv"]))
    assert read_csv(own)[3]["原因"].startswith("额度")  # the dry run's own file, in its language
    english = changes_on_the_command_line(core, dry, "en", capsys, monkeypatch)
    assert english != own and english.parent == own.parent
    rows = read_csv(english)
    assert [(r["Row number"], r["Action"]) for r in rows] == [("3", "update"), ("5", "update"), ("6", "insert"),
                                                              ("7", "fail")]  # fmt: skip
    reason = rows[3]["Reason"]
    assert reason.startswith("Credit") and reason.endswith("[invalid_number]"), reason
    assert not any("\u4e00" <= ch <= "\u9fff" for ch in reason), reason
    assert changes_on_the_command_line(core, dry, "zh", capsys, monkeypatch) == own
    assert read_csv(own)[3]["原因"].startswith("额度")  # left as it was
    # a plan made before its reasons were kept as codes: its own file, never English headers on Chinese reasons
    plan_file = own.parent / "plan.sqlite3"
    with sqlite3.connect(plan_file) as conn:
        conn.execute("DELETE FROM plan_meta WHERE name = 'reasons'")
    conn.close()
    os.utime(plan_file, ns=(english.stat().st_mtime_ns + 1, english.stat().st_mtime_ns + 1))
    assert changes_on_the_command_line(core, dry, "en", capsys, monkeypatch) == own
