"""One row is "1 row", never "1 rows": every count the window puts in a sentence, for one and for many."""

from __future__ import annotations

from typing import Any

import pytest

from desktop_app.domain.status import TaskStatus
from desktop_app.imports.value_fixes import BadValue
from desktop_app.tasks import builtin_kinds
from desktop_app.ui.dialogs.confirm_undo import UndoQuestion
from desktop_app.ui.dialogs.value_fix import ValueFixDialog
from desktop_app.ui.outcomes import outcome_text
from tests.gui.test_task_model import task


@pytest.mark.parametrize(
    ("kind", "mode", "dry_run", "expected"),
    [
        ("import", "insert", False, "Done: 1 row imported"),
        ("import", "insert", True, "Checked: the 1 row would import"),
        ("import", "delete", False, "Done: 1 row deleted"),
        ("export", None, False, "Done: 1 row exported"),
    ],
)
def test_an_outcome_of_one_row(kind: str, mode: str | None, dry_run: bool, expected: str) -> None:
    params: dict[str, Any] = {"file": "/data/a.csv", "import_type": "customers", "dry_run": dry_run}
    if mode:
        params["mode"] = mode
    one = task(1, TaskStatus.SUCCEEDED, total_count=1, success_count=1, fail_count=0, params=params,
               summary={"deleted_count": 1} if mode == "delete" else {})  # fmt: skip
    words = builtin_kinds.EXPORT if kind == "export" else builtin_kinds.IMPORT
    if kind == "export":
        one = task(1, TaskStatus.SUCCEEDED, task_type="export", total_count=1, success_count=1, params={})
    assert outcome_text(one, words) == expected
    many = task(2, TaskStatus.SUCCEEDED, total_count=3, success_count=3, fail_count=0, params=one.params,
                task_type=one.task_type, summary={"deleted_count": 3} if mode == "delete" else {})  # fmt: skip
    assert "3 rows" in (outcome_text(many, words) or "")


@pytest.mark.parametrize(
    ("count", "expected"),
    [
        ("inserted_count", "The 1 row it added will be removed."),
        ("updated_count", "The 1 row it changed gets its old values back."),
        ("deleted_count", "The 1 row it deleted will be put back."),
    ],
)
def test_the_undo_question_of_one_row(qtbot: Any, count: str, expected: str) -> None:
    record = task(1, TaskStatus.SUCCEEDED, total_count=1, success_count=1, summary={"inserted_count": 0, count: 1})
    question = UndoQuestion(record, None)
    qtbot.addWidget(question)
    assert expected in question.informativeText() and "1 rows" not in question.informativeText()


def test_fix_values_of_one_row(qtbot: Any) -> None:
    record = task(1, TaskStatus.PARTIALLY_SUCCEEDED, total_count=2, success_count=1, fail_count=1)
    dialog = ValueFixDialog(record, [BadValue("level", "钻石", 1, ("普通", "金卡"))], {"level": "Level"})
    qtbot.addWidget(dialog)
    from PySide6.QtWidgets import QLabel

    texts = [label.text() for label in dialog.findChildren(QLabel)]
    assert any(t.startswith("1 row of this import failed for a value its column") for t in texts)
    assert not any("1 rows" in t for t in texts)


@pytest.mark.parametrize(
    ("mode", "counts", "expected"),
    [
        ("upsert", {"inserted_count": 2, "updated_count": 3, "unchanged_count": 20},
         "Done: 2 added, 3 updated, 20 unchanged"),
        ("update", {"updated_count": 1_250, "unchanged_count": 1}, "Done: 1,250 updated, 1 unchanged"),
        ("sync", {"inserted_count": 1, "updated_count": 0, "unchanged_count": 0, "deleted_count": 4},
         "Done: 1 added, 4 deleted"),
        ("upsert", {"inserted_count": 5, "updated_count": 0, "unchanged_count": 0}, "Done: 5 rows imported"),
        ("insert", {"inserted_count": 5}, "Done: 5 rows imported"),
    ],
)  # fmt: skip
def test_an_update_says_what_its_rows_became(mode: str, counts: dict[str, int], expected: str) -> None:
    """An upsert of 2 new rows, 3 changed and 20 the same once read "Done: 25 rows imported"."""
    rows = sum(v for k, v in counts.items() if k != "deleted_count")
    record = task(1, TaskStatus.SUCCEEDED, total_count=rows, success_count=rows, fail_count=0,
                  params={"file": "/data/a.csv", "import_type": "customers", "mode": mode}, summary=counts)  # fmt: skip
    assert outcome_text(record, builtin_kinds.IMPORT) == expected
    checked = task(2, TaskStatus.SUCCEEDED, total_count=rows, success_count=rows, fail_count=0, summary=counts,
                   params={**record.params, "dry_run": True})  # fmt: skip
    assert (outcome_text(checked, builtin_kinds.IMPORT) or "").startswith("Checked:")  # a dry run changed nothing


@pytest.mark.parametrize(("bad", "tail"), [(1, "1 row with errors"), (3, "3 rows with errors")])
def test_an_update_with_rows_in_error_says_what_its_rows_became(bad: int, tail: str) -> None:
    """Seen through the frozen app: an applied plan of 2 new rows, 5 changed and 4 the same read "Done: 11 of 12
    imported, 1 row with errors", as if all eleven were written."""
    counts = {"inserted_count": 2, "updated_count": 5, "unchanged_count": 4}
    params = {"file": "/data/a.csv", "import_type": "customers", "mode": "upsert"}
    record = task(1, TaskStatus.PARTIALLY_SUCCEEDED, total_count=11 + bad, success_count=11, fail_count=bad,
                  params=params, summary=counts)  # fmt: skip
    assert outcome_text(record, builtin_kinds.IMPORT) == f"Done: 2 added, 5 updated, 4 unchanged, {tail}"
