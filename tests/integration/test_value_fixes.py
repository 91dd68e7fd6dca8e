"""Value fixes once, not in Excel (issue 25), on every database: an import with misspelt levels, its bad
values listed (`values T --json`), mapped and written (`values T --map level:钻石=金卡`) as a completion
under the import's number (its counts, its error CSV, its undo), the mappings kept in a profile
(--save-to: created, then versioned), and the command line's one-line refusals (exit 2)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from desktop_app.app import Core
from desktop_app.domain.errors import ErrorCode, PermanentError
from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import TaskRecord
from desktop_app.store.profiles import ProfileStore
from tests.support.cli_process import bd
from tests.support.cli_process import refused_in_one_line as refused
from tests.support.customers import error_rows, row, run_import, write_csv
from tests.support.running import run_now

ROOT = Path(__file__).resolve().parents[2]
ALLOWED = ["普通", "银卡", "金卡", "standard", "silver", "gold"]


def misspelt(tmp_path: Path, name: str = "c.csv", start: int = 1) -> Path:
    """20 rows: 5 with 钻石 (not a level), one with 白金, one with 钻石 and a bad phone as well."""
    rows = []
    for i in range(start, start + 20):
        if i % 4 == 0:
            rows.append(row(i, 等级="钻石"))
        elif i % 20 == 5:
            rows.append(row(i, 等级="白金"))
        else:
            rows.append(row(i))
    rows.append(row(start + 20, 等级="钻石", 手机号="abc"))
    return write_csv(tmp_path / name, rows)


def levels(core: Core) -> dict[str, str]:
    with core.store.reading() as conn:
        return {str(r[0]): str(r[1]) for r in conn.execute(sa.text("SELECT code, level FROM customers"))}


def imported(core: Core, tmp_path: Path, **params: Any) -> TaskRecord:
    task = run_import(core, misspelt(tmp_path), **params)
    assert (task.total_count, task.success_count, task.fail_count) == (21, 14, 7)
    return task


def test_values_listed_mapped_counted_and_undone(core: Core, db_url: str, tmp_path: Path) -> None:
    home = tmp_path / "home"
    task = imported(core, tmp_path)
    # the first command in a process of its own, as a clerk runs it; the rest in this one (cli_process.py)
    code, listed, _ = bd(home, db_url, "values", task.task_no, "--json", "--user", "tester", process=True)
    assert code == 0
    assert listed == [{"column": "level", "value": "钻石", "rows": 6, "allowed": ALLOWED},
                      {"column": "level", "value": "白金", "rows": 1, "allowed": ALLOWED}]  # fmt: skip
    code, words, _ = bd(home, db_url, "values", task.task_no, "--user", "tester", as_json=False)
    assert code == 0 and words.splitlines()[0] == "Level: 钻石 (6 rows), allowed: 普通/银卡/金卡/standard/silver/gold"

    code, out, err = bd(home, db_url, "values", task.task_no, "--map", "level:钻石=金卡", "--json", "--user", "tester")
    assert code == 0, err
    assert (out["fixed_count"], out["refused_count"]) == (5, 0)
    assert (out["success_count"], out["fail_count"], out["inserted_count"]) == (19, 2, 19)
    after = core.store.get(task.task_no)
    assert after is not None and (after.success_count, after.fail_count) == (19, 2)
    assert after.summary["fixed_rows"] == 5  # what the window reads a fixed import by (ui/outcomes.fixed_since)
    fix = core.store.get(out["fix"])
    assert fix is not None and fix.status is TaskStatus.SUCCEEDED and fix.params["task_no"] == task.task_no
    assert fix.params["values"] == {"level": {"钻石": "金卡"}}
    # the error CSV keeps the rows another reason (or an unmapped value) failed, as they were
    kept = error_rows(after)
    assert [(r["行号"], r["等级"]) for r in kept] == [("6", "白金"), ("22", "钻石")]
    assert kept[1]["错误代码"] == "pattern_mismatch;not_in_enum"
    now = levels(core)
    assert len(now) == 19 and all(now[f"C{i:06d}"] == "gold" for i in (4, 8, 12, 16, 20))
    code, listed, _ = bd(home, db_url, "values", task.task_no, "--json", "--user", "tester")
    assert sorted((b["value"], b["rows"]) for b in listed) == [("白金", 1), ("钻石", 1)]

    # the undo of the import takes back the fixed rows too
    code, undo, err = bd(home, db_url, "undo", task.task_no, "--wait", "--json", "--user", "tester")
    assert code == 0, err
    assert undo["deleted_count"] == 19 and levels(core) == {}
    refused(home, db_url, "values", task.task_no, "--user", "tester", says="has been undone")


def test_update_mode_fixes_update_and_the_last_row_removes_the_error_csv(core: Core, tmp_path: Path) -> None:
    first = run_import(core, write_csv(tmp_path / "a.csv", [row(i) for i in range(1, 4)]))
    assert first.success_count == 3
    path = write_csv(tmp_path / "b.csv", [row(1, 等级="钻石"), row(2, 等级="Gold"), row(3, 等级="钻石")])
    task = run_import(core, path, mode="upsert")
    assert task.fail_count == 2 and task.error_csv
    result = core.submitter().submit_value_fix(task.task_no, {"等级": {"钻石": "金卡"}}, user="tester")
    fix = run_now(core, result.task.id)
    assert fix.status is TaskStatus.SUCCEEDED and (fix.summary["fixed"], fix.summary["refused"]) == (2, 0)
    after = core.store.get(task.task_no)
    assert after is not None and after.fail_count == 0 and after.error_csv is None
    assert (after.success_count, after.to_json()["updated_count"], after.to_json()["unchanged_count"]) == (3, 2, 1)
    assert not Path(str(task.error_csv)).exists()
    assert levels(core)["C000001"] == levels(core)["C000003"] == "gold"
    # a fix of a task with no error rows left is refused at once
    with pytest.raises(PermanentError) as caught:
        core.submitter().submit_value_fix(task.task_no, {"level": {"钻石": "silver"}}, user="tester")
    assert caught.value.code is ErrorCode.VALUES_NOT_FIXABLE


def test_save_to_creates_then_versions_a_profile(core: Core, db_url: str, tmp_path: Path) -> None:
    home = tmp_path / "home"
    task = imported(core, tmp_path)
    args = ("values", task.task_no, "--map", "level:钻石=金卡", "--save-to", "east", "--json", "--user", "tester")
    code, out, err = bd(home, db_url, *args)
    assert code == 0, err
    assert (out["profile"], out["profile_version"]) == ("east", 1)
    code, out, err = bd(home, db_url, "values", task.task_no, "--map", "等级:白金=银卡", "--save-to", "east",
                        "--json", "--user", "tester")  # fmt: skip
    assert code == 0, err
    assert out["fixed_count"] == 1 and out["profile_version"] == 2
    version = ProfileStore(core.store.engine).get("east")
    assert version.version == 2 and version.profile.import_type == "customers"
    assert {k: dict(v) for k, v in version.profile.values.items()} == {"level": {"钻石": "金卡", "白金": "银卡"}}


def test_the_refusals_are_one_line_exit_2(core: Core, db_url: str, tmp_path: Path) -> None:
    home = tmp_path / "home"
    task = imported(core, tmp_path)
    dry = run_import(core, misspelt(tmp_path, "dry.csv", start=100), dry_run=True)
    no = task.task_no
    refused(home, db_url, "values", no, "--map", "level:钻石=黑卡", "--user", "tester",
            says="普通/银卡/金卡/standard/silver/gold")  # fmt: skip
    refused(home, db_url, "values", no, "--map", "grade:钻石=金卡", "--user", "tester", says='"grade"')
    refused(home, db_url, "values", no, "--map", "level钻石", "--user", "tester", says="COLUMN:BAD=GOOD")
    refused(home, db_url, "values", "T261206-ZZZZZZ", "--user", "tester", says="T261206-ZZZZZZ")
    refused(home, db_url, "values", dry.task_no, "--user", "tester", says="dry run")
    if not db_url.startswith("sqlite"):  # on the embedded database every clerk administers it
        refused(home, db_url, "values", no, "--user", "someone-else", says=no)
    code, _, err = bd(home, db_url, "values", no, "--map", "level:钻石=金卡", "--save-to", "east", "--user", "tester",
                      as_json=False)  # fmt: skip
    assert code == 0, err
    after = core.store.get(no)
    assert after is not None and after.fail_count == 2  # nothing queued by a refusal: one fix only


def test_two_fixes_queued_at_once_each_read_what_the_other_left(core: Core, tmp_path: Path) -> None:
    task = imported(core, tmp_path)
    submitter = core.submitter()
    first = submitter.submit_value_fix(task.task_no, {"level": {"钻石": "金卡"}}, user="tester")
    second = submitter.submit_value_fix(task.task_no, {"level": {"白金": "银卡"}}, user="tester")
    assert first.task.task_no != second.task.task_no
    again = submitter.submit_value_fix(task.task_no, {"level": {"钻石": "金卡"}}, user="tester")
    assert again.task.task_no == first.task.task_no  # the same fix asked again while queued: the same task
    assert run_now(core, first.task.id).summary["fixed"] == 5
    assert run_now(core, second.task.id).summary["fixed"] == 1
    after = core.store.get(task.task_no)
    assert after is not None and (after.success_count, after.fail_count) == (20, 1)
    assert [r["行号"] for r in error_rows(after)] == ["22"]
    assert levels(core)["C000005"] == "silver"
