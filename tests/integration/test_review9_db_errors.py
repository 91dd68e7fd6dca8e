"""Review of issue 9: database errors that are not passing are permanent, and a row the database refuses
fails alone, in every mode.

"Any database error that is not passing (a missing table or column, a permission, a syntax error) is
permanent: only a lost connection, a lock timeout or a deadlock retries." / "The error CSV, resume, fencing
and the row-by-row redo work in every mode." / "A text key column without max_length is stored as
VARCHAR(255)". / "range problems stay out_of_range".
"""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import pytest
import sqlalchemy as sa

from desktop_app.app import Core
from desktop_app.cli.main import main
from desktop_app.domain.errors import ErrorCode
from desktop_app.domain.status import TaskStatus
from desktop_app.imports.options import ImportOptions
from tests.support.imports import error_codes, rows_of, run_type_import, write_rows, write_type
from tests.support.running import run_now


def _type(table: str, key_column: str, value_column: str, *, create: bool = True) -> str:
    return (
        f'name = "things"\ntitle_zh = "东西"\ntitle_en = "Things"\ntable = "{table}"\nunique_key = "code"\n'
        + ("" if create else "create = false\n")
        + '\n[[columns]]\nkey = "code"\nlabel_zh = "编码"\nlabel_en = "Code"\naliases = ["编码", "code"]\n'
        + f"required = true\n{key_column}\n"
        + '\n[[columns]]\nkey = "amount"\nlabel_zh = "金额"\nlabel_en = "Amount"\naliases = ["金额", "amount"]\n'
        + f"{value_column}\n"
    )


DECIMAL = 'kind = "decimal"\ndecimal_scale = 2'


def test_a_table_in_a_schema_that_does_not_exist_is_not_retried(core: Core, tmp_path: Path) -> None:
    write_type(core, _type("rv9nowhere.things", "max_length = 10", DECIMAL), "things.toml")
    path = write_rows(tmp_path / "t.csv", ["编码", "金额"], [["A1", "1.00"]])
    try:
        result = core.submitter().submit_import(ImportOptions(file=path, import_type="things"), user="tester")
    except Exception as exc:  # refused at once, as a type with a problem: fine
        assert getattr(exc, "code", None) is ErrorCode.IMPORT_TYPE_INVALID, exc
        return
    ended = run_now(core, result.task.id)
    # a missing schema/database is not "the database cannot be reached": it fails at once, in words
    assert ended.status is TaskStatus.FAILED and ended.retries == 0, (ended.status, ended.error_msg)
    assert ended.error_code == ErrorCode.SCHEMA_MISMATCH, (ended.error_code, ended.error_msg)
    assert "INSERT" not in (ended.error_msg or "") and "CREATE" not in (ended.error_msg or ""), ended.error_msg


def test_a_managed_tables_rows_cannot_be_undone_after_the_table_was_dropped_not_retried(
    core: Core, tmp_path: Path
) -> None:  # fmt: skip
    write_type(core, _type("things", "max_length = 10", DECIMAL), "things.toml")
    task = run_type_import(core, write_rows(tmp_path / "t.csv", ["编码", "金额"], [["A1", "1.00"]]), "things")
    with core.store.engine.begin() as conn:
        conn.execute(sa.text("DROP TABLE things"))
    result = core.submitter().submit_undo(task.task_no, user="tester")
    ended = run_now(core, result.task.id)
    assert ended.status is TaskStatus.FAILED and ended.retries == 0, (ended.status, ended.error_msg)
    assert ended.error_code == ErrorCode.SCHEMA_MISMATCH, (ended.error_code, ended.error_msg)
    assert "things" in (ended.error_msg or "") and "SELECT" not in (ended.error_msg or ""), ended.error_msg


# --- a text key without max_length is VARCHAR(255): a longer key is that row's too_long ------------------


def test_a_text_key_longer_than_its_stored_255_characters_fails_alone(core: Core, tmp_path: Path) -> None:
    write_type(core, _type("things", "", DECIMAL), "things.toml")
    rows = [["K1", "1.00"], ["K" * 300, "2.00"], ["K3", "3.00"]]
    task = run_type_import(core, write_rows(tmp_path / "t.csv", ["编码", "金额"], rows), "things")
    assert task.error_code is None, task.error_msg  # not internal_error for the whole file
    assert error_codes(task) == {3: ["too_long"]}
    assert rows_of(core, "things", ["code"], ["code"]) == [("K1",), ("K3",)]


# --- a decimal beyond what its column stores is out_of_range, not a failed import ------------------------


def test_a_decimal_beyond_its_columns_digits_is_out_of_range(core: Core, tmp_path: Path) -> None:
    write_type(core, _type("things", "max_length = 10", DECIMAL + "\ndecimal_min = 0"), "things.toml")
    rows = [["A1", "1.50"], ["A2", "12345678901234567890.50"], ["A3", "2"]]
    task = run_type_import(core, write_rows(tmp_path / "t.csv", ["编码", "金额"], rows), "things")
    assert task.error_code is None, task.error_msg
    assert error_codes(task) == {3: ["out_of_range"]}
    assert [r[0] for r in rows_of(core, "things", ["code"], ["code"])] == ["A1", "A3"]


def test_a_decimal_within_its_bounds_comes_back_as_written_and_undoes(
    core: Core, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:  # fmt: skip
    # decimal_max 17 digits and 2 decimal places: 19 digits, which PostgreSQL and MariaDB keep as written.
    # SQLite keeps 15 significant digits of a number (a REAL): there the type has a problem and never runs.
    broken = write_type(core, _type("things", "max_length = 10",
                                    DECIMAL + "\ndecimal_min = 0\ndecimal_max = 99999999999999999"),
                        "things.toml")  # fmt: skip
    path = write_rows(tmp_path / "t.csv", ["编码", "金额"], [["A1", "12345678901234567.89"], ["A2", "0.10"]])
    if core.store.engine.dialect.name == "sqlite":
        monkeypatch.setenv("BATCHDESK_HOME", str(core.paths.data_dir))
        assert main(["types", "--json", "--db", core.db_url]) == 0
        (listed,) = [t for t in json.loads(capsys.readouterr().out) if t["name"] == "things"]
        assert "column 'amount': SQLite keeps 15 significant digits" in listed["problem"], listed["problem"]
        code = main(["import", str(path), "--type", "things", "--json", "--db", core.db_url, "--user", "x"])
        err = capsys.readouterr().err
        assert code == 2 and err.count("\n") == 1 and str(broken) in err and "15 significant digits" in err, err
        return
    task = run_type_import(core, path, "things")
    assert task.status is TaskStatus.SUCCEEDED, task.error_msg
    (first, _second) = rows_of(core, "things", ["amount"], ["code"])
    assert Decimal(str(first[0])) == Decimal("12345678901234567.89")
    same = run_type_import(core, path, "things", mode="upsert")
    assert same.to_json()["unchanged_count"] == 2  # the same file changes nothing
    result = core.submitter().submit_undo(task.task_no, user="tester")
    done = run_now(core, result.task.id)
    j = done.to_json()
    assert (j["deleted_count"], j["kept_count"]) == (2, 0), done.error_csv


# --- a company's own table with a CHECK constraint (PostgreSQL, MariaDB) ---------------------------------


def _checked_table(core: Core) -> str:
    dialect = core.store.engine.dialect.name
    if dialect == "sqlite":
        pytest.skip("a company's own table: PostgreSQL or MySQL/MariaDB")
    with core.store.engine.begin() as conn:
        schema = conn.execute(sa.text("SELECT current_schema()" if dialect == "postgresql" else "SELECT DATABASE()"))
        name = schema.scalar()
        conn.execute(sa.text(
            "CREATE TABLE ledger (code VARCHAR(10) NOT NULL PRIMARY KEY, amount NUMERIC(10,2), "
            "CONSTRAINT amount_not_negative CHECK (amount >= 0))"
        ))  # fmt: skip
    return f"{name}.ledger"


CHECKED = DECIMAL + "\ndecimal_min = -1000\ndecimal_max = 1000"


def test_insert_a_row_a_check_constraint_refuses_fails_alone(
    core: Core, tmp_path: Path
) -> None:  # fmt: skip
    write_type(core, _type(_checked_table(core), "max_length = 10", CHECKED, create=False), "things.toml")
    rows = [["A1", "1.00"], ["A2", "-5.00"], ["A3", "3.00"], ["A4", "4.00"]]
    task = run_type_import(core, write_rows(tmp_path / "t.csv", ["编码", "金额"], rows), "things")
    assert task.retries == 0 and task.status is TaskStatus.PARTIALLY_SUCCEEDED, (task.status, task.error_msg)
    assert error_codes(task) == {3: ["rejected_by_database"]}


@pytest.mark.parametrize("mode", ["update", "upsert"])
def test_update_a_row_a_check_constraint_refuses_fails_alone(
    core: Core, tmp_path: Path, mode: str
) -> None:  # fmt: skip
    write_type(core, _type(_checked_table(core), "max_length = 10", CHECKED, create=False), "things.toml")
    rows = [["A1", "1.00"], ["A2", "2.00"], ["A3", "3.00"], ["A4", "4.00"]]
    first = run_type_import(core, write_rows(tmp_path / "t.csv", ["编码", "金额"], rows), "things")
    assert first.status is TaskStatus.SUCCEEDED, first.error_msg
    changed = [["A1", "10.00"], ["A2", "-5.00"], ["A3", "30.00"], ["A4", "40.00"]]
    task = run_type_import(core, write_rows(tmp_path / "u.csv", ["编码", "金额"], changed), "things", mode=mode)
    assert task.error_code is None and task.retries == 0, task.error_msg  # not internal_error / retried
    assert error_codes(task) == {3: ["rejected_by_database"]}
    assert task.to_json()["updated_count"] == 3
