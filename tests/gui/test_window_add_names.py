"""Adding an import's missing names to master data (a clerk's tryout of the frozen app): asked first wherever
the window offers it (notice, menu, details), the question naming what is added; and the completion a clerk
started is listed like any task they asked for."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtWidgets import QLabel

from desktop_app.domain.status import TaskStatus
from tests.gui.test_window_queue import TIMEOUT, qtbot_left, wait_status
from tests.gui.test_window_resume import import_new_departments
from tests.support.customers import row, write_csv


def asked(qtbot: Any, window: Any) -> Any:
    """The add-names question the window opened."""
    qtbot.waitUntil(lambda: getattr(window, "add_names_question", None) is not None, timeout=TIMEOUT)
    return window.add_names_question


def answer(qtbot: Any, window: Any, question: Any, button: Any) -> None:
    qtbot.mouseClick(button, qtbot_left())
    qtbot.waitUntil(lambda: window.add_names_question is not question, timeout=TIMEOUT)


def completions(desk: Any) -> list[Any]:
    return [t for t in desk.core.store.list(limit=100) if t.task_type == "complete_references"]


def test_adding_the_missing_names_asks_first_wherever_it_is_offered(
    qtbot: Any, make_desk: Any, tmp_path: Path
) -> None:
    # seen: just after an import ended, its notice's button at the spot the clerk had just clicked added
    # 31,500 department names at once, without a word
    desk, ended = import_new_departments(qtbot, make_desk, tmp_path)
    window = desk.window
    notice = window.notice
    qtbot.waitUntil(lambda: ended.task_no in notice.text(), timeout=TIMEOUT)
    qtbot.mouseClick(notice.buttons[0], qtbot_left())
    question = asked(qtbot, window)
    assert question.text() == "Add 1 name to the master data?"
    words = question.informativeText()
    assert "Department (1 new name): 华东销售部" in words, words
    assert f"This completes up to 4 rows of task {ended.task_no} waiting on them." in words, words
    # adding master data is never the answer to a stray Enter or Escape
    assert question.defaultButton() is question.keep_button
    assert question.escapeButton() is question.keep_button
    assert question.defaultButton() is not question.add_button
    answer(qtbot, window, question, question.keep_button)
    qtbot.wait(200)
    assert completions(desk) == [], "nothing is added when the clerk says no"
    # the menu's action asks the same
    window.select_task(ended.id)
    qtbot.waitUntil(window.actions_.add_references.isEnabled)
    window.actions_.add_references.trigger()
    question = asked(qtbot, window)
    answer(qtbot, window, question, question.keep_button)
    # and so does the details' button; yes adds them and completes the rows
    window.actions_.details.trigger()
    details = window.details
    qtbot.waitUntil(lambda: details.record is not None and details.record.id == ended.id)
    (button,) = [b for b in details.step_buttons if b.defaultAction() is window.actions_.add_references]
    qtbot.mouseClick(button, qtbot_left())
    question = asked(qtbot, window)
    assert completions(desk) == []
    answer(qtbot, window, question, question.add_button)
    model = window.model
    qtbot.waitUntil(lambda: model.record(model.row_of(ended.id) or 0).pending_completion_count == 0, timeout=TIMEOUT)


def test_the_add_question_counts_every_name_not_only_those_the_summary_lists(
    qtbot: Any, make_desk: Any, tmp_path: Path
) -> None:
    # the import's summary keeps the first 100 names: the question must say how many are really added
    rows = [row(i, 部门=f"人事部{i}") for i in range(1, 131)]
    path = write_csv(tmp_path / "many_departments.csv", rows)
    desk = make_desk()
    window = desk.window
    from tests.gui.test_window_queue import queue, wait_for_task

    queue(qtbot, window, path)
    task = wait_for_task(qtbot, window, 1)
    ended = wait_status(qtbot, window, task.task_no, TaskStatus.SUCCEEDED)
    window.select_task(ended.id)
    qtbot.waitUntil(window.actions_.add_references.isEnabled)
    window.actions_.add_references.trigger()
    question = asked(qtbot, window)
    assert question.text() == "Add 130 names to the master data?"
    assert "(125 more)" in question.informativeText()
    assert question.add_button.text() == "&Add 130 names"
    answer(qtbot, window, question, question.keep_button)


def test_a_completion_the_clerk_started_is_listed_like_their_other_tasks(
    qtbot: Any, make_desk: Any, tmp_path: Path
) -> None:
    # seen: the completion was in `batchdesk tasks` but never in the window's list (a hidden "system" task)
    desk, ended = import_new_departments(qtbot, make_desk, tmp_path)
    window = desk.window
    assert desk.service.complete_references(ended)
    qtbot.waitUntil(lambda: len(completions(desk)) == 1, timeout=TIMEOUT)
    (completion,) = completions(desk)
    model = window.model
    qtbot.waitUntil(lambda: model.row_of(completion.id) is not None, timeout=TIMEOUT)
    assert not window.menus.system_action.isChecked()
    source = model.index(model.row_of(completion.id) or 0, 0)
    assert window.proxy.mapFromSource(source).isValid(), "the completion is listed with system tasks hidden"


def unbroken(qtbot: Any, question: Any) -> list[str]:
    """The question's lines that its box wraps (none: each reads on one line)."""
    qtbot.waitExposed(question)
    label = question.findChild(QLabel, "qt_msgbox_informativelabel")
    width = label.contentsRect().width()
    return [line for line in label.text().splitlines() if label.fontMetrics().horizontalAdvance(line) > width]


def test_the_add_question_names_the_column_as_the_clerk_knows_it_on_unbroken_lines(
    qtbot: Any, make_desk: Any, tmp_path: Path
) -> None:
    # seen: "1 name to the table departments (column Department)": the database's name, where the preview and
    # the error file say "Department"; and in Chinese the box as narrow as its question, "部门" broken in two
    desk, ended = import_new_departments(qtbot, make_desk, tmp_path)
    window = desk.window
    window.select_task(ended.id)
    qtbot.waitUntil(window.actions_.add_references.isEnabled)
    for language, first in (("en", "Department (1 new name): 华东销售部"), ("zh", "部门（1 个新名称）：华东销售部")):
        desk.set_language(language)
        window.actions_.add_references.trigger()
        question = asked(qtbot, window)
        words = question.informativeText()
        assert words.splitlines()[0] == first, words
        assert "departments" not in words
        assert unbroken(qtbot, question) == []
        answer(qtbot, window, question, question.keep_button)


def test_do_not_add_leaves_the_notice_with_its_other_buttons(qtbot: Any, make_desk: Any, tmp_path: Path) -> None:
    # seen: "Do not add" (the question's default) closed the notice too: its "Open error file" was gone
    rows = [row(i, 部门="华东销售部") if i % 5 == 0 else row(i) for i in range(1, 11)]
    rows[1] = row(2, 手机号="bad")
    desk = make_desk()
    window = desk.window
    from tests.gui.test_window_queue import queue, wait_for_task

    queue(qtbot, window, write_csv(tmp_path / "with_errors.csv", rows))
    task = wait_for_task(qtbot, window, 1)
    ended = wait_status(qtbot, window, task.task_no, TaskStatus.PARTIALLY_SUCCEEDED)
    notice = window.notice
    qtbot.waitUntil(lambda: ended.task_no in notice.text(), timeout=TIMEOUT)
    said = notice.text()
    offered = [b.text() for b in notice.buttons if b.isVisibleTo(notice)]
    assert offered == ["Add the missing names and complete", "Open error file"]
    qtbot.mouseClick(notice.buttons[0], qtbot_left())
    question = asked(qtbot, window)
    answer(qtbot, window, question, question.keep_button)
    assert notice.isVisibleTo(window) and notice.text() == said, "the notice stays as it was"
    assert [b.text() for b in notice.buttons if b.isVisibleTo(notice)] == offered
    # asked again from it, yes adds the names: the notice has done its part and closes
    qtbot.mouseClick(notice.buttons[0], qtbot_left())
    question = asked(qtbot, window)
    answer(qtbot, window, question, question.add_button)
    assert not notice.isVisibleTo(window)
    qtbot.waitUntil(lambda: len(completions(desk)) == 1, timeout=TIMEOUT)
