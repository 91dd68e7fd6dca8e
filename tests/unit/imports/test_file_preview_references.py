"""The preview's reference names (Qt-free, on SQLite): the sample's rows that name a department the table
lacks are said before queueing (they will wait for the name after the import), found by one query of the
reference table for the sample's distinct names, not one per row."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event

from desktop_app.app import Core, build_core
from desktop_app.domain.errors import ErrorCode
from desktop_app.domain.modes import ImportMode
from desktop_app.imports.file_preview import SampleCheck, check_sample, look_up_keys, read_sample
from desktop_app.imports.options import ImportOptions
from tests.support.customers import row, write_csv


@pytest.fixture
def core(tmp_path: Path) -> Iterator[Core]:
    built = build_core(data_dir=tmp_path / "desk")
    yield built
    built.store.engine.dispose()


def preview(core: Core, path: Path, mode: ImportMode = ImportMode.INSERT) -> tuple[SampleCheck, list[str]]:
    """The preview's check as the window makes it, and the statements its look-up sent to the departments."""
    itype = core.catalog.get("customers")
    options = ImportOptions(file=path, import_type="customers", mode=mode, max_rows=1_000_000, max_file_mb=50)
    sample = read_sample(path)
    first = check_sample(sample, itype, options, "en")
    assert first.waiting == (), "nothing is said of the names before the table is read"
    sent: list[str] = []

    def seen(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if "FROM departments" in statement:  # not the type check's look at its columns
            sent.append(statement)

    event.listen(core.store.engine, "before_cursor_execute", seen)
    try:
        stored = look_up_keys(core.store.engine, itype, first.keys, first.names)
    finally:
        event.remove(core.store.engine, "before_cursor_execute", seen)
    return check_sample(sample, itype, options, "en", stored), sent


def test_rows_naming_a_department_not_in_the_table_are_said_with_one_query(core: Core, tmp_path: Path) -> None:
    rows = [row(i, 部门="华东销售部") if i % 5 == 0 else row(i) for i in range(1, 21)]
    rows[0] = row(1, 部门="西北办")  # a second unknown name
    rows[1] = row(2, 手机号="bad", 部门="南区")  # fails its phone: goes to the error file, waits for nothing
    check, sent = preview(core, write_csv(tmp_path / "c.csv", rows))
    assert check.table is not None
    assert [w.row_number for w in check.waiting] == [2, 6, 11, 16, 21]
    (first,) = check.waiting[0].cells.values()
    department = 7  # the file's column of 部门
    assert list(check.waiting[0].cells) == [department]
    assert first[0].code is ErrorCode.REFERENCE_NOT_FOUND and first[0].value == "西北办"
    assert first[0].message(core.catalog.get("customers"), "en") == "Department not found: 西北办"
    assert [p.row_number for p in check.rows] == [3], "the failing row is a problem, not a waiting row"
    assert len(sent) == 1, sent  # the departments read once, for the distinct names of the rows that pass


def test_no_row_waits_when_the_names_are_in_the_table_or_nothing_is_written(core: Core, tmp_path: Path) -> None:
    check, _sent = preview(core, write_csv(tmp_path / "known.csv", [row(i) for i in range(1, 6)]))
    assert check.table is not None and check.waiting == ()
    # a delete writes no department: none of its rows waits
    path = write_csv(tmp_path / "delete.csv", [row(1, 部门="华东销售部")])
    check, _sent = preview(core, path, ImportMode.DELETE)
    assert check.waiting == ()
