"""A row the database itself refuses (a company's column cannot hold its text) fails alone, in every mode."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa

from desktop_app.app import Core
from desktop_app.domain.status import TaskStatus
from tests.support.imports import error_codes, rows_of, run_type_import, write_rows, write_type

NOTES = """\
name = "notes"
title_zh = "备注"
title_en = "Notes"
table = "{table}"
unique_key = "code"
create = false

[[columns]]
key = "code"
label_zh = "编码"
label_en = "Code"
aliases = ["编码"]
required = true
max_length = 10

[[columns]]
key = "note"
label_zh = "备注"
label_en = "Note"
aliases = ["备注"]
max_length = 20
"""


def _notes_table(core: Core) -> str:
    """A company's table whose note column refuses text it cannot keep: a latin1 column on MariaDB, a
    trigger raising string_data_right_truncation (22001) on PostgreSQL; both a DataError."""
    dialect = core.store.engine.dialect.name
    if dialect == "sqlite":
        pytest.skip("a company's own table: PostgreSQL or MySQL/MariaDB")
    with core.store.engine.begin() as conn:
        if dialect == "postgresql":
            conn.execute(sa.text("CREATE TABLE notes (code VARCHAR(10) PRIMARY KEY, note VARCHAR(20))"))
            conn.execute(sa.text(
                "CREATE FUNCTION notes_ascii() RETURNS trigger AS $$ BEGIN IF NEW.note !~ '^[ -~]*$' THEN "
                "RAISE EXCEPTION 'note is not ASCII' USING ERRCODE = '22001'; END IF; RETURN NEW; END $$ "
                "LANGUAGE plpgsql"
            ))  # fmt: skip
            conn.execute(sa.text(
                "CREATE TRIGGER notes_ascii BEFORE INSERT OR UPDATE ON notes FOR EACH ROW "
                "EXECUTE FUNCTION notes_ascii()"
            ))  # fmt: skip
            name = conn.execute(sa.text("SELECT current_schema()")).scalar()
        else:
            conn.execute(sa.text(
                "CREATE TABLE notes (code VARCHAR(10) NOT NULL PRIMARY KEY, note VARCHAR(20) CHARACTER SET latin1)"
            ))  # fmt: skip
            name = conn.execute(sa.text("SELECT DATABASE()")).scalar()
    return f"{name}.notes"


@pytest.mark.parametrize("mode", ["insert", "update", "upsert"])
def test_a_value_the_company_column_cannot_keep_fails_alone(core: Core, tmp_path: Path, mode: str) -> None:
    write_type(core, NOTES.format(table=_notes_table(core)), "notes.toml")
    first = [["A1", "one"], ["A2", "two"], ["A3", "three"]]
    if mode != "insert":
        done = run_type_import(core, write_rows(tmp_path / "a.csv", ["编码", "备注"], first), "notes")
        assert done.status is TaskStatus.SUCCEEDED, done.error_msg
    rows = [["A1", "uno"], ["A2", "东西"], ["A3", "tres"]]
    task = run_type_import(core, write_rows(tmp_path / "b.csv", ["编码", "备注"], rows), "notes", mode=mode)
    assert task.error_code is None and task.retries == 0, task.error_msg
    assert error_codes(task) == {3: ["rejected_by_database"]}
    kept = "two" if mode != "insert" else None
    expected = [("A1", "uno"), ("A2", kept), ("A3", "tres")] if kept else [("A1", "uno"), ("A3", "tres")]
    assert rows_of(core, "notes", ["code", "note"], ["code"]) == expected
