"""Notices above the task list: a task ended (with what to do next), a file already queued (its row blinks)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QTimer
from PySide6.QtGui import QAction

from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import TaskRecord
from desktop_app.imports.value_fixes import BadValue
from desktop_app.tasks.kinds import Action
from desktop_app.ui.notice_bar import NoticeBar
from desktop_app.ui.outcomes import Tone, ended_text, tone
from desktop_app.ui.task_actions import TaskActions, addable_tables, can_resume
from desktop_app.ui.task_model import TaskTableModel, shown_file_name
from desktop_app.ui.texts import status_text

HIGHLIGHT_MS = 6000
FLASHES = 5  # a row blinks this many times before it stays highlighted
FLASH_MS = 300


class TaskNotices(QObject):
    """Says what happened where the clerk looks; `select(task_id)` selects a row (False if it cannot)."""

    def __init__(self, notice: NoticeBar, model: TaskTableModel, actions: TaskActions,
                 select: Callable[[int], bool], parent: QObject | None = None) -> None:  # fmt: skip
        super().__init__(parent)
        self._notice, self._model, self._actions, self._select = notice, model, actions, select
        self._highlight_timer = QTimer(self)
        self._highlight_timer.setSingleShot(True)
        self._highlight_timer.timeout.connect(lambda: model.set_highlight(None))
        self._flash_timer = QTimer(self)
        self._flash_timer.setInterval(FLASH_MS)
        self._flash_timer.timeout.connect(self._flash)
        self._flashing: tuple[int, int] | None = None  # (task id, blinks left)
        self._offering_add: tuple[int, str] | None = None  # the notice offering to add names: task id, its text

    def already_queued(self, record: TaskRecord, text: str) -> None:
        """The same file or export is queued already: its row blinks, and the notice says how far it is."""
        self.flash_row(record.id)
        state = self.tr("%1, %2%").replace("%1", status_text(record.status)).replace("%2", str(record.progress))
        # the bracket is the translation's: Chinese takes a full-width one, without a space
        said = self.tr("%1 (%2)").replace("%1", text).replace("%2", state)
        self._notice.show_notice(said, Tone.RUNNING,
                                 [(self.tr("Show the task"), lambda: self.reveal(record.id))])  # fmt: skip

    def task_ended(self, record: TaskRecord) -> None:
        """A task seen running ended: how, in words, with the next step (its file opens if asked for)."""
        self._show_ended(record, opened=self._actions.open_ended(record))

    def _show_ended(self, record: TaskRecord, *, opened: bool) -> None:
        buttons: list[tuple[str, Callable[[], Any]]] = []
        stays: frozenset[int] = frozenset()
        kind = self._model.kinds.of(record)
        text = ended_text(record, kind, shown_file_name(record))
        if record.cancel_requested and record.status is not TaskStatus.CANCELLED:
            # Asked to cancel, it reached its end before its next batch boundary: said, so the clerk
            # does not take the rows for stopped (a million-row import can end in seconds).
            text += self.tr(" (it ended before the cancel could stop it)")
        # The next step first, where the clerk reads that the task ended: a cancelled import's remaining rows,
        # an import's names not found (a green "Succeeded" alone would hide that rows wait for them).
        if can_resume(record, kind):
            buttons.append((self.tr("Import the remaining rows"), lambda: self._resume(record)))
        elif addable_tables(record, kind) and record.pending_completion_count:
            # the outcome says how many rows name something not found yet (task_words.LineWord.WAITING); the
            # details list the names. The space is the translation's: Chinese puts none before its full-width bracket
            text += self.tr(" (see the details)")
            # it asks first: the notice stays while it asks, and a "Do not add" leaves it with its other buttons
            stays = frozenset({len(buttons)})
            buttons.append((self.tr("Add the missing names and complete"),
                            lambda: self._act_on(record, self._actions.add_references)))  # fmt: skip
        elif self._actions.plan_to_review(record):
            # a dry run's plan: what it would change is one click away, where the clerk reads that it ended
            buttons.append((self.tr("Review the changes…"), lambda: self._act_on(record, self._actions.review_plan)))
        if self._fixable(record, lambda: self._notice.text() == shown,
                         lambda: self._show_ended(record, opened=opened)):  # fmt: skip
            # rows failed for a value their column does not allow: fixed here, not in the error file
            buttons.append((self.tr("Fix values…"), lambda: self._act_on(record, self._actions.fix_values)))
        if record.error_csv and not opened:
            buttons.append((self.tr("Open error file"), lambda: self._act_on(record, self._actions.open_errors)))
        if kind.allows(Action.OPEN_RESULT) and record.result_path and not opened:
            buttons.append((self.tr("Open the file"), lambda: self._act_on(record, self._actions.open_result)))
        source = self._model.find(str(record.params.get(kind.source) or "")) if kind.source else None
        if kind.system and source is not None:
            buttons.append((self.tr("Show the import"), lambda: self.reveal(source.id)))
        elif not kind.system:
            buttons.append((self.tr("Show the task"), lambda: self.reveal(record.id)))
        # It stays until the clerk closes it or a newer notice comes: a clerk back at the desk still sees it.
        shown = text
        self._offering_add = (record.id, text) if stays else None
        self._notice.show_notice(text, tone(record, kind), buttons, timeout_ms=0, stays=stays,
                                 again=lambda: self._show_ended(record, opened=opened))  # fmt: skip

    def names_added(self, record: TaskRecord) -> None:
        """The clerk said yes to adding an import's missing names (from anywhere): its notice offering them
        closes, if still shown (it stayed up while the question asked)."""
        if self._offering_add is not None and self._offering_add == (record.id, self._notice.text()):
            self._notice.dismiss()

    def _fixable(self, record: TaskRecord, still_shown: Callable[[], bool], again: Callable[[], None]) -> bool:
        """Whether the import's refused values are known to be fixable now; not known yet, they are read, and a
        notice still shown once they are (``still_shown``) is said ``again``, offering the fix then."""
        now: list[bool] = []
        asked = True

        def answered(found: list[BadValue]) -> None:
            if asked:
                now.append(bool(found))
            elif found and still_shown():
                again()

        self._actions.values_to_fix(record, answered)
        asked = False
        return bool(now and now[0])

    def reveal(self, task_id: int) -> None:
        if self._select(task_id):
            self.flash_row(task_id)

    def open_errors(self, record: TaskRecord) -> None:
        """The task's error file opened (the list's "Open error file"), the task selected first."""
        self._act_on(record, self._actions.open_errors)

    def _resume(self, record: TaskRecord) -> None:
        """The notice's "Import the remaining rows": continued since the notice was shown (from the details, the
        menu, another desk), it says by which task and shows it (seen: the button then did nothing)."""
        now = self._model.find(record.task_no) or record
        later = self._model.find(now.resumed_by) if now.resumed_by else None
        if now.resumed_by:
            text = self.tr("The remaining rows of %1 were already continued by %2.")
            buttons = [(self.tr("Show the task"), lambda: self.reveal(later.id))] if later is not None else []
            self._notice.show_notice(text.replace("%1", now.task_no).replace("%2", now.resumed_by), Tone.NEUTRAL,
                                     buttons)  # fmt: skip
            return
        self._act_on(now, self._actions.resume)

    def _act_on(self, record: TaskRecord, action: QAction) -> None:
        """Run a task action on a task that may no longer be the selected one."""
        if self._select(record.id):
            action.trigger()

    def flash_row(self, task_id: int) -> None:
        """Blink the row a few times, then keep it highlighted for a while: the eye finds it."""
        self._flashing = (task_id, FLASHES * 2)
        self._model.set_highlight(task_id)
        self._flash_timer.start()
        self._highlight_timer.start(HIGHLIGHT_MS)

    def _flash(self) -> None:
        if self._flashing is None:
            self._flash_timer.stop()
            return
        task_id, left = self._flashing
        left -= 1
        self._model.set_highlight(task_id if left % 2 == 0 else None)
        self._flashing = (task_id, left) if left > 0 else None
