"""The window as the screenshot scripts show it: a desk on a core, maximised, with waits and whole-screen
shots (run under an X server with a window manager). Used by the scripts/screens_*.py."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


class ShownWindow:
    """A Desk started on `core` with its window maximised; `wait(ms)` lets Qt work, `shot(name)` saves the
    screen as PREFIX-NAME.png."""

    def __init__(self, core: Any, settings_dir: Path, prefix: str) -> None:
        from PySide6.QtCore import QEventLoop, QSettings
        from PySide6.QtWidgets import QApplication

        from desktop_app.ui.desk import Desk

        self.app = QApplication.instance() or QApplication([sys.argv[0]])
        self.app.setQuitOnLastWindowClosed(False)  # type: ignore[attr-defined]
        self.desk = Desk(self.app, core, QSettings(str(settings_dir / "window.ini"), QSettings.Format.IniFormat))
        self.desk.start()
        self.window = self.desk.window
        self.window.showMaximized()
        self.prefix = prefix
        self._loop = QEventLoop()

    def wait(self, ms: int) -> None:
        from PySide6.QtCore import QTimer

        QTimer.singleShot(ms, self._loop.quit)
        self._loop.exec()

    def shot(self, name: str) -> None:
        self.wait(900)  # the window manager's frame, a repaint
        self.app.primaryScreen().grabWindow(0).save(f"{self.prefix}-{name}.png")  # type: ignore[attr-defined]

    def sample_tasks(self) -> list[Any]:
        """The demo's sample imports queued (ui/demo.py) and waited for (at most a minute) until each has ended;
        the list's records."""
        from desktop_app.ui.demo import sample_jobs

        jobs = sample_jobs(self.desk.core.settings)
        self.desk.service.submit_many(jobs)
        model = self.window.model
        for _ in range(120):
            self.wait(500)
            if model.rowCount() == len(jobs) and all(r.status.is_final for r in model.records()):
                break
        return list(model.records())

    def ended_notice(self, record: Any) -> None:
        """The notice of a task that ended, as the window says it (shot as "notice"), its first button clicked."""
        self.wait(1500)
        self.window.notices.task_ended(record)
        self.wait(1500)
        self.shot("notice")
        self.window.notice.buttons[0].click()
        self.wait(1500)

    def review_plan(self, task_id: int) -> Any:
        """A dry run's change plan, opened as a clerk opens it (the task selected, "Review the changes…")."""
        self.window.select_task(task_id)
        self.wait(800)
        self.window.actions_.review_plan.trigger()
        self.wait(2500)
        plan = self.window.plan_dialog
        assert plan is not None
        return plan

    def preview(self, path: Path, mode: str, import_type: str = "customers") -> Any:
        """The preview of `path` with `mode` chosen as a clerk chooses it, its rows looked up."""
        self.window.open_preview(path, import_type, False)
        self.wait(2500)
        dialog = self.window.preview
        assert dialog is not None
        box = dialog.mode_box
        box.setCurrentIndex(box.findData(mode))
        box.activated.emit(box.currentIndex())
        self.wait(2500)
        return dialog
