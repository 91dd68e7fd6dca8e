"""What the preview says would stop an import is what the import itself fails with: the same code and
the same words, for an empty file, a header only, a missing column and a file over the size limit; and
what it says of each shown row against the table, in each mode, is what the import does with it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from desktop_app.app import Core, build_core
from desktop_app.domain.modes import ImportMode
from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import TaskRecord
from desktop_app.imports import file_preview
from desktop_app.imports.file_preview import SHOWN_ROWS, SampleCheck, check_sample, look_up_keys, read_sample
from desktop_app.imports.options import ImportOptions
from tests.support.customers import HEADER, codes_by_row, row, run_import, write_csv


@pytest.fixture
def core(tmp_path: Path) -> Iterator[Core]:
    core = build_core(data_dir=tmp_path / "data", overrides={"max_file_mb": 1})
    yield core
    core.store.engine.dispose()


def files(tmp_path: Path) -> dict[str, Path]:
    out = {
        "zero bytes": tmp_path / "zero.csv",
        "header only": tmp_path / "header.csv",
        "blank rows only": tmp_path / "blank.csv",
        "a missing column": tmp_path / "missing.csv",
    }
    out["zero bytes"].write_bytes(b"")
    out["header only"].write_text(",".join(HEADER) + "\r\n", encoding="utf-8")
    out["blank rows only"].write_text(",".join(HEADER) + "\r\n\r\n,,,,,,,,\r\n", encoding="utf-8")
    out["a missing column"].write_text("客户编号,姓名\r\nC000001,张三\r\n", encoding="utf-8")
    out["over the limit"] = write_csv(tmp_path / "big.csv", [row(i, 备注="x" * 150) for i in range(1, 7001)])
    return out


def test_the_preview_and_the_task_say_the_same(core: Core, tmp_path: Path) -> None:
    itype = core.catalog.get("customers")
    for what, path in files(tmp_path).items():
        options = ImportOptions(file=path, import_type="customers", max_rows=core.settings.max_rows,
                                max_file_mb=core.settings.max_file_mb)  # fmt: skip
        blocking = check_sample(read_sample(path, max_file_mb=options.max_file_mb), itype, options, "zh").blocking
        task = run_import(core, path)
        assert task.status is TaskStatus.FAILED, what
        assert blocking is not None, what
        assert (blocking.code.value, blocking.text("zh")) == (task.error_code, task.error_msg), what


# --- the shown rows against the table, in each mode, on every back-end ---------------------------------

IN_TABLE = [row(i) for i in range(1, 6)]  # C000001..C000005
SAMPLE = [
    row(1),  # 2: in the table, the same values
    row(2, 姓名="新名字"),  # 3: in the table, another name
    row(6),  # 4: new
    row(6, 姓名="又一次"),  # 5: new, its key again
    row(3, 手机号="bad"),  # 6: in the table, a bad cell
    row(7, 手机号="bad"),  # 7: new, a bad cell
    row(8, 姓名=""),  # 8: new, a required cell blank
    row(4, 姓名=""),  # 9: in the table, a required cell blank (an update keeps what is stored)
    *(row(i) for i in range(10, 20)),  # 10-19: new
]


@pytest.fixture
def db_core(db_url: str, tmp_path: Path) -> Iterator[Core]:
    core = build_core(data_dir=tmp_path / "data", db_url=db_url)
    yield core
    core.store.engine.dispose()


def preview(core: Core, path: Path, mode: str) -> SampleCheck:
    """The preview's check as the window makes it: the rows first, then their keys looked up in the table."""
    itype = core.catalog.get("customers")
    options = ImportOptions(file=path, import_type="customers", mode=ImportMode(mode), max_rows=core.settings.max_rows,
                            max_file_mb=core.settings.max_file_mb)  # fmt: skip
    sample = read_sample(path)
    first = check_sample(sample, itype, options, "zh")
    assert first.table is None, "no verdict on the table before its rows are known"
    stored = look_up_keys(core.store.engine, itype, first.keys, first.names)
    return check_sample(sample, itype, options, "zh", stored)


def assert_preview_is_the_import(check: SampleCheck, task: TaskRecord) -> None:
    verdict = check.table
    assert verdict is not None
    j = task.to_json()
    said = {"insert": j["inserted_count"], "update": j["updated_count"], "unchanged": j["unchanged_count"],
            "skip": j["skipped_count"]}  # fmt: skip
    assert {k: verdict.count(k) for k in said} == said
    failing = {p.row_number: sorted(e.code.value for errors in (*p.cells.values(), p.whole_row) for e in errors)
               for p in check.rows}  # fmt: skip
    engine_says = {n: sorted(codes) for n, codes in codes_by_row(task).items()} if j["fail_count"] else {}
    assert failing == engine_says
    failed = {file_preview.ALREADY_IN_TABLE, file_preview.NOT_IN_TABLE, file_preview.FAILS}
    assert sorted(n for n, o in verdict.outcomes.items() if o in failed) == sorted(failing)


@pytest.mark.parametrize("mode", [m.value for m in ImportMode])
def test_the_preview_says_what_the_import_does_with_each_row(db_core: Core, tmp_path: Path, mode: str) -> None:
    assert len(SAMPLE) <= SHOWN_ROWS, "every row of the file is shown and checked"
    run_import(db_core, write_csv(tmp_path / "in_table.csv", IN_TABLE))
    path = write_csv(tmp_path / "sample.csv", SAMPLE)
    check = preview(db_core, path, mode)
    assert check.table is not None
    outcome = check.table.outcomes
    expected = {
        # the rows whose key is in the table, as the words of the preview tell them
        "insert": {2: file_preview.ALREADY_IN_TABLE, 3: file_preview.ALREADY_IN_TABLE, 4: "insert"},
        "insert_new": {2: "skip", 3: "skip", 4: "insert", 6: "skip", 9: "skip"},
        "update": {2: "unchanged", 3: "update", 4: file_preview.NOT_IN_TABLE, 9: "unchanged"},
        "upsert": {2: "unchanged", 3: "update", 4: "insert", 9: "unchanged"},
        # a delete reads the key alone: a bad or blank cell elsewhere does not keep its row
        "delete": {2: "delete", 3: "delete", 4: file_preview.NOT_IN_TABLE, 6: "delete", 9: "delete"},
        # a sync writes the file's rows as an upsert does (the table's rows the file lacks are not shown)
        "sync": {2: "unchanged", 3: "update", 4: "insert", 9: "unchanged"},
    }[mode]
    assert {n: outcome[n] for n in expected} == expected
    extra: dict[str, object] = {}
    if mode == "sync":  # its deletes confirmed, as the command line's --confirm-deletes N
        options = ImportOptions(file=path, import_type="customers", mode=ImportMode.SYNC)
        extra["confirm_deletes"] = db_core.submitter().sync_deletes(options)
    task = run_import(db_core, path, mode=mode, **extra)
    assert_preview_is_the_import(check, task)


def test_before_the_table_exists_an_update_finds_no_row(db_core: Core, tmp_path: Path) -> None:
    path = write_csv(tmp_path / "sample.csv", [row(1), row(2, 手机号="bad"), row(3)])
    check = preview(db_core, path, "update")
    assert check.table is not None
    assert dict(check.table.outcomes) == {2: file_preview.NOT_IN_TABLE, 3: file_preview.FAILS,
                                          4: file_preview.NOT_IN_TABLE}  # fmt: skip
    assert_preview_is_the_import(check, run_import(db_core, path, mode="update"))


def test_the_rows_the_preview_says_will_wait_are_those_the_import_leaves_waiting(db_core: Core, tmp_path: Path) -> None:
    # a clerk's tryout: the preview passed every row; after the import 3 waited for their department
    rows = [row(i, 部门="华东销售部" if i % 2 else "西北办") if i in (3, 7, 12) else row(i) for i in range(1, 16)]
    path = write_csv(tmp_path / "departments.csv", rows)
    check = preview(db_core, path, "insert")
    assert [w.row_number for w in check.waiting] == [4, 8, 13]
    task = run_import(db_core, path)
    assert task.pending_completion_count == len(check.waiting)
