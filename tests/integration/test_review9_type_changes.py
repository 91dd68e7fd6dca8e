"""Review of issue 9: import types as data, and changing a type after rows are in.

- an enum's `default` is "one of the stored values" (docs); a stored value that is not also an input
  must still work;
- a kind change is a type change: refused with a problem naming the file and the column (exit 2);
- the embedded database creates the table of a type when it is needed, also after it was dropped.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa

from desktop_app.app import Core
from desktop_app.cli.main import main
from desktop_app.domain.status import TaskStatus
from tests.support.imports import rows_of, run_type_import, write_rows, write_type

BASE = """\
name = "gadgets"
title_zh = "小物件"
title_en = "Gadgets"
table = "gadgets"
unique_key = "code"

[[columns]]
key = "code"
label_zh = "编码"
label_en = "Code"
aliases = ["编码", "code"]
required = true
max_length = 10

[[columns]]
key = "v"
label_zh = "值"
label_en = "Value"
aliases = ["值", "v"]
"""


def test_an_enum_default_that_is_a_stored_value_works(core: Core, tmp_path: Path) -> None:
    # docs: "default ... (for an enum: one of the stored values)"; the inputs here are 红/绿 only
    write_type(core, BASE + 'kind = "enum"\nenum = { "红" = "R", "绿" = "G" }\ndefault = "G"\n', "gadgets.toml")
    task = run_type_import(core, write_rows(tmp_path / "g.csv", ["编码", "值"], [["A1", "红"], ["A2", ""]]),
                           "gadgets")  # fmt: skip
    assert task.status is TaskStatus.SUCCEEDED, task.error_msg
    assert rows_of(core, "gadgets", ["code", "v"], ["code"]) == [("A1", "R"), ("A2", "G")]


@pytest.mark.parametrize(
    ("before", "values", "after"),
    [
        ('kind = "integer"', ["5", "200"], 'kind = "boolean"'),
        ('kind = "boolean"', ["是", "否"], 'kind = "integer"'),
    ],
    ids=["integer-to-boolean", "boolean-to-integer"],
)
def test_a_kind_change_after_rows_are_in_is_refused(
    core: Core, tmp_path: Path, before: str, values: list[str], after: str, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    write_type(core, BASE + before + "\n", "gadgets.toml")
    rows = [[f"C{i}", v] for i, v in enumerate(values)]
    first = run_type_import(core, write_rows(tmp_path / "a.csv", ["编码", "值"], rows), "gadgets")
    assert first.success_count == len(values), first.error_msg
    broken = write_type(core, BASE + after + "\n", "gadgets.toml")
    later = write_rows(tmp_path / "b.csv", ["编码", "值"], [["N1", "300" if "integer" in after else "是"]])
    monkeypatch.setenv("BATCHDESK_HOME", str(core.paths.data_dir))
    code = main(["import", str(later), "--type", "gadgets", "--json", "--db", core.db_url, "--user", "x"])
    err = capsys.readouterr().err
    assert code == 2 and str(broken) in err and "'v'" in err, (code, err)


def test_a_table_dropped_by_hand_is_created_again(core: Core, tmp_path: Path) -> None:
    write_type(core, BASE + "max_length = 20\n", "gadgets.toml")
    path = write_rows(tmp_path / "a.csv", ["编码", "值"], [["A1", "x"], ["A2", "y"]])
    assert run_type_import(core, path, "gadgets").success_count == 2
    with core.store.engine.begin() as conn:
        conn.execute(sa.text("DROP TABLE gadgets"))  # an administrator starts the table over
    again = run_type_import(core, path, "gadgets", force=True)
    assert again.status is TaskStatus.SUCCEEDED and again.success_count == 2, again.error_msg
